package vfsd

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// namesTree adds to newTree what a walk meets: links (inside, leaving
// the tree, dangling), a FIFO, a name with a newline, a nested grant
// and an unreadable directory.
func namesTree(t *testing.T) (tree, Config) {
	tr := newTree(t)
	for _, l := range [][2]string{{"a.txt", "link"}, {"../secret/s.txt", "away"}, {"missing", "dangling"}, {"sub", "dirlink"}} {
		if err := os.Symlink(l[0], filepath.Join(tr.in, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(tr.in, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(tr.in, "new\nline"), "x\n")
	writeFile(t, filepath.Join(tr.in, "shut", "f"), "x\n")
	if err := os.Chmod(filepath.Join(tr.in, "shut"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(tr.in, "shut"), 0o755) })
	cfg := tr.config()
	cfg.Outputs = append(cfg.Outputs, filepath.Join(tr.in, "sub"))
	return tr, cfg
}

// TestListNames: a listing of names has the full listing's names in its
// order, each entry's kind is what lstat says of it, and exactly the
// directories carry lstat's answer, with or without list_stat: in real
// directories (read by getdents), in one with a nested grant, in an
// ancestor of the grants and among virtual files. Its errors are the
// full listing's.
func TestListNames(t *testing.T) {
	tr, cfg := namesTree(t)
	s := newServer(t, cfg)
	for _, feats := range [][]string{nil, {vfsproto.FeatureListStat}} {
		c := connect(t, s)
		c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: feats}, nil)
		c.put("/tmp/v.txt", vfsproto.ModeWrite, "virtual\n")
		for _, dir := range []string{tr.in, filepath.Join(tr.in, "sub"), tr.dir, "/tmp", "/"} {
			var full, names vfsproto.ListResult
			c.ok(vfsproto.OpList, vfsproto.ListParams{Path: dir}, &full)
			c.ok(vfsproto.OpList, vfsproto.ListParams{Path: dir, Names: true}, &names)
			if len(full.Entries) != len(names.Entries) {
				t.Fatalf("%v list %s: %d entries, names %d", feats, dir, len(full.Entries), len(names.Entries))
			}
			for i, en := range names.Entries {
				if en.Name != full.Entries[i].Name {
					t.Errorf("%v list %s: names entry %d is %q, want %q", feats, dir, i, en.Name, full.Entries[i].Name)
					continue
				}
				if en.IsDir || en.Size != 0 || en.Symlink || en.Type != "" {
					t.Errorf("%v list %s: names entry %+v has more than a name and kind", feats, dir, en)
				}
				var want vfsproto.StatResult
				c.ok(vfsproto.OpLstat, vfsproto.PathParams{Path: filepath.Join(dir, en.Name)}, &want)
				want.Atime = 0 // lstat's alone
				if kind := kindOfStat(&want); en.Kind != kind {
					t.Errorf("%v list %s: %q has kind %q, want %q", feats, dir, en.Name, en.Kind, kind)
				}
				switch {
				case want.IsDir && (en.Lstat == nil || *en.Lstat != want):
					t.Errorf("%v list %s: directory %q has lstat %+v, want %+v", feats, dir, en.Name, en.Lstat, want)
				case !want.IsDir && en.Lstat != nil:
					t.Errorf("%v list %s: %q (not a directory) has lstat %+v", feats, dir, en.Name, en.Lstat)
				}
			}
		}
		bad := []string{filepath.Join(tr.in, "a.txt"), tr.secret, filepath.Join(tr.in, "nope"),
			filepath.Join(tr.in, "../secret"), filepath.Join(tr.in, "away"), filepath.Join(tr.in, "dangling"), "/tmp/v.txt", "rel\x00nul", ""}
		if os.Geteuid() != 0 { // root reads a directory of mode 0
			bad = append(bad, filepath.Join(tr.in, "shut"))
		}
		for _, p := range bad {
			want := c.code(vfsproto.OpList, vfsproto.ListParams{Path: p})
			if got := c.code(vfsproto.OpList, vfsproto.ListParams{Path: p, Names: true}); got != want || want == "" {
				t.Errorf("list %q names: %q, full listing %q", p, got, want)
			}
		}
		// Through a link to a directory inside the tree, as the full
		// listing goes.
		var viaLink vfsproto.ListResult
		c.ok(vfsproto.OpList, vfsproto.ListParams{Path: filepath.Join(tr.in, "dirlink"), Names: true}, &viaLink)
		if len(viaLink.Entries) != 1 || viaLink.Entries[0].Name != "b.txt" || viaLink.Entries[0].Kind != vfsproto.KindFile {
			t.Errorf("list dirlink names = %+v", viaLink.Entries)
		}
	}
}

