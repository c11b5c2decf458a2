package stuck_test

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/internal/stuck"
)

func TestWait(t *testing.T) {
	done := make(chan struct{})
	close(done)
	if Wait(context.Background(), nil, done) {
		t.Error("a run that returned is stuck")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if Wait(ctx, nil, done) {
		t.Error("a cancelled run that returned is stuck")
	}
}

// TestJudge: the decision depends on the CPU the process spends, not on
// how much wall-clock time passes (session 28: a run finishing one big
// step at load 30-40 was ended as stuck a second after its stop). The
// readings are made up: no time passes in this test.
func TestJudge(t *testing.T) {
	const ms = time.Millisecond
	for _, tc := range []struct {
		name  string
		reads []reading // from the stop (0, 0) on, every 20 ms of wall time
		stuck int       // the index of the reading found stuck; -1 none
	}{
		// A step of 300 ms of CPU at load 40 on 2 CPUs (a twentieth of
		// a CPU): 6 s of wall time, never stuck.
		{"starved step", every(20*ms, 300, func(i int) time.Duration { return time.Duration(i) * ms }), -1},
		// The same step on an idle machine.
		{"idle machine step", every(20*ms, 15, func(i int) time.Duration { return time.Duration(i) * 20 * ms }), -1},
		// Burning a CPU whole: stuck at 1 s of CPU, whatever the wall.
		{"burning", every(20*ms, 100, func(i int) time.Duration { return time.Duration(i) * 20 * ms }), 49},
		// Burning at a twentieth of a CPU (loaded): stuck at 1 s of
		// CPU, 20 s of wall time.
		{"burning starved", every(20*ms, 2000, func(i int) time.Duration { return time.Duration(i) * ms }), 999},
		// Waiting, no CPU: stuck when the first window of 1 s ends.
		{"waiting", every(20*ms, 100, func(int) time.Duration { return 0 }), 49},
		// A step of 50 ms of CPU, then waiting for good: the first
		// window saw work, the second none.
		{"works then waits", every(20*ms, 200, func(i int) time.Duration { return min(time.Duration(i), 50) * ms }), 99},
		// Waiting while the watcher itself was not scheduled for 5 s:
		// stuck at the first reading after the gap.
		{"waiting gap", []reading{{5 * time.Second, ms / 2, 0}}, 0},
		// Working at a twentieth of a CPU while the watcher was not
		// scheduled for 5 s: a share of 5 %, not waiting.
		{"working gap", []reading{{5 * time.Second, 250 * ms, 0}, {5*time.Second + 20*ms, 251 * ms, 0}}, -1},
		// A step of 300 ms of CPU at load 120 on 2 CPUs (a sixtieth of
		// a CPU, under 1/IdleShare), ready to run the rest of the time
		// (session 29): 18 s of wall time, never stuck.
		{"step past IdleShare", readyEvery(20*ms, 900, func(i int) (time.Duration, time.Duration) {
			return time.Duration(i) * ms / 3, time.Duration(i) * 20 * ms * 59 / 60
		}), -1},
		// Waiting, its wake-ups ready for 300 ms a second on a loaded
		// machine: stuck when the first window ends.
		{"waiting loaded", readyEvery(20*ms, 100, func(i int) (time.Duration, time.Duration) {
			return 0, time.Duration(i) * 6 * ms
		}), 49},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := NewJudge(0, 0, 0)
			got := -1
			for i, r := range tc.reads {
				if j.Stuck(r.wall, r.cpu, r.ready) {
					got = i
					break
				}
			}
			if got != tc.stuck {
				t.Errorf("stuck at reading %d, want %d", got, tc.stuck)
			}
		})
	}
}

// reading is one reading of the wall-clock time, the CPU time and the
// time waited for a CPU from the stop.
type reading struct{ wall, cpu, ready time.Duration }

// every makes n readings, the i-th (from 1) at i*step of wall time and
// cpu(i) of CPU, never ready.
func every(step time.Duration, n int, cpu func(i int) time.Duration) (out []reading) {
	return readyEvery(step, n, func(i int) (time.Duration, time.Duration) { return cpu(i), 0 })
}

