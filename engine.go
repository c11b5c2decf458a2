package llmsh

// The engine of a Run: the limits that stop the work in progress (the
// output budget, the memory guard, the time limit), the streams the shell
// writes to, and the words each limit says. Every surface of llmsh (the
// command's -c and script files, its interactive shell, llmsh test, serve,
// mcp and this library) runs through them, so that a limit means the same
// and says the same everywhere.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/llmsh/llmsh/shell"
)

// The causes of a stopped Run, as RunOptions.OnStop reports them.
var (
	// ErrTimedOut: the Run's time limit passed (status 124).
	ErrTimedOut = errors.New("llmsh: timed out")
	// ErrOutputLimit: the Run's output went past its cap (status 125).
	ErrOutputLimit = errors.New("llmsh: output limit exceeded")
	// ErrMemoryLimit: the heap went past Options.MaxMemory (status 125).
	ErrMemoryLimit = errors.New("llmsh: memory limit exceeded")
)

// ErrGrantRefused is returned (wrapped, with vfsd's reason: the path and
// why) by New when vfsd cannot serve a grant of Options.Inputs or
// Options.Outputs.
var ErrGrantRefused = errors.New("llmsh: grant refused")

// RunOptions are the options of one Run. Its limits are bounded by the
// session's: a call may shorten Options.Timeout and Options.MaxOutput,
// never extend them.
type RunOptions struct {
	// Stdin is the script's standard input; nil for none. An *os.File
	// is given to the script as is; another reader is copied to it.
	Stdin io.Reader `json:"-"`
	// Stdout and Stderr, when set, receive the script's output as it is
	// written (live), and the Result's Stdout, Stderr and Output stay
	// empty for that stream. llmsh's own messages (a limit that stopped
	// the Run) go to Stderr too.
	Stdout, Stderr io.Writer `json:"-"`
	// Timeout bounds this Run's wall-clock time (status 124); zero is
	// the session's Options.Timeout, and a longer one is cut to it.
	Timeout time.Duration
	// MaxOutput caps this Run's stdout plus stderr bytes (status 125);
	// zero is the session's Options.MaxOutput, and a larger one is cut to it.
	MaxOutput int64
	// Dir, when set, is where the script starts: as if `cd -- Dir` were
	// typed first (a relative Dir is taken from the shell's working
	// directory). The shell stays wherever the script leaves it; a cd
	// that fails is the Run's status and message, and the script does
	// not run.
	Dir string
	// Env are variables NAME=value exported before the script runs, as if
	// `export NAME=value` were typed first; they stay set.
	Env []string
	// Script runs the text as a script file rather than as lines typed
	// at a prompt: it is parsed whole first (a syntax error runs none of
	// it), the EXIT trap runs at its end, and errors are worded as
	// bash's for a script named Options.Name (for a -c string when
	// Options.Command is set). The llmsh command and llmsh test run so.
	Script bool
	// ScriptFromStdin reads the script from Stdin as it runs, instead of
	// the script argument (which is then ignored), as bash reads a script
	// on its standard input: a complete command at a time, each read
	// just before it runs, so what the commands read from their standard
	// input is the rest of the script. It implies Script.
	ScriptFromStdin bool
	// OnStop, if set, is called (from another goroutine) when something
	// other than the caller stops the Run: ErrTimedOut, ErrOutputLimit,
	// ErrMemoryLimit or ErrVfsdGone; it has returned by the time RunWith
	// does. It lets a caller watch a Run that does not return (the llmsh
	// command exits when a stopped script keeps running).
	OnStop func(cause error) `json:"-"`
}

// bound is the limit of a call: the call's within the session's.
func bound[T int64 | time.Duration](session, call T) T {
	if call > 0 && (session <= 0 || call < session) {
		return call
	}
	return session
}

// limiter holds the limits that stop the work in progress: the output
// budget and the memory guard. The work in progress is a Run, or in the
// interactive shell one command line; begin starts it with the function
// that cancels it.
type limiter struct {
	stderr    io.Writer // where a limit that fires says so (outside the budget)
	maxOutput int64     // bytes of stdout+stderr per run; 0 for no cap

	left    atomic.Int64 // output budget left in this run
	midLine atomic.Bool  // the last byte written was not a newline
	errMid  atomic.Bool  // the last byte written to stderr was not a newline
	// apart: stderr is not seen interleaved with stdout (a buffer of its
	// own, as --json's stderr field): a message starts a line of its own
	// only after a cut stderr line, not after stdout's.
	apart  bool
	mu     sync.Mutex
	cancel func(error) // of the run in progress; nil between runs
	fired  error       // the limit that stopped the run in progress
}

// begin starts a run that cancel stops, with a fresh output budget.
func (l *limiter) begin(cancel func(error)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cancel, l.fired = cancel, nil
	l.left.Store(l.maxOutput)
	l.midLine.Store(false)
	l.errMid.Store(false)
}

