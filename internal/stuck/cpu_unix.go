//go:build unix

package stuck

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, user and system,
// every thread.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
