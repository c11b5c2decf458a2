package vfsd

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestCopy: copy writes a handle's bytes from an offset to another
// handle at its offset, moves the source's offset past them (a read
// after it goes on from there), says 0 at the end, and commits with the
// target's close as a write does. It needs hello's copy; a virtual file,
// an append or a source not open for reading is refused (E_UNSUPPORTED:
// the client copies itself, nothing was copied), as is a target not open
// for writing; the write budget is charged, and a copy past it writes
// what fits and fails with E_RANGE.
func TestCopy(t *testing.T) {
	tr := newTree(t)
	data := strings.Repeat("0123456789", 10000) // 100,000 bytes
	writeFile(t, filepath.Join(tr.in, "big"), data)
	cfg := tr.config()
	cfg.MaxWriteBytes = 150000 + diskEntryCost("c") + diskEntryCost("d") + diskEntryCost("e")
	s := newServer(t, cfg)
	c := connect(t, s)
	useFree(t, c)
	copyReq := func(dst, src, off, max int64) (int64, vfsproto.Code) {
		t.Helper()
		resp := c.call(vfsproto.OpCopy, vfsproto.CopyParams{H: dst, From: src, Off: off, Max: max})
		if !resp.OK {
			return 0, resp.Error.Code
		}
		var r vfsproto.CopyResult
		mustUnmarshal(t, resp.Result, &r)
		return r.Size, ""
	}
	src := c.open("in/big", vfsproto.ModeRead)
	dst := c.open("out/c", vfsproto.ModeWrite)
	if _, code := copyReq(dst, src, 0, 10); code != vfsproto.EUnsupported {
		t.Fatalf("copy before hello: %q, want E_UNSUPPORTED", code)
	}
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureCopy}}, &hr)
	if !slices.Contains(hr.Features, vfsproto.FeatureCopy) || !slices.Contains(hr.Ops, vfsproto.OpCopy) {
		t.Fatalf("hello = %+v", hr)
	}
	c.write(dst, "head:")
	if n, code := copyReq(dst, src, 10, 40000); n != 40000 || code != "" {
		t.Fatalf("copy = %d %q", n, code)
	}
	// The source's offset is past the copied bytes: a read goes on there.
	var rr vfsproto.ReadResult
	c.ok(vfsproto.OpRead, vfsproto.ReadParams{H: src, Max: 5}, &rr)
	if string(rr.Data) != "01234" {
		t.Fatalf("read after copy = %q", rr.Data)
	}
	if n, code := copyReq(dst, src, 40015, vfsproto.MaxCopy); n != 100000-40015 || code != "" {
		t.Fatalf("copy of the rest = %d %q", n, code)
	}
	if n, code := copyReq(dst, src, 100000, 10); n != 0 || code != "" {
		t.Fatalf("copy at the end = %d %q", n, code)
	}
	if got := readFile(t, filepath.Join(tr.out, "o.txt")); got != "old\n" {
		t.Fatal(got)
	}
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: dst}, nil)
	if got, want := readFile(t, filepath.Join(tr.out, "c")), "head:"+data[10:40010]+data[40015:]; got != want {
		t.Fatalf("copied %d bytes, want %d", len(got), len(want))
	}

	for _, tc := range []struct {
		name     string
		dst, src func() int64
		code     vfsproto.Code
	}{
		{"to a virtual file", func() int64 { return c.open("/tmp/v", vfsproto.ModeWrite) }, func() int64 { return src }, vfsproto.EUnsupported},
		{"from a virtual file", func() int64 { return c.open("out/d", vfsproto.ModeWrite) }, func() int64 { return c.open("/tmp/v", vfsproto.ModeRead) }, vfsproto.EUnsupported},
		{"to an append", func() int64 { return c.open("out/o.txt", vfsproto.ModeAppend) }, func() int64 { return src }, vfsproto.EUnsupported},
		{"to a read handle", func() int64 { return c.open("in/a.txt", vfsproto.ModeRead) }, func() int64 { return src }, vfsproto.EPerm},
		{"from a write handle", func() int64 { return c.open("out/d", vfsproto.ModeWrite) }, func() int64 { return c.open("out/e", vfsproto.ModeWrite) }, vfsproto.EPerm},
		{"from no handle", func() int64 { return c.open("out/d", vfsproto.ModeWrite) }, func() int64 { return 999 }, vfsproto.ENoEnt},
	} {
		d, sh := tc.dst(), tc.src()
		if n, code := copyReq(d, sh, 0, 100); n != 0 || code != tc.code {
			t.Errorf("%s: copy = %d %q, want %q", tc.name, n, code, tc.code)
		}
	}
	if _, code := copyReq(dst, src, 0, vfsproto.MaxCopy+1); code != vfsproto.EClosed && code != vfsproto.ENoEnt {
		t.Errorf("copy to a closed handle: %q", code)
	}

	// The budget: 5 + 40,000 + 59,985 bytes are used, 50,010 are left.
	e := c.open("out/e", vfsproto.ModeWrite)
	if n, code := copyReq(e, src, 0, 60000); n != 0 || code != vfsproto.ERange {
		t.Fatalf("copy past the budget = %d %q, want E_RANGE", n, code)
	}
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: e}, nil)
	if got := readFile(t, filepath.Join(tr.out, "e")); got != data[:50010] {
		t.Fatalf("past the budget, copied %d bytes, want the 50010 that fit", len(got))
	}
}
