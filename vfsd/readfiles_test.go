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

// TestReadFiles: read_files answers for each path what read_file answers
// for it alone (bytes, eof, open's errors and policy: missing, directory,
// hidden, outside the grants, a NUL, virtual files), the bytes one file
// after the other; a request out of its bounds is refused whole, and
// without hello's read_files (which needs read_file) it is unknown.
func TestReadFiles(t *testing.T) {
	tr, hist, s := readFileTree(t)

	type got struct {
		data string
		eof  bool
		err  *vfsproto.Error
	}
	readFile := func(c *client, name string, max int) got {
		t.Helper()
		resp := c.call(vfsproto.OpReadFile, vfsproto.ReadFileParams{Path: name, Max: max})
		if !resp.OK {
			return got{err: resp.Error}
		}
		var r vfsproto.ReadBulkResult
		mustUnmarshal(t, resp.Result, &r)
		data := make([]byte, r.Size)
		if _, err := io.ReadFull(c.r, data); err != nil {
			t.Fatal(err)
		}
		return got{data: string(data), eof: r.EOF}
	}
	readFiles := func(c *client, names []string, max int) ([]got, *vfsproto.Error) {
		t.Helper()
		resp := c.call(vfsproto.OpReadFiles, vfsproto.ReadFilesParams{Paths: names, Max: max})
		if !resp.OK {
			return nil, resp.Error
		}
		var r vfsproto.ReadFilesResult
		mustUnmarshal(t, resp.Result, &r)
		if len(r.Files) != len(names) {
			t.Fatalf("read_files of %d paths: %d answers", len(names), len(r.Files))
		}
		out := make([]got, len(names))
		for i, f := range r.Files {
			data := make([]byte, f.Size)
			if _, err := io.ReadFull(c.r, data); err != nil {
				t.Fatal(err)
			}
			out[i] = got{string(data), f.EOF, f.Error}
		}
		return out, nil
	}

	plain := connect(t, s)
	plain.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadBulk, vfsproto.FeatureReadFiles}}, nil)
	if code := plain.code(vfsproto.OpReadFiles, vfsproto.ReadFilesParams{Paths: []string{"in/ten"}, Max: 10}); code != vfsproto.EUnsupported {
		t.Errorf("read_files without read_file: %s", code)
	}

	c := connect(t, s)
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadBulk, vfsproto.FeatureReadFile, vfsproto.FeatureReadFiles}}, &hr)
	if !slices.Contains(hr.Features, vfsproto.FeatureReadFiles) || !slices.Contains(hr.Ops, vfsproto.OpReadFiles) {
		t.Fatalf("hello = %+v", hr)
	}
	c.put("/tmp/v.txt", vfsproto.ModeWrite, "virtual\n")
	names := []string{"in/ten", "in/nope", "in/empty", "in/sub", hist, filepath.Join(tr.secret, "s.txt"), "/etc/passwd",
		"/tmp/v.txt", filepath.Join(tr.in, "sub", "b.txt"), "in/../secret/s.txt", "in/a\x00.txt", "", "in/ten"}
	for _, max := range []int{1, 4, 10, 11, 1000} {
		all, e := readFiles(c, names, max)
		if e != nil {
			t.Fatalf("read_files max %d: %v", max, e)
		}
		for i, name := range names {
			want := readFile(c, name, max)
			if g := all[i]; g.data != want.data || g.eof != want.eof || (g.err == nil) != (want.err == nil) || g.err != nil && *g.err != *want.err {
				t.Errorf("read_files max %d: %q: %q %v %v, read_file %q %v %v", max, name, g.data, g.eof, g.err, want.data, want.eof, want.err)
			}
		}
	}

	many := make([]string, vfsproto.MaxReadFiles+1)
	for i := range many {
		many[i] = "in/ten"
	}
	for _, tc := range []struct {
		params any
		want   vfsproto.Code
	}{
		{vfsproto.ReadFilesParams{Paths: []string{}, Max: 10}, vfsproto.EArg},
		{vfsproto.ReadFilesParams{Paths: nil, Max: 10}, vfsproto.EArg},
		{vfsproto.ReadFilesParams{Paths: []string{"in/ten"}, Max: 0}, vfsproto.EArg},
		{vfsproto.ReadFilesParams{Paths: []string{"in/ten"}, Max: -1}, vfsproto.EArg},
		{vfsproto.ReadFilesParams{Paths: []string{"in/ten"}, Max: vfsproto.MaxBulkRead + 1}, vfsproto.ERange},
		{vfsproto.ReadFilesParams{Paths: []string{"in/ten", "in/ten"}, Max: vfsproto.MaxBulkRead/2 + 1}, vfsproto.ERange},
		{vfsproto.ReadFilesParams{Paths: many, Max: 1}, vfsproto.ERange},
		{map[string]any{"paths": "in/ten", "max": 10}, vfsproto.EArg},
		{map[string]any{"paths": []any{"in/ten", 3}, "max": 10}, vfsproto.EArg},
		{map[string]any{"paths": []string{"in/ten"}}, vfsproto.EArg},
		{map[string]any{"max": 10}, vfsproto.EArg},
		{map[string]any{"paths": []string{"in/ten"}, "max": 1e300}, vfsproto.EArg},
	} {
		if code := c.code(vfsproto.OpReadFiles, tc.params); code != tc.want {
			t.Errorf("read_files %+v: %q, want %q", tc.params, code, tc.want)
		}
	}
	// The largest request there is: every byte comes, in order.
	writeFile(t, filepath.Join(tr.in, "big"), strings.Repeat("0123456789abcdef", 1<<12))
	full := make([]string, vfsproto.MaxReadFiles)
	for i := range full {
		full[i] = "in/big"
	}
	all, e := readFiles(c, full, vfsproto.MaxBulkRead/vfsproto.MaxReadFiles)
	if e != nil {
		t.Fatal(e)
	}
	for i, g := range all {
		if len(g.data) != 1<<14 || g.eof || g.err != nil || g.data != strings.Repeat("0123456789abcdef", 1<<10) {
			t.Fatalf("big %d: %d bytes, eof %v, %v", i, len(g.data), g.eof, g.err)
		}
	}
	// The connection still speaks frames.
	var st vfsproto.StatsResult
	c.ok(vfsproto.OpStats, nil, &st)
	if b, _ := json.Marshal(st); len(b) == 0 {
		t.Fatal("stats")
	}
}

