package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
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

// TestTimeoutUnreadOutput: the time limit ends a run whose stdout or
// stderr is a pipe that nobody reads (session 26's leftover: the run
// waited in write(2) for good, and stopStuck's own message waited
// behind it). The run ends with 124, and when stderr is still read, with
// the timeout message. The reader is never read from; the guard only
// stops a test that would otherwise hang.
func TestTimeoutUnreadOutput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, script string
		both         bool // stderr to the unread pipe too
	}{
		{"stderr", "while :; do echo x >&2; done", true},
		{"stdout", "while :; do echo x; done", false},
		{"one write", `x=$(printf "%0999999d" 0); while :; do echo "$x"; done`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close() // open, never read: the pipe fills
			cmd := exec.Command(realLlmsh(t), "--timeout", "1s", "-c", tc.script)
			cmd.Dir = t.TempDir()
			var errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = w, &errb
			if tc.both {
				cmd.Stderr = w
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			ended := make(chan error, 1)
			go func() { ended <- cmd.Wait() }()
			var werr error
			select {
			case werr = <-ended:
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				<-ended
				t.Fatal("llmsh did not end within 60 s of its 1 s limit")
			}
			code := -1
			if ee, ok := werr.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != 124 {
				t.Fatalf("status %d (%v), want 124; stderr %q", code, werr, errb.String())
			}
			if !tc.both && errb.String() != "llmsh: timed out after 1s\n" {
				t.Fatalf("stderr %q", errb.String())
			}
		})
	}
}

// TestPollableStdin: a stdin pipe is read through a non-blocking open of
// its own, whose reads a deadline can end (session 27: read, mapfile and
// a script read from a stdin pipe that stays open and empty ended 1 s
// past the time limit, in read(2) of the inherited blocking pipe, until
// stopStuck's grace was over; now at the limit: `sleep 4 | llmsh
// --timeout 1s -c 'read x'` 2.05 -> 1.04 s). The caller's descriptor
// keeps its blocking mode; a file that is no pipe is left as it is.
func TestPollableStdin(t *testing.T) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(p[0]), "r"), os.NewFile(uintptr(p[1]), "w")
	defer r.Close()
	defer w.Close()
	if err := r.SetReadDeadline(time.Now()); err == nil {
		t.Fatal("a blocking pipe took a deadline")
	}
	in, ok := pollableStdin(r).(*os.File)
	if !ok || in == r {
		t.Fatalf("pipe: %v", in)
	}
	defer in.Close()
	if err := in.SetReadDeadline(time.Now()); err != nil {
		t.Fatalf("deadline: %v", err)
	}
	if _, err := in.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read past the deadline: %v", err)
	}
	in.SetReadDeadline(time.Time{})
	w.Write([]byte("x"))
	if b := make([]byte, 1); func() bool { n, err := in.Read(b); return n != 1 || err != nil || b[0] != 'x' }() {
		t.Fatal("read of the pipe's byte")
	}
	if fl, err := unixFlags(p[0]); err != nil || fl&syscall.O_NONBLOCK != 0 {
		t.Fatalf("the caller's descriptor: flags %#x %v", fl, err)
	}
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := pollableStdin(f); got != io.Reader(f) {
		t.Fatalf("not a pipe: %v", got)
	}
}

// unixFlags are fd's open flags (F_GETFL).
func unixFlags(fd int) (int, error) {
	fl, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if e != 0 {
		return 0, e
	}
	return int(fl), nil
}
