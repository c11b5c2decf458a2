package shell

import (
	"context"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/llmsh/llmsh/third_party/sh/interp"
)

// The descriptor table (exec 3>FILE, >&3, read -u 3, {var}>FILE, N<>FILE)
// is the interpreter's (third_party/sh/interp/fds.go): the files are
// opened through the open handler, and a handler sees descriptors above 2
// through HandlerContext.Fd. This file gives them to builtins by their
// /dev/fd/N names, and to nested shells.

// parseFd reads a descriptor number of a /dev/fd/N name.
func parseFd(s string) (int, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// handlerContext is ctx's HandlerContext, if it has one (a builtin that
// env, xargs or find -exec runs has its caller's).
func handlerContext(ctx context.Context) (hc interp.HandlerContext, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return interp.HandlerCtx(ctx), true
}

// fdRW is descriptor n of hc's shell as a file: its reader or its
// writer. ok is false when it is not open.
func fdRW(hc interp.HandlerContext, n int, output bool) (io.ReadWriteCloser, bool) {
	rd, wr, ok := hc.Fd(n)
	if !ok {
		return nil, false
	}
	if output {
		return nopRWC{w: wr}, true
	}
	if rwc, ok, err := reopen(rd); ok && err == nil {
		return rwc, true
	}
	return nopRWC{r: rd}, true
}

// reopen is what opening /dev/stdin or /dev/fd/N reads when the
// descriptor's input can be opened anew (ok): a here-document over a
// pipe's size, bash's temporary file, read again from its start by a
// new offset that the commands it is given to share (interp's docInput).
func reopen(r io.Reader) (rwc io.ReadWriteCloser, ok bool, err error) {
	ro, ok := r.(interface{ Reopen() (io.ReadCloser, error) })
	if !ok {
		return nil, false, nil
	}
	rc, err := ro.Reopen()
	if err != nil {
		return nil, true, err
	}
	if rwc, ok := rc.(io.ReadWriteCloser); ok {
		return rwc, true, nil
	}
	return nopRWC{r: rc}, true, nil
}

// fdFilePath is the file that /dev/fd/N (name) opens anew, as Linux
// does, when descriptor N (above 2) of hc's shell is a file's: `echo x >
// /dev/fd/3` after exec 3>f truncates f and writes at its start, `<
// /dev/fd/3` after exec 3<f reads f from its start. ok is false for
// other names and descriptors (a pipe: the descriptor itself).
func fdFilePath(hc interp.HandlerContext, name string) (string, bool) {
	text, ok := strings.CutPrefix(name, "/dev/fd/")
	if !ok {
		return "", false
	}
	n, ok := parseFd(text)
	if !ok || n <= 2 {
		return "", false
	}
	path, ok := hc.FdFile(n)
	if !ok || strings.HasPrefix(path, "/dev/fd/") || strings.HasPrefix(path, "/proc/") {
		return "", false // (no chain of descriptors)
	}
	return path, true
}

// fdDevPath serves /dev/fd/N for a descriptor above 2 of the shell, in
// a redirection (echo hi > /dev/fd/3).
func fdDevPath(hc interp.HandlerContext, name string, output bool) (io.ReadWriteCloser, bool) {
	text, ok := strings.CutPrefix(name, "/dev/fd/")
	if !ok {
		return nil, false
	}
	n, ok := parseFd(text)
	if !ok || n <= 2 {
		return nil, false
	}
	return fdRW(hc, n, output)
}

// fdOpener gives a builtin its descriptors by their /dev/fd/N names:
// 0, 1 and 2 are the builtin's own standard streams, others the
// descriptors of the shell that runs it (awk's getline < "/dev/fd/3",
// print > "/dev/fd/4", cat /dev/fd/3 after exec 3<file).
func fdOpener(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) func(n int, output bool) (io.ReadWriteCloser, bool) {
	return func(n int, output bool) (io.ReadWriteCloser, bool) {
		switch n {
		case 0:
			return nopRWC{r: stdin}, stdin != nil
		case 1:
			return nopRWC{w: stdout}, true
		case 2:
			return nopRWC{w: stderr}, true
		}
		// Looked up when asked (most commands never open /dev/fd/N).
		hc, hasFds := handlerContext(ctx)
		if !hasFds {
			return nil, false
		}
		return fdRW(hc, n, output)
	}
}

// inheritFds gives a nested shell's runner the descriptors of the shell
// that runs it, and its umask, as a process inherits both.
func inheritFds(ctx context.Context, sub *Shell) {
	if hc, ok := handlerContext(ctx); ok {
		interp.InheritFds(hc)(sub.runner)
		interp.StartUmask(hc.Umask)(sub.runner)
	}
}

// lockedFile serialises the use of a file that several commands may
// share through a descriptor (vfsclient's File is used by one goroutine
// at a time).
type lockedFile struct {
	mu sync.Mutex
	f  flushWriter
}

func (l *lockedFile) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Read(p)
}

func (l *lockedFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Write(p)
}

func (l *lockedFile) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Flush()
}

// Rearm passes the shell's re-arming after a failed write on (outFile's
// settle) to the file, when it has one.
func (l *lockedFile) Rearm() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r, ok := l.f.(rearmer); ok {
		r.Rearm()
	}
}

func (l *lockedFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}
