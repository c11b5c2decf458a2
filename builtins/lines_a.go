package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"io"
	"io/fs"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// Helpers shared by the text commands cat, head, tail, wc, tac, rev, nl,
// tee, seq, yes, od, base64 and the checksum commands.

// laBufSize is the read and write buffer size of the streaming commands.
const laBufSize = 64 << 10

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
	if IsBrokenPipe(err) || errors.Is(err, gnu.ErrCancelled) {
		return 1
	}
	env.Errorf("write error: %s", ErrText(err))
	return 1
}

// laCopy copies r to w in large blocks, checking env.Ctx between blocks.
// A write failure comes back wrapped in gnu.WriteError. A reader that writes
// itself out (a file of vfsd: io.WriterTo) is asked to, so that its blocks
// go to w where they arrive (the shared region of read_shm) instead of
// being copied through buf first.
func laCopy(env *Env, w io.Writer, r io.Reader, buf []byte) error {
	if wt, ok := r.(io.WriterTo); ok {
		_, err := wt.WriteTo(laCtxWriter{env, w})
		return err
	}
	for {
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return gnu.WriteError{Err: werr}
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

// laCtxWriter is w for laCopy's io.WriterTo: it checks env.Ctx before
// each block and wraps w's failures in gnu.WriteError, as laCopy's loop does.
type laCtxWriter struct {
	env *Env
	w   io.Writer
}

func (c laCtxWriter) Write(p []byte) (int, error) {
	if c.env.Ctx.Err() != nil {
		return 0, gnu.ErrCancelled
	}
	n, err := c.w.Write(p)
	if err != nil {
		return n, gnu.WriteError{Err: err}
	}
	return n, nil
}

// laStatus turns the error of a per-file loop into a message and an exit
// status contribution: write errors and cancellation are handled by the
// caller (stop == true), read errors are reported against name.
func laReadError(env *Env, name string, err error) (stop bool) {
	return laReadErrorShown(env, laDisplayName(name), err)
}

// laReadErrorShown is laReadError naming the file shown as it is (GNU cat
// calls standard input "-").
func laReadErrorShown(env *Env, shown string, err error) (stop bool) {
	var we gnu.WriteError
	if errors.As(err, &we) || errors.Is(err, gnu.ErrCancelled) || IsBrokenPipe(err) {
		return true
	}
	env.PathError(shown, err)
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
// laOpenReport is laOpen for head and tail, which say why a file could
// not be opened in GNU's words (a directory fails as a read, after its
// header) and go on with the next: ok is false then.
func laOpenReport(env *Env, w *bufio.Writer, hdr *laHeaders, name string) (io.ReadCloser, fs.FileInfo, bool) {
	r, fi, err := laOpen(env, name)
	switch {
	case err == nil:
		return r, fi, true
	case errors.Is(err, syscall.EISDIR):
		// GNU opens a directory and fails reading it.
		hdr.write(w, name)
		w.Flush()
		env.Errorf("error reading %s: %s", gnu.QuoteAF(name), ErrText(err))
	default:
		w.Flush()
		env.Errorf("cannot open %s for reading: %s", gnu.QuoteAF(name), ErrText(err))
	}
	return nil, nil, false
}

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

// laSize parses the count of head and tail: gnu.ParseSize with their
// suffixes (b, kB 1000, K/KiB 1024, MB, M, ... up to Y). It returns
// laSizeBad on a malformed value and laSizeBig above 2^64-1; values from
// 2^63 to 2^64-1 saturate to the largest int64.
func laSize(s string) (int64, int) {
	v, e := gnu.ParseSize(s, 10, "bkKmMGTPEZY0")
	switch e {
	case gnu.SizeOK:
	case gnu.SizeOverflow:
		return 0, laSizeBig
	default:
		return 0, laSizeBad
	}
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
		return gnu.ErrCancelled
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

// laRuneWidth is the display width of a printable character as glibc's
// wcwidth gives it in C.UTF-8: 0 for combining and format characters, 2
// for East Asian wide characters and emoji, 1 otherwise.
func laRuneWidth(r rune) int {
	if laInRanges(laWide, r) {
		return 2
	}
	if laInRanges(laZeroWidth, r) {
		return 0
	}
	return 1
}

func laInRanges(t [][2]rune, r rune) bool {
	i := sort.Search(len(t), func(i int) bool { return t[i][1] >= r })
	return i < len(t) && t[i][0] <= r
}

// Tables generated from glibc 2.36's wcwidth in the C.UTF-8 locale.

var laWide = [][2]rune{
	{0x1100, 0x115f}, {0x231a, 0x231b}, {0x2329, 0x232a}, {0x23e9, 0x23ec}, {0x23f0, 0x23f0},
	{0x23f3, 0x23f3}, {0x25fd, 0x25fe}, {0x2614, 0x2615}, {0x2648, 0x2653}, {0x267f, 0x267f},
	{0x2693, 0x2693}, {0x26a1, 0x26a1}, {0x26aa, 0x26ab}, {0x26bd, 0x26be}, {0x26c4, 0x26c5},
	{0x26ce, 0x26ce}, {0x26d4, 0x26d4}, {0x26ea, 0x26ea}, {0x26f2, 0x26f3}, {0x26f5, 0x26f5},
	{0x26fa, 0x26fa}, {0x26fd, 0x26fd}, {0x2705, 0x2705}, {0x270a, 0x270b}, {0x2728, 0x2728},
	{0x274c, 0x274c}, {0x274e, 0x274e}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797},
	{0x27b0, 0x27b0}, {0x27bf, 0x27bf}, {0x2b1b, 0x2b1c}, {0x2b50, 0x2b50}, {0x2b55, 0x2b55},
	{0x2e80, 0x2e99}, {0x2e9b, 0x2ef3}, {0x2f00, 0x2fd5}, {0x2ff0, 0x2ffb}, {0x3000, 0x3029},
	{0x302e, 0x303e}, {0x3041, 0x3096}, {0x309b, 0x30ff}, {0x3105, 0x312f}, {0x3131, 0x318e},
	{0x3190, 0x31e3}, {0x31f0, 0x321e}, {0x3220, 0xa48c}, {0xa490, 0xa4c6}, {0xa960, 0xa97c},
	{0xac00, 0xd7a3}, {0xf900, 0xfa6d}, {0xfa70, 0xfad9}, {0xfe10, 0xfe19}, {0xfe30, 0xfe52},
	{0xfe54, 0xfe66}, {0xfe68, 0xfe6b}, {0xff01, 0xff60}, {0xffe0, 0xffe6}, {0x16fe0, 0x16fe3},
	{0x16ff0, 0x16ff1}, {0x17000, 0x187f7}, {0x18800, 0x18cd5}, {0x18d00, 0x18d08},
	{0x1aff0, 0x1aff3}, {0x1aff5, 0x1affb}, {0x1affd, 0x1affe}, {0x1b000, 0x1b122},
	{0x1b150, 0x1b152}, {0x1b164, 0x1b167}, {0x1b170, 0x1b2fb}, {0x1f004, 0x1f004},
	{0x1f0cf, 0x1f0cf}, {0x1f18e, 0x1f18e}, {0x1f191, 0x1f19a}, {0x1f200, 0x1f202},
	{0x1f210, 0x1f23b}, {0x1f240, 0x1f248}, {0x1f250, 0x1f251}, {0x1f260, 0x1f265},
	{0x1f300, 0x1f320}, {0x1f32d, 0x1f335}, {0x1f337, 0x1f37c}, {0x1f37e, 0x1f393},
	{0x1f3a0, 0x1f3ca}, {0x1f3cf, 0x1f3d3}, {0x1f3e0, 0x1f3f0}, {0x1f3f4, 0x1f3f4},
	{0x1f3f8, 0x1f43e}, {0x1f440, 0x1f440}, {0x1f442, 0x1f4fc}, {0x1f4ff, 0x1f53d},
	{0x1f54b, 0x1f54e}, {0x1f550, 0x1f567}, {0x1f57a, 0x1f57a}, {0x1f595, 0x1f596},
	{0x1f5a4, 0x1f5a4}, {0x1f5fb, 0x1f64f}, {0x1f680, 0x1f6c5}, {0x1f6cc, 0x1f6cc},
	{0x1f6d0, 0x1f6d2}, {0x1f6d5, 0x1f6d7}, {0x1f6dd, 0x1f6df}, {0x1f6eb, 0x1f6ec},
	{0x1f6f4, 0x1f6fc}, {0x1f7e0, 0x1f7eb}, {0x1f7f0, 0x1f7f0}, {0x1f90c, 0x1f93a},
	{0x1f93c, 0x1f945}, {0x1f947, 0x1f9ff}, {0x1fa70, 0x1fa74}, {0x1fa78, 0x1fa7c},
	{0x1fa80, 0x1fa86}, {0x1fa90, 0x1faac}, {0x1fab0, 0x1faba}, {0x1fac0, 0x1fac5},
	{0x1fad0, 0x1fad9}, {0x1fae0, 0x1fae7}, {0x1faf0, 0x1faf6}, {0x20000, 0x2a6df},
	{0x2a700, 0x2b738}, {0x2b740, 0x2b81d}, {0x2b820, 0x2cea1}, {0x2ceb0, 0x2ebe0},
	{0x2f800, 0x2fa1d}, {0x30000, 0x3134a},
}

var laZeroWidth = [][2]rune{
	{0x300, 0x36f}, {0x483, 0x489}, {0x591, 0x5bd}, {0x5bf, 0x5bf}, {0x5c1, 0x5c2}, {0x5c4, 0x5c5},
	{0x5c7, 0x5c7}, {0x610, 0x61a}, {0x61c, 0x61c}, {0x64b, 0x65f}, {0x670, 0x670}, {0x6d6, 0x6dc},
	{0x6df, 0x6e4}, {0x6e7, 0x6e8}, {0x6ea, 0x6ed}, {0x711, 0x711}, {0x730, 0x74a}, {0x7a6, 0x7b0},
	{0x7eb, 0x7f3}, {0x7fd, 0x7fd}, {0x816, 0x819}, {0x81b, 0x823}, {0x825, 0x827}, {0x829, 0x82d},
	{0x859, 0x85b}, {0x898, 0x89f}, {0x8ca, 0x8e1}, {0x8e3, 0x902}, {0x93a, 0x93a}, {0x93c, 0x93c},
	{0x941, 0x948}, {0x94d, 0x94d}, {0x951, 0x957}, {0x962, 0x963}, {0x981, 0x981}, {0x9bc, 0x9bc},
	{0x9c1, 0x9c4}, {0x9cd, 0x9cd}, {0x9e2, 0x9e3}, {0x9fe, 0x9fe}, {0xa01, 0xa02}, {0xa3c, 0xa3c},
	{0xa41, 0xa42}, {0xa47, 0xa48}, {0xa4b, 0xa4d}, {0xa51, 0xa51}, {0xa70, 0xa71}, {0xa75, 0xa75},
	{0xa81, 0xa82}, {0xabc, 0xabc}, {0xac1, 0xac5}, {0xac7, 0xac8}, {0xacd, 0xacd}, {0xae2, 0xae3},
	{0xafa, 0xaff}, {0xb01, 0xb01}, {0xb3c, 0xb3c}, {0xb3f, 0xb3f}, {0xb41, 0xb44}, {0xb4d, 0xb4d},
	{0xb55, 0xb56}, {0xb62, 0xb63}, {0xb82, 0xb82}, {0xbc0, 0xbc0}, {0xbcd, 0xbcd}, {0xc00, 0xc00},
	{0xc04, 0xc04}, {0xc3c, 0xc3c}, {0xc3e, 0xc40}, {0xc46, 0xc48}, {0xc4a, 0xc4d}, {0xc55, 0xc56},
	{0xc62, 0xc63}, {0xc81, 0xc81}, {0xcbc, 0xcbc}, {0xcbf, 0xcbf}, {0xcc6, 0xcc6}, {0xccc, 0xccd},
	{0xce2, 0xce3}, {0xd00, 0xd01}, {0xd3b, 0xd3c}, {0xd41, 0xd44}, {0xd4d, 0xd4d}, {0xd62, 0xd63},
	{0xd81, 0xd81}, {0xdca, 0xdca}, {0xdd2, 0xdd4}, {0xdd6, 0xdd6}, {0xe31, 0xe31}, {0xe34, 0xe3a},
	{0xe47, 0xe4e}, {0xeb1, 0xeb1}, {0xeb4, 0xebc}, {0xec8, 0xecd}, {0xf18, 0xf19}, {0xf35, 0xf35},
	{0xf37, 0xf37}, {0xf39, 0xf39}, {0xf71, 0xf7e}, {0xf80, 0xf84}, {0xf86, 0xf87}, {0xf8d, 0xf97},
	{0xf99, 0xfbc}, {0xfc6, 0xfc6}, {0x102d, 0x1030}, {0x1032, 0x1037}, {0x1039, 0x103a},
	{0x103d, 0x103e}, {0x1058, 0x1059}, {0x105e, 0x1060}, {0x1071, 0x1074}, {0x1082, 0x1082},
	{0x1085, 0x1086}, {0x108d, 0x108d}, {0x109d, 0x109d}, {0x1160, 0x11ff}, {0x135d, 0x135f},
	{0x1712, 0x1714}, {0x1732, 0x1733}, {0x1752, 0x1753}, {0x1772, 0x1773}, {0x17b4, 0x17b5},
	{0x17b7, 0x17bd}, {0x17c6, 0x17c6}, {0x17c9, 0x17d3}, {0x17dd, 0x17dd}, {0x180b, 0x180f},
	{0x1885, 0x1886}, {0x18a9, 0x18a9}, {0x1920, 0x1922}, {0x1927, 0x1928}, {0x1932, 0x1932},
	{0x1939, 0x193b}, {0x1a17, 0x1a18}, {0x1a1b, 0x1a1b}, {0x1a56, 0x1a56}, {0x1a58, 0x1a5e},
	{0x1a60, 0x1a60}, {0x1a62, 0x1a62}, {0x1a65, 0x1a6c}, {0x1a73, 0x1a7c}, {0x1a7f, 0x1a7f},
	{0x1ab0, 0x1ace}, {0x1b00, 0x1b03}, {0x1b34, 0x1b34}, {0x1b36, 0x1b3a}, {0x1b3c, 0x1b3c},
	{0x1b42, 0x1b42}, {0x1b6b, 0x1b73}, {0x1b80, 0x1b81}, {0x1ba2, 0x1ba5}, {0x1ba8, 0x1ba9},
	{0x1bab, 0x1bad}, {0x1be6, 0x1be6}, {0x1be8, 0x1be9}, {0x1bed, 0x1bed}, {0x1bef, 0x1bf1},
	{0x1c2c, 0x1c33}, {0x1c36, 0x1c37}, {0x1cd0, 0x1cd2}, {0x1cd4, 0x1ce0}, {0x1ce2, 0x1ce8},
	{0x1ced, 0x1ced}, {0x1cf4, 0x1cf4}, {0x1cf8, 0x1cf9}, {0x1dc0, 0x1dff}, {0x200b, 0x200f},
	{0x202a, 0x202e}, {0x2060, 0x2064}, {0x2066, 0x206f}, {0x20d0, 0x20f0}, {0x2cef, 0x2cf1},
	{0x2d7f, 0x2d7f}, {0x2de0, 0x2dff}, {0x302a, 0x302d}, {0x3099, 0x309a}, {0xa66f, 0xa672},
	{0xa674, 0xa67d}, {0xa69e, 0xa69f}, {0xa6f0, 0xa6f1}, {0xa802, 0xa802}, {0xa806, 0xa806},
	{0xa80b, 0xa80b}, {0xa825, 0xa826}, {0xa82c, 0xa82c}, {0xa8c4, 0xa8c5}, {0xa8e0, 0xa8f1},
	{0xa8ff, 0xa8ff}, {0xa926, 0xa92d}, {0xa947, 0xa951}, {0xa980, 0xa982}, {0xa9b3, 0xa9b3},
	{0xa9b6, 0xa9b9}, {0xa9bc, 0xa9bd}, {0xa9e5, 0xa9e5}, {0xaa29, 0xaa2e}, {0xaa31, 0xaa32},
	{0xaa35, 0xaa36}, {0xaa43, 0xaa43}, {0xaa4c, 0xaa4c}, {0xaa7c, 0xaa7c}, {0xaab0, 0xaab0},
	{0xaab2, 0xaab4}, {0xaab7, 0xaab8}, {0xaabe, 0xaabf}, {0xaac1, 0xaac1}, {0xaaec, 0xaaed},
	{0xaaf6, 0xaaf6}, {0xabe5, 0xabe5}, {0xabe8, 0xabe8}, {0xabed, 0xabed}, {0xd7b0, 0xd7c6},
	{0xd7cb, 0xd7fb}, {0xfb1e, 0xfb1e}, {0xfe00, 0xfe0f}, {0xfe20, 0xfe2f}, {0xfeff, 0xfeff},
	{0xfff9, 0xfffb}, {0x101fd, 0x101fd}, {0x102e0, 0x102e0}, {0x10376, 0x1037a}, {0x10a01, 0x10a03},
	{0x10a05, 0x10a06}, {0x10a0c, 0x10a0f}, {0x10a38, 0x10a3a}, {0x10a3f, 0x10a3f},
	{0x10ae5, 0x10ae6}, {0x10d24, 0x10d27}, {0x10eab, 0x10eac}, {0x10f46, 0x10f50},
	{0x10f82, 0x10f85}, {0x11001, 0x11001}, {0x11038, 0x11046}, {0x11070, 0x11070},
	{0x11073, 0x11074}, {0x1107f, 0x11081}, {0x110b3, 0x110b6}, {0x110b9, 0x110ba},
	{0x110c2, 0x110c2}, {0x11100, 0x11102}, {0x11127, 0x1112b}, {0x1112d, 0x11134},
	{0x11173, 0x11173}, {0x11180, 0x11181}, {0x111b6, 0x111be}, {0x111c9, 0x111cc},
	{0x111cf, 0x111cf}, {0x1122f, 0x11231}, {0x11234, 0x11234}, {0x11236, 0x11237},
	{0x1123e, 0x1123e}, {0x112df, 0x112df}, {0x112e3, 0x112ea}, {0x11300, 0x11301},
	{0x1133b, 0x1133c}, {0x11340, 0x11340}, {0x11366, 0x1136c}, {0x11370, 0x11374},
	{0x11438, 0x1143f}, {0x11442, 0x11444}, {0x11446, 0x11446}, {0x1145e, 0x1145e},
	{0x114b3, 0x114b8}, {0x114ba, 0x114ba}, {0x114bf, 0x114c0}, {0x114c2, 0x114c3},
	{0x115b2, 0x115b5}, {0x115bc, 0x115bd}, {0x115bf, 0x115c0}, {0x115dc, 0x115dd},
	{0x11633, 0x1163a}, {0x1163d, 0x1163d}, {0x1163f, 0x11640}, {0x116ab, 0x116ab},
	{0x116ad, 0x116ad}, {0x116b0, 0x116b5}, {0x116b7, 0x116b7}, {0x1171d, 0x1171f},
	{0x11722, 0x11725}, {0x11727, 0x1172b}, {0x1182f, 0x11837}, {0x11839, 0x1183a},
	{0x1193b, 0x1193c}, {0x1193e, 0x1193e}, {0x11943, 0x11943}, {0x119d4, 0x119d7},
	{0x119da, 0x119db}, {0x119e0, 0x119e0}, {0x11a01, 0x11a0a}, {0x11a33, 0x11a38},
	{0x11a3b, 0x11a3e}, {0x11a47, 0x11a47}, {0x11a51, 0x11a56}, {0x11a59, 0x11a5b},
	{0x11a8a, 0x11a96}, {0x11a98, 0x11a99}, {0x11c30, 0x11c36}, {0x11c38, 0x11c3d},
	{0x11c3f, 0x11c3f}, {0x11c92, 0x11ca7}, {0x11caa, 0x11cb0}, {0x11cb2, 0x11cb3},
	{0x11cb5, 0x11cb6}, {0x11d31, 0x11d36}, {0x11d3a, 0x11d3a}, {0x11d3c, 0x11d3d},
	{0x11d3f, 0x11d45}, {0x11d47, 0x11d47}, {0x11d90, 0x11d91}, {0x11d95, 0x11d95},
	{0x11d97, 0x11d97}, {0x11ef3, 0x11ef4}, {0x13430, 0x13438}, {0x16af0, 0x16af4},
	{0x16b30, 0x16b36}, {0x16f4f, 0x16f4f}, {0x16f8f, 0x16f92}, {0x16fe4, 0x16fe4},
	{0x1bc9d, 0x1bc9e}, {0x1bca0, 0x1bca3}, {0x1cf00, 0x1cf2d}, {0x1cf30, 0x1cf46},
	{0x1d167, 0x1d169}, {0x1d173, 0x1d182}, {0x1d185, 0x1d18b}, {0x1d1aa, 0x1d1ad},
	{0x1d242, 0x1d244}, {0x1da00, 0x1da36}, {0x1da3b, 0x1da6c}, {0x1da75, 0x1da75},
	{0x1da84, 0x1da84}, {0x1da9b, 0x1da9f}, {0x1daa1, 0x1daaf}, {0x1e000, 0x1e006},
	{0x1e008, 0x1e018}, {0x1e01b, 0x1e021}, {0x1e023, 0x1e024}, {0x1e026, 0x1e02a},
	{0x1e130, 0x1e136}, {0x1e2ae, 0x1e2ae}, {0x1e2ec, 0x1e2ef}, {0x1e8d0, 0x1e8d6},
	{0x1e944, 0x1e94a}, {0xe0001, 0xe0001}, {0xe0020, 0xe007f}, {0xe0100, 0xe01ef},
}

// laReadAll reads r to its end, checking env.Ctx between blocks, for the
// commands that must hold their whole input (tac).
func laReadAll(env *Env, r io.Reader) ([]byte, error) {
	var data []byte
	buf := make([]byte, laBufSize)
	for {
		if env.Ctx.Err() != nil {
			return nil, gnu.ErrCancelled
		}
		n, err := r.Read(buf)
		data = append(data, buf[:n]...)
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// laCompileBRE compiles a POSIX basic regular expression (with the GNU
// extensions \+ \? \| \< \> \w \W \s \S \b \` \') to a Go regexp with
// leftmost-longest matching. Back-references are not supported.
func laCompileBRE(pat string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("(?s)")
	atStart := true // where '*' is literal and '^' is an anchor
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		start := atStart
		atStart = false
		switch c {
		case '\\':
			if i+1 >= len(pat) {
				return nil, errors.New("Trailing backslash")
			}
			i++
			switch d := pat[i]; d {
			case '(':
				b.WriteByte('(')
				atStart = true
			case ')':
				b.WriteByte(')')
			case '|':
				b.WriteByte('|')
				atStart = true
			case '{':
				j := strings.Index(pat[i:], `\}`)
				if j < 0 {
					return nil, errors.New(`Unmatched \{`)
				}
				b.WriteString("{" + pat[i+1:i+j] + "}")
				i += j + 1
			case '+', '?':
				if start {
					b.WriteString(`\` + string(d))
				} else {
					b.WriteByte(d)
				}
			case '<', '>':
				b.WriteString(`\b`)
			case '`':
				b.WriteString(`\A`)
			case '\'':
				b.WriteString(`\z`)
			case 'w', 'W', 's', 'S', 'b', 'B':
				b.WriteString(`\` + string(d))
			case 'n':
				b.WriteString(`\n`)
			case 't':
				b.WriteString(`\t`)
			default:
				if d >= '1' && d <= '9' {
					return nil, errors.New("back-references are not supported")
				}
				b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
			}
		case '*':
			if start {
				b.WriteString(`\*`)
			} else {
				b.WriteByte('*')
			}
		case '^':
			if start {
				b.WriteByte('^')
				atStart = true
			} else {
				b.WriteString(`\^`)
			}
		case '$':
			if i == len(pat)-1 || strings.HasPrefix(pat[i+1:], `\)`) || strings.HasPrefix(pat[i+1:], `\|`) {
				b.WriteByte('$')
			} else {
				b.WriteString(`\$`)
			}
		case '[':
			j := i + 1
			if j < len(pat) && pat[j] == '^' {
				j++
			}
			if j < len(pat) && pat[j] == ']' {
				j++
			}
			for j < len(pat) && pat[j] != ']' {
				if pat[j] == '[' && j+1 < len(pat) && (pat[j+1] == ':' || pat[j+1] == '=' || pat[j+1] == '.') {
					k := strings.Index(pat[j+2:], string(pat[j+1])+"]")
					if k < 0 {
						return nil, errors.New("Unmatched [, [^, [:, [., or [=")
					}
					j += k + 4
					continue
				}
				j++
			}
			if j >= len(pat) {
				return nil, errors.New("Unmatched [, [^, [:, [., or [=")
			}
			body := pat[i+1 : j]
			b.WriteByte('[')
			for k := 0; k < len(body); k++ {
				if body[k] == '\\' {
					b.WriteString(`\\`)
				} else if body[k] == '[' && k+1 < len(body) && body[k+1] != ':' {
					b.WriteString(`\[`)
				} else {
					b.WriteByte(body[k])
				}
			}
			b.WriteByte(']')
			i = j
		case '.':
			b.WriteByte('.')
		default:
			b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
		}
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, errors.New("Invalid regular expression")
	}
	re.Longest()
	return re, nil
}

// laFloatFmt is one C printf floating-point conversion: %[flags][width][.prec]verb.
type laFloatFmt struct {
	minus, plus, space, zero, alt bool
	width, prec                   int // prec -1: the default
	verb                          byte
}

// laParseFloatFormat splits a printf format holding exactly one floating
// conversion (%e %f %g %a and capitals; "%%" is a literal percent) into
// the text before it, the conversion and the text after it. The error is
// GNU seq's wording without the command name.
func laParseFloatFormat(format string) (pre string, spec laFloatFmt, post string, err error) {
	var b strings.Builder
	found := false
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		if found {
			return "", spec, "", fmt.Errorf("format %s has too many %% directives", gnu.Quote(format))
		}
		found = true
		j := i + 1
		for ; j < len(format) && strings.IndexByte("-+ 0#'", format[j]) >= 0; j++ {
			switch format[j] {
			case '-':
				spec.minus = true
			case '+':
				spec.plus = true
			case ' ':
				spec.space = true
			case '0':
				spec.zero = true
			case '#':
				spec.alt = true
			}
		}
		k := j
		for ; j < len(format) && format[j] >= '0' && format[j] <= '9'; j++ {
		}
		spec.width, _ = strconv.Atoi(format[k:j])
		spec.prec = -1
		if j < len(format) && format[j] == '.' {
			j++
			k = j
			for ; j < len(format) && format[j] >= '0' && format[j] <= '9'; j++ {
			}
			spec.prec, _ = strconv.Atoi(format[k:j])
		}
		if j < len(format) && format[j] == 'L' {
			j++
		}
		if j >= len(format) || strings.IndexByte("eEfFgGaA", format[j]) < 0 {
			end := j
			if end < len(format) {
				end++
			}
			return "", spec, "", fmt.Errorf("format %s has unknown %s directive", gnu.Quote(format), format[i:end])
		}
		spec.verb = format[j]
		pre = b.String()
		b.Reset()
		i = j
	}
	if !found {
		return "", spec, "", fmt.Errorf("format %s has no %% directive", gnu.Quote(format))
	}
	return pre, spec, b.String(), nil
}

// append formats v as C's printf does and appends it to dst.
func (s *laFloatFmt) append(dst []byte, v float64) []byte {
	var body []byte
	neg := math.Signbit(v) && !math.IsNaN(v)
	a := math.Abs(v)
	upper := s.verb >= 'A' && s.verb <= 'Z'
	special := math.IsInf(v, 0) || math.IsNaN(v)
	switch {
	case math.IsInf(v, 0):
		body = []byte("inf")
	case math.IsNaN(v):
		body = []byte("nan")
	default:
		prec := s.prec
		switch s.verb | 0x20 {
		case 'f':
			if prec < 0 {
				prec = 6
			}
			body = strconv.AppendFloat(nil, a, 'f', prec, 64)
			if s.alt && prec == 0 {
				body = append(body, '.')
			}
		case 'e':
			if prec < 0 {
				prec = 6
			}
			body = strconv.AppendFloat(nil, a, 'e', prec, 64)
			if s.alt && prec == 0 {
				i := bytes.IndexByte(body, 'e')
				body = append(body[:i], append([]byte{'.'}, body[i:]...)...)
			}
		case 'g':
			if prec < 0 {
				prec = 6
			}
			if prec == 0 {
				prec = 1
			}
			e := strconv.AppendFloat(nil, a, 'e', prec-1, 64)
			x, _ := strconv.Atoi(string(e[bytes.IndexByte(e, 'e')+1:]))
			if x < prec && x >= -4 {
				body = strconv.AppendFloat(nil, a, 'f', prec-1-x, 64)
				if !s.alt && bytes.IndexByte(body, '.') >= 0 {
					body = bytes.TrimRight(body, "0")
					body = bytes.TrimSuffix(body, []byte("."))
				}
			} else {
				body = e
				if !s.alt {
					i := bytes.IndexByte(body, 'e')
					m := body[:i]
					if bytes.IndexByte(m, '.') >= 0 {
						m = bytes.TrimRight(m, "0")
						m = bytes.TrimSuffix(m, []byte("."))
					}
					body = append(append([]byte{}, m...), body[i:]...)
				}
			}
		case 'a':
			body = strconv.AppendFloat(nil, a, 'x', prec, 64)
			// C writes the exponent without leading zeros: 0x1p+0.
			if i := bytes.IndexAny(body, "pP"); i >= 0 && i+3 < len(body)+1 {
				exp := bytes.TrimLeft(body[i+2:], "0")
				if len(exp) == 0 {
					exp = []byte("0")
				}
				body = append(body[:i+2], exp...)
			}
		}
	}
	if upper {
		body = bytes.ToUpper(body)
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case s.plus:
		sign = "+"
	case s.space:
		sign = " "
	}
	pad := s.width - len(sign) - len(body)
	switch {
	case pad <= 0:
		dst = append(dst, sign...)
		dst = append(dst, body...)
	case s.minus:
		dst = append(dst, sign...)
		dst = append(dst, body...)
		dst = append(dst, strings.Repeat(" ", pad)...)
	case s.zero && !special:
		dst = append(dst, sign...)
		if s.verb|0x20 == 'a' && len(body) > 2 {
			dst = append(dst, body[:2]...)
			body = body[2:]
		}
		dst = append(dst, strings.Repeat("0", pad)...)
		dst = append(dst, body...)
	default:
		dst = append(dst, strings.Repeat(" ", pad)...)
		dst = append(dst, sign...)
		dst = append(dst, body...)
	}
	return dst
}
