package vfsd

import (
	"bytes"
	"math/rand"
	"testing"
)

// TestVdataAgainstSlice writes and reads at random offsets across chunk
// boundaries (gaps included) and checks vdata against a plain slice.
func TestVdataAgainstSlice(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var d vdata
	var want []byte
	for i := range 400 {
		n := rng.Intn(3 * vdataChunk / 2)
		if i%3 == 0 {
			n = rng.Intn(20)
		}
		off := int64(rng.Intn(len(want) + 1 + vdataChunk/4))
		p := make([]byte, n)
		rng.Read(p)
		d.writeAt(p, off)
		if end := int(off) + n; end > len(want) {
			want = append(want, make([]byte, end-len(want))...)
		}
		copy(want[off:], p)
		if d.size() != int64(len(want)) {
			t.Fatalf("write %d: size %d, want %d", i, d.size(), len(want))
		}
		roff := rng.Intn(len(want) + 2)
		got := make([]byte, rng.Intn(2*vdataChunk))
		k := d.readAt(got, int64(roff))
		exp := []byte{}
		if roff < len(want) {
			exp = want[roff:min(len(want), roff+len(got))]
		}
		if !bytes.Equal(got[:k], exp) {
			t.Fatalf("write %d: read at %d of %d: got %d bytes, want %d", i, roff, len(got), k, len(exp))
		}
		if len(want) > 8*vdataChunk {
			d.reset()
			want = want[:0]
		}
	}
}

// TestVdataHeld: a file written in 64 KiB pieces holds at most one chunk
// more than its bytes, and a small file no more than its bytes.
func TestVdataHeld(t *testing.T) {
	var d vdata
	d.writeAt([]byte("hello\n"), 0)
	if c := cap(d.chunks[0]); c != 6 {
		t.Errorf("a 6-byte file holds %d bytes", c)
	}
	d.reset()
	p := make([]byte, 64<<10)
	for range 11 {
		d.writeAt(p, d.size())
	}
	d.writeAt(p[:100], d.size())
	held := 0
	for _, c := range d.chunks {
		held += cap(c)
	}
	if held > int(d.size())+vdataChunk {
		t.Errorf("%d bytes held for %d", held, d.size())
	}
}
