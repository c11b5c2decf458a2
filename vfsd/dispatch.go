package vfsd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/llmsh/llmsh/vfsproto"
)

// supportedOps are announced by hello.
var supportedOps = []string{
	vfsproto.OpOpen, vfsproto.OpRead, vfsproto.OpWrite, vfsproto.OpClose,
	vfsproto.OpSeek, vfsproto.OpStat, vfsproto.OpCreateTemp, vfsproto.OpList,
	vfsproto.OpHello, vfsproto.OpStats, vfsproto.OpVirtuals,
	vfsproto.OpLstat, vfsproto.OpMkdir, vfsproto.OpRemove, vfsproto.OpRename, vfsproto.OpUtimes, vfsproto.OpChmod,
	vfsproto.OpReadlink, vfsproto.OpWriteBudget,
}

var readBufPool = sync.Pool{New: func() any { return new([vfsproto.MaxRead]byte) }}

// doHandleOp runs an operation on an open handle. It returns a response
// frame or an error, and the number of data bytes moved (for the log).
func (c *conn) doHandleOp(h *handle, j *job) (*frameBuf, *vfsproto.Error, int) {
	if h.closed {
		return nil, perr(vfsproto.EClosed, "handle closed"), 0
	}
	switch j.op {
	case vfsproto.OpRead:
		if !h.canRead {
			return nil, perr(vfsproto.EPerm, "handle not open for reading"), 0
		}
		buf := readBufPool.Get().(*[vfsproto.MaxRead]byte)
		defer readBufPool.Put(buf)
		n, err := h.f.Read(buf[:j.max])
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, ioError(err), 0
		}
		n, eof := c.readOn(h.f, buf[:j.max], n)
		c.s.stats.reads.Add(1)
		c.s.stats.bytesOut.Add(int64(n))
		return readFrameResp(j.id, buf[:n], eof), nil, n
	case vfsproto.OpReadBulk:
		return c.readBulk(h, j)
	case vfsproto.OpCopy:
		return c.copyHandles(h, j)
	case vfsproto.OpReadShm:
		if !h.canRead {
			return nil, perr(vfsproto.EPerm, "handle not open for reading"), 0
		}
		// handleFrame checked the slot and max against the region.
		off := j.slot * vfsproto.ShmSlot
		p := c.shm[off : off+j.max : off+j.max]
		n, err := h.f.Read(p)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, ioError(err), 0
		}
		n, eof := c.readOn(h.f, p, n)
		c.s.stats.reads.Add(1)
		c.s.stats.bytesOut.Add(int64(n))
		f, _ := bulkFrameResp(j.id, n, eof)
		return f, nil, n
	case vfsproto.OpWrite, vfsproto.OpWriteBulk, vfsproto.OpWriteShm:
		if !h.canWrite {
			return nil, perr(vfsproto.EPerm, "handle not open for writing"), 0
		}
		if h.werr != nil {
			// write_stop: a write sent after a failed one must not land
			// where the failed one's bytes belonged.
			return nil, h.werr, 0
		}
		n, err := h.f.Write(j.data)
		if err != nil {
			e := ioError(err)
			if c.writeStop.Load() {
				h.werr = e
			}
			return nil, e, n
		}
		c.s.stats.writes.Add(1)
		c.s.stats.bytesIn.Add(int64(n))
		return writtenFrame(j.id, n), nil, n
	case vfsproto.OpSeek:
		var whence int
		switch j.seek.Whence {
		case vfsproto.SeekSet:
			whence = io.SeekStart
		case vfsproto.SeekCur:
			whence = io.SeekCurrent
		case vfsproto.SeekEnd:
			whence = io.SeekEnd
		default:
			return nil, perr(vfsproto.EArg, "invalid whence"), 0
		}
		off, err := h.f.Seek(j.seek.Offset, whence)
		if err != nil {
			return nil, ioError(err), 0
		}
		h.werr = nil // the writes after it name their place again
		return okFrame(j.id, vfsproto.SeekResult{Offset: off}), nil, 0
	case vfsproto.OpStat:
		st, err := h.f.stat()
		if err != nil {
			return nil, ioError(err), 0
		}
		return okFrame(j.id, st), nil, 0
	case vfsproto.OpClose:
		h.closed = true
		c.s.stats.closes.Add(1)
		c.s.stats.openHandles.Add(-1)
		if err := h.f.commit(); err != nil {
			return nil, ioError(err), 0
		}
		return okFrame(j.id, nil), nil, 0
	}
	return nil, unsupported(), 0
}

