package vfsd

import (
	"encoding/binary"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/llmsh/llmsh/vfsproto"
)

// frameBuf is a response frame under construction: a 4-byte length header
// followed by the JSON payload, and for read_bulk the raw data written
// right after the frame (tail). Frames are pooled and reused.
type frameBuf struct {
	b       []byte
	tail    []byte
	tailBuf *[]byte // pooled storage of tail
	// Or the raw data waits in a private pipe (zero-copy read_bulk).
	pipe    *bulkPipe
	pipeN   int
	sp      *splicer
	release func() // called once the frame is written (or dropped)
}

// bulkPool holds read_bulk data buffers of MaxBulkRead bytes.
var bulkPool = sync.Pool{New: func() any { b := make([]byte, vfsproto.MaxBulkRead); return &b }}

var framePool = sync.Pool{New: func() any { return &frameBuf{b: make([]byte, 0, 8192)} }}

// maxPooledFrame bounds the buffers returned to the pool.
const maxPooledFrame = 64 << 10

func putFrame(f *frameBuf) {
	if f.tailBuf != nil {
		bulkPool.Put(f.tailBuf)
	}
	if f.pipe != nil {
		f.sp.put(f.pipe, false) // not written out: the data is still in it
	}
	f.pipe, f.sp = nil, nil
	if f.release != nil {
		f.release()
	}
	f.tail, f.tailBuf, f.release = nil, nil, nil
	if cap(f.b) <= maxPooledFrame {
		framePool.Put(f)
	}
}

// beginFrame starts a response frame: header placeholder and `{"id":ID`.
func beginFrame(id string) *frameBuf {
	f := framePool.Get().(*frameBuf)
	f.b = append(f.b[:0], 0, 0, 0, 0, '{', '"', 'i', 'd', '"', ':')
	f.b = vfsproto.AppendJSONString(f.b, id)
	return f
}

// finish closes the JSON object and fills the length header. A payload over
// vfsproto.MaxFrame is replaced by an E_RANGE error.
func (f *frameBuf) finish(id string) *frameBuf {
	f.b = append(f.b, '}')
	n := len(f.b) - 4
	if n > vfsproto.MaxFrame {
		putFrame(f)
		return errorFrame(id, perr(vfsproto.ERange, "response too large"))
	}
	binary.BigEndian.PutUint32(f.b, uint32(n))
	return f
}

// appendHelloResult appends r as encoding/json marshals it (TestHelloEncoding
// compares them), without its reflection: hello is every run's first
// answer (issue 21).
func appendHelloResult(b []byte, r vfsproto.HelloResult) []byte {
	b = append(b, `{"version":`...)
	b = strconv.AppendInt(b, int64(r.Version), 10)
	b = append(b, `,"ops":`...)
	b = vfsproto.AppendJSONStrings(b, r.Ops)
	b = append(b, `,"max_read":`...)
	b = strconv.AppendInt(b, int64(r.MaxRead), 10)
	b = append(b, `,"max_frame":`...)
	b = strconv.AppendInt(b, int64(r.MaxFrame), 10)
	if len(r.Features) > 0 {
		b = append(b, `,"features":`...)
		b = vfsproto.AppendJSONStrings(b, r.Features)
	}
	for _, f := range []struct {
		key string
		n   int
	}{{`,"max_bulk_read":`, r.MaxBulkRead}, {`,"max_bulk_write":`, r.MaxBulkWrite}, {`,"shm_slots":`, r.ShmSlots}} {
		if f.n != 0 {
			b = append(b, f.key...)
			b = strconv.AppendInt(b, int64(f.n), 10)
		}
	}
	return append(b, '}')
}

// okFrame encodes a success response; result may be nil.
func okFrame(id string, result any) *frameBuf {
	f := beginFrame(id)
	f.b = append(f.b, `,"ok":true`...)
	if st, ok := result.(vfsproto.StatResult); ok {
		// stat and lstat, by hand (a run's first stat paid
		// encoding/json's reflection over the type).
		f.b = append(f.b, `,"result":`...)
		f.b = appendStat(f.b, &st)
		return f.finish(id)
	}
	if result != nil {
		enc, err := json.Marshal(result)
		if err != nil {
			putFrame(f)
			return errorFrame(id, perr(vfsproto.EIO, msgInternal))
		}
		f.b = append(f.b, `,"result":`...)
		f.b = append(f.b, enc...)
	}
	return f.finish(id)
}

// okHandleFrame encodes the answer to an open, {"handle":h}, as okFrame
// does, without encoding/json.
func okHandleFrame(id string, h int64) *frameBuf {
	f := beginFrame(id)
	f.b = append(f.b, `,"ok":true,"result":{"handle":`...)
	f.b = strconv.AppendInt(f.b, h, 10)
	f.b = append(f.b, '}')
	return f.finish(id)
}

// okFrameJSON encodes a success response whose result is already encoded.
func okFrameJSON(id string, enc []byte) *frameBuf {
	f := beginFrame(id)
	f.b = append(f.b, `,"ok":true,"result":`...)
	f.b = append(f.b, enc...)
	return f.finish(id)
}

// errorFrame encodes an error response.
func errorFrame(id string, e *vfsproto.Error) *frameBuf {
	f := beginFrame(id)
	f.b = append(f.b, `,"ok":false,"error":{"code":`...)
	f.b = vfsproto.AppendJSONString(f.b, string(e.Code))
	f.b = append(f.b, `,"message":`...)
	f.b = vfsproto.AppendJSONString(f.b, e.Message)
	f.b = append(f.b, '}')
	return f.finish(id)
}

