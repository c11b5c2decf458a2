package builtins

import (
	"io"
	"os"
)

// nopReadCloser lets stdin be handled like an opened file without closing it.
type nopReadCloser struct{ io.Reader }

func (nopReadCloser) Close() error { return nil }

// eofReader is an empty input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// Open opens a file operand for reading. "-" is standard input (closing it
// is a no-op), /dev/null is empty, as in the shell's redirections, and
// /dev/zero an endless run of zero bytes.
// Relative names are resolved against Dir.
func (e *Env) Open(name string) (io.ReadCloser, error) {
	switch name {
	case "-":
		return nopReadCloser{e.Stdin}, nil
	case "/dev/null":
		return nopReadCloser{eofReader{}}, nil
	case "/dev/zero":
		return nopReadCloser{zeroReader{}}, nil
	}
	return e.FS.OpenFile(e.Abs(name), os.O_RDONLY)
}

// Create opens name for writing, creating or truncating it. On a real file
// the new content replaces the old one atomically when the file is closed.
func (e *Env) Create(name string) (File, error) {
	return e.FS.OpenFile(e.Abs(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
}

// Append opens name for appending, creating it if needed.
func (e *Env) Append(name string) (File, error) {
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
