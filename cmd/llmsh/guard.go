package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// memoryLimit is the heap size at which the memory guard stops the script.
const memoryLimit = 2 << 30

// limiter holds the limits that stop the work in progress rather than
// llmsh: the output budget and the memory guard. The work in progress is
// the whole script, or in the REPL one command line; begin starts it with
// the function that cancels it.
type limiter struct {
	stderr    io.Writer // where a limit that fires says so
	maxOutput int64     // bytes of stdout+stderr per run; 0 for no cap

	left   atomic.Int64 // output budget left in this run
	mu     sync.Mutex
	cancel func() // of the run in progress; nil between runs
	fired  bool   // a limit stopped the run in progress
}

// begin starts a run that cancel stops, with a fresh output budget.
func (l *limiter) begin(cancel func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cancel, l.fired = cancel, false
	l.left.Store(l.maxOutput)
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
	fmt.Fprintln(l.stderr, "llmsh: "+msg)
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
		}
		lw.l.fire("output limit exceeded")
		return n, errOutputLimit
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
// that stops the guard.
func memoryGuard(ctx context.Context, limit uint64, l *limiter) func() {
	debug.SetMemoryLimit(int64(limit))
	done := make(chan struct{})
	go func() {
		// HeapAlloc: live objects and dead ones not yet freed (what
		// runtime/metrics calls /memory/classes/heap/objects:bytes; that
		// package is not linked, its init costs every start-up of llmsh
		// and of vfsd 0.1 ms).
		var ms runtime.MemStats
		over := func() bool {
			runtime.ReadMemStats(&ms)
			return ms.HeapAlloc > limit
		}
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				// Garbage that is not yet collected does not count: what a
				// stopped command left behind must not stop the next one.
				if over() {
					runtime.GC()
					if over() {
						l.fire(fmt.Sprintf("memory limit exceeded (%s)", sizeString(limit)))
					}
				}
			}
		}
	}()
	return func() { close(done) }
}

// sizeString shows a byte count in the largest binary unit that divides it.
func sizeString(n uint64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
