package earlyvfsd

import (
	"os"
	"runtime"
	"testing"
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
