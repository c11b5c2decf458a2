package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Faults: one of the two processes dies in the middle of a real write.

// writeInProgress is a script that opens a real file of the -o tree for a
// truncating write, writes part of the new content, says "ready" on
// stderr and waits on stdin before it finishes.
const writeInProgress = `{ echo partial-new-content; echo ready >&2; read x; echo more; } > target.txt; echo finished`

// startWriter runs the real binary on writeInProgress and returns once the
// write is under way, with llmsh's and its vfsd's process ids.
func startWriter(t *testing.T, ar *arena) (cmd *exec.Cmd, stdin io.WriteCloser, stderr *bufio.Reader, vfsdPid int) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(ar.rw, "target.txt"), []byte("old content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(realLlmsh(t), "-i", ar.ro, "-o", ar.rw, "-c", writeInProgress)
	cmd.Dir = ar.rw
	cmd.Env = []string{}
	cmd.Stdout = &ar.stdout
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	stderr = bufio.NewReader(errPipe)
	if l, err := stderr.ReadString('\n'); l != "ready\n" {
		t.Fatalf("got %q (%v), want ready", l, err)
	}
	kids := childrenOf(cmd.Process.Pid)
	if len(kids) != 1 {
		t.Fatalf("llmsh has %d children %v, want its vfsd", len(kids), kids)
	}
	return cmd, stdin, stderr, kids[0]
}

// childrenOf lists the live processes whose parent is pid.
func childrenOf(pid int) []int {
	var out []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) && f[0] != "Z" {
			n, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			out = append(out, n)
		}
	}
	return out
}

// waitExit waits until process pid (not necessarily a child) has exited,
// through a pidfd, which becomes readable then. It reports false if the
// process is still there after hardKill.
func waitExit(t *testing.T, pid int) bool {
	t.Helper()
	const sysPidfdOpen = 434 // the same number on every Linux architecture
	fd, _, e := syscall.Syscall(sysPidfdOpen, uintptr(pid), 0, 0)
	if e == syscall.ESRCH {
		return true
	}
	if e != 0 {
		t.Fatalf("pidfd_open: %v", e)
	}
	defer syscall.Close(int(fd))
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(ep)
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(fd)}
	if err := syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, int(fd), &ev); err != nil {
		t.Fatal(err)
	}
	events := make([]syscall.EpollEvent, 1)
	for {
		n, err := syscall.EpollWait(ep, events, int(hardKill.Milliseconds()))
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
}

func tempsBeside(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".llmsh-tmp-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestFaultVfsdKilledMidWrite kills llmsh's own vfsd (SIGKILL) while a
// truncating write of a real file is open: llmsh says so and exits
// non-zero instead of hanging, and the target keeps its old content whole.
// On Linux the unfinished write leaves nothing behind: its temp file had
// no name yet (O_TMPFILE). Elsewhere a SIGKILLed vfsd cannot remove its
// hidden .target.txt.llmsh-tmp-* beside the target.
func TestFaultVfsdKilledMidWrite(t *testing.T) {
	t.Parallel()
	ar := newArena(t)
	cmd, stdin, stderr, vfsd := startWriter(t, ar)
	if err := syscall.Kill(vfsd, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	stdin.Write([]byte("go\n"))
	stdin.Close()
	rest, _ := io.ReadAll(stderr)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("llmsh exited with %v after vfsd died; stdout %q stderr %q", err, ar.stdout.String(), rest)
	}
	if !strings.Contains(string(rest), "llmsh: vfsd exited unexpectedly\n") || strings.Contains(string(rest), "goroutine ") {
		t.Fatalf("stderr %q", rest)
	}
	if b, _ := os.ReadFile(filepath.Join(ar.rw, "target.txt")); string(b) != "old content\n" {
		t.Fatalf("target after vfsd died: %q", b)
	}
	if tmps := tempsBeside(t, ar.rw); runtime.GOOS == "linux" && len(tmps) != 0 {
		t.Fatalf("temp files left by the killed vfsd: %v", tmps)
	}
}

// TestFaultLlmshKilledMidWrite kills llmsh (SIGKILL) while a truncating
// write of a real file is open: its vfsd sees end of file on its
// requests, discards the unfinished write (the target keeps its old
// content, the temp file is removed) and exits.
func TestFaultLlmshKilledMidWrite(t *testing.T) {
	t.Parallel()
	ar := newArena(t)
	cmd, stdin, _, vfsd := startWriter(t, ar)
	defer stdin.Close()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if !waitExit(t, vfsd) {
		syscall.Kill(vfsd, syscall.SIGKILL)
		t.Fatalf("vfsd (pid %d) still runs after llmsh was killed", vfsd)
	}
	if b, _ := os.ReadFile(filepath.Join(ar.rw, "target.txt")); string(b) != "old content\n" {
		t.Fatalf("target after llmsh died: %q", b)
	}
	if tmps := tempsBeside(t, ar.rw); len(tmps) != 0 {
		t.Fatalf("vfsd left the unfinished write's temp file: %v", tmps)
	}
}

// TestFaultReadError reads a real file whose read(2) fails with EIO
// (/proc/self/mem at offset 0, which is unmapped: a genuine kernel I/O
// error, no simulation): vfsd answers E_IO and the tools print GNU's
// messages.
func TestFaultReadError(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(realLlmsh(t), "-i", "/proc/self/mem", "-c",
		"head -c 10 /proc/self/mem; echo head $?; cat /proc/self/mem; echo cat $?; grep x /proc/self/mem; echo grep $?")
	cmd.Env = []string{}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	// Checked against GNU coreutils 9.1 head and cat and GNU grep 3.8 on the same file.
	want := "head: error reading '/proc/self/mem': Input/output error\n" +
		"cat: /proc/self/mem: Input/output error\n" +
		"grep: /proc/self/mem: Input/output error\n"
	if out.String() != "head 1\ncat 1\ngrep 2\n" || errb.String() != want {
		t.Fatalf("stdout %q stderr %q, want stderr %q", out.String(), errb.String(), want)
	}
}
