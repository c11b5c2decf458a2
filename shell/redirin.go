package shell

import (
	"io"
	"io/fs"
	"os"
	"runtime"
	"syscall"
	"weak"

	"github.com/llmsh/llmsh/vfsclient"
)

// An input redirection (`cmd < FILE`) reaches a command as an *os.File:
// the interpreter copies any other reader into an os.Pipe. GNU tools
// fstat their standard input (wc sizes its columns by a regular file's
// size), so llmsh makes that pipe itself, for a file of vfsd, and keeps
// the file's description beside it: a builtin's stdin that is such a pipe
// answers Stat with the file's FileInfo.

// redirInfo is the description of the file behind a redirection's pipe;
// ready is closed once fi and err are set. The copy's read error, if any,
// is readErr once done is closed: a builtin reading the pipe gets it
// instead of the end of file, as it would reading the file itself (a
// vfsd failure mid-file, or EISDIR for `cmd < DIR`).
type redirInfo struct {
	ready   chan struct{}
	fi      fs.FileInfo
	err     error
	done    chan struct{}
	readErr error
}

// redirPipe returns the read end of a pipe that f is copied into, and
// closes f when the copy ends (f's end, or the pipe's reader gone).
func (st *sessionState) redirPipe(f *vfsclient.File) (io.ReadWriteCloser, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		f.Close()
		return nil, err
	}
	info := &redirInfo{ready: make(chan struct{}), done: make(chan struct{})}
	st.registerPipe(pr, info)
	go func() {
		info.fi, info.err = f.Stat()
		close(info.ready)
		// WriteTo: the file's fastest way out (read_shm into the shared
		// region where vfsd offers it). An error that is not the pipe's
		// (its reader gone) is the file's, for the command to read.
		w := &pipeWriter{w: pw}
		if _, err := f.WriteTo(w); err != nil && w.err == nil {
			info.readErr = err
		}
		close(info.done)
		pw.Close()
		f.Close()
	}()
	return pr, nil
}

// pipeWriter writes to w and keeps its first error.
type pipeWriter struct {
	w   io.Writer
	err error
}

func (p *pipeWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if err != nil && p.err == nil {
		p.err = err
	}
	return n, err
}

// register records info for the pipe's read end pr, until pr is
// collected.
func (st *sessionState) registerPipe(pr *os.File, info *redirInfo) {
	key := weak.Make(pr)
	st.redirInfos.Store(key, info)
	runtime.AddCleanup(pr, func(k weak.Pointer[os.File]) { st.redirInfos.Delete(k) }, key)
}

// redirDirPipe is `cmd < DIR`: bash opens a directory, and reading it
// fails with EISDIR; llmsh gives an empty pipe whose reads fail so.
func (st *sessionState) redirDirPipe(fi fs.FileInfo) (io.ReadWriteCloser, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	pw.Close()
	info := &redirInfo{ready: make(chan struct{}), done: make(chan struct{}), fi: fi, readErr: syscall.EISDIR}
	close(info.ready)
	close(info.done)
	st.registerPipe(pr, info)
	return pr, nil
}

// redirStdin is a builtin's stdin that is a redirection's pipe: Stat
// describes the redirected file, as fstat(2) of bash's descriptor would.
type redirStdin struct {
	*os.File
	info *redirInfo
}

func (r redirStdin) Stat() (fs.FileInfo, error) {
	<-r.info.ready
	return r.info.fi, r.info.err
}

// Read reads the pipe; at its end, the copy's read error if there was one.
func (r redirStdin) Read(p []byte) (int, error) {
	n, err := r.File.Read(p)
	if err == io.EOF {
		<-r.info.done
		if r.info.readErr != nil {
			return n, r.info.readErr
		}
	}
	return n, err
}

// withRedirStat returns stdin, as a redirStdin if it is a redirection's
// pipe.
func (st *sessionState) withRedirStat(stdin io.Reader) io.Reader {
	f, ok := stdin.(*os.File)
	if !ok {
		return stdin
	}
	if v, ok := st.redirInfos.Load(weak.Make(f)); ok {
		return redirStdin{File: f, info: v.(*redirInfo)}
	}
	return stdin
}
