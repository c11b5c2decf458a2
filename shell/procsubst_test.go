package shell

import (
	"errors"
	"io"
	"syscall"
	"testing"
)

// A background job of a process substitution may open its end only after
// the script has ended: the open must still be served (writes fail with
// EPIPE, reads end), never fall through to vfsd.
func TestPsubJobOpensAfterCloseAll(t *testing.T) {
	var p psubs
	path, writerKey, err := p.newPipe(true) // <(LIST): the job writes
	if err != nil {
		t.Fatal(err)
	}
	_, readerKey, err := p.newPipe(false) // >(LIST): the job reads
	if err != nil {
		t.Fatal(err)
	}
	p.closeAll()
	if _, ok := p.open(path); ok {
		t.Errorf("the command's end %s is still served after closeAll", path)
	}
	w, ok := p.open(writerKey)
	if !ok {
		t.Fatalf("the job's write end %s is not served after closeAll", writerKey)
	}
	if _, err := w.Write([]byte("x")); !errors.Is(err, syscall.EPIPE) {
		t.Errorf("write after closeAll: %v, want EPIPE", err)
	}
	w.Close()
	r, ok := p.open(readerKey)
	if !ok {
		t.Fatalf("the job's read end %s is not served after closeAll", readerKey)
	}
	if n, err := r.Read(make([]byte, 4)); n != 0 || err != io.EOF {
		t.Errorf("read after closeAll: %d, %v; want 0, EOF", n, err)
	}
	r.Close()
	if _, ok := p.open(writerKey); ok {
		t.Errorf("a job's end is served twice")
	}
}
