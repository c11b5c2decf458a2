// llmsh: a redirected file that all readers of the descriptor share (not
// in upstream, which copies any reader but an *os.File into a pipe).

package interp

import (
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"
)

// An InputFile is what an open handler may return for a file opened to
// read: a reader that every reader of the descriptor shares, as the
// processes of bash share an open file description. Each Read takes
// bytes from where the last one, by whichever reader, stopped; a reader
// takes only what it reads, so the runner's `read` may read it byte by
// byte at no cost beyond a call (the InputFile reads the file in blocks
// and keeps what was not taken for the next reader).
//
// A runner whose stdin is an InputFile reads it directly (read, mapfile,
// select), hands it to handlers as [HandlerContext.Stdin] and to its
// subshells; its stdin *os.File is then an empty pipe, for what needs a
// descriptor (test -t 0).
type InputFile interface {
	io.Reader
	// SharedInput marks the type; it does nothing.
	SharedInput()
}

// A PipeInput is an [InputFile] over a pipe that it reads ahead of its
// readers (llmsh: the pipe a script is read from, shell's RunInput): read
// -t waits on Pipe for input when nothing is Buffered, and read -t 0 asks
// both whether input is ready, as of a pipe given as a descriptor.
type PipeInput interface {
	InputFile
	// Buffered is how many bytes a Read returns without waiting.
	Buffered() int
	// Pipe is the pipe the bytes after the Buffered ones come from,
	// holding none that were read already (for select(2)).
	Pipe() *os.File
}

// SetStdin makes rd the runner's stdin, as StdIO does, leaving its
// stdout and stderr as they are (llmsh: RunInput reads a piped script
// through a PipeInput that its commands share).
func (r *Runner) SetStdin(rd io.Reader) error {
	return r.setStdinTo(rd)
}

// eofStdin is the stdin *os.File of a runner whose input is an
// InputFile: a pipe whose writer is closed, made once.
func eofStdin() (*os.File, error) {
	p := eofStdinOnce.get(func() eofPipe {
		pr, pw, err := os.Pipe()
		if err != nil {
			return eofPipe{nil, err}
		}
		pw.Close()
		return eofPipe{pr, nil}
	})
	return p.f, p.err
}

// eofPipe is eofStdin's pipe, or the error making it.
type eofPipe struct {
	f   *os.File
	err error
}

var eofStdinOnce lazy[eofPipe] // (a sync.OnceValues is code in init)

// setStdinTo makes rd the runner's stdin: an InputFile is kept as it is
// (stdinSrc), any other reader as newStdinFile makes it.
func (r *Runner) setStdinTo(rd io.Reader) error {
	if src, ok := rd.(InputFile); ok {
		f, err := eofStdin()
		if err != nil {
			return err
		}
		r.stdin, r.stdinSrc = f, src
		return nil
	}
	in, err := newStdinFile(rd)
	if err != nil {
		return err
	}
	r.stdin, r.stdinSrc = in, nil
	return nil
}

// Stdin is what reads the shell's stdin now (what exec 0<FILE made it):
// its InputFile, or its *os.File; nil when it is closed (llmsh: a
// script read on stdin goes on reading there, as bash reads its
// descriptor 0).
func (r *Runner) Stdin() io.Reader {
	if !r.didReset {
		r.Reset()
	}
	return r.stdinReader()
}

// stdinReader is what reads the runner's stdin: its InputFile, or its
// *os.File; nil when it is closed.
func (r *Runner) stdinReader() io.Reader {
	if r.stdinSrc != nil {
		return r.stdinSrc
	}
	if r.stdin == nil {
		return nil // not a typed nil
	}
	return r.stdin
}

