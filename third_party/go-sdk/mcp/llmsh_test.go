package mcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/llmsh/llmsh/third_party/go-sdk/mcp"
)

// llmsh's tests of its changes to this package (see ../LLMSH.md).

// The cursor is the UID in Base64 (upstream: a Gob-encoded struct): a
// page's next cursor is its last tool's name in Base64, and a page given
// such a cursor starts after the name it holds; a cursor that is not
// Base64 is refused.
func TestLLMSHCursor(t *testing.T) {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, &mcp.ServerOptions{PageSize: 1})
	for _, name := range []string{"b", "a"} {
		mcp.AddTool(s, &mcp.Tool{Name: name}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	b64 := func(uid string) string { return base64.URLEncoding.EncodeToString([]byte(uid)) }
	for _, c := range []struct{ cursor, want, next string }{
		{"", "a", b64("a")},
		{b64("a"), "b", ""},
		{b64("0"), "a", b64("a")},
		{b64("tool-a"), "", ""},
		{b64("ünï code/+=?&"), "", ""},
	} {
		res, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: c.cursor})
		if err != nil {
			t.Fatalf("ListTools(%q): %v", c.cursor, err)
		}
		var got string
		for _, tool := range res.Tools {
			got += tool.Name
		}
		if got != c.want || res.NextCursor != c.next {
			t.Errorf("ListTools(%q) = %q, next %q; want %q, next %q", c.cursor, got, res.NextCursor, c.want, c.next)
		}
	}
	if _, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: "not a cursor!"}); err == nil {
		t.Error("ListTools took a cursor that is not Base64")
	}
}

// A client pages through a server's tools with the cursors, and each
// tool's input schema is inferred with jsonschema-go's tables, which it
// now builds on first use.
func TestLLMSHPaginatedTools(t *testing.T) {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	type in struct {
		When time.Time `json:"when"`
	}
	for _, name := range []string{"c", "a", "b"} {
		mcp.AddTool(s, &mcp.Tool{Name: name}, func(context.Context, *mcp.CallToolRequest, in) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var names []string
	pages, cursor := 0, ""
	for {
		res, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
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
