package vfsd

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// readBulk sends a read_bulk request and returns the answer and the raw
// data that followed it.
func (c *client) readBulk(h int64, max int) (vfsproto.Response, []byte) {
	c.t.Helper()
	resp := c.call(vfsproto.OpReadBulk, vfsproto.ReadParams{H: h, Max: max})
	return resp, c.bulkData(resp)
}

// bulkData reads the data announced by a read_bulk answer (none after an
// error).
func (c *client) bulkData(resp vfsproto.Response) []byte {
	c.t.Helper()
	if !resp.OK {
		return nil
	}
	var r vfsproto.ReadBulkResult
	mustUnmarshal(c.t, resp.Result, &r)
	if r.Size < 0 || r.Size > vfsproto.MaxBulkRead {
		c.t.Fatalf("read_bulk size %d", r.Size)
	}
	if r.EOF != (r.Size == 0) {
		c.t.Fatalf("read_bulk %s: eof must be set exactly when size is 0", resp.Result)
	}
	data := make([]byte, r.Size)
	if _, err := io.ReadFull(c.r, data); err != nil {
		c.t.Fatalf("read_bulk data: %v", err)
	}
	return data
}

// helloBulk negotiates read_bulk.
func (c *client) helloBulk() vfsproto.HelloResult {
	c.t.Helper()
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{"something-else", vfsproto.FeatureReadBulk}}, &hr)
	return hr
}

// read_bulk is an extension that changes the stream (raw bytes after a
// frame): without hello asking for it, it is an unknown operation, and a
// plain hello announces nothing of it.
func TestReadBulkNeedsHello(t *testing.T) {
	tr := newTree(t)
	c := connect(t, newServer(t, tr.config()))
	h := c.open("in/a.txt", vfsproto.ModeRead)
	if code := c.code(vfsproto.OpReadBulk, vfsproto.ReadParams{H: h, Max: 10}); code != vfsproto.EUnsupported {
		t.Fatalf("read_bulk before hello: %q", code)
	}
	// The slow path (not the canonical shape) says the same.
	c.send([]byte(`{"op":"read_bulk","id":"x","params":{"h":3,"max":10}}`))
	if resp := c.recv(); resp.OK || resp.Error.Code != vfsproto.EUnsupported {
		t.Fatalf("read_bulk (slow path) before hello: %+v", resp)
	}
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1}, &hr)
	if len(hr.Features) != 0 || hr.MaxBulkRead != 0 || slices.Contains(hr.Ops, vfsproto.OpReadBulk) {
		t.Fatalf("plain hello = %+v", hr)
	}
	if code := c.code(vfsproto.OpReadBulk, vfsproto.ReadParams{H: h, Max: 10}); code != vfsproto.EUnsupported {
		t.Fatalf("read_bulk after a plain hello: %q", code)
	}
	// The base64 read still works, and the stream is intact.
	if got := c.readAll(h); got != "hello\n" {
		t.Fatalf("read = %q", got)
	}
}

// connectMem is connect with an output that is not a descriptor, so
// read_bulk data goes through memory instead of splice(2).
func connectMem(t testing.TB, s *Server) *client {
	t.Helper()
	return connectWith(t, func(r io.Reader, w *os.File) error { return s.Serve(r, struct{ io.Writer }{w}) })
}

func TestReadBulk(t *testing.T) {
	t.Run("splice", func(t *testing.T) { testReadBulk(t, connect) })
	t.Run("memory", func(t *testing.T) { testReadBulk(t, connectMem) })
}

