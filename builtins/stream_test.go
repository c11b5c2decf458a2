package builtins_test

import (
	"context"
	"io"
	"strings"
	"sync"
	"syscall"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// streamMeter is an endless input (line repeated) and an output, both
// counted. Once either has carried trigger bytes it calls onTrigger (a
// context's cancel); past limit the input ends and the output fails, so
// that a builtin that does not stop still returns and the test can say so.
type streamMeter struct {
	mu        sync.Mutex
	line      []byte
	read      int64
	written   int64
	limit     int64
	trigger   int64
	onTrigger func()
	pipeAfter int64 // output fails with EPIPE once this much was written (0: never)
}

func (m *streamMeter) check() {
	if m.onTrigger != nil && (m.read >= m.trigger || m.written >= m.trigger) {
		m.onTrigger()
		m.onTrigger = nil
	}
}

func (m *streamMeter) Read(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.read >= m.limit {
		return 0, io.EOF
	}
	n := 0
	off := int(m.read % int64(len(m.line)))
	for n < len(p) {
		c := copy(p[n:], m.line[off:])
		n += c
		off = 0
	}
	m.read += int64(n)
	m.check()
	return n, nil
}

func (m *streamMeter) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pipeAfter > 0 && m.written >= m.pipeAfter || m.written >= m.limit {
		return 0, syscall.EPIPE
	}
	m.written += int64(len(p))
	m.check()
	return len(p), nil
}

const (
	streamLimit = 64 << 20 // bytes after which a builtin is taken not to stop
	streamBound = 8 << 20  // what a builtin may still read or write once it should stop
	// streamTrigger is how much a builtin has read or written when the
	// cancel tests cancel it: several of any builtin's buffers, so that it
	// is inside its loops. Their cost under the race detector is this
	// size (1 MiB made TestStreamStopsOnCancel 5 s of CPU).
	streamTrigger = 256 << 10
)

// yLine is the line of the cases of grep, sed and nl, whose cost is per line
// (under the race detector a line of "y" took them a minute to stream
// the megabytes these tests read).
var yLine = strings.Repeat("y", 63) + "\n"

// streamCase is a command and the line its endless input repeats.
type streamCase struct {
	line string
	args []string
}

// streamFiles are what the file operands of streamCases hold.
var streamFiles = map[string]string{"s": "a\nb\n"}

func streamEnv(t *testing.T, c streamCase, m *streamMeter, ctx context.Context) *Env {
	t.Helper()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeHostFiles(t, dir, streamFiles)
	return &Env{Ctx: ctx, Args: c.args, Stdin: m, Stdout: m, Stderr: io.Discard, FS: fsys, Dir: dir}
}

// Every streaming builtin stops reading once its output pipe has closed
// (yes | CMD | head -c 1): it must not read on to the end of an endless
// input. Checked by the bytes read, not by time.
func TestStreamStopsOnClosedOutput(t *testing.T) {
	t.Parallel()
	for _, c := range []streamCase{
		{"y\n", []string{"cat"}},
		{"y\n", []string{"cat", "-A"}},
		{"y\n", []string{"cat", "-n", "-"}},
		{"y\n", []string{"rev"}},
		{yLine, []string{"nl"}},
		{"y\n", []string{"tail", "-n", "+1"}},
		{"y\n", []string{"tail", "-c", "+2"}},
		{yLine, []string{"grep", "y"}},
		// three matches a line of 21 bytes each: its first 64 KiB of
		// output from 800 lines, not 8000 (one "y" a line: 0.7 s of CPU)
		{yLine, []string{"grep", "-n", "-o", strings.Repeat("y", 21)}},
		{yLine, []string{"grep", "-v", "x"}},
		{yLine, []string{"grep", "-F", "y"}},
		{yLine, []string{"grep", "-E", "y|z", "-", "s"}},
		{yLine, []string{"egrep", "y"}},
		{yLine, []string{"fgrep", "y"}},
		{yLine, []string{"sed", "s/y/n/"}},
		{yLine, []string{"sed", "-n", "p"}},
		{yLine, []string{"sed", "N;P;D"}},
		{"a\nb\n", []string{"uniq"}},
		{"a\nb\n", []string{"uniq", "-c"}},
		{"a\tb\n", []string{"cut", "-f1"}},
		{"a,b\n", []string{"cut", "-d,", "-f2"}},
		{"y\n", []string{"cut", "-c1"}},
		{"y\n", []string{"tr", "y", "n"}},
		{"y\n", []string{"tr", "-d", "x"}},
		{"y\n", []string{"tr", "-s", "y"}},
		{"y\n", []string{"paste", "-", "-"}},
		{"y\n", []string{"paste", "-s"}},
		{"a b\n", []string{"join", "-", "-"}},
		{"yy\n", []string{"fold", "-w", "1"}},
		{"\ty\n", []string{"expand"}},
		{"        y\n", []string{"unexpand"}},
		{"y\n", []string{"tee"}},
		{"y\n", []string{"od", "-v", "-c"}}, // -v: repeated lines are not abbreviated to *
		{"y\n", []string{"base64"}},
		{"eXl5\n", []string{"base64", "-d"}},
		{"y\n", []string{"sort", "-m", "-"}},
		{"y\n", []string{"comm", "--nocheck-order", "-", "s"}},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			m := &streamMeter{line: []byte(c.line), limit: streamLimit, pipeAfter: 1}
			st := Run(mustLookup(t, c.args[0]), streamEnv(t, c, m, context.Background()))
			if m.read > streamBound {
				t.Errorf("read %d bytes after its output closed (status %d)", m.read, st)
			}
		})
	}
}

