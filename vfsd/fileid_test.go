package vfsd

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestFileID checks the id of stat and lstat: equal for two names of one
// file, different for different files, opaque, absent for virtual files.
func TestFileID(t *testing.T) {
	tr, c := treeLayout(t)
	if err := os.Link(filepath.Join(tr.out, "x.txt"), filepath.Join(tr.out, "hard")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("x.txt", filepath.Join(tr.out, "sym")); err != nil {
		t.Fatal(err)
	}
	id := func(op, p string) string {
		t.Helper()
		var st vfsproto.StatResult
		c.ok(op, map[string]string{"path": p}, &st)
		return st.ID
	}
	x := id("stat", "out/x.txt")
	if len(x) != 32 {
		t.Fatalf("id %q: want 32 hex digits", x)
	}
	if h := id("stat", "out/hard"); h != x {
		t.Errorf("hard link id %q, want %q", h, x)
	}
	if s := id("stat", "out/sym"); s != x {
		t.Errorf("followed link id %q, want %q", s, x)
	}
	if l := id("lstat", "out/sym"); l == x || l == "" {
		t.Errorf("lstat of the link: id %q (target %q)", l, x)
	}
	if o := id("stat", "out/o.txt"); o == x || o == "" {
		t.Errorf("another file: id %q (x.txt %q)", o, x)
	}
	if d := id("stat", "out/d"); d == "" || d == x {
		t.Errorf("directory id %q", d)
	}
	if v := id("stat", "/virt/v.txt"); v != "" {
		t.Errorf("virtual file id %q, want none", v)
	}
	if a := id("stat", "/"); a != "" {
		t.Errorf("ancestor id %q, want none", a)
	}
	fi, err := os.Stat(filepath.Join(tr.out, "x.txt"))
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	for _, n := range []uint64{st.Ino, uint64(st.Dev)} {
		if strings.Contains(x, strconv.FormatUint(n, 16)) && n > 0xfffff {
			t.Errorf("id %q shows %x", x, n)
		}
	}
	// A handle's stat names the same file.
	var or vfsproto.OpenResult
	c.ok("open", map[string]string{"path": "out/hard", "mode": "r"}, &or)
	var hs vfsproto.StatResult
	c.ok("stat", map[string]int64{"h": or.Handle}, &hs)
	if hs.ID != x {
		t.Errorf("handle stat id %q, want %q", hs.ID, x)
	}
}
