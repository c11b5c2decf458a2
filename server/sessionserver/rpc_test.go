package sessionserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/server/sessionserver"
)

// raw is a connection on which the test writes lines by hand.
type raw struct {
	t  *testing.T
	c  net.Conn
	sc *bufio.Scanner
}

func rawConn(t *testing.T, path string) *raw {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	sc := bufio.NewScanner(c)
	sc.Buffer(nil, 64<<20)
	return &raw{t: t, c: c, sc: sc}
}

func (r *raw) send(line string) {
	r.t.Helper()
	if _, err := r.c.Write([]byte(line + "\n")); err != nil {
		r.t.Fatal(err)
	}
}

// rmsg is any message of the server, as the test decodes it.
type rmsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  OutputParams    `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *Error          `json:"error"`
}

// line reads the next line.
func (r *raw) line() string {
	r.t.Helper()
	if !r.sc.Scan() {
		r.t.Fatalf("no answer: %v", r.sc.Err())
	}
	return r.sc.Text()
}

func (r *raw) recv() rmsg {
	r.t.Helper()
	l := r.line()
	var m rmsg
	if err := json.Unmarshal([]byte(l), &m); err != nil || m.JSONRPC != "2.0" {
		r.t.Fatalf("message %q: %v", l, err)
	}
	return m
}

// TestProtocolErrors: every malformed or wrong message gets its JSON-RPC
// error, and the connection goes on.
func TestProtocolErrors(t *testing.T) {
	_, path := start(t, Config{})
	c := rawConn(t, path)
	for _, tc := range []struct {
		line string
		id   string
		code int
	}{
		{`{this is not json`, "null", CodeParse},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"`, "null", CodeParse},
		{`42`, "null", CodeInvalidRequest},
		{`{"jsonrpc":"1.0","id":2,"method":"ping"}`, "2", CodeInvalidRequest},
		{`{"id":3,"method":"ping"}`, "3", CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":4,"method":7}`, "4", CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":"five","method":"frobnicate"}`, `"five"`, CodeNoMethod},
		{`{"jsonrpc":"2.0","id":6,"method":"run"}`, "6", CodeInvalidParams},
		{`{"jsonrpc":"2.0","id":7,"method":"run","params":["s","echo"]}`, "7", CodeInvalidParams},
		{`{"jsonrpc":"2.0","id":8,"method":"run","params":{"session":"x","script":"echo","colour":1}}`, "8", CodeInvalidParams},
		{`{"jsonrpc":"2.0","id":9,"method":"run","params":{"script":"echo"}}`, "9", CodeInvalidParams},
		{`{"jsonrpc":"2.0","id":10,"method":"open","params":{"max_output":-1}}`, "10", CodeInvalidParams},
		{`{"jsonrpc":"2.0","id":null,"method":"close","params":{"session":"nope"}}`, "null", CodeNoSession},
		{`[]`, "null", CodeInvalidRequest},
	} {
		c.send(tc.line)
		m := c.recv()
		if m.Error == nil || m.Error.Code != tc.code || string(m.ID) != tc.id || m.Result != nil {
			t.Errorf("%s\n → %+v (error %+v), want code %d, id %s", tc.line, m, m.Error, tc.code, tc.id)
		}
	}
	// A notification (no id) gets no answer, even when it fails; a line
	// over MaxLine is answered and skipped; a batch gets one array.
	c.send(`{"jsonrpc":"2.0","method":"frobnicate"}`)
	c.send(strings.Repeat("x", MaxLine+10))
	if m := c.recv(); m.Error == nil || m.Error.Code != CodeInvalidRequest || !strings.Contains(m.Error.Message, "exceeds") {
		t.Errorf("line over MaxLine: %+v", m)
	}
	c.send(`[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","id":"b","method":"nope"},1]`)
	var batch []rmsg
	if l := c.line(); json.Unmarshal([]byte(l), &batch) != nil || len(batch) != 3 ||
		string(batch[0].ID) != `"a"` || batch[0].Result == nil ||
		string(batch[1].ID) != `"b"` || batch[1].Error.Code != CodeNoMethod ||
		batch[2].Error.Code != CodeInvalidRequest {
		t.Errorf("batch answer %s", l)
	}
	// A batch of more than maxBatch requests is refused whole, none of
	// them run (its answers would be kept until its end: 390000 lists
	// in one line were answered with 104 MB); so is an open whose grants'
	// paths pass maxGrantBytes (each list repeats them).
	const maxBatch, maxGrantBytes = 64, 64 << 10 // rpc.go's (maxBatch is maxInFlight)
	open := `{"jsonrpc":"2.0","id":"o","method":"open","params":{"dir":"/"}}`
	c.send("[" + strings.Repeat(open+",", maxBatch) + open + "]")
	if m := c.recv(); m.Error == nil || m.Error.Code != CodeInvalidRequest || !strings.Contains(m.Error.Message, "batch of more than") {
		t.Errorf("a batch of %d: %+v", maxBatch+1, m)
	}
	long := strconv.Quote("/" + strings.Repeat("x", maxGrantBytes/2))
	c.send(`{"jsonrpc":"2.0","id":12,"method":"open","params":{"inputs":[` + long + `],"outputs":[` + long + `]}}`)
	if m := c.recv(); m.Error == nil || m.Error.Code != CodeInvalidParams || !strings.Contains(m.Error.Message, "more than 65536 bytes") {
		t.Errorf("grants of %d bytes: %+v", maxGrantBytes+2, m)
	}
	c.send(`{"jsonrpc":"2.0","id":11,"method":"ping"}`)
	if m := c.recv(); string(m.ID) != "11" || string(m.Result) != `{"sessions":0,"max_sessions":16}` {
		t.Errorf("ping after the errors: %+v", m)
	}
}

