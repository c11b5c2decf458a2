package vfsproto

import (
	"encoding/base64"
	"encoding/binary"
	"slices"
	"sync"
)

// enc12 maps 12 bits to their two standard base64 characters, packed
// little-endian, so that the encoder does one lookup per two characters.
// It is built on first use: vfsd and llmsh initialise this package at
// every start, and a run that reads no file never encodes (issue 21).
// A sync.Once and the table, whose zero values need no code: a
// sync.OnceValue was made by the package's init, which faulted in the
// 64 KiB of the binary's text around it at every start.
var (
	enc12Once  sync.Once
	enc12Table *[4096]uint16
)

func enc12() *[4096]uint16 {
	enc12Once.Do(func() {
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
		t := new([4096]uint16)
		for i := range t {
			t[i] = uint16(alphabet[i>>6]) | uint16(alphabet[i&63])<<8
		}
		enc12Table = t
	})
	return enc12Table
}

// AppendBase64 appends the standard (padded) base64 encoding of src to dst,
// exactly as base64.StdEncoding.AppendEncode does, about twice as fast: the
// base64 payloads of read and write are the protocol's hottest path.
func AppendBase64(dst, src []byte) []byte {
	n := base64.StdEncoding.EncodedLen(len(src))
	dst = slices.Grow(dst, n)
	out := dst[len(dst) : len(dst)+n]
	i, o := 0, 0
	enc12 := enc12()
	// Six bytes in, eight characters out, reading eight bytes at a time.
	for ; i+8 <= len(src) && o+8 <= len(out); i, o = i+6, o+8 {
		v := binary.BigEndian.Uint64(src[i : i+8])
		binary.LittleEndian.PutUint64(out[o:o+8],
			uint64(enc12[v>>52])|uint64(enc12[(v>>40)&0xfff])<<16|
				uint64(enc12[(v>>28)&0xfff])<<32|uint64(enc12[(v>>16)&0xfff])<<48)
	}
	base64.StdEncoding.Encode(out[o:], src[i:])
	return dst[:len(dst)+n]
}
