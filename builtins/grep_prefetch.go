package builtins

import (
	"bytes"
	"io"
	"sync"
)

// grep -r reads the files of its walk ahead of the search: up to
// grepAhead files are opened and read at once, each by a goroutine of its
// own, so that their round trips to vfsd overlap. The search still takes
// the files one by one in the walk's order, so the output is GNU grep's.
const (
	grepAhead = 2 * grepBatch
	// grepAheadBytes is how much of each file is read ahead; the rest of
	// a larger file is read by the search as it goes.
	grepAheadBytes = 64 << 10
	// grepBatch is how many of them one request reads, where the FS
	// reads several files at once (HeadsReader: vfsd's read_files, whose
	// 1 MiB is grepBatch times grepAheadBytes).
	grepBatch = 16
)

var grepAheadPool = sync.Pool{New: func() any { b := make([]byte, grepAheadBytes); return &b }}

// grepAheadFile is a file of the walk being read ahead; done is closed
// when it has been.
type grepAheadFile struct {
	name    string
	done    chan struct{}
	buf     *[]byte       // pooled storage of data
	data    []byte        // its first bytes (all of it when r is nil)
	r       io.ReadCloser // the rest, still open, or nil
	openErr error
	readErr error // after data
}

// readAhead opens and reads the file name in the background, after the
// files queued before it; the search takes it in its turn (takeAhead).
// Where the FS reads several files in one request, the files are read
// grepBatch at a time.
func (g *grepRun) readAhead(name string) {
	if len(g.ahead) >= grepAhead {
		g.takeAhead()
	}
	a := &grepAheadFile{name: name, done: make(chan struct{})}
	g.ahead = append(g.ahead, a)
	if !g.env.CanReadHeads() {
		go a.read(g.env)
		return
	}
	g.batch = append(g.batch, a)
	if len(g.batch) == grepBatch {
		g.sendBatch()
	}
}

// sendBatch reads the files of g.batch in the background, in one request;
// each that it could not read whole is read by itself.
func (g *grepRun) sendBatch() {
	batch := g.batch
	g.batch = nil
	if len(batch) == 0 {
		return
	}
	go func() {
		names := make([]string, len(batch))
		for i, a := range batch {
			names[i] = a.name
		}
		heads, ok := g.env.ReadHeads(names, grepAheadBytes)
		for i, a := range batch {
			if ok && (heads[i].Err != nil || heads[i].Whole) {
				a.data, a.openErr = heads[i].Data, heads[i].Err
				close(a.done)
				continue
			}
			go a.read(g.env)
		}
	}()
}

// read opens and reads the file a names, as much of it as a buffer of
// grepAheadBytes holds, and closes a.done.
func (a *grepAheadFile) read(env *Env) {
	defer close(a.done)
	a.buf = grepAheadPool.Get().(*[]byte)
	if n, whole, ok, err := env.ReadHead(a.name, *a.buf); ok && (err != nil || whole) {
		// A small file in one round trip.
		a.data, a.openErr = (*a.buf)[:n], err
		return
	}
	r, err := env.Open(a.name)
	if err != nil {
		a.openErr = err
		return
	}
	n, err := io.ReadFull(r, *a.buf)
	a.data = (*a.buf)[:n]
	switch err {
	case nil: // more to come
		a.r = r
		return
	case io.EOF, io.ErrUnexpectedEOF:
	default:
		a.readErr = err
	}
	r.Close()
}

// takeAhead searches the first file read ahead.
func (g *grepRun) takeAhead() {
	a := g.ahead[0]
	g.ahead = g.ahead[1:]
	if len(g.batch) > 0 && g.batch[0] == a {
		g.sendBatch()
	}
	<-a.done
	switch {
	case g.stop:
	case a.openErr != nil:
		g.fail(a.name, a.openErr)
	case a.r != nil:
		g.search(a.name, io.MultiReader(bytes.NewReader(a.data), a.r), g.o.withName > 0)
	case a.readErr != nil:
		g.search(a.name, io.MultiReader(bytes.NewReader(a.data), errReader{a.readErr}), g.o.withName > 0)
	default:
		g.search(a.name, bytes.NewReader(a.data), g.o.withName > 0)
	}
	if a.r != nil {
		a.r.Close()
	}
	if a.buf != nil {
		grepAheadPool.Put(a.buf)
	}
}

// drainAhead searches every file read ahead, in order: before anything
// else of the walk is printed, and at its end.
func (g *grepRun) drainAhead() {
	for len(g.ahead) > 0 {
		g.takeAhead()
	}
}

// errReader fails every Read with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