// readBulk answers a read_bulk: the data follows the frame, from a
// spliced pipe when the file allows it, else from a pooled buffer.
func (c *conn) readBulk(h *handle, j *job) (*frameBuf, *vfsproto.Error, int) {
	if !h.canRead {
		return nil, perr(vfsproto.EPerm, "handle not open for reading"), 0
	}
	// The buffer and its slot in bulkSem go with the frame, which
	// gives them back once it is written; on any other way out
	// (error, panic) they are given back here.
	c.bulkSem <- struct{}{}
	if p, n, end, ok, err := c.sp.fill(h.f, int(j.max)); ok {
		if err != nil {
			<-c.bulkSem
			return nil, ioError(err), 0
		}
		c.s.stats.reads.Add(1)
		c.s.stats.bytesOut.Add(int64(n))
		f, ok := bulkFrameResp(j.id, n, n == 0 || end && c.readEOF.Load())
		if ok && n > 0 {
			f.pipe, f.pipeN, f.sp = p, n, c.sp
		} else {
			c.sp.put(p, n == 0)
		}
		f.release = func() { <-c.bulkSem }
		return f, nil, n
	}
	return c.bufferedBulk(j, func(p []byte) (int, bool, error) {
		n, err := h.f.Read(p)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, false, err
		}
		n, eof := c.readOn(h.f, p, n)
		return n, eof, nil
	})
}

// bufferedBulk answers j with the bytes read puts in a pooled buffer of
// j.max bytes (they follow the frame; eof as read says). The caller holds
// a slot of bulkSem: the buffer and the slot go with the frame, which
// gives them back once it is written; on any other way out (error,
// panic) they are given back here.
func (c *conn) bufferedBulk(j *job, read func(p []byte) (int, bool, error)) (*frameBuf, *vfsproto.Error, int) {
	buf := bulkPool.Get().(*[]byte)
	handed := false
	defer func() {
		if !handed {
			bulkPool.Put(buf)
			<-c.bulkSem
		}
	}()
	n, eof, err := read((*buf)[:j.max])
	if err != nil {
		return nil, ioError(err), 0
	}
	c.s.stats.reads.Add(1)
	c.s.stats.bytesOut.Add(int64(n))
	f, ok := bulkFrameResp(j.id, n, eof)
	if ok {
		f.tail, f.tailBuf = (*buf)[:n], buf
	} else {
		bulkPool.Put(buf)
	}
	f.release = func() { <-c.bulkSem }
	handed = true
	return f, nil, n
}

// list answers a list: with list_stat negotiated, each entry described.
func (c *conn) list(j *job) (*frameBuf, *vfsproto.Error, int) {
	s := c.s
	if !j.parsed {
		var p vfsproto.ListParams
		if e := c.decodeNamed(j.raw, &p, "path"); e != nil {
			return nil, e, 0
		}
		j.path, j.names = p.Path, p.Names
	}
	if j.names {
		return c.listNames(j)
	}
	entries, e := s.list(j.path, c.listStat.Load())
	if e != nil {
		return nil, e, 0
	}
	withStat := c.listStat.Load()
	entries = c.wireEntries(entries)
	f := beginFrame(j.id)
	f.b = append(f.b, `,"ok":true,"result":`...)
	start := len(f.b)
	f.b = appendList(f.b, entries, withStat)
	if withStat && len(f.b)-start > vfsproto.MaxFrame-len(j.id)-64 {
		// Described in full, the listing does not fit in a frame:
		// without the descriptions (the client lstats the entries).
		f.b = appendList(f.b[:start], entries, false)
	}
	return f.finish(j.id), nil, 0
}

// listNames answers a list with "names": each entry's name and kind, and
// the lstat of the directories among them, with or without list_stat.
func (c *conn) listNames(j *job) (*frameBuf, *vfsproto.Error, int) {
	entries, e := c.s.listNames(j.path)
	if e != nil {
		return nil, e, 0
	}
	entries = c.wireEntries(entries)
	f := beginFrame(j.id)
	f.b = append(f.b, `,"ok":true,"result":`...)
	start := len(f.b)
	f.b = appendNames(f.b, entries, true)
	if len(f.b)-start > vfsproto.MaxFrame-len(j.id)-64 {
		// With the directories' lstat the listing does not fit in a
		// frame: without them (the client lstats what it needs).
		f.b = appendNames(f.b[:start], entries, false)
	}
	return f.finish(j.id), nil, 0
}

