package earlyvfsd

import (
	"os"

	"github.com/llmsh/llmsh/internal/racebuild"
)

// ChildEnv is the environment vfsd starts with: none of the host's. In a
// race build (the tests'), GORACE: the race runtime sleeps a second at
// exit (so other goroutines can still report), and every run would wait
// for its vfsd's second; a GORACE of the parent is passed on as it is.
func ChildEnv() []string {
	if !racebuild.Enabled {
		return []string{}
	}
	if v, ok := os.LookupEnv("GORACE"); ok {
		return []string{"GORACE=" + v}
	}
	return []string{"GORACE=atexit_sleep_ms=0"}
}

// VfsdEnv is the environment llmsh starts its vfsd with: ChildEnv's, and
// GOMAXPROCS=1 until vfsd's work begins (vfsd.OneProcUntilWork).
func VfsdEnv() []string { return append(ChildEnv(), "GOMAXPROCS=1") }
