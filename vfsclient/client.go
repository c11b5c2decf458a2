// Package vfsclient is llmsh's client of vfsd: a pipelined connection (one
// writer, one reader goroutine, answers matched by id) and File, an
// io.Reader/Writer/Seeker/Closer over a vfsd handle.
//
// Errors: a failed operation returns an *fs.PathError whose Err is an
// *Error carrying the protocol code; *Error unwraps to the syscall.Errno
// that GNU tools would have met (E_NOENT→ENOENT, E_PERM→EACCES,
// "is a directory"→EISDIR, "not a directory"→ENOTDIR, and for the tree
// operations "file exists"→EEXIST, "directory not empty"→ENOTEMPTY,
// "cross-device link"→EXDEV; E_IO→EIO,
// E_RANGE→EFBIG, E_CLOSED→EBADF, E_ARG→EINVAL, E_UNSUPPORTED→ENOTSUP), so
// errors.Is(err, fs.ErrNotExist) and errors.As(err, &errno) both work.
//
// When vfsd goes away every pending and later call fails with an error
// wrapping ErrServerGone.
//
// docs/architecture.md shows how the packages fit together.
package vfsclient

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"unicode/utf8"

	"github.com/llmsh/llmsh/vfsproto"
)

// ErrServerGone is returned once the connection to vfsd is lost.
var ErrServerGone = errors.New("vfsd exited unexpectedly")

// Error is a protocol error answered by vfsd.
type Error struct {
	Code vfsproto.Code
	Msg  string
}

func (e *Error) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	return string(e.Code)
}

// Unwrap returns the errno equivalent of the protocol error.
func (e *Error) Unwrap() error { return e.Errno() }

// Reason is why vfsd refused, when its errno alone does not say it and
// the user needs to know (a file with other hard links is "Permission
// denied", however writable it looks; under --strict a write outside the
// -o trees is refused where it would otherwise make a virtual file; a
// FIFO, socket or device is "Invalid argument" to open); "" otherwise.
// Tools print it after the errno's text.
func (e *Error) Reason() string {
	switch {
	case e.Code == vfsproto.EPerm && e.Msg == vfsproto.MsgHardLinks:
		return e.Msg
	case e.Code == vfsproto.EPerm && e.Msg == vfsproto.MsgOutside:
		return ReasonOutside
	case e.Code == vfsproto.EArg && e.Msg == "not a regular file":
		return "not a regular file: llmsh opens no fifo, socket or device"
	}
	return ""
}

// ReasonOutside is the Reason of a write refused under --strict because
// its path lies outside the writable (-o) trees.
const ReasonOutside = "outside the writable paths"

// Errno maps the protocol error to the errno a GNU tool would report.
func (e *Error) Errno() syscall.Errno {
	switch e.Code {
	case vfsproto.ENoEnt:
		if e.Msg == "not a directory" {
			return syscall.ENOTDIR
		}
		return syscall.ENOENT
	case vfsproto.EPerm:
		return syscall.EACCES
	case vfsproto.EArg:
		switch e.Msg {
		case "is a directory":
			return syscall.EISDIR
		case "not a directory":
			return syscall.ENOTDIR
		case "file exists":
			return syscall.EEXIST
		case "directory not empty":
			return syscall.ENOTEMPTY
		case "cross-device link":
			return syscall.EXDEV
		case "file name too long":
			return syscall.ENAMETOOLONG
		}
		return syscall.EINVAL
	case vfsproto.ERange:
		switch e.Msg {
		case "no space left on device":
			return syscall.ENOSPC // the virtual budget, for a new name
		case "too many open handles":
			return syscall.EMFILE // vfsd's MaxHandles per client
		}
		return syscall.EFBIG
	case vfsproto.EIO:
		if e.Msg == "no space left on device" {
			return syscall.ENOSPC
		}
	case vfsproto.EClosed:
		return syscall.EBADF
	case vfsproto.EUnsupported:
		return syscall.ENOTSUP
	}
	return syscall.EIO
}