func testReadBulk(t *testing.T, connect func(testing.TB, *Server) *client) {
	tr := newTree(t)
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 3<<16) // 3.2 MiB, not a multiple of 1 MiB
	writeFile(t, filepath.Join(tr.in, "big"), string(big))
	s := newServer(t, tr.config())
	c := connect(t, s)
	hr := c.helloBulk()
	if !slices.Equal(hr.Features, []string{vfsproto.FeatureReadBulk}) || hr.MaxBulkRead != vfsproto.MaxBulkRead ||
		!slices.Contains(hr.Ops, vfsproto.OpReadBulk) || len(hr.Ops) != 20 {
		t.Fatalf("hello = %+v", hr)
	}

	// Whole file in 1 MiB chunks, then size 0 with eof (and again).
	h := c.open("in/big", vfsproto.ModeRead)
	var got []byte
	for {
		resp, data := c.readBulk(h, vfsproto.MaxBulkRead)
		if !resp.OK {
			t.Fatalf("read_bulk: %+v", resp.Error)
		}
		if len(data) == 0 {
			break
		}
		got = append(got, data...)
	}
	if !bytes.Equal(got, big) {
		t.Fatalf("read %d bytes, want the %d of the file", len(got), len(big))
	}
	if resp, data := c.readBulk(h, 5); string(resp.Result) != `{"size":0,"eof":true}` || len(data) != 0 {
		t.Fatalf("read_bulk at end: %s", resp.Result)
	}

	// From an offset that is not page aligned (1 MiB then spans one
	// page more than a pipe of 1 MiB holds: answers may be short).
	for _, off := range []int64{1, 4095, 1<<20 + 17} {
		c.ok(vfsproto.OpSeek, vfsproto.SeekParams{H: h, Offset: off, Whence: vfsproto.SeekSet}, nil)
		var rest []byte
		for {
			_, data := c.readBulk(h, vfsproto.MaxBulkRead)
			if len(data) == 0 {
				break
			}
			rest = append(rest, data...)
		}
		if !bytes.Equal(rest, big[off:]) {
			t.Fatalf("from offset %d: %d bytes, want %d", off, len(rest), len(big)-int(off))
		}
	}

	// Small max, seek, and read and read_bulk mixed on one handle.
	c.ok(vfsproto.OpSeek, vfsproto.SeekParams{H: h, Offset: 3, Whence: vfsproto.SeekSet}, nil)
	if _, data := c.readBulk(h, 4); string(data) != "3456" {
		t.Fatalf("read_bulk after seek = %q", data)
	}
	var rr vfsproto.ReadResult
	c.ok(vfsproto.OpRead, vfsproto.ReadParams{H: h, Max: 3}, &rr)
	if string(rr.Data) != "789" {
		t.Fatalf("read after read_bulk = %q", rr.Data)
	}

	// Errors carry no data: each is followed directly by the next frame.
	wh := c.open("out/w.txt", vfsproto.ModeWrite)
	for _, tc := range []struct {
		p    vfsproto.ReadParams
		code vfsproto.Code
	}{
		{vfsproto.ReadParams{H: h, Max: 0}, vfsproto.EArg},
		{vfsproto.ReadParams{H: h, Max: -1}, vfsproto.EArg},
		{vfsproto.ReadParams{H: h, Max: vfsproto.MaxBulkRead + 1}, vfsproto.ERange},
		{vfsproto.ReadParams{H: wh, Max: 10}, vfsproto.EPerm},
		{vfsproto.ReadParams{H: 1, Max: 10}, vfsproto.EPerm},
		{vfsproto.ReadParams{H: 999, Max: 10}, vfsproto.ENoEnt},
	} {
		if resp, _ := c.readBulk(tc.p.H, tc.p.Max); resp.OK || resp.Error.Code != tc.code {
			t.Errorf("read_bulk %+v = %+v, want %s", tc.p, resp, tc.code)
		}
	}
	c.send([]byte(`{"id":"m","op":"read_bulk","params":{"h":3}}`))
	if resp := c.recv(); resp.OK || resp.Error.Code != vfsproto.EArg {
		t.Fatalf("read_bulk without max: %+v", resp)
	}
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	if resp, _ := c.readBulk(h, 10); resp.OK || resp.Error.Code != vfsproto.EClosed {
		t.Fatalf("read_bulk on a closed handle: %+v", resp)
	}

	// The slow path (keys in another order) gives the same answer.
	a := c.open("in/a.txt", vfsproto.ModeRead)
	id, _ := c.request("", nil)
	c.send([]byte(`{"params": {"max": 100, "h": ` + jsonInt(a) + `}, "op": "read_bulk", "id": "` + id + `"}`))
	resp := c.recv()
	if data := c.bulkData(resp); resp.ID != id || string(data) != "hello\n" {
		t.Fatalf("slow-path read_bulk: %+v %q", resp, data)
	}

	// A virtual file, and a read-write handle.
	c.mkdirAll("/elsewhere")
	c.put("/elsewhere/v.txt", vfsproto.ModeWrite, "virtual bytes")
	v := c.open("/elsewhere/v.txt", vfsproto.ModeReadWrite)
	if _, data := c.readBulk(v, 100); string(data) != "virtual bytes" {
		t.Fatalf("read_bulk of a virtual file = %q", data)
	}

	// Counters count read_bulk as reads.
	var st vfsproto.StatsResult
	c.ok(vfsproto.OpStats, nil, &st)
	if st.BytesOut != 4*int64(len(big))-1-4095-(1<<20+17)+4+3+6+13 {
		t.Fatalf("bytes_out = %d", st.BytesOut)
	}
}

