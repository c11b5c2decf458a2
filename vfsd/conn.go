package vfsd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

// MaxHandles is the largest number of handles one client may hold open.
const MaxHandles = 4096

// maxConcurrentOps bounds the operations without a handle (open, list, …)
// that run at once for one client; the reader waits beyond it.
const maxConcurrentOps = 16

// queueLen is the depth of a handle's request queue.
const queueLen = 64

// ErrMalformed is returned by Serve when a frame is not JSON and no request
// id can be recovered from it: the connection is closed.
var ErrMalformed = errors.New("vfsd: malformed request without id")

// job is one decoded request.
type job struct {
	id    string
	op    string
	start time.Time
	path  string
	to    string // rename's target, for the log
	h     int64
	max   int64
	slot  int64 // read_shm, read_shm_at
	off   int64 // read_shm_at, copy
	from  int64 // copy's source handle
	data  []byte
	buf   *[]byte // pooled storage of data (fast path), released when done
	// release, when set, gives back data's storage instead (write_bulk).
	release func()
	seek    vfsproto.SeekParams
	raw     json.RawMessage
	// parsed is set when the fast path decoded the parameters (path,
	// max) and raw is not to be read.
	parsed bool
	hello  *vfsproto.HelloParams     // hello's parameters, decoded by the fast path
	names  bool                      // list's "names", decoded by the fast path
	mode   vfsproto.Mode             // open's mode, decoded by the fast path (parsed)
	files  *vfsproto.ReadFilesParams // read_files' parameters, decoded by the fast path
}

// handle is an open handle of one client. Its requests are served in order
// by one goroutine reading queue; only the connection's reader sends to
// queue, and it closes queue after sending close. The reader makes the
// queue and starts its goroutine when it first queues a request: a handle
// whose requests the reader runs itself (small writes, close: `echo $i >>
// f` in a loop, a handle a command) has neither.
type handle struct {
	num      int64
	f        file
	canRead  bool
	canWrite bool
	queue    chan *job
	closed   bool
	// busy counts the jobs sent to queue and not yet answered: at 0
	// the handle's goroutine waits for one, and the reader may run a
	// small write or a close itself (route).
	busy atomic.Int32
	// werr is, under write_stop, the failure of a write on the handle:
	// later writes fail with it too, until a seek.
	werr *vfsproto.Error
	// failed is the error of the named open that gave the handle its
	// number and failed: every request on it fails with it, and a
	// close frees the name. Such a handle has no file, queue or
	// goroutine.
	failed *vfsproto.Error
}

// conn is one client of a Server.
type conn struct {
	s   *Server
	out chan *frameBuf
	// br is the reader's buffered input (used by the reader only).
	br *bufio.Reader
	// wmu is held while a frame is written to bw, by the writer or by
	// the reader answering a job it ran itself (sendNow).
	wmu     sync.Mutex
	bw      *bufio.Writer
	sem     chan struct{}
	mu      sync.Mutex
	handles map[int64]*handle
	next    int64
	opWG    sync.WaitGroup
	hWG     sync.WaitGroup
	// idle hands a job to a worker of spawn that is waiting for one;
	// quit (closed at shutdown) ends the waiting workers, workWG counts
	// the workers.
	idle   chan *job
	quit   chan struct{}
	workWG sync.WaitGroup
	// bulk is set once hello negotiated read_bulk on this connection,
	// bulkW once it negotiated write_bulk.
	bulk  atomic.Bool
	bulkW atomic.Bool
	// readEOF is set once hello negotiated read_eof, writeStop once it
	// negotiated write_stop.
	readEOF, writeStop atomic.Bool
	// wbulkSem bounds the write_bulk payloads read and not yet written.
	wbulkSem chan struct{}
	// bulkSem bounds the read_bulk buffers held by one client (read and
	// not yet written out): a client that sends many read_bulk requests
	// and reads slowly costs at most maxBulkInFlight MiB.
	bulkSem chan struct{}
	sp      *splicer
	// shm is the read_shm region given to ServeShm (nil: none), and
	// shmSlots its number of slots once hello has negotiated read_shm
	// (0 before, and always without a region).
	shm      []byte
	shmSlots atomic.Int64
	// shmAt is set once hello has negotiated read_shm_at, shmW once it
	// negotiated write_shm.
	shmAt atomic.Bool
	shmW  atomic.Bool
	// listStat is set once hello has negotiated list_stat, readFile
	// once it negotiated read_file (readFiles, readTail: read_files,
	// read_tail).
	listStat, readFile, readFiles, readTail atomic.Bool
	// named is set once hello negotiated open_named.
	named atomic.Bool
	// walkOK: hello negotiated walk.
	walkOK atomic.Bool
	// cursor is where the last walk that was cut stopped (walk.go).
	cursor walkCursor
	// copyOK: hello negotiated copy.
	copyOK atomic.Bool
	// byteNames: hello negotiated byte_names (names in wire form, both
	// ways; see vfsproto.FeatureByteNames).
	byteNames atomic.Bool
	// werr is the first error writing answers (under wmu): the answers
	// after it are dropped.
	werr error
	// batch holds the small writes of one handle that the reader has
	// gathered (see gather); only the reader touches it.
	batch writeBatch
}

