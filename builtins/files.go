package builtins

import (
	"context"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/llmsh/llmsh/internal/memguard"
)

// nopReadCloser lets stdin be handled like an opened file without closing it.
type nopReadCloser struct{ io.Reader }

func (nopReadCloser) Close() error { return nil }

// unread gives the last n bytes read from r back to it when r is standard
// input and can seek (a redirected regular file): GNU head, grep -m and
// sed q leave a descriptor they share with the shell just past what they
// used, so that `{ head -n 1; read l; } < FILE` reads the second line.
func unread(r any, n int64) {
	nc, ok := r.(nopReadCloser)
	if !ok || n <= 0 {
		return
	}
	if s, ok := nc.Reader.(io.Seeker); ok {
		s.Seek(-n, io.SeekCurrent)
	}
}

// eofReader is an empty input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// errEmptyName is opening "": there is no such file, as open(2) says (Abs
// would make it the working directory).
var errEmptyName = &fs.PathError{Op: "open", Path: "", Err: syscall.ENOENT}

// isDevStdin reports whether name is the device name of standard input.
func isDevStdin(name string) bool { return name == "/dev/stdin" || name == "/dev/fd/0" }

// Open opens a file operand for reading. "-" is standard input (closing it
// is a no-op), and so are /dev/stdin and /dev/fd/0; /dev/null is empty, as
// in the shell's redirections, and /dev/zero an endless run of zero bytes.
// Relative names are resolved against Dir.
func (e *Env) Open(name string) (io.ReadCloser, error) {
	switch name {
	case "":
		return nil, errEmptyName
	case "/dev/stdin", "/dev/fd/0":
		if ro, ok := e.Stdin.(interface{ Reopen() (io.ReadCloser, error) }); ok {
			// Linux opens a descriptor's file anew, at its start.
			return ro.Reopen()
		}
		return nopReadCloser{e.Stdin}, nil
	case "-":
		return nopReadCloser{e.Stdin}, nil
	case "/dev/null":
		return nopReadCloser{eofReader{}}, nil
	case "/dev/zero":
		return nopReadCloser{stoppableZeros{e.Ctx, new(memguard.ReadMeter)}}, nil
	}
	return e.FS.OpenFile(e.Abs(name), os.O_RDONLY)
}

// HeadReader is an FS that reads the first bytes of a file in one step
// (vfsd's read_file: open, read and close in one round trip), for walks
// that read many small files.
type HeadReader interface {
	// ReadHead reads up to len(p) bytes of the file name into p and
	// reports how many, and whether they are the whole file. An error is
	// the one opening the file would give. ok is false when the FS
	// cannot (then nothing was done).
	ReadHead(name string, p []byte) (n int, whole, ok bool, err error)
}

// ReadHead reads the first len(p) bytes of the file name into p in one
// step where the FS can (see HeadReader); ok is false where it cannot, or
// for the names Open serves itself ("-", /dev/stdin, ...): the caller
// opens the file then.
func (e *Env) ReadHead(name string, p []byte) (n int, whole, ok bool, err error) {
	hr, can := e.FS.(HeadReader)
	switch name {
	case "", "-", "/dev/stdin", "/dev/fd/0", "/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/proc/sys/kernel/random/uuid":
		can = false
	}
	if !can {
		return 0, false, false, nil
	}
	return hr.ReadHead(e.Abs(name), p)
}

// TailReader is an FS that reads the end of a file and its stat in one
// step (vfsd's read_tail: open, stat, a read at the end and close in one
// round trip), for tail.
type TailReader interface {
	// ReadTail reads up to len(p) bytes of the end of the file name
	// into p and reports how many, the offset they start at, and the
	// file's stat; a file that is not regular is not read. An error is
	// the one opening the file would give. ok is false when the FS
	// cannot (then nothing was done).
	ReadTail(name string, p []byte) (n int, off int64, fi fs.FileInfo, ok bool, err error)
}

// ReadTail reads the last len(p) bytes of the file name into p, with its
// stat, in one step where the FS can (see TailReader); ok is false where
// it cannot, or for the names Open serves itself: the caller opens the
// file then.
func (e *Env) ReadTail(name string, p []byte) (n int, off int64, fi fs.FileInfo, ok bool, err error) {
	tr, can := e.FS.(TailReader)
	switch name {
	case "", "-", "/dev/stdin", "/dev/fd/0", "/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/proc/sys/kernel/random/uuid":
		can = false
	}
	if !can {
		return 0, 0, nil, false, nil
	}
	return tr.ReadTail(e.Abs(name), p)
}

// HeadsReader is an FS that reads the first bytes of several files in
// one step (vfsd's read_files), for walks that read many small files.
type HeadsReader interface {
	// ReadHeads reads up to max bytes of each file of names, in their
	// order. ok is false when the FS cannot (then nothing was done, and
	// the caller reads the files one by one).
	ReadHeads(names []string, max int) (heads []Head, ok bool)
}

