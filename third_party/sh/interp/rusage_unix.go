// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

//go:build unix

package interp

import (
	"syscall"
	"time"
)

// processTimes returns the user and system CPU time the process has used
// (its own rusage: nothing of the host's other processes).
func processTimes() (user, sys time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}
