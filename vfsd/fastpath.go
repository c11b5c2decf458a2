package vfsd

import (
	"bytes"
	"encoding/base64"
	"sync"
	"unicode/utf8"

	"github.com/llmsh/llmsh/vfsproto"
)

// The fast decoder recognises exactly the read and write requests that
// vfsproto's types marshal to with encoding/json:
//
//	{"id":"ID","op":"read","params":{"h":N,"max":N}}
//	{"id":"ID","op":"read_bulk","params":{"h":N,"max":N}}
//	{"id":"ID","op":"read_shm","params":{"h":N,"max":N,"slot":N}}
//	{"id":"ID","op":"read_shm_at","params":{"h":N,"off":N,"max":N,"slot":N}}
//	{"id":"ID","op":"write_bulk","params":{"h":N,"size":N}}
//	{"id":"ID","op":"write_shm","params":{"h":N,"slot":N,"size":N}}
//	{"id":"ID","op":"close","params":{"h":N}}
//	{"id":"ID","op":"write","params":{"h":N,"data":"B64"[,"final":BOOL]}}
//	{"id":"ID","op":"list","params":{"path":"STR"[,"names":true]}}
//	{"id":"ID","op":"read_file","params":{"path":"STR","max":N}}
//	{"id":"ID","op":"read_tail","params":{"path":"STR","max":N}}
//	{"id":"ID","op":"open","params":{"path":"STR","mode":"MODE","h":N}}
//
// (STR: valid UTF-8 without escapes or control characters, which
// encoding/json would read as it stands.)
//	{"id":"ID","op":"hello","params":{"version":N[,"features":["NAME",...]]}}
//
// (a feature NAME of lower-case letters, digits and underscores: hello is
// every run's first request, and decoding it with encoding/json cost both
// processes the reflection over its types at every start, issue 21).
//
// Anything else (whitespace, other key orders, escapes in the id) falls
// back to encoding/json, which gives the same result more slowly.

var (
	fastPrefix    = []byte(`{"id":"`)
	fastReadMid   = []byte(`","op":"read","params":{"h":`)
	fastReadMax   = []byte(`,"max":`)
	fastBulkMid   = []byte(`","op":"read_bulk","params":{"h":`)
	fastShmMid    = []byte(`","op":"read_shm","params":{"h":`)
	fastShmSlot   = []byte(`,"slot":`)
	fastShmAtMid  = []byte(`","op":"read_shm_at","params":{"h":`)
	fastShmAtOff  = []byte(`,"off":`)
	fastWBulkMid  = []byte(`","op":"write_bulk","params":{"h":`)
	fastWBulkSize = []byte(`,"size":`)
	fastWriteMid  = []byte(`","op":"write","params":{"h":`)
	fastWShmMid   = []byte(`","op":"write_shm","params":{"h":`)
	fastCloseMid  = []byte(`","op":"close","params":{"h":`)
	fastWriteData = []byte(`,"data":"`)
	fastFinalT    = []byte(`,"final":true`)
	fastFinalF    = []byte(`,"final":false`)
	fastListMid   = []byte(`","op":"list","params":{"path":"`)
	fastRFileMid  = []byte(`","op":"read_file","params":{"path":"`)
	fastRTailMid  = []byte(`","op":"read_tail","params":{"path":"`)
	fastRFilesMid = []byte(`","op":"read_files","params":`)
	fastHelloMid  = []byte(`","op":"hello","params":{"version":`)
	fastHelloFeat = []byte(`,"features":[`)
	fastOpenMid   = []byte(`","op":"open","params":{"path":"`)
	fastStatH     = []byte(`","op":"stat","params":{"h":`)
	fastStatPath  = []byte(`","op":"stat","params":{"path":"`)
	fastOpenMode  = []byte(`,"mode":"`)
	fastOpenH     = []byte(`,"h":`)
)