// Head is what ReadHeads read of one file: its first bytes, whether they
// are all of it, or the error opening it gave.
type Head struct {
	Data  []byte
	Whole bool
	Err   error
}

// CanReadHeads reports whether the FS reads several files in one step.
func (e *Env) CanReadHeads() bool {
	_, can := e.FS.(HeadsReader)
	return can
}

// ReadHeads reads the first max bytes of each file of names in one step
// (HeadsReader); ok is false when the FS cannot, or a name is one that
// ReadHead would not read (standard input, a device).
func (e *Env) ReadHeads(names []string, max int) (heads []Head, ok bool) {
	hr, can := e.FS.(HeadsReader)
	if !can {
		return nil, false
	}
	abs := make([]string, len(names))
	for i, name := range names {
		switch name {
		case "", "-", "/dev/stdin", "/dev/fd/0", "/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/proc/sys/kernel/random/uuid":
			return nil, false
		}
		abs[i] = e.Abs(name)
	}
	return hr.ReadHeads(abs, max)
}

// Create opens name for writing, creating or truncating it. On a real file
// the new content replaces the old one atomically when the file is closed.
// /dev/stdout and /dev/stderr (and /dev/fd/1, /dev/fd/2) are the
// builtin's own outputs, never files in vfsd.
func (e *Env) Create(name string) (File, error) {
	if name == "" {
		return nil, errEmptyName
	}
	if f, ok := e.stdStream(name); ok {
		return f, nil
	}
	return e.FS.OpenFile(e.Abs(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
}

// Append opens name for appending, creating it if needed.
func (e *Env) Append(name string) (File, error) {
	if name == "" {
		return nil, errEmptyName
	}
	if f, ok := e.stdStream(name); ok {
		return f, nil
	}
	return e.FS.OpenFile(e.Abs(name), os.O_WRONLY|os.O_CREATE|os.O_APPEND)
}

// WriteFile creates (or truncates) name and writes data to it. The error
// of the write or, since vfsd may answer a write only by then, of the
// close is returned: a file that could not be written whole is never
// reported as written.
func (e *Env) WriteFile(name string, data []byte) error {
	f, err := e.Create(name)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// stdStream returns the builtin's standard output or error for their
// device names.
func (e *Env) stdStream(name string) (File, bool) {
	switch name {
	case "/dev/stdout", "/dev/fd/1":
		return &streamFile{w: e.Stdout, name: name}, true
	case "/dev/stderr", "/dev/fd/2":
		return &streamFile{w: e.Stderr, name: name}, true
	}
	return nil, false
}

// streamFile is an output stream opened by its device name: writes go to
// it, closing it leaves it open, and it cannot be read or seeked.
type streamFile struct {
	w    io.Writer
	name string
}

func (f *streamFile) Write(p []byte) (int, error) { return f.w.Write(p) }
func (f *streamFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: f.name, Err: syscall.EBADF}
}
func (f *streamFile) Seek(int64, int) (int64, error) {
	return 0, &fs.PathError{Op: "seek", Path: f.name, Err: syscall.ESPIPE}
}
func (f *streamFile) Close() error               { return nil }
func (f *streamFile) Stat() (fs.FileInfo, error) { return devInfo{f.name}, nil }

// devInfo describes a device served in the process (a streamFile,
// /dev/null): a character device of size 0.
type devInfo struct{ name string }

func (i devInfo) Name() string       { return i.name[len("/dev/"):] }
func (i devInfo) Size() int64        { return 0 }
func (i devInfo) Mode() fs.FileMode  { return fs.ModeDevice | fs.ModeCharDevice | 0o620 }
func (i devInfo) ModTime() time.Time { return time.Time{} }
func (i devInfo) IsDir() bool        { return false }
func (i devInfo) Sys() any           { return nil }

// stoppableZeros is /dev/zero opened by a command: zero bytes without end
// until the command's context is done, then gnu.ErrCancelled, so that a
// command gathering one endless line ends with its run (session 20, red
// team: rev, sed, cut, uniq, look of /dev/zero grew past the time limit
// until memory was gone).
// Its bytes are counted (memguard.ReadMeter): a command gathering them
// into one line grows it faster than the memory guards' ticks come on a
// loaded machine (session 30: `rev /dev/zero` under --max-memory 64M
// reached 787 MB of heap).
type stoppableZeros struct {
	ctx   context.Context
	meter *memguard.ReadMeter
}

func (z stoppableZeros) Read(p []byte) (int, error) {
	if z.ctx != nil && z.ctx.Err() != nil {
		return 0, gnu.ErrCancelled
	}
	z.meter.Add(len(p))
	if z.ctx != nil && z.ctx.Err() != nil {
		return 0, gnu.ErrCancelled // the guard has stopped the run
	}
	clear(p)
	return len(p), nil
}
