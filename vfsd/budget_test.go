package vfsd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestWriteBudget: the bytes a client adds to real files under -o are
// bounded by Config.MaxWriteBytes. A write that crosses the bound writes
// what fits and fails with E_RANGE "file too large" (EFBIG for the
// client); a truncating rewrite is counted again; overwriting in place,
// reading and seeking within the file cost nothing; a write past the end
// pays for the gap; virtual files are not charged; write_budget reports
// the budget and lowers it, never raises it.
func TestWriteBudget(t *testing.T) {
	tr := newTree(t)
	cfg := tr.config()
	// 100 bytes of data and the entries of the new files a, far and b.
	entries := diskEntryCost("a") + diskEntryCost("far") + diskEntryCost("b")
	cfg.MaxWriteBytes = 100 + entries
	s := newServer(t, cfg)
	c := connect(t, s)
	useFree(t, c)
	budget := func(lower *int64) vfsproto.WriteBudgetResult {
		t.Helper()
		var r vfsproto.WriteBudgetResult
		c.ok(vfsproto.OpWriteBudget, vfsproto.WriteBudgetParams{Max: lower}, &r)
		return r
	}
	want := func(used int64) {
		t.Helper()
		if r := budget(nil); r.Max != 100+entries || r.Used != used {
			t.Fatalf("budget %+v, want max %d, used %d", r, 100+entries, used)
		}
	}
	c.put("out/a", "w", strings.Repeat("x", 20)) // 20
	want(20)
	c.put("out/a", "w", strings.Repeat("z", 50)) // a rewrite: 50 more
	want(70)
	c.put("out/a", "a", "0123456789") // 80
	h := c.open("out/a", "rw")
	c.write(h, "overwrite") // in place: free
	c.ok(vfsproto.OpSeek, vfsproto.SeekParams{H: h, Offset: 65, Whence: vfsproto.SeekSet}, nil)
	c.write(h, "12345") // a gap of 5, and 5: 90
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	want(90)
	c.put("/tmp/virtual", "w", strings.Repeat("v", 500)) // not charged
	c.put("out/o.txt", "w", "")                          // shrinks: nothing back
	want(90)
	h = c.open("out/far", "rw")
	c.ok(vfsproto.OpSeek, vfsproto.SeekParams{H: h, Offset: 1 << 40, Whence: vfsproto.SeekSet}, nil)
	if resp := c.call(vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte("x")}); resp.OK {
		t.Fatal("a write a terabyte past the end succeeded")
	}
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	want(90) // nothing written, nothing charged
	h = c.open("out/b", "w")
	resp := c.call(vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte(strings.Repeat("b", 50))})
	if resp.OK || resp.Error.Code != vfsproto.ERange || resp.Error.Message != msgTooLarge {
		t.Fatalf("write past the budget: %+v", resp)
	}
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	if got := readFile(t, filepath.Join(tr.out, "b")); got != strings.Repeat("b", 10) {
		t.Fatalf("what fit: %q", got)
	}
	want(100)
	if e := c.errOf(vfsproto.OpOpen, vfsproto.OpenParams{Path: "out/a", Mode: "a"}); e != nil {
		t.Fatalf("an open with no budget left: %v", e) // only growth fails
	}
	if e := c.errOf(vfsproto.OpOpen, vfsproto.OpenParams{Path: "out/c", Mode: "a"}); e == nil || e.Code != vfsproto.ERange {
		t.Fatalf("a new file with no budget left: %v", e) // its entry
	}
	c.put("out/a", "rw", "rewritten in place")
	if e := c.errOf(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "out/dir"}); e == nil || e.Code != vfsproto.ERange {
		t.Fatalf("mkdir with no budget left: %v", e) // a directory costs a block
	}
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "/tmp/vdir"}, nil) // virtual: free
	low, high := int64(10), int64(1000)
	if r := budget(&high); r.Max != 100+entries {
		t.Fatalf("raised: %+v", r)
	}
	if r := budget(&low); r.Max != 10 || r.Used != 100 {
		t.Fatalf("lowered: %+v", r)
	}
}

// TestWriteBudgetLowered: a vfsd with no budget takes one from
// write_budget; writes opened after it are bounded.
func TestWriteBudgetLowered(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	c := connect(t, s)
	var r vfsproto.WriteBudgetResult
	c.ok(vfsproto.OpWriteBudget, nil, &r)
	if r.Max != -1 || r.Used != 0 {
		t.Fatalf("no budget: %+v", r)
	}
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "out/d"}, nil)
	n := int64(4)
	c.ok(vfsproto.OpWriteBudget, vfsproto.WriteBudgetParams{Max: &n}, &r)
	if r.Max != 4 || r.Used != 0 { // a directory is not data
		t.Fatalf("lowered: %+v", r)
	}
	h := c.open("out/x", "w")
	if resp := c.call(vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte("hello")}); resp.OK {
		t.Fatal("write past a lowered budget succeeded")
	}
}