// readFrameResp encodes the response of a read without encoding/json.
func readFrameResp(id string, data []byte, eof bool) *frameBuf {
	f := beginFrame(id)
	f.b = append(f.b, `,"ok":true,"result":{"data":"`...)
	f.b = vfsproto.AppendBase64(f.b, data)
	if eof {
		f.b = append(f.b, `","eof":true}`...)
	} else {
		f.b = append(f.b, `","eof":false}`...)
	}
	return f.finish(id)
}

// bulkFrameResp encodes the answer of read_bulk announcing size bytes of
// data; the caller attaches the data (tail or pipe) when ok. ok is false
// when the answer became an error (an id too long for a frame), which
// carries no data.
func bulkFrameResp(id string, size int, eof bool) (f *frameBuf, ok bool) {
	f = beginFrame(id)
	f.b = append(f.b, `,"ok":true,"result":{"size":`...)
	f.b = strconv.AppendInt(f.b, int64(size), 10)
	if eof {
		f.b = append(f.b, `,"eof":true}`...)
	} else {
		f.b = append(f.b, `,"eof":false}`...)
	}
	g := f.finish(id)
	return g, g == f
}

// writtenFrame encodes the response of a write without encoding/json.
func writtenFrame(id string, n int) *frameBuf {
	f := beginFrame(id)
	f.b = append(f.b, `,"ok":true,"result":{"written":`...)
	f.b = strconv.AppendInt(f.b, int64(n), 10)
	f.b = append(f.b, '}')
	return f.finish(id)
}

// appendList appends the encoding of ListResult{Entries: entries}, as
// encoding/json writes it (fields in their order, the optional ones left
// out when empty; a string with anything but printable ASCII in it
// through encoding/json itself), with each entry's lstat when withStat
// is set. A walk lists every directory it meets: reflection was a tenth
// of vfsd's time in find.
func appendList(b []byte, entries []vfsproto.Entry, withStat bool) []byte {
	b = append(b, `{"entries":`...)
	return append(appendListEntries(b, entries, withStat), '}')
}

// appendListEntries appends the JSON array of a full listing's entries.
func appendListEntries(b []byte, entries []vfsproto.Entry, withStat bool) []byte {
	b = append(b, '[')
	for i := range entries {
		en := &entries[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = vfsproto.AppendJSONString(b, en.Name)
		b = append(b, `,"is_dir":`...)
		b = strconv.AppendBool(b, en.IsDir)
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, en.Size, 10)
		if en.Symlink {
			b = append(b, `,"symlink":true`...)
		}
		if en.Type != "" {
			b = append(b, `,"type":`...)
			b = vfsproto.AppendJSONString(b, en.Type)
		}
		if withStat && en.Lstat != nil {
			b = append(b, `,"lstat":`...)
			b = appendStat(b, en.Lstat)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendFilesResult appends the encoding of ReadFilesResult{Files: files}
// as encoding/json writes it.
func appendFilesResult(b []byte, files []vfsproto.FileRead) []byte {
	b = append(b, `{"files":[`...)
	for i := range files {
		f := &files[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"size":`...)
		b = strconv.AppendInt(b, int64(f.Size), 10)
		b = append(b, `,"eof":`...)
		b = strconv.AppendBool(b, f.EOF)
		if f.Error != nil {
			b = append(b, `,"error":{"code":`...)
			b = vfsproto.AppendJSONString(b, string(f.Error.Code))
			b = append(b, `,"message":`...)
			b = vfsproto.AppendJSONString(b, f.Error.Message)
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// appendNames appends the encoding of ListResult{Entries: entries} for a
// list with "names": each entry's name, its lstat (with withStat, where
// set) and its kind, in the order of Entry's fields, as encoding/json
// writes strings.
func appendNames(b []byte, entries []vfsproto.Entry, withStat bool) []byte {
	b = append(b, `{"entries":`...)
	return append(appendNamesEntries(b, entries, withStat), '}')
}

// appendNamesEntries appends the JSON array of a listing of names' entries.
func appendNamesEntries(b []byte, entries []vfsproto.Entry, withStat bool) []byte {
	b = append(b, '[')
	for i := range entries {
		en := &entries[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = vfsproto.AppendJSONString(b, en.Name)
		if withStat && en.Lstat != nil {
			b = append(b, `,"lstat":`...)
			b = appendStat(b, en.Lstat)
		}
		b = append(b, `,"kind":`...)
		b = vfsproto.AppendJSONString(b, en.Kind)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendStat appends the encoding of st, as encoding/json writes it.
func appendStat(b []byte, st *vfsproto.StatResult) []byte {
	b = append(b, `{"size":`...)
	b = strconv.AppendInt(b, st.Size, 10)
	b = append(b, `,"mtime":`...)
	b = strconv.AppendInt(b, st.Mtime, 10)
	b = append(b, `,"mode":`...)
	b = strconv.AppendUint(b, uint64(st.Mode), 10)
	b = append(b, `,"is_dir":`...)
	b = strconv.AppendBool(b, st.IsDir)
	if st.Symlink {
		b = append(b, `,"symlink":true`...)
	}
	if st.Type != "" {
		b = append(b, `,"type":`...)
		b = vfsproto.AppendJSONString(b, st.Type)
	}
	if st.ID != "" {
		b = append(b, `,"id":`...)
		b = vfsproto.AppendJSONString(b, st.ID)
	}
	if st.Atime != 0 {
		b = append(b, `,"atime":`...)
		b = strconv.AppendInt(b, st.Atime, 10)
	}
	return append(b, '}')
}