// writeBatch is consecutive small writes of one handle, written with one
// write(2) (flushBatch). ends[i] is where jobs[i]'s bytes end in data.
type writeBatch struct {
	h    *handle
	jobs []*job
	ends []int
	data []byte
}

// maxBulkInFlight is the number of read_bulk answers of one client that
// may wait in memory for the writer.
const maxBulkInFlight = 4

// Serve serves one client, reading requests from r and writing responses to
// w, until r reaches EOF (nil) or a framing error closes the connection.
// Several Serve calls may run concurrently on one Server: they share its
// virtual files and counters, each has its own handles. When Serve returns,
// every handle of the client is closed, unfinished atomic writes are
// discarded, and all its goroutines have exited.
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	return s.ServeShm(r, w, nil)
}

// ServeShm is Serve for a client that also shares the memory region shm
// with vfsd (vfsd --shm-fd): when the client's hello asks for read_shm,
// read_shm requests read file data into slots of shm instead of sending
// it on w, and with write_shm the client puts the data of its writes
// there. vfsd reads from shm only the bytes of a write_shm, as the data
// to write, so what the client puts there means nothing else to vfsd.
// shm must not be shared with any other client.
func (s *Server) ServeShm(r io.Reader, w io.Writer, shm []byte) error {
	c := &conn{
		shm:      shm,
		s:        s,
		out:      make(chan *frameBuf, 256),
		sem:      make(chan struct{}, maxConcurrentOps),
		idle:     make(chan *job),
		quit:     make(chan struct{}),
		bulkSem:  make(chan struct{}, maxBulkInFlight),
		wbulkSem: make(chan struct{}, maxBulkInFlight),
		handles:  make(map[int64]*handle),
		next:     vfsproto.FirstHandle,
		sp:       newSplicer(w),
		bw:       bufio.NewWriterSize(w, 64<<10),
	}
	defer c.sp.close() // after the writer is done (below)
	writerDone := make(chan error, 1)
	go func() { writerDone <- c.writeLoop() }()

	br := bufio.NewReaderSize(r, 64<<10)
	c.br = br
	buf := make([]byte, 0, 64<<10)
	var err error
	for {
		if br.Buffered() == 0 {
			// Before waiting for the client: see gather and sendNow.
			c.flushBatch()
			c.flushNow()
		}
		var frame []byte
		frame, err = vfsproto.ReadFrame(br, buf)
		if err != nil {
			break
		}
		if cap(frame) <= 1<<20 && cap(frame) > cap(buf) {
			buf = frame[:0]
		}
		if err = c.handleFrame(frame, br); err != nil {
			break
		}
	}
	c.flushBatch()
	if errors.Is(err, io.EOF) {
		err = nil
	} else {
		c.logClose(err)
	}
	c.shutdown()
	// A client that hangs up without reading its last responses is not an
	// error of the server.
	if werr := <-writerDone; err == nil && werr != nil &&
		!errors.Is(werr, io.ErrClosedPipe) && !errors.Is(werr, syscall.EPIPE) {
		err = werr
	}
	return err
}

// writeLoop writes response frames, flushing whenever the queue is
// momentarily empty. After a write error it keeps draining the queue.
func (c *conn) writeLoop() error {
	var err error
	for f := range c.out {
		c.wmu.Lock()
		if c.werr == nil {
			c.werr = c.writeFrame(f)
		}
		putFrame(f)
		if c.werr == nil && len(c.out) == 0 {
			// Give the handle workers one chance to queue more before
			// paying for a write: batches cut the wake-ups on both sides.
			c.wmu.Unlock()
			runtime.Gosched()
			c.wmu.Lock()
			if len(c.out) == 0 && c.werr == nil {
				c.werr = c.bw.Flush()
			}
		}
		c.wmu.Unlock()
	}
	c.wmu.Lock()
	if err = c.werr; err == nil {
		err = c.bw.Flush()
	}
	c.wmu.Unlock()
	return err
}

// writeFrame writes f to bw (and its spliced data after it). The caller
// holds wmu.
func (c *conn) writeFrame(f *frameBuf) error {
	_, err := c.bw.Write(f.b)
	if err == nil && len(f.tail) > 0 {
		_, err = c.bw.Write(f.tail)
	}
	if err == nil && f.pipe != nil {
		if err = c.bw.Flush(); err == nil {
			err = f.sp.drain(f.pipe, f.pipeN)
		}
		f.pipe = nil // drain gave it back
	}
	return err
}

// sendNow writes the answer f of a job the reader ran itself, when the
// writer is idle: the answer goes out without waking it (one goroutine
// hand-off less a request). It is flushed when the reader has read every
// request the client sent (flushNow, before the reader waits for more):
// the answers to a batch of requests (the writes of a loop's commands,
// sent together) go together. Otherwise f waits in the queue as any
// answer.
func (c *conn) sendNow(f *frameBuf) {
	if len(c.out) == 0 && c.wmu.TryLock() {
		if c.werr == nil {
			c.werr = c.writeFrame(f)
		}
		c.wmu.Unlock()
		putFrame(f)
		return
	}
	c.out <- f
}

// flushNow flushes the answers that sendNow wrote.
func (c *conn) flushNow() {
	c.wmu.Lock()
	if c.werr == nil && c.bw.Buffered() > 0 {
		c.werr = c.bw.Flush()
	}
	c.wmu.Unlock()
}