// fastReq is a read or write request decoded by the fast path.
type fastReq struct {
	op   string // OpRead, OpReadBulk, OpReadShm, OpReadShmAt, OpWrite or OpWriteBulk (max holds its size), OpList, OpReadFile, OpReadTail, OpReadFiles
	id   string
	path string // OpList, OpReadFile, OpReadTail
	// names is list's "names": true.
	names bool
	h     int64
	max   int64
	slot  int64   // OpReadShm, OpReadShmAt
	off   int64   // OpReadShmAt
	data  []byte  // decoded write payload
	buf   *[]byte // pooled storage of data, released after the write
	// hello is the decoded parameters of OpHello.
	hello *vfsproto.HelloParams
	// mode is OpOpen's mode; named says the open named its handle (h).
	mode  vfsproto.Mode
	named bool
	// byPath says a stat names a path, not a handle (h).
	byPath bool
	// files is the decoded parameters of OpReadFiles.
	files *vfsproto.ReadFilesParams
}

// dataPool holds write payload buffers of up to maxPooledData bytes.
var dataPool = sync.Pool{New: func() any { b := make([]byte, 0, 8192); return &b }}

const maxPooledData = 64<<10 + 4 // room for base64.DecodedLen of a 64 KiB payload

// getDataBuf returns a buffer with capacity for n bytes.
func getDataBuf(n int) *[]byte {
	if n > maxPooledData {
		b := make([]byte, 0, n)
		return &b
	}
	b := dataPool.Get().(*[]byte)
	if cap(*b) < n {
		*b = make([]byte, 0, n)
	}
	return b
}

// putDataBuf returns a buffer to the pool.
func putDataBuf(b *[]byte) {
	if b != nil && cap(*b) <= maxPooledData {
		*b = (*b)[:0]
		dataPool.Put(b)
	}
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
	case bytes.HasPrefix(b, fastReadMid), bytes.HasPrefix(b, fastBulkMid):
		return parseFastRead(string(id), b)
	case bytes.HasPrefix(b, fastShmMid), bytes.HasPrefix(b, fastShmAtMid):
		return parseFastReadShm(string(id), b)
	case bytes.HasPrefix(b, fastListMid):
		p, rest, ok := fastString(b[len(fastListMid):])
		names := ok && string(rest) == `,"names":true}}`
		if !ok || string(rest) != "}}" && !names {
			return r, false
		}
		return fastReq{op: vfsproto.OpList, id: string(id), path: p, names: names}, true
	case bytes.HasPrefix(b, fastRFileMid):
		return parseFastPathMax(vfsproto.OpReadFile, string(id), b[len(fastRFileMid):])
	case bytes.HasPrefix(b, fastRTailMid):
		return parseFastPathMax(vfsproto.OpReadTail, string(id), b[len(fastRTailMid):])
	case bytes.HasPrefix(b, fastRFilesMid):
		return parseFastReadFiles(string(id), b[len(fastRFilesMid):])
	case bytes.HasPrefix(b, fastOpenMid):
		return parseFastOpen(string(id), b[len(fastOpenMid):])
	case bytes.HasPrefix(b, fastStatH):
		h, rest, ok := fastInt(b[len(fastStatH):])
		if !ok || string(rest) != "}}" {
			return r, false
		}
		return fastReq{op: vfsproto.OpStat, id: string(id), h: h}, true
	case bytes.HasPrefix(b, fastStatPath):
		p, rest, ok := fastString(b[len(fastStatPath):])
		if !ok || string(rest) != "}}" {
			return r, false
		}
		return fastReq{op: vfsproto.OpStat, id: string(id), path: p, byPath: true}, true
	case bytes.HasPrefix(b, fastWBulkMid):
		h, rest, ok := fastInt(b[len(fastWBulkMid):])
		if !ok || !bytes.HasPrefix(rest, fastWBulkSize) {
			return r, false
		}
		n, rest, ok := fastInt(rest[len(fastWBulkSize):])
		if !ok || string(rest) != "}}" {
			return r, false
		}
		return fastReq{op: vfsproto.OpWriteBulk, id: string(id), h: h, max: n}, true
	case bytes.HasPrefix(b, fastWShmMid):
		return parseFastWriteShm(string(id), b[len(fastWShmMid):])
	case bytes.HasPrefix(b, fastCloseMid):
		h, rest, ok := fastInt(b[len(fastCloseMid):])
		if !ok || string(rest) != "}}" {
			return r, false
		}
		return fastReq{op: vfsproto.OpClose, id: string(id), h: h}, true
	case bytes.HasPrefix(b, fastWriteMid):
		return parseFastWrite(string(id), b[len(fastWriteMid):])
	case bytes.HasPrefix(b, fastHelloMid):
		p, ok := parseFastHello(b[len(fastHelloMid):])
		if !ok {
			return r, false
		}
		return fastReq{op: vfsproto.OpHello, id: string(id), hello: p}, true
	}
	return r, false
}

