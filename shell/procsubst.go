package shell

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins"
)

// Process substitution without host FIFOs. The interpreter asks
// procSubstHandler for a pipe when it expands <(LIST) or >(LIST): llmsh
// makes an in-memory pipe, names the command's end /dev/fd/N (as bash
// does), serves that name through its open and stat handlers, and hands
// the list's end to the interpreter, which runs the list concurrently
// with the command. When the command has run, the interpreter calls
// release, which closes a command's end that nobody opened, so that the
// list ends.

// psubs is the registry of the /dev/fd/N paths that process substitutions
// have made and not yet finished with. One registry serves a shell and the
// shells nested in it.
type psubs struct {
	mu    sync.Mutex
	pipes map[string]*psubPipe // by /dev/fd/N: the command's end
	// lists are the lists' ends not closed yet, which the end of a
	// session's Run hangs up (hangUpLists).
	lists map[*pipeFile]bool
}

type psubPipe struct {
	r         *psubReader
	w         *psubWriter
	jobWrites bool // the list holds the write end: <(LIST)
}

// psubMaxFd bounds the /dev/fd/N of process substitutions: the 1024
// descriptors that `ulimit -n` reports.
const psubMaxFd = 1024

// errPsubFds is newPipe's error once every number is taken, bash's when
// pipe(2) finds no free descriptor.
var errPsubFds = errors.New("cannot make pipe for process substitution: Too many open files")

// psubFd is the i-th number newPipe tries: 63 down to 10, as bash
// numbers them, then 64 up (bash goes on below 10, where llmsh's
// descriptors of `exec 3>f` live, and then up from 64).
func psubFd(i int) int {
	if i < 54 {
		return 63 - i
	}
	return 64 + i - 54
}

// newPipe registers a fresh pipe under path, the first free /dev/fd/N
// in psubFd's order that no pending pipe and no descriptor of the
// script (taken, as bash's pipe(2) finds them: `exec 63>f; echo <(:)`
// is /dev/fd/62) holds, for the command, and returns the list's end.
// (Session 29: past 54 pending at once the command was skipped with
// status 0; bash makes up to its descriptors' limit.)
func (p *psubs) newPipe(jobWrites bool, taken func(n int) bool) (path string, job *pipeFile, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pipes == nil {
		p.pipes = map[string]*psubPipe{}
	}
	for i := 0; psubFd(i) < psubMaxFd; i++ {
		path = "/dev/fd/" + strconv.Itoa(psubFd(i))
		if p.pipes[path] == nil && (taken == nil || !taken(psubFd(i))) {
			r, w := newPsubPipe()
			p.pipes[path] = &psubPipe{r: r, w: w, jobWrites: jobWrites}
			job = &pipeFile{name: path, r: r, owner: p}
			if jobWrites {
				job = &pipeFile{name: path, w: w, owner: p}
			}
			if p.lists == nil {
				p.lists = map[*pipeFile]bool{}
			}
			p.lists[job] = true
			return path, job, nil
		}
	}
	return "", nil, errPsubFds
}

// open returns the command's end of the pipe at a /dev/fd/N path, once;
// ok is false when name is none. The path is free for another pipe once
// it is open.
func (p *psubs) open(name string) (f builtins.File, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pp := p.pipes[name]
	if pp == nil {
		return nil, false
	}
	delete(p.pipes, name)
	if pp.jobWrites {
		return &pipeFile{name: name, r: pp.r}, true
	}
	return &pipeFile{name: name, w: pp.w}, true
}

// stat describes name if it is the command's end of a pipe.
func (p *psubs) stat(name string) (fs.FileInfo, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pipes[name] == nil {
		return nil, false
	}
	return pipeInfo(name), true
}

// done is called when the command has run: if it never opened its end,
// the list's writes fail (or its reads end) at once, and the path is free.
func (p *psubs) done(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pp := p.pipes[name]
	if pp == nil {
		return
	}
	delete(p.pipes, name)
	pp.closeCommandSide()
}

// closeAll ends every pipe left: the script is over. A list still running
// gets EPIPE on its writes, or the end of its input.
func (p *psubs) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for name, pp := range p.pipes {
		pp.closeCommandSide()
		delete(p.pipes, name)
	}
}