// shutdown waits for running operations, ends every handle left open
// (discarding unfinished writes) and stops the writer.
func (c *conn) shutdown() {
	c.opWG.Wait()
	close(c.quit)
	c.workWG.Wait()
	c.mu.Lock()
	for n, h := range c.handles {
		switch {
		case h.queue != nil:
			close(h.queue) // its goroutine ends it
		case h.failed == nil:
			c.endHandle(h)
		}
		delete(c.handles, n)
	}
	c.mu.Unlock()
	c.hWG.Wait()
	close(c.out)
}

// handleFrame decodes one request and runs it or queues it; the data of a
// write_bulk is read from r, the stream after the frame. A non-nil error
// closes the connection.
func (c *conn) handleFrame(frame []byte, r io.Reader) (err error) {
	c.s.stats.requests.Add(1)
	var start time.Time
	if c.s.log != nil {
		start = time.Now()
	}
	defer func() {
		if r := recover(); r != nil {
			id, ok := lenientID(frame)
			if !ok {
				err = ErrMalformed
				return
			}
			c.fail(&job{id: id, start: start}, perr(vfsproto.EIO, msgInternal))
		}
	}()
	if fr, ok := parseFast(frame); ok {
		switch fr.op {
		case vfsproto.OpWrite, vfsproto.OpWriteBulk, vfsproto.OpWriteShm:
			// route gathers it, or writes the batch first
		default:
			c.flushBatch()
		}
		return c.handleFast(fr, start, r)
	}
	c.flushBatch()
	return c.handleJSON(frame, start, r)
}

// handleFast runs or queues a request of the binary fast path.
func (c *conn) handleFast(fr fastReq, start time.Time, r io.Reader) error {
	j := &job{id: fr.id, op: fr.op, start: start, h: fr.h, max: fr.max, slot: fr.slot, off: fr.off, data: fr.data, buf: fr.buf,
		path: fr.path, parsed: fr.op == vfsproto.OpList || fr.op == vfsproto.OpReadFile || fr.op == vfsproto.OpReadTail || fr.op == vfsproto.OpOpen,
		hello: fr.hello, names: fr.names, mode: fr.mode, files: fr.files}
	switch fr.op {
	case vfsproto.OpOpen:
		if fr.named && c.named.Load() {
			c.openNamed(j)
		} else {
			c.spawn(j) // without open_named, "h" is an unknown key
		}
		return nil
	case vfsproto.OpList:
		c.spawn(j)
		return nil
	case vfsproto.OpStat:
		if fr.byPath {
			c.spawn(j)
			return nil
		}
	case vfsproto.OpReadFile, vfsproto.OpReadTail:
		c.readFileJob(j, r)
		return nil
	case vfsproto.OpReadFiles:
		c.readFilesJob(j)
		return nil
	case vfsproto.OpHello:
		c.helloNow(j)
		return nil
	case vfsproto.OpRead:
		if e := checkMax(j.max); e != nil {
			c.fail(j, e)
			return nil
		}
	case vfsproto.OpReadBulk:
		if e := c.checkBulk(j.max); e != nil {
			c.fail(j, e)
			return nil
		}
	case vfsproto.OpReadShm:
		if c.shmSlots.Load() == 0 {
			c.fail(j, unsupported())
			return nil
		}
		if e := c.checkShm(j.max, j.slot); e != nil {
			c.fail(j, e)
			return nil
		}
	case vfsproto.OpReadShmAt:
		c.readShmAt(j)
		return nil
	case vfsproto.OpWriteBulk:
		return c.writeBulk(j, int64(fr.max), r)
	case vfsproto.OpWriteShm:
		c.writeShm(j, fr.slot, fr.max)
		return nil
	}
	c.route(j)
	return nil
}

