package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"syscall"
	"unicode/utf8"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "rev", Summary: "reverse lines characterwise", Run: rev})

func rev(env *Env) int {
	f := NewFlags(env, "Reverse lines characterwise.", "[options] [file ...]")
	f.UtilLinux = true // util-linux's --help layout
	zero := f.Bool('0', "zero", "zero termination, use NUL as line delimiter")
	version := shortHelpVersion(f, 'h', 'V')
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	delim := byte('\n')
	if *zero {
		delim = 0
	}
	w := stdoutWriter(env)
	var out, long, held []byte
	cloc := byteLocale(env)
	words := fileWords{openFailed: func(name string, err error) {
		if errors.Is(err, syscall.EISDIR) {
			// util-linux opens a directory and fails reading its line 0.
			env.Errorf("%s: 0: %s", name, ErrText(err))
			return
		}
		env.Errorf("cannot open %s: %s", name, ErrText(err))
	}, readFailed: func(name string, err error) {
		var bad revBadChar
		if !errors.As(err, &bad) {
			env.PathError(name, err)
			return
		}
		if name == "-" {
			name = "stdin"
		}
		env.Errorf("%s: %d: %s", name, bad.lines, bad.Error())
	}}
	// util-linux's messages do not flush standard output first: nil.
	done := env.eachFile(nil, files, words, func(_ string, r io.Reader) error {
		br := bufio.NewReaderSize(r, ioBufSize)
		lines := 0
		for {
			if env.Ctx.Err() != nil {
				return gnu.ErrCancelled
			}
			line, err := br.ReadSlice(delim)
			if err == bufio.ErrBufferFull {
				long, err = env.gatherLine(append(long[:0], line...), br, delim)
				line = long
				if err == gnu.ErrCancelled {
					return err
				}
			}
			if k, bad := revInvalid(line, cloc, err == io.EOF); bad {
				return revBadChar{lines: lines}
			} else if k >= 0 {
				line = line[:k]
			}
			if k := bytes.IndexByte(line, 0); k >= 0 && delim == '\n' {
				// util-linux reads a line with fgetws and measures it with
				// wcslen: a NUL ends what it keeps, and the newline is
				// lost, so the next line joins the one it cut.
				held = append(held, line[:k]...)
				line = nil
			} else if len(held) > 0 {
				held = append(held, line...)
				line = held
				held = held[:0]
			}
			if len(line) > 0 || len(held) > 0 && err == io.EOF {
				if len(line) == 0 {
					line, held = held, held[:0]
				}
				nl := line[len(line)-1] == delim
				if nl {
					line = line[:len(line)-1]
				}
				out = reverseRunes(out[:0], line)
				if nl {
					out = append(out, delim)
				}
				if _, werr := w.Write(out); werr != nil {
					return gnu.WriteError{Err: werr}
				}
				lines++
			}
			if err == io.EOF {
				return nil
			}
			if err != nil && !quietStop(err) {
				return revBadChar{lines, err} // warn("%s: %zu", filename, lineno)
			}
			if err != nil {
				return err
			}
		}
	})
	return done.finish(env, w)
}

// reverseRunes appends the characters of p in reverse order to out: UTF-8
// sequences stay whole, invalid bytes move as single units.
func reverseRunes(out, p []byte) []byte {
	for len(p) > 0 {
		_, size := utf8.DecodeLastRune(p)
		out = append(out, p[len(p)-size:]...)
		p = p[:len(p)-size]
	}
	return out
}

// revBadChar is util-linux rev's read error after lines lines of the
// file: err (nil: a byte that is no character of the locale); rev stops
// reading the file there, the line it was in unwritten.
type revBadChar struct {
	lines int
	err   error
}

func (e revBadChar) Error() string {
	if e.err != nil {
		return ErrText(e.err)
	}
	return "Invalid or incomplete multibyte or wide character"
}

// revInvalid looks at a line as fgetwc reads it: in the C locale (cloc)
// every byte of 0x80 and over is invalid, in UTF-8 a byte that starts no
// character; a character cut short by the end of the input (atEOF) is
// dropped without an error, k the offset it starts at (-1: none).
func revInvalid(line []byte, cloc, atEOF bool) (k int, bad bool) {
	if cloc {
		for _, c := range line {
			if c >= utf8.RuneSelf {
				return -1, true
			}
		}
		return -1, false
	}
	if utf8.Valid(line) {
		return -1, false
	}
	for i := 0; i < len(line); {
		r, w := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && w == 1 {
			if atEOF && !utf8.FullRune(line[i:]) {
				return i, false
			}
			return -1, true
		}
		i += w
	}
	return -1, false
}