// TestParseReadFiles: the hand decoder of read_files' parameters reads
// what encoding/json writes as encoding/json reads it, and declines every
// other shape (for decodeParams to judge).
func TestParseReadFiles(t *testing.T) {
	for _, p := range []vfsproto.ReadFilesParams{
		{Paths: []string{"a"}, Max: 1}, {Paths: []string{"/x y/é", "", "b"}, Max: 65536}, {Paths: make([]string, vfsproto.MaxReadFiles), Max: 0},
	} {
		b, _ := json.Marshal(p)
		got, ok := parseReadFiles(b)
		if !ok || !slices.Equal(got.Paths, p.Paths) || got.Max != p.Max {
			t.Errorf("parseReadFiles(%s) = %+v %v", b, got, ok)
		}
	}
	for _, b := range []string{
		`{"paths":[],"max":1}`, `{"paths":["a""b"],"max":1}`, `{"paths":["a",],"max":1}`, `{"paths":["a"],"max":-1}`,
		`{"paths":["a"],"max":01}`, `{"paths":["a"],"max":1,"x":2}`, `{"max":1,"paths":["a"]}`, `{"paths":["a\"b"],"max":1}`,
		`{"paths":["a\u0062"],"max":1}`, `{"paths":["\xff"],"max":1}`, `{"paths":[1],"max":1}`, `{"paths":["a"],"max":1} `,
		`{"paths":["a"]`, `{"paths":["a"],"max":}`, `{"paths":"a","max":1}`,
		`{"paths":[` + strings.TrimSuffix(strings.Repeat(`"a",`, vfsproto.MaxReadFiles+2), ",") + `],"max":1}`,
	} {
		if got, ok := parseReadFiles([]byte(b)); ok {
			t.Errorf("parseReadFiles(%s) = %+v, want it declined", b, got)
		}
	}
}
