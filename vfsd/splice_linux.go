package vfsd

import (
	"errors"
	"io"
	"os"
	"sync"
	"syscall"
)

// Zero-copy read_bulk. When the connection's output is a file descriptor
// (the pipe llmsh gives vfsd), the data of a read_bulk on a real file
// never enters vfsd's memory: splice(2) moves the file's page-cache pages
// into a private pipe (the handle's worker, which also learns the size to
// announce), and then from that pipe to the output after the answer frame
// (the writer). A private pipe holds one answer; a connection has at most
// maxBulkInFlight of them, created on first use and closed with the
// connection. Anything splice cannot do falls back to read and write.

const (
	spliceMove     = 0x1 // SPLICE_F_MOVE
	spliceNonblock = 0x2 // SPLICE_F_NONBLOCK
)

// bulkPipe is a private pipe holding the data of one read_bulk answer.
type bulkPipe struct {
	r, w int // descriptors, blocking
	size int // capacity: the most one answer may hold
}

// splicer is the zero-copy state of a connection.
type splicer struct {
	out  syscall.RawConn // the connection's output; nil: no splicing
	mu   sync.Mutex
	free []*bulkPipe
	all  []*bulkPipe
	off  bool // pipes could not be made: stop trying
}

// newSplicer prepares zero-copy output to w when w is a descriptor.
func newSplicer(w io.Writer) *splicer {
	f, ok := w.(*os.File)
	if !ok {
		return &splicer{}
	}
	raw, err := f.SyscallConn()
	if err != nil {
		return &splicer{}
	}
	return &splicer{out: raw}
}

// get returns a free private pipe, making one if needed (the caller holds
// a bulkSem slot, so there are never more than maxBulkInFlight).
func (sp *splicer) get() *bulkPipe {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if n := len(sp.free); n > 0 {
		p := sp.free[n-1]
		sp.free = sp.free[:n-1]
		return p
	}
	if sp.off {
		return nil
	}
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		sp.off = true
		return nil
	}
	syscall.Syscall(syscall.SYS_FCNTL, uintptr(fds[1]), fSetPipeSz, pipeSize)
	size, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fds[1]), fGetPipeSz, 0)
	if errno != 0 || size == 0 {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		sp.off = true
		return nil
	}
	p := &bulkPipe{r: fds[0], w: fds[1], size: int(size)}
	sp.all = append(sp.all, p)
	return p
}

// put gives back a pipe; one that may still hold data is closed instead.
func (sp *splicer) put(p *bulkPipe, clean bool) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if clean {
		sp.free = append(sp.free, p)
		return
	}
	syscall.Close(p.r)
	syscall.Close(p.w)
	for i, q := range sp.all {
		if q == p {
			sp.all = append(sp.all[:i], sp.all[i+1:]...)
			break
		}
	}
}

// close closes every pipe; the writer is done with them.
func (sp *splicer) close() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for _, p := range sp.all {
		syscall.Close(p.r)
		syscall.Close(p.w)
	}
	sp.all, sp.free = nil, nil
}

// fill moves up to max bytes of f at its offset into a private pipe. ok
// is false when splicing does not apply (then nothing was read and the
// caller reads the ordinary way); otherwise n bytes (0 at end of file)
// wait in p, or err says why none could be read. end reports that the
// end of the file was met after those bytes.
func (sp *splicer) fill(f file, max int) (p *bulkPipe, n int, end, ok bool, err error) {
	rf, isReal := f.(realFile)
	if sp.out == nil || !isReal {
		return nil, 0, false, false, nil
	}
	raw, err := rf.File.SyscallConn()
	if err != nil {
		return nil, 0, false, false, nil
	}
	p = sp.get()
	if p == nil {
		return nil, 0, false, false, nil
	}
	max = min(max, p.size)
	var serr error
	cerr := raw.Control(func(fd uintptr) {
		for n < max {
			// Non-blocking on the pipe: an unaligned offset spans one
			// page more than the pipe has slots, and a full pipe must
			// end the answer, not block the worker.
			k, err := syscall.Splice(int(fd), nil, p.w, nil, max-n, spliceMove|spliceNonblock)
			if err == syscall.EINTR {
				continue
			}
			if err == syscall.EAGAIN && n > 0 {
				return
			}
			if err != nil {
				serr = err
				return
			}
			if k == 0 {
				end = true
				return
			}
			n += int(k)
		}
	})
	if cerr != nil && serr == nil {
		serr = cerr
	}
	if serr != nil && n == 0 {
		sp.put(p, true)
		if errors.Is(serr, syscall.EINVAL) || errors.Is(serr, syscall.ENOSYS) {
			return nil, 0, false, false, nil // not spliceable: read instead
		}
		return nil, 0, false, true, serr
	}
	return p, n, end, true, nil
}

// drain moves n bytes from p to the output. After a failure the pipe is
// closed, not reused.
func (sp *splicer) drain(p *bulkPipe, n int) error {
	var serr error
	cerr := sp.out.Write(func(fd uintptr) bool {
		for n > 0 {
			// Blocking or not as the output is (the kernel makes a
			// pipe-to-pipe splice non-blocking when either end is).
			k, err := syscall.Splice(p.r, nil, int(fd), nil, n, spliceMove)
			switch {
			case err == syscall.EINTR:
				continue
			case err == syscall.EAGAIN:
				return false // wait until the output is writable
			case err != nil:
				serr = err
				return true
			case k == 0:
				serr = io.ErrUnexpectedEOF
				return true
			}
			n -= int(k)
		}
		return true
	})
	if serr == nil {
		serr = cerr
	}
	if serr != nil && errors.Is(serr, syscall.EINVAL) {
		// The output takes no splice (e.g. a file opened O_APPEND):
		// copy through memory instead.
		serr = sp.copyOut(p, n)
	}
	sp.put(p, serr == nil)
	return serr
}

// copyOut writes n bytes of p to the output with read and write.
func (sp *splicer) copyOut(p *bulkPipe, n int) error {
	buf := bulkPool.Get().(*[]byte)
	defer bulkPool.Put(buf)
	for n > 0 {
		k, err := syscall.Read(p.r, (*buf)[:min(n, len(*buf))])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || k <= 0 {
			return io.ErrUnexpectedEOF
		}
		data := (*buf)[:k]
		var werr error
		cerr := sp.out.Write(func(fd uintptr) bool {
			for len(data) > 0 {
				m, err := syscall.Write(int(fd), data)
				switch {
				case err == syscall.EINTR:
					continue
				case err == syscall.EAGAIN:
					return false
				case err != nil:
					werr = err
					return true
				}
				data = data[m:]
			}
			return true
		})
		if werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
		n -= k
	}
	return nil
}
