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
//	{"id":"N","ok":true,"result":{"version":N,"ops":[...],...}}   (hello)
//	{"id":"N","ok":true}   (close)
//
// The hello request is written by hand too: hello is every run's first
// exchange, and a run that opens no file then needs no encoding/json.
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
	respHello   = []byte(`","ok":true,"result":{"version":`)
	respOK      = `","ok":true}`
)

// bufPool holds request frames and decoded read payloads.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 8192); return &b }}

// bulkSizes are the sizes of the buffers that hold read_bulk payloads,
// and bulkFree their spares: an answer takes the smallest that holds it.
// One size of MaxBulkRead held a whole MiB for each answer of a reader
// that asks for less (Read's chunks, bulkReadChunk): a sort merging nine
// runs of 700 KB held nine.
var (
	bulkSizes = [...]int{64 << 10, 256 << 10, bulkReadChunk, vfsproto.MaxBulkRead}
	bulkFree  [len(bulkSizes)]bufStack
)

// bulkSpares is the most spare buffers of each size kept.
const bulkSpares = 2

// bufStack holds spare buffers of one size, the last given back on top
// (its pages are the ones resident). Not a sync.Pool: the read loop takes
// a buffer on one P and the reader gives it back on another, and a Pool
// keeps what it is given in that P's private slot, out of the other's
// reach; the loop then made a new one. `cut big.txt | sort` touched
// eleven 512 KiB buffers for the two it had in use at once (`perf record
// -e page-faults -d`), the collector freeing the others, and the scavenger
// their pages, to be touched again.
type bufStack struct {
	mu   sync.Mutex
	free []*[]byte
}

func (s *bufStack) get() *[]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.free)
	if n == 0 {
		return nil
	}
	b := s.free[n-1]
	s.free[n-1] = nil
	s.free = s.free[:n-1]
	return b
}

func (s *bufStack) put(b *[]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.free) < bulkSpares {
		s.free = append(s.free, b)
	}
}

const maxPooledBuf = 256 << 10

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

// getBulkBuf is a pooled buffer of n bytes (at most MaxBulkRead).
func getBulkBuf(n int) *[]byte {
	for i, size := range bulkSizes {
		if n <= size {
			if b := bulkFree[i].get(); b != nil {
				*b = (*b)[:n]
				return b
			}
			b := make([]byte, n, size)
			return &b
		}
	}
	panic("vfsclient: read_bulk buffer over MaxBulkRead")
}