// TestWriteBudgetEntries: a new file costs its directory entry and inode
// (diskEntryCost) of Config.MaxWriteBytes even when it stays empty, so
// empty files with long names cannot grow a directory or take inodes
// without bound (session 20, red team: 30000 of them grew their directory
// by 11 MB under --max-write 1M); reopening a file costs nothing more; a
// limit lowered by write_budget (`ulimit -f`, a bound of file sizes)
// bounds the data, not the number of files.
// TestWriteBudgetRename: a rename to a new name pays for its directory
// entry (not an inode); to an existing name, of a missing file, or one
// that fails, nothing.
func TestWriteBudgetRename(t *testing.T) {
	tr := newTree(t)
	cfg := tr.config()
	long := strings.Repeat("n", 244)
	per := diskEntryCost("1"+long) - entryInode
	cfg.MaxWriteBytes = diskEntryCost("a") + dirCost + diskEntryCost("d") + 2*per + 5
	s := newServer(t, cfg)
	c := connect(t, s)
	useFree(t, c)
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: c.open("out/a", "w")}, nil)
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "out/d"}, nil)
	if got := c.code(vfsproto.OpRename, vfsproto.RenameParams{From: "out/d", To: "out/d/x"}); got != vfsproto.EArg {
		t.Fatalf("rename of a directory into itself: %v", got)
	}
	c.ok(vfsproto.OpRename, vfsproto.RenameParams{From: "out/a", To: "out/1" + long}, nil)
	c.ok(vfsproto.OpRename, vfsproto.RenameParams{From: "out/1" + long, To: "out/2" + long}, nil)
	if got := c.code(vfsproto.OpRename, vfsproto.RenameParams{From: "out/2" + long, To: "out/3" + long}); got != vfsproto.ERange {
		t.Fatalf("a third rename to a new long name: %v, want E_RANGE", got)
	}
	if _, err := os.Stat(filepath.Join(tr.out, "2"+long)); err != nil {
		t.Fatalf("the refused rename moved the file: %v", err)
	}
	// Onto an existing name: no new entry, nothing to pay.
	if err := os.WriteFile(filepath.Join(tr.out, "b"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.ok(vfsproto.OpRename, vfsproto.RenameParams{From: "out/2" + long, To: "out/b"}, nil)
	if got := c.code(vfsproto.OpRename, vfsproto.RenameParams{From: "out/nosuch", To: "out/c"}); got != vfsproto.ENoEnt {
		t.Fatalf("rename of a missing file: %v", got)
	}
	// The 5 bytes of data left.
	h := c.open("out/b", "a")
	c.write(h, "12345")
	if resp := c.call(vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte("6")}); resp.OK {
		t.Fatal("a write past the budget succeeded")
	}
}

func TestWriteBudgetEntries(t *testing.T) {
	tr := newTree(t)
	cfg := tr.config()
	name := func(i int) string { return fmt.Sprintf("%03d%s", i, strings.Repeat("n", 242)) }
	per := diskEntryCost(name(0))
	if per != 256+8+248 {
		t.Fatalf("diskEntryCost of a 245-byte name: %d", per)
	}
	cfg.MaxWriteBytes = 10*per + 5
	s := newServer(t, cfg)
	c := connect(t, s)
	useFree(t, c)
	low := int64(5)
	c.ok(vfsproto.OpWriteBudget, vfsproto.WriteBudgetParams{Max: &low}, nil)
	for i := range 10 {
		mode := []vfsproto.Mode{"w", "a", "rw"}[i%3]
		c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: c.open("out/"+name(i), mode)}, nil)
	}
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: c.open("out/"+name(0), "w")}, nil) // not new
	for _, mode := range []vfsproto.Mode{"w", "a", "rw"} {
		if e := c.errOf(vfsproto.OpOpen, vfsproto.OpenParams{Path: "out/" + name(10), Mode: mode}); e == nil || e.Code != vfsproto.ERange {
			t.Fatalf("the eleventh new file (%s): %v", mode, e)
		}
	}
	if e := c.errOf(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "out/d"}); e == nil || e.Code != vfsproto.ERange {
		t.Fatalf("mkdir with no budget left: %v", e)
	}
	if _, err := os.Stat(filepath.Join(tr.out, name(10))); !os.IsNotExist(err) {
		t.Fatalf("the refused file was made: %v", err)
	}
	h := c.open("out/"+name(1), "a")
	c.write(h, "12345") // the 5 bytes of data left
	if resp := c.call(vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte("6")}); resp.OK {
		t.Fatal("a write past the budget succeeded")
	}
}

// useFree makes the new files whose names take the budget's free part
// (entryFree: 16 names of 512 bytes), so that the names a test makes
// next are charged.
func useFree(t *testing.T, c *client) {
	t.Helper()
	per := diskEntryCost(fmt.Sprintf("z%02d%s", 0, strings.Repeat("z", 242)))
	for i := range entryFree / per {
		c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: c.open(fmt.Sprintf("out/z%02d%s", i, strings.Repeat("z", 242)), "w")}, nil)
	}
}

// TestWriteBudgetSmall: a budget smaller than a name's cost still makes
// files, of its size of data (session 31: under --max-write 200 no file
// could be made, a new name costing 268 bytes).
func TestWriteBudgetSmall(t *testing.T) {
	tr := newTree(t)
	cfg := tr.config()
	cfg.MaxWriteBytes = 10
	s := newServer(t, cfg)
	c := connect(t, s)
	h := c.open("out/a", "w")
	c.write(h, "0123456789")
	if resp := c.call(vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte("x")}); resp.OK {
		t.Fatal("a write past the budget succeeded")
	}
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "out/d"}, nil)
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: c.open("out/d/b", "w")}, nil)
}
