package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// memoryLimit is the heap size at which the memory guard stops the script.
const memoryLimit = 2 << 30

// memoryGuard watches the heap and cancels the run, with a message, before
// the kernel would kill the process. It returns a function that stops it.
func memoryGuard(ctx context.Context, cancel func(), stderr io.Writer) func() {
	debug.SetMemoryLimit(memoryLimit)
	done := make(chan struct{})
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				metrics.Read(sample)
				if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > memoryLimit {
					fmt.Fprintln(stderr, "llmsh: memory limit exceeded (2 GiB)")
					cancel()
					return
				}
			}
		}
	}()
	return func() { close(done) }
}
