package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// headTailCount parses the count of head and tail: gnu.ParseSize with their
// suffixes (b, kB 1000, K/KiB 1024, MB, M, ... up to Y). It returns
// countBad on a malformed value and countBig above 2^64-1; values from
// 2^63 to 2^64-1 saturate to the largest int64.
func headTailCount(s string) (int64, int) {
	v, e := gnu.ParseSize(s, 10, "bkKmMGTPEZY0")
	switch e {
	case gnu.SizeOK:
	case gnu.SizeOverflow:
		return 0, countBig
	default:
		return 0, countBad
	}
	if v > 1<<63-1 {
		v = 1<<63 - 1
	}
	return int64(v), countOK
}

// Outcomes of headTailCount.
const (
	countOK = iota
	countBad
	countBig
)

// tailQueue holds the end of a stream in 64 KiB chunks, for the commands that
// must see the end of their input before they know what to print (tail on
// a pipe, head -n -N, tac). Chunks at the front are released with pop once
// the caller knows it no longer needs them, so memory stays bounded by what
// must be kept.
type tailQueue struct {
	delim  byte
	chunks [][]byte
	delims []int64 // delimiter count of each chunk
	bytes  int64   // total bytes held
	nDelim int64   // total delimiters held
	spare  [][]byte
}

// fill reads the next chunk of r into the queue. It returns io.EOF once r
// is exhausted (having added whatever it read).
func (q *tailQueue) fill(env *Env, r io.Reader) error {
	if env.Ctx.Err() != nil {
		return gnu.ErrCancelled
	}
	var b []byte
	if n := len(q.spare); n > 0 {
		b, q.spare = q.spare[n-1][:ioBufSize], q.spare[:n-1]
	} else {
		b = make([]byte, ioBufSize)
	}
	n, err := io.ReadFull(r, b)
	if n > 0 {
		b = b[:n]
		c := int64(bytes.Count(b, []byte{q.delim}))
		q.chunks = append(q.chunks, b)
		q.delims = append(q.delims, c)
		q.bytes += int64(n)
		q.nDelim += c
	} else {
		q.spare = append(q.spare, b)
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return io.EOF
	}
	return err
}

// pop drops the first chunk and returns it (valid until the next fill).
func (q *tailQueue) pop() []byte {
	b := q.chunks[0]
	q.bytes -= int64(len(b))
	q.nDelim -= q.delims[0]
	q.chunks, q.delims = q.chunks[1:], q.delims[1:]
	q.spare = append(q.spare, b)
	return b
}

// lastLines returns where the last n lines of the held data begin, as a
// chunk index and an offset (len(chunks), 0 when n is 0). A final
// unterminated line counts as a line.
func (q *tailQueue) lastLines(n int64) (int, int) {
	if n <= 0 || len(q.chunks) == 0 {
		return len(q.chunks), 0
	}
	skipLast := true
	for ci := len(q.chunks) - 1; ci >= 0; ci-- {
		b := q.chunks[ci]
		if skipLast {
			skipLast = false
			if b[len(b)-1] == q.delim {
				b = b[:len(b)-1]
			}
		}
		for {
			i := bytes.LastIndexByte(b, q.delim)
			if i < 0 {
				break
			}
			n--
			if n == 0 {
				return ci, i + 1
			}
			b = b[:i]
		}
	}
	return 0, 0
}

// lastBytes returns where the last n bytes of the held data begin.
func (q *tailQueue) lastBytes(n int64) (int, int) {
	skip := q.bytes - n
	if skip <= 0 {
		return 0, 0
	}
	for ci, b := range q.chunks {
		if skip < int64(len(b)) {
			return ci, int(skip)
		}
		skip -= int64(len(b))
	}
	return len(q.chunks), 0
}