// handleJSON decodes a JSON request and runs it or queues it.
func (c *conn) handleJSON(frame []byte, start time.Time, r io.Reader) error {
	var req vfsproto.Request
	if err := json.Unmarshal(frame, &req); err != nil {
		id, ok := lenientID(frame)
		if !ok {
			c.logRejected(start)
			return ErrMalformed
		}
		c.fail(&job{id: id, start: start}, perr(vfsproto.EArg, "malformed request"))
		return nil
	}
	j := &job{id: req.ID, op: req.Op, start: start, raw: req.Params}
	switch req.Op {
	case vfsproto.OpRead, vfsproto.OpReadBulk, vfsproto.OpReadShm, vfsproto.OpReadShmAt:
		if !c.readJob(j, &req) {
			return nil
		}
	case vfsproto.OpWriteBulk, vfsproto.OpWriteShm:
		return c.bulkWriteJSON(j, &req, r)
	case vfsproto.OpWrite:
		var p vfsproto.WriteParams
		if e := decodeParams(req.Params, &p, "h", "data"); e != nil {
			c.fail(j, e)
			return nil
		}
		j.h, j.data = p.H, p.Data
	case vfsproto.OpClose:
		var p vfsproto.HandleParams
		if e := decodeParams(req.Params, &p, "h"); e != nil {
			c.fail(j, e)
			return nil
		}
		j.h = p.H
	case vfsproto.OpCopy:
		if !c.copyOK.Load() {
			c.fail(j, unsupported())
			return nil
		}
		var p vfsproto.CopyParams
		if e := decodeParams(req.Params, &p, "h", "from", "off", "max"); e != nil {
			c.fail(j, e)
			return nil
		}
		j.h, j.from, j.off, j.max = p.H, p.From, p.Off, p.Max
	case vfsproto.OpSeek:
		if e := decodeParams(req.Params, &j.seek, "h", "offset", "whence"); e != nil {
			c.fail(j, e)
			return nil
		}
		j.h = j.seek.H
	case vfsproto.OpStat:
		var p vfsproto.StatParams
		if e := c.decodeNamed(req.Params, &p); e != nil {
			c.fail(j, e)
			return nil
		}
		if (p.H == nil) == (p.Path == nil) {
			c.fail(j, perr(vfsproto.EArg, "stat needs exactly one of h and path"))
			return nil
		}
		if p.Path != nil {
			j.path = *p.Path
			c.spawn(j)
			return nil
		}
		j.h = *p.H
	case vfsproto.OpReadFile, vfsproto.OpReadTail:
		c.readFileJob(j, r)
		return nil
	case vfsproto.OpReadFiles:
		c.readFilesJob(j)
		return nil
	case vfsproto.OpOpen:
		if c.named.Load() && bytes.Contains(req.Params, []byte(`"h"`)) {
			c.openNamed(j)
			return nil
		}
		c.spawn(j)
		return nil
	case vfsproto.OpWalk:
		if !c.walkOK.Load() {
			c.fail(j, unsupported())
			return nil
		}
		c.spawn(j)
		return nil
	case vfsproto.OpHello:
		c.helloNow(j)
		return nil
	case vfsproto.OpList, vfsproto.OpCreateTemp,
		vfsproto.OpStats, vfsproto.OpVirtuals, vfsproto.OpLstat, vfsproto.OpMkdir,
		vfsproto.OpRemove, vfsproto.OpRename, vfsproto.OpUtimes, vfsproto.OpChmod,
		vfsproto.OpReadlink, vfsproto.OpWriteBudget:
		c.spawn(j)
		return nil
	case "":
		c.fail(j, perr(vfsproto.EArg, "missing op"))
		return nil
	default:
		c.fail(j, unsupported())
		return nil
	}
	c.route(j)
	return nil
}

// bulkWriteJSON runs a write_bulk or write_shm request read as JSON.
func (c *conn) bulkWriteJSON(j *job, req *vfsproto.Request, r io.Reader) error {
	if req.Op == vfsproto.OpWriteBulk {
		if !c.bulkW.Load() {
			// Not negotiated: an unknown operation, and nothing
			// after the frame belongs to it.
			c.fail(j, unsupported())
			return nil
		}
		var p vfsproto.WriteBulkParams
		if e := decodeParams(req.Params, &p, "h", "size"); e != nil {
			// Without a size the stream cannot be followed further.
			c.fail(j, e)
			return errBulkSize
		}
		j.h = p.H
		return c.writeBulk(j, int64(p.Size), r)
	}
	if !c.shmW.Load() {
		c.fail(j, unsupported())
		return nil
	}
	var p vfsproto.WriteShmParams
	if e := decodeParams(req.Params, &p, "h", "slot", "size"); e != nil {
		c.fail(j, e)
		return nil
	}
	j.h = p.H
	c.writeShm(j, int64(p.Slot), int64(p.Size))
	return nil
}

// readFilesJob starts a read_files job, which a client asks for only
// once its hello named the feature.
func (c *conn) readFilesJob(j *job) {
	if !c.readFiles.Load() {
		c.fail(j, unsupported())
		return
	}
	c.spawn(j)
}

// readFileJob checks a read_file or read_tail request and runs it, or
// fails it. A lone one (no operation in flight, no request behind it:
// head's or tail's one request) runs in the reader, whose answer goes
// out at once (sendNow): a worker would only add a hand-off, and on
// vfsd's first request the start of a thread for it. Requests that come
// together (grep -r reads files ahead) go to workers, in parallel.
func (c *conn) readFileJob(j *job, r io.Reader) {
	run := c.readWhole
	granted := c.readFile.Load()
	if j.op == vfsproto.OpReadTail {
		run, granted = c.readEnd, c.readTail.Load()
	}
	if !granted {
		c.fail(j, unsupported())
		return
	}
	if !j.parsed {
		var p vfsproto.ReadFileParams
		if e := c.decodeNamed(j.raw, &p, "path", "max"); e != nil {
			c.fail(j, e)
			return
		}
		j.path, j.max = p.Path, int64(p.Max)
	}
	if e := c.checkBulk(j.max); e != nil {
		c.fail(j, e)
		return
	}
	if br, ok := r.(*bufio.Reader); ok && br.Buffered() == 0 && len(c.sem) == 0 {
		c.safely(j, func() (*frameBuf, *vfsproto.Error, int) { return run(j) }, c.sendNow)
		return
	}
	c.spawn(j)
}

