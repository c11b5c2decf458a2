package main

import (
	"context"
	"io"
	"sync/atomic"
	"time"

	"github.com/llmsh/llmsh/internal/stuck"
)

// outWatch passes a run's writes on to one of the process's own outputs
// (its stdout or stderr) and lets stopStuck tell when one of them is
// blocked: a write(2) to a pipe that its reader does not empty waits in
// the kernel, where nothing can end it but the reader or the process's
// exit, so a run held there would never see its time limit.
type outWatch struct {
	w io.Writer
	// seq counts the writes begun and ended: odd while one is in
	// progress, the same odd value while that one is.
	seq atomic.Uint64
}

func (o *outWatch) Write(p []byte) (int, error) {
	o.seq.Add(1)
	n, err := o.w.Write(p)
	o.seq.Add(1)
	return n, err
}

// Fd is the file's descriptor, so that builtins can still tell a
// terminal; ^uintptr(0) when it has none.
func (o *outWatch) Fd() uintptr {
	if f, ok := o.w.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

// waitStopped waits until the run returns (done is closed: false) or is
// told to stop (ctx ends). Told to stop, it reports true once the run is
// stuck (stuck.Wait: a second of CPU spent since, or a second in which
// it used next to none), or once one write to outs has been in progress
// across a tick of stuck.Tick (20 ms: the reader is not reading, and the
// run would wait for it, whatever its limit).
func waitStopped(ctx context.Context, done <-chan struct{}, outs []*outWatch) bool {
	var check func() bool
	if len(outs) > 0 {
		prev := make([]uint64, len(outs))
		for i, o := range outs {
			prev[i] = o.seq.Load()
		}
		check = func() bool {
			for i, o := range outs {
				cur := o.seq.Load()
				if cur%2 == 1 && cur == prev[i] {
					return true
				}
				prev[i] = cur
			}
			return false
		}
	}
	return stuck.WaitOr(ctx, nil, done, check)
}

// sayAtMost writes msg to w unless that blocks for longer than d: the
// reader of a stopped run's output may be the one that stopped reading.
func sayAtMost(w io.Writer, msg string, d time.Duration) {
	said := make(chan struct{})
	go func() {
		defer close(said)
		io.WriteString(w, msg)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-said:
	case <-t.C:
	}
}
