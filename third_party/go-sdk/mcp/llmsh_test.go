package mcp

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// llmsh's tests of its changes to this package (see ../LLMSH.md).

// The cursor is the UID in Base64 (upstream: a Gob-encoded struct).
func TestLLMSHCursor(t *testing.T) {
	for _, uid := range []string{"", "tool-a", "ünï code/+=?&"} {
		c, err := encodeCursor(uid)
		if err != nil {
			t.Fatalf("encodeCursor(%q): %v", uid, err)
		}
		tok, err := decodeCursor(c)
		if err != nil || tok.LastUID != uid {
			t.Errorf("decodeCursor(encodeCursor(%q)) = %+v, %v", uid, tok, err)
		}
	}
	if _, err := decodeCursor("not a cursor!"); err == nil {
		t.Error("decodeCursor took a cursor that is not Base64")
	}
}

// A client pages through a server's tools with the cursors, and each
// tool's input schema is inferred with jsonschema-go's tables, which it
// now builds on first use.
func TestLLMSHPaginatedTools(t *testing.T) {
	ctx := context.Background()
	s := NewServer(&Implementation{Name: "s", Version: "1"}, &ServerOptions{PageSize: 2})
	type in struct {
		When time.Time `json:"when"`
	}
	for _, name := range []string{"c", "a", "b"} {
		AddTool(s, &Tool{Name: name}, func(context.Context, *CallToolRequest, in) (*CallToolResult, any, error) {
			return &CallToolResult{}, nil, nil
		})
	}
	ct, st := NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := NewClient(&Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var names []string
	pages, cursor := 0, ""
	for {
		res, err := cs.ListTools(ctx, &ListToolsParams{Cursor: cursor})
		if err != nil {
			t.Fatalf("ListTools(%q): %v", cursor, err)
		}
		pages++
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			b, _ := json.Marshal(tool.InputSchema)
			var sch struct {
				Properties map[string]struct {
					Type string `json:"type"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(b, &sch); err != nil || sch.Properties["when"].Type != "string" {
				t.Errorf("tool %s: input schema %s, want property when of type string", tool.Name, b)
			}
		}
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(names, want) || pages != 2 {
		t.Errorf("tools %v in %d pages, want %v in 2", names, pages, want)
	}
}
