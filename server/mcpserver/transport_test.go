package mcpserver

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/llmsh/llmsh"
)

// TestTransportSurvivesBadLines: lines that are not JSON, not JSON-RPC, a
// batch or too long get a JSON-RPC error each, and the session goes on to
// answer the valid requests around them (llmsh mcp used to exit on the
// first such line).
func TestTransportSurvivesBadLines(t *testing.T) {
	sess, err := llmsh.New(llmsh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	srv := New(sess, Config{Version: "test"})
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`,
		`{this is not json`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`[{"jsonrpc":"2.0","id":7,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":8,"bogus":true}`,
		`"just a string"`,
		strings.Repeat("x", MaxLine+10),
		``,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo still here"}}}`,
	}, "\n") + "\n"
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(t.Context(), Transport(strings.NewReader(in), pw))
		pw.Close()
	}()
	type resp struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	var got []resp
	sc := bufio.NewScanner(pr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r resp
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("output line %q: %v", sc.Text(), err)
		}
		got = append(got, r)
	}
	if err := <-done; err != nil && err != io.EOF {
		t.Logf("Run: %v", err)
	}
	var codes []int
	var ran bool
	for _, r := range got {
		switch {
		case r.Error != nil:
			codes = append(codes, r.Error.Code)
		case string(r.ID) == "2":
			ran = strings.Contains(string(r.Result), "still here")
		}
	}
	want := []int{-32700, -32600, -32600, -32600, -32600}
	if len(codes) != len(want) {
		t.Fatalf("error codes %v, want %v (responses %d)", codes, want, len(got))
	}
	for i := range want {
		if codes[i] != want[i] {
			t.Fatalf("error codes %v, want %v", codes, want)
		}
	}
	if !ran {
		t.Errorf("the tool call after the bad lines did not answer: %d responses", len(got))
	}
}