// answer is what the reader goroutine hands to a waiting caller. Read and
// write answers decoded by the fast path fill fast, data (a pooled buffer)
// or written; every other answer is in resp.
type answer struct {
	resp    vfsproto.Response
	err     error
	fast    bool
	data    *[]byte
	eof     bool
	written int
	bulk    bool // a read_bulk answer: size raw bytes followed the frame
	size    int
	direct  int                   // of them, the first direct went into the reader's buffer
	hello   *vfsproto.HelloResult // a hello answer decoded by the fast path
	// many and raw are a read_files answer and the bytes after it.
	many *vfsproto.ReadFilesResult
	raw  []byte
	// tail is a read_tail answer (its bytes went to the caller's buffer).
	tail *vfsproto.ReadTailResult
}

// pendingRead is a read request in flight.
type pendingRead struct {
	ch    chan answer
	id    uint64
	size  int  // bytes asked
	ahead bool // a read_bulk sent ahead, counted in the client's aheadBytes
}

// Client is a connection to one vfsd session. It is safe for concurrent use.
type Client struct {
	w   io.Writer
	wmu sync.Mutex
	// cork holds requests written but not yet sent (under wmu): the
	// writes of deferred commands (File.Send), which go with the next
	// request or before anyone waits for an answer (uncork). corked
	// says it holds some.
	cork   []byte
	corked atomic.Bool
	mu     sync.Mutex
	next   uint64
	wait   map[uint64]chan answer
	// bulkID holds the read_bulk requests awaiting an answer, with the
	// buffer of the reader waiting for it, if any (see setDst).
	bulkID map[uint64][]byte
	// manyID holds the read_files requests awaiting an answer, tailID
	// the read_tail requests, with the buffer their bytes go to.
	manyID map[uint64]bool
	tailID map[uint64][]byte
	done   chan struct{}
	err    error
	closer io.Closer
	// bulk and bulkW are set once hello has negotiated read_bulk and
	// write_bulk (before any File exists, so they are read without a
	// lock).
	bulk, bulkW bool
	// readFile is set once hello has negotiated read_file (ReadFile),
	// readFiles and readTail once it has negotiated read_files
	// (ReadFiles) and read_tail (ReadTail).
	readFile, readFiles, readTail bool
	// walk is set once hello has negotiated walk (Walk).
	walk bool
	// copy is set once hello has negotiated copy (File.CopyFrom).
	copy bool
	// byteNames is set once hello has negotiated byte_names: file names
	// go both ways in wire form (vfsproto.FeatureByteNames), so that
	// names that are not UTF-8 reach vfsd unchanged.
	byteNames bool
	// readEOF is set once hello has negotiated read_eof: a read that
	// reaches the end of a file says so, and a small file needs one read.
	readEOF bool
	// named is set once hello has negotiated open_named (OpenLater),
	// nextNamed counts the handles named so far.
	named     bool
	nextNamed atomic.Int64
	// aheadBytes counts the bytes asked by read_bulk requests that files
	// sent ahead of their readers and have not taken yet (see topUp).
	aheadBytes atomic.Int64
	// shm is the read_shm region (UseShm), and shmFree its free slots
	// once hello has negotiated read_shm (nil before, and without it).
	shm     []byte
	shmFree *slotStack
	// shmAt is set once hello has negotiated read_shm_at too, shmW once
	// it has negotiated write_shm.
	shmAt, shmW bool
	// changed is set once a request that can create, change or remove a
	// file has been sent (Changed).
	changed atomic.Bool
	// pending holds the files whose write-behind slot holds bytes not
	// yet sent (see flushPending).
	pendMu  sync.Mutex
	pending map[*File]struct{}
	// later waits for the answer of the hello that HelloLater sent; the
	// first call that needs vfsd runs it (ready), once. asked says it
	// has run.
	later    func() (vfsproto.HelloResult, error)
	laterRun sync.Once
	laterErr error
	asked    atomic.Bool
}

