package mcpserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/llmsh/llmsh"
	. "github.com/llmsh/llmsh/server/mcpserver"
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

// maxPending is transport.go's: the requests passed to the SDK and not
// yet answered.
const maxPending = 16

// TestTransportBoundsPending: no more than maxPending requests are passed
// to the SDK unanswered (it serves them concurrently, and each answer
// waits in memory for a client that may read nothing: 200 reads of a
// 2 MiB resource held 678 MB); the next waits for an answer, and an id a
// client repeats counts each time.
func TestTransportBoundsPending(t *testing.T) {
	var out strings.Builder
	rc, lw, state := ForTests.Transport(&out)
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")
	for range maxPending {
		rc.Write(req) // the same id each time
	}
	rc.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")) // no answer awaited
	done := make(chan struct{})
	go func() {
		rc.Write(req)
		close(done)
	}()
	for waiting := false; !waiting; runtime.Gosched() {
		select {
		case <-done:
			t.Fatal("a request past maxPending was passed on before an answer")
		default:
		}
		waiting, _, _, _ = state()
	}
	lw.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"))
	<-done
	if _, n, pending, _ := state(); n != maxPending || pending["1"] != maxPending {
		t.Fatalf("pending %d (%v), want %d", n, pending, maxPending)
	}
}

// writeLine writes line and a newline to w.
func writeLine(t *testing.T, w io.Writer, line string) {
	t.Helper()
	if _, err := w.Write([]byte(line + "\n")); err != nil {
		t.Fatal(err)
	}
}

// TestTransportCancelled: the answer to a request the client cancelled is
// not sent (MCP's cancellation); a cancel of an unknown or answered id
// drops nothing later, and the request still counts as answered.
func TestTransportCancelled(t *testing.T) {
	var out bytes.Buffer
	in, lw, state := ForTests.Transport(&out)
	write := func(w io.Writer, line string) { t.Helper(); writeLine(t, w, line) }
	write(in, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`)
	write(in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId": 7}}`)
	write(in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"8"}}`)
	write(in, `{"jsonrpc":"2.0","id":"8","method":"tools/call","params":{}}`)
	write(lw, `{"jsonrpc":"2.0","id":7,"result":{"text":"cancelled"}}`)
	write(lw, `{"jsonrpc":"2.0","id":"8","result":{"text":"kept"}}`)
	write(lw, `{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`)
	write(in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"8"}}`)
	write(in, `{"jsonrpc":"2.0","id":"8","method":"tools/call","params":{}}`)
	write(lw, `{"jsonrpc":"2.0","id":"8","result":{"text":"again"}}`)
	got := out.String()
	if strings.Contains(got, "cancelled") || !strings.Contains(got, "kept") || !strings.Contains(got, "again") || !strings.Contains(got, "progress") {
		t.Errorf("sent:\n%s", got)
	}
	if _, n, pending, cancelled := state(); n != 0 || len(pending) != 0 || cancelled != 0 {
		t.Errorf("left: %d pending %v cancelled %d", n, pending, cancelled)
	}
}

// TestTransportOneToolCallInOrder: a bash or reset call read while another
// waits for its answer is refused (CodeBusy) as it is read, so of two
// calls sent together the first runs and the second is refused, never
// the other way round; other tools and other requests pass, and once the
// call is answered (or its cancelled answer dropped) the next one runs.
func TestTransportOneToolCallInOrder(t *testing.T) {
	var out bytes.Buffer
	in, lw, state := ForTests.Transport(&out)
	write := func(w io.Writer, line string) { t.Helper(); writeLine(t, w, line) }
	call := func(id, tool string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`
	}
	write(in, call("1", "bash"))
	write(in, call("2", "bash"))
	write(in, call("3", "reset"))
	write(in, call("4", "nope"))
	write(in, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	refused := `,"error":{"code":-32001,"message":"llmsh: refused: a bash call is still running`
	got := out.String()
	if !strings.Contains(got, `{"jsonrpc":"2.0","id":2`+refused) || !strings.Contains(got, `{"jsonrpc":"2.0","id":3`+refused) ||
		strings.Contains(got, `"id":1,`) || strings.Contains(got, `"id":4,`) || strings.Contains(got, `"id":5,`) {
		t.Errorf("sent:\n%s", got)
	}
	if _, n, pending, _ := state(); n != 3 || pending["1"] != 1 || pending["2"] != 0 {
		t.Errorf("pending %d %v, want 1, 4 and 5", n, pending)
	}
	write(lw, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	out.Reset()
	write(in, call(`"6"`, "reset"))
	write(in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"6"}}`)
	write(in, call("7", "bash"))
	write(lw, `{"jsonrpc":"2.0","id":"6","result":{}}`) // dropped: cancelled
	write(in, call("8", "bash"))
	if got := out.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, `{"jsonrpc":"2.0","id":7`+refused) {
		t.Errorf("after an answer and a cancelled call, sent:\n%s", got)
	}
	if _, _, pending, _ := state(); pending["8"] != 1 {
		t.Errorf("call 8 not passed on: %v", pending)
	}
}
