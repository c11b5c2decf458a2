package vfsd

import (
	"bytes"
	"encoding/base64"
)

// The fast decoder recognises exactly the read and write requests that
// vfsproto's types marshal to with encoding/json:
//
//	{"id":"ID","op":"read","params":{"h":N,"max":N}}
//	{"id":"ID","op":"write","params":{"h":N,"data":"B64"[,"final":BOOL]}}
//
// Anything else (whitespace, other key orders, escapes in the id) falls
// back to encoding/json, which gives the same result more slowly.

var (
	fastPrefix    = []byte(`{"id":"`)
	fastReadMid   = []byte(`","op":"read","params":{"h":`)
	fastReadMax   = []byte(`,"max":`)
	fastWriteMid  = []byte(`","op":"write","params":{"h":`)
	fastWriteData = []byte(`,"data":"`)
	fastFinalT    = []byte(`,"final":true`)
	fastFinalF    = []byte(`,"final":false`)
)

// fastReq is a read or write request decoded by the fast path.
type fastReq struct {
	op   string // opRead or opWrite
	id   string
	h    int64
	max  int64
	data []byte // decoded write payload (freshly allocated)
}

// parseFast decodes a read or write request; ok is false when the frame is
// not in the exact canonical shape, in which case nothing is consumed.
func parseFast(b []byte) (r fastReq, ok bool) {
	if !bytes.HasPrefix(b, fastPrefix) {
		return r, false
	}
	b = b[len(fastPrefix):]
	i := 0
	for i < len(b) && b[i] != '"' {
		if c := b[i]; c == '\\' || c < 0x20 || c > 0x7e {
			return r, false
		}
		i++
	}
	if i == len(b) {
		return r, false
	}
	id := b[:i]
	b = b[i:]
	switch {
	case bytes.HasPrefix(b, fastReadMid):
		b = b[len(fastReadMid):]
		h, rest, ok := fastInt(b)
		if !ok || !bytes.HasPrefix(rest, fastReadMax) {
			return r, false
		}
		m, rest, ok := fastInt(rest[len(fastReadMax):])
		if !ok || string(rest) != "}}" {
			return r, false
		}
		return fastReq{op: "read", id: string(id), h: h, max: m}, true
	case bytes.HasPrefix(b, fastWriteMid):
		b = b[len(fastWriteMid):]
		h, rest, ok := fastInt(b)
		if !ok || !bytes.HasPrefix(rest, fastWriteData) {
			return r, false
		}
		rest = rest[len(fastWriteData):]
		end := bytes.IndexByte(rest, '"')
		if end < 0 {
			return r, false
		}
		enc, tail := rest[:end], rest[end+1:]
		switch {
		case bytes.HasPrefix(tail, fastFinalT):
			tail = tail[len(fastFinalT):]
		case bytes.HasPrefix(tail, fastFinalF):
			tail = tail[len(fastFinalF):]
		}
		if string(tail) != "}}" {
			return r, false
		}
		data, err := base64.StdEncoding.AppendDecode(make([]byte, 0, base64.StdEncoding.DecodedLen(len(enc))), enc)
		if err != nil {
			return r, false
		}
		return fastReq{op: "write", id: string(id), h: h, data: data}, true
	}
	return r, false
}

// fastInt parses a small non-negative decimal integer without leading
// zeros (bar "0" itself) and returns the rest.
func fastInt(b []byte) (n int64, rest []byte, ok bool) {
	i := 0
	for i < len(b) && i < 15 && b[i] >= '0' && b[i] <= '9' {
		n = n*10 + int64(b[i]-'0')
		i++
	}
	if i == 0 || i == 15 || (i > 1 && b[0] == '0') {
		return 0, nil, false
	}
	return n, b[i:], true
}