// New starts a client speaking to vfsd over r (answers) and w (requests).
// If w is an io.Closer, Close closes it.
func New(r io.Reader, w io.Writer) *Client {
	c := &Client{w: w, wait: map[uint64]chan answer{}, bulkID: map[uint64][]byte{}, manyID: map[uint64]bool{}, tailID: map[uint64][]byte{}, done: make(chan struct{})}
	if cl, ok := w.(io.Closer); ok {
		c.closer = cl
	}
	// Not larger: bytes the buffer holds ahead of a read_bulk answer's
	// data are copied once more on their way to the reader.
	go c.readLoop(bufio.NewReaderSize(r, 64<<10))
	return c
}

func (c *Client) readLoop(r io.Reader) {
	buf := make([]byte, 0, 64<<10)
	for {
		frame, err := vfsproto.ReadFrame(r, buf)
		if err != nil {
			c.fail(err)
			return
		}
		if cap(frame) > cap(buf) {
			buf = frame[:0]
		}
		id, a, ok := parseFastAnswer(frame)
		if !ok {
			// Decoded into a Response of its own: &a.resp given to
			// encoding/json would put every answer on the heap.
			resp := new(vfsproto.Response)
			if err := json.Unmarshal(frame, resp); err != nil {
				c.fail(err)
				return
			}
			a.resp = *resp
			if id, err = strconv.ParseUint(a.resp.ID, 10, 64); err != nil {
				continue // not an answer to anything this client asked
			}
		}
		c.mu.Lock()
		ch := c.wait[id]
		delete(c.wait, id)
		dst, bulk := c.bulkID[id]
		if bulk {
			delete(c.bulkID, id)
		}
		many := c.manyID[id]
		if many {
			delete(c.manyID, id)
		}
		tdst, tail := c.tailID[id]
		if tail {
			delete(c.tailID, id)
		}
		c.mu.Unlock()
		if tail {
			if err := readTailData(r, &a, tdst); err != nil {
				if ch != nil {
					ch <- answer{err: err}
				}
				c.fail(err)
				return
			}
		}
		if many {
			if err := readManyData(r, &a); err != nil {
				if ch != nil {
					ch <- answer{err: err}
				}
				c.fail(err)
				return
			}
		}
		if bulk {
			if err := readBulkData(r, &a, dst); err != nil {
				if ch != nil {
					ch <- answer{err: err}
				}
				c.fail(err)
				return
			}
		}
		if ch != nil {
			ch <- a
		} else {
			putBuf(a.data)
		}
	}
}

// readBulkData reads the raw data that follows a successful read_bulk
// answer: first into dst (the buffer of the reader waiting for it, which
// saves a copy), the rest into a pooled buffer. A size out of range is a
// protocol error.
func readBulkData(r io.Reader, a *answer, dst []byte) error {
	if !a.fast {
		if !a.resp.OK {
			return nil // an error answer: no data follows
		}
		var res vfsproto.ReadBulkResult
		if err := json.Unmarshal(a.resp.Result, &res); err != nil {
			return err
		}
		a.fast, a.bulk, a.size, a.eof = true, true, res.Size, res.EOF
	}
	if !a.bulk || a.size < 0 || a.size > vfsproto.MaxBulkRead {
		return errors.New("vfsclient: malformed read_bulk answer")
	}
	a.direct = min(a.size, len(dst))
	if _, err := io.ReadFull(r, dst[:a.direct]); err != nil {
		return err
	}
	if a.size == a.direct {
		return nil
	}
	buf := getBulkBuf(a.size - a.direct)
	if _, err := io.ReadFull(r, *buf); err != nil {
		putBuf(buf)
		return err
	}
	a.data = buf
	return nil
}

// setDst asks for the data of the read_bulk request id to be read into
// p, if its answer has not started arriving. When it returns true, the
// caller must not touch p until the answer is received.
func (c *Client) setDst(id uint64, p []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.bulkID[id]; !ok {
		return false
	}
	c.bulkID[id] = p
	return true
}

func (c *Client) fail(cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = &goneError{cause}
	for id, ch := range c.wait {
		ch <- answer{err: c.err}
		delete(c.wait, id)
	}
	clear(c.bulkID)
	clear(c.manyID)
	clear(c.tailID)
	close(c.done)
}

