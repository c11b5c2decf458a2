package main

import (
	"errors"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins"
)

// pollableStdin is stdin, when it is a pipe, opened again as a file of its
// own in non-blocking mode, which Go's poller serves: a read that waits
// for input can then be ended (the interpreter's read, the builtins'
// reads of a run's stdin see their context), where a read of the
// inherited blocking descriptor waited in read(2) past the time limit
// until stopStuck ended the process a second later (session 27: `sleep 6
// | llmsh --timeout 1s -c 'read x'` ended after 2.0 s, as did `cat`,
// `x=$(cat)` and a script read from such a stdin). The new open file
// description is llmsh's own, so the mode of the caller's pipe, shared
// with other processes, is left as it was. Anything else (a terminal, a
// file, a socket, a failed open) is stdin as it is.
func pollableStdin(stdin io.Reader) io.Reader {
	f, ok := stdin.(*os.File)
	if !ok {
		return stdin
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return stdin
	}
	fd, err := syscall.Open("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return stdin
	}
	return os.NewFile(uintptr(fd), f.Name())
}

// termOut is one of llmsh's outputs that is a terminal, opened again as a
// file of its own in non-blocking mode (openTermOut), for the REPL: Go's
// poller serves its writes, so a write the terminal holds (^S, XOFF)
// can be ended by a deadline when the command line's time limit or
// another limit ends it (session 28: the line ran on, its limit unheard,
// until ^Q). It is no *os.File, whose Fd would put the file back in
// blocking mode: Fd and SyscallConn tell the descriptor without that.
type termOut struct{ f *os.File }

// openTermOut opens w again when it is a terminal; nil otherwise (or
// when the open fails). It opens /proc/self/fd/N, so it runs before
// Landlock.
func openTermOut(w io.Writer) *termOut {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f) {
		return nil
	}
	fd, err := syscall.Open("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	return &termOut{os.NewFile(uintptr(fd), f.Name())}
}

// Write writes p; a write ended by the deadline (the line's end) is
// cancelled, which commands do not report, as a signal ends bash's.
func (t *termOut) Write(p []byte) (int, error) {
	n, err := t.f.Write(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = builtins.ErrCancelled
	}
	return n, err
}

func (t *termOut) SetWriteDeadline(d time.Time) error    { return t.f.SetWriteDeadline(d) }
func (t *termOut) SyscallConn() (syscall.RawConn, error) { return t.f.SyscallConn() }
func (t *termOut) Close() error                          { return t.f.Close() }

// Fd is the descriptor, without changing its mode.
func (t *termOut) Fd() uintptr {
	fd := ^uintptr(0)
	if rc, err := t.f.SyscallConn(); err == nil {
		rc.Control(func(f uintptr) { fd = f })
	}
	return fd
}
