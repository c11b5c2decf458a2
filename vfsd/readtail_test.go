package vfsd

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestReadTail: read_tail answers as open, stat, a read at the end and
// close would, in one request: the last max bytes from the offset they
// start at and the file's stat, in the canonical shape (vfsd's hand-read
// path) and another (encoding/json's); open's errors and policy
// (missing, directory, hidden, outside the grants, virtual files); a name
// that is not UTF-8 under byte_names; and nothing without hello's
// read_tail (which needs read_file).
func TestReadTail(t *testing.T) {
	tr, hist, s := readFileTree(t)
	writeFile(t, filepath.Join(tr.in, "n\xfe"), "not utf-8\n")

	readTail := func(c *client, name string, max int, canonical bool) (string, vfsproto.ReadTailResult, *vfsproto.Error) {
		t.Helper()
		var resp vfsproto.Response
		if canonical {
			resp = c.call(vfsproto.OpReadTail, vfsproto.ReadFileParams{Path: name, Max: max})
		} else {
			p, _ := json.Marshal(name)
			c.send([]byte(`{"op":"read_tail","id":"x","params":{"max":` + jsonInt(int64(max)) + `,"path":` + string(p) + `}}`))
			resp = c.recv()
		}
		var r vfsproto.ReadTailResult
		if !resp.OK {
			return "", r, resp.Error
		}
		if err := json.Unmarshal(resp.Result, &r); err != nil {
			t.Fatal(err)
		}
		data := make([]byte, r.Size)
		if _, err := io.ReadFull(c.r, data); err != nil {
			t.Fatal(err)
		}
		return string(data), r, nil
	}

	c := connect(t, s)
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadBulk, vfsproto.FeatureReadFile,
		vfsproto.FeatureReadTail, vfsproto.FeatureByteNames}}, &hr)
	if !slices.Contains(hr.Features, vfsproto.FeatureReadTail) || !slices.Contains(hr.Ops, vfsproto.OpReadTail) {
		t.Fatalf("hello = %+v", hr)
	}
	c.put("/tmp/v.txt", vfsproto.ModeWrite, "virtual\n")
	for _, canonical := range []bool{true, false} {
		for _, tc := range []struct {
			name string
			max  int
			data string
			off  int64
			size int64
		}{
			{"in/ten", 100, "0123456789", 0, 10},
			{"in/ten", 10, "0123456789", 0, 10},
			{"in/ten", 4, "6789", 6, 10},
			{"in/ten", 1, "9", 9, 10},
			{"in/empty", 1, "", 0, 0},
			{filepath.Join(tr.in, "sub", "b.txt"), 2, "e\n", 2, 4},
			{"/tmp/v.txt", 3, "al\n", 5, 8},
			{vfsproto.EncodeName("in/n\xfe"), 6, "utf-8\n", 4, 10},
		} {
			data, r, e := readTail(c, tc.name, tc.max, canonical)
			if e != nil || data != tc.data || r.Off != tc.off || r.Stat.Size != tc.size || r.Stat.IsDir || r.Stat.Type != "" {
				t.Errorf("read_tail %q max %d (canonical %v): %q %+v (%v), want %q from %d of %d",
					tc.name, tc.max, canonical, data, r, e, tc.data, tc.off, tc.size)
			}
		}
		// As open answers them.
		for _, name := range []string{"in/nope", "in/sub", hist, filepath.Join(tr.secret, "s.txt"), "/etc/passwd", "in/n\xfe"} {
			_, _, e := readTail(c, name, 100, canonical)
			want := c.errOf(vfsproto.OpOpen, vfsproto.OpenParams{Path: name, Mode: vfsproto.ModeRead})
			if e == nil || want == nil || *e != *want {
				t.Errorf("read_tail %q: %v, want open's %v", name, e, want)
			}
		}
		if _, _, e := readTail(c, "in/ten", 0, canonical); e == nil || e.Code != vfsproto.EArg {
			t.Errorf("read_tail max 0: %v", e)
		}
		if _, _, e := readTail(c, "in/ten", vfsproto.MaxBulkRead+1, canonical); e == nil || e.Code != vfsproto.ERange {
			t.Errorf("read_tail max over MaxBulkRead: %v", e)
		}
	}
	if data, err := os.ReadFile(hist); err != nil || data == nil || string(data) != "secret\n" {
		t.Fatalf("the hidden file changed: %q %v", data, err)
	}

	// Not negotiated (or without read_file): an unknown operation.
	for _, features := range [][]string{nil, {vfsproto.FeatureReadTail}, {vfsproto.FeatureReadBulk, vfsproto.FeatureReadTail}} {
		c2 := connect(t, s)
		hr = vfsproto.HelloResult{}
		c2.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: features}, &hr)
		if slices.Contains(hr.Features, vfsproto.FeatureReadTail) {
			t.Fatalf("hello %v = %+v", features, hr)
		}
		if code := c2.code(vfsproto.OpReadTail, vfsproto.ReadFileParams{Path: "in/ten", Max: 10}); code != vfsproto.EUnsupported {
			t.Errorf("read_tail without it (features %v): %s", features, code)
		}
	}
}