type goneError struct{ cause error }

func (e *goneError) Error() string { return ErrServerGone.Error() }
func (e *goneError) Unwrap() []error {
	return []error{ErrServerGone, e.cause, syscall.EIO}
}

// Done is closed when the connection is gone (vfsd exited, or Close).
func (c *Client) Done() <-chan struct{} { return c.done }

// Err says why the connection is gone; nil while it is up.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends the session: vfsd sees end of file on its input.
func (c *Client) Close() error {
	c.uncork()
	var err error
	if c.closer != nil {
		err = c.closer.Close()
	}
	return err
}

// send writes a request and returns the channel its answer arrives on.
func (c *Client) send(op string, params any) (chan answer, error) {
	return c.sendCork(op, params, false)
}

// sendCork is send; with cork, the request waits in the cork (see
// Client.cork).
func (c *Client) sendCork(op string, params any, cork bool) (chan answer, error) {
	if err := c.ready(); err != nil {
		return nil, err
	}
	switch op {
	case vfsproto.OpOpen:
		p, ok := params.(vfsproto.OpenParams)
		if !ok || p.Mode != vfsproto.ModeRead {
			c.changed.Store(true)
		}
		if ok && plainString(p.Path) && plainString(string(p.Mode)) {
			// Written by hand, in the shape vfsd's fast path reads: a
			// file's first open, at a run's start, paid encoding/json's
			// reflection over the parameters on both sides.
			return c.sendFrameCork(func(dst []byte, id uint64) ([]byte, error) {
				return appendOpenRequest(dst, id, p.Path, p.Mode, p.H)
			}, nil, cork)
		}
	case vfsproto.OpCreateTemp, vfsproto.OpMkdir, vfsproto.OpRename, vfsproto.OpRemove, vfsproto.OpUtimes, vfsproto.OpChmod:
		c.changed.Store(true)
	case vfsproto.OpStat, vfsproto.OpClose:
		// By hand, in the shapes vfsd's fast path reads.
		if key, val, ok := handleOrPath(params); ok {
			return c.sendFrameCork(func(dst []byte, id uint64) ([]byte, error) {
				return appendKeyRequest(dst, id, op, key, val)
			}, nil, cork)
		}
	}
	if params == nil {
		return c.sendFrame(func(dst []byte, id uint64) ([]byte, error) {
			b, err := json.Marshal(vfsproto.Request{ID: strconv.FormatUint(id, 10), Op: op})
			if err != nil {
				return dst, err
			}
			return vfsproto.AppendFrame(dst, b)
		})
	}
	raw, err := c.marshalParams(params)
	if err != nil {
		return nil, err
	}
	// What json.Marshal gives the Request, without encoding raw again.
	return c.sendFrameCork(func(dst []byte, id uint64) ([]byte, error) {
		start := len(dst)
		dst = beginRequest(dst, id, op)
		dst = append(dst, raw...)
		return finishRequest(dst, start)
	}, nil, cork)
}

// marshalParams encodes the parameters of a request, their file names in
// the form the connection carries (vfsproto.WireParams): a name that is
// not valid UTF-8 goes in byte_names wire form, or, when vfsd did not
// grant byte_names, is refused with EILSEQ (JSON would carry U+FFFD in
// its place: another name).
func (c *Client) marshalParams(params any) ([]byte, error) {
	params, err := vfsproto.WireParams(params, c.byteNames)
	if err != nil {
		return nil, syscall.EILSEQ
	}
	return json.Marshal(params)
}

// wireName is marshalParams for one name.
func (c *Client) wireName(name string) (string, error) {
	switch {
	case c.byteNames:
		return vfsproto.EncodeName(name), nil
	case !utf8.ValidString(name):
		return "", syscall.EILSEQ
	}
	return name, nil
}

// sendRead sends a read request without encoding/json.
func (c *Client) sendRead(h int64, max int) (chan answer, error) {
	return c.sendFrame(func(dst []byte, id uint64) ([]byte, error) {
		return appendReadRequest(dst, id, vfsproto.OpRead, h, max)
	})
}

