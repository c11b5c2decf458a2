package builtins

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "head", Summary: "output the first part of files", Run: head})

// headCountSpec is a parsed -n/-c argument of head or tail.
type headCountSpec struct {
	lines bool  // -n rather than -c
	n     int64 // the count
	sign  byte  // '-' (head: all but the last; tail: the default) or '+' (tail: from the start)
}

// parse reads a -n or -c value for cmd; a leading sign is stripped into
// c.sign. It returns the error GNU prints.
func (c *headCountSpec) parse(env *Env, val string, lines bool) error {
	c.lines = lines
	c.sign = 0
	s := strings.TrimLeft(val, " \t\n\v\f\r")
	if s != "" && (s[0] == '-' || s[0] == '+') {
		c.sign = s[0]
		s = s[1:]
		if c.sign == '-' {
			val = s
		}
	}
	what := "bytes"
	if lines {
		what = "lines"
	}
	n, st := headTailCount(s)
	switch st {
	case countBad:
		return fmt.Errorf("invalid number of %s: %s", what, env.Quote(val))
	case countBig:
		return fmt.Errorf("invalid number of %s: %s: Value too large for defined data type", what, env.Quote(val))
	}
	c.n = n
	return nil
}

// headDigits returns the length of the run of ASCII digits that starts s.
func headDigits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

func head(env *Env) int {
	f := NewFlags(env, "Print the first 10 lines of each FILE to standard output.\nWith more than one FILE, precede each with a header giving the file name.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	spec := headCountSpec{lines: true, n: 10}
	var quiet, verbose, zero bool
	f.Func('c', "bytes", RequiredArg, "[-]NUM", "print the first NUM bytes of each file;\n                             with the leading '-', print all but the last\n                             NUM bytes of each file", func(v string, _ bool) error { return spec.parse(env, v, false) })
	f.Func('n', "lines", RequiredArg, "[-]NUM", "print the first NUM lines instead of the first 10;\n                             with the leading '-', print all but the last\n                             NUM lines of each file", func(v string, _ bool) error { return spec.parse(env, v, true) })
	f.Func('q', "quiet", NoArg, "", "never print headers giving file names", func(string, bool) error { quiet, verbose = true, false; return nil })
	f.Synonym("silent", "quiet")
	f.Func('v', "verbose", NoArg, "", "always print headers giving file names", func(string, bool) error { quiet, verbose = false, true; return nil })
	f.BoolVar(&zero, 'z', "zero-terminated", "line delimiter is NUL, not newline")
	f.Epilog = numSuffixHelp
	for d := '0'; d <= '9'; d++ {
		d := d // GNU: a digit option after the first argument
		f.Func(d, "", NoArg, "", "", func(string, bool) error {
			return &UsageError{fmt.Sprintf("invalid trailing option -- %c", d)}
		})
	}
	args := env.Args[1:]
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0][1] >= '0' && args[0][1] <= '9' {
		a := args[0][1:]
		d := headDigits(a)
		num, letters := a[:d], a[d:]
		spec.lines = true
		mult := ""
		for i := 0; i < len(letters); i++ {
			switch c := letters[i]; c {
			case 'c':
				spec.lines, mult = false, ""
			case 'b', 'k', 'm':
				spec.lines, mult = false, string(c)
			case 'l':
				spec.lines = true
			case 'q':
				quiet, verbose = true, false
			case 'v':
				quiet, verbose = false, true
			case 'z':
				zero = true
			default:
				return env.UsageErrorf(1, "invalid trailing option -- %c", c)
			}
		}
		if mult == "m" {
			mult = "M"
		}
		if err := spec.parse(env, num+mult, spec.lines); err != nil {
			return f.Fail(err, 1)
		}
		args = args[1:]
	}
	files, err := f.Parse(args)
	if err != nil {
		return f.Fail(err, 1)
	}
	delim := byte('\n')
	if zero {
		delim = 0
	}
	headers := verbose || (!quiet && len(files) > 1)
	w := stdoutWriter(env)
	var quick func(name string, buf []byte) ([]byte, bool)
	if spec.sign != '-' {
		quick = func(name string, buf []byte) ([]byte, bool) {
			n, whole, ok, err := env.ReadHead(name, buf)
			if !ok || err != nil {
				return nil, false
			}
			return headPrefix(buf[:n], whole, spec, delim)
		}
	}
	return headTailFilesFrom(env, w, files, headers, false, quick, func(r io.Reader, fi fs.FileInfo) error {
		if spec.sign == '-' && fi == nil && env.StdinClosed {
			return fstatError{syscall.EBADF} // GNU fstats what it elides the end of
		}
		return headOne(env, w, r, spec, delim)
	})
}

// headPrefix returns what head prints of a file whose first bytes are p
// (all of it when whole), and whether p holds all of that: a named
// file's head is then read in one request (open, read and close), where
// `head -n 10 big.txt` took three (open, stat, read) and a close.
func headPrefix(p []byte, whole bool, spec headCountSpec, delim byte) ([]byte, bool) {
	if !spec.lines {
		if int64(len(p)) >= spec.n {
			return p[:spec.n], true
		}
		return p, whole
	}
	n := spec.n
	if n == 0 {
		return nil, true
	}
	for i := 0; ; {
		j := bytes.IndexByte(p[i:], delim)
		if j < 0 {
			break
		}
		i += j + 1
		if n--; n == 0 {
			return p[:i], true
		}
	}
	return p, whole
}

// headOne writes the part of r that spec selects.
func headOne(env *Env, w *bufio.Writer, r io.Reader, spec headCountSpec, delim byte) error {
	if spec.sign == '-' {
		return headAllBut(env, w, r, spec, delim)
	}
	n := spec.n
	buf := make([]byte, ioBufSize)
	for n > 0 {
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		want := buf
		if !spec.lines && int64(len(want)) > n {
			want = want[:n] // GNU reads no more bytes than it prints
		}
		k, err := r.Read(want)
		p := buf[:k]
		if spec.lines {
			if c := int64(bytes.Count(p, []byte{delim})); c < n {
				n -= c
			} else {
				for i := 0; ; i++ {
					if p[i] == delim {
						if n--; n == 0 {
							p = p[:i+1]
							unread(r, int64(k-i-1))
							break
						}
					}
				}
			}
		} else {
			if int64(len(p)) > n {
				p = p[:n]
			}
			n -= int64(len(p))
		}
		if _, werr := w.Write(p); werr != nil {
			return gnu.WriteError{Err: werr}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// headAllBut writes all of r but its last spec.n lines or bytes, keeping
// only those in memory.
func headAllBut(env *Env, w *bufio.Writer, r io.Reader, spec headCountSpec, delim byte) error {
	if spec.n == 0 {
		return copyOut(env, w, r, make([]byte, ioBufSize))
	}
	q := tailQueue{delim: delim}
	ci, off, err := q.keepLast(env, r, spec, w)
	if err != nil {
		return err
	}
	return q.writeRange(w, ci, off, true)
}
