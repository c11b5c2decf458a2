package earlyvfsd

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// After an early start llmsh runs on one P, and FullProcs gives it back
// the runtime's default, or the GOMAXPROCS it was started with.
func TestFullProcs(t *testing.T) {
	orig := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(orig); procs = 0 })
	runtime.SetDefaultGOMAXPROCS()
	def := runtime.GOMAXPROCS(0)
	if _, set := os.LookupEnv("GOMAXPROCS"); !set {
		lowerProcs()
		if got := runtime.GOMAXPROCS(0); got != 1 {
			t.Fatalf("GOMAXPROCS %d after lowerProcs, want 1", got)
		}
		FullProcs()
		if got := runtime.GOMAXPROCS(0); got != def {
			t.Errorf("GOMAXPROCS %d after FullProcs, want the default %d", got, def)
		}
	}
	// Started with GOMAXPROCS=N: N again, not the default.
	n := def + 2
	t.Setenv("GOMAXPROCS", "x") // the runtime read it at start; only its presence counts
	runtime.GOMAXPROCS(n)
	lowerProcs()
	FullProcs()
	if got := runtime.GOMAXPROCS(0); got != n {
		t.Errorf("GOMAXPROCS %d after FullProcs with the variable set, want %d", got, n)
	}
	// Without an early start FullProcs changes nothing.
	runtime.GOMAXPROCS(n + 1)
	FullProcs()
	if got := runtime.GOMAXPROCS(0); got != n+1 {
		t.Errorf("GOMAXPROCS %d after FullProcs without lowerProcs, want %d", got, n+1)
	}
}

// A script that ends before FullProcsAfter's time ends on one P; one
// that runs longer gets every P then, once.
func TestFullProcsAfter(t *testing.T) {
	keepProcs(t)
	runtime.SetDefaultGOMAXPROCS()
	def := runtime.GOMAXPROCS(0)
	var fire func()
	var after time.Duration
	afterFunc = func(d time.Duration, f func()) *time.Timer {
		after, fire = d, f
		return time.AfterFunc(time.Hour, func() {}) // stopped by cancel
	}

	// Without an early start there is nothing to give back, nor a timer.
	FullProcsAfter(time.Millisecond)()
	if fire != nil {
		t.Fatal("FullProcsAfter set a timer without lowerProcs")
	}

	lowerProcs()
	cancel := FullProcsAfter(3 * time.Millisecond)
	if after != 3*time.Millisecond || fire == nil {
		t.Fatalf("FullProcsAfter set its timer for %v, want 3ms", after)
	}
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("GOMAXPROCS %d before the time, want 1", got)
	}
	cancel()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("GOMAXPROCS %d after an early end, want 1", got)
	}
	fire() // the time came: every P, then nothing more to give back
	if got := runtime.GOMAXPROCS(0); got != def {
		t.Errorf("GOMAXPROCS %d once the time came, want the default %d", got, def)
	}
	runtime.GOMAXPROCS(def + 1)
	fire()
	FullProcs()
	if got := runtime.GOMAXPROCS(0); got != def+1 {
		t.Errorf("GOMAXPROCS %d after a second FullProcs, want %d", got, def+1)
	}
}

// FullProcs from the timer's goroutine and from the shell's at once
// give the procs back once (go test -race).
func TestFullProcsConcurrent(t *testing.T) {
	keepProcs(t)
	lowerProcs()
	done := make(chan struct{})
	go func() { FullProcs(); close(done) }()
	FullProcs()
	<-done
	if procs != 0 {
		t.Errorf("procs %d after FullProcs, want 0", procs)
	}
}

// keepProcs skips a test of the lowered procs when the GOMAXPROCS
// variable is set (FullProcs then gives back its value, not the
// default), and restores GOMAXPROCS, procs and afterFunc after it.
func keepProcs(t *testing.T) {
	t.Helper()
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		t.Skip("GOMAXPROCS is set")
	}
	orig := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(orig); procs = 0; afterFunc = time.AfterFunc })
}