// sendReads sends n read requests of max bytes on handle h in one Write
// and appends them to reads in order. With bulk they are read_bulk
// requests.
func (c *Client) sendReads(h int64, max, n int, bulk bool, reads []pendingRead) ([]pendingRead, error) {
	if err := c.ready(); err != nil {
		return reads, err
	}
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return reads, err
	}
	first := c.next + 1
	for i := 0; i < n; i++ {
		c.next++
		ch := make(chan answer, 1)
		c.wait[c.next] = ch
		if bulk {
			c.bulkID[c.next] = nil
		}
		reads = append(reads, pendingRead{ch: ch, id: c.next, size: max})
	}
	c.mu.Unlock()
	buf := getBuf()
	b := (*buf)[:0]
	var err error
	op := vfsproto.OpRead
	if bulk {
		op = vfsproto.OpReadBulk
	}
	for i := 0; i < n && err == nil; i++ {
		b, err = appendReadRequest(b, first+uint64(i), op, h, max)
	}
	if err == nil {
		c.wmu.Lock()
		err = c.writeCorked(b)
		c.wmu.Unlock()
	}
	*buf = b
	putBuf(buf)
	if err != nil {
		c.fail(err)
		return reads, c.Err()
	}
	return reads, nil
}

// writeCorked writes the corked requests and then b, with wmu held.
func (c *Client) writeCorked(b []byte) error {
	if len(c.cork) > 0 {
		if len(b) <= 16<<10 {
			c.cork = append(c.cork, b...)
			b = nil
		}
		_, err := c.w.Write(c.cork)
		c.cork = c.cork[:0]
		c.corked.Store(false)
		if err != nil || len(b) == 0 {
			return err
		}
	}
	_, err := c.w.Write(b)
	return err
}

// uncork sends the corked requests, before a wait for an answer.
func (c *Client) uncork() {
	if !c.corked.Load() {
		return
	}
	c.wmu.Lock()
	err := c.writeCorked(nil)
	c.wmu.Unlock()
	if err != nil {
		c.fail(err)
	}
}

// maxCork is the most bytes of requests corked: more are sent at once.
const maxCork = 64 << 10

// sendWrite sends a write request without encoding/json. data is encoded
// before sendWrite returns, so the caller may reuse it.
func (c *Client) sendWrite(h int64, data []byte) (chan answer, error) {
	return c.sendFrame(func(dst []byte, id uint64) ([]byte, error) {
		return appendWriteRequest(dst, id, h, data)
	})
}

// sendWriteBulk sends a write_bulk request: the frame, then data raw. The
// data is written before sendWriteBulk returns, so the caller may reuse it.
func (c *Client) sendWriteBulk(h int64, data []byte) (chan answer, error) {
	return c.sendFrameThen(func(dst []byte, id uint64) ([]byte, error) {
		return appendWriteBulkRequest(dst, id, h, len(data))
	}, data)
}

// appendWriteBulkRequest appends the frame of a write_bulk of size bytes.
func appendWriteBulkRequest(dst []byte, id uint64, h int64, size int) ([]byte, error) {
	start := len(dst)
	dst = beginRequest(dst, id, vfsproto.OpWriteBulk)
	dst = append(dst, `{"h":`...)
	dst = strconv.AppendInt(dst, h, 10)
	dst = append(dst, `,"size":`...)
	dst = strconv.AppendInt(dst, int64(size), 10)
	dst = append(dst, '}')
	return finishRequest(dst, start)
}

// sendWriteBulkCorked is sendWriteBulk for data of at most 16 KiB, whose
// request waits in the cork (see Client.cork).
func (c *Client) sendWriteBulkCorked(h int64, data []byte) (chan answer, error) {
	return c.sendFrameCork(func(dst []byte, id uint64) ([]byte, error) {
		return appendWriteBulkRequest(dst, id, h, len(data))
	}, data, true)
}

