package shell_test

import (
	"bytes"
	"context"
	"runtime"
	"testing"

	"github.com/llmsh/llmsh/builtins"
	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// floodCancel is called by test-flood once it has written its output.
var floodCancel context.CancelFunc

func init() {
	builtins.Register(builtins.Builtin{Name: "test-flood", Summary: "writes a million lines, then ends the run (shell tests only)", Run: func(env *builtins.Env) int {
		line := bytes.Repeat([]byte("y\n"), 1<<12)
		for range (1 << 20) / (1 << 12) {
			env.Stdout.Write(line)
		}
		floodCancel()
		return 0
	}})
}

// TestCmdSubstDroppedOnCancel: an unquoted command substitution whose run
// ends (deadline, limit, memory guard) while it collects output is not
// split into fields afterwards. FuzzRunner found `=$(yes)` under a 300ms
// deadline running on for minutes and gigabytes, splitting what yes had
// written, out of the context's reach. The allocations of the run are the
// measure (not its time): splitting a million lines allocates far more
// than the 2 MB collected.
func TestCmdSubstDroppedOnCancel(t *testing.T) {
	for _, src := range []string{"=$(test-flood)", "echo $(test-flood) | wc -c", "x=$(test-flood); echo ${#x}"} {
		t.Run(src, func(t *testing.T) {
			c := vfstest.Session(t, vfsd.Config{Outputs: []string{t.TempDir()}})
			var out, errb lockedBuffer
			sh, err := New(Options{Client: c, Stdout: &out, Stderr: &errb, Dir: "/"})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			floodCancel = cancel
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			st := sh.Run(ctx, src, "llmsh")
			runtime.ReadMemStats(&after)
			if st != 124 {
				t.Errorf("status %d, want 124; stderr %q", st, errb.String())
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
				t.Errorf("the run allocated %d MB after 2 MB of output", n>>20)
			}
		})
	}
}
