package main

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmsh/llmsh"
)

// TestStopStuck: a run that does not return after its time limit fired
// (work that ignores cancellation) is ended by stopStuck with the timeout
// message and status 124, after the vfsd session is closed; a run that
// returns in time is left alone.
func TestStopStuck(t *testing.T) {
	defer func(e func(int)) { exit = e }(exit)
	exited := make(chan int, 1)
	exit = func(code int) { exited <- code }

	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(llmsh.ErrTimedOut)
	var ended atomic.Bool
	var errb bytes.Buffer
	stopStuck(ctx, make(chan struct{}), func() { ended.Store(true) }, 3*time.Second, &errb)
	if code := <-exited; code != 124 || errb.String() != "llmsh: timed out after 3s\n" || !ended.Load() {
		t.Fatalf("code=%d stderr=%q session ended=%v", code, errb.String(), ended.Load())
	}

	gctx, gcancel := context.WithCancelCause(context.Background())
	gcancel(llmsh.ErrVfsdGone)
	errb.Reset()
	stopStuck(gctx, make(chan struct{}), func() {}, 0, &errb)
	if code := <-exited; code != 1 || errb.String() != "llmsh: vfsd exited unexpectedly\n" {
		t.Fatalf("code=%d stderr=%q", code, errb.String())
	}

	done := make(chan struct{})
	close(done)
	errb.Reset()
	stopStuck(ctx, done, func() { t.Error("session ended for a run that returned") }, 0, &errb)
	select {
	case code := <-exited:
		t.Fatalf("exit(%d) for a run that returned", code)
	default:
	}
	if errb.Len() != 0 {
		t.Fatalf("stderr %q", errb.String())
	}
}