// Many read_bulk requests sent at once on several handles, before any
// answer is read: the server holds at most a few buffers (the rest wait)
// and every answer arrives whole, in order per handle.
func TestReadBulkPipelined(t *testing.T) {
	t.Run("splice", func(t *testing.T) { testReadBulkPipelined(t, connect) })
	t.Run("memory", func(t *testing.T) { testReadBulkPipelined(t, connectMem) })
}

func testReadBulkPipelined(t *testing.T, connect func(testing.TB, *Server) *client) {
	tr := newTree(t)
	files := map[string][]byte{}
	for i, name := range []string{"p1", "p2", "p3"} {
		files[name] = bytes.Repeat([]byte{byte('a' + i)}, 5<<20+i)
		writeFile(t, filepath.Join(tr.in, name), string(files[name]))
	}
	c := connect(t, newServer(t, tr.config()))
	c.helloBulk()
	handles := map[string]int64{}
	for name := range files {
		handles[name] = c.open("in/"+name, vfsproto.ModeRead)
	}
	ids := map[string]string{} // request id -> file
	var batch []byte
	for range 7 {
		for name, h := range handles {
			id, b := c.request(vfsproto.OpReadBulk, vfsproto.ReadParams{H: h, Max: vfsproto.MaxBulkRead})
			ids[id] = name
			batch, _ = vfsproto.AppendFrame(batch, b)
		}
	}
	go c.w.Write(batch) // larger than a pipe: written while answers are read
	got := map[string][]byte{}
	for range ids {
		resp := c.recv()
		name, ok := ids[resp.ID]
		if !ok || !resp.OK {
			t.Fatalf("answer %+v", resp)
		}
		got[name] = append(got[name], c.bulkData(resp)...)
	}
	for name, want := range files {
		if !bytes.Equal(got[name], want) {
			t.Errorf("%s: %d bytes read, want %d", name, len(got[name]), len(want))
		}
	}
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return strings.TrimSpace(string(b))
}

// writeBulkFrame is a write_bulk request followed by its data.
func (c *client) writeBulkFrame(h int64, data []byte) (string, []byte) {
	id, b := c.request(vfsproto.OpWriteBulk, vfsproto.WriteBulkParams{H: h, Size: len(data)})
	f, err := vfsproto.AppendFrame(nil, b)
	if err != nil {
		c.t.Fatal(err)
	}
	return id, append(f, data...)
}

// writeBulk sends a write_bulk and returns its answer.
func (c *client) writeBulk(h int64, data []byte) vfsproto.Response {
	c.t.Helper()
	id, b := c.writeBulkFrame(h, data)
	go c.w.Write(b) // may exceed the pipe: written while the answer is read
	resp := c.recv()
	if resp.ID != id {
		c.t.Fatalf("write_bulk answer id %q, want %q", resp.ID, id)
	}
	return resp
}

