package vfsclient

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"path"
	"strconv"

	"github.com/llmsh/llmsh/vfsproto"
)

// ReadFile reads the first len(p) bytes (at most vfsproto.MaxBulkRead)
// of the file name into p in one request (read_file: vfsd opens the file
// for reading as Open does, reads and closes it), and reports how many it
// read and whether they are the whole file. A failure is an error of
// "open" on name, as Open's. ok is false, and nothing was asked, when
// hello did not negotiate read_file or p is empty or too large: the
// caller then opens the file.
func (c *Client) ReadFile(name string, p []byte) (n int, eof, ok bool, err error) {
	if err := c.ready(); err != nil {
		return 0, false, false, nil // the caller's open says why
	}
	if !c.readFile || len(p) == 0 || len(p) > vfsproto.MaxBulkRead {
		return 0, false, false, nil
	}
	c.flushPending()
	ch, err := c.sendPathMax(vfsproto.OpReadFile, name, p, c.bulkID)
	if err != nil {
		return 0, false, true, pathErr("open", name, err)
	}
	// Every request sent is answered (or failed by fail) before p is
	// given back: the reader may be writing into it until then.
	size, eof, err := recvShm(ch, len(p))
	if err != nil {
		return 0, false, true, pathErr("open", name, err)
	}
	return size, eof, true, nil
}

// FileHead is what ReadFiles read of one file: its first bytes, whether
// they are all of it, or the error opening it gave.
type FileHead struct {
	Data  []byte
	Whole bool
	Err   error
}

// ReadFiles reads the first max bytes of each file of names in one
// request (read_files: each opened for reading as Open does, read and
// closed), in their order. An error of a file is an error of "open" on
// its name, as Open's; err is the request's own (then no file was read).
// ok is false, and nothing was asked, when hello did not negotiate
// read_files or names and max are out of its bounds: the caller reads
// the files one by one.
func (c *Client) ReadFiles(names []string, max int) (heads []FileHead, ok bool, err error) {
	if err := c.ready(); err != nil {
		return nil, false, nil // the caller's opens say why
	}
	if !c.readFiles || len(names) == 0 || len(names) > vfsproto.MaxReadFiles || max <= 0 || max > vfsproto.MaxBulkRead/len(names) {
		return nil, false, nil
	}
	c.flushPending()
	params, err := c.marshalParams(vfsproto.ReadFilesParams{Paths: names, Max: max})
	if err != nil {
		return nil, true, err
	}
	var sent uint64
	ch, err := c.sendFrame(func(dst []byte, id uint64) ([]byte, error) {
		// Marked before the request goes out, so before its answer
		// can come.
		sent = id
		c.mu.Lock()
		c.manyID[id] = true
		c.mu.Unlock()
		start := len(dst)
		dst = beginRequest(dst, id, vfsproto.OpReadFiles)
		dst = append(dst, params...)
		return finishRequest(dst, start)
	})
	if err != nil {
		c.mu.Lock()
		delete(c.manyID, sent)
		c.mu.Unlock()
		return nil, true, err
	}
	a := <-ch
	switch {
	case a.err != nil:
		return nil, true, a.err
	case !a.resp.OK && a.resp.Error != nil:
		return nil, true, &Error{Code: a.resp.Error.Code, Msg: a.resp.Error.Message}
	case a.many == nil || len(a.many.Files) != len(names):
		return nil, true, &Error{Code: vfsproto.EIO, Msg: "malformed answer"}
	}
	heads = make([]FileHead, len(names))
	off := 0
	for i, f := range a.many.Files {
		if f.Error != nil {
			heads[i].Err = pathErr("open", names[i], &Error{Code: f.Error.Code, Msg: f.Error.Message})
			continue
		}
		heads[i].Data, heads[i].Whole = a.raw[off:off+f.Size:off+f.Size], f.EOF
		off += f.Size
	}
	return heads, true, nil
}

// readManyData reads the bytes that follow a successful read_files
// answer into a.raw, and its result into a.many. Sizes out of range are
// a protocol error.
func readManyData(r io.Reader, a *answer) error {
	if !a.resp.OK {
		return nil // an error answer: no data follows
	}
	res, ok := decodeFiles(a.resp.Result)
	if !ok {
		if err := json.Unmarshal(a.resp.Result, &res); err != nil {
			return err
		}
	}
	total := 0
	for _, f := range res.Files {
		if f.Size < 0 || f.Size > vfsproto.MaxBulkRead-total || f.Error != nil && f.Size != 0 {
			return errors.New("vfsclient: malformed read_files answer")
		}
		total += f.Size
	}
	a.many, a.raw = &res, make([]byte, total)
	_, err := io.ReadFull(r, a.raw)
	return err
}

