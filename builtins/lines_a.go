package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"syscall"
)

// Helpers shared by the text commands cat, head, tail, wc, tac, rev, nl,
// tee, seq, yes, od, base64 and the checksum commands.

// laBufSize is the read and write buffer size of the streaming commands.
const laBufSize = 64 << 10

// errLaCancelled stops a loop when env.Ctx is done; it is never printed.
var errLaCancelled = errors.New("cancelled")

// laWriter buffers env.Stdout.
func laWriter(env *Env) *bufio.Writer { return bufio.NewWriterSize(env.Stdout, laBufSize) }

// laFinish flushes w and turns the outcome into an exit status: status when
// everything was written, 1 quietly on a broken pipe, and 1 with GNU's
// "NAME: write error: REASON" on any other write failure.
func laFinish(env *Env, w *bufio.Writer, status int) int {
	if err := w.Flush(); err != nil {
		return laWriteFailed(env, err)
	}
	return status
}

// laWriteFailed reports a failed write and returns status 1.
func laWriteFailed(env *Env, err error) int {
	if IsBrokenPipe(err) || errors.Is(err, errLaCancelled) {
		return 1
	}
	env.Errorf("write error: %s", ErrText(err))
	return 1
}

// laWriteErr wraps an output error so that callers can tell it from a read
// error of the same call.
type laWriteErr struct{ err error }

func (e *laWriteErr) Error() string { return e.err.Error() }
func (e *laWriteErr) Unwrap() error { return e.err }

// laCopy copies r to w in large blocks, checking env.Ctx between blocks.
// A write failure comes back wrapped in *laWriteErr.
func laCopy(env *Env, w io.Writer, r io.Reader, buf []byte) error {
	for {
		if env.Ctx.Err() != nil {
			return errLaCancelled
		}
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return &laWriteErr{werr}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// laStatus turns the error of a per-file loop into a message and an exit
// status contribution: write errors and cancellation are handled by the
// caller (stop == true), read errors are reported against name.
func laReadError(env *Env, name string, err error) (stop bool) {
	var we *laWriteErr
	if errors.As(err, &we) || errors.Is(err, errLaCancelled) || IsBrokenPipe(err) {
		return true
	}
	env.PathError(laDisplayName(name), err)
	return false
}

// laDisplayName is how GNU names an operand in messages and headers.
func laDisplayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

// laOpen opens an operand like Env.Open and also returns its FileInfo
// when it is a file of the FS (nil for standard input).
func laOpen(env *Env, name string) (io.ReadCloser, fs.FileInfo, error) {
	r, err := env.Open(name)
	if err != nil {
		return nil, nil, err
	}
	if f, ok := r.(File); ok && name != "-" {
		fi, err := f.Stat()
		if err != nil {
			r.Close()
			return nil, nil, err
		}
		return r, fi, nil
	}
	return r, nil, nil
}

// errLaIsDir is reading a directory.
var errLaIsDir = &fs.PathError{Op: "read", Err: syscall.EISDIR}

// laQuote quotes s as GNU's quote() does in the C locale: 'like this'.
func laQuote(s string) string {
	if !strings.Contains(s, "'") && laPrintable(s) {
		return "'" + s + "'"
	}
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			b.WriteString(`'\''`)
		case c < 0x20 || c >= 0x7f:
			b.WriteString(`'$'\` + strconv.FormatInt(int64(c), 8) + `''`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

func laPrintable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// laSize parses a count with GNU's multiplier suffixes (b 512, kB 1000,
// K/KiB 1024, MB, M, GB, G, ... up to Q) after optional blanks and '+'.
// It returns laSizeBad on a malformed value and laSizeBig above 2^64-1;
// values from 2^63 to 2^64-1 saturate to the largest int64.
func laSize(s string) (int64, int) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	s = strings.TrimPrefix(s, "+")
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, laSizeBad
	}
	v, err := strconv.ParseUint(s[:i], 10, 64)
	mult := uint64(1)
	if suf := s[i:]; suf != "" {
		m, ok := laMultiplier(suf)
		if !ok {
			return 0, laSizeBad
		}
		mult = m
	}
	if err != nil || mult == 0 && v != 0 || mult != 0 && v > (1<<64-1)/mult {
		return 0, laSizeBig
	}
	v *= mult
	if v > 1<<63-1 {
		v = 1<<63 - 1
	}
	return int64(v), laSizeOK
}

// Outcomes of laSize.
const (
	laSizeOK = iota
	laSizeBad
	laSizeBig
)

// laMultiplier returns the value of a GNU size suffix; 0 means larger than
// any int64.
func laMultiplier(suf string) (uint64, bool) {
	if suf == "b" {
		return 512, true
	}
	if suf == "c" {
		return 1, true
	}
	if suf == "w" {
		return 2, true
	}
	const letters = "KMGTPEZYRQ"
	p := strings.IndexByte(letters, suf[0])
	if suf[0] == 'k' {
		p = 0
	}
	if p < 0 {
		return 0, false
	}
	base := uint64(1024)
	switch suf[1:] {
	case "", "iB":
		if suf[0] == 'k' && suf[1:] == "iB" {
			return 0, false
		}
	case "B":
		base = 1000
	default:
		return 0, false
	}
	m := uint64(1)
	for k := 0; k <= p; k++ {
		if m > (1<<64-1)/base {
			return 0, true
		}
		m *= base
	}
	return m, true
}

// laQueue holds the end of a stream in 64 KiB chunks, for the commands that
// must see the end of their input before they know what to print (tail on
// a pipe, head -n -N, tac). Chunks at the front are released with pop once
// the caller knows it no longer needs them, so memory stays bounded by what
// must be kept.
type laQueue struct {
	delim  byte
	chunks [][]byte
	delims []int64 // delimiter count of each chunk
	bytes  int64   // total bytes held
	nDelim int64   // total delimiters held
	spare  [][]byte
}

// fill reads the next chunk of r into the queue. It returns io.EOF once r
// is exhausted (having added whatever it read).
func (q *laQueue) fill(env *Env, r io.Reader) error {
	if env.Ctx.Err() != nil {
		return errLaCancelled
	}
	var b []byte
	if n := len(q.spare); n > 0 {
		b, q.spare = q.spare[n-1][:laBufSize], q.spare[:n-1]
	} else {
		b = make([]byte, laBufSize)
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
func (q *laQueue) pop() []byte {
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
func (q *laQueue) lastLines(n int64) (int, int) {
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
func (q *laQueue) lastBytes(n int64) (int, int) {
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

// writeRange writes the held data from (ci, off) to the end, or (with
// before) from the start up to (ci, off).
func (q *laQueue) writeRange(w io.Writer, ci, off int, before bool) error {
	if before {
		for i := 0; i < ci; i++ {
			if _, err := w.Write(q.chunks[i]); err != nil {
				return &laWriteErr{err}
			}
		}
		if ci < len(q.chunks) && off > 0 {
			if _, err := w.Write(q.chunks[ci][:off]); err != nil {
				return &laWriteErr{err}
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
			return &laWriteErr{err}
		}
	}
	return nil
}

// laHeaders prints tail's and head's "==> NAME <==" headers.
type laHeaders struct {
	on    bool
	first bool
}

func (h *laHeaders) write(w *bufio.Writer, name string) {
	if !h.on {
		return
	}
	if h.first {
		w.WriteString("\n")
	}
	h.first = true
	w.WriteString("==> ")
	w.WriteString(laDisplayName(name))
	w.WriteString(" <==\n")
}
