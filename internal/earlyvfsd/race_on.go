//go:build race

package earlyvfsd

import "os"

// ChildEnv is the environment vfsd starts with in a race build: the race
// runtime sleeps a second at exit (so other goroutines can still report),
// and every run would wait for its vfsd's second. A GORACE of the parent
// is passed on as it is.
func ChildEnv() []string {
	if v, ok := os.LookupEnv("GORACE"); ok {
		return []string{"GORACE=" + v}
	}
	return []string{"GORACE=atexit_sleep_ms=0"}
}

// VfsdEnv is the environment llmsh starts its vfsd with: ChildEnv's, and
// GOMAXPROCS=1 until vfsd's work begins (vfsd.OneProcUntilWork).
func VfsdEnv() []string { return append(ChildEnv(), "GOMAXPROCS=1") }
