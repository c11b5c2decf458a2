package vfsdproc

import (
	"os"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/internal/earlyvfsd"
)

// vfsd runs in a process group of its own, whether llmsh's main started
// it early or Start did, so that a Ctrl-C at llmsh's terminal (SIGINT to
// the foreground process group) never reaches it, even before its Go
// runtime has started and ignored SIGINT (session 29: shell/repl's
// TestCtrlCInterruptsCommand then read "vfsd exited unexpectedly").
func TestVfsdOwnProcessGroup(t *testing.T) {
	dir := t.TempDir()
	earlyvfsd.StartFromArgs([]string{"-i", dir, "-c", "true"})
	early, err := Start(Config{Inputs: []string{dir}, MaxWriteBytes: DefaultMaxWrite, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer early.Close()
	started, err := Start(Config{Inputs: []string{dir}, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer started.Close()
	if early.pid == 0 || started.cmd == nil {
		t.Fatalf("want an early vfsd and a started one (pid %d, cmd %v)", early.pid, started.cmd)
	}
	for _, pid := range []int{early.pid, started.cmd.Process.Pid} {
		// Asked before Close: vfsd waits for its requests' end of file.
		pgid, err := syscall.Getpgid(pid)
		if err != nil {
			t.Fatal(err)
		}
		if pgid != pid || pgid == syscall.Getpgrp() {
			t.Errorf("vfsd %d is in process group %d (this test's is %d), want its own", pid, pgid, syscall.Getpgrp())
		}
	}
}
