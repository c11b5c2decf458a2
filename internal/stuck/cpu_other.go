//go:build !unix

package stuck

import "time"

// processCPU is 0 where the process's CPU time is not known: a stopped
// run is then judged by the wall-clock windows alone (stuck after the
// first, as if it used no CPU).
func processCPU() time.Duration { return 0 }
