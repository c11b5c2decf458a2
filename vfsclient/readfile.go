package vfsclient

import (
	"encoding/json"
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
	if !c.readFile || len(p) == 0 || len(p) > vfsproto.MaxBulkRead {
		return 0, false, false, nil
	}
	c.flushPending()
	quoted, err := json.Marshal(name)
	if err != nil {
		return 0, false, true, pathErr("open", name, err)
	}
	var sent uint64
	ch, err := c.sendFrame(func(dst []byte, id uint64) ([]byte, error) {
		// The data is read straight into p: asked for before the
		// request goes out, so before its answer can come.
		sent = id
		c.mu.Lock()
		c.bulkID[id] = p
		c.mu.Unlock()
		start := len(dst)
		dst = beginRequest(dst, id, vfsproto.OpReadFile)
		dst = append(dst, `{"path":`...)
		dst = append(dst, quoted...)
		dst = append(dst, `,"max":`...)
		dst = strconv.AppendInt(dst, int64(len(p)), 10)
		dst = append(dst, '}')
		return finishRequest(dst, start)
	})
	if err != nil {
		c.mu.Lock()
		delete(c.bulkID, sent)
		c.mu.Unlock()
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
