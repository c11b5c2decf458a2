// Package earlystack grows the main goroutine's stack to 32 KiB in its
// package init, which runs before any other package's init that could
// grow it (Go initialises the packages that are ready in the order of
// their import paths, and this one imports nothing). Each growth copies
// the stack, and the copy walks every frame on it and reads each
// function's tables in the binary: pages that a start touches for
// nothing else. Grown here, the walk meets the runtime's two frames of
// package initialisation and this init; grown later, it met
// runtime/metrics' init deep in an allocation (the first to need more
// than the first 2 KiB), and then fromargs' init, which grew it to 32
// KiB before: 12 windows of 64 KiB of .gopclntab were first faulted in
// by those copies, 7 of them by runtime/metrics' (`python3
// bench/rsswhere.py --causes`). Both processes of a run (llmsh and the
// vfsd it runs, the same binary) import it through llmsh's main.
package earlystack

func init() { grow(1) }

// grow takes a 16 KiB frame, which the runtime's growth check meets by
// doubling the stack to 32 KiB in one copy: llmsh's main goroutine grows
// to that during a run anyway (package inits, then the interpreter's
// calls), each doubling another copy.
//
//go:noinline
func grow(n int) byte {
	var frame [16 << 10]byte
	frame[n%len(frame)] = byte(n)
	return frame[n/2%len(frame)]
}
