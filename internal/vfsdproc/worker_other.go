//go:build !linux

package vfsdproc

import "syscall"

// workerAttr: elsewhere a worker ends when its socket closes.
func workerAttr() *syscall.SysProcAttr { return nil }
