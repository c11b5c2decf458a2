package shell

import (
	"runtime/metrics"
	"sync"
	"time"

	"github.com/llmsh/llmsh/internal/stuck"
)

// The grace that the jobs still running at a script's end get before
// they are hung up (interp's HangUp: each goes on until it ends, enters
// a command that waits, or has passed 256 stop points) is over, for a
// job that does none of these (one blocked reading a pipe, one deep in
// a builtin), once the process has spent graceCPU of CPU time since the
// script ended, or graceIdle of the looks at it, one a stuck.Tick, have
// found no goroutine but the one that looks running or ready to run
// (Go's scheduler: the jobs all wait). Session 30: it was 200 ms of
// wall-clock time, of which a loaded machine gave a job a share that
// only the load decided: at load 45 `bash -c 'echo a & echo b'` could
// lose a (fixture jobs_s29_e_end_grace). A job that wants the CPU now
// has 200 ms of it, however long the load makes that take; one that
// waits is hung up after ten looks, 200 ms on an idle machine (the
// machine's wait for a CPU, schedstat, made a waiting process look busy
// at load 18: its ticks wait for a CPU too); none keeps the run alive,
// since the process either runs Go code or does not.
const (
	graceCPU  = 200 * time.Millisecond
	graceIdle = 10
)

// schedNames are the runtime/metrics gauges of the goroutines that run
// or are ready to run.
var schedNames = [2]string{"/sched/goroutines/running:goroutines", "/sched/goroutines/runnable:goroutines"}

// othersRun reports whether a goroutine other than the caller runs or
// is ready to run.
func othersRun() bool {
	s := [2]metrics.Sample{{Name: schedNames[0]}, {Name: schedNames[1]}}
	metrics.Read(s[:])
	var n uint64
	for _, v := range s {
		if v.Value.Kind() == metrics.KindUint64 {
			n += v.Value.Uint64()
		}
	}
	return n > 1
}

// jobGraceEnd is the shell's interp.GraceEnd: a channel closed once the
// grace is over (see above), and the function that stops the looks.
func jobGraceEnd() (<-chan struct{}, func()) {
	over, stop := make(chan struct{}), make(chan struct{})
	cpu0 := stuck.CPU()
	go func() {
		t := time.NewTicker(stuck.Tick)
		defer t.Stop()
		idle := 0
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if !othersRun() {
					idle++
				}
				if idle >= graceIdle || stuck.CPU()-cpu0 >= graceCPU {
					close(over)
					return
				}
			}
		}
	}()
	var once sync.Once
	return over, func() { once.Do(func() { close(stop) }) }
}
