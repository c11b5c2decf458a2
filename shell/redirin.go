package shell

import (
	"github.com/llmsh/llmsh/builtins"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"

	"github.com/llmsh/llmsh/vfsclient"
)

// An input redirection (`cmd < FILE`) of a file of vfsd is a redirFile,
// which the interpreter and the builtins read directly; one of a
// directory (`cmd < DIR`) is a dirInput, whose reads fail.

// redirFile is a file of vfsd that an input redirection opened: the
// interpreter's InputFile, which every reader of the descriptor shares
// (the shell's read, builtins, subshells), as bash's processes share the
// open file description of `< FILE`. It reads the file in blocks and
// keeps what a reader did not take for the next one, so that `read`
// taking a line byte by byte costs a call per byte, not a request to
// vfsd, and a command after it starts just past the line. Stat describes
// the file (GNU tools fstat their stdin: wc sizes its columns by it) and
// Seek moves the shared position, as lseek(2) on the descriptor.
type redirFile struct {
	mu     sync.Mutex
	c      *vfsclient.Client
	f      *vfsclient.File
	buf    []byte // read from f; buf[pos:] not taken yet
	pos    int
	fpos   int64 // f's position: just past buf
	eof    bool  // f's last read ended at its end: seek to it before the next (a file may grow)
	closed bool
	// truncs, when set, makes the file read as empty while a truncating
	// redirection writes it (`tr a b < f > f`: truncs.go).
	truncs *truncTable

	statOnce sync.Once
	fi       fs.FileInfo
	statErr  error
}

// redirBlock is what a read of the file asks at least: reads of a few
// bytes (read's one) are served from the block.
const redirBlock = 32 << 10

func newRedirFile(c *vfsclient.Client, f *vfsclient.File) *redirFile {
	return &redirFile{c: c, f: f}
}

// SharedInput marks an interp.InputFile.
func (*redirFile) SharedInput() {}

func (r *redirFile) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0, &fs.PathError{Op: "read", Path: r.f.Name(), Err: fs.ErrClosed}
	}
	if len(p) == 0 {
		return 0, nil
	}
	if r.truncated() {
		return 0, io.EOF
	}
	if r.pos < len(r.buf) {
		n := copy(p, r.buf[r.pos:])
		r.pos += n
		return n, nil
	}
	r.buf, r.pos = r.buf[:0], 0
	if len(p) >= redirBlock {
		return r.readFile(p)
	}
	if r.buf == nil {
		r.buf = make([]byte, redirBlock)
	}
	n, err := r.readFile(r.buf[:cap(r.buf)])
	r.buf, r.pos = r.buf[:n], 0
	if n == 0 {
		return 0, err
	}
	r.pos = copy(p, r.buf)
	return r.pos, nil
}

// readFile reads f at its position (buf is used up); r.mu is held. An
// end of file is asked of vfsd now: the one f has may be the answer to a
// read sent ahead, before the file grew (as bash's read(2) would see).
func (r *redirFile) readFile(p []byte) (int, error) {
	fresh := r.eof
	if err := r.rearm(); err != nil {
		return 0, err
	}
	n, err := r.f.Read(p)
	if n == 0 && err == io.EOF && !fresh {
		r.eof = true
		if err := r.rearm(); err != nil {
			return 0, err
		}
		n, err = r.f.Read(p)
	}
	r.fpos += int64(n)
	if err == io.EOF {
		r.eof = true
	}
	return n, err
}

// rearm makes f read again after its end, where bytes may have been
// added since (vfsclient's end of file is final until a seek).
func (r *redirFile) rearm() error {
	if !r.eof {
		return nil
	}
	off, err := r.f.Seek(r.fpos, io.SeekStart)
	if err != nil {
		return err
	}
	r.fpos, r.eof = off, false
	return nil
}

