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
	words := fileWords{openFailed: func(name string, err error) {
		if errors.Is(err, syscall.EISDIR) {
			// util-linux opens a directory and fails reading its line 0.
			env.Errorf("%s: 0: %s", name, ErrText(err))
			return
		}
		env.Errorf("cannot open %s: %s", name, ErrText(err))
	}}
	// util-linux's messages do not flush standard output first: nil.
	done := env.eachFile(nil, files, words, func(_ string, r io.Reader) error {
		br := bufio.NewReaderSize(r, ioBufSize)
		for {
			if env.Ctx.Err() != nil {
				return gnu.ErrCancelled
			}
			line, err := br.ReadSlice(delim)
			if err == bufio.ErrBufferFull {
				long = append(long[:0], line...)
				for err == bufio.ErrBufferFull {
					line, err = br.ReadSlice(delim)
					long = append(long, line...)
				}
				line = long
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
			}
			if err == io.EOF {
				return nil
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
