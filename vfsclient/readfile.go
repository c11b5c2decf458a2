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
	quoted, err := json.Marshal(name)
	if err != nil {
		return 0, false, true, pathErr("open", name, err)
	}
	ch := make(chan answer, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return 0, false, true, pathErr("open", name, err)
	}
	c.next++
	id := c.next
	c.wait[id] = ch
	c.bulkID[id] = p // the data is read straight into p
	c.mu.Unlock()
	buf := getBuf()
	b := beginRequest((*buf)[:0], id, vfsproto.OpReadFile)
	b = append(b, `{"path":`...)
	b = append(b, quoted...)
	b = append(b, `,"max":`...)
	b = strconv.AppendInt(b, int64(len(p)), 10)
	b = append(b, '}')
	b, err = finishRequest(b, 0)
	if err == nil {
		c.wmu.Lock()
		_, err = c.w.Write(b)
		c.wmu.Unlock()
	}
	*buf = b
	putBuf(buf)
	if err != nil {
		c.fail(err)
	}
	// Every request sent is answered (or failed by fail) before p is
	// given back: the reader may be writing into it until then.
	size, eof, err := recvShm(ch, len(p))
	if err != nil {
		return 0, false, true, pathErr("open", name, err)
	}
	return size, eof, true, nil
}