// wireEntries returns entries with their names as this connection
// carries them: in wire form once byte_names is negotiated (a copy, when
// a name is not its own wire form), else as they are (encoding/json
// then writes U+FFFD for a byte that is not UTF-8, as always).
func (c *conn) wireEntries(entries []vfsproto.Entry) []vfsproto.Entry {
	if !c.byteNames.Load() {
		return entries
	}
	for i := range entries {
		if w := vfsproto.EncodeName(entries[i].Name); w != entries[i].Name {
			entries = slices.Clone(entries)
			vfsproto.EncodeNames(&vfsproto.ListResult{Entries: entries[i:]})
			break
		}
	}
	return entries
}

// wireName returns name as this connection carries it (see wireEntries).
func (c *conn) wireName(name string) string {
	if c.byteNames.Load() {
		return vfsproto.EncodeName(name)
	}
	return name
}

// readMany answers a read_files: each path as readWhole reads it, its
// bytes after the previous ones' in one pooled buffer that follows the
// frame.
func (c *conn) readMany(j *job) (*frameBuf, *vfsproto.Error, int) {
	var p vfsproto.ReadFilesParams
	if j.files != nil {
		p = *j.files // decoded by the fast path
	} else {
		var ok bool
		if p, ok = parseReadFiles(j.raw); !ok {
			if e := c.decodeNamed(j.raw, &p, "paths", "max"); e != nil {
				return nil, e, 0
			}
		}
	}
	switch {
	case len(p.Paths) == 0:
		return nil, perr(vfsproto.EArg, "no paths"), 0
	case len(p.Paths) > vfsproto.MaxReadFiles:
		return nil, perr(vfsproto.ERange, fmt.Sprintf("more than %d paths", vfsproto.MaxReadFiles)), 0
	case p.Max <= 0:
		return nil, perr(vfsproto.EArg, "max must be at least 1"), 0
	case p.Max > vfsproto.MaxBulkRead/len(p.Paths):
		return nil, perr(vfsproto.ERange, fmt.Sprintf("paths times max exceeds %d", vfsproto.MaxBulkRead)), 0
	}
	j.path = strings.Join(p.Paths, "\n") // the log names them all
	c.bulkSem <- struct{}{}
	buf := bulkPool.Get().(*[]byte)
	handed := false
	defer func() {
		if !handed {
			bulkPool.Put(buf)
			<-c.bulkSem
		}
	}()
	res := vfsproto.ReadFilesResult{Files: make([]vfsproto.FileRead, len(p.Paths))}
	total := 0
	for i, name := range p.Paths {
		n, eof, e := c.s.readHead(name, (*buf)[total:total+p.Max])
		if e != nil {
			res.Files[i].Error = e
			continue
		}
		res.Files[i].Size, res.Files[i].EOF = n, eof
		total += n
	}
	c.s.stats.bytesOut.Add(int64(total))
	f := beginFrame(j.id)
	f.b = append(f.b, `,"ok":true,"result":`...)
	f.b = appendFilesResult(f.b, res.Files)
	f = f.finish(j.id)
	f.tail, f.tailBuf = (*buf)[:total], buf
	f.release = func() { <-c.bulkSem }
	handed = true
	return f, nil, total
}

// readHead reads the first len(p) bytes of the file name, opened for
// reading as open opens it, into p, and closes it; eof is true when they
// are the whole file.
func (s *Server) readHead(name string, p []byte) (n int, eof bool, e *vfsproto.Error) {
	f, _, _, e := s.openPath(name, vfsproto.ModeRead)
	if e != nil {
		return 0, false, e
	}
	s.stats.opens.Add(1)
	defer func() {
		f.commit()
		s.stats.closes.Add(1)
	}()
	s.stats.reads.Add(1)
	n, eof, err := readUpTo(f, p)
	if err != nil {
		return 0, false, ioError(err)
	}
	return n, eof, nil
}

