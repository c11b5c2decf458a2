package shell

import (
	"context"
	"io"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
	"github.com/llmsh/llmsh/vfsclient"
)

// ForTests is shell's test-support surface: the internals that shell's
// own tests check directly. Those tests are an external package
// (shell_test), so that a test run compiles shell once, not a second
// time with its tests; nothing else uses ForTests. Each method is a thin
// view of one internal: the checks stay in the tests.
var ForTests forTests

type forTests struct{}

// Refuse is the check of a parsed script before it runs (what llmsh
// refuses of the language), which may rewrite it.
func (forTests) Refuse(file *syntax.File) error { return refuse(file) }

// Psubs is a table of process substitutions' pipes, as a shell has.
func (forTests) Psubs() *testPsubs { return &testPsubs{} }

// testPsubs is a psubs as ForTests shows it.
type testPsubs struct{ p psubs }

// NewPipe makes a pipe: its path for the command, and the list's end
// (writing when jobWrites: <(LIST)). Open serves the command's end of
// path once; CloseAll is the end of the script.
func (t *testPsubs) NewPipe(jobWrites bool) (string, io.ReadWriteCloser, error) {
	return t.p.newPipe(jobWrites, nil)
}
func (t *testPsubs) Open(path string) (io.Reader, bool) {
	f, ok := t.p.open(path)
	return f, ok
}
func (t *testPsubs) CloseAll() { t.p.closeAll() }

// SetHangUpWait sets how long the end of sh's scripts waits for the jobs
// it hangs up.
func (forTests) SetHangUpWait(sh *Shell, d time.Duration) { sh.hangUpWait = d }

// RedirFile is the file an input redirection reads, over f of c.
func (forTests) RedirFile(c *vfsclient.Client, f *vfsclient.File) interface {
	io.ReadSeekCloser
	io.WriterTo
} {
	return newRedirFile(c, f)
}

// InterpBuiltins are the commands the interpreter runs itself.
func (forTests) InterpBuiltins() []string { return interpBuiltins }

// HasRunner reports whether ctx is a handler's, with a runner behind it.
func (forTests) HasRunner(ctx context.Context) bool { return currentRunner(ctx) != nil }

// SetShellVar sets the shell variable name of the runner behind ctx.
func (forTests) SetShellVar(ctx context.Context, name string, vr expand.Variable) bool {
	return setShellVar(ctx, name, vr)
}

// SameState reports whether a and b share their per-session state.
func (forTests) SameState(a, b *Shell) bool { return a.state == b.state }

// CommandText is name as a command-not-found message shows it, and
// GNUQuote GNU's quote() of s.
func (forTests) CommandText(name string) string { return commandText(name) }
func (forTests) GNUQuote(s string) string       { return gnuQuote(s) }

// JobGraceEnd is the bound of the grace of the jobs running at a
// script's end (interp.GraceEnd).
func (forTests) JobGraceEnd() (<-chan struct{}, func()) { return jobGraceEnd() }
