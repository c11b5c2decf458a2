// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

//go:build linux

package interp

import (
	"os"
	"strconv"
	"syscall"
	"time"
)

// inputReady reports whether a read of f would not block (data or end of
// input), for read -t 0.
func inputReady(f *os.File) bool { return inputWait(f, 0) }

// inputWait waits at most d for f to have input (data or its end), for
// read -t on a descriptor that takes no deadline (a terminal or a pipe
// the process was given). It asks select(2) about the runner's own stdin
// descriptor, which is an in-process pipe or the shell's stdin; it reads
// nothing.
func inputWait(f *os.File, d time.Duration) bool {
	sc, err := f.SyscallConn()
	if err != nil {
		return true
	}
	ready := true
	sc.Control(func(fd uintptr) {
		const bits = strconv.IntSize
		var set syscall.FdSet
		if fd >= uintptr(len(set.Bits)*bits) {
			return
		}
		set.Bits[fd/bits] |= 1 << (fd % bits)
		tv := syscall.NsecToTimeval(max(d, 0).Nanoseconds())
		n, err := syscall.Select(int(fd)+1, &set, nil, nil, &tv)
		ready = err != nil || n > 0
	})
	return ready
}
