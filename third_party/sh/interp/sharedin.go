// llmsh: a redirected file that all readers of the descriptor share (not
// in upstream, which copies any reader but an *os.File into a pipe).

package interp

import (
	"io"
	"os"
	"sync"
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
