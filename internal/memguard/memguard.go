// Package memguard stops the work in progress before the process's heap
// outgrows its limit: the llmsh command and each isolated session's
// process (package llmsh) run one.
package memguard

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Default is the heap limit of the llmsh command and of an isolated
// session's process.
const Default = 2 << 30

// RunGrowth, when not zero, is the heap growth that stops a Run of an
// in-process llmsh session without MaxMemory, in place of llmsh's
// DefaultMaxMemory: package llmsh's tests lower it. Not for parallel
// tests: the sessions of other tests would read it.
var RunGrowth uint64

// tick is how often the guard looks at the heap.
const tick = 20 * time.Millisecond

// Start sets the Go runtime's soft memory limit to limit and, from its own
// goroutine, calls fire each time the live heap is found above limit
// (after a collection, so that garbage a stopped command left behind does
// not count). fire should stop the work in progress; it is called again at
// the next tick if the heap stays above. Stop the guard with its Stop;
// SetLimit moves the heap it fires above (the soft limit stays).
func Start(limit uint64, fire func()) *Guard {
	debug.SetMemoryLimit(int64(limit))
	return watch(limit, fire)
}

// Growth is Start for a heap that the guarded work shares with other
// work of the process (a library Session run in its embedder's
// process): it calls fire while the heap is more than limit above what
// it was at the call (HeapAlloc, garbage included, so the base is never
// below the live heap), and leaves the Go runtime's soft memory limit
// alone.
func Growth(limit uint64, fire func()) (stop func()) {
	stop, _ = GrowthFrom(0, limit, fire)
	return stop
}

// GrowthFrom is Growth counting from base, or from the heap at the call
// when that is lower or base is 0; it returns the base it counts from.
// A library Session counts each Run from the lowest base it has seen
// since its shell started, so that what its Runs keep (variables,
// functions) counts against the limit of the next (session 25). A Run
// that starts with the live heap above base+limit already is given
// Allowance's room above it.
func GrowthFrom(base, limit uint64, fire func()) (stop func(), from uint64) {
	from = Heap()
	if base != 0 && base < from {
		from = base
	}
	return watch(Allowance(Top(from, limit), limit), fire).Stop, from
}

// Allowance is the heap above which a guard is to stop work that starts
// now under the bound top, grow being the growth the bound allows: top,
// or, when the live heap is above top already (what a session keeps: a
// Run stopped by its end's check keeps its variables), that heap and a
// sixteenth of grow more. The work can then give back what is kept
// (unset) before a tick stops it, however late it gets there (session
// 28: under load the first tick, 20 ms into the Run, stopped the Run
// that unset what its session kept, before the unset ran); the check at
// its end (Over(top)) stops it if it does not, and a sixteenth of grow
// is all it may add before a tick does.
func Allowance(top, grow uint64) uint64 {
	if !Over(top) {
		return top
	}
	return Top(Heap(), grow/16)
}

// Top is base+limit, or the largest heap there is when that overflows.
func Top(base, limit uint64) uint64 {
	if top := base + limit; top >= limit {
		return top
	}
	return math.MaxUint64 // no such heap
}

// Heap is the heap now: HeapAlloc, live objects and garbage not yet
// freed, so never below the live heap. It is read from runtime/metrics
// (/memory/classes/heap/objects:bytes, the same figure), which, unlike
// runtime.ReadMemStats, does not stop the world: the guard reads it 50
// times a second while every P may be running the script.
func Heap() uint64 {
	s := [1]metrics.Sample{{Name: heapObjects}}
	metrics.Read(s[:])
	return s[0].Value.Uint64()
}

// heapObjects is the runtime/metrics name of HeapAlloc.
const heapObjects = "/memory/classes/heap/objects:bytes"

// Over reports whether the live heap is above top: one look at the heap
// while it is not above, and a collection before the second look when it
// is. A Run's end asks it, so that a Run shorter than the guard's tick
// cannot keep more than its limit unseen.
func Over(top uint64) bool {
	if Heap() <= top {
		return false
	}
	runtime.GC()
	return Heap() > top
}

// The guards of a process are served by one goroutine (hub), which reads
// the heap once a tick for all of them: a goroutine of its own for each
// guard (each library Run of a session without MaxMemory has one)
// multiplied the wake-ups and, while the heap was read with
// runtime.ReadMemStats, its stop-the-world pauses (session 23's
// leftover: 64 idle guards, 3150 pauses and 120 ms of CPU a second;
// BenchmarkIdleGuards).
var hub struct {
	mu      sync.Mutex
	guards  map[*guard]struct{}
	running bool // the goroutine runs; it ends at a tick with no guard
}