// readJob decodes the parameters of a read request into j; false when the
// request is answered already (failed, or served at once).
func (c *conn) readJob(j *job, req *vfsproto.Request) bool {
	switch req.Op {
	case vfsproto.OpRead:
		var p vfsproto.ReadParams
		if e := decodeParams(req.Params, &p, "h", "max"); e != nil {
			c.fail(j, e)
			return false
		}
		j.h, j.max = p.H, int64(p.Max)
		if e := checkMax(j.max); e != nil {
			c.fail(j, e)
			return false
		}
	case vfsproto.OpReadBulk:
		if !c.bulk.Load() {
			c.fail(j, unsupported())
			return false
		}
		var p vfsproto.ReadParams
		if e := decodeParams(req.Params, &p, "h", "max"); e != nil {
			c.fail(j, e)
			return false
		}
		j.h, j.max = p.H, int64(p.Max)
		if e := c.checkBulk(j.max); e != nil {
			c.fail(j, e)
			return false
		}
	case vfsproto.OpReadShm:
		if c.shmSlots.Load() == 0 {
			c.fail(j, unsupported())
			return false
		}
		var p vfsproto.ReadShmParams
		if e := decodeParams(req.Params, &p, "h", "max", "slot"); e != nil {
			c.fail(j, e)
			return false
		}
		j.h, j.max, j.slot = p.H, int64(p.Max), int64(p.Slot)
		if e := c.checkShm(j.max, j.slot); e != nil {
			c.fail(j, e)
			return false
		}
	case vfsproto.OpReadShmAt:
		var p vfsproto.ReadShmAtParams
		if c.shmAt.Load() {
			if e := decodeParams(req.Params, &p, "h", "off", "max", "slot"); e != nil {
				c.fail(j, e)
				return false
			}
		}
		j.h, j.off, j.max, j.slot = p.H, p.Off, int64(p.Max), int64(p.Slot)
		c.readShmAt(j)
		return false
	}
	return true
}

// checkMax validates the max parameter of read.
func checkMax(m int64) *vfsproto.Error {
	switch {
	case m <= 0:
		return perr(vfsproto.EArg, "max must be at least 1")
	case m > vfsproto.MaxRead:
		return perr(vfsproto.ERange, fmt.Sprintf("max exceeds %d", vfsproto.MaxRead))
	}
	return nil
}

// writeShm checks a write_shm of size bytes from slot and routes it, or
// fails it.
func (c *conn) writeShm(j *job, slot, size int64) {
	if !c.shmW.Load() {
		c.fail(j, unsupported())
		return
	}
	switch {
	case size <= 0:
		c.fail(j, perr(vfsproto.EArg, "size must be at least 1"))
		return
	case size > vfsproto.ShmSlot:
		c.fail(j, perr(vfsproto.ERange, fmt.Sprintf("size exceeds %d", vfsproto.ShmSlot)))
		return
	case slot < 0 || slot >= c.shmSlots.Load():
		c.fail(j, perr(vfsproto.ERange, fmt.Sprintf("slot must be in 0..%d", c.shmSlots.Load()-1)))
		return
	}
	off := slot * vfsproto.ShmSlot
	j.data = c.shm[off : off+size : off+size]
	c.route(j)
}

// errBulkSize closes a connection whose write_bulk has no usable size:
// the data after it cannot be told from the next frame.
var errBulkSize = errors.New("vfsd: write_bulk without a valid size")

