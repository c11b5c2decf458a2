package vfsd

// vdataChunk is the size of the pieces a virtual file's contents are held
// in. A file of one slice grown by doubling held up to twice its bytes,
// and each growth copied it and left the old slice to the collector: a
// sort spilling nine runs of 0.7 MB to /tmp (virtual) took vfsd from 9.6
// to 20.4 MB. In pieces a file holds at most one piece more than its
// bytes, and nothing is copied as it grows.
const vdataChunk = 64 << 10

// vdata is the contents of a virtual file: chunks[i] holds bytes
// [i*vdataChunk, i*vdataChunk+len(chunks[i])); every chunk but the last
// is full. The first chunk grows by doubling up to vdataChunk, so a file
// of a few bytes costs a few bytes; the others are made whole.
type vdata struct {
	chunks [][]byte
	n      int64
}

// size is the length of the contents.
func (d *vdata) size() int64 { return d.n }

// readAt copies the bytes from off into p and returns how many.
func (d *vdata) readAt(p []byte, off int64) int {
	if off < 0 || off >= d.n {
		return 0
	}
	p = p[:min(int64(len(p)), d.n-off)]
	n := 0
	for n < len(p) {
		c := d.chunks[off/vdataChunk]
		k := copy(p[n:], c[off%vdataChunk:])
		n += k
		off += int64(k)
	}
	return n
}

// writeAt writes p at off, growing the contents (zeros in a gap) as
// needed.
func (d *vdata) writeAt(p []byte, off int64) {
	d.grow(off + int64(len(p)))
	for len(p) > 0 {
		c := d.chunks[off/vdataChunk]
		k := copy(c[off%vdataChunk:], p)
		p = p[k:]
		off += int64(k)
	}
}

// grow makes the contents end at end or later.
func (d *vdata) grow(end int64) {
	for d.n < end {
		i := int(d.n / vdataChunk)
		base := int64(i) * vdataChunk
		want := int(min(end-base, vdataChunk))
		if i == len(d.chunks) {
			c := vdataChunk
			if i == 0 {
				c = want
			}
			d.chunks = append(d.chunks, make([]byte, want, c))
		} else if c := d.chunks[i]; want > cap(c) {
			nc := make([]byte, want, min(max(want, 2*cap(c)), vdataChunk))
			copy(nc, c)
			d.chunks[i] = nc
		} else {
			d.chunks[i] = c[:want]
		}
		d.n = base + int64(want)
	}
}

// reset drops the contents.
func (d *vdata) reset() { d.chunks, d.n = nil, 0 }
