package shell_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/llmsh/llmsh/internal/stuck"
	"github.com/llmsh/llmsh/shell"
)

// TestJobGraceEnd: the grace of the jobs still running at a script's
// end is over once the process has spent 200 ms of CPU while a
// goroutine wants the CPU (a job the machine's load has not let run
// yet keeps its turn, session 30), and after a few looks that find
// every goroutine waiting: never by wall-clock time alone.
func TestJobGraceEnd(t *testing.T) {
	over, stop := shell.ForTests.JobGraceEnd()
	<-over // nothing of this test runs: over by its looks
	stop()

	var spin atomic.Bool // a goroutine that wants the CPU until told
	go func() {
		for !spin.Load() {
		}
	}()
	cpu0 := stuck.CPU()
	over, stop = shell.ForTests.JobGraceEnd()
	<-over
	spent := stuck.CPU() - cpu0
	spin.Store(true)
	stop()
	stop() // harmless
	if spent < 200*time.Millisecond {
		t.Errorf("the grace ended after %v of CPU while a goroutine ran, want 200ms", spent)
	}
}
