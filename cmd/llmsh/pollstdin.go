package main

import (
	"io"
	"os"
	"strconv"
	"syscall"
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
