//go:build !race

package vfsdproc

// childEnv is the environment vfsd starts with: none of the host's.
func childEnv() []string { return []string{} }