// TestStreamedRun: a run's output comes as output notifications while it
// runs, in the order written, then the result.
func TestStreamedRun(t *testing.T) {
	_, path := start(t, Config{})
	c := rawConn(t, path)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"open","params":{}}`)
	var open OpenResult
	json.Unmarshal(c.recv().Result, &open)
	// The script waits for its stdin... which it has: streaming is shown
	// by the notifications preceding the result, with the stderr line
	// between the stdout ones, and a multibyte character whole.
	c.send(`{"jsonrpc":"2.0","id":"r","method":"run","params":{"session":"` + open.Session +
		`","script":"echo one; echo two >&2; printf '\\xc3'; printf '\\xa9\\n'; cat"` + `,"stdin":"in\n"}}`)
	var got []string
	for {
		m := c.recv()
		if m.Method == "" {
			var r RunResult
			if err := json.Unmarshal(m.Result, &r); err != nil || string(m.ID) != `"r"` {
				t.Fatalf("result %+v: %v", m, err)
			}
			if r.Stdout != "one\né\nin\n" || r.Stderr != "two\n" || r.ExitCode != 0 {
				t.Errorf("result %+v", r)
			}
			break
		}
		if m.Method != NotifyOutput || string(m.Params.ID) != `"r"` || m.Params.Session != open.Session || m.ID != nil {
			t.Fatalf("notification %+v", m)
		}
		// Pieces in a row of one stream are one (how a builtin splits
		// its writes is its own).
		if n := len(got); n > 0 && strings.HasPrefix(got[n-1], m.Params.Stream+":") {
			got[n-1] += m.Params.Data
		} else {
			got = append(got, m.Params.Stream+":"+m.Params.Data)
		}
	}
	if j := strings.Join(got, ""); j != "stdout:one\nstderr:two\nstdout:é\nin\n" {
		t.Errorf("notifications %q", got)
	}
	// "stream": false: the result only.
	c.send(`{"jsonrpc":"2.0","id":2,"method":"run","params":{"session":"` + open.Session + `","script":"echo quiet","stream":false}}`)
	if m := c.recv(); m.Method != "" || !strings.Contains(string(m.Result), `"stdout":"quiet\n"`) {
		t.Errorf("unstreamed run: %+v", m)
	}
}

