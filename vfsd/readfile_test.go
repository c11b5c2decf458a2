package vfsd

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestReadFile: read_file answers as open, read_bulk and close would, in
// one request: the first max bytes with eof when they are the whole file,
// open's errors and policy (missing, directory, hidden, outside the
// grants, virtual files), and nothing without hello's read_file (which
// needs read_bulk).
func TestReadFile(t *testing.T) {
	tr, hist, s := readFileTree(t)

	readFile := func(c *client, name string, max int) (string, bool, *vfsproto.Error) {
		t.Helper()
		resp := c.call(vfsproto.OpReadFile, vfsproto.ReadFileParams{Path: name, Max: max})
		if !resp.OK {
			return "", false, resp.Error
		}
		var r vfsproto.ReadBulkResult
		if err := json.Unmarshal(resp.Result, &r); err != nil {
			t.Fatal(err)
		}
		data := make([]byte, r.Size)
		if _, err := io.ReadFull(c.r, data); err != nil {
			t.Fatal(err)
		}
		return string(data), r.EOF, nil
	}

	c := connect(t, s)
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadBulk, vfsproto.FeatureReadFile}}, &hr)
	if !slices.Contains(hr.Features, vfsproto.FeatureReadFile) || !slices.Contains(hr.Ops, vfsproto.OpReadFile) {
		t.Fatalf("hello = %+v", hr)
	}
	for _, tc := range []struct {
		name string
		max  int
		data string
		eof  bool
	}{
		{"in/ten", 100, "0123456789", true},
		{"in/ten", 11, "0123456789", true},
		{"in/ten", 10, "0123456789", false}, // the end is not known yet
		{"in/ten", 4, "0123", false},
		{"in/empty", 1, "", true},
		{filepath.Join(tr.in, "sub", "b.txt"), 64, "bee\n", true},
	} {
		if data, eof, e := readFile(c, tc.name, tc.max); e != nil || data != tc.data || eof != tc.eof {
			t.Errorf("read_file %s max %d: %q eof %v (%v), want %q eof %v", tc.name, tc.max, data, eof, e, tc.data, tc.eof)
		}
	}
	c.put("/tmp/v.txt", vfsproto.ModeWrite, "virtual\n")
	if data, eof, e := readFile(c, "/tmp/v.txt", 100); e != nil || data != "virtual\n" || !eof {
		t.Errorf("read_file of a virtual file: %q %v %v", data, eof, e)
	}
	// As open answers them.
	for _, name := range []string{"in/nope", "in/sub", hist, filepath.Join(tr.secret, "s.txt"), "/etc/passwd"} {
		_, _, e := readFile(c, name, 100)
		want := c.errOf(vfsproto.OpOpen, vfsproto.OpenParams{Path: name, Mode: vfsproto.ModeRead})
		if e == nil || want == nil || *e != *want {
			t.Errorf("read_file %s: %v, want open's %v", name, e, want)
		}
	}
	if _, _, e := readFile(c, "in/ten", 0); e == nil || e.Code != vfsproto.EArg {
		t.Errorf("read_file max 0: %v", e)
	}
	if _, _, e := readFile(c, "in/ten", vfsproto.MaxBulkRead+1); e == nil || e.Code != vfsproto.ERange {
		t.Errorf("read_file max over MaxBulkRead: %v", e)
	}
	if data, err := os.ReadFile(hist); err != nil || data == nil || !strings.HasPrefix(string(data), "secret") {
		t.Fatalf("the hidden file changed: %q %v", data, err)
	}

	// Not negotiated (or without read_bulk): an unknown operation.
	for _, features := range [][]string{nil, {vfsproto.FeatureReadFile}} {
		c2 := connect(t, s)
		hr = vfsproto.HelloResult{}
		c2.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: features}, &hr)
		if slices.Contains(hr.Features, vfsproto.FeatureReadFile) {
			t.Fatalf("hello %v = %+v", features, hr)
		}
		if code := c2.code(vfsproto.OpReadFile, vfsproto.ReadFileParams{Path: "in/ten", Max: 10}); code != vfsproto.EUnsupported {
			t.Errorf("read_file without it (features %v): %s", features, code)
		}
	}
}

