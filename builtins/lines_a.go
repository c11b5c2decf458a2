package builtins

import (
	"bufio"
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

// laOpen opens an operand like Env.Open but also returns the file's
// FileInfo when it is a regular file whose content can be sought through
// (nil otherwise: standard input, pipes, devices).
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
		if fi.IsDir() {
			r.Close()
			return nil, nil, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
		}
		if fi.Mode().IsRegular() {
			return r, fi, nil
		}
	}
	return r, nil, nil
}

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
// K/KiB 1024, MB, M, GB, G, ... up to Q). ok is false on a malformed value;
// overflow saturates to the largest int64 as GNU's head and tail do.
func laSize(s string) (n int64, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:i], 10, 64)
	overflow := err != nil
	mult := uint64(1)
	suf := s[i:]
	if suf != "" {
		m, ok := laMultiplier(suf)
		if !ok {
			return 0, false
		}
		mult = m
	}
	if overflow || (mult != 0 && v > (1<<63-1)/mult) {
		return 1<<63 - 1, true
	}
	if mult == 0 { // more than 2^64: saturate unless the number is zero
		if v == 0 {
			return 0, true
		}
		return 1<<63 - 1, true
	}
	return int64(v * mult), true
}

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
