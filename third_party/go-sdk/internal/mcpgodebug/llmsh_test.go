package mcpgodebug

import "testing"

// TestMalformedSetsNothing: a malformed MCPGODEBUG sets no parameter and
// is read only when a parameter is asked for (it made every start of
// llmsh panic in package init).
func TestMalformedSetsNothing(t *testing.T) {
	t.Setenv(compatibilityEnvKey, "x,y=1")
	if v := Value("y"); v != "" {
		t.Errorf("Value(y) = %q under a malformed MCPGODEBUG, want empty", v)
	}
	if p, err := parseCompatibility("a=1, b = 2"); err != nil || p["a"] != "1" || p["b"] != "2" {
		t.Errorf("parseCompatibility = %v, %v", p, err)
	}
}
