package vfsclient

import (
	"io"

	"github.com/llmsh/llmsh/vfsproto"
)

// Mux is seed 000's client-side handle table: handles 0, 1 and 2 are the
// caller's stdin, stdout and stderr, served locally and never forwarded;
// every other handle is vfsd's.
type Mux struct {
	c      *Client
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// NewMux serves 0, 1, 2 from the given streams and the rest through c.
func NewMux(c *Client, stdin io.Reader, stdout, stderr io.Writer) *Mux {
	return &Mux{c: c, stdin: stdin, stdout: stdout, stderr: stderr}
}

// Open opens path on vfsd and returns its handle.
func (m *Mux) Open(path string, mode vfsproto.Mode) (int64, error) {
	var r vfsproto.OpenResult
	err := m.c.call(vfsproto.OpOpen, vfsproto.OpenParams{Path: path, Mode: mode}, &r)
	return r.Handle, err
}

// Read reads up to max bytes from handle h.
func (m *Mux) Read(h int64, max int) ([]byte, bool, error) {
	switch h {
	case 0:
		buf := make([]byte, max)
		n, err := m.stdin.Read(buf)
		if err == io.EOF {
			return buf[:n], n == 0, nil
		}
		return buf[:n], false, err
	case 1, 2:
		return nil, false, &Error{Code: vfsproto.EPerm, Msg: "handle is write-only"}
	}
	var r vfsproto.ReadResult
	err := m.c.call(vfsproto.OpRead, vfsproto.ReadParams{H: h, Max: max}, &r)
	return r.Data, r.EOF, err
}

// Write writes data to handle h.
func (m *Mux) Write(h int64, data []byte) (int, error) {
	switch h {
	case 0:
		return 0, &Error{Code: vfsproto.EPerm, Msg: "handle is read-only"}
	case 1:
		return m.stdout.Write(data)
	case 2:
		return m.stderr.Write(data)
	}
	var r vfsproto.WriteResult
	err := m.c.call(vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: data}, &r)
	return r.Written, err
}

// Close closes handle h; closing 0, 1 or 2 is a no-op.
func (m *Mux) Close(h int64) error {
	if h >= 0 && h <= 2 {
		return nil
	}
	return m.c.call(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
}
