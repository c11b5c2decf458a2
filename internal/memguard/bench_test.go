package memguard_test

import (
	"fmt"
	"math"
	"runtime/metrics"
	"syscall"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/internal/memguard"
)

// BenchmarkIdleGuards measures what N guards cost a process that does
// nothing else: the CPU of the process (all threads) over one second,
// reported as cpu-ms/s, and the stop-the-world pauses of their heap reads.
//
//	go test -run XXX -bench IdleGuards -benchtime 1x ./internal/memguard
func BenchmarkIdleGuards(b *testing.B) {
	for _, n := range []int{1, 16, 64} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				stops := make([]func(), n)
				for j := range stops {
					stops[j] = Growth(math.MaxUint64/2, func() {})
				}
				before, pauses := cpu(), stws()
				time.Sleep(time.Second)
				b.ReportMetric(float64((cpu()-before).Microseconds())/1000, "cpu-ms/s")
				b.ReportMetric(float64(stws()-pauses), "stw/s")
				for _, stop := range stops {
					stop()
				}
			}
		})
	}
}

// stws counts the stop-the-world pauses that were not for a collection.
func stws() uint64 {
	s := []metrics.Sample{{Name: "/sched/pauses/total/other:seconds"}}
	metrics.Read(s)
	var n uint64
	for _, c := range s[0].Value.Float64Histogram().Counts {
		n += c
	}
	return n
}

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