// sendFrame registers a new id, lets encode append the request frame for
// it, and writes the frame in one Write call.
func (c *Client) sendFrame(encode func(dst []byte, id uint64) ([]byte, error)) (chan answer, error) {
	return c.sendFrameThen(encode, nil)
}

// sendFrameThen is sendFrame followed by raw bytes, written with no other
// request between them.
func (c *Client) sendFrameThen(encode func(dst []byte, id uint64) ([]byte, error), raw []byte) (chan answer, error) {
	return c.sendFrameCork(encode, raw, false)
}

// sendFrameCork is sendFrameThen; with cork, the request (with raw, of
// at most 16 KiB) waits in the cork (see Client.cork).
func (c *Client) sendFrameCork(encode func(dst []byte, id uint64) ([]byte, error), raw []byte, cork bool) (chan answer, error) {
	if err := c.ready(); err != nil {
		return nil, err
	}
	ch := getChan()
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return nil, err
	}
	c.next++
	id := c.next
	c.wait[id] = ch
	c.mu.Unlock()
	buf := getBuf()
	b, err := encode((*buf)[:0], id)
	if err == nil {
		if len(raw) <= 16<<10 {
			b, raw = append(b, raw...), nil // small: one write call
		}
		c.wmu.Lock()
		switch {
		case cork && len(raw) == 0:
			c.cork = append(c.cork, b...)
			c.corked.Store(true)
			if len(c.cork) >= maxCork {
				err = c.writeCorked(nil)
			}
		default:
			err = c.writeCorked(b)
		}
		if err == nil && len(raw) > 0 {
			_, err = c.w.Write(raw)
		}
		c.wmu.Unlock()
	}
	*buf = b
	putBuf(buf)
	if err != nil {
		c.mu.Lock()
		delete(c.wait, id)
		c.mu.Unlock()
		if errors.Is(err, vfsproto.ErrFrameTooLarge) {
			return nil, err
		}
		c.fail(err)
		return nil, c.Err()
	}
	return ch, nil
}

// freeChans holds answer channels given back by File.Settled and by the
// wait for a write's answer: an echo's own redirection in a loop (`echo
// $i >> f`) made three a command, a printf into the loop's redirection
// one. Not a sync.Pool, which every collection empties: a loop of
// printf's defers up to the shell's maxDeferred (4096) writes between
// two barriers, and collects several times meanwhile. It keeps at most
// maxFreeChans, as many as such a loop holds at once.
var freeChans struct {
	mu sync.Mutex
	s  []chan answer
}

// maxFreeChans is the most answer channels freeChans keeps.
const maxFreeChans = 4096

// getChan returns an empty answer channel.
func getChan() chan answer {
	freeChans.mu.Lock()
	if n := len(freeChans.s); n > 0 {
		ch := freeChans.s[n-1]
		freeChans.s[n-1] = nil
		freeChans.s = freeChans.s[:n-1]
		freeChans.mu.Unlock()
		return ch
	}
	freeChans.mu.Unlock()
	return make(chan answer, 1)
}

// putChan gives back ch, whose one answer has been received: no request
// waits on it any more (the reader forgets an id before it answers it).
func putChan(ch chan answer) {
	freeChans.mu.Lock()
	if len(freeChans.s) < maxFreeChans {
		freeChans.s = append(freeChans.s, ch)
	}
	freeChans.mu.Unlock()
}