// writeBulk reads the size bytes that follow a write_bulk frame and queues
// the write. The data is read even when the write will fail (a bad handle),
// so the stream stays in step; a size out of range closes the connection.
func (c *conn) writeBulk(j *job, size int64, r io.Reader) error {
	if !c.bulkW.Load() {
		// Not negotiated: an unknown operation, and nothing after the
		// frame belongs to it.
		c.fail(j, unsupported())
		return nil
	}
	if size < 0 || size > vfsproto.MaxBulkWrite {
		c.fail(j, perr(vfsproto.ERange, fmt.Sprintf("size exceeds %d", vfsproto.MaxBulkWrite)))
		return errBulkSize
	}
	c.wbulkSem <- struct{}{}
	buf := bulkPool.Get().(*[]byte)
	release := func() {
		bulkPool.Put(buf)
		<-c.wbulkSem
	}
	if _, err := io.ReadFull(r, (*buf)[:size]); err != nil {
		release()
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	j.data, j.release = (*buf)[:size], release
	c.route(j)
	return nil
}

// checkBulk validates a read_bulk request: the feature must have been
// negotiated, and max must be in 1..MaxBulkRead.
func (c *conn) checkBulk(m int64) *vfsproto.Error {
	switch {
	case !c.bulk.Load():
		return unsupported()
	case m <= 0:
		return perr(vfsproto.EArg, "max must be at least 1")
	case m > vfsproto.MaxBulkRead:
		return perr(vfsproto.ERange, fmt.Sprintf("max exceeds %d", vfsproto.MaxBulkRead))
	}
	return nil
}

// checkShm validates a read_shm request (negotiated, as handleFrame has
// checked): max must be in 1..ShmSlot and the slot one of the region's.
func (c *conn) checkShm(m, slot int64) *vfsproto.Error {
	switch {
	case m <= 0:
		return perr(vfsproto.EArg, "max must be at least 1")
	case m > vfsproto.ShmSlot:
		return perr(vfsproto.ERange, fmt.Sprintf("max exceeds %d", vfsproto.ShmSlot))
	case slot < 0 || slot >= c.shmSlots.Load():
		return perr(vfsproto.ERange, fmt.Sprintf("slot must be in 0..%d", c.shmSlots.Load()-1))
	}
	return nil
}

// route queues a handle operation on its handle, or answers at once when
// the handle is reserved, closed or unknown. A small write or a close on a
// handle with nothing queued is run by the reader itself (inline): the
// commands of a shell loop (`echo $i >> f`, `printf …; done > f`) each
// wait for their write's answer, and the two hand-offs of the queue (to
// the handle's goroutine and from it to the writer) were most of a round
// trip's cost.
func (c *conn) route(j *job) {
	h := c.lookup(j)
	if h == nil {
		return
	}
	if h.busy.Load() == 0 && c.gather(h, j) {
		return
	}
	c.flushBatch()
	if h.busy.Load() == 0 && inline(j) {
		c.safely(j, func() (*frameBuf, *vfsproto.Error, int) { return c.doHandleOp(h, j) }, c.sendNow)
	} else {
		h.busy.Add(1)
		if h.queue == nil {
			c.besideReader()
			h.queue = make(chan *job, queueLen)
			c.hWG.Add(1)
			go c.runHandle(h)
		}
		h.queue <- j
	}
	if j.op == vfsproto.OpClose {
		if h.queue != nil {
			close(h.queue)
		} else {
			c.endHandle(h) // closed on the reader (or its close panicked)
		}
	}
}

// Gathered writes: the writes of a loop's commands reach vfsd together
// (the client sends a deferred command's write without waiting, corked
// with the next request), each a few bytes. With write_stop, the reader
// gathers consecutive small writes of one idle handle and writes them
// with one write(2), then answers each as if written alone: all written,
// or, from the first whose bytes were not all written, each written
// alone again (a virtual file's budget refuses a whole write(2): a
// request that fits alone is written), and the ones after a failure
// refused, as write_stop refuses them.
const (
	maxGather      = 16 << 10 // the largest write gathered
	maxGatherBatch = 64 << 10 // the most bytes a batch holds
)

// gather adds j to the batch if it is a small write to h that can wait
// for the next one, writing the batch first if it holds another
// handle's writes or j would overflow it.
func (c *conn) gather(h *handle, j *job) bool {
	switch j.op {
	case vfsproto.OpWrite, vfsproto.OpWriteBulk, vfsproto.OpWriteShm:
	default:
		return false
	}
	if !c.writeStop.Load() || len(j.data) > maxGather || h.closed || !h.canWrite || h.werr != nil {
		return false
	}
	b := &c.batch
	if b.h != nil && (b.h != h || len(b.data)+len(j.data) > maxGatherBatch) {
		c.flushBatch()
	}
	b.h = h
	b.data = append(b.data, j.data...)
	b.ends = append(b.ends, len(b.data))
	b.jobs = append(b.jobs, j)
	c.releaseData(j) // copied
	return true
}

// releaseData gives back the storage of j's data.
func (c *conn) releaseData(j *job) {
	if j.buf != nil {
		putDataBuf(j.buf)
		j.buf = nil
	}
	if j.release != nil {
		j.release()
		j.release = nil
	}
	j.data = nil
}

// flushBatch writes the gathered writes and answers each.
func (c *conn) flushBatch() {
	b := &c.batch
	if b.h == nil {
		return
	}
	h, data := b.h, b.data
	done := 0 // bytes of data known written
	if n, err := safeWrite(h.f, data); err == nil {
		done = len(data)
	} else {
		done = n
	}
	start := 0
	for i, j := range b.jobs {
		end := b.ends[i]
		if end > done && h.werr == nil {
			// Not all written: what is left of it, alone. (After a
			// failure, refused as write_stop refuses it.)
			from := max(start, done)
			n, err := safeWrite(h.f, data[from:end])
			done = from + n
			if err != nil {
				h.werr = ioError(err)
			}
		}
		if end <= done {
			c.s.stats.writes.Add(1)
			c.s.stats.bytesIn.Add(int64(end - start))
			c.sendWith(j, writtenFrame(j.id, end-start), "", end-start, c.sendNow)
		} else {
			c.s.stats.errors.Add(1)
			c.sendWith(j, errorFrame(j.id, h.werr), h.werr.Code, 0, c.sendNow)
		}
		start = end
	}
	clear(b.jobs)
	b.h, b.jobs, b.ends, b.data = nil, b.jobs[:0], b.ends[:0], b.data[:0]
}

// safeWrite is f.Write, a panic in it an error.
func safeWrite(f file, p []byte) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New(msgInternal)
		}
	}()
	return f.Write(p)
}

// maxInline is the largest write the reader runs itself: a small write
// to the page cache costs less than the hand-off it saves, and the
// reader is not held up long by it.
const maxInline = 64 << 10

// inline says whether the reader runs j itself when its handle is idle.
// A stat of a handle is one fstat (or a look at a virtual file): a
// client's read-only open sends one behind the open (vfsclient's
// openStat), answered with it rather than after a worker's hand-off.
func inline(j *job) bool {
	switch j.op {
	case vfsproto.OpWrite, vfsproto.OpWriteBulk, vfsproto.OpWriteShm:
		return len(j.data) <= maxInline
	case vfsproto.OpClose, vfsproto.OpStat:
		return true
	}
	return false
}