// hangUpLists ends the lists' sides of the pipes still open: a session's
// Run is over, and its jobs are hung up. A list blocked writing to a pipe
// that a descriptor of the session keeps open and nobody reads
// (`exec {fd}< <(yes)`), or reading one that nobody writes (`exec 3>
// >(cat)`), cannot see its context: each later Run of a library or serve
// session waited three times the shell's 1 s grace for it, and a 2 s
// limit reported `echo second` as timed out (session 20, red team).
func (p *psubs) hangUpLists() {
	p.mu.Lock()
	lists := p.lists
	p.lists = nil
	p.mu.Unlock()
	for f := range lists {
		f.hangUp()
	}
}

// hangUp ends the list's side of the pipe: a write fails with EPIPE, a
// read sees the end of its input, even one already waiting.
func (f *pipeFile) hangUp() {
	if f.w != nil {
		f.w.CloseWithError(syscall.EPIPE)
	} else {
		f.r.Close()
	}
}

// closeCommandSide closes the end that the command, not the job, uses.
func (pp *psubPipe) closeCommandSide() {
	if pp.jobWrites {
		pp.r.Close()
	} else {
		pp.w.Close()
	}
}

// pipeFile is one end of a process substitution's pipe.
type pipeFile struct {
	name  string
	r     *psubReader
	w     *psubWriter
	owner *psubs // of a list's end, which leaves owner.lists on Close
	// written counts what the command wrote to its end of a >(LIST).
	written atomic.Int64
}

// psubPipeBuf is what a pipe of bash holds for certain (POSIX's
// PIPE_BUF, a page): a command that writes no more than that to >(LIST)
// has written it into the pipe before the list could end, as bash's
// list is a process that takes a while to start.
const psubPipeBuf = 4096

func (f *pipeFile) Read(b []byte) (int, error) {
	if f.r == nil {
		return 0, syscall.EBADF
	}
	return f.r.Read(b)
}

func (f *pipeFile) Write(b []byte) (int, error) {
	if f.w == nil {
		return 0, syscall.EBADF
	}
	total := f.written.Add(int64(len(b)))
	n, err := f.w.Write(b)
	if err == io.ErrClosedPipe {
		if f.owner == nil && total <= psubPipeBuf {
			// The list ended without reading it (tee >(false) <<< x):
			// bash's pipe took it, and the list's end threw it away.
			return len(b), nil
		}
		err = syscall.EPIPE
	}
	return n, err
}

func (f *pipeFile) Seek(int64, int) (int64, error) { return 0, syscall.ESPIPE }
func (f *pipeFile) Stat() (fs.FileInfo, error)     { return pipeInfo(f.name), nil }

func (f *pipeFile) Close() error {
	if p := f.owner; p != nil {
		p.mu.Lock()
		delete(p.lists, f)
		p.mu.Unlock()
	}
	if f.r != nil {
		return f.r.Close()
	}
	return f.w.Close()
}

// pipeInfo is what a stat of /dev/fd/N says of a pipe. Its time is the
// stat's, as a new pipe's is on Linux: `diff -u <(…) f` heads the pipe
// with the time it ran, not the year 1.
type pipeInfo string

func (p pipeInfo) Name() string     { return string(p)[len("/dev/fd/"):] }
func (pipeInfo) Size() int64        { return 0 }
func (pipeInfo) Mode() fs.FileMode  { return fs.ModeNamedPipe | 0o600 }
func (pipeInfo) ModTime() time.Time { return time.Now() }
func (pipeInfo) IsDir() bool        { return false }
func (pipeInfo) Sys() any           { return nil }

// procSubstHandler serves the interpreter's process substitutions (see
// above).
func (s *Shell) procSubstHandler(ctx context.Context, jobWrites bool) (string, io.ReadWriteCloser, func(), error) {
	var taken func(int) bool
	if hc, ok := handlerContext(ctx); ok {
		taken = func(n int) bool { _, _, open := hc.Fd(n); return open }
	}
	path, job, err := s.psubs.newPipe(jobWrites, taken)
	if err != nil {
		return "", nil, nil, err
	}
	return path, job, func() { s.psubs.done(path) }, nil
}