// putBuf returns a buffer of either kind to its pool.
func putBuf(b *[]byte) {
	if b == nil {
		return
	}
	for i, size := range bulkSizes {
		if cap(*b) == size {
			bulkFree[i].put(b)
			return
		}
	}
	if cap(*b) <= maxPooledBuf {
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
	case bytes.HasPrefix(b, respSize) && isSizeAnswer(b[len(respSize):]):
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
	case bytes.HasPrefix(b, respHello):
		r, ok := parseFastHello(b[len(respHello):])
		if !ok {
			return 0, a, false
		}
		a.fast, a.hello = true, r
		return id, a, true
	case string(b) == respOK:
		// A success without a result (close).
		a.resp.OK = true
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

// isSizeAnswer says whether b, what follows "size": in a result, ends as
// a read_bulk or read_shm answer does; a stat's result starts with
// "size" too, and goes to the generic case.
func isSizeAnswer(b []byte) bool {
	return bytes.HasSuffix(b, respSizeT) || bytes.HasSuffix(b, respSizeF)
}

// handleOrPath gives the one parameter of a stat or a close, as
// encoding/json would write it: "h" and its number, or "path" and a
// plain path (plainString) in quotes; false for anything else.
func handleOrPath(params any) (key, val string, ok bool) {
	switch p := params.(type) {
	case vfsproto.HandleParams:
		return "h", strconv.FormatInt(p.H, 10), true
	case vfsproto.StatParams:
		switch {
		case p.H != nil && p.Path == nil:
			return "h", strconv.FormatInt(*p.H, 10), true
		case p.H == nil && p.Path != nil && plainString(*p.Path):
			return "path", `"` + *p.Path + `"`, true
		}
	}
	return "", "", false
}

// appendKeyRequest appends a request whose parameters are {"KEY":VAL},
// VAL encoded already.
func appendKeyRequest(dst []byte, id uint64, op, key, val string) ([]byte, error) {
	start := len(dst)
	dst = beginRequest(dst, id, op)
	dst = append(dst, `{"`...)
	dst = append(dst, key...)
	dst = append(dst, `":`...)
	dst = append(dst, val...)
	dst = append(dst, '}')
	return finishRequest(dst, start)
}

// decodeStat decodes a stat result of exactly the shape vfsd writes
// (its appendStat, which listings use too); false for anything else.
func decodeStat(b []byte) (vfsproto.StatResult, bool) {
	var st vfsproto.StatResult
	d := &listDec{b: b, ok: true}
	d.lit(`{`)
	d.stat(&st)
	return st, d.ok && len(d.b) == 0
}

// parseHandleResult decodes an open's result, {"handle":N}, in the shape
// vfsd writes it (okHandleFrame); false for anything else, which
// encoding/json then decodes.
func parseHandleResult(b []byte) (int64, bool) {
	rest, ok := bytes.CutPrefix(b, []byte(`{"handle":`))
	if !ok || len(rest) < 2 || len(rest) > 17 || rest[len(rest)-1] != '}' {
		return 0, false
	}
	digits := rest[:len(rest)-1]
	if digits[0] == '0' && len(digits) > 1 {
		return 0, false
	}
	var h int64
	for _, d := range digits {
		if d < '0' || d > '9' {
			return 0, false
		}
		h = h*10 + int64(d-'0')
	}
	return h, true
}

// appendHelloRequest appends a complete hello request frame, as
// encoding/json marshals it (in the shape vfsd's fast path decodes).
func appendHelloRequest(dst []byte, id uint64, p vfsproto.HelloParams) ([]byte, error) {
	start := len(dst)
	dst = beginRequest(dst, id, vfsproto.OpHello)
	dst = append(dst, `{"version":`...)
	dst = strconv.AppendInt(dst, int64(p.Version), 10)
	if len(p.Features) > 0 {
		dst = append(dst, `,"features":`...)
		dst = vfsproto.AppendJSONStrings(dst, p.Features)
	}
	dst = append(dst, '}')
	return finishRequest(dst, start)
}

// parseFastHello decodes the rest of a hello answer after "version": in
// the shape encoding/json gives vfsproto.HelloResult, names of lower-case
// letters, digits and underscores only. Hello is every run's first
// exchange; decoding it with encoding/json cost the reflection over its
// types at every start (issue 21).
func parseFastHello(b []byte) (*vfsproto.HelloResult, bool) {
	r := &vfsproto.HelloResult{}
	var ok bool
	if r.Version, b, ok = fastNum(b); !ok {
		return nil, false
	}
	if !bytes.HasPrefix(b, []byte(`,"ops":`)) {
		return nil, false
	}
	if r.Ops, b, ok = fastNames(b[len(`,"ops":`):]); !ok {
		return nil, false
	}
	for _, f := range []struct {
		key  string
		n    *int
		list *[]string
		opt  bool
	}{
		{key: `,"max_read":`, n: &r.MaxRead},
		{key: `,"max_frame":`, n: &r.MaxFrame},
		{key: `,"features":`, list: &r.Features, opt: true},
		{key: `,"max_bulk_read":`, n: &r.MaxBulkRead, opt: true},
		{key: `,"max_bulk_write":`, n: &r.MaxBulkWrite, opt: true},
		{key: `,"shm_slots":`, n: &r.ShmSlots, opt: true},
	} {
		if !bytes.HasPrefix(b, []byte(f.key)) {
			if f.opt {
				continue
			}
			return nil, false
		}
		b = b[len(f.key):]
		if f.list != nil {
			*f.list, b, ok = fastNames(b)
		} else {
			*f.n, b, ok = fastNum(b)
		}
		if !ok {
			return nil, false
		}
	}
	if string(b) != "}}" {
		return nil, false
	}
	return r, true
}

// fastNum parses a non-negative decimal int of at most 15 digits without
// leading zeros (bar "0") and returns the rest.
func fastNum(b []byte) (int, []byte, bool) {
	n, i := 0, 0
	for i < len(b) && i < 15 && b[i] >= '0' && b[i] <= '9' {
		n = n*10 + int(b[i]-'0')
		i++
	}
	if i == 0 || i == 15 || (i > 1 && b[0] == '0') {
		return 0, nil, false
	}
	return n, b[i:], true
}

// fastNames parses a non-empty JSON array of strings made of lower-case
// letters, digits and underscores, and returns the rest.
func fastNames(b []byte) ([]string, []byte, bool) {
	if len(b) == 0 || b[0] != '[' {
		return nil, nil, false
	}
	var names []string
	for {
		b = b[1:] // the '[' or the ','
		if len(b) == 0 || b[0] != '"' {
			return nil, nil, false
		}
		i := 1
		for i < len(b) && (b[i] >= 'a' && b[i] <= 'z' || b[i] >= '0' && b[i] <= '9' || b[i] == '_') {
			i++
		}
		if i == 1 || i == len(b) || b[i] != '"' {
			return nil, nil, false
		}
		names = append(names, string(b[1:i]))
		b = b[i+1:]
		if len(b) == 0 {
			return nil, nil, false
		}
		if b[0] == ']' {
			return names, b[1:], true
		}
		if b[0] != ',' {
			return nil, nil, false
		}
	}
}