// TestCancelAndBusy: a second run in a busy session is refused; cancel
// stops the run, which answers cancelled with what it wrote; the
// session goes on.
func TestCancelAndBusy(t *testing.T) {
	_, path := start(t, Config{})
	c := dial(t, path)
	id := mustOpen(t, c, OpenParams{})
	if ok, err := c.Cancel(id); ok || err != nil {
		t.Errorf("cancel with no run: %v %v", ok, err)
	}
	started := make(chan struct{})
	var once sync.Once
	done := make(chan RunResult, 1)
	go func() {
		r, err := c.RunStream(id, `x=before; echo started; while :; do :; done`, "", func(stream, data string) {
			once.Do(func() { close(started) })
		})
		if err != nil {
			t.Errorf("cancelled run: %v", err)
		}
		done <- r
	}()
	<-started
	if _, err := c.Run(id, "echo", ""); code(err) != CodeBusy {
		t.Errorf("run in a busy session: %v", err)
	}
	if err := c.Reset(id); code(err) != CodeBusy {
		t.Errorf("reset of a busy session: %v", err)
	}
	if ok, err := c.Cancel(id); !ok || err != nil {
		t.Errorf("cancel: %v %v", ok, err)
	}
	r := <-done
	if !r.Cancelled || r.ExitCode != 130 || r.Stdout != "started\n" {
		t.Errorf("cancelled run: %+v", r)
	}
	if r := mustRun(t, c, id, `echo "$x"`, ""); r.Stdout != "before\n" {
		t.Errorf("after cancel: %+v", r)
	}
	if err := c.Reset(id); err != nil {
		t.Fatal(err)
	}
	if r := mustRun(t, c, id, `echo "${x-reset}"`, ""); r.Stdout != "reset\n" {
		t.Errorf("after reset: %+v", r)
	}
}

// TestHangUpCancels: a client that hangs up during its run has the run
// cancelled: the session is free at once for the next client.
func TestHangUpCancels(t *testing.T) {
	freed := make(chan struct{}, 1)
	_, path := start(t, Config{}, func(s *Server) { ForTests.OnFree(s, func() { freed <- struct{}{} }) })
	c := dial(t, path)
	id := mustOpen(t, c, OpenParams{})
	r := rawConn(t, path)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"run","params":{"session":"` + id + `","script":"echo going; while :; do :; done"}}`)
	if m := r.recv(); m.Method != NotifyOutput {
		t.Fatalf("first message %+v", m)
	}
	r.c.Close()
	// The endless run ends only if the hang-up cancelled it.
	<-freed
	if res, err := c.Run(id, "echo free", ""); err != nil || res.Stdout != "free\n" {
		t.Fatalf("run after the hang-up: %+v %v", res, err)
	}
}

// TestClientNotReading: a client that sends a run and never reads its
// output is hung up on after WriteTimeout, and its run cancelled.
func TestClientNotReading(t *testing.T) {
	freed := make(chan struct{}, 1)
	_, path := start(t, Config{WriteTimeout: 50 * time.Millisecond}, func(s *Server) { ForTests.OnFree(s, func() { freed <- struct{}{} }) })
	c := dial(t, path)
	// 8 MiB of output: far more than the socket's buffers hold.
	id := mustOpen(t, c, OpenParams{MaxOutput: MaxOutputLimit})
	r := rawConn(t, path)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"run","params":{"session":"` + id + `","script":"while :; do echo flood; done"}}`)
	<-freed
	if res, err := c.Run(id, "echo free", ""); err != nil || res.Stdout != "free\n" {
		t.Fatalf("run after the hang-up: %+v %v", res, err)
	}
}

