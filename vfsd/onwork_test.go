package vfsd

import (
	"io"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestOnWorkBesideReader: Config.OnWork is called once work first runs on
// a goroutine beside the reader, and not for what the reader runs itself:
// hello, a lone read_file, named opens with their small writes and
// closes (a loop of `echo $i >> f`), a stat of an idle handle, and any
// lone request (stat, list).
func TestOnWorkBesideReader(t *testing.T) {
	tr := newTree(t)
	writeFile(t, filepath.Join(tr.in, "ten"), "0123456789")
	var calls atomic.Int32
	cfg := tr.config()
	cfg.OnWork = func() { calls.Add(1) }
	c := connect(t, newServer(t, cfg))
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadBulk,
		vfsproto.FeatureWriteBulk, vfsproto.FeatureReadFile, vfsproto.FeatureOpenNamed}}, nil)
	resp := c.call(vfsproto.OpReadFile, vfsproto.ReadFileParams{Path: "in/ten", Max: 100})
	if !resp.OK {
		t.Fatalf("read_file: %v", resp.Error)
	}
	if _, err := io.ReadFull(c.r, make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		h := vfsproto.FirstNamedHandle + int64(i)
		answers := c.pipeline(
			[2]any{vfsproto.OpOpen, named("out/a", vfsproto.ModeAppend, h)},
			[2]any{vfsproto.OpWrite, vfsproto.WriteParams{H: h, Data: []byte("x\n")}},
			[2]any{vfsproto.OpStat, vfsproto.StatParams{H: &h}},
			[2]any{vfsproto.OpClose, vfsproto.HandleParams{H: h}},
		)
		for _, a := range answers {
			if !a.OK {
				t.Fatalf("round %d: %+v", i, a.Error)
			}
		}
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("OnWork called %d times for work the reader ran", n)
	}
	c.ok(vfsproto.OpStat, vfsproto.PathParams{Path: "in/ten"}, nil) // alone: the reader's
	c.ok(vfsproto.OpList, vfsproto.ListParams{Path: "in"}, nil)
	if n := calls.Load(); n != 0 {
		t.Fatalf("OnWork called %d times for lone requests", n)
	}
	// Two in one write: the first goes to a worker.
	var batch []byte
	for _, p := range []string{"in/ten", "in"} {
		_, b := c.request(vfsproto.OpStat, vfsproto.PathParams{Path: p})
		batch = append(append(batch, rawFrame(uint32(len(b)))...), b...)
	}
	if _, err := c.w.Write(batch); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if resp := c.recv(); !resp.OK {
			t.Fatalf("stat: %v", resp.Error)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("OnWork called %d times, want once", n)
	}
}