// lookup returns the handle j names, removing it from the table when j
// closes it, or answers j with an error and returns nil when the handle
// is reserved, closed or unknown.
func (c *conn) lookup(j *job) *handle {
	if j.h >= 0 && j.h < vfsproto.FirstHandle {
		c.fail(j, perr(vfsproto.EPerm, "reserved handle"))
		return nil
	}
	c.mu.Lock()
	h := c.handles[j.h]
	if h != nil && j.op == vfsproto.OpClose {
		delete(c.handles, j.h)
	}
	next := c.next
	c.mu.Unlock()
	if h == nil {
		if j.h >= vfsproto.FirstHandle && j.h < next {
			c.fail(j, perr(vfsproto.EClosed, "handle closed"))
		} else {
			c.fail(j, perr(vfsproto.ENoEnt, "no such handle"))
		}
	} else if h.failed != nil {
		c.fail(j, h.failed) // a close has freed the name
		return nil
	}
	return h
}

// readShmAt serves a read_shm_at. It does not wait in the handle's queue:
// it runs at once on its own goroutine (at most maxConcurrentOps with the
// operations without a handle), so several chunks of one file are copied
// at the same time. A handle closed meanwhile makes it fail, never read
// another file: the descriptor stays open until the read returns.
func (c *conn) readShmAt(j *job) {
	if !c.shmAt.Load() {
		c.fail(j, unsupported())
		return
	}
	if e := c.checkShm(j.max, j.slot); e != nil {
		c.fail(j, e)
		return
	}
	if j.off < 0 {
		c.fail(j, perr(vfsproto.EArg, "negative offset"))
		return
	}
	h := c.lookup(j)
	if h == nil {
		return
	}
	if !h.canRead {
		c.fail(j, perr(vfsproto.EPerm, "handle not open for reading"))
		return
	}
	file := h.f
	c.besideReader()
	c.sem <- struct{}{}
	c.opWG.Add(1)
	go func() {
		defer func() { <-c.sem; c.opWG.Done() }()
		c.safely(j, func() (*frameBuf, *vfsproto.Error, int) {
			off := j.slot * vfsproto.ShmSlot
			n, err := file.ReadAt(c.shm[off:off+j.max:off+j.max], j.off)
			eof := errors.Is(err, io.EOF)
			if err != nil && !eof {
				return nil, ioError(err), 0
			}
			c.s.stats.reads.Add(1)
			c.s.stats.bytesOut.Add(int64(n))
			f, _ := bulkFrameResp(j.id, n, eof)
			return f, nil, n
		}, c.queueFrame)
	}()
}

// besideReader is called before work starts on a goroutine beside the
// reader (a worker, a handle's queue, a read_shm_at): the first time, it
// calls Config.OnWork, which gives the runtime its Ps for it. A loop of
// `echo $i >> f` (named opens, small writes and closes, all run on the
// reader) never does: with a second P, vfsd's background sweeper and
// idle threads spun beside the reader on the CPU llmsh needed (under
// chrt -r 10 the loop took 2.9x the time and 3.2x the CPU).
func (c *conn) besideReader() {
	if c.s.cfg.OnWork != nil {
		c.s.onWork.Do(c.s.cfg.OnWork)
	}
}

// spawn runs an operation without a handle on a goroutine of its own, at
// most maxConcurrentOps at once: a worker that is waiting for one, or a
// new one. The workers stay until shutdown: a walk sends a request per
// directory or file, and a new goroutine's stack grew anew for each (a
// twentieth of vfsd's time in find).
//
// A lone operation (none in flight, no request behind it in the
// reader's buffer: the client waits for its answer) runs on the reader
// instead, as a lone read_file does: a worker would only add a hand-off,
// and vfsd's runtime stays on one P until work runs side by side
// (besideReader), as in a loop of `rm -f f; for …; do echo $i >> f;
// done`, whose rm was a worker's and gave vfsd its second P.
func (c *conn) spawn(j *job) {
	if len(c.sem) == 0 && c.br != nil && c.br.Buffered() == 0 {
		c.safely(j, func() (*frameBuf, *vfsproto.Error, int) { return c.doOp(j) }, c.sendNow)
		return
	}
	c.besideReader()
	c.sem <- struct{}{}
	c.opWG.Add(1)
	select {
	case c.idle <- j:
	default:
		c.workWG.Add(1)
		go c.work(j)
	}
}

// work runs j, and then each job spawn hands it, until quit.
func (c *conn) work(j *job) {
	defer c.workWG.Done()
	for {
		c.safely(j, func() (*frameBuf, *vfsproto.Error, int) { return c.doOp(j) }, c.queueFrame)
		<-c.sem
		c.opWG.Done()
		select {
		case j = <-c.idle:
		case <-c.quit:
			return
		}
	}
}

// runHandle serves the queue of h until it is closed.
func (c *conn) runHandle(h *handle) {
	defer c.hWG.Done()
	for j := range h.queue {
		c.safely(j, func() (*frameBuf, *vfsproto.Error, int) { return c.doHandleOp(h, j) }, c.queueFrame)
		h.busy.Add(-1)
	}
	c.endHandle(h)
}