// parseFastRead decodes a canonical read or read_bulk request from its
// middle ("method":… onwards) to its end.
func parseFastRead(id string, b []byte) (r fastReq, ok bool) {
	op := vfsproto.OpRead
	if bytes.HasPrefix(b, fastReadMid) {
		b = b[len(fastReadMid):]
	} else {
		op = vfsproto.OpReadBulk
		b = b[len(fastBulkMid):]
	}
	h, rest, ok := fastInt(b)
	if !ok || !bytes.HasPrefix(rest, fastReadMax) {
		return r, false
	}
	m, rest, ok := fastInt(rest[len(fastReadMax):])
	if !ok || string(rest) != "}}" {
		return r, false
	}
	return fastReq{op: op, id: id, h: h, max: m}, true
}

// parseFastReadShm decodes a canonical read_shm or read_shm_at request
// from its middle ("method":… onwards) to its end.
func parseFastReadShm(id string, b []byte) (r fastReq, ok bool) {
	op, rest := vfsproto.OpReadShm, b[len(fastShmMid):]
	if bytes.HasPrefix(b, fastShmAtMid) {
		op, rest = vfsproto.OpReadShmAt, b[len(fastShmAtMid):]
	}
	h, rest, ok := fastInt(rest)
	var off int64
	if ok && op == vfsproto.OpReadShmAt {
		if !bytes.HasPrefix(rest, fastShmAtOff) {
			return r, false
		}
		off, rest, ok = fastInt(rest[len(fastShmAtOff):])
	}
	if !ok || !bytes.HasPrefix(rest, fastReadMax) {
		return r, false
	}
	m, rest, ok := fastInt(rest[len(fastReadMax):])
	if !ok || !bytes.HasPrefix(rest, fastShmSlot) {
		return r, false
	}
	slot, rest, ok := fastInt(rest[len(fastShmSlot):])
	if !ok || string(rest) != "}}" {
		return r, false
	}
	return fastReq{op: op, id: id, h: h, max: m, slot: slot, off: off}, true
}

// parseFastWrite decodes the rest of a canonical write request after
// "h":, up to its end.
func parseFastWrite(id string, b []byte) (r fastReq, ok bool) {
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
	buf := getDataBuf(base64.StdEncoding.DecodedLen(len(enc)))
	data, err := base64.StdEncoding.AppendDecode((*buf)[:0], enc)
	if err != nil {
		putDataBuf(buf)
		return r, false
	}
	*buf = data
	return fastReq{op: vfsproto.OpWrite, id: id, h: h, data: data, buf: buf}, true
}

// parseFastWriteShm decodes the rest of a canonical write_shm request
// after "h":, up to its end: the slot in r.slot, the size in r.max.
func parseFastWriteShm(id string, b []byte) (r fastReq, ok bool) {
	h, rest, ok := fastInt(b)
	if !ok || !bytes.HasPrefix(rest, fastShmSlot) {
		return r, false
	}
	slot, rest, ok := fastInt(rest[len(fastShmSlot):])
	if !ok || !bytes.HasPrefix(rest, fastWBulkSize) {
		return r, false
	}
	n, rest, ok := fastInt(rest[len(fastWBulkSize):])
	if !ok || string(rest) != "}}" {
		return r, false
	}
	return fastReq{op: vfsproto.OpWriteShm, id: id, h: h, slot: slot, max: n}, true
}

// parseFastOpen decodes the rest of a canonical open after "path":", up
// to its end: a plain one, or a named one (with "h").
func parseFastOpen(id string, b []byte) (r fastReq, ok bool) {
	p, rest, ok := fastString(b)
	if !ok || !bytes.HasPrefix(rest, fastOpenMode) {
		return r, false
	}
	m, rest, ok := fastString(rest[len(fastOpenMode):])
	if !ok || len(m) > 2 {
		return r, false
	}
	mode := vfsproto.Mode(m)
	if string(rest) == "}}" {
		// A plain open: vfsd numbers the handle.
		return fastReq{op: vfsproto.OpOpen, id: id, path: p, mode: mode}, true
	}
	if !bytes.HasPrefix(rest, fastOpenH) {
		return r, false
	}
	h, rest, ok := fastInt(rest[len(fastOpenH):])
	if !ok || string(rest) != "}}" {
		return r, false
	}
	return fastReq{op: vfsproto.OpOpen, id: id, path: p, mode: mode, h: h, named: true}, true
}