// WriteTo writes the rest of the file to w, by f's fastest way (for
// io.Copy: cat, wc).
func (r *redirFile) WriteTo(w io.Writer) (int64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0, &fs.PathError{Op: "read", Path: r.f.Name(), Err: fs.ErrClosed}
	}
	if r.truncated() {
		return 0, nil // read as empty (truncs.go)
	}
	var total int64
	if r.pos < len(r.buf) {
		n, err := w.Write(r.buf[r.pos:])
		r.pos += n
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	r.buf, r.pos = r.buf[:0], 0
	if err := r.rearm(); err != nil {
		return total, err
	}
	n, err := r.f.WriteTo(w)
	r.fpos += n
	r.eof = err == nil
	return total + n, err
}

// Seek moves the shared position, as lseek(2) does: a command that read
// more than it used gives the rest back (GNU head, sed q, grep -m).
func (r *redirFile) Seek(offset int64, whence int) (int64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0, &fs.PathError{Op: "seek", Path: r.f.Name(), Err: fs.ErrClosed}
	}
	start := r.fpos - int64(len(r.buf)) // the offset of buf[0]
	cur := start + int64(r.pos)
	switch whence {
	case io.SeekCurrent:
		offset += cur
	case io.SeekStart:
	default:
		off, err := r.f.Seek(offset, whence)
		if err == nil {
			r.buf, r.pos, r.fpos, r.eof = r.buf[:0], 0, off, false
		}
		return off, err
	}
	if offset < 0 {
		return 0, &fs.PathError{Op: "seek", Path: r.f.Name(), Err: syscall.EINVAL}
	}
	if offset >= start && offset <= r.fpos {
		r.pos = int(offset - start)
		return offset, nil
	}
	off, err := r.f.Seek(offset, io.SeekStart)
	if err != nil {
		return 0, err
	}
	r.buf, r.pos, r.fpos, r.eof = r.buf[:0], 0, off, false
	return off, nil
}

// Reopen opens the file anew, from its start, as Linux opens
// /dev/stdin when it is a file's descriptor (cat /dev/stdin).
func (r *redirFile) Reopen() (io.ReadCloser, error) {
	f, err := r.c.OpenFile(r.f.Name(), os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Stat describes the file, asked of vfsd once.
func (r *redirFile) Stat() (fs.FileInfo, error) {
	r.statOnce.Do(func() { r.fi, r.statErr = r.f.Stat() })
	if r.statErr == nil && r.truncated() {
		return emptyInfo{r.fi}, nil
	}
	return r.fi, r.statErr
}

// truncated reports whether a truncating redirection writes r's file now
// (`tr a b < f > f`), by any of its names, which r then reads as empty,
// as bash's descriptor reads the truncated file (truncs.go). A file of
// that name made anew after r opened the old one (`{ rm f; cat > f; } <
// f`) is another file.
func (r *redirFile) truncated() bool {
	if r.truncs.empty() {
		return false
	}
	r.statOnce.Do(func() { r.fi, r.statErr = r.f.Stat() })
	if r.statErr != nil {
		return false
	}
	if r.truncs.pending(r.f.Name()) {
		cur, err := r.c.Stat(r.f.Name())
		return err == nil && builtins.SameFile(r.fi, cur)
	}
	// another name of the file (`tr a b < link > f`)
	return r.truncs.holds(r.f.Name(), r.fi, nil, r.c.Stat)
}

func (r *redirFile) Write([]byte) (int, error) { return 0, syscall.EBADF }

func (r *redirFile) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	r.buf = nil
	return r.f.Close()
}

// dirInput is the input of `< DIR`: bash opens the directory, and a
// read of it fails with EISDIR (read's "read error: 0: Is a directory",
// cat's "-: Is a directory"). Stat describes the directory, as fstat(2)
// of the descriptor would. (It was an empty pipe, which the shell's read
// took for an end of file, silently.)
type dirInput struct{ fi fs.FileInfo }

// SharedInput marks an interp.InputFile.
func (dirInput) SharedInput() {}

func (dirInput) Read([]byte) (int, error)     { return 0, syscall.EISDIR }
func (dirInput) Write([]byte) (int, error)    { return 0, syscall.EBADF }
func (dirInput) Close() error                 { return nil }
func (d dirInput) Stat() (fs.FileInfo, error) { return d.fi, nil }