func TestWriteBulk(t *testing.T) {
	tr := newTree(t)
	cfg := tr.config()
	cfg.MaxVirtualBytes = 100
	s := newServer(t, cfg)
	c := connect(t, s)
	h := c.open("out/w.txt", vfsproto.ModeWrite)

	// Without hello asking for it: an unknown operation, nothing read
	// after the frame, the connection goes on.
	if code := c.code(vfsproto.OpWriteBulk, vfsproto.WriteBulkParams{H: h, Size: 0}); code != vfsproto.EUnsupported {
		t.Fatalf("write_bulk before hello: %q", code)
	}
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureWriteBulk}}, &hr)
	if !slices.Equal(hr.Features, []string{vfsproto.FeatureWriteBulk}) || hr.MaxBulkWrite != vfsproto.MaxBulkWrite ||
		hr.MaxBulkRead != 0 || !slices.Contains(hr.Ops, vfsproto.OpWriteBulk) || slices.Contains(hr.Ops, vfsproto.OpReadBulk) {
		t.Fatalf("hello = %+v", hr)
	}

	big := bytes.Repeat([]byte("write_bulk\x00\xff\n"), 100_000) // 1.3 MB: two requests
	want := append([]byte("head "), big...)
	if resp := c.writeBulk(h, []byte("head ")); string(resp.Result) != `{"written":5}` {
		t.Fatalf("write_bulk: %+v", resp)
	}
	for p := big; len(p) > 0; {
		n := min(len(p), vfsproto.MaxBulkWrite)
		if resp := c.writeBulk(h, p[:n]); !resp.OK {
			t.Fatalf("write_bulk: %+v", resp.Error)
		}
		p = p[n:]
	}
	if resp := c.writeBulk(h, nil); string(resp.Result) != `{"written":0}` {
		t.Fatalf("empty write_bulk: %+v", resp)
	}

	// Errors on a handle still consume the data: the next request is
	// read as a request.
	r := c.open("in/a.txt", vfsproto.ModeRead)
	for _, tc := range []struct {
		h    int64
		code vfsproto.Code
	}{{r, vfsproto.EPerm}, {999, vfsproto.ENoEnt}, {2, vfsproto.EPerm}} {
		if resp := c.writeBulk(tc.h, []byte(`{"id":"x","op":"stats"}`)); resp.OK || resp.Error.Code != tc.code {
			t.Errorf("write_bulk on %d: %+v, want %s", tc.h, resp, tc.code)
		}
	}
	// The slow path (another key order).
	id, _ := c.request("", nil)
	payload := []byte(`{"op":"write_bulk","params":{"size":4,"h":` + jsonInt(h) + `},"id":"` + id + `"}`)
	frame, _ := vfsproto.AppendFrame(nil, payload)
	c.w.Write(append(frame, " end"...))
	if resp := c.recv(); resp.ID != id || string(resp.Result) != `{"written":4}` {
		t.Fatalf("slow-path write_bulk: %+v", resp)
	}
	want = append(want, " end"...)
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	if got := readFile(t, filepath.Join(tr.out, "w.txt")); got != string(want) {
		t.Fatalf("file holds %d bytes, want %d", len(got), len(want))
	}

	// A virtual file over its budget: E_RANGE, the stream in step.
	c.mkdirAll("/elsewhere")
	v := c.open("/elsewhere/v", vfsproto.ModeWrite)
	if resp := c.writeBulk(v, make([]byte, 101)); resp.OK || resp.Error.Code != vfsproto.ERange {
		t.Fatalf("write_bulk over the budget: %+v", resp)
	}
	var st vfsproto.StatsResult
	c.ok(vfsproto.OpStats, nil, &st)
	if st.BytesIn != int64(len(want)) {
		t.Fatalf("bytes_in = %d, want %d", st.BytesIn, len(want))
	}
}

// A write_bulk whose data cannot be delimited closes the connection, after
// an answer that says why.
func TestWriteBulkBadSize(t *testing.T) {
	tr := newTree(t)
	for _, tc := range []struct {
		payload string
		code    vfsproto.Code
	}{
		{`{"id":"1","op":"write_bulk","params":{"h":3,"size":1048577}}`, vfsproto.ERange},
		{`{"id":"1","op":"write_bulk","params":{"h":3,"size":-1}}`, vfsproto.ERange},
		{`{"id":"1","op":"write_bulk","params":{"h":3}}`, vfsproto.EArg},
		{`{"id":"1","op":"write_bulk","params":{"h":3,"size":"9"}}`, vfsproto.EArg},
	} {
		c := connect(t, newServer(t, tr.config()))
		var hr vfsproto.HelloResult
		c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureWriteBulk}}, &hr)
		c.send([]byte(tc.payload))
		if resp := c.recv(); resp.OK || resp.Error.Code != tc.code || resp.ID != "1" {
			t.Errorf("%s: %+v, want %s", tc.payload, resp, tc.code)
		}
		if _, err := vfsproto.ReadFrame(c.r, nil); err != io.EOF {
			t.Errorf("%s: connection not closed (%v)", tc.payload, err)
		}
		if err := c.hangUp(); err == nil {
			t.Errorf("%s: Serve returned nil", tc.payload)
		}
	}
	// Data cut short by the end of the stream.
	c := connect(t, newServer(t, tr.config()))
	c.helloBulk()
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureWriteBulk}}, nil)
	h := c.open("out/o.txt", vfsproto.ModeWrite)
	_, b := c.writeBulkFrame(h, []byte("0123456789"))
	c.w.Write(b[:len(b)-3])
	if err := c.hangUp(); err == nil {
		t.Fatal("Serve returned nil after a truncated write_bulk")
	}
	if got := readFile(t, filepath.Join(tr.out, "o.txt")); got != "old\n" {
		t.Fatalf("target changed: %q", got)
	}
}
