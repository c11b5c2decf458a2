package vfsdproc

import "syscall"

// workerAttr kills a worker whose parent is gone.
func workerAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