// end ends the run and reports the limit that stopped it, if any.
func (l *limiter) end() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cancel = nil
	return l.fired
}

// fire stops the run in progress, saying why, once per run.
func (l *limiter) fire(cause error, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fired != nil || l.cancel == nil {
		return
	}
	l.fired = cause
	l.say(msg)
	l.cancel(cause)
}

// note says msg as say does, holding the limiter's lock.
func (l *limiter) note(msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.say(msg)
}

// say writes llmsh's message msg (without its "llmsh: " and newline) on
// stderr, on a line of its own.
func (l *limiter) say(msg string) {
	msg = "llmsh: " + msg + "\n"
	mid := l.midLine.Load()
	if l.apart {
		mid = l.errMid.Load()
	}
	if mid {
		// On a line of its own, not glued to the cut line.
		msg = "\n" + msg
	}
	io.WriteString(l.stderr, msg)
	l.midLine.Store(false)
	l.errMid.Store(false)
}

// writer counts what is written to w (stdout) against the output budget.
func (l *limiter) writer(w io.Writer) io.Writer {
	return &limitWriter{w: w, l: l}
}

// errWriter is writer for stderr.
func (l *limiter) errWriter(w io.Writer) io.Writer {
	return &limitWriter{w: w, l: l, err: true}
}

// apartStreams reports whether a script's stdout and stderr, the
// caller's writers, are seen apart: neither one writer nor both
// descriptors (a terminal shows them interleaved). A stderr that is
// captured (nil) is not: the capture's notes place the message.
func apartStreams(stdout, stderr io.Writer) bool {
	if stderr == nil || sameWriter(stdout, stderr) {
		return false
	}
	return fdOf(stdout) == ^uintptr(0) || fdOf(stderr) == ^uintptr(0)
}

// truncated reports whether the run's output went past the budget.
func (l *limiter) truncated() bool { return l.maxOutput > 0 && l.left.Load() < 0 }

// limitWriter counts bytes against the run's output budget and stops the
// run when it is spent.
type limitWriter struct {
	w   io.Writer
	l   *limiter
	err bool // the writer of stderr
}

// ends notes whether the last byte written, c, ends a line.
func (lw *limitWriter) ends(c byte) {
	lw.l.midLine.Store(c != '\n')
	if lw.err {
		lw.l.errMid.Store(c != '\n')
	}
}

var errOutputLimit = errors.New("output limit exceeded")

func (lw *limitWriter) Write(p []byte) (int, error) {
	if lw.l.maxOutput <= 0 {
		if len(p) > 0 {
			lw.ends(p[len(p)-1])
		}
		return lw.w.Write(p)
	}
	if left := lw.l.left.Add(-int64(len(p))); left < 0 {
		// What fitted in the budget before this write goes out: the
		// output is cut at the cap, not before it.
		n := 0
		if fit := int64(len(p)) + left; fit > 0 {
			n, _ = lw.w.Write(p[:fit])
			lw.ends(p[fit-1])
		}
		lw.l.fire(ErrOutputLimit, fmt.Sprintf("output limit exceeded (%d bytes)", lw.l.maxOutput))
		return n, errOutputLimit
	}
	if len(p) > 0 {
		lw.ends(p[len(p)-1])
	}
	return lw.w.Write(p)
}

// Fd is the descriptor of the file written to, so that builtins can tell
// a terminal (ls layout, grep --color=auto); ^uintptr(0) when it is none.
func (lw *limitWriter) Fd() uintptr { return fdOf(lw.w) }

// fdOf is w's descriptor, ^uintptr(0) if it has none.
func fdOf(w io.Writer) uintptr {
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

// stream is the shell's stdout or stderr: the current Run's writer, or
// nowhere between Runs.
type stream struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *stream) set(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w = w
}

func (s *stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	w := s.w
	s.mu.Unlock()
	if w == nil {
		return len(p), nil
	}
	return w.Write(p)
}

// Fd is the descriptor of the current writer (a terminal, for builtins
// that lay out or colour for one).
func (s *stream) Fd() uintptr {
	s.mu.Lock()
	w := s.w
	s.mu.Unlock()
	return fdOf(w)
}

// capture collects one Run's stdout and stderr, each and both in order.
type capture struct {
	mu             sync.Mutex
	stdout, stderr half
	all            []byte
}

// half is one of capture's two streams.
type half struct {
	c    *capture
	buf  []byte
	live io.Writer // also gets what is kept, as it is written (RunStream)
}

func (h *half) Write(p []byte) (int, error) {
	h.c.mu.Lock()
	defer h.c.mu.Unlock()
	h.c.all = append(h.c.all, p...)
	h.buf = append(h.buf, p...)
	if h.live != nil && len(p) > 0 {
		// Under the capture's lock: the two streams in the order written.
		h.live.Write(p)
	}
	return len(p), nil
}

