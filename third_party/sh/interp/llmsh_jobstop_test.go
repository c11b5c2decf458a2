// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"context"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// lockedBuilder is a strings.Builder that a job and the test share.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestStoppedJobHalts: a job stopped by kill -STOP runs no further
// command until kill -CONT, and then runs on to its end. The job waits
// in a command of the test (hold) when it is stopped; once released, it
// must come to a halt at its gate with "two" unprinted.
func TestStoppedJobHalts(t *testing.T) {
	reached, release := make(chan struct{}), make(chan struct{})
	var out lockedBuilder
	var r *Runner
	halted := func() {
		// The job has left hold and waits at its gate.
		for !ForTests.JobAtGate(r, 0) {
			runtime.Gosched()
		}
		if got := out.String(); got != "one\n" {
			t.Errorf("the stopped job printed %q", got)
		}
	}
	exec := func(ctx context.Context, args []string) error {
		switch args[0] {
		case "hold":
			close(reached)
			<-release
		case "reached":
			<-reached
		case "release":
			close(release)
		case "halted":
			halted()
		default:
			t.Errorf("unexpected command %q", args)
		}
		return nil
	}
	var err error
	r, err = New(StdIO(nil, &out, &out), ExecHandlers(func(next ExecHandlerFunc) ExecHandlerFunc { return exec }))
	if err != nil {
		t.Fatal(err)
	}
	src := `{ echo one; hold; echo two; } &
reached; kill -STOP %1; release; halted
kill -CONT %1; wait %1; echo "status $?"`
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.Run(ctx, f); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "one\ntwo\nstatus 0\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestStopPointAndLimits: a command's StopPoint waits while its job is
// stopped, and a context that ends (a limit, the end of the run) ends
// the wait, as it ends a wait for a stopped job.
func TestStopPointAndLimits(t *testing.T) {
	g := ForTests.JobGate(nil)
	ctx := g.Context(context.Background())
	if !Stoppable(ctx) || Stoppable(context.Background()) {
		t.Fatal("Stoppable is wrong")
	}
	if err := StopPoint(ctx); err != nil {
		t.Fatalf("a running job: %v", err)
	}
	g.Stop()
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- StopPoint(cctx) }()
	for !g.Waiting() {
		runtime.Gosched()
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("a stopped job whose context ended: %v", err)
	}
	child := ForTests.JobGate(g)
	go func() { done <- StopPoint(child.Context(context.Background())) }()
	for !g.Waiting() && !child.Waiting() {
		runtime.Gosched()
	}
	g.Resume()
	if err := <-done; err != nil {
		t.Fatalf("a job inside a continued one: %v", err)
	}
	out, errs, st := runScript(t, `{ :; } & kill -STOP %1; kill -CONT %1; kill -CONT %1; wait %1; echo $?`)
	if out != "0\n" || errs != "" || st != 0 {
		t.Fatalf("stop and continue twice: %q %q %d", out, errs, st)
	}
}

// TestForegroundStopper: at an interactive prompt a command runs as a job
// in the foreground; the stopper (Ctrl-Z) stops it, the shell reports it
// and goes on with status 148; jobs lists it stopped, fg continues it and
// waits for its status; wait alone warns of a stopped job.
func TestForegroundStopper(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var out lockedBuilder
	var stop func() bool
	exec := func(ctx context.Context, args []string) error {
		switch args[0] {
		case "hold":
			close(started)
			<-release
			return ExitStatus(3)
		case "ctrlz":
			<-started
			if !stop() {
				t.Error("nothing in the foreground to stop")
			}
		case "release":
			close(release)
		}
		return nil
	}
	r, err := New(StdIO(nil, &out, &out), JobControl(true), AtPrompt(true),
		ExecHandlers(func(next ExecHandlerFunc) ExecHandlerFunc { return exec }))
	if err != nil {
		t.Fatal(err)
	}
	stop = r.ForegroundStopper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r.SetJobContext(ctx)
	// hold runs in the foreground on a goroutine of its own, so ctrlz,
	// run by a job of &, can stop it (as Ctrl-Z comes from outside).
	src := `ctrlz & hold; echo "after $?"; wait; jobs; release; fg; echo "fg $?"; jobs`
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(ctx, f); err != nil {
		t.Fatal(err)
	}
	want := "[1] PID\n\n[2]+  Stopped                 hold\nafter 148\n" +
		"llmsh: wait: warning: job 2[PID] stopped\n[2]+  Stopped                 hold\nhold\nfg 3\n"
	got := regexp.MustCompile(`\d{4,}`).ReplaceAllString(out.String(), "PID")
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
