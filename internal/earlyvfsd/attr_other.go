//go:build !unix

package earlyvfsd

import "syscall"

// VfsdAttr: elsewhere vfsd starts as any child does.
func VfsdAttr() *syscall.SysProcAttr { return nil }
