package vfsd

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// byteTree is a tree whose host names are not UTF-8: out/a\xffb (a
// file), out/d\xfe/in\xfd (a directory and a file in it), out/l\xfe (a
// link to t\xff).
func byteTree(t *testing.T) (tree, *client) {
	t.Helper()
	tr := newTree(t)
	writeFile(t, filepath.Join(tr.out, "a\xffb"), "one\n")
	writeFile(t, filepath.Join(tr.out, "d\xfe", "in\xfd"), "two\n")
	if err := os.Symlink("t\xff", filepath.Join(tr.out, "l\xfe")); err != nil {
		t.Fatal(err)
	}
	return tr, connect(t, newServer(t, tr.config()))
}

func helloByteNames(t *testing.T, c *client) {
	t.Helper()
	var r vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureByteNames, vfsproto.FeatureWalk}}, &r)
	if !slices.Contains(r.Features, vfsproto.FeatureByteNames) {
		t.Fatalf("hello did not grant byte_names: %+v", r)
	}
}

func listNames(t *testing.T, c *client, path string) []string {
	t.Helper()
	var l vfsproto.ListResult
	c.ok(vfsproto.OpList, vfsproto.ListParams{Path: path}, &l)
	if err := vfsproto.DecodeNames(&l); err != nil {
		t.Fatalf("list %q: %v", path, err)
	}
	var names []string
	for _, e := range l.Entries {
		names = append(names, e.Name)
	}
	return names
}

// TestByteNamesOldClient: a client that does not ask for byte_names sees
// what it always saw: U+FFFD in place of a byte that is not UTF-8 (a name
// it cannot open), and a NUL in a path is refused as always, escape or
// not.
func TestByteNamesOldClient(t *testing.T) {
	_, c := byteTree(t)
	if got := listNames(t, c, "out"); !slices.Contains(got, "a\uFFFDb") {
		t.Errorf("list out = %q, want a\\uFFFDb", got)
	}
	for _, p := range []string{"out/a\uFFFDb", "out/a\xffb"} {
		if code := c.code(vfsproto.OpOpen, vfsproto.OpenParams{Path: p, Mode: "r"}); code != vfsproto.ENoEnt {
			t.Errorf("open %q = %s, want E_NOENT", p, code)
		}
	}
	if code := c.code(vfsproto.OpOpen, vfsproto.OpenParams{Path: "out/a\x00ffb", Mode: "r"}); code != vfsproto.EPerm {
		t.Errorf("open of an escape without byte_names = %s, want E_PERM (a NUL)", code)
	}
}