// notes is h without its live writer: where llmsh's own closing notes
// go (RunStream's writers do not get them; the Result does). A note that
// starts a line of its own after a cut line of the two streams together
// (Output) does not start h with an empty line (Stderr).
func (h *half) notes() io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		h.c.mu.Lock()
		defer h.c.mu.Unlock()
		h.c.all = append(h.c.all, p...)
		q := p
		if len(q) > 0 && q[0] == '\n' && (len(h.buf) == 0 || h.buf[len(h.buf)-1] == '\n') {
			q = q[1:]
		}
		h.buf = append(h.buf, q...)
		return len(p), nil
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func newCapture() *capture {
	c := &capture{}
	c.stdout.c, c.stderr.c = c, c
	return c
}

// stdinFile is the script's standard input as the interpreter wants it,
// an *os.File: r itself when it is one, else the read end of a pipe fed
// from r (nil: at its end at once). close stops the copy.
func stdinFile(r io.Reader) (f *os.File, close func(), err error) {
	if f, ok := r.(*os.File); ok {
		return f, func() {}, nil
	}
	pr, err := stdinPipe(r)
	if err != nil {
		return nil, nil, err
	}
	return pr, func() { pr.Close() }, nil
}

// Prompt is what an interactive front end (llmsh's own, shell/repl) is
// given by Session.Interactive to run command lines with.
type Prompt struct {
	// Shell is the session's shell: the front end runs each line with
	// its RunInteractive, between Begin and End.
	Shell *shell.Shell
	// Timeout is the session's time limit, for each command line.
	Timeout time.Duration
	// Begin is to be called before each line runs, with the function
	// that stops it; End after it has run, reporting whether a limit
	// (output, memory) stopped it, which has then said so on stderr.
	Begin func(stop func())
	End   func() bool
}

// Interactive hands the session to an interactive front end until it
// returns, and returns its status: every command line it runs is bounded
// by the session's limits (Options.Timeout, MaxOutput, MaxMemory and
// Limits), each for that line, and writes to stdout and stderr (a
// terminal) as it goes. The error is ErrClosed, or a wrapped ErrVfsdGone
// when vfsd died (ctx given to front is then cancelled, with ErrVfsdGone
// as its cause). Not for an
// Isolated session.
func (s *Session) Interactive(ctx context.Context, stdout, stderr io.Writer, front func(context.Context, Prompt) int) (int, error) {
	if err := s.lock(ctx); err != nil {
		return 0, err
	}
	defer s.unlock()
	switch {
	case s.closed:
		return 0, ErrClosed
	case s.opts.Isolated:
		return 0, errors.New("llmsh: Interactive: not for an Isolated session")
	case s.sh == nil:
		return 0, fmt.Errorf("%w (Reset starts a new session)", ErrVfsdGone)
	}
	client := s.proc.Client
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer s.cancelWith(func() { cancel(context.Canceled) })()
	go func() {
		select {
		case <-client.Done():
			cancel(ErrVfsdGone)
		case <-ctx.Done():
		}
	}()
	// One write at a time, a limit's message from the guard's goroutine
	// too (session 33: a data race on the caller's bytes.Buffer in
	// TestInteractiveSessionGrowth under -race).
	stdout, stderr = serialWriters(stdout, stderr)
	lim := &limiter{stderr: stderr, maxOutput: s.opts.MaxOutput}
	s.setLimiter(lim)
	defer s.setLimiter(nil)
	s.stdout.set(lim.writer(stdout))
	s.stderr.set(lim.errWriter(stderr))
	defer s.stdout.set(nil)
	defer s.stderr.set(nil)
	// Each line is guarded and checked at its end as a Run is (the
	// guard first: see run): a line that leaves the session over its
	// memory bound is stopped and the variables it stored are unset
	// (endCheck). Before, a line shorter than the guard's tick kept what
	// it grew past the bound, unseen, and every later line ran over it
	// (session 32: `a=$(printf %07000000d 0); c1=${a}1; …; c10=${a}10`
	// under --max-memory 64M kept 77 MB, and `echo hi` ran on).
	guard := runGuard{stop: func() {}}
	defer func() { guard.stop() }()
	st := front(ctx, Prompt{
		Shell: s.sh, Timeout: s.opts.Timeout,
		Begin: func(stop func()) {
			guard = s.growthGuard(lim)
			guard.begin(s.sh)
			lim.begin(func(error) { stop() })
		},
		End: func() bool {
			s.endCheck(guard, lim)
			guard.stop()
			guard = runGuard{stop: func() {}}
			return lim.end() != nil
		},
	})
	// The client's error is set before a waiting request is answered:
	// a line that saw vfsd gone reports it even before the watcher ran.
	if err := client.Err(); err != nil {
		return st, fmt.Errorf("%w: %v", ErrVfsdGone, err)
	}
	return st, nil
}
