package vfsd

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// client is a raw test client of one Serve over an os.Pipe pair.
type client struct {
	t      testing.TB
	w      *os.File // requests
	r      *os.File // responses
	done   chan error
	nextID atomic.Int64
}

// newServer makes a Server closed at the end of the test.
func newServer(t testing.TB, cfg Config) *Server {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// connect starts Serve on a fresh pipe pair.
func connect(t testing.TB, s *Server) *client {
	t.Helper()
	return connectWith(t, func(r io.Reader, w *os.File) error { return s.Serve(r, w) })
}

// connectWith starts serve on a fresh pipe pair: requests from the
// client on r, responses to it on w.
func connectWith(t testing.TB, serve func(r io.Reader, w *os.File) error) *client {
	t.Helper()
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, w: reqW, r: respR, done: make(chan error, 1)}
	go func() {
		err := serve(reqR, respW)
		reqR.Close()
		respW.Close()
		c.done <- err
	}()
	t.Cleanup(func() {
		c.hangUp()
		c.r.Close()
	})
	return c
}

// hangUp closes the request side and returns Serve's result.
func (c *client) hangUp() error {
	c.w.Close()
	if c.done == nil {
		return nil
	}
	err := <-c.done
	c.done = nil
	return err
}

// send writes one raw frame payload.
func (c *client) send(payload []byte) {
	c.t.Helper()
	if err := vfsproto.WriteFrame(c.w, payload); err != nil {
		c.t.Fatalf("write frame: %v", err)
	}
}

// recv reads one response.
func (c *client) recv() vfsproto.Response {
	c.t.Helper()
	b, err := vfsproto.ReadFrame(c.r, nil)
	if err != nil {
		c.t.Fatalf("read response: %v", err)
	}
	var resp vfsproto.Response
	if err := json.Unmarshal(b, &resp); err != nil {
		c.t.Fatalf("bad response %q: %v", b, err)
	}
	return resp
}

// request encodes a request with a fresh id.
func (c *client) request(op string, params any) (string, []byte) {
	id := strconv.FormatInt(c.nextID.Add(1), 10)
	req := vfsproto.Request{ID: id, Op: op}
	if params != nil {
		raw, err := json.Marshal(params)
		if err != nil {
			c.t.Fatal(err)
		}
		req.Params = raw
	}
	b, err := json.Marshal(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return id, b
}

// call sends one request and waits for its response.
func (c *client) call(op string, params any) vfsproto.Response {
	c.t.Helper()
	id, b := c.request(op, params)
	c.send(b)
	resp := c.recv()
	if resp.ID != id {
		c.t.Fatalf("%s: response id %q, want %q", op, resp.ID, id)
	}
	return resp
}

// ok calls and decodes the result, failing the test on an error response.
func (c *client) ok(op string, params, result any) {
	c.t.Helper()
	resp := c.call(op, params)
	if !resp.OK {
		c.t.Fatalf("%s %v: %v", op, params, resp.Error)
	}
	if result != nil {
		if err := json.Unmarshal(resp.Result, result); err != nil {
			c.t.Fatalf("%s result %s: %v", op, resp.Result, err)
		}
	}
}

// code calls and returns the error code ("" on success).
func (c *client) code(op string, params any) vfsproto.Code {
	c.t.Helper()
	resp := c.call(op, params)
	if resp.OK {
		return ""
	}
	return resp.Error.Code
}

// open opens path and returns the handle.
func (c *client) open(path string, mode vfsproto.Mode) int64 {
	c.t.Helper()
	var r vfsproto.OpenResult
	c.ok(vfsproto.OpOpen, vfsproto.OpenParams{Path: path, Mode: mode}, &r)
	return r.Handle
}

// readAll reads handle h to EOF.
func (c *client) readAll(h int64) string {
	c.t.Helper()
	var out []byte
	for {
		var r vfsproto.ReadResult
		c.ok(vfsproto.OpRead, vfsproto.ReadParams{H: h, Max: vfsproto.MaxRead}, &r)
		out = append(out, r.Data...)
		if r.EOF {
			return string(out)
		}
		if len(r.Data) == 0 {
			c.t.Fatal("empty read without eof")
		}
	}
}

// write writes data to h.
func (c *client) write(h int64, data string) {
	c.t.Helper()
	var r vfsproto.WriteResult
	c.ok(vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte(data)}, &r)
	if r.Written != len(data) {
		c.t.Fatalf("written %d, want %d", r.Written, len(data))
	}
}

// cat opens, reads and closes path.
func (c *client) cat(path string) string {
	c.t.Helper()
	h := c.open(path, vfsproto.ModeRead)
	s := c.readAll(h)
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	return s
}

// put writes data to path with mode and closes it.
func (c *client) put(path string, mode vfsproto.Mode, data string) {
	c.t.Helper()
	h := c.open(path, mode)
	c.write(h, data)
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
}

// rawFrame builds a frame header announcing n bytes.
func rawFrame(n uint32) []byte {
	return binary.BigEndian.AppendUint32(nil, n)
}

// writeFile writes a file for a test tree.
func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readFile reads a host file in a test.
func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tree is the standard test layout: in/ (read-only), out/ (writable),
// secret/ (not granted) under one temp dir.
type tree struct {
	dir, in, out, secret string
}

func newTree(t testing.TB) tree {
	t.Helper()
	dir := t.TempDir()
	tr := tree{dir: dir, in: filepath.Join(dir, "in"), out: filepath.Join(dir, "out"), secret: filepath.Join(dir, "secret")}
	writeFile(t, filepath.Join(tr.in, "a.txt"), "hello\n")
	writeFile(t, filepath.Join(tr.in, "sub", "b.txt"), "bee\n")
	writeFile(t, filepath.Join(tr.out, "o.txt"), "old\n")
	writeFile(t, filepath.Join(tr.secret, "s.txt"), "secret\n")
	return tr
}

func (tr tree) config() Config {
	return Config{Inputs: []string{tr.in}, Outputs: []string{tr.out}, Dir: tr.dir}
}

var _ = io.EOF

func mustUnmarshal(t testing.TB, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
}

// mkdirAll makes the virtual directory dir and its missing ancestors, as
// `mkdir -p` does one level at a time (a write outside the grants needs
// its parent to exist, as open(2) with O_CREAT does).
func (c *client) mkdirAll(dir string) {
	c.t.Helper()
	end := 0
	for end < len(dir) {
		next := strings.IndexByte(dir[end+1:], '/')
		if next < 0 {
			end = len(dir)
		} else {
			end += 1 + next
		}
		c.code(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: dir[:end]}) // EEXIST is fine
	}
	var st vfsproto.StatResult
	c.ok(vfsproto.OpStat, vfsproto.PathParams{Path: dir}, &st)
	if !st.IsDir {
		c.t.Fatalf("mkdirAll %s: not a directory", dir)
	}
}