// TestByteNamesHostFiles: with byte_names every operation reaches host
// files under their own bytes, and answers name them so.
func TestByteNamesHostFiles(t *testing.T) {
	tr, c := byteTree(t)
	helloByteNames(t, c)
	enc := vfsproto.EncodeName
	if got, want := listNames(t, c, "out"), []string{"a\xffb", "d\xfe", "l\xfe", "o.txt"}; !slices.Equal(got, want) {
		t.Errorf("list out = %q, want %q", got, want)
	}
	if got := listNames(t, c, enc("out/d\xfe")); !slices.Equal(got, []string{"in\xfd"}) {
		t.Errorf("list out/d\\xfe = %q", got)
	}
	if got := c.cat(enc("out/a\xffb")); got != "one\n" {
		t.Errorf("cat = %q", got)
	}
	if got := c.cat(enc("out/d\xfe/in\xfd")); got != "two\n" {
		t.Errorf("cat in dir = %q", got)
	}
	var rl vfsproto.ReadlinkResult
	c.ok(vfsproto.OpReadlink, vfsproto.PathParams{Path: enc("out/l\xfe")}, &rl)
	if rl.Target != enc("t\xff") {
		t.Errorf("readlink target = %q, want %q", rl.Target, enc("t\xff"))
	}
	var w vfsproto.WalkResult
	c.ok(vfsproto.OpWalk, vfsproto.WalkParams{Path: "out", Names: true}, &w)
	if err := vfsproto.DecodeNames(&w); err != nil || len(w.Dirs) != 2 || w.Dirs[1].Path != "d\xfe" || w.Dirs[1].Entries[0].Name != "in\xfd" {
		t.Errorf("walk out = %+v, %v: want d\\xfe entered", w.Dirs, err)
	}
	// Create, rename, mkdir, chmod, remove: the host has the bytes.
	c.put(enc("out/n\xfe"), "w", "new\n")
	if got := readFile(t, filepath.Join(tr.out, "n\xfe")); got != "new\n" {
		t.Errorf("host n\\xfe = %q", got)
	}
	c.ok(vfsproto.OpRename, vfsproto.RenameParams{From: enc("out/n\xfe"), To: enc("out/m\xff")}, nil)
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: enc("out/e\xfe")}, nil)
	c.ok(vfsproto.OpChmod, vfsproto.ChmodParams{Path: enc("out/m\xff"), Mode: 0o600}, nil)
	c.ok(vfsproto.OpRemove, vfsproto.PathParams{Path: enc("out/a\xffb")}, nil)
	for _, n := range []string{"m\xff", "e\xfe"} {
		if _, err := os.Lstat(filepath.Join(tr.out, n)); err != nil {
			t.Errorf("host %q: %v", n, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(tr.out, "a\xffb")); !os.IsNotExist(err) {
		t.Errorf("host a\\xffb after remove: %v", err)
	}
	// Virtual names too.
	c.put(enc("/tmp/v\xfe"), "w", "v")
	var vs vfsproto.VirtualsResult
	c.ok(vfsproto.OpVirtuals, nil, &vs)
	if err := vfsproto.DecodeNames(&vs); err != nil || len(vs.Files) != 1 || vs.Files[0].Path != "/tmp/v\xfe" {
		t.Errorf("virtual_files = %+v, %v", vs, err)
	}
	var ct vfsproto.CreateTempResult
	c.ok(vfsproto.OpCreateTemp, vfsproto.CreateTempParams{Prefix: enc("p\xff")}, &ct)
	if err := vfsproto.DecodeNames(&ct); err != nil || filepath.Base(ct.Path)[:2] != "p\xff" {
		t.Errorf("create_temp path = %q, %v", ct.Path, err)
	}
}

// TestByteNamesPolicy: the encoding opens no way out of the grants. A
// spelling that is not canonical (an escape of '/', '.', of a character
// that stands for itself, upper case, truncated, a NUL alone) is E_ARG
// before any policy; an escaped NUL is refused as a NUL is; ".." spelled
// in any allowed way is the same ".." as ever.
func TestByteNamesPolicy(t *testing.T) {
	_, c := byteTree(t)
	helloByteNames(t, c)
	for _, tc := range []struct {
		path string
		code vfsproto.Code
	}{
		{"out/\x002e\x002e/secret/s.txt", vfsproto.EArg},
		{"out\x002f..\x002fsecret/s.txt", vfsproto.EArg},
		{"out/..\x002fsecret/s.txt", vfsproto.EArg},
		{"\x002fsecret/s.txt", vfsproto.EArg},
		{"out/\x00c3\x00a9", vfsproto.EArg},
		{"out/a\x00FFb", vfsproto.EArg},
		{"out/a\x00f", vfsproto.EArg},
		{"out/a\x00", vfsproto.EArg},
		{"out/a\x00\x00ffb", vfsproto.EArg},
		{"out/a\x0000b", vfsproto.EPerm},        // decodes to a NUL
		{"out/../secret/s.txt", vfsproto.EPerm}, // as ever
		{"out/d\x00fe/../../secret/s.txt", vfsproto.EPerm},
		{"out/\x00c0\x00af..\x00c0\x00afsecret", vfsproto.ENoEnt}, // overlong '/' is two bytes of a name
		{"secret/s.txt", vfsproto.ENoEnt},
	} {
		for _, op := range []string{vfsproto.OpOpen, vfsproto.OpStat, vfsproto.OpList, vfsproto.OpRemove} {
			var params any = vfsproto.PathParams{Path: tc.path}
			if op == vfsproto.OpOpen {
				params = vfsproto.OpenParams{Path: tc.path, Mode: "r"}
			}
			if got := c.code(op, params); got != tc.code {
				t.Errorf("%s %q = %q, want %s", op, tc.path, got, tc.code)
			}
		}
	}
	c.ok(vfsproto.OpRename, vfsproto.RenameParams{From: "out/o.txt", To: "out/o2"}, nil)
	if got := c.code(vfsproto.OpRename, vfsproto.RenameParams{From: "out/o2", To: "out/\x002e\x002e/secret/x"}); got != vfsproto.EArg {
		t.Errorf("rename to an escaped .. = %s, want E_ARG", got)
	}
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureByteNames, vfsproto.FeatureReadBulk, vfsproto.FeatureReadFile, vfsproto.FeatureReadFiles}}, nil)
	if got := c.code(vfsproto.OpReadFiles, vfsproto.ReadFilesParams{Paths: []string{"out/o2", "out/\x002e\x002e/secret/s.txt"}, Max: 16}); got != vfsproto.EArg {
		t.Errorf("read_files with an escaped .. = %s, want E_ARG", got)
	}
}

// lockedBuffer is a bytes.Buffer the server's log may write to while the
// test runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// TestByteNamesLog: the audit log names a path in wire form, whatever the
// connection negotiated: a name that is not UTF-8 is not written as
// U+FFFD, which would be another name.
func TestByteNamesLog(t *testing.T) {
	tr := newTree(t)
	writeFile(t, filepath.Join(tr.out, "a\xffb"), "one\n")
	var log lockedBuffer
	cfg := tr.config()
	cfg.Log = &log
	c := connect(t, newServer(t, cfg))
	helloByteNames(t, c)
	c.cat(vfsproto.EncodeName("out/a\xffb"))
	c.ok(vfsproto.OpRename, vfsproto.RenameParams{From: vfsproto.EncodeName("out/a\xffb"), To: "out/b"}, nil)
	if err := c.hangUp(); err != nil {
		t.Fatal(err)
	}
	log.mu.Lock()
	text := log.b.String()
	log.mu.Unlock()
	for _, want := range []string{`"op":"open","path":"out/a\u0000ffb"`, `"path":"out/a\u0000ffb","to":"out/b"`} {
		if !strings.Contains(text, want) {
			t.Errorf("log lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, `\ufffd`) || strings.Contains(text, "\uFFFD") {
		t.Errorf("log has U+FFFD:\n%s", text)
	}
}
