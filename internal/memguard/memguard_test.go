package memguard_test

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/internal/memguard"
)

// tick is memguard.go's: how often the guard looks at the heap.
const tick = 20 * time.Millisecond

func TestSizeString(t *testing.T) {
	for n, want := range map[uint64]string{2 << 30: "2 GiB", 32 << 20: "32 MiB", 1536: "1536 bytes", 3 << 10: "3 KiB", 1000: "1000 bytes"} {
		if got := SizeString(n); got != want {
			t.Errorf("SizeString(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Message(2 << 30); got != "memory limit exceeded (2 GiB)" {
		t.Errorf("Message = %q", got)
	}
}

// TestStartFires: a live heap above the limit makes the guard fire, also
// once SetLimit has brought the limit under it; once the guard is
// stopped, nothing more fires.
func TestStartFires(t *testing.T) {
	defer debug.SetMemoryLimit(math.MaxInt64)
	fired := make(chan struct{}, 1)
	g := Start(1<<40, func() {
		select {
		case fired <- struct{}{}:
		default:
		}
	})
	hog := make([]byte, 64<<20)
	g.SetLimit(32 << 20)
	select {
	case <-fired:
	case <-time.After(30 * time.Second):
		t.Fatal("the guard did not fire")
	}
	runtime.KeepAlive(hog)
	g.Stop()
}

// TestStartFiresAtSoftLimit: under Start's own soft memory limit (no
// SetLimit below it), a heap that grows past the limit after the guard's
// first ticks makes the guard fire.
func TestStartFiresAtSoftLimit(t *testing.T) {
	defer debug.SetMemoryLimit(math.MaxInt64)
	runtime.GC()
	fired := make(chan struct{}, 1)
	g := Start(Heap()+(32<<20), func() {
		select {
		case fired <- struct{}{}:
		default:
		}
	})
	defer g.Stop()
	time.Sleep(3 * tick) // the ticks under the limit, with no collection
	hog := make([]byte, 64<<20)
	select {
	case <-fired:
	case <-time.After(30 * time.Second):
		t.Fatal("the guard did not fire")
	}
	runtime.KeepAlive(hog)
}

// TestAllowance: work that starts with the live heap above its bound may
// grow it by a sixteenth of the bound's growth before a guard stops it;
// under the bound, the bound is the limit.
func TestAllowance(t *testing.T) {
	hog := make([]byte, 64<<20)
	runtime.GC()
	heap := Heap()
	if got := Allowance(heap+(1<<30), 1<<30); got != heap+(1<<30) {
		t.Errorf("under the bound: %d, want the bound %d", got, heap+(1<<30))
	}
	// Allowance collects before it reads the heap (Over's second look):
	// what that collection frees of what the test itself allocated
	// since heap was read may take the answer a little under heap.
	got := Allowance(heap-(32<<20), 32<<20)
	if got < heap+(1<<20) || got > heap+(3<<20) {
		t.Errorf("over the bound: %d, want about the heap %d and 2 MiB", got, heap)
	}
	runtime.KeepAlive(hog)
}

// TestGrowthFromBase: Growth counts from the heap at its start, not from
// zero, and leaves the runtime's soft memory limit alone.
func TestGrowthFromBase(t *testing.T) {
	// HeapAlloc counts what is allocated, touched or not: no filling
	// (64M instrumented stores cost seconds under the race detector).
	base := make([]byte, 48<<20) // live before the guard: not counted
	// Growth's base counts garbage not yet collected (an earlier test's
	// 64 MiB hog): collect it first, or 64 MiB more may stay under a
	// base that included it.
	runtime.GC()
	before := debug.SetMemoryLimit(-1)
	fired := make(chan struct{}, 1)
	fire := func() {
		select {
		case fired <- struct{}{}:
		default:
		}
	}
	stop := Growth(32<<20, fire)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("soft memory limit %d, was %d", got, before)
	}
	select {
	case <-fired:
		t.Fatal("fired for the heap it started with")
	case <-time.After(5 * tick):
	}
	hog := make([]byte, 64<<20)
	select {
	case <-fired:
	case <-time.After(30 * time.Second):
		t.Fatal("the guard did not fire for 64 MiB more")
	}
	runtime.KeepAlive(hog)
	runtime.KeepAlive(base)
	stop()
}

// TestOneWatcher: the guards of a process share one goroutine, which reads
// the heap once a tick for all of them (each Run had its own, and their
// stop-the-world reads added up), fires only those over their limit, and
// ends once the last guard is stopped.
func TestOneWatcher(t *testing.T) {
	runtime.GC()
	before := runtime.NumGoroutine()
	fired := make(chan int, 2)
	fire := func(i int) func() {
		return func() {
			select {
			case fired <- i:
			default:
			}
		}
	}
	stops := []func(){Growth(32<<20, fire(1)), Growth(math.MaxUint64/2, fire(2))}
	for i := 0; i < 48; i++ {
		stops = append(stops, Growth(math.MaxUint64/2, func() {}))
	}
	if n := runtime.NumGoroutine() - before; n > 1 {
		t.Errorf("50 guards started %d goroutines, want 1", n)
	}
	hog := make([]byte, 64<<20)
	select {
	case i := <-fired:
		if i != 1 {
			t.Errorf("guard %d fired", i)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the guard over its limit did not fire")
	}
	runtime.KeepAlive(hog)
	for _, stop := range stops {
		stop()
	}
	for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > before; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left after the guards stopped", runtime.NumGoroutine()-before)
		}
		time.Sleep(tick)
	}
}

// TestCheckFiresNow: Check looks at the heap on the caller's goroutine
// and fires a guard whose limit the live heap is above before it
// returns (a reader of /dev/zero calls it every 16 MiB, ReadMeter: the
// guard's own goroutine may wait a second for its turn on a loaded
// machine); under the limit it fires nothing.
func TestCheckFiresNow(t *testing.T) {
	runtime.GC()
	var fired atomic.Int32 // the guard's own ticks may fire it too
	stop := Growth(32<<20, func() { fired.Add(1) })
	defer stop()
	Check()
	if n := fired.Load(); n != 0 {
		t.Fatalf("fired %d times under the limit", n)
	}
	hog := make([]byte, 64<<20)
	var m ReadMeter
	m.Add(16 << 20) // a ReadMeter's 16 MiB: Check
	if fired.Load() == 0 {
		t.Fatal("Check did not fire the guard over its limit")
	}
	runtime.KeepAlive(hog)
}

// TestCheckGrowCounts: CheckGrow fires a guard whose limit the live heap
// is under but the bytes about to be allocated would pass (a list of
// fields about to grow), and not one they would not.
func TestCheckGrowCounts(t *testing.T) {
	runtime.GC()
	var fired atomic.Int32
	stop := Growth(32<<20, func() { fired.Add(1) })
	defer stop()
	CheckGrow(1 << 20)
	if n := fired.Load(); n != 0 {
		t.Fatalf("fired %d times for 1 MiB under a 32 MiB growth", n)
	}
	CheckGrow(64 << 20)
	if fired.Load() == 0 {
		t.Fatal("CheckGrow did not fire for 64 MiB more under 32 MiB")
	}
}