// TestListNamesRequests: the parameter is read alike by the fast path and
// by encoding/json (other key orders, spaces); "names": false is the full
// listing; a names of another type is E_ARG.
func TestListNamesRequests(t *testing.T) {
	tr, cfg := namesTree(t)
	s := newServer(t, cfg)
	c := connect(t, s)
	q := vfsproto.AppendJSONString(nil, tr.in)
	for _, tc := range []struct {
		frame string
		want  string // "names", "full" or an error code
	}{
		{`{"id":"1","op":"list","params":{"path":` + string(q) + `,"names":true}}`, "names"},
		{`{"id":"1","op":"list","params":{"names":true,"path":` + string(q) + `}}`, "names"},
		{`{"id":"1", "op":"list","params":{"path":` + string(q) + `, "names": true}}`, "names"},
		{`{"op":"list","params":{"path":` + string(q) + `,"names":true},"id":"1"}`, "names"},
		{`{"id":"1","op":"list","params":{"path":` + string(q) + `,"names":false}}`, "full"},
		{`{"id":"1","op":"list","params":{"path":` + string(q) + `,"names":null}}`, "full"},
		{`{"id":"1","op":"list","params":{"path":` + string(q) + `,"names":"true"}}`, string(vfsproto.EArg)},
		{`{"id":"1","op":"list","params":{"path":` + string(q) + `,"names":1}}`, string(vfsproto.EArg)},
		{`{"id":"1","op":"list","params":{"path":` + string(q) + `,"names":true,"names":true}}`, "names"},
		{`{"id":"1","op":"list","params":{"path":` + string(q) + `,"names":tru}}`, string(vfsproto.EArg)},
		{`{"id":"1","op":"list","params":{"names":true}}`, string(vfsproto.EArg)},
	} {
		c.send([]byte(tc.frame))
		resp := c.recv()
		got := ""
		switch {
		case !resp.OK:
			got = string(resp.Error.Code)
		case strings.Contains(string(resp.Result), `"kind":`):
			got = "names"
		case strings.Contains(string(resp.Result), `"is_dir":`):
			got = "full"
		}
		if got != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.frame, got, resp.Result, tc.want)
		}
	}
}

// TestListNamesChanging: a directory whose entries come and go while it
// is listed by names is listed without an error, each name once, and
// the files that stay are always there.
func TestListNamesChanging(t *testing.T) {
	tr := newTree(t)
	dir := filepath.Join(tr.in, "busy")
	for i := range 200 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("stay%03d", i)), "")
	}
	s := newServer(t, tr.config())
	c := connect(t, s)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			p := filepath.Join(dir, fmt.Sprintf("churn%d", i%50))
			if i%2 == 0 {
				os.Mkdir(p, 0o755)
			} else {
				os.Remove(p)
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()
	for range 50 {
		var ls vfsproto.ListResult
		c.ok(vfsproto.OpList, vfsproto.ListParams{Path: dir, Names: true}, &ls)
		seen := map[string]bool{}
		stay := 0
		for _, en := range ls.Entries {
			if seen[en.Name] {
				t.Fatalf("%q listed twice", en.Name)
			}
			seen[en.Name] = true
			if strings.HasPrefix(en.Name, "stay") {
				stay++
			}
			if strings.HasPrefix(en.Name, "churn") && (en.Kind != vfsproto.KindDir || en.Lstat == nil || !en.Lstat.IsDir) {
				t.Fatalf("churning directory listed as %+v", en)
			}
		}
		if stay != 200 {
			t.Fatalf("%d of the 200 files that stay listed", stay)
		}
	}
}

// TestNextDirent: records that do not fit in the buffer getdents filled
// (a length of 0, shorter than the header, past the end) are refused,
// never read past or looped on.
func TestNextDirent(t *testing.T) {
	rec := func(reclen uint16, typ byte, name string) []byte {
		b := make([]byte, 19, 19+len(name)+1)
		binary.NativeEndian.PutUint16(b[16:], reclen)
		b[18] = typ
		return append(append(b, name...), 0)
	}
	good := rec(24, syscall.DT_REG, "abcd")
	if name, typ, rest, ok := nextDirent(good); !ok || name != "abcd" || typ != syscall.DT_REG || len(rest) != 0 {
		t.Errorf("nextDirent(good) = %q %d %d %v", name, typ, len(rest), ok)
	}
	unterminated := good[:23]
	binary.NativeEndian.PutUint16(unterminated[16:], 23)
	if name, _, _, ok := nextDirent(unterminated); !ok || name != "abcd" {
		t.Errorf("nextDirent(no NUL) = %q %v", name, ok)
	}
	for _, b := range [][]byte{nil, good[:10], rec(0, 0, "x"), rec(18, 0, "x"), rec(200, 0, "x")} {
		if _, _, _, ok := nextDirent(b); ok {
			t.Errorf("nextDirent(%x) accepted", b)
		}
	}
}
