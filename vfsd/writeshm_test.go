package vfsd

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// write_shm writes the bytes of a slot the client names: granted only with
// read_shm (a region) and when hello asks for it; a size or slot out of
// range is refused; otherwise it is an unknown operation.
func TestWriteShm(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	shm := make([]byte, 2*vfsproto.ShmSlot)

	// A region, but hello asks for read_shm only.
	c := connectShm(t, s, shm)
	if hr := c.helloShm(); slices.Contains(hr.Features, vfsproto.FeatureWriteShm) || slices.Contains(hr.Ops, vfsproto.OpWriteShm) {
		t.Fatalf("hello without write_shm = %+v", hr)
	}
	h := c.open("out/f", vfsproto.ModeWrite)
	if code := c.code(vfsproto.OpWriteShm, vfsproto.WriteShmParams{H: h, Slot: 0, Size: 3}); code != vfsproto.EUnsupported {
		t.Fatalf("write_shm not negotiated: %q", code)
	}

	// No region: not granted even when asked.
	c = connect(t, s)
	var hr vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadShm, vfsproto.FeatureWriteShm}}, &hr)
	if slices.Contains(hr.Features, vfsproto.FeatureWriteShm) {
		t.Fatalf("write_shm granted without a region: %+v", hr)
	}

	c = connectShm(t, s, shm)
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureReadShm, vfsproto.FeatureWriteShm}}, &hr)
	if !slices.Contains(hr.Features, vfsproto.FeatureWriteShm) || !slices.Contains(hr.Ops, vfsproto.OpWriteShm) {
		t.Fatalf("hello with write_shm = %+v", hr)
	}
	h = c.open("out/f", vfsproto.ModeWrite)
	copy(shm, "hello ")
	copy(shm[vfsproto.ShmSlot:], "world\n and not this")
	var w vfsproto.WriteResult
	c.ok(vfsproto.OpWriteShm, vfsproto.WriteShmParams{H: h, Slot: 0, Size: 6}, &w)
	c.ok(vfsproto.OpWriteShm, vfsproto.WriteShmParams{H: h, Slot: 1, Size: 6}, nil)
	if w.Written != 6 {
		t.Fatalf("write_shm wrote %d", w.Written)
	}
	for _, bad := range []struct {
		p    vfsproto.WriteShmParams
		code vfsproto.Code
	}{
		{vfsproto.WriteShmParams{H: h, Slot: 0, Size: 0}, vfsproto.EArg},
		{vfsproto.WriteShmParams{H: h, Slot: 0, Size: vfsproto.ShmSlot + 1}, vfsproto.ERange},
		{vfsproto.WriteShmParams{H: h, Slot: 2, Size: 1}, vfsproto.ERange},
		{vfsproto.WriteShmParams{H: h, Slot: -1, Size: 1}, vfsproto.ERange},
	} {
		if code := c.code(vfsproto.OpWriteShm, bad.p); code != bad.code {
			t.Errorf("write_shm %+v: %q, want %q", bad.p, code, bad.code)
		}
	}
	// A whole slot, on a handle opened for reading: refused as write is.
	big := bytes.Repeat([]byte("0123456789abcdef"), vfsproto.ShmSlot/16)
	copy(shm, big)
	c.ok(vfsproto.OpWriteShm, vfsproto.WriteShmParams{H: h, Slot: 0, Size: vfsproto.ShmSlot}, nil)
	r := c.open("in/a.txt", vfsproto.ModeRead)
	if code := c.code(vfsproto.OpWriteShm, vfsproto.WriteShmParams{H: r, Slot: 0, Size: 1}); code != vfsproto.EPerm {
		t.Fatalf("write_shm on a read handle: %q", code)
	}
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	got, err := os.ReadFile(filepath.Join(tr.out, "f"))
	if err != nil || string(got) != "hello world\n"+string(big) {
		t.Fatalf("out/f: %d bytes (%v), want %d", len(got), err, 12+len(big))
	}
}
