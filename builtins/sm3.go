package builtins

import (
	"encoding/binary"
	"hash"
	"math/bits"
)

// sm3Digest is the SM3 hash of GB/T 32905-2016 (cksum -a sm3): a
// Merkle-Damgård hash of 512-bit blocks and a 256-bit state, padded as
// SHA-256 is.
type sm3Digest struct {
	v   [8]uint32
	buf [64]byte
	n   int    // bytes in buf
	len uint64 // bytes written
}

func newSM3() hash.Hash {
	d := new(sm3Digest)
	d.Reset()
	return d
}

func (d *sm3Digest) Reset() {
	d.v = [8]uint32{0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600, 0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e}
	d.n, d.len = 0, 0
}

func (d *sm3Digest) Size() int      { return 32 }
func (d *sm3Digest) BlockSize() int { return 64 }

func (d *sm3Digest) Write(p []byte) (int, error) {
	n := len(p)
	d.len += uint64(n)
	if d.n > 0 {
		c := copy(d.buf[d.n:], p)
		d.n += c
		p = p[c:]
		if d.n < 64 {
			return n, nil
		}
		d.block(d.buf[:])
		d.n = 0
	}
	for len(p) >= 64 {
		d.block(p[:64])
		p = p[64:]
	}
	d.n = copy(d.buf[:], p)
	return n, nil
}

func (d *sm3Digest) Sum(in []byte) []byte {
	c := *d // Sum leaves d as it is
	var pad [72]byte
	pad[0] = 0x80
	k := 56 - int(c.len%64)
	if k <= 0 {
		k += 64
	}
	binary.BigEndian.PutUint64(pad[k:], c.len*8)
	c.Write(pad[:k+8])
	for _, x := range c.v {
		in = binary.BigEndian.AppendUint32(in, x)
	}
	return in
}

func sm3P0(x uint32) uint32 { return x ^ bits.RotateLeft32(x, 9) ^ bits.RotateLeft32(x, 17) }
func sm3P1(x uint32) uint32 { return x ^ bits.RotateLeft32(x, 15) ^ bits.RotateLeft32(x, 23) }

// block compresses one 64-byte block into the state.
func (d *sm3Digest) block(p []byte) {
	var w [68]uint32
	for j := range 16 {
		w[j] = binary.BigEndian.Uint32(p[4*j:])
	}
	for j := 16; j < 68; j++ {
		w[j] = sm3P1(w[j-16]^w[j-9]^bits.RotateLeft32(w[j-3], 15)) ^ bits.RotateLeft32(w[j-13], 7) ^ w[j-6]
	}
	a, b, c, dd, e, f, g, h := d.v[0], d.v[1], d.v[2], d.v[3], d.v[4], d.v[5], d.v[6], d.v[7]
	for j := range 64 {
		t, ff, gg := uint32(0x79cc4519), a^b^c, e^f^g
		if j >= 16 {
			t, ff, gg = 0x7a879d8a, a&b|a&c|b&c, e&f|^e&g
		}
		ss1 := bits.RotateLeft32(bits.RotateLeft32(a, 12)+e+bits.RotateLeft32(t, j%32), 7)
		ss2 := ss1 ^ bits.RotateLeft32(a, 12)
		tt1 := ff + dd + ss2 + (w[j] ^ w[j+4])
		tt2 := gg + h + ss1 + w[j]
		a, b, c, dd = tt1, a, bits.RotateLeft32(b, 9), c
		e, f, g, h = sm3P0(tt2), e, bits.RotateLeft32(f, 19), g
	}
	d.v[0] ^= a
	d.v[1] ^= b
	d.v[2] ^= c
	d.v[3] ^= dd
	d.v[4] ^= e
	d.v[5] ^= f
	d.v[6] ^= g
	d.v[7] ^= h
}