// docInput is a here-document or here-string as a descriptor's input
// (llmsh): the InputFile of its text, which every reader of the
// descriptor shares, as bash's processes share the pipe or temporary
// file it writes the text to. A reader takes only what it reads, so
// `read` takes it byte by byte without a system call (it was a pipe that
// a goroutine wrote, which read took with a read(2) per byte:
// `read -r z <<< "$x"` of 4 MB took 10x bash), and a command after it
// starts just past what was read. It always has input or its end: read
// -t 0 succeeds, as on bash's.
type docInput struct {
	mu  sync.Mutex
	s   string
	off int
}

// SharedInput marks an InputFile.
func (*docInput) SharedInput() {}

func (d *docInput) Read(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.off >= len(d.s) {
		return 0, io.EOF
	}
	n := copy(p, d.s[d.off:])
	d.off += n
	return n, nil
}

// docPipeMax is the largest document bash 5.2 writes to a pipe; a larger
// one goes to a temporary file (measured: wc's columns, which GNU sizes
// by a regular input's size, widen past 65536 bytes).
const docPipeMax = 65536

// Seek moves the shared offset, as lseek(2) on bash's temporary file of
// a document over docPipeMax bytes (GNU head -n, grep -m and sed q give
// back what they did not use: `{ head -n 1; read l; } <<< "$big"` reads
// the second line); a smaller one is bash's pipe, which cannot seek.
func (d *docInput) Seek(off int64, whence int) (int64, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.s) <= docPipeMax {
		return 0, &os.PathError{Op: "seek", Path: "pipe", Err: syscall.ESPIPE}
	}
	switch whence {
	case io.SeekCurrent:
		off += int64(d.off)
	case io.SeekEnd:
		off += int64(len(d.s))
	}
	if off < 0 {
		return 0, &os.PathError{Op: "seek", Path: "here-document", Err: syscall.EINVAL}
	}
	d.off = int(min(off, int64(len(d.s)))) // (past the end reads nothing)
	return off, nil
}

// Stat describes the document as bash's descriptor: a pipe, or a regular
// file of its size when it is over docPipeMax bytes.
func (d *docInput) Stat() (fs.FileInfo, error) {
	if len(d.s) <= docPipeMax {
		return docInfo{mode: fs.ModeNamedPipe | 0o600}, nil
	}
	return docInfo{size: int64(len(d.s)), mode: 0o600}, nil
}

// Reopen is what opening /dev/stdin reads: Linux opens bash's temporary
// file anew, at its start, and a pipe is the same pipe. The new input
// of a document over docPipeMax is a docInput of its own, which the
// commands it is redirected to share, as a new open file's offset: `{
// read a; cat < /dev/stdin; } <<< "$big"` prints the whole text, as
// bash 5.2 (llmsh, session 31: cat went on from the shared position).
func (d *docInput) Reopen() (io.ReadCloser, error) {
	if len(d.s) <= docPipeMax {
		return io.NopCloser(d), nil
	}
	return &docInput{s: d.s}, nil
}

// Close does nothing: the text is the runner's.
func (*docInput) Close() error { return nil }

// Write fails as a write to a descriptor open only for reading: the
// open handler returns a reopened document as an io.ReadWriteCloser.
func (*docInput) Write([]byte) (int, error) { return 0, syscall.EBADF }

// docInfo is a docInput's Stat.
type docInfo struct {
	size int64
	mode fs.FileMode
}

func (docInfo) Name() string        { return "" }
func (i docInfo) Size() int64       { return i.size }
func (i docInfo) Mode() fs.FileMode { return i.mode }
func (docInfo) ModTime() time.Time  { return time.Time{} }
func (i docInfo) IsDir() bool       { return false }
func (docInfo) Sys() any            { return nil }

// docRedir makes descriptor n read the text of a here-document or
// here-string; 1 and 2 are then not open for writing (1<<< x).
func (r *Runner) docRedir(sv *redirSaves, n int, doc string) error {
	in := &docInput{s: doc}
	switch {
	case n == 0:
		return r.setStdin(in, false)
	case n > 2:
		r.replaceFd(sv, n, newFdObj(in, nil, nil))
	default:
		r.setOut(n, badFdWriter{})
	}
	return nil
}
