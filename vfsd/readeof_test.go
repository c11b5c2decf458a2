package vfsd

import (
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// With read_eof negotiated, a read that takes the last bytes of a file
// says eof with them (read and read_bulk, spliced or through memory), a
// read that fills max does not, and a read at the end is size 0 with eof
// as always. Without it, eof keeps its first meaning: nothing was read.
func TestReadEOF(t *testing.T) {
	t.Run("splice", func(t *testing.T) { testReadEOF(t, connect) })
	t.Run("memory", func(t *testing.T) { testReadEOF(t, connectMem) })
}

func testReadEOF(t *testing.T, connect func(testing.TB, *Server) *client) {
	tr := newTree(t)
	writeFile(t, filepath.Join(tr.in, "small"), "hello\n")
	writeFile(t, filepath.Join(tr.in, "ten"), "0123456789")
	s := newServer(t, tr.config())

	// bulk reads a read_bulk answer: its size, eof and data.
	bulk := func(c *client, h int64, max int) (int, bool, string) {
		t.Helper()
		resp := c.call(vfsproto.OpReadBulk, vfsproto.ReadParams{H: h, Max: max})
		if !resp.OK {
			t.Fatalf("read_bulk: %+v", resp.Error)
		}
		var r vfsproto.ReadBulkResult
		if err := json.Unmarshal(resp.Result, &r); err != nil {
			t.Fatal(err)
		}
		data := make([]byte, r.Size)
		if _, err := io.ReadFull(c.r, data); err != nil {
			t.Fatal(err)
		}
		return r.Size, r.EOF, string(data)
	}
	read := func(c *client, h int64) (string, bool) {
		t.Helper()
		var r vfsproto.ReadResult
		c.ok(vfsproto.OpRead, vfsproto.ReadParams{H: h, Max: vfsproto.MaxRead}, &r)
		return string(r.Data), r.EOF
	}

	c := connect(t, s)
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadBulk, vfsproto.FeatureReadEOF}}, &hr)
	if !slices.Contains(hr.Features, vfsproto.FeatureReadEOF) {
		t.Fatalf("hello = %+v", hr)
	}
	h := c.open("in/small", vfsproto.ModeRead)
	if data, eof := read(c, h); data != "hello\n" || !eof {
		t.Fatalf("read of a small file: %q, eof %v; want its bytes with eof", data, eof)
	}
	if data, eof := read(c, h); data != "" || !eof {
		t.Fatalf("read at the end: %q, eof %v", data, eof)
	}
	h = c.open("in/small", vfsproto.ModeRead)
	if n, eof, data := bulk(c, h, vfsproto.MaxBulkRead); n != 6 || !eof || data != "hello\n" {
		t.Fatalf("read_bulk of a small file: %d %v %q", n, eof, data)
	}
	h = c.open("in/ten", vfsproto.ModeRead)
	if n, eof, data := bulk(c, h, 10); n != 10 || eof || data != "0123456789" {
		t.Fatalf("read_bulk that fills max: %d %v %q (the end is not known yet)", n, eof, data)
	}
	if n, eof, _ := bulk(c, h, 10); n != 0 || !eof {
		t.Fatalf("read_bulk at the end: %d %v", n, eof)
	}
	h = c.open("in/ten", vfsproto.ModeRead)
	if n, eof, data := bulk(c, h, 4); n != 4 || eof || data != "0123" {
		t.Fatalf("read_bulk of 4 of 10: %d %v %q", n, eof, data)
	}
	if n, eof, data := bulk(c, h, 100); n != 6 || !eof || data != "456789" {
		t.Fatalf("read_bulk of the rest: %d %v %q", n, eof, data)
	}

	// Not negotiated: the last bytes come without eof, the end after.
	c2 := connect(t, s)
	c2.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadBulk}}, &hr)
	if slices.Contains(hr.Features, vfsproto.FeatureReadEOF) {
		t.Fatalf("hello without read_eof = %+v", hr)
	}
	h = c2.open("in/small", vfsproto.ModeRead)
	if n, eof, data := bulk(c2, h, vfsproto.MaxBulkRead); n != 6 || eof || !strings.HasPrefix(data, "hello") {
		t.Fatalf("read_bulk without read_eof: %d %v %q", n, eof, data)
	}
	if data, eof := read(c2, h); data != "" || !eof {
		t.Fatalf("read at the end without read_eof: %q, %v", data, eof)
	}
}