// TestRunLimitClientNotReading: a run whose client reads nothing ends by
// its time limit, and its session is free and whole for another client,
// while the server still waits to write the output to the first (session
// 27: the worker's run waited on its streamed output, so it was ended as
// stuck when its limit came, and the session with it: "the session's
// process died"). The connection's write timeout (a minute) is not met.
func TestRunLimitClientNotReading(t *testing.T) {
	freed := make(chan struct{}, 1)
	_, path := start(t, Config{}, func(s *Server) { ForTests.OnFree(s, func() { freed <- struct{}{} }) })
	c := dial(t, path)
	id := mustOpen(t, c, OpenParams{Timeout: Duration(time.Second)})
	mustRun(t, c, id, "v=kept", "")
	<-freed
	r := rawConn(t, path)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"run","params":{"session":"` + id + `","script":"while :; do echo flood >&2; done"}}`)
	<-freed
	if res, err := c.Run(id, `echo "$v"`, ""); err != nil || res.Stdout != "kept\n" {
		t.Fatalf("run after the unread one: %+v %v", res, err)
	}
}

func TestListAndPing(t *testing.T) {
	_, path := start(t, Config{MaxSessions: 3})
	c := dial(t, path)
	dir := t.TempDir()
	id := mustOpen(t, c, OpenParams{Inputs: []string{dir}, Dir: dir})
	l, err := c.List()
	if err != nil || len(l) != 1 || l[0].Session != id || l[0].Busy || l[0].Dir != dir ||
		len(l[0].Inputs) != 1 || l[0].Inputs[0] != dir || l[0].Outputs == nil {
		t.Errorf("list: %+v %v", l, err)
	}
	if p, err := c.Ping(); err != nil || p.Sessions != 1 || p.MaxSessions != 3 {
		t.Errorf("ping: %+v %v", p, err)
	}
	c.CloseSession(id)
	if l, err := c.List(); err != nil || len(l) != 0 {
		t.Errorf("list after close: %+v %v", l, err)
	}
}

// TestSnapshotOverServe: a session's state goes through snapshot (inline
// and as a file) into restore, which opens a new session that runs on.
func TestSnapshotOverServe(t *testing.T) {
	_, path := start(t, Config{})
	c := dial(t, path)
	id := mustOpen(t, c, OpenParams{})
	mustRun(t, c, id, `declare -A m=([k]=v); f() { echo "f $1"; }; mkdir -p /w/d; echo data > /w/d/x; cd /w; set -e`, "")
	snap, err := c.Snapshot(id)
	if err != nil {
		t.Fatal(err)
	}
	const check = `echo "${m[k]} $PWD $-"; f arg; cat d/x`
	want := "v /w ehB\nf arg\ndata\n"
	b, err := c.Restore(OpenParams{}, snap)
	if err != nil {
		t.Fatal(err)
	}
	if r := mustRun(t, c, b, check, ""); r.Stdout != want || len(r.VirtualFiles) != 1 || r.VirtualFiles[0] != "/w/d/x" {
		t.Errorf("restored session: %+v", r)
	}
	file := filepath.Join(t.TempDir(), "snap.json")
	var sr SnapshotResult
	if err := c.Call(MethodSnapshot, SnapshotParams{Session: id, Path: file}, &sr); err != nil || sr.Path != file || sr.Bytes == 0 {
		t.Fatalf("snapshot to a file: %+v %v", sr, err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("snapshot file: %v %v", fi, err)
	}
	if err := c.Call(MethodSnapshot, SnapshotParams{Session: id, Path: file}, &sr); code(err) != CodeSnapshot {
		t.Errorf("snapshot over an existing file: %v", err)
	}
	var or OpenResult
	if err := c.Call(MethodRestore, RestoreParams{Path: file}, &or); err != nil {
		t.Fatal(err)
	}
	if r := mustRun(t, c, or.Session, check, ""); r.Stdout != want {
		t.Errorf("restored from a file: %+v", r)
	}
	// The message names no program: the client prefixes its own.
	if err := c.Call(MethodRestore, RestoreParams{Snapshot: json.RawMessage(`{"format":"zip"}`)}, nil); code(err) != CodeSnapshot ||
		!strings.HasPrefix(err.Error(), `snapshot: not a snapshot file (format "zip"`) {
		t.Errorf("restore of a bad snapshot: %v", err)
	}
	if err := c.Call(MethodRestore, RestoreParams{}, nil); code(err) != CodeInvalidParams {
		t.Errorf("restore of nothing: %v", err)
	}
	if p, _ := c.Ping(); p.Sessions != 3 {
		t.Errorf("%d sessions, want 3 (a failed restore leaves none)", p.Sessions)
	}
}

// TestListOwnSessions: a session's ID is what admits a client to it, so
// list shows a connection only the sessions it opened, restored or named
// in a request, never another client's (session 22, red team: list
// showed every session's ID, grants and directory to any client of the
// uid, which could then run, snapshot, reset or close it).
func TestListOwnSessions(t *testing.T) {
	_, path := start(t, Config{})
	a, b := dial(t, path), dial(t, path)
	ida := mustOpen(t, a, OpenParams{})
	idb := mustOpen(t, b, OpenParams{})
	ids := func(c *Client) []string {
		t.Helper()
		l, err := c.List()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range l {
			out = append(out, s.Session)
		}
		sort.Strings(out)
		return out
	}
	if got := ids(a); len(got) != 1 || got[0] != ida {
		t.Errorf("a lists %q, want only its own %q", got, ida)
	}
	if got := ids(b); len(got) != 1 || got[0] != idb {
		t.Errorf("b lists %q, want only its own %q", got, idb)
	}
	// A third connection holds no session until it names one.
	c := dial(t, path)
	if got := ids(c); len(got) != 0 {
		t.Errorf("a new connection lists %q", got)
	}
	if _, err := c.Run("0123456789abcdef0123456789abcdef", "true", ""); code(err) != CodeNoSession {
		t.Errorf("run of an unknown ID: %v", err)
	}
	mustRun(t, c, ida, "true", "")
	if got := ids(c); len(got) != 1 || got[0] != ida {
		t.Errorf("c lists %q after running %q", got, ida)
	}
	want := []string{ida, idb}
	sort.Strings(want)
	snap, err := b.Snapshot(idb)
	if err != nil {
		t.Fatal(err)
	}
	idr, err := b.Restore(OpenParams{}, snap)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(b); len(got) != 2 || !slices.Contains(got, idr) || !slices.Contains(got, idb) {
		t.Errorf("b lists %q, want %q and the restored %q", got, idb, idr)
	}
	a.CloseSession(ida)
	if got := ids(c); len(got) != 0 {
		t.Errorf("c lists %q after the close", got)
	}
	if p, err := c.Ping(); err != nil || p.Sessions != 2 {
		t.Errorf("ping: %+v %v (the count of all sessions)", p, err)
	}
}

// TestSnapshotBounds: a snapshot larger than MaxInlineSnapshot is not
// answered inline but may be written to a path and restored from it, and
// snapshots and restores hold their bytes in the server one at a time
// (session 22, red team: one snapshot of 437 MB took the server to
// 2.9 GB, and nothing bounded how many ran at once).
func TestSnapshotBounds(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var hold atomic.Bool
	// (A fresh session's snapshot takes 3 KB.)
	s, path := start(t, Config{MaxInlineSnapshot: 16 << 10}, func(s *Server) {
		ForTests.OnBulk(s, func() {
			if hold.Load() {
				entered <- struct{}{}
				<-release
			}
		})
	})
	c := dial(t, path)
	id := mustOpen(t, c, OpenParams{})
	mustRun(t, c, id, `head -c 32K /dev/zero > /tmp/big`, "")
	if _, err := c.Snapshot(id); code(err) != CodeSnapshot || !strings.Contains(err.Error(), "give a path") {
		t.Fatalf("inline snapshot of 44 KB: %v", err)
	}
	file := filepath.Join(t.TempDir(), "snap.json")
	var sr SnapshotResult
	if err := c.Call(MethodSnapshot, SnapshotParams{Session: id, Path: file}, &sr); err != nil || sr.Bytes <= 16<<10 {
		t.Fatalf("snapshot to a path: %+v %v", sr, err)
	}
	// A FIFO or a device is refused at once (a FIFO's open waited for a
	// writer, holding the bulk work of every client).
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/zero"} {
		if err := c.Call(MethodRestore, RestoreParams{Path: p}, nil); code(err) != CodeSnapshot || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("restore from %s: %v", p, err)
		}
	}
	// One restore holds the bulk work; a second waits for it.
	hold.Store(true)
	restore := func(done chan<- error) {
		var or OpenResult
		done <- c.Call(MethodRestore, RestoreParams{Path: file}, &or)
	}
	first, second := make(chan error, 1), make(chan error, 1)
	go restore(first)
	<-entered
	go restore(second)
	for !ForTests.BulkWaiting(s) {
		runtime.Gosched()
	}
	hold.Store(false)
	close(release)
	if err := <-first; err != nil {
		t.Errorf("restore from the path: %v", err)
	}
	if err := <-second; err != nil {
		t.Errorf("the restore that waited: %v", err)
	}
}

// TestRestoreTextHoldsNoBulk: a restore holds the bulk work (one
// snapshot's bytes in the server at a time) only until its session's
// process has the bytes, not while the snapshot's text runs there
// (session 30, red team: a crafted snapshot whose functions text was
// "sleep 1000", in a session without a time limit, held every other
// client's snapshot and restore until its client hung up).
func TestRestoreTextHoldsNoBulk(t *testing.T) {
	entered := make(chan struct{}, 1)
	var watch atomic.Bool
	_, path := start(t, Config{}, func(s *Server) {
		ForTests.OnBulk(s, func() {
			if watch.Load() {
				entered <- struct{}{}
			}
		})
	})
	c := dial(t, path)
	id := mustOpen(t, c, OpenParams{})
	snap, err := c.Snapshot(id)
	if err != nil {
		t.Fatal(err)
	}
	var sf map[string]any
	if err := json.Unmarshal(snap, &sf); err != nil {
		t.Fatal(err)
	}
	sf["functions"] = "sleep 1000\n"
	crafted, err := json.Marshal(sf)
	if err != nil {
		t.Fatal(err)
	}
	hostile := dial(t, path)
	restored := make(chan error, 1)
	watch.Store(true)
	go func() {
		// (A limit, so that a server that holds the bulk work for the
		// whole restore fails this test rather than hangs it.)
		_, err := hostile.Restore(OpenParams{Timeout: Duration(20 * time.Second)}, crafted)
		restored <- err
	}()
	<-entered
	watch.Store(false)
	// The other client's snapshot waits at most for the crafted bytes
	// to reach their worker, never for its sleep.
	if _, err := c.Snapshot(id); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-restored:
		t.Fatalf("the crafted restore ended first (%v): the snapshot waited for it", err)
	default:
	}
	hostile.Close() // the hang-up ends the crafted restore
	<-restored
}

// TestKnownForgetsGone: a connection's set of the sessions it holds does
// not keep the IDs of sessions that are gone (session 23, red team: it
// shrank only on list, so a long-lived connection that opened and closed
// sessions without listing grew by an ID each): past twice the sessions
// the server may hold, learning one more drops the gone ones.
func TestKnownForgetsGone(t *testing.T) {
	s := New(Config{MaxSessions: 4})
	learn, knows, known := ForTests.Known(s, "live")
	learn("live")
	for i := range 1000 {
		learn(fmt.Sprintf("gone%04d", i))
	}
	if n := known(); n > 2*4+1 {
		t.Fatalf("known holds %d IDs, want at most %d", n, 2*4+1)
	}
	if !knows("live") {
		t.Fatal("the open session was dropped")
	}
}

// TestHeldLinesBounded: the bytes of large request lines the server holds
// at once, across connections, are bounded (session 24, red team: 40
// connections each sending 15 MiB of a line took the server to 1 GB of
// RSS in 2 s, and nothing bounded the connections). A line that would
// pass the bound is skipped and answered CodeServerBusy; small lines are
// never refused, and once the large one is done the bytes are free again.
func TestHeldLinesBounded(t *testing.T) {
	srv, path := start(t, Config{}, func(s *Server) { ForTests.SetMaxHeld(s, 3<<20) })
	pad := func(id, n int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"pad":"%s"}}`, id, strings.Repeat("a", n))
	}
	a, b := rawConn(t, path), rawConn(t, path)
	// a holds 2 MiB of a line it has not ended.
	big := pad(1, 2<<20)
	if _, err := a.c.Write([]byte(big[:len(big)-1])); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ForTests.Held(srv) < 2<<20; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server holds %d bytes of a's line", ForTests.Held(srv))
		}
	}
	// b's small line is answered meanwhile; its 2 MiB line is refused.
	b.send(pad(2, 100))
	if m := b.recv(); m.Error == nil || m.Error.Code == CodeServerBusy {
		t.Fatalf("a small line: %+v", m)
	}
	b.send(pad(3, 2<<20))
	if m := b.recv(); m.Error == nil || m.Error.Code != CodeServerBusy || !strings.Contains(m.Error.Message, "send it again") {
		t.Fatalf("b's large line: %+v", m)
	}
	// a ends its line: it is answered, and b's large line goes through.
	a.send("}")
	if m := a.recv(); m.Error == nil || m.Error.Code == CodeServerBusy || string(m.ID) != "1" {
		t.Fatalf("a's line: %+v", m)
	}
	b.send(pad(9999, 2<<20))
	if m := b.recv(); m.Error == nil || m.Error.Code == CodeServerBusy {
		t.Fatalf("b's large line after a's: %+v", m)
	}
}

