package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/llmsh/llmsh/internal/memguard"
)

// memoryLimit is the heap size at which the memory guard stops the script.
const memoryLimit = memguard.Default

// limiter holds the limits that stop the work in progress rather than
// llmsh: the output budget and the memory guard. The work in progress is
// the whole script, or in the REPL one command line; begin starts it with
// the function that cancels it.
type limiter struct {
	stderr    io.Writer // where a limit that fires says so
	maxOutput int64     // bytes of stdout+stderr per run; 0 for no cap

	left    atomic.Int64 // output budget left in this run
	midLine atomic.Bool  // the last byte written was not a newline
	mu      sync.Mutex
	cancel  func() // of the run in progress; nil between runs
	fired   bool   // a limit stopped the run in progress
}

// begin starts a run that cancel stops, with a fresh output budget.
func (l *limiter) begin(cancel func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cancel, l.fired = cancel, false
	l.left.Store(l.maxOutput)
	l.midLine.Store(false)
}

// end ends the run and reports whether a limit stopped it.
func (l *limiter) end() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cancel = nil
	return l.fired
}

// fire stops the run in progress, saying why, once per run.
func (l *limiter) fire(msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fired || l.cancel == nil {
		return
	}
	l.fired = true
	if l.midLine.Load() {
		// The message on a line of its own, not glued to the cut line.
		msg = "\n" + "llmsh: " + msg
	} else {
		msg = "llmsh: " + msg
	}
	fmt.Fprintln(l.stderr, msg)
	l.cancel()
}

// writer counts what is written to w against the output budget.
func (l *limiter) writer(w io.Writer) io.Writer {
	if l.maxOutput <= 0 {
		return w
	}
	return &limitWriter{w: w, l: l}
}

// truncated reports whether the run's output went past the budget.
func (l *limiter) truncated() bool { return l.maxOutput > 0 && l.left.Load() < 0 }

// limitWriter counts bytes against the run's output budget and stops the
// run when it is spent.
type limitWriter struct {
	w io.Writer
	l *limiter
}

var errOutputLimit = errors.New("output limit exceeded")

func (lw *limitWriter) Write(p []byte) (int, error) {
	if left := lw.l.left.Add(-int64(len(p))); left < 0 {
		// What fitted in the budget before this write goes out: the
		// output is cut at the cap, not before it.
		n := 0
		if fit := int64(len(p)) + left; fit > 0 {
			n, _ = lw.w.Write(p[:fit])
			lw.l.midLine.Store(p[fit-1] != '\n')
		}
		lw.l.fire(fmt.Sprintf("output limit exceeded (%d bytes)", lw.l.maxOutput))
		return n, errOutputLimit
	}
	if len(p) > 0 {
		lw.l.midLine.Store(p[len(p)-1] != '\n')
	}
	return lw.w.Write(p)
}

// Fd is the descriptor of the file written to, so that builtins can tell
// a terminal (ls layout, grep --color=auto); ^uintptr(0) when it is none.
func (lw *limitWriter) Fd() uintptr {
	if f, ok := lw.w.(*os.File); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

// memoryGuard watches the heap and stops the run in progress, with a
// message, before the kernel would kill the process. It returns a function
// that stops the guard; the guard also stops when ctx ends.
func memoryGuard(ctx context.Context, limit uint64, l *limiter) func() {
	stop := memguard.Start(limit, func() { l.fire(memguard.Message(limit)) })
	context.AfterFunc(ctx, stop)
	return stop
}
