//go:build !race

package earlyvfsd

// ChildEnv is the environment vfsd starts with: none of the host's.
func ChildEnv() []string { return []string{} }

// VfsdEnv is the environment llmsh starts its vfsd with: ChildEnv's, and
// GOMAXPROCS=1 until vfsd's work begins (vfsd.OneProcUntilWork).
func VfsdEnv() []string { return []string{"GOMAXPROCS=1"} }