// readUpTo reads f into p until p is full or f ends (eof).
func readUpTo(f file, p []byte) (n int, eof bool, err error) {
	for n < len(p) {
		m, err := f.Read(p[n:])
		n += m
		if errors.Is(err, io.EOF) || err == nil && m == 0 {
			return n, true, nil
		}
		if err != nil {
			return 0, false, err
		}
	}
	return n, false, nil
}

// openOnce opens path for reading as open opens it (same policy), for a
// request that reads it and closes it itself (closeOnce).
func (c *conn) openOnce(path string) (file, *vfsproto.Error) {
	f, _, _, e := c.s.openPath(path, vfsproto.ModeRead)
	if e != nil {
		return nil, e
	}
	c.s.stats.opens.Add(1)
	return f, nil
}

// closeOnce closes what openOnce opened.
func (c *conn) closeOnce(f file) {
	f.commit()
	c.s.stats.closes.Add(1)
}

// readWhole answers a read_file: the file j.path opened for reading as
// open opens it (same policy), up to j.max bytes of it read into a pooled
// buffer that follows the frame, and closed.
func (c *conn) readWhole(j *job) (*frameBuf, *vfsproto.Error, int) {
	f, e := c.openOnce(j.path)
	if e != nil {
		return nil, e, 0
	}
	defer c.closeOnce(f)
	c.bulkSem <- struct{}{}
	return c.bufferedBulk(j, func(p []byte) (int, bool, error) { return readUpTo(f, p) })
}

// readEnd answers a read_tail: the file j.path opened for reading as
// open opens it (same policy), its stat, and up to j.max bytes of its
// end, read after the stat into a pooled buffer that follows the frame;
// a file that is not regular is not read. The file is closed after.
func (c *conn) readEnd(j *job) (*frameBuf, *vfsproto.Error, int) {
	f, e := c.openOnce(j.path)
	if e != nil {
		return nil, e, 0
	}
	defer c.closeOnce(f)
	st, err := f.stat()
	if err != nil {
		return nil, ioError(err), 0
	}
	c.bulkSem <- struct{}{}
	buf := bulkPool.Get().(*[]byte)
	handed := false
	defer func() {
		if !handed {
			bulkPool.Put(buf)
			<-c.bulkSem
		}
	}()
	var off int64
	n := 0
	if !st.IsDir && st.Type == "" && st.Size > 0 {
		off = max(st.Size-j.max, 0)
		if n, err = readAtUpTo(f, (*buf)[:st.Size-off], off); err != nil {
			return nil, ioError(err), 0
		}
		c.s.stats.reads.Add(1)
		c.s.stats.bytesOut.Add(int64(n))
	}
	fr := beginFrame(j.id)
	fr.b = append(fr.b, `,"ok":true,"result":{"off":`...)
	fr.b = strconv.AppendInt(fr.b, off, 10)
	fr.b = append(fr.b, `,"size":`...)
	fr.b = strconv.AppendInt(fr.b, int64(n), 10)
	fr.b = append(fr.b, `,"stat":`...)
	fr.b = appendStat(fr.b, &st)
	fr.b = append(fr.b, '}')
	fr = fr.finish(j.id)
	fr.tail, fr.tailBuf = (*buf)[:n], buf
	fr.release = func() { <-c.bulkSem }
	handed = true
	return fr, nil, n
}