// Every builtin's loops honour the context: cancelled while reading (or
// writing) an endless stream, it returns having read or written little
// more, whether it streams or buffers by nature (sort, tac, wc, md5sum).
func TestStreamStopsOnCancel(t *testing.T) {
	t.Parallel()
	for _, c := range []streamCase{
		{"y\n", []string{"cat"}},
		{"y\n", []string{"tac"}},
		{"y\n", []string{"rev"}},
		{yLine, []string{"nl"}},
		{"y\n", []string{"head", "-n", "-1"}},
		{"y\n", []string{"head", "-c", "-1"}},
		{"y\n", []string{"tail", "-n", "1"}},
		{"y\n", []string{"tail", "-c", "1"}},
		{"y\n", []string{"tail", "-n", "+1"}},
		{"y\n", []string{"wc"}},
		{"y\n", []string{"wc", "-l"}},
		{"y\n", []string{"wc", "-m", "-L"}},
		{yLine, []string{"grep", "-c", "y"}},
		{yLine, []string{"grep", "-q", "x"}},
		{yLine, []string{"grep", "-v", "y"}},
		{yLine, []string{"grep", "-A1", "x"}},
		{yLine, []string{"sed", "-n", "$p"}},
		{yLine, []string{"sed", ":a;N;ba"}},
		{"y\n", []string{"sort"}},
		{"y\n", []string{"sort", "-n", "-u"}},
		{"y\n", []string{"sort", "-c"}},
		{"y\n", []string{"sort", "-m", "-", "s"}},
		{"y\n", []string{"uniq"}},
		{"y\n", []string{"uniq", "-c"}},
		{"y\n", []string{"cut", "-c1"}},
		{"y\n", []string{"tr", "-d", "y"}},
		{"y\n", []string{"tr", "-s", "y"}},
		{"y\n", []string{"paste", "-s"}},
		{"a b\n", []string{"join", "-v1", "-", "s"}},
		{"y\n", []string{"comm", "-3", "--nocheck-order", "-", "s"}},
		{"y\n", []string{"fold"}},
		{"y\n", []string{"expand"}},
		{"y\n", []string{"unexpand", "-a"}},
		{"y\n", []string{"column"}},
		{"y\n", []string{"column", "-t", "-s", ","}},
		{"y\n", []string{"tee"}},
		{"y\n", []string{"od", "-An", "-x"}},
		{"y\n", []string{"base64", "-w0"}},
		{"eXl5\n", []string{"base64", "-d"}},
		{"y\n", []string{"md5sum"}},
		{"y\n", []string{"sha1sum"}},
		{"y\n", []string{"sha256sum"}},
		{"y\n", []string{"sha512sum"}},
		{"y\n", []string{"yes"}},
		{"y\n", []string{"seq", "inf"}},
		{"y\n", []string{"seq", "-w", "1", "0.5", "1e300"}},
		{"y\n", []string{"cat", "/dev/zero"}},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			m := &streamMeter{line: []byte(c.line), limit: streamLimit, trigger: streamTrigger, onTrigger: cancel}
			st := Run(mustLookup(t, c.args[0]), streamEnv(t, c, m, ctx))
			if m.read > streamBound || m.written > streamBound {
				t.Errorf("read %d and wrote %d bytes though cancelled after %d (status %d)", m.read, m.written, streamTrigger, st)
			}
			if m.onTrigger != nil {
				t.Errorf("never read or wrote %d bytes (status %d)", streamTrigger, st)
			}
		})
	}
}

func mustLookup(t *testing.T, name string) Builtin {
	t.Helper()
	b, ok := Lookup(name)
	if !ok {
		t.Fatalf("no builtin %q", name)
	}
	return b
}
