package vfsd

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestListStat: with list_stat negotiated, each entry of a listing carries
// exactly what lstat of its path answers (real files, links, a nested
// grant, ancestors of grants, virtual files); without it none does; a
// listing too large for a frame with them comes without them.
func TestListStat(t *testing.T) {
	tr := newTree(t)
	if err := os.Symlink("a.txt", filepath.Join(tr.in, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secret/s.txt", filepath.Join(tr.in, "away")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(tr.in, "a.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	nested := filepath.Join(tr.in, "sub")
	cfg := tr.config()
	cfg.Outputs = append(cfg.Outputs, nested)
	s := newServer(t, cfg)

	c := connect(t, s)
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureListStat}}, &hr)
	if !slices.Contains(hr.Features, vfsproto.FeatureListStat) {
		t.Fatalf("hello = %+v", hr)
	}
	c.put("/tmp/v.txt", vfsproto.ModeWrite, "virtual\n")
	for _, dir := range []string{tr.in, tr.dir, "/tmp", nested} {
		var ls vfsproto.ListResult
		c.ok(vfsproto.OpList, vfsproto.ListParams{Path: dir}, &ls)
		if len(ls.Entries) == 0 {
			t.Fatalf("list %s: no entries", dir)
		}
		for _, en := range ls.Entries {
			var want vfsproto.StatResult
			c.ok(vfsproto.OpLstat, vfsproto.PathParams{Path: path.Join(dir, en.Name)}, &want)
			want.Atime = 0 // lstat's alone
			if en.Lstat == nil || *en.Lstat != want {
				t.Errorf("list %s: entry %s has lstat %+v, want %+v", dir, en.Name, en.Lstat, want)
			}
		}
	}

	plain := connect(t, s)
	var ls vfsproto.ListResult
	plain.ok(vfsproto.OpList, vfsproto.ListParams{Path: tr.in}, &ls)
	for _, en := range ls.Entries {
		if en.Lstat != nil {
			t.Errorf("list without list_stat: entry %s has lstat %+v", en.Name, en.Lstat)
		}
	}

	// 6000 names of 80 bytes fit in a frame, not with their lstat.
	big := filepath.Join(tr.in, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 6000 {
		name := fmt.Sprintf("%s%05d", strings.Repeat("n", 75), i)
		if err := os.WriteFile(filepath.Join(big, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c.ok(vfsproto.OpList, vfsproto.ListParams{Path: big}, &ls)
	if len(ls.Entries) != 6000 {
		t.Fatalf("list of 6000 files: %d entries", len(ls.Entries))
	}
	for _, en := range ls.Entries {
		if en.Lstat != nil {
			t.Fatalf("a listing too large with lstat results carries one: %+v", en)
		}
	}
}

// TestStatAtime: stat and lstat of a real file carry its access time,
// which test -N compares with the modification time; a listing and a
// virtual file carry none (llmsh, session 21).
func TestStatAtime(t *testing.T) {
	tr := newTree(t)
	at, mt := time.Unix(1000000000, 5), time.Unix(2000000000, 7)
	if err := os.Chtimes(filepath.Join(tr.in, "a.txt"), at, mt); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, tr.config())
	c := connect(t, s)
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureListStat}}, &hr)
	for _, op := range []string{vfsproto.OpStat, vfsproto.OpLstat} {
		var st vfsproto.StatResult
		c.ok(op, vfsproto.PathParams{Path: filepath.Join(tr.in, "a.txt")}, &st)
		if st.Atime != at.UnixNano() || st.Mtime != mt.UnixNano() {
			t.Errorf("%s: atime %d mtime %d, want %d %d", op, st.Atime, st.Mtime, at.UnixNano(), mt.UnixNano())
		}
	}
	var ls vfsproto.ListResult
	c.ok(vfsproto.OpList, vfsproto.ListParams{Path: tr.in}, &ls)
	for _, en := range ls.Entries {
		if en.Lstat != nil && en.Lstat.Atime != 0 {
			t.Errorf("list: entry %s has an atime", en.Name)
		}
	}
	c.put("/tmp/v.txt", vfsproto.ModeWrite, "virtual\n")
	var st vfsproto.StatResult
	c.ok(vfsproto.OpStat, vfsproto.PathParams{Path: "/tmp/v.txt"}, &st)
	if st.Atime != 0 {
		t.Errorf("virtual file: atime %d, want none", st.Atime)
	}
}
