package shell

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"

	"github.com/llmsh/llmsh/builtins"
)

// scriptPipe is a pipe that a script is read from (`gen | llmsh`), as
// RunInput reads it: the script's lines and the commands' reads (the
// shell's stdin while the script runs, an interp.PipeInput) take their
// bytes from one look-ahead, so that what a command reads is the script's
// next lines. bash reads such a pipe a byte at a time, so that it takes
// no more than the lines it has run and its children read on from there;
// llmsh has no children, and every reader of the pipe is one of its own
// commands, so the look-ahead is shown by tee(2), which leaves the bytes
// in the pipe, and the bytes taken are read out of the pipe only when
// more must be looked at, or when the script ends (release): whatever
// reads the pipe after llmsh (`{ llmsh; cat; }`) starts just past what
// llmsh took, as after bash. A piped script of 20,000 short lines cost
// three system calls a line (a look, its copy and the take); it now costs
// three a look of up to 64 KiB.
type scriptPipe struct {
	mu sync.Mutex
	in *os.File // the pipe
	// peekR and peekW are a pipe of llmsh's own, which tee fills with a
	// copy of in's first bytes.
	peekR, peekW *os.File
	// buf holds in's first bytes, as the last look showed them: buf[:pos]
	// are taken (by a line or a read) and still in the pipe.
	buf []byte
	pos int
}

// scriptLook is how much of the pipe a look shows at most: what a pipe
// holds by default.
const scriptLook = 64 << 10

// newScriptPipe returns a scriptPipe of in, a pipe, or nil if llmsh
// cannot make the look-ahead's own pipe.
func newScriptPipe(in *os.File) *scriptPipe {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil
	}
	return &scriptPipe{in: in, peekR: pr, peekW: pw}
}

// SharedInput marks an interp.InputFile.
func (*scriptPipe) SharedInput() {}

// Pipe is the pipe read, for read -t to wait on (interp.PipeInput):
// when the look-ahead is used up, what was taken is first read out of
// it, so that it has input only when there is more.
func (p *scriptPipe) Pipe() *os.File {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pos == len(p.buf) {
		p.take() // (an error comes again to the read after the wait)
	}
	return p.in
}

// Buffered is how many bytes a Read returns without a look.
func (p *scriptPipe) Buffered() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.buf) - p.pos
}

// Stat describes the pipe (test -p /dev/stdin; GNU tools fstat stdin).
func (p *scriptPipe) Stat() (fs.FileInfo, error) { return p.in.Stat() }

func (p *scriptPipe) Read(b []byte) (int, error) { return p.readStop(b, nil) }

// readStop is Read for a command whose context is ctx (nil: none): once
// ctx is done it takes nothing, also when it was waiting for the pipe,
// and fails with builtins.ErrCancelled.
func (p *scriptPipe) readStop(b []byte, ctx context.Context) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(b) == 0 {
		return 0, nil
	}
	if p.pos == len(p.buf) {
		if err := p.look(); err != nil {
			return 0, err
		}
	}
	if ctx != nil && ctx.Err() != nil {
		return 0, builtins.ErrCancelled
	}
	n := copy(b, p.buf[p.pos:])
	p.pos += n
	return n, nil
}

// stoppableScriptPipe is a command's stdin that is a script's pipe: once the
// command's context is done (`timeout 1 cat`), a read that was waiting
// for input takes none of what comes, which the script's next lines
// are, as the killed process's read in bash takes none, and fails with
// builtins.ErrCancelled.
type stoppableScriptPipe struct {
	*scriptPipe
	ctx context.Context
}

func (s stoppableScriptPipe) Read(b []byte) (int, error) { return s.readStop(b, s.ctx) }

// line returns the script's next line, with its newline, cut past max
// bytes; the error is io.EOF at the pipe's end (the line is then what
// was left, maybe "").
func (p *scriptPipe) line(max int) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b []byte
	for len(b) <= max {
		if p.pos == len(p.buf) {
			if err := p.look(); err != nil {
				return string(b), err
			}
		}
		rest := p.buf[p.pos:]
		i := bytes.IndexByte(rest, '\n')
		n := len(rest)
		if i >= 0 {
			n = i + 1
		}
		if b == nil && i >= 0 {
			p.pos += n
			return string(rest[:n]), nil // the common case: one copy
		}
		b = append(b, rest[:n]...)
		p.pos += n
		if i >= 0 {
			return string(b), nil
		}
	}
	return string(b), nil
}

// take reads out of the pipe the bytes taken (buf[:pos]), into buf
// itself (they are the same bytes), and forgets the look-ahead; p.mu is
// held.
func (p *scriptPipe) take() error {
	if p.pos == 0 {
		p.buf = p.buf[:0]
		return nil
	}
	_, err := io.ReadFull(p.in, p.buf[:p.pos])
	p.buf, p.pos = p.buf[:0], 0 // (buf[pos:] is shown again by the next look)
	return err
}

// look takes what was taken out of the pipe and shows in buf what it
// holds then (waiting for some); io.EOF when its writers are gone and it
// is empty. p.mu is held, buf is used up.
func (p *scriptPipe) look() error {
	if err := p.take(); err != nil {
		return err
	}
	rc, err := p.in.SyscallConn()
	if err != nil {
		return err
	}
	var n int64
	var terr error
	err = rc.Read(func(fd uintptr) bool {
		n, terr = syscall.Tee(int(fd), int(p.peekW.Fd()), scriptLook, 0)
		return terr != syscall.EAGAIN
	})
	switch {
	case err != nil:
		return err
	case terr != nil:
		return terr
	case n == 0:
		return io.EOF
	}
	if p.buf == nil {
		p.buf = make([]byte, 0, scriptLook)
	}
	p.buf = p.buf[:n]
	if _, err := io.ReadFull(p.peekR, p.buf); err != nil {
		p.buf = p.buf[:0]
		return err
	}
	return nil
}

// release takes out of the pipe what was taken and forgets the rest of
// the look-ahead, for the pipe to be read directly again (the script's
// end); the scriptPipe may still be read (a descriptor that copied the
// shell's stdin), from a new look.
func (p *scriptPipe) release() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.take()
}

// close releases the look-ahead's own pipe.
func (p *scriptPipe) close() {
	p.peekR.Close()
	p.peekW.Close()
}