// parseFastHello decodes the rest of a canonical hello request after
// "version":, up to its end.
func parseFastHello(b []byte) (*vfsproto.HelloParams, bool) {
	v, rest, ok := fastInt(b)
	if !ok {
		return nil, false
	}
	p := &vfsproto.HelloParams{Version: int(v)}
	if bytes.HasPrefix(rest, fastHelloFeat) {
		rest = rest[len(fastHelloFeat):]
		for len(rest) > 0 && rest[0] == '"' {
			i := 1
			for i < len(rest) && (rest[i] >= 'a' && rest[i] <= 'z' || rest[i] >= '0' && rest[i] <= '9' || rest[i] == '_') {
				i++
			}
			if i == 1 || i == len(rest) || rest[i] != '"' {
				return nil, false
			}
			p.Features = append(p.Features, string(rest[1:i]))
			rest = rest[i+1:]
			if len(rest) > 0 && rest[0] == ',' && len(rest) > 1 && rest[1] == '"' {
				rest = rest[1:]
			} else {
				break
			}
		}
		if len(p.Features) == 0 || len(rest) == 0 || rest[0] != ']' {
			return nil, false
		}
		rest = rest[1:]
	}
	if string(rest) != "}}" {
		return nil, false
	}
	return p, true
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

// fastString reads a string's bytes up to its closing quote (consumed):
// only valid UTF-8 without a backslash or a control character, which
// encoding/json would decode to the same bytes.
func fastString(b []byte) (s string, rest []byte, ok bool) {
	for i, c := range b {
		switch {
		case c == '"':
			if !utf8.Valid(b[:i]) {
				return "", nil, false
			}
			return string(b[:i]), b[i+1:], true
		case c == '\\' || c < 0x20:
			return "", nil, false
		}
	}
	return "", nil, false
}

// parseFastReadFiles decodes a read_files request after its "params":
// grep -r's batches of paths, in the shape readMany's parseReadFiles
// reads, then the request's closing brace.
func parseFastReadFiles(id string, b []byte) (r fastReq, ok bool) {
	params, ok := bytes.CutSuffix(b, []byte("}"))
	if !ok {
		return r, false
	}
	p, ok := parseReadFiles(params)
	if !ok {
		return r, false
	}
	return fastReq{op: vfsproto.OpReadFiles, id: id, files: &p}, true
}

// parseFastPathMax decodes the parameters of a read_file or read_tail
// after the opening quote of their path: STR","max":N}}.
func parseFastPathMax(op, id string, b []byte) (r fastReq, ok bool) {
	p, rest, ok := fastString(b)
	if !ok || !bytes.HasPrefix(rest, fastReadMax) {
		return r, false
	}
	m, rest, ok := fastInt(rest[len(fastReadMax):])
	if !ok || string(rest) != "}}" {
		return r, false
	}
	return fastReq{op: op, id: id, path: p, max: m}, true
}

// parseReadFiles decodes read_files' parameters in the shape vfsproto's
// type marshals to, {"paths":["STR",...],"max":N}; anything else is left
// to encoding/json (decodeParams), which gives the same result more
// slowly.
func parseReadFiles(b []byte) (p vfsproto.ReadFilesParams, ok bool) {
	rest, ok := bytes.CutPrefix(b, []byte(`{"paths":[`))
	for ok {
		if len(rest) == 0 || rest[0] != '"' || len(p.Paths) > vfsproto.MaxReadFiles {
			return p, false
		}
		var s string
		if s, rest, ok = fastString(rest[1:]); !ok {
			return p, false
		}
		p.Paths = append(p.Paths, s)
		if len(rest) == 0 || rest[0] != ',' {
			break
		}
		rest = rest[1:]
	}
	if !ok {
		return p, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`],"max":`)); !ok {
		return p, false
	}
	m, rest, ok := fastInt(rest)
	if !ok || string(rest) != "}" {
		return p, false
	}
	p.Max = int(m)
	return p, true
}
