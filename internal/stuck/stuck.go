// Package stuck tells when a run that was told to stop has not returned:
// it is deep in work that does not look at its context (an expansion, the
// parser), or waits for something that never comes, and whoever ran it
// ends the process rather than let it burn a CPU, or hold its session,
// for good. The llmsh command and the isolated session's worker use it;
// each runs one session in its process, whose CPU time is the run's.
//
// The decision does not depend on the machine's load (session 28: a
// second of wall-clock time, the bound before, ended as stuck a run that
// was legitimately finishing one big step at load 30-40, when the
// process got a twentieth of a CPU). A run burning CPU is stuck once
// the process has spent Grace of CPU time since the stop; a run that
// uses none is stuck once a window of Grace of wall-clock time passes in
// which the process used less than 1/IdleShare of it. A process that
// wants the CPU gets its share of it, however loaded the machine (at
// load L per CPU, about 1/L), so only one that waits (in a system call,
// on a lock, for a channel) uses so little: the window misjudges a run
// finishing a step only past a load of IdleShare per CPU. Past it
// (session 29: TestIsolatedSessionGrowth's worker was ended as stuck at
// a load of 40 on 2 CPUs, finishing a printf -v of 12.5 MB), the time
// the process's threads spent ready to run, waiting for a CPU (Linux's
// schedstat), tells a starved run from a waiting one: a thread that
// wants the CPU is ready or running the whole window, one that waits is
// neither but for the moments after its wake-ups.
package stuck

import (
	"context"
	"sync"
	"time"
)

// Grace is the CPU time a stopped run may spend before it returns, and
// the length of the windows in which a run that uses no CPU is judged.
const Grace = time.Second

// IdleShare is the share of a window's wall-clock time (1/IdleShare)
// under which a stopped run is judged to be waiting, not working. A
// waiting process still spends some CPU of its own: the memory guard's
// and this package's ticks, the collector, and under the race detector
// about 26 ms a second (an isolated worker waiting in a builtin that
// sleeps took 38 s to spend a second of CPU). At 1/100 (10 ms) no
// window of a race-built worker was ever idle, and a waiting run ended
// only by Grace of CPU: 38.7 s where 1.6 s was meant (cold CI, session
// 28). 1/25 (40 ms) is above that and below the 1/20 a process gets at
// load 20 per CPU (40 on 2 cores).
const IdleShare = 25

// ReadyShare: a window in which the process's threads were running or
// ready to run (waiting for a CPU) for 1/ReadyShare of its wall-clock
// time or more is not idle, whatever the CPU they got: the run is
// starved by the machine's load, not waiting. A waiting process is
// ready only after its wake-ups (the ticks of the guard and of Wait, a
// hundred a second), a few milliseconds each on a loaded CPU.
const ReadyShare = 2

// Tick is how often a stopped run is looked at.
const Tick = 20 * time.Millisecond

// Judge decides from readings of the wall-clock time and the process's
// CPU time, and the time its threads waited for a CPU (ready), taken
// while a stopped run has not returned whether it is stuck. The readings
// are durations from any fixed origins (those of Meter), given in order.
type Judge struct {
	budget, window            time.Duration // CPU allowed, length of a window
	cpu0                      time.Duration // the CPU time at the stop
	winWall, winCPU, winReady time.Duration // the readings at the start of the window
}

// NewJudge starts judging a run stopped when the readings were wall,
// cpu and ready, with Grace as its CPU budget and its window.
func NewJudge(wall, cpu, ready time.Duration) *Judge {
	return NewJudgeFor(wall, cpu, ready, Grace, Grace)
}

// NewJudgeFor is NewJudge with a budget of CPU and a window of its own:
// for a parent that judges a process which should have judged itself.
func NewJudgeFor(wall, cpu, ready, budget, window time.Duration) *Judge {
	return &Judge{budget: budget, window: window, cpu0: cpu, winWall: wall, winCPU: cpu, winReady: ready}
}

// Stuck reports whether the run is stuck at the readings wall, cpu and
// ready: it has spent its budget of CPU (Grace) since the stop, or the
// window that ends here (Grace of wall-clock time or more) saw less than
// 1/IdleShare of its time in CPU and less than 1/ReadyShare of it
// running or ready to run. A window with more starts the next one.
func (j *Judge) Stuck(wall, cpu, ready time.Duration) bool {
	if cpu-j.cpu0 >= j.budget {
		return true
	}
	if span := wall - j.winWall; span >= j.window {
		used := cpu - j.winCPU
		// (ready falls when a thread ends: its wait is no longer summed)
		wanted := used + max(ready-j.winReady, 0)
		if used*IdleShare < span && wanted*ReadyShare < span {
			return true
		}
		j.winWall, j.winCPU, j.winReady = wall, cpu, ready
	}
	return false
}

// Meter reads the wall-clock time, the CPU time the process has used
// (user and system, every thread) and the time its threads have waited
// for a CPU (0 where that is not known), each from an origin of its own.
func Meter() (wall, cpu, ready time.Duration) {
	return sinceOrigin(), processCPU(), processReady()
}

// CPU is the CPU time the process has used (user and system, every
// thread), from an origin of its own: Meter's cpu, without its other
// readings.
func CPU() time.Duration { return processCPU() }

// origin is the wall-clock origin of every meter, taken at the first
// reading: not at package init, which every start of vfsd would run
// (TestStartupInit).
var (
	originOnce sync.Once
	origin     time.Time
)

// sinceOrigin is the wall-clock time since origin, on the monotonic clock.
func sinceOrigin() time.Duration {
	originOnce.Do(func() { origin = time.Now() })
	return time.Since(origin)
}

// Wait waits until the run returns (done is closed) or is told to stop
// (ctx ends, or stopped is closed; stopped may be nil). Told to stop, it
// looks at the process every Tick and reports true once Judge finds the
// run stuck, or false when it returns first.
func Wait(ctx context.Context, stopped, done <-chan struct{}) bool {
	return WaitOr(ctx, stopped, done, nil)
}

// WaitOr is Wait that also reports true once check, called every Tick
// after the stop when it is not nil, does.
func WaitOr(ctx context.Context, stopped, done <-chan struct{}, check func() bool) bool {
	return waitWith(ctx, stopped, done, check, Meter, nil)
}

// waitWith is WaitOr reading meter, on ticks of tick when it is not nil
// (tests drive it), else of a ticker of Tick.
func waitWith(ctx context.Context, stopped, done <-chan struct{}, check func() bool, meter func() (wall, cpu, ready time.Duration), tick <-chan time.Time) bool {
	select {
	case <-done:
		return false
	case <-stopped:
	case <-ctx.Done():
	}
	j := NewJudge(meter())
	if tick == nil {
		t := time.NewTicker(Tick)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-done:
			return false
		case <-tick:
			select {
			case <-done:
				return false
			default:
			}
			if j.Stuck(meter()) || check != nil && check() {
				return true
			}
		}
	}
}
