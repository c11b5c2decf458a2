package builtins_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// limitWriter accepts limit bytes, then fails with EPIPE as a pipe whose
// reader has gone.
type limitWriter struct {
	buf   bytes.Buffer
	limit int
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if room := w.limit - w.buf.Len(); room < len(p) {
		w.buf.Write(p[:max(room, 0)])
		return max(room, 0), syscall.EPIPE
	}
	return w.buf.Write(p)
}

// runLinesEnv runs args with stdout w and context ctx.
func runLinesEnv(ctx context.Context, stdin string, stdout io.Writer, args ...string) (int, string) {
	b, _ := Lookup(args[0])
	var errb bytes.Buffer
	env := &Env{Ctx: ctx, Args: args, Stdin: strings.NewReader(stdin), Stdout: stdout, Stderr: &errb, Dir: "/"}
	return Run(b, env), errb.String()
}

func TestYes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		line string
	}{
		{[]string{"yes"}, "y\n"},
		{[]string{"yes", "a", "b"}, "a b\n"},
		{[]string{"yes", "--", "-x"}, "-x\n"},
		{[]string{"yes", strings.Repeat("long", 40000)}, strings.Repeat("long", 40000) + "\n"},
	}
	for _, c := range cases {
		w := &limitWriter{limit: 300000}
		st, stderr := runLinesEnv(context.Background(), "", w, c.args...)
		if st != 1 || stderr != "" {
			t.Errorf("%v: status %d, stderr %q; want 1 quietly on a broken pipe", c.args, st, stderr)
		}
		out := w.buf.String()
		if len(out) != 300000 || !strings.HasPrefix(strings.Repeat(c.line, 300000/len(c.line)+1), out) {
			t.Errorf("%v: wrong output (%d bytes)", c.args, len(out))
		}
	}
	// Checked against GNU yes 9.1.
	if got := runCmd(t, nil, "", "yes", "--foo"); got.status != 1 || got.stderr != "yes: unrecognized option '--foo'\nTry 'yes --help' for more information.\n" {
		t.Errorf("yes --foo: %+v", got)
	}
}

func TestYesCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	w := io.Discard
	done := make(chan int)
	go func() {
		st, _ := runLinesEnv(ctx, "", w, "yes")
		done <- st
	}()
	select {
	case st := <-done:
		if st != 1 {
			t.Errorf("status %d, want 1", st)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("yes did not stop when cancelled")
	}
}
