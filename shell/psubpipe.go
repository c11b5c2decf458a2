package shell

import (
	"io"
	"sync"
)

// psubPipeCap is what a process substitution's pipe holds before its
// writer waits: a Linux pipe's 64 KiB. A command that writes less to a
// >(LIST) goes on while the list has not read it yet, as bash's does
// (`echo a > >(sleep 1; cat) &` ends at once; its list prints later).
const psubPipeCap = 64 << 10

// psubBuf is the pipe of a process substitution: io.Pipe's ends and
// errors, but a write returns once its bytes fit in the buffer.
type psubBuf struct {
	mu   sync.Mutex
	cond sync.Cond
	buf  []byte // unread from off on
	off  int
	// rclosed: the reader closed its end (writes fail); wclosed: the
	// writer did (reads drain buf, then get werr).
	rclosed, wclosed bool
	werr             error
}

// psubReader and psubWriter are the ends of a psubBuf.
type (
	psubReader struct{ p *psubBuf }
	psubWriter struct{ p *psubBuf }
)

// newPsubPipe makes a pipe of psubPipeCap bytes.
func newPsubPipe() (*psubReader, *psubWriter) {
	p := &psubBuf{}
	p.cond.L = &p.mu
	return &psubReader{p}, &psubWriter{p}
}

// Read reads what was written, waiting for it; after the writer's Close
// it reads the rest, then io.EOF (or CloseWithError's error).
func (r *psubReader) Read(b []byte) (int, error) {
	p := r.p
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) == p.off && !p.wclosed && !p.rclosed {
		p.cond.Wait()
	}
	switch {
	case p.rclosed:
		return 0, io.ErrClosedPipe
	case len(p.buf) > p.off:
		n := copy(b, p.buf[p.off:])
		if p.off += n; p.off == len(p.buf) {
			p.buf, p.off = p.buf[:0], 0
		}
		p.cond.Broadcast()
		return n, nil
	}
	return 0, p.werr
}

// Close closes the reading end: writes fail with io.ErrClosedPipe.
func (r *psubReader) Close() error {
	p := r.p
	p.mu.Lock()
	p.rclosed, p.buf, p.off = true, nil, 0
	p.cond.Broadcast()
	p.mu.Unlock()
	return nil
}

// Write keeps b, waiting while the buffer is full; it fails with
// io.ErrClosedPipe once either end is closed.
func (w *psubWriter) Write(b []byte) (int, error) {
	p := w.p
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for len(b) > 0 {
		if p.rclosed || p.wclosed {
			return n, io.ErrClosedPipe
		}
		room := psubPipeCap - (len(p.buf) - p.off)
		if room == 0 {
			p.cond.Wait()
			continue
		}
		k := min(room, len(b))
		if p.off > 0 && len(p.buf)+k > psubPipeCap {
			// the unread bytes to the front, once per fill
			p.buf, p.off = p.buf[:copy(p.buf, p.buf[p.off:])], 0
		}
		p.buf = append(p.buf, b[:k]...)
		b, n = b[k:], n+k
		p.cond.Broadcast()
	}
	return n, nil
}

// Close closes the writing end: reads get io.EOF once the buffer is read.
func (w *psubWriter) Close() error { return w.CloseWithError(nil) }

// CloseWithError closes the writing end: reads get err (io.EOF when nil)
// once the buffer is read.
func (w *psubWriter) CloseWithError(err error) error {
	if err == nil {
		err = io.EOF
	}
	p := w.p
	p.mu.Lock()
	if !p.wclosed {
		p.wclosed, p.werr = true, err
	}
	p.cond.Broadcast()
	p.mu.Unlock()
	return nil
}
