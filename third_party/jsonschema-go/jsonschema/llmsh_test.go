package jsonschema_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/jsonschema-go/jsonschema"
)

// llmsh's tests of its changes to this package (see ../LLMSH.md): the
// tables that package init built are built on first use.

func TestLLMSHLazyTables(t *testing.T) {
	type reserved struct {
		X int `json:"x" jsonschema:"kind=int"`
	}
	if _, err := jsonschema.For[reserved](nil); err == nil || !strings.Contains(err.Error(), "kind=int") {
		t.Errorf("For with a WORD= tag: %v, want an error naming it", err)
	}
	// A $ref is a JSON pointer, followed through the fields by JSON name.
	var s jsonschema.Schema
	src := `{"$defs":{"n":{"type":"integer","minimum":1}},"properties":{"a":{"$ref":"#/$defs/n"}}}`
	if err := json.Unmarshal([]byte(src), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(map[string]any{"a": 2}); err != nil {
		t.Errorf("a=2: %v", err)
	}
	if err := rs.Validate(map[string]any{"a": 0}); err == nil {
		t.Error("a=0 is below the minimum of the referenced schema, and validated")
	}
	c := s.CloneSchemas()
	if c.Properties["a"] == s.Properties["a"] || c.Properties["a"].Ref != "#/$defs/n" {
		t.Errorf("CloneSchemas: %+v", c.Properties["a"])
	}
}

// TestLLMSHBoundMessages: a number out of bounds is named as JSON writes
// it, and so is the bound ("-5 is less than 0", not "-5/1 is less than
// 0.000000", which llmsh mcp sent a model for timeout_ms: -5).
func TestLLMSHBoundMessages(t *testing.T) {
	var s jsonschema.Schema
	src := `{"properties":{"a":{"type":"number","minimum":0,"maximum":2.5,"exclusiveMinimum":-10,"multipleOf":0.5}}}`
	if err := json.Unmarshal([]byte(src), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range map[float64]string{
		-5:   "minimum: -5 is less than 0",
		3.5:  "maximum: 3.5 is greater than 2.5",
		0.25: "multipleOf: 0.25 is not a multiple of 0.5",
	} {
		if err := rs.Validate(map[string]any{"a": v}); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("a=%v: %v, want %q", v, err, want)
		}
	}
}
