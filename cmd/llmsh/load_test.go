package main

import (
	"os"
	"os/exec"
	"testing"

	"github.com/llmsh/llmsh/internal/loadtest"
)

// TestConcurrentSessions is issue 7's load check at a small scale (the full
// one is bench/load.sh): six llmsh processes at once, each with its own
// vfsd, each streaming 256 KiB of its own input through vfsd, writing a real
// and a virtual file and looking for the others' virtual files; every
// output must be right, no vfsd or llmsh may hold more descriptors after
// the work than before it, and no process may be left behind.
func TestConcurrentSessions(t *testing.T) {
	// TestMain may have started the static build, whose pipes close
	// when it ends: let it end before this process's descriptors are
	// counted.
	realLlmsh(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := loadtest.Run(loadtest.Config{
		Sessions: 6,
		Size:     256 << 10,
		Dir:      t.TempDir(),
		Command: func(args ...string) *exec.Cmd {
			cmd := exec.Command(exe, append([]string{"-test.run=TestHelperLlmsh", "--"}, args...)...)
			cmd.Env = []string{"LLMSH_TEST_HELPER=1", "GORACE=atexit_sleep_ms=0"}
			return cmd
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Failures {
		t.Error(f)
	}
	if rep.OK != rep.Sessions {
		t.Errorf("%d of %d sessions finished correctly", rep.OK, rep.Sessions)
	}
}
