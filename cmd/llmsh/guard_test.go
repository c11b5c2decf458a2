package main

import (
	"bytes"
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the guard's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestOutputBudgetPerRun: the output limit stops the run in progress once,
// with one message, and the next run has the whole budget again (the REPL
// begins a run for each command line).
func TestOutputBudgetPerRun(t *testing.T) {
	var msgs, out bytes.Buffer
	l := &limiter{stderr: &msgs, maxOutput: 10}
	w := l.writer(&out)
	for run := 1; run <= 2; run++ {
		stopped := 0
		l.begin(func() { stopped++ })
		if _, err := w.Write([]byte("0123456789")); err != nil {
			t.Fatalf("run %d: a write within the budget failed: %v", run, err)
		}
		for i := 0; i < 2; i++ {
			if _, err := w.Write([]byte("x")); err != errOutputLimit {
				t.Fatalf("run %d: a write past the budget: %v", run, err)
			}
		}
		if stopped != 1 || !l.end() {
			t.Fatalf("run %d: stopped %d times", run, stopped)
		}
	}
	if out.String() != "01234567890123456789" || msgs.String() != strings.Repeat("\nllmsh: output limit exceeded (10 bytes)\n", 2) {
		t.Fatalf("output %q, messages %q", out.String(), msgs.String())
	}
	// Between runs nothing is stopped and nothing is said.
	l.fire("late")
	if msgs.Len() != len("\nllmsh: output limit exceeded (10 bytes)\n")*2 {
		t.Fatalf("a limit fired between runs: %q", msgs.String())
	}
	// A write that crosses the cap puts out what fits.
	out.Reset()
	l.begin(func() {})
	if n, err := w.Write([]byte("0123456")); n != 7 || err != nil {
		t.Fatalf("write within the budget: %d %v", n, err)
	}
	if n, err := w.Write([]byte("789abc")); n != 3 || err != errOutputLimit || out.String() != "0123456789" || !l.end() {
		t.Fatalf("write across the cap: %d %v, output %q", n, err, out.String())
	}
	l.begin(func() {})
	if l.end() {
		t.Fatal("a run no limit stopped reports one")
	}
}

// TestMemoryGuardStopsRun: a heap above the guard's limit stops the run in
// progress with a message; the guard keeps watching for the next run.
func TestMemoryGuardStopsRun(t *testing.T) {
	defer debug.SetMemoryLimit(math.MaxInt64)
	var msgs syncBuffer
	l := &limiter{stderr: &msgs}
	stopped := make(chan struct{})
	l.begin(func() { close(stopped) })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := memoryGuard(ctx, 32<<20, l)
	defer stop()
	hog := make([]byte, 64<<20)
	for i := range hog {
		hog[i] = byte(i)
	}
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("the guard did not stop the run")
	}
	runtime.KeepAlive(hog)
	if !l.end() || msgs.String() != "llmsh: memory limit exceeded (32 MiB)\n" {
		t.Fatalf("messages %q", msgs.String())
	}
	// The next run begins; the heap is still above the limit, so it is
	// stopped too: the guard did not end with the first run.
	stopped2 := make(chan struct{})
	l.begin(func() { close(stopped2) })
	hog2 := make([]byte, 64<<20)
	for i := range hog2 {
		hog2[i] = byte(i)
	}
	select {
	case <-stopped2:
	case <-time.After(30 * time.Second):
		t.Fatal("the guard did not stop the second run")
	}
	runtime.KeepAlive(hog2)
	l.end()
}