// keepLast reads r to its end, holding no more chunks than the last
// spec.n lines or bytes need, and returns where those begin (as lastLines
// and lastBytes). Each chunk let go before them is written to w (head -n
// -N), or dropped when w is nil (tail).
func (q *tailQueue) keepLast(env *Env, r io.Reader, spec headCountSpec, w io.Writer) (ci, off int, err error) {
	for {
		err := q.fill(env, r)
		for len(q.chunks) > 1 {
			if spec.lines && q.nDelim-q.delims[0] < spec.n+1 || !spec.lines && q.bytes-int64(len(q.chunks[0])) < spec.n {
				break
			}
			b := q.pop()
			if w == nil {
				continue
			}
			if _, werr := w.Write(b); werr != nil {
				return 0, 0, gnu.WriteError{Err: werr}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, err
		}
	}
	if spec.lines {
		ci, off = q.lastLines(spec.n)
	} else {
		ci, off = q.lastBytes(spec.n)
	}
	return ci, off, nil
}

// writeRange writes the held data from (ci, off) to the end, or (with
// before) from the start up to (ci, off).
func (q *tailQueue) writeRange(w io.Writer, ci, off int, before bool) error {
	if before {
		for i := 0; i < ci; i++ {
			if _, err := w.Write(q.chunks[i]); err != nil {
				return gnu.WriteError{Err: err}
			}
		}
		if ci < len(q.chunks) && off > 0 {
			if _, err := w.Write(q.chunks[ci][:off]); err != nil {
				return gnu.WriteError{Err: err}
			}
		}
		return nil
	}
	for i := ci; i < len(q.chunks); i++ {
		b := q.chunks[i]
		if i == ci {
			b = b[off:]
		}
		if _, err := w.Write(b); err != nil {
			return gnu.WriteError{Err: err}
		}
	}
	return nil
}

// headTailFilesFrom runs one, head's or tail's work, on each file
// operand after its "==> NAME <==" header (when headers) and returns the
// status. A file that cannot be opened or read is reported in their GNU
// words; a directory opens in GNU and fails as a read, after its header.
// quick, when set, may serve a file in one request (Env.ReadHead,
// Env.ReadTail) into buf (64 KiB) and return the part of buf to print and
// true, or false to have the file opened and read as usual (an error
// too: the usual way words it as GNU does). With follow (tail -f) a
// directory is also given up on, as GNU's tail says.
func headTailFilesFrom(env *Env, w *bufio.Writer, files []string, headers, follow bool, quick func(name string, buf []byte) ([]byte, bool), one func(r io.Reader, fi fs.FileInfo) error) int {
	hdr := fileHeaders{on: headers}
	readFailed := func(name string, err error) {
		if fe, ok := err.(fstatError); ok {
			env.Errorf("cannot fstat %s: %s", env.QuoteAF(displayName(name)), ErrText(fe.err))
			return
		}
		env.Errorf("error reading %s: %s", env.QuoteAF(displayName(name)), ErrText(err))
		if follow && errors.Is(err, syscall.EISDIR) {
			env.Errorf("%s: cannot follow end of this type of file; giving up on this name", env.QuoteF(displayName(name)))
		}
	}
	words := fileWords{closedIn: "-", readFailed: readFailed, openFailed: func(name string, err error) {
		if errors.Is(err, syscall.EISDIR) {
			hdr.write(w, name)
			w.Flush()
			readFailed(name, err)
			return
		}
		env.Errorf("cannot open %s for reading: %s", env.QuoteAF(name), ErrText(err))
	}}
	if quick != nil {
		var buf []byte
		words.pre = func(name string) (bool, error) {
			if buf == nil {
				buf = make([]byte, ioBufSize)
			}
			out, done := quick(name, buf)
			if !done {
				return false, nil
			}
			hdr.write(w, name)
			if _, err := w.Write(out); err != nil {
				return true, gnu.WriteError{Err: err}
			}
			return true, nil
		}
	}
	d := env.eachFile(w, files, words, func(name string, r io.Reader) error {
		hdr.write(w, name)
		var fi fs.FileInfo
		if f, ok := r.(File); ok && name != "-" {
			var err error
			if fi, err = f.Stat(); err != nil {
				return err
			}
			if fi.IsDir() {
				return errReadDir
			}
		}
		return one(r, fi)
	})
	return d.finish(env, w)
}

// fstatError is the error of an input that tail could not fstat (a
// closed standard input), which GNU words so.
type fstatError struct{ err error }

func (e fstatError) Error() string { return e.err.Error() }
func (e fstatError) Unwrap() error { return e.err }

// fileHeaders prints tail's and head's "==> NAME <==" headers.
type fileHeaders struct {
	on    bool
	first bool
}

func (h *fileHeaders) write(w *bufio.Writer, name string) {
	if !h.on {
		return
	}
	if h.first {
		w.WriteString("\n")
	}
	h.first = true
	w.WriteString("==> ")
	w.WriteString(displayName(name))
	w.WriteString(" <==\n")
}

// numSuffixHelp is head's and tail's --help paragraph on NUM, as GNU's.
const numSuffixHelp = "NUM may have a multiplier suffix:\n" +
	"b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,\n" +
	"GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.\n" +
	"Binary prefixes can be used, too: KiB=K, MiB=M, and so on."
