//go:build !race

package earlyvfsd

// ChildEnv is the environment vfsd starts with: none of the host's.
func ChildEnv() []string { return []string{} }