// readAtUpTo reads f at off into p until p is full or f ends.
func readAtUpTo(f file, p []byte, off int64) (n int, err error) {
	for n < len(p) {
		m, err := f.ReadAt(p[n:], off+int64(n))
		n += m
		if errors.Is(err, io.EOF) || err == nil && m == 0 {
			return n, nil
		}
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// ioError maps an error of a handle's file.
func ioError(err error) *vfsproto.Error {
	var pe protoError
	if errors.As(err, &pe) {
		return pe.e
	}
	return fsError(err)
}

// doOp runs an operation that names no handle.
func (c *conn) doOp(j *job) (*frameBuf, *vfsproto.Error, int) {
	s := c.s
	switch j.op {
	case vfsproto.OpOpen:
		p := vfsproto.OpenParams{Path: j.path, Mode: j.mode}
		if !j.parsed {
			if e := c.decodeNamed(j.raw, &p, "path", "mode"); e != nil {
				return nil, e, 0
			}
		}
		j.path = p.Path
		f, r, w, e := s.openPath(p.Path, p.Mode)
		if e != nil {
			return nil, e, 0
		}
		num, e := c.addHandle(asHandle(f), r, w)
		if e != nil {
			return nil, e, 0
		}
		j.h = num
		return okHandleFrame(j.id, num), nil, 0
	case vfsproto.OpReadFile:
		return c.readWhole(j)
	case vfsproto.OpReadFiles:
		return c.readMany(j)
	case vfsproto.OpReadTail:
		return c.readEnd(j)
	case vfsproto.OpStat:
		st, e := s.statPath(j.path)
		if e != nil {
			return nil, e, 0
		}
		return okFrame(j.id, st), nil, 0
	case vfsproto.OpList:
		return c.list(j)
	case vfsproto.OpWalk:
		return c.walk(j)
	case vfsproto.OpCreateTemp:
		var p vfsproto.CreateTempParams
		if e := c.decodeNamed(j.raw, &p); e != nil {
			return nil, e, 0
		}
		if p.Prefix == "" {
			p.Prefix = "tmp"
		}
		if !validPrefix(p.Prefix) {
			return nil, perr(vfsproto.EArg, "invalid prefix"), 0
		}
		name, vf, e := s.virt.createTemp(p.Prefix)
		if e != nil {
			return nil, e, 0
		}
		j.path = name
		num, e := c.addHandle(&virtualHandle{store: s.virt, f: vf}, true, true)
		if e != nil {
			return nil, e, 0
		}
		j.h = num
		return okFrame(j.id, vfsproto.CreateTempResult{Handle: num, Path: c.wireName(name)}), nil, 0
	case vfsproto.OpHello:
		return c.hello(j)
	case vfsproto.OpLstat, vfsproto.OpReadlink, vfsproto.OpMkdir, vfsproto.OpRemove, vfsproto.OpRename, vfsproto.OpUtimes, vfsproto.OpChmod:
		return c.doTreeOp(j)
	case vfsproto.OpStats:
		return okFrame(j.id, s.Stats()), nil, 0
	case vfsproto.OpWriteBudget:
		var p vfsproto.WriteBudgetParams
		if e := decodeParams(j.raw, &p); e != nil {
			return nil, e, 0
		}
		return okFrame(j.id, s.writeBudgetOp(p)), nil, 0
	case vfsproto.OpVirtuals:
		return okFrame(j.id, s.virt.snapshot(maxVirtualsListing, c.wireName)), nil, 0
	}
	return nil, unsupported(), 0
}

// hello answers hello: the protocol version, the ops, and the features
// the client asked for that this connection can give.
func (c *conn) hello(j *job) (*frameBuf, *vfsproto.Error, int) {
	var p vfsproto.HelloParams
	if j.hello != nil {
		p = *j.hello
	} else if e := decodeParams(j.raw, &p, "version"); e != nil {
		return nil, e, 0
	}
	if p.Version < 1 {
		return nil, perr(vfsproto.EArg, "invalid version"), 0
	}
	r := vfsproto.HelloResult{
		Version: vfsproto.Version, Ops: supportedOps,
		MaxRead: vfsproto.MaxRead, MaxFrame: vfsproto.MaxFrame,
	}
	r.Ops = slices.Clip(supportedOps)
	// grant turns on feature (and op, when not empty) when the client
	// asked for it and ok holds, and says whether it did.
	grant := func(ok bool, feature string, flag *atomic.Bool, op string) bool {
		if !ok || !slices.Contains(p.Features, feature) {
			return false
		}
		flag.Store(true)
		if op != "" {
			r.Ops = append(r.Ops, op)
		}
		r.Features = append(r.Features, feature)
		return true
	}
	if grant(true, vfsproto.FeatureReadBulk, &c.bulk, vfsproto.OpReadBulk) {
		r.MaxBulkRead = vfsproto.MaxBulkRead
	}
	if grant(true, vfsproto.FeatureWriteBulk, &c.bulkW, vfsproto.OpWriteBulk) {
		r.MaxBulkWrite = vfsproto.MaxBulkWrite
	}
	grant(true, vfsproto.FeatureListStat, &c.listStat, "")
	grant(c.bulk.Load(), vfsproto.FeatureReadFile, &c.readFile, vfsproto.OpReadFile)
	grant(c.readFile.Load(), vfsproto.FeatureReadFiles, &c.readFiles, vfsproto.OpReadFiles)
	grant(c.readFile.Load(), vfsproto.FeatureReadTail, &c.readTail, vfsproto.OpReadTail)
	grant(true, vfsproto.FeatureWalk, &c.walkOK, vfsproto.OpWalk)
	grant(true, vfsproto.FeatureCopy, &c.copyOK, vfsproto.OpCopy)
	grant(true, vfsproto.FeatureWriteStop, &c.writeStop, "")
	grant(true, vfsproto.FeatureOpenNamed, &c.named, "")
	grant(true, vfsproto.FeatureByteNames, &c.byteNames, "")
	grant(true, vfsproto.FeatureReadEOF, &c.readEOF, "")
	if slots := min(len(c.shm)/vfsproto.ShmSlot, vfsproto.MaxShmSlots); slots > 0 &&
		slices.Contains(p.Features, vfsproto.FeatureReadShm) {
		c.shmSlots.Store(int64(slots))
		r.Ops = append(r.Ops, vfsproto.OpReadShm)
		r.Features = append(r.Features, vfsproto.FeatureReadShm)
		r.ShmSlots = slots
		grant(true, vfsproto.FeatureReadShmAt, &c.shmAt, vfsproto.OpReadShmAt)
		grant(true, vfsproto.FeatureWriteShm, &c.shmW, vfsproto.OpWriteShm)
	}
	return okFrameJSON(j.id, appendHelloResult(nil, r)), nil, 0
}

// decodeParams decodes raw params into v after checking that raw is an
// object holding every required key with a non-null value. Wrong types
// are E_ARG.
func decodeParams(raw json.RawMessage, v any, required ...string) *vfsproto.Error {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		if len(required) > 0 {
			return perr(vfsproto.EArg, "missing params")
		}
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return perr(vfsproto.EArg, "params must be an object")
	}
	for _, k := range required {
		if r, ok := m[k]; !ok || bytes.Equal(r, []byte("null")) {
			return perr(vfsproto.EArg, "missing "+k)
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return perr(vfsproto.EArg, "invalid "+te.Field)
		}
		return perr(vfsproto.EArg, "invalid params")
	}
	return nil
}

// decodeNamed is decodeParams for the parameters of an operation that
// names files: once hello negotiated byte_names, their names are then
// decoded from wire form (vfsproto.DecodeName), and one that is not in
// canonical wire form is E_ARG. The policy sees only the decoded bytes:
// a name that decodes to a NUL is refused as any NUL in a path is.
func (c *conn) decodeNamed(raw json.RawMessage, v any, required ...string) *vfsproto.Error {
	if e := decodeParams(raw, v, required...); e != nil {
		return e
	}
	if c.byteNames.Load() && vfsproto.DecodeNames(v) != nil {
		return perr(vfsproto.EArg, vfsproto.MsgNameEncoding)
	}
	return nil
}

// lenientID recovers the string id of a frame that is not valid JSON, by
// scanning for a top-level-looking "id" key followed by a string.
func lenientID(b []byte) (string, bool) {
	for i := 0; ; {
		k := bytes.Index(b[i:], []byte(`"id"`))
		if k < 0 {
			return "", false
		}
		i += k + 4
		j := i
		for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
			j++
		}
		if j >= len(b) || b[j] != ':' {
			continue
		}
		j++
		for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
			j++
		}
		if j >= len(b) || b[j] != '"' {
			continue
		}
		end := j + 1
		for end < len(b) && b[end] != '"' {
			if b[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(b) {
			return "", false
		}
		id, err := strconv.Unquote(string(b[j : end+1]))
		if err != nil {
			var s string
			if json.Unmarshal(b[j:end+1], &s) != nil {
				return "", false
			}
			id = s
		}
		return id, true
	}
}

// readOn finishes a read of n bytes into p (n < len(p): it came short) and
// says whether it is the end of the file: with read_eof negotiated, a
// short read is followed at once by another into the rest of p, as the
// client's next read would be; its bytes are added, and if there were
// none the file ended (vfsd opens regular files only, whose reads do not
// wait). An error of that read is left for the client's next read to
// meet. Without read_eof, eof is only a read of nothing.
func (c *conn) readOn(f file, p []byte, n int) (int, bool) {
	if n == 0 || n == len(p) || !c.readEOF.Load() {
		return n, n == 0
	}
	m, err := f.Read(p[n:])
	return n + m, m == 0 && errors.Is(err, io.EOF)
}
