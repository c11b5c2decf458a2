//go:build !linux

package stuck

import "time"

// MeterOf returns a meter of another process, pid: where its CPU time and
// its wait for a CPU are not known (here) they read 0, and only the
// windows judge it.
func MeterOf(pid int) (meter func() (wall, cpu, ready time.Duration), end func()) {
	return func() (time.Duration, time.Duration, time.Duration) { return sinceOrigin(), 0, 0 }, func() {}
}

// processReady is 0 where the threads' wait for a CPU is not known.
func processReady() time.Duration { return 0 }

// Prepare does nothing where the wait is not known.
func Prepare() {}
