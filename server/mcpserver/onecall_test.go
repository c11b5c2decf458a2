package mcpserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/llmsh/llmsh"
	. "github.com/llmsh/llmsh/server/mcpserver"
)

// rawMsg is one JSON-RPC message as the server wrote it.
type rawMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProgressToken any     `json:"progressToken"`
		Progress      float64 `json:"progress"`
		Message       string  `json:"message"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	line string
}

// TestOneCallAtATimeAndProgress drives the server with raw JSON-RPC lines:
// a long bash call whose request carries a progressToken gets
// notifications/progress with that token while it runs; a bash or reset
// call sent meanwhile is refused at once with error CodeBusy (not queued
// behind it); once the long call is cancelled and answered, no progress
// for it follows and the next call runs.
func TestOneCallAtATimeAndProgress(t *testing.T) {
	sess, err := llmsh.New(llmsh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	srv := New(sess, Config{Version: "test", ProgressInterval: 10_000_000}) // 10ms
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(t.Context(), Transport(inR, outW))
		outW.Close()
	}()
	msgs := make(chan rawMsg, 1000)
	go func() {
		defer close(msgs)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m rawMsg
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("output line %q: %v", sc.Text(), err)
				return
			}
			m.line = sc.Text()
			msgs <- m
		}
	}()
	send := func(format string, args ...any) {
		t.Helper()
		if _, err := fmt.Fprintf(inW, format+"\n", args...); err != nil {
			t.Fatal(err)
		}
	}
	// next returns the next message that keep accepts; the others seen
	// on the way are returned too.
	next := func(keep func(rawMsg) bool) (rawMsg, []rawMsg) {
		t.Helper()
		var skipped []rawMsg
		for m := range msgs {
			if keep(m) {
				return m, skipped
			}
			skipped = append(skipped, m)
		}
		t.Fatalf("the server ended; skipped %v", skipped)
		return rawMsg{}, nil
	}
	answer := func(id string) func(rawMsg) bool {
		return func(m rawMsg) bool { return string(m.ID) == id && m.Method == "" }
	}
	progressFor := func(m rawMsg) bool {
		return m.Method == "notifications/progress" && m.Params.ProgressToken == "tok"
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	next(answer("1"))
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo first; echo oops >&2; printf partial; while :; do :; done"},"_meta":{"progressToken":"tok"}}}`)
	// The messages say how long it has run and, once the output is
	// written, what it wrote: its size per stream and the last line.
	for {
		p, _ := next(progressFor)
		if !strings.HasPrefix(p.Params.Message, "running for ") {
			t.Fatalf("progress message %q", p.Params.Message)
		}
		if strings.HasSuffix(p.Params.Message, "; 13 bytes of stdout, 5 of stderr; last line: oops") {
			break
		}
	}

	// The long call runs: the next ones are refused, each at once.
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo queued"}}}`)
	r3, _ := next(answer("3"))
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"reset","arguments":{}}}`)
	r4, _ := next(answer("4"))
	for _, r := range []rawMsg{r3, r4} {
		if r.Error == nil || r.Error.Code != CodeBusy || !strings.Contains(r.Error.Message, "one call at a time") {
			t.Errorf("a call during another: %s", r.line)
		}
	}

	// A cancelled call stops and, as MCP asks, gets no answer: the next
	// call runs once the shell is free (refused as busy until then).
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	var r5 rawMsg
	var between []rawMsg
	for try := 0; ; try++ {
		send(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo after"}}}`, 100+try)
		r, skipped := next(answer(fmt.Sprint(100 + try)))
		between = append(between, skipped...)
		if r.Error == nil || r.Error.Code != CodeBusy || try == 1000 {
			r5 = r
			break
		}
		time.Sleep(10 * time.Millisecond) // polling the busy shell
	}
	if r5.Error != nil || !strings.Contains(string(r5.Result), "after") {
		t.Errorf("the call after the cancelled one: %s", r5.line)
	}
	for _, m := range between {
		if answer("2")(m) {
			t.Errorf("an answer to the cancelled call: %s", m.line)
		}
	}
	// A call that asked for progress answers with its output all the same.
	send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo out; echo err >&2; exit 3"},"_meta":{"progressToken":"tok"}}}`)
	r6, _ := next(answer("6"))
	if r6.Error != nil || !strings.Contains(string(r6.Result), `"text":"out\nerr\n[exit code 3]"`) ||
		!strings.Contains(string(r6.Result), `"stderr":"err\n","stdout":"out\n"`) {
		t.Errorf("a call with a progress token: %s", r6.line)
	}
	inW.Close()
	for m := range msgs {
		if answer("2")(m) {
			t.Errorf("an answer to the cancelled call: %s", m.line)
		}
	}
	<-done
}
