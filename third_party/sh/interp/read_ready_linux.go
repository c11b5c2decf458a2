// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

//go:build linux

package interp

import (
	"os"
	"strconv"
	"syscall"
)

// inputReady reports whether a read of f would not block (data or end of
// input), for read -t 0. It asks select(2) with a zero timeout about the
// runner's own stdin, which is an in-process pipe or the shell's stdin;
// it reads nothing.
func inputReady(f *os.File) bool {
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
		var tv syscall.Timeval
		n, err := syscall.Select(int(fd)+1, &set, nil, nil, &tv)
		ready = err != nil || n > 0
	})
	return ready
}
