package vfsd

import (
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
	cfg.MaxWriteBytes = 100
	s := newServer(t, cfg)
	c := connect(t, s)
	budget := func(lower *int64) vfsproto.WriteBudgetResult {
		t.Helper()
		var r vfsproto.WriteBudgetResult
		c.ok(vfsproto.OpWriteBudget, vfsproto.WriteBudgetParams{Max: lower}, &r)
		return r
	}
	want := func(used int64) {
		t.Helper()
		if r := budget(nil); r.Max != 100 || r.Used != used {
			t.Fatalf("budget %+v, want max 100, used %d", r, used)
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
	if e := c.errOf(vfsproto.OpOpen, vfsproto.OpenParams{Path: "out/c", Mode: "a"}); e != nil {
		t.Fatalf("an open with no budget left: %v", e) // only growth fails
	}
	c.put("out/a", "rw", "rewritten in place")
	if e := c.errOf(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "out/dir"}); e == nil || e.Code != vfsproto.ERange {
		t.Fatalf("mkdir with no budget left: %v", e) // a directory costs a block
	}
	c.ok(vfsproto.OpMkdir, vfsproto.MkdirParams{Path: "/tmp/vdir"}, nil) // virtual: free
	low, high := int64(10), int64(1000)
	if r := budget(&high); r.Max != 100 {
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
	if r.Max != 4 || r.Used != dirCost {
		t.Fatalf("lowered: %+v", r)
	}
	h := c.open("out/x", "w")
	if resp := c.call(vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte("hello")}); resp.OK {
		t.Fatal("write past a lowered budget succeeded")
	}
}