// TestConnectionsBounded: past maxConns a connection gets one
// CodeServerBusy answer and is closed; once one closes, the next is served.
func TestConnectionsBounded(t *testing.T) {
	_, path := start(t, Config{}, func(s *Server) { ForTests.SetMaxConns(s, 2) })
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	a, b := rawConn(t, path), rawConn(t, path)
	for _, r := range []*raw{a, b} {
		r.send(ping)
		if m := r.recv(); m.Error != nil {
			t.Fatalf("ping: %+v", m.Error)
		}
	}
	c := rawConn(t, path)
	if m := c.recv(); m.Error == nil || m.Error.Code != CodeServerBusy || !strings.Contains(m.Error.Message, "2 connections") {
		t.Fatalf("a third connection: %+v", m)
	}
	if c.sc.Scan() {
		t.Fatalf("the third connection goes on: %q", c.sc.Text())
	}
	a.c.Close()
	for try := 0; ; try++ {
		d := rawConn(t, path)
		d.c.Write([]byte(ping + "\n")) // a refused one may be closed by now
		m := d.recv()
		if m.Error == nil {
			break
		}
		if m.Error.Code != CodeServerBusy || try == 1000 {
			t.Fatalf("after a hang-up: %+v", m)
		}
		d.c.Close()
		time.Sleep(time.Millisecond) // a's end reaches the server
	}
}