// recv waits for an answer and decodes its result into out (nil, or a
// pointer to the operation's result type).
func recv(ch chan answer, out any) error {
	a := <-ch
	if a.err != nil {
		return a.err
	}
	if a.fast {
		switch r := out.(type) {
		case *vfsproto.ReadResult:
			if a.data != nil {
				r.Data = *a.data // handed over: not returned to the pool
			}
			r.EOF = a.eof
		case *vfsproto.WriteResult:
			r.Written = a.written
		case *vfsproto.HelloResult:
			if a.hello != nil {
				*r = *a.hello
			}
		default:
			putBuf(a.data)
		}
		return nil
	}
	if !a.resp.OK {
		if a.resp.Error == nil {
			return &Error{Code: vfsproto.EIO, Msg: "malformed answer"}
		}
		return &Error{Code: a.resp.Error.Code, Msg: a.resp.Error.Message}
	}
	switch r := out.(type) {
	case *vfsproto.StatResult:
		if st, ok := decodeStat(a.resp.Result); ok {
			*r = st
			return nil
		}
	case *vfsproto.OpenResult:
		if h, ok := parseHandleResult(a.resp.Result); ok {
			r.Handle = h
			return nil
		}
	case *vfsproto.ListResult:
		if ents, ok := decodeList(a.resp.Result); ok {
			r.Entries = ents
			return decodeNames(r)
		}
	case *vfsproto.WalkResult:
		if w, ok := decodeWalk(a.resp.Result); ok {
			*r = w
			return decodeNames(r)
		}
	}
	if out != nil && len(a.resp.Result) > 0 {
		if err := json.Unmarshal(a.resp.Result, out); err != nil {
			return err
		}
	}
	return decodeNames(out)
}

// decodeNames decodes the file names of a result from byte_names wire
// form (vfsproto.DecodeNames). A name without NUL is its own wire form,
// and vfsd sends no NUL without byte_names, so this holds on any
// connection. A name that is not in canonical wire form, or that no file
// could have (with a NUL, a '/' in an entry's name), fails the answer.
func decodeNames(out any) error {
	if vfsproto.DecodeNames(out) != nil {
		return &Error{Code: vfsproto.EIO, Msg: vfsproto.MsgNameEncoding}
	}
	return nil
}

// call sends one request and waits for its answer.
func (c *Client) call(op string, params, out any) error {
	ch, err := c.send(op, params)
	if err != nil {
		return err
	}
	return recv(ch, out)
}

// Hello exchanges versions with vfsd and asks for the read_bulk and
// write_bulk features: when vfsd grants them, files opened read-only are
// read in chunks of up to 1 MiB of raw bytes instead of 4 KiB of base64,
// and writes go as raw chunks of up to 1 MiB instead of 64 KiB of base64.
// After UseShm it also asks for read_shm, which WriteTo then uses.
// Call Hello before opening any file (and at most once).
func (c *Client) Hello() (vfsproto.HelloResult, error) {
	return c.SendHello()()
}

// SendHello is Hello in two halves: it sends hello, and the function it
// returns waits for vfsd's answer and takes it as Hello does. The caller
// can work in between, on the same goroutine (llmsh restricts itself
// while vfsd answers).
func (c *Client) SendHello() func() (vfsproto.HelloResult, error) {
	// write_stop: Files send writes without waiting for their answers.
	features := []string{vfsproto.FeatureReadBulk, vfsproto.FeatureWriteBulk, vfsproto.FeatureReadEOF, vfsproto.FeatureListStat, vfsproto.FeatureReadFile, vfsproto.FeatureReadFiles, vfsproto.FeatureReadTail, vfsproto.FeatureWriteStop, vfsproto.FeatureOpenNamed, vfsproto.FeatureWalk, vfsproto.FeatureByteNames, vfsproto.FeatureCopy}
	if len(c.shm) >= vfsproto.ShmSlot {
		features = append(features, vfsproto.FeatureReadShm, vfsproto.FeatureReadShmAt, vfsproto.FeatureWriteShm)
	}
	p := vfsproto.HelloParams{Version: vfsproto.Version, Features: features}
	ch, err := c.sendFrame(func(dst []byte, id uint64) ([]byte, error) { return appendHelloRequest(dst, id, p) })
	return func() (vfsproto.HelloResult, error) {
		var r vfsproto.HelloResult
		if err == nil {
			err = recv(ch, &r)
		}
		if err == nil && r.MaxBulkRead >= bulkChunk && slices.Contains(r.Features, vfsproto.FeatureReadBulk) {
			c.bulk = true
		}
		if err == nil && r.MaxBulkWrite >= bulkWriteChunk && slices.Contains(r.Features, vfsproto.FeatureWriteBulk) {
			c.bulkW = true
		}
		c.readEOF = err == nil && slices.Contains(r.Features, vfsproto.FeatureReadEOF)
		c.named = err == nil && c.bulkW && slices.Contains(r.Features, vfsproto.FeatureOpenNamed)
		c.readFile = c.bulk && slices.Contains(r.Features, vfsproto.FeatureReadFile)
		c.readFiles = c.readFile && slices.Contains(r.Features, vfsproto.FeatureReadFiles)
		c.readTail = c.readFile && slices.Contains(r.Features, vfsproto.FeatureReadTail)
		c.walk = err == nil && slices.Contains(r.Features, vfsproto.FeatureWalk)
		c.copy = err == nil && slices.Contains(r.Features, vfsproto.FeatureCopy)
		c.byteNames = err == nil && slices.Contains(r.Features, vfsproto.FeatureByteNames)
		if n := min(r.ShmSlots, len(c.shm)/vfsproto.ShmSlot); err == nil && n > 0 &&
			slices.Contains(r.Features, vfsproto.FeatureReadShm) {
			c.shmFree = newSlotStack(n)
			c.shmAt = slices.Contains(r.Features, vfsproto.FeatureReadShmAt)
			c.shmW = slices.Contains(r.Features, vfsproto.FeatureWriteShm)
		}
		return r, err
	}
}

