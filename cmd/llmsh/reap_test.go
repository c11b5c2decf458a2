package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestNoProcessLeft runs llmsh under a child subreaper (TestHelperReaper)
// and checks that it leaves no process behind, whether its script asks
// vfsd nothing (the vfsd that never answered hello is killed and reaped,
// issue 21) or reads and writes files (vfsd is told and waited for), and
// that a vfsd that cannot start is reported when a request needs it.
func TestNoProcessLeft(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("x\n"), 0o644)
	// A vfsd that starts but never answers (it reads until the end of
	// its requests, its answers kept open), and one that exits at once.
	silent := filepath.Join(t.TempDir(), "silent")
	os.WriteFile(silent, []byte("#!/bin/sh\nexec 9>&1 >/dev/null\nexec cat\n"), 0o755)
	bin := realLlmsh(t)
	for _, tc := range []struct {
		args   []string
		out    string
		status int
		errs   string // stderr, or a line of it when part is set
		part   bool
	}{
		{args: []string{"-i", ".", "-c", "true"}},
		{args: []string{"-i", ".", "-c", "echo hi; exit 3"}, out: "hi\n", status: 3},
		{args: []string{"-o", ".", "-c", "cat f; echo y > g; cat g"}, out: "x\ny\n"},
		{args: []string{"-c", "cat f"}, status: 1, errs: "cat: f: No such file or directory\n"},
		{args: []string{"--vfsd", silent, "-i", ".", "-c", "echo hi"}, out: "hi\n"},
		// A cat that asks before the run sees vfsd gone says so too.
		{args: []string{"--vfsd", "/bin/false", "-i", ".", "-c", "cat f"}, status: 1,
			errs: "llmsh: vfsd exited unexpectedly\n", part: true},
	} {
		cmd := helperCommand("TestHelperReaper", append([]string{bin}, tc.args...), "LLMSH_TEST_REAPER=1")
		cmd.Dir = dir
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		errOK := errb.String() == tc.errs
		if tc.part {
			errOK = strings.Contains(errb.String(), tc.errs) && !strings.Contains(errb.String(), "left behind")
		}
		if status != tc.status || out.String() != tc.out || !errOK {
			t.Errorf("llmsh %q: status %d, stdout %q, stderr %q; want %d, %q, %q",
				tc.args, status, out.String(), errb.String(), tc.status, tc.out, tc.errs)
		}
	}
}

// TestHelperReaper is not a test: re-executed by TestNoProcessLeft, it
// makes itself a child subreaper, runs the command after "--" and exits
// with its status, after saying on stderr which processes the command
// left behind (they became this process's children when it exited).
func TestHelperReaper(t *testing.T) {
	if os.Getenv("LLMSH_TEST_REAPER") != "1" {
		return
	}
	const prSetChildSubreaper = 36
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		fmt.Fprintln(os.Stderr, "prctl:", e)
		os.Exit(100)
	}
	args := helperArgs()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = []string{}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, os.Stdout, os.Stderr
	err := cmd.Run()
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(100)
	}
	if left := children(); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "left behind: %s\n", strings.Join(left, "; "))
		status = 100
	}
	os.Exit(status)
}

// children kills and reaps this process's children, and returns their
// command lines.
func children() []string {
	var left []string
	self := strconv.Itoa(os.Getpid())
	eachProcStat(func(pid int, f []string) {
		if len(f) < 2 || f[1] != self {
			return
		}
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		left = append(left, fmt.Sprintf("%d %q", pid, strings.ReplaceAll(string(cmdline), "\x00", " ")))
		syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
	})
	return left
}

// eachProcStat calls fn with each process's pid and the fields of its
// /proc/PID/stat after the command name (f[0] is field 3, the state):
// "pid (comm) state ppid ...", where comm may hold spaces, not ")".
func eachProcStat(fn func(pid int, f []string)) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		i := bytes.LastIndexByte(stat, ')')
		if err != nil || i < 0 {
			continue
		}
		fn(pid, strings.Fields(string(stat[i+1:])))
	}
}