// TestPendingBounded: a client that sends requests and never reads the
// answers makes the server hold a bounded number of bytes (session 26,
// red team: each line of at most 64 KiB was held uncounted until its
// answer was written, so 50 such connections took the server to 1.4 GB).
// Its reader stops reading once the connection holds ConnPending bytes,
// while another client, which holds nothing, is still answered though
// the server's bound is passed.
func TestPendingBounded(t *testing.T) {
	waits := make(chan int64, 1)
	srv, path := start(t, Config{}, func(s *Server) {
		ForTests.OnPendWait(s, func(n int64) {
			select {
			case waits <- n:
			default:
			}
		})
	})
	a := rawConn(t, path)
	// Each answer echoes its 60 KB id: a few fill the socket's buffers.
	line := []byte(`{"jsonrpc":"2.0","id":"` + strings.Repeat("<", 60000) + `","method":"nosuch"}` + "\n")
	go func() {
		for range 400 {
			if _, err := a.c.Write(line); err != nil {
				return
			}
		}
	}()
	n := <-waits
	if held := ForTests.Pending(srv); n < ForTests.ConnPending() || held > ForTests.ConnPending()+4*int64(len(line)) {
		t.Fatalf("the reader waits holding %d bytes, the server %d", n, held)
	}
	ForTests.SetMaxPending(srv, 64<<10)
	c := dial(t, path)
	if _, err := c.Ping(); err != nil {
		t.Fatalf("another client's ping: %v", err)
	}
	if held := ForTests.Pending(srv); held > ForTests.ConnPending()+4*int64(len(line)) {
		t.Fatalf("the server holds %d bytes", held)
	}
}

// TestBatchAnswerStreamed: a batch's answers are one JSON array, its
// error messages cut to a bound, HTML characters as they are.
func TestBatchAnswerStreamed(t *testing.T) {
	_, path := start(t, Config{})
	r := rawConn(t, path)
	long := strings.Repeat("<", 5000)
	r.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"` + long + `"},{"jsonrpc":"2.0","id":"<&>","method":"ping"}]`)
	l := r.line()
	var out []rmsg
	if err := json.Unmarshal([]byte(l), &out); err != nil || len(out) != 3 {
		t.Fatalf("%d bytes: %v %+v", len(l), err, out)
	}
	if e := out[1].Error; e == nil || len(e.Message) > 1024 || !strings.HasSuffix(e.Message, "...") {
		t.Fatalf("the error: %+v", e)
	}
	if string(out[2].ID) != `"<&>"` || out[0].Error != nil {
		t.Fatalf("the answers: %s", l)
	}
}
