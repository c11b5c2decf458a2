package main

import (
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// watchHangup calls gone once out, a pipe or a socket, has no reader
// left (POLLERR or POLLHUP: the client exited), looking twice a second;
// stop ends the watch. Anything else (a file, a terminal) is never gone.
//
// llmsh mcp answers every request it read before it ends at the end of
// its stdin (`printf … | llmsh mcp`), so a client that quit during a
// call left the call running for as long as it ran: without --timeout,
// `while :; do :; done` kept the worker at full CPU after the client was
// gone (session 30, red team). Once nobody can read the answers, the
// calls are ended.
func watchHangup(out io.Writer, gone func()) (stop func()) {
	f, ok := out.(*os.File)
	var st syscall.Stat_t
	if !ok || syscall.Fstat(int(f.Fd()), &st) != nil {
		return func() {}
	}
	if m := st.Mode & syscall.S_IFMT; m != syscall.S_IFIFO && m != syscall.S_IFSOCK {
		return func() {}
	}
	fd := int32(f.Fd())
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for {
			select {
			case <-done:
				return
			default:
			}
			pfd := []unix.PollFd{{Fd: fd}} // POLLERR and POLLHUP are always asked
			n, err := unix.Poll(pfd, 500)
			if err == nil && n > 0 && pfd[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0 {
				gone()
				return
			}
		}
	}()
	return func() {
		close(done)
		<-ended
	}
}
