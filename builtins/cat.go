package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "cat", Summary: "concatenate files and print on the standard output", Run: cat})

// catState is what cat carries from one file to the next, as GNU does: a
// line left unterminated by one file continues in the next.
type catState struct {
	number, nonblank, squeeze, ends, tabs, nonprint bool

	line      int64 // last line number printed
	lineStart bool  // the next byte starts a line
	blanks    int   // empty lines seen in a row
	pendingCR bool  // -E: a '\r' held back in case '\n' follows
}

func cat(env *Env) int {
	f := NewFlags(env, "Concatenate FILE(s) to standard output.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	var st catState
	var all, e, t, u bool
	f.BoolVar(&all, 'A', "show-all", "equivalent to -vET")
	f.BoolVar(&st.nonblank, 'b', "number-nonblank", "number nonempty output lines, overrides -n")
	f.BoolVar(&e, 'e', "", "equivalent to -vE")
	f.BoolVar(&st.ends, 'E', "show-ends", "display $ at end of each line")
	f.BoolVar(&st.number, 'n', "number", "number all output lines")
	f.BoolVar(&st.squeeze, 's', "squeeze-blank", "suppress repeated empty output lines")
	f.BoolVar(&t, 't', "", "equivalent to -vT")
	f.BoolVar(&st.tabs, 'T', "show-tabs", "display TAB characters as ^I")
	f.BoolVar(&u, 'u', "", "(ignored)")
	f.BoolVar(&st.nonprint, 'v', "show-nonprinting", "use ^ and M- notation, except for LFD and TAB")
	f.Epilog = helpExamples("cat f - g", "Output f's contents, then standard input, then g's contents.",
		"cat", "Copy standard input to standard output.")
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if all {
		st.nonprint, st.ends, st.tabs = true, true, true
	}
	if e {
		st.nonprint, st.ends = true, true
	}
	if t {
		st.nonprint, st.tabs = true, true
	}
	if st.nonblank {
		st.number = true
	}
	st.lineStart = true
	plain := !(st.number || st.squeeze || st.ends || st.tabs || st.nonprint)

	if badDescriptor(env.Stdout) {
		// GNU cat's fstat of its output fails first.
		fmt.Fprintf(env.Stderr, "cat: standard output: %s\n", gnu.Strerror(syscall.EBADF))
		return 1
	}
	w := stdoutWriter(env)
	buf := make([]byte, ioBufSize)
	// GNU cat names standard input "-" in its messages, as EachFile does.
	closedIn := false // stdin is a closed descriptor (<&-)
	out, outKnown := fs.FileInfo(nil), false
	words := fileWords{readFailed: func(name string, err error) {
		if err != errCatSame {
			env.PathError(name, err)
		}
	}}
	done := env.eachFile(w, files, words, func(name string, r io.Reader) error {
		if !outKnown {
			out, outKnown = outputFile(env.Stdout), true
		}
		if out != nil && (inputIsOutput(w, r, out) || inputIsTruncTarget(env, w, name)) {
			fmt.Fprintf(env.Stderr, "cat: %s: input file is output file\n", env.QuoteF(name))
			return errCatSame
		}
		var err error
		if plain {
			if err = kernelCopy(env, w, r); err == errNotCopied {
				err = copyOut(env, shortFlusher{w}, r, buf)
			}
		} else {
			err = st.run(env, w, r)
		}
		closedIn = closedIn || env.StdinClosed && name == "-" && errors.Is(err, syscall.EBADF) && !errors.As(err, new(gnu.WriteError))
		return err
	})
	if st.pendingCR && !done.Stopped {
		w.WriteByte('\r')
	}
	status := done.finish(env, w)
	if closedIn {
		// GNU cat closes the stdin it read, which fails too.
		fmt.Fprintf(env.Stderr, "cat: closing standard input: %s\n", gnu.Strerror(syscall.EBADF))
		status = 1
	}
	return status
}

// run copies r to w with cat's line options.
func (st *catState) run(env *Env, w *bufio.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, ioBufSize)
	var num []byte
	for {
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		chunk, err := st.nextChunk(w, br)
		if werr, ok := err.(gnu.WriteError); ok {
			return werr
		}
		if len(chunk) > 0 {
			if st.lineStart && len(chunk) == 1 && chunk[0] == '\n' {
				st.blanks++
				if st.squeeze && st.blanks > 1 {
					continue
				}
				if st.number && !st.nonblank {
					num = st.lineNumber(num[:0])
					w.Write(num)
				}
				if st.ends {
					w.WriteByte('$')
				}
				w.WriteByte('\n')
			} else {
				if st.lineStart {
					st.blanks = 0
					if st.number {
						num = st.lineNumber(num[:0])
						w.Write(num)
					}
				}
				st.body(w, chunk)
				st.lineStart = chunk[len(chunk)-1] == '\n'
			}
			if _, werr := w.Write(nil); werr != nil {
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

// nextChunk takes the next line, or the part of one that has come so far,
// from br. Before it waits for more input it writes out what cat holds, as
// GNU cat does when FIONREAD says nothing is pending: `coproc cat -n` answers
// each line as it comes instead of at the end of its input.
func (st *catState) nextChunk(w *bufio.Writer, br *bufio.Reader) ([]byte, error) {
	if br.Buffered() == 0 {
		if w.Buffered() > 0 {
			if err := w.Flush(); err != nil {
				return nil, gnu.WriteError{Err: err}
			}
		}
		if _, err := br.Peek(1); err != nil {
			return nil, err
		}
	}
	data, _ := br.Peek(br.Buffered())
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i+1]
	}
	// data is br's buffer: it stays valid until the next read of br.
	br.Discard(len(data))
	return data, nil
}

func (st *catState) lineNumber(b []byte) []byte {
	st.line++
	s := strconv.AppendInt(b[len(b):], st.line, 10)
	for n := len(s); n < 6; n++ {
		b = append(b, ' ')
	}
	b = strconv.AppendInt(b, st.line, 10)
	return append(b, '\t')
}

// body writes one line or line fragment, transformed by -v, -T and -E.
func (st *catState) body(w *bufio.Writer, p []byte) {
	if st.pendingCR {
		st.pendingCR = false
		if p[0] == '\n' && st.ends {
			w.WriteString("^M")
		} else {
			w.WriteByte('\r')
		}
	}
	nl := p[len(p)-1] == '\n'
	if nl {
		p = p[:len(p)-1]
	}
	crTail := false
	if st.ends && !st.nonprint && len(p) > 0 && p[len(p)-1] == '\r' {
		p, crTail = p[:len(p)-1], true
	}
	if !st.nonprint && !st.tabs {
		w.Write(p)
	} else {
		for _, c := range p {
			switch {
			case c == '\t':
				if st.tabs {
					w.WriteString("^I")
				} else {
					w.WriteByte('\t')
				}
			case !st.nonprint:
				w.WriteByte(c)
			case c >= 128:
				w.WriteString("M-")
				c -= 128
				if c < 32 {
					w.WriteByte('^')
					w.WriteByte(c + 64)
				} else if c == 127 {
					w.WriteString("^?")
				} else {
					w.WriteByte(c)
				}
			case c < 32:
				w.WriteByte('^')
				w.WriteByte(c + 64)
			case c == 127:
				w.WriteString("^?")
			default:
				w.WriteByte(c)
			}
		}
	}
	if crTail {
		if nl {
			w.WriteString("^M")
		} else {
			st.pendingCR = true
		}
	}
	if nl {
		if st.ends {
			w.WriteByte('$')
		}
		w.WriteByte('\n')
	}
}

// errNotCopied is kernelCopy's answer when it copied nothing and the caller
// is to read r itself.
var errNotCopied = errors.New("not copied")

// kernelCopy has vfsd copy the rest of r to cat's output when both are its
// files (FileCopier), as GNU cat copies a file to a file with
// copy_file_range: `cat big > out/copy` never brings the bytes into this
// process. errNotCopied when it cannot (from the first request on, or
// after some: what is left is read as usual).
func kernelCopy(env *Env, w *bufio.Writer, r io.Reader) error {
	fc, ok := env.Stdout.(FileCopier)
	if !ok || w.Buffered() > 0 {
		return errNotCopied
	}
	return copyVia(env, fc, r)
}

// copyVia copies the rest of r to fc in vfsd (see kernelCopy): nil once
// r is at its end, errNotCopied when fc cannot copy from r (what is
// left of r is the caller's to read: r is where the copy stopped), a
// gnu.WriteError when the copy failed.
func copyVia(env *Env, fc FileCopier, r io.Reader) error {
	for {
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		n, ok, err := fc.CopyFileFrom(r, copyChunk)
		switch {
		case err != nil:
			return gnu.WriteError{Err: err}
		case !ok:
			return errNotCopied
		case n == 0:
			return nil
		}
	}
}

// copyChunk is what kernelCopy asks vfsd to copy at a time: the run's
// context is checked between requests (a timeout stops a long copy).
const copyChunk = 16 << 20

// shortFlusher passes on what cat read at once, as GNU cat writes each
// read: a short read (a pipe with no more data yet) is written out now,
// so that a reader waiting for it (a coproc's caller) gets it.
type shortFlusher struct{ w *bufio.Writer }

func (f shortFlusher) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err == nil && len(p) < ioBufSize {
		err = f.w.Flush()
	}
	return n, err
}

// errCatSame is cat's refusal of an input that is its output file, said
// already.
var errCatSame = errors.New("input file is output file")

// underWriter returns the first of w and the writers it wraps (Unwrap,
// at most 8 deep) for which is reports true, or nil.
func underWriter(w io.Writer, is func(io.Writer) bool) io.Writer {
	for range 8 {
		if is(w) {
			return w
		}
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
	return nil
}

// outputFile is the regular file that w (standard output) writes to, as
// a redirection tells it (Stat), or nil.
func outputFile(w io.Writer) fs.FileInfo {
	type stater interface{ Stat() (fs.FileInfo, error) }
	f := underWriter(w, func(w io.Writer) bool { _, ok := w.(stater); return ok })
	if f == nil {
		return nil
	}
	if fi, err := f.(stater).Stat(); err == nil && fi.Mode().IsRegular() {
		return fi
	}
	return nil
}

// badDescriptor reports whether w is a closed descriptor (>&-), one the
// shell marks with a BadDescriptor method, under the writers that wrap it.
func badDescriptor(w io.Writer) bool {
	return underWriter(w, func(w io.Writer) bool { _, ok := w.(interface{ BadDescriptor() }); return ok }) != nil
}

// truncTarget is the absolute name of the file that w's truncating
// redirection writes (the shell's outFile, whose data goes to a temp file
// until the close: truncs.go in the shell), or "".
func truncTarget(w io.Writer) string {
	type targeter interface{ TruncTarget() string }
	if t := underWriter(w, func(w io.Writer) bool { t, ok := w.(targeter); return ok && t.TruncTarget() != "" }); t != nil {
		return t.(targeter).TruncTarget()
	}
	return ""
}

// inputIsTruncTarget reports whether the file operand name is the one
// that standard output's truncating redirection writes (`cat a b > b`),
// and cat has written to it already: coreutils' test then sees the
// truncated file grown by what it wrote, data left to read.
func inputIsTruncTarget(env *Env, w *bufio.Writer, name string) bool {
	target := truncTarget(env.Stdout)
	if target == "" || name == "-" || env.Abs(name) != target {
		return false
	}
	w.Flush()
	out := outputFile(env.Stdout)
	return out != nil && out.Size() > 0
}

// inputStat stats the file an input reads (standard input's too), or
// fails when it is not a file that can say.
func inputStat(r io.Reader) (fs.FileInfo, error) {
	if n, ok := r.(nopReadCloser); ok {
		r = n.Reader // standard input
	}
	st, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return nil, errors.ErrUnsupported
	}
	return st.Stat()
}

// inputIsOutput reports whether r is the file out with data left to read
// (coreutils 9.1's test: copying it would never end), after flushing w
// so that out's size counts what cat wrote.
func inputIsOutput(w *bufio.Writer, r io.Reader, out fs.FileInfo) bool {
	in, err := inputStat(r)
	if err != nil || !SameFile(in, out) {
		return false
	}
	w.Flush()
	if in, err = inputStat(r); err != nil {
		return false
	}
	if n, ok := r.(nopReadCloser); ok {
		r = n.Reader // standard input
	}
	var off int64
	if sk, ok := r.(io.Seeker); ok {
		if off, err = sk.Seek(0, io.SeekCurrent); err != nil {
			off = 0
		}
	}
	return off < in.Size()
}