// readyEvery is every with cpu(i)'s second value the time ready.
func readyEvery(step time.Duration, n int, cpu func(i int) (time.Duration, time.Duration)) (out []reading) {
	for i := 1; i <= n; i++ {
		c, r := cpu(i)
		out = append(out, reading{time.Duration(i) * step, c, r})
	}
	return out
}

// TestWaitDriven: Wait looks at the process on each tick after the stop
// and reports a stuck run, or a returned one, or one that check finds
// stuck; the meter and the ticks are the test's (no time passes).
func TestWaitDriven(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// run drives one wait: the readings at the stop are (0, 0); before
	// tick i, step(i) gives the readings of that tick, until it says
	// the run has returned or the wait ends. It returns what the wait
	// reported and the ticks it took.
	run := func(check func() bool, step func(i int) (wall, cpu time.Duration, more bool)) (stuck bool, ticks int) {
		reads := make(chan reading)
		meter := func() (time.Duration, time.Duration, time.Duration) { r := <-reads; return r.wall, r.cpu, 0 }
		tick, done := make(chan time.Time), make(chan struct{})
		res := make(chan bool, 1)
		go func() { res <- ForTests.WaitWith(ctx, nil, done, check, meter, tick) }()
		reads <- reading{}
		for i := 1; ; i++ {
			wall, cpu, more := step(i)
			if !more {
				close(done)
				return <-res, i - 1
			}
			select {
			case r := <-res:
				return r, i - 1
			case tick <- time.Time{}:
			}
			reads <- reading{wall, cpu, 0}
		}
	}
	const ms = time.Millisecond
	// A starved run (a twentieth of a CPU) finishing a step of 300 ms
	// of CPU over 6 s returns.
	stuck, n := run(nil, func(i int) (time.Duration, time.Duration, bool) {
		return time.Duration(i) * 20 * ms, time.Duration(i) * ms, i <= 300
	})
	if stuck || n != 300 {
		t.Errorf("starved step: stuck %v after %d ticks", stuck, n)
	}
	// One burning: stuck at the tick that reads a second of CPU.
	stuck, n = run(nil, func(i int) (time.Duration, time.Duration, bool) {
		return time.Duration(i) * 20 * ms, time.Duration(i) * 20 * ms, true
	})
	if !stuck || n != 50 {
		t.Errorf("burning: stuck %v after %d ticks", stuck, n)
	}
	// check says stuck at the first tick.
	stuck, n = run(func() bool { return true }, func(int) (time.Duration, time.Duration, bool) { return ms, ms, true })
	if !stuck || n != 1 {
		t.Errorf("check: stuck %v after %d ticks", stuck, n)
	}
}

// TestWaitReal: with the process's own meter, a run that burns a CPU
// after its stop, and one that waits for good, are both found stuck (the
// test ends only if they are; it times nothing).
func TestWaitReal(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var quit atomic.Bool
	defer quit.Store(true)
	go func() {
		runtime.LockOSThread()
		for !quit.Load() {
		}
	}()
	if !Wait(ctx, nil, make(chan struct{})) {
		t.Error("a burning run is not stuck")
	}
	quit.Store(true)
	stopped := make(chan struct{})
	close(stopped)
	if !Wait(context.Background(), stopped, make(chan struct{})) {
		t.Error("a waiting run is not stuck")
	}
}

// TestMeterOf: another process's CPU is read from /proc (here the test's
// own, after some work), and a process that has gone reads 0.
func TestMeterOf(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc")
	}
	meter, end := MeterOf(os.Getpid())
	defer end()
	_, before, _ := meter()
	for _, after, _ := meter(); after <= before; _, after, _ = meter() {
		// reading is work: on until a clock tick of it counts
	}
	cmd := exec.Command("/bin/true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	gone, end2 := MeterOf(cmd.Process.Pid)
	defer end2()
	if _, cpu, ready := gone(); cpu != 0 || ready != 0 {
		t.Errorf("a process that has gone read %v, %v", cpu, ready)
	}
}
