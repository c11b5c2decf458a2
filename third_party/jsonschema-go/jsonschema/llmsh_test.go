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
