package vfsd

import (
	"syscall"
)

// pipeSize is the capacity vfsd asks for on a pipe it serves: 1 MiB (the
// default /proc/sys/fs/pipe-max-size) holds a whole read_bulk answer, so
// a 100 MB file crosses in about a hundred wake-ups instead of 1600.
const pipeSize = 1 << 20

// F_SETPIPE_SZ and F_GETPIPE_SZ (fcntl.h; the syscall package lacks them).
const (
	fSetPipeSz = 1031
	fGetPipeSz = 1032
)

// growPipe enlarges the kernel buffer of rw when it is a pipe. It is only
// an optimisation: anything else, or a refusal, leaves rw as it was.
func growPipe(rw any) {
	sc, ok := rw.(syscall.Conn)
	if !ok {
		return
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return
	}
	raw.Control(func(fd uintptr) {
		syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSz, pipeSize)
	})
}