// readFileTree is the tree of the read_file and read_files tests: in/ten
// (ten bytes), in/empty, and a hidden file out/history; it returns the
// tree, the hidden file's path and a server on it.
func readFileTree(t *testing.T) (tree, string, *Server) {
	tr := newTree(t)
	writeFile(t, filepath.Join(tr.in, "ten"), "0123456789")
	writeFile(t, filepath.Join(tr.in, "empty"), "")
	hist := filepath.Join(tr.out, "history")
	writeFile(t, hist, "secret\n")
	cfg := tr.config()
	cfg.Hidden = []string{hist}
	return tr, hist, newServer(t, cfg)
}

// TestHelloBeforeNextRequest: a request sent right behind hello, without
// waiting for hello's answer, is served with what hello negotiated (the
// reader answers hello itself before it reads on), and the answers come
// in the order of the requests.
func TestHelloBeforeNextRequest(t *testing.T) {
	_, _, s := readFileTree(t)
	for i := 0; i < 20; i++ {
		c := connect(t, s)
		hid, hello := c.request(vfsproto.OpHello, vfsproto.HelloParams{Version: 1,
			Features: []string{vfsproto.FeatureReadBulk, vfsproto.FeatureReadFile}})
		rid, read := c.request(vfsproto.OpReadFile, vfsproto.ReadFileParams{Path: "in/ten", Max: 100})
		c.send(hello)
		c.send(read)
		if resp := c.recv(); resp.ID != hid || !resp.OK {
			t.Fatalf("first answer %+v, want hello's (id %s)", resp, hid)
		}
		resp := c.recv()
		if resp.ID != rid || !resp.OK {
			t.Fatalf("read_file right after hello: %+v (error %v)", resp, resp.Error)
		}
		var r vfsproto.ReadBulkResult
		mustUnmarshal(t, resp.Result, &r)
		data := make([]byte, r.Size)
		if _, err := io.ReadFull(c.r, data); err != nil || string(data) != "0123456789" {
			t.Fatalf("read_file data %q (%v)", data, err)
		}
		if err := c.hangUp(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadFileLoneAndTogether: a read_file sent alone (which the reader
// runs itself) and read_files sent together in one write (which go to
// workers) are each answered with their file, under their id.
func TestReadFileLoneAndTogether(t *testing.T) {
	tr, _, s := readFileTree(t)
	for i := 0; i < 8; i++ {
		writeFile(t, filepath.Join(tr.in, "f"+strconv.Itoa(i)), strings.Repeat(strconv.Itoa(i), 1000+i))
	}
	c := connect(t, s)
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadBulk, vfsproto.FeatureReadFile}}, nil)
	check := func(resp vfsproto.Response, want string) {
		t.Helper()
		if !resp.OK {
			t.Fatalf("read_file: %v", resp.Error)
		}
		var r vfsproto.ReadBulkResult
		mustUnmarshal(t, resp.Result, &r)
		data := make([]byte, r.Size)
		if _, err := io.ReadFull(c.r, data); err != nil || string(data) != want || !r.EOF {
			t.Fatalf("read_file: %d bytes %q... eof %v (%v), want %d bytes", len(data), data[:min(len(data), 8)], r.EOF, err, len(want))
		}
	}
	for round := 0; round < 3; round++ {
		// Alone.
		id, b := c.request(vfsproto.OpReadFile, vfsproto.ReadFileParams{Path: "in/ten", Max: 100})
		c.send(b)
		resp := c.recv()
		if resp.ID != id {
			t.Fatalf("answer %s, want %s", resp.ID, id)
		}
		check(resp, "0123456789")
		// Together, in one write.
		var batch []byte
		want := map[string]string{}
		for i := 0; i < 8; i++ {
			id, b := c.request(vfsproto.OpReadFile, vfsproto.ReadFileParams{Path: "in/f" + strconv.Itoa(i), Max: 4096})
			want[id] = strings.Repeat(strconv.Itoa(i), 1000+i)
			batch = append(batch, rawFrame(uint32(len(b)))...)
			batch = append(batch, b...)
		}
		if _, err := c.w.Write(batch); err != nil {
			t.Fatal(err)
		}
		for range 8 {
			resp := c.recv()
			w, ok := want[resp.ID]
			if !ok {
				t.Fatalf("answer to %q, asked for none", resp.ID)
			}
			delete(want, resp.ID)
			check(resp, w)
		}
	}
}