type guard struct {
	limit uint64 // under hub.mu
	fire  func()
}

// A Guard calls its fire function each tick that finds the live heap
// above its limit (Start).
type Guard struct {
	g    *guard
	once sync.Once
}

// Stop stops the guard; calling it again is harmless.
func (g *Guard) Stop() {
	g.once.Do(func() {
		hub.mu.Lock()
		delete(hub.guards, g.g)
		hub.mu.Unlock()
	})
}

// SetLimit makes limit the heap above which the guard fires.
func (g *Guard) SetLimit(limit uint64) {
	hub.mu.Lock()
	g.g.limit = limit
	hub.mu.Unlock()
}

// watch calls fire each tick that finds the heap above limit after a
// collection.
func watch(limit uint64, fire func()) *Guard {
	g := &guard{limit: limit, fire: fire}
	hub.mu.Lock()
	if hub.guards == nil {
		hub.guards = map[*guard]struct{}{}
	}
	hub.guards[g] = struct{}{}
	if !hub.running {
		hub.running = true
		go serve()
	}
	hub.mu.Unlock()
	return &Guard{g: g}
}

// serve looks at the heap each tick for every guard, and fires those whose
// limit it is above after a collection.
func serve() {
	t := time.NewTicker(tick)
	defer t.Stop()
	for range t.C {
		low, ok := lowest()
		if !ok {
			return
		}
		look(low, 0)
	}
}

// look fires, after a collection, the guards whose limit the heap and
// grow more bytes are above, when they are above low (the lowest limit).
func look(low, grow uint64) {
	if Heap()+grow <= low {
		return
	}
	runtime.GC()
	for _, fire := range over(Heap() + grow) {
		fire()
	}
}

// Check looks at the heap now, on the caller's goroutine, as a tick of
// the guards does: it fires those whose limit the live heap is above.
// A reader that feeds a command faster than any tick can come calls it
// (session 30, red team: `rev /dev/zero` under --max-memory 64M grew
// its line to 787 MB of heap while the guard's goroutine waited a
// second for its turn at load 20, each growth of the line being one
// copy that Go cannot preempt); without a guard, or with the heap under
// every limit, it only reads the heap.
func Check() {
	CheckGrow(0)
}

// CheckGrow is Check for work about to allocate grow bytes at once: it
// fires the guards whose limit the live heap and grow are above. A list
// of millions of fields calls it before it grows (session 32: the last
// growth of the list made for `IFS=0; set -- $x`, allocated and copied
// between two looks, took a run to 1.4 times its memory limit).
func CheckGrow(grow uint64) {
	hub.mu.Lock()
	low := lowLimit()
	hub.mu.Unlock()
	if low == math.MaxUint64 {
		return
	}
	look(low, grow)
}

// ReadMeter counts the bytes an endless reader (/dev/zero) gives one
// command and has the guards look at the heap (Check) every 16 MiB of
// them: the command may be gathering them into one line.
type ReadMeter struct{ n int }

// readCheck is how many bytes a ReadMeter lets through between looks.
const readCheck = 16 << 20

// Add counts n more bytes read.
func (m *ReadMeter) Add(n int) {
	if m.n += n; m.n >= readCheck {
		m.n = 0
		Check()
	}
}

// lowest is the lowest limit of the guards; false when there is none, and
// the goroutine is to end (a later guard starts another).
func lowest() (uint64, bool) {
	hub.mu.Lock()
	defer hub.mu.Unlock()
	if len(hub.guards) == 0 {
		hub.running = false
		return 0, false
	}
	return lowLimit(), true
}

// lowLimit is the lowest limit of the guards (the largest value when
// there is none); hub.mu is held.
func lowLimit() uint64 {
	low := uint64(math.MaxUint64)
	for g := range hub.guards {
		low = min(low, g.limit)
	}
	return low
}

// over is the fire functions of the guards whose limit heap is above.
func over(heap uint64) []func() {
	hub.mu.Lock()
	defer hub.mu.Unlock()
	var fires []func()
	for g := range hub.guards {
		if heap > g.limit {
			fires = append(fires, g.fire)
		}
	}
	return fires
}

// Message is the words a fired guard prints: "memory limit exceeded (2 GiB)".
func Message(limit uint64) string {
	return fmt.Sprintf("memory limit exceeded (%s)", SizeString(limit))
}

// SizeString shows a byte count in the largest binary unit that divides it.
func SizeString(n uint64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