// decodeFiles decodes a read_files result of exactly vfsd's shape (as
// encoding/json writes a ReadFilesResult); false on anything else, for
// encoding/json to decode.
func decodeFiles(raw []byte) (res vfsproto.ReadFilesResult, ok bool) {
	d := &listDec{b: raw, ok: true}
	d.lit(`{"files":[`)
	for d.ok && !d.opt(`]}`) {
		if len(res.Files) > 0 {
			d.lit(`,`)
		}
		var f vfsproto.FileRead
		d.lit(`{"size":`)
		size := d.int()
		if size < 0 || size > vfsproto.MaxBulkRead {
			d.ok = false
		}
		f.Size = int(size)
		d.lit(`,"eof":`)
		f.EOF = d.bool()
		if d.opt(`,"error":{"code":`) {
			f.Error = &vfsproto.Error{Code: vfsproto.Code(d.str())}
			d.lit(`,"message":`)
			f.Error.Message = d.str()
			d.lit(`}`)
		}
		d.lit(`}`)
		res.Files = append(res.Files, f)
	}
	if res.Files == nil {
		res.Files = []vfsproto.FileRead{}
	}
	return res, d.ok && len(d.b) == 0
}

// ReadTail reads the end of the file name in one request (read_tail:
// vfsd opens the file for reading as Open does, stats it, reads up to
// len(p) bytes of its end into p, and closes it). It reports how many
// bytes it read, the offset in the file they start at, and the file's
// stat; a file that is not regular (a FIFO, a device) is not read (n 0).
// A failure is an error of "open" on name, as Open's. ok is false, and
// nothing was asked, when hello did not negotiate read_tail or p is
// empty or too large: the caller opens the file.
func (c *Client) ReadTail(name string, p []byte) (n int, off int64, st fs.FileInfo, ok bool, err error) {
	if err := c.ready(); err != nil {
		return 0, 0, nil, false, nil // the caller's open says why
	}
	if !c.readTail || len(p) == 0 || len(p) > vfsproto.MaxBulkRead {
		return 0, 0, nil, false, nil
	}
	c.flushPending()
	ch, err := c.sendPathMax(vfsproto.OpReadTail, name, p, c.tailID)
	if err != nil {
		return 0, 0, nil, true, pathErr("open", name, err)
	}
	// Every request sent is answered (or failed by fail) before p is
	// given back: the reader may be writing into it until then.
	a := <-ch
	switch {
	case a.err != nil:
		err = a.err
	case !a.resp.OK && a.resp.Error != nil:
		err = &Error{Code: a.resp.Error.Code, Msg: a.resp.Error.Message}
	case a.tail == nil:
		err = &Error{Code: vfsproto.EIO, Msg: "malformed answer"}
	}
	if err != nil {
		return 0, 0, nil, true, pathErr("open", name, err)
	}
	return a.tail.Size, a.tail.Off, &FileInfo{name: path.Base(name), st: a.tail.Stat}, true, nil
}

// readTailData decodes a successful read_tail answer into a.tail and
// reads the bytes that follow it into dst. A size larger than dst (the
// request's max) or an offset below 0 is a protocol error.
func readTailData(r io.Reader, a *answer, dst []byte) error {
	if !a.resp.OK {
		return nil // an error answer: no data follows
	}
	res, ok := decodeTail(a.resp.Result)
	if !ok {
		if err := json.Unmarshal(a.resp.Result, &res); err != nil {
			return err
		}
	}
	if res.Size < 0 || res.Size > len(dst) || res.Off < 0 {
		return errors.New("vfsclient: malformed read_tail answer")
	}
	a.tail = &res
	_, err := io.ReadFull(r, dst[:res.Size])
	return err
}

// decodeTail decodes a read_tail result of exactly vfsd's shape; false
// on anything else, for encoding/json to decode.
func decodeTail(raw []byte) (res vfsproto.ReadTailResult, ok bool) {
	d := &listDec{b: raw, ok: true}
	d.lit(`{"off":`)
	res.Off = d.int()
	d.lit(`,"size":`)
	size := d.int()
	if size < 0 || size > vfsproto.MaxBulkRead {
		d.ok = false
	}
	res.Size = int(size)
	d.lit(`,"stat":{`)
	d.stat(&res.Stat)
	d.lit(`}`)
	return res, d.ok && len(d.b) == 0
}

// sendPathMax sends a read_file or read_tail request for name whose
// bytes go straight into p: p is entered in into (bulkID or tailID)
// before the request goes out, so before its answer can come, and taken
// out again if it cannot be sent. The error is open's PathError.
func (c *Client) sendPathMax(op, name string, p []byte, into map[uint64][]byte) (chan answer, error) {
	wire, err := c.wireName(name)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	quoted, err := json.Marshal(wire)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	var sent uint64
	ch, err := c.sendFrame(func(dst []byte, id uint64) ([]byte, error) {
		sent = id
		c.mu.Lock()
		into[id] = p
		c.mu.Unlock()
		start := len(dst)
		dst = beginRequest(dst, id, op)
		dst = append(dst, `{"path":`...)
		dst = append(dst, quoted...)
		dst = append(dst, `,"max":`...)
		dst = strconv.AppendInt(dst, int64(len(p)), 10)
		dst = append(dst, '}')
		return finishRequest(dst, start)
	})
	if err != nil {
		c.mu.Lock()
		delete(into, sent)
		c.mu.Unlock()
		return nil, pathErr("open", name, err)
	}
	return ch, nil
}