// HelloLater sends hello as SendHello does, without waiting for its
// answer: the first call that asks vfsd for anything waits for it then
// (and fails with its error), so that a script that never asks runs
// while vfsd is still starting (issue 21). Call it instead of Hello,
// before the client is used.
func (c *Client) HelloLater() {
	c.later = c.SendHello()
}

// ready waits for the answer of HelloLater's hello, once, and returns
// its error: every call that sends a request, or that looks at what
// hello negotiated, calls it first.
func (c *Client) ready() error {
	if c.later == nil {
		return nil
	}
	c.laterRun.Do(func() {
		c.asked.Store(true)
		_, c.laterErr = c.later()
	})
	return c.laterErr
}

// Later reports whether hello was sent by HelloLater.
func (c *Client) Later() bool { return c.later != nil }

// Asked reports whether anything has been asked of vfsd since
// HelloLater, which has then waited for hello's answer. A vfsd never
// asked holds nothing of the session: the caller may end it without a
// word.
func (c *Client) Asked() bool { return c.asked.Load() }

// Stats returns vfsd's counters.
func (c *Client) Stats() (vfsproto.StatsResult, error) {
	var r vfsproto.StatsResult
	err := c.call(vfsproto.OpStats, nil, &r)
	return r, err
}

// WriteBudget returns vfsd's write budget (Max -1: none) and what it has
// counted, after lowering it to lower bytes when lower is 0 or more (vfsd
// never raises it).
func (c *Client) WriteBudget(lower int64) (vfsproto.WriteBudgetResult, error) {
	var p *vfsproto.WriteBudgetParams
	if lower >= 0 {
		p = &vfsproto.WriteBudgetParams{Max: &lower}
	}
	var r vfsproto.WriteBudgetResult
	err := c.call(vfsproto.OpWriteBudget, p, &r)
	return r, err
}

// Changed reports whether the client has asked vfsd for anything that
// can create, change or remove a file: an open for writing, create_temp,
// mkdir, rename, remove, utimes or chmod. A vfsd whose only client never
// did holds no virtual files, so llmsh does not ask for them then.
func (c *Client) Changed() bool { return c.changed.Load() }

// VirtualFiles lists the session's virtual files: all of them, unless
// their names are too many to fit an answer; then it lists the shortest
// names and VirtualListing says how many it left out.
func (c *Client) VirtualFiles() ([]vfsproto.VirtualFile, error) {
	r, err := c.VirtualListing()
	return r.Files, err
}

// VirtualListing is VirtualFiles with the number of virtual files it does
// not name (Omitted), when they are too many for one answer.
func (c *Client) VirtualListing() (vfsproto.VirtualsResult, error) {
	var r vfsproto.VirtualsResult
	err := c.call(vfsproto.OpVirtuals, nil, &r)
	return r, err
}
