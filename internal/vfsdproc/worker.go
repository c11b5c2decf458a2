package vfsdproc

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/llmsh/llmsh/internal/earlyvfsd"
)

// WorkerModeArg, as the first argument, makes a program that calls Serve
// run WorkerMain: the process of an isolated session (package llmsh).
const WorkerModeArg = "__llmsh_session"

// WorkerMain serves an isolated session on conn, the worker's end of the
// socket its parent made, and returns the process's exit status. Package
// llmsh sets it before calling Serve.
var WorkerMain func(conn *net.UnixConn) int

// IsWorker reports whether this process was started as a worker
// (StartWorker). Tests lower a worker's limits with it.
func IsWorker() bool { return len(os.Args) > 1 && os.Args[1] == WorkerModeArg }

// serveWorker runs WorkerMain when this process is a worker.
func serveWorker() {
	if !IsWorker() || WorkerMain == nil {
		return
	}
	// Ctrl-C at a terminal is for the parent, which cancels the run.
	signal.Ignore(os.Interrupt)
	f := os.NewFile(3, "session")
	c, err := net.FileConn(f)
	f.Close()
	uc, ok := c.(*net.UnixConn)
	if err != nil || !ok {
		fmt.Fprintln(os.Stderr, "llmsh: session worker: descriptor 3 is not the session's socket")
		os.Exit(2)
	}
	os.Exit(WorkerMain(uc))
}

// Worker is a process of this executable in worker mode, and the parent's
// end of the Unix socket that it serves.
type Worker struct {
	Conn *net.UnixConn
	cmd  *exec.Cmd
	errs *tail
	done chan struct{} // closed when the process has exited
	err  error         // its Wait error, once done is closed
}

// StartWorker starts this executable as a worker in dir, with an empty
// environment, killed if the starting thread exits. Its stderr is kept
// (the last 4 KiB) for Reason.
func StartWorker(dir string) (*Worker, error) {
	if !selfServes.Load() {
		return nil, ErrNoServer
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot make the session's socket: %w", err)
	}
	mine, theirs := os.NewFile(uintptr(fds[0]), "session"), os.NewFile(uintptr(fds[1]), "session")
	defer theirs.Close()
	c, err := net.FileConn(mine)
	mine.Close()
	if err != nil {
		return nil, err
	}
	w := &Worker{Conn: c.(*net.UnixConn), errs: &tail{max: 4096}, done: make(chan struct{})}
	w.cmd = exec.Command(self, WorkerModeArg)
	w.cmd.Env = earlyvfsd.ChildEnv()
	w.cmd.Dir = dir
	w.cmd.Stderr = w.errs
	w.cmd.ExtraFiles = []*os.File{theirs} // descriptor 3
	w.cmd.SysProcAttr = workerAttr()
	if err := w.cmd.Start(); err != nil {
		w.Conn.Close()
		return nil, fmt.Errorf("cannot start the session's process: %w", err)
	}
	go func() {
		w.err = w.cmd.Wait()
		close(w.done)
	}()
	return w, nil
}

// Done is closed when the worker has exited.
func (w *Worker) Done() <-chan struct{} { return w.done }

// Pid is the worker's process ID.
func (w *Worker) Pid() int { return w.cmd.Process.Pid }

// Kill ends the worker at once.
func (w *Worker) Kill() {
	w.cmd.Process.Kill()
}

// Wait waits for the worker to exit and returns its Wait error.
func (w *Worker) Wait() error {
	<-w.done
	return w.err
}

// Reason says in one line why an exited worker died: the Go runtime's
// "fatal error: …" or "panic: …" line of its stderr, or its exit status.
// Stack traces are never part of it.
func (w *Worker) Reason() string {
	select {
	case <-w.done:
	default:
		return "running"
	}
	for _, line := range strings.Split(w.errs.String(), "\n") {
		for _, p := range []string{"fatal error: ", "panic: ", "runtime: out of memory", "llmsh: "} {
			if strings.HasPrefix(line, p) {
				return line
			}
		}
	}
	var ee *exec.ExitError
	if errors.As(w.err, &ee) {
		return ee.ProcessState.String()
	}
	if w.err != nil {
		return w.err.Error()
	}
	return "exited"
}

// tail keeps the first max bytes written to it: the first lines of a
// crash name its cause; what follows is a stack trace.
type tail struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - t.buf.Len(); room > 0 {
		t.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