// endHandle drops h's file, unless a close has: unfinished atomic
// writes are discarded.
func (c *conn) endHandle(h *handle) {
	if !h.closed {
		h.closed = true
		h.f.abort()
		c.s.stats.openHandles.Add(-1)
	}
}

// safely runs an operation, turning a panic into E_IO "internal error",
// and sends its response with out (queueFrame, or sendNow).
func (c *conn) safely(j *job, run func() (*frameBuf, *vfsproto.Error, int), out func(*frameBuf)) {
	var (
		f *frameBuf
		e *vfsproto.Error
		n int
	)
	func() {
		defer func() {
			if r := recover(); r != nil {
				f, e, n = nil, perr(vfsproto.EIO, msgInternal), 0
			}
		}()
		f, e, n = run()
	}()
	if e != nil {
		c.s.stats.errors.Add(1)
		c.sendWith(j, errorFrame(j.id, e), e.Code, 0, out)
		return
	}
	c.sendWith(j, f, "", n, out)
}

// fail sends an error response.
func (c *conn) fail(j *job, e *vfsproto.Error) {
	c.s.stats.errors.Add(1)
	c.send(j, errorFrame(j.id, e), e.Code, 0)
}

// helloNow answers hello in the reader itself, as route answers a quick
// operation on an idle handle: hello is on the path of every start (the
// client waits for it before its script runs), and a worker and then the
// writer each had to be given the P first. On the one P of vfsd's start
// (OneProcUntilWork) that P was the reader's, taken back from its
// blocking read only by the runtime's monitor. The requests after hello
// are read once it has set up what it negotiated.
func (c *conn) helloNow(j *job) {
	c.safely(j, func() (*frameBuf, *vfsproto.Error, int) { return c.hello(j) }, c.sendNow)
}

// queueFrame queues an answer for the writer.
func (c *conn) queueFrame(f *frameBuf) { c.out <- f }

// send queues a response for the writer and logs the request.
func (c *conn) send(j *job, f *frameBuf, code vfsproto.Code, n int) {
	c.sendWith(j, f, code, n, c.queueFrame)
}

// sendWith is send with out to hand the response on.
func (c *conn) sendWith(j *job, f *frameBuf, code vfsproto.Code, n int, out func(*frameBuf)) {
	if j.buf != nil {
		putDataBuf(j.buf)
		j.buf, j.data = nil, nil
	}
	if j.release != nil {
		j.release()
		j.release, j.data = nil, nil
	}
	if l := c.s.log; l != nil {
		c.s.logRequest(j, code, n)
	}
	out(f)
}

// addHandle registers an open file as a new handle of the client.
func (c *conn) addHandle(f file, canRead, canWrite bool) (int64, *vfsproto.Error) {
	return c.addHandleAt(0, f, canRead, canWrite)
}

// addHandleAt registers an open file as handle num of the client (a
// named open), or as a new handle when num is 0.
func (c *conn) addHandleAt(num int64, f file, canRead, canWrite bool) (int64, *vfsproto.Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.handles) >= MaxHandles {
		f.abort()
		return 0, perr(vfsproto.ERange, "too many open handles")
	}
	if num == 0 {
		num = c.next
		c.next++
	}
	h := &handle{num: num, f: f, canRead: canRead, canWrite: canWrite}
	c.handles[h.num] = h
	c.s.stats.opens.Add(1)
	c.s.stats.openHandles.Add(1)
	return h.num, nil
}

// openNamed runs an open whose handle the client names (open_named), on
// the reader, before the next request is read: the requests that name
// the handle after it find it, open or failed. A name outside the named
// range is E_RANGE, one the client holds (open, or failed and not yet
// closed) E_ARG "handle in use"; neither takes the name. A failed open
// takes it: the requests on it fail with the open's error until a close
// frees it.
func (c *conn) openNamed(j *job) {
	num := j.h
	p := vfsproto.OpenParams{Path: j.path, Mode: j.mode}
	if !j.parsed {
		if e := c.decodeNamed(j.raw, &p, "path", "mode", "h"); e != nil {
			c.fail(j, e)
			return
		}
		j.path, num = p.Path, *p.H
	}
	if num < vfsproto.FirstNamedHandle || num > vfsproto.MaxNamedHandle {
		c.fail(j, perr(vfsproto.ERange, "handle out of range"))
		return
	}
	c.mu.Lock()
	_, inUse := c.handles[num]
	full := len(c.handles) >= MaxHandles
	c.mu.Unlock()
	switch {
	case inUse:
		c.fail(j, perr(vfsproto.EArg, "handle in use"))
		return
	case full:
		c.fail(j, perr(vfsproto.ERange, "too many open handles"))
		return
	}
	c.safely(j, func() (*frameBuf, *vfsproto.Error, int) {
		f, r, w, e := c.s.openPath(p.Path, p.Mode)
		if e == nil {
			_, e = c.addHandleAt(num, asHandle(f), r, w)
		}
		if e != nil {
			c.mu.Lock()
			c.handles[num] = &handle{num: num, failed: e}
			c.mu.Unlock()
			return nil, e, 0
		}
		j.h = num
		return okHandleFrame(j.id, num), nil, 0
	}, c.sendNow)
}
