package vfsclient

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"sync"

	"github.com/llmsh/llmsh/vfsproto"
)

// The streaming hot path avoids encoding/json in both directions. Requests
// for read and write are written in exactly the canonical shape that
// encoding/json gives vfsproto.Request (which vfsd's own fast decoder
// recognises), and the answers to them are decoded by hand when they have
// exactly the shape vfsd's encoder gives them:
//
//	{"id":"N","ok":true,"result":{"data":"B64","eof":BOOL}}
//	{"id":"N","ok":true,"result":{"written":N}}
//	{"id":"N","ok":true,"result":{"size":N,"eof":BOOL}}   (read_bulk)
//
// Any other success, {"id":"N","ok":true,"result":R}, is taken apart
// without a scan of R, which the caller decodes (a listing of a thousand
// entries was scanned twice by encoding/json, once for the envelope).
// Any other answer falls back to encoding/json, so the fast path changes
// speed, never meaning.

var (
	respPrefix  = []byte(`{"id":"`)
	respData    = []byte(`","ok":true,"result":{"data":"`)
	respEOFT    = []byte(`","eof":true}}`)
	respEOFF    = []byte(`","eof":false}}`)
	respWritten = []byte(`","ok":true,"result":{"written":`)
	respSize    = []byte(`","ok":true,"result":{"size":`)
	respSizeT   = []byte(`,"eof":true}}`)
	respSizeF   = []byte(`,"eof":false}}`)
	respResult  = []byte(`","ok":true,"result":`)
)

// bufPool holds request frames and decoded read payloads.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 8192); return &b }}

// bulkPool holds read_bulk payloads, MaxBulkRead bytes each.
var bulkPool = sync.Pool{New: func() any { b := make([]byte, vfsproto.MaxBulkRead); return &b }}

const maxPooledBuf = 256 << 10

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

func getBulkBuf() *[]byte { return bulkPool.Get().(*[]byte) }

// putBuf returns a buffer of either pool.
func putBuf(b *[]byte) {
	switch {
	case b == nil:
	case cap(*b) == vfsproto.MaxBulkRead:
		*b = (*b)[:cap(*b)]
		bulkPool.Put(b)
	case cap(*b) <= maxPooledBuf:
		*b = (*b)[:0]
		bufPool.Put(b)
	}
}

// beginRequest starts a request frame: a length placeholder and the id.
func beginRequest(dst []byte, id uint64, op string) []byte {
	dst = append(dst, 0, 0, 0, 0)
	dst = append(dst, `{"id":"`...)
	dst = strconv.AppendUint(dst, id, 10)
	dst = append(dst, `","op":"`...)
	dst = append(dst, op...)
	return append(dst, `","params":`...)
}

// finishRequest closes the request and fills in its length.
// The frame starts at b[start].
func finishRequest(b []byte, start int) ([]byte, error) {
	b = append(b, '}')
	n := len(b) - start - 4
	if n > vfsproto.MaxFrame {
		return b, vfsproto.ErrFrameTooLarge
	}
	b[start], b[start+1], b[start+2], b[start+3] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
	return b, nil
}

// appendReadRequest appends a complete read (or read_bulk) request frame.
func appendReadRequest(dst []byte, id uint64, op string, h int64, max int) ([]byte, error) {
	start := len(dst)
	dst = beginRequest(dst, id, op)
	dst = append(dst, `{"h":`...)
	dst = strconv.AppendInt(dst, h, 10)
	dst = append(dst, `,"max":`...)
	dst = strconv.AppendInt(dst, int64(max), 10)
	dst = append(dst, '}')
	return finishRequest(dst, start)
}

// appendWriteRequest appends a complete write request frame.
func appendWriteRequest(dst []byte, id uint64, h int64, data []byte) ([]byte, error) {
	start := len(dst)
	dst = beginRequest(dst, id, vfsproto.OpWrite)
	dst = append(dst, `{"h":`...)
	dst = strconv.AppendInt(dst, h, 10)
	dst = append(dst, `,"data":"`...)
	dst = vfsproto.AppendBase64(dst, data)
	dst = append(dst, `"}`...)
	return finishRequest(dst, start)
}

// parseFastAnswer decodes a read or write answer in the canonical shape.
// ok is false for anything else, which the caller decodes with
// encoding/json. A read answer's data is decoded into a pooled buffer.
func parseFastAnswer(b []byte) (id uint64, a answer, ok bool) {
	if !bytes.HasPrefix(b, respPrefix) {
		return 0, a, false
	}
	b = b[len(respPrefix):]
	i := 0
	for i < len(b) && i < 20 && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == 0 || i == 20 {
		return 0, a, false
	}
	id, err := strconv.ParseUint(string(b[:i]), 10, 64)
	if err != nil {
		return 0, a, false
	}
	b = b[i:]
	switch {
	case bytes.HasPrefix(b, respData):
		b = b[len(respData):]
		end := bytes.IndexByte(b, '"')
		if end < 0 {
			return 0, a, false
		}
		enc, tail := b[:end], b[end:]
		switch {
		case bytes.Equal(tail, respEOFT):
			a.eof = true
		case bytes.Equal(tail, respEOFF):
		default:
			return 0, a, false
		}
		buf := getBuf()
		data, err := base64.StdEncoding.AppendDecode((*buf)[:0], enc)
		if err != nil {
			putBuf(buf)
			return 0, a, false
		}
		*buf = data
		a.fast, a.data = true, buf
		return id, a, true
	case bytes.HasPrefix(b, respSize):
		b = b[len(respSize):]
		j := 0
		for j < len(b) && j < 8 && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == 0 || j == 8 {
			return 0, a, false
		}
		switch tail := b[j:]; {
		case bytes.Equal(tail, respSizeT):
			a.eof = true
		case bytes.Equal(tail, respSizeF):
		default:
			return 0, a, false
		}
		n, err := strconv.Atoi(string(b[:j]))
		if err != nil {
			return 0, a, false
		}
		a.fast, a.bulk, a.size = true, true, n
		return id, a, true
	case bytes.HasPrefix(b, respWritten):
		b = b[len(respWritten):]
		j := 0
		for j < len(b) && j < 10 && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == 0 || j == 10 || string(b[j:]) != "}}" {
			return 0, a, false
		}
		n, err := strconv.Atoi(string(b[:j]))
		if err != nil {
			return 0, a, false
		}
		a.fast, a.written = true, n
		return id, a, true
	case bytes.HasPrefix(b, respResult) && b[len(b)-1] == '}':
		// Any other success: the result as it stands, for the caller
		// to decode (encoding/json or decodeList, which refuse
		// anything that is not exactly one value); a copy, as the
		// frame's buffer is read into again.
		a.resp.OK = true
		a.resp.Result = bytes.Clone(b[len(respResult) : len(b)-1])
		return id, a, true
	}
	return 0, a, false
}
