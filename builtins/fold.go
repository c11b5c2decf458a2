package builtins

import (
	"bufio"
	"errors"
	"io"
	"math"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "fold", Summary: "wrap each input line to fit in specified width", Run: fold})

func fold(env *Env) int {
	f := NewFlags(env, "Wrap input lines in each FILE, writing to standard output.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	bytesMode := f.Bool('b', "bytes", "count bytes rather than columns")
	spaces := f.Bool('s', "spaces", "break at spaces")
	width := 80
	f.Func('w', "width", RequiredArg, "WIDTH", "use WIDTH columns instead of 80", func(v string, _ bool) error {
		n, e := gnu.ParseSize(v, 10, "")
		if msg, bad := gnu.SizeMessage("invalid number of columns", v, n, e, 1, math.MaxUint64-9); bad {
			return errors.New(msg)
		}
		width = int(min(n, 1<<40))
		return nil
	})
	// The obsolete -WIDTH form.
	args := make([]string, 0, len(env.Args))
	for i, a := range env.Args[1:] {
		if a == "--" {
			args = append(args, env.Args[i+1:]...)
			break
		}
		prevW := i > 0 && (env.Args[i] == "-w" || env.Args[i] == "--width" || env.Args[i] == "--w" || env.Args[i] == "--wi")
		if k := foldDigitAt(a); !prevW && k > 0 {
			// -b3 is -b -3, and -3b is the width "3b" (getopt's
			// digit options take the rest of the word).
			if k > 1 {
				args = append(args, a[:k])
			}
			a = "-w" + a[k:]
		}
		args = append(args, a)
	}
	files, err := f.Parse(args)
	if err != nil {
		return f.Fail(err, 1)
	}
	adjust := func(col int, c byte) int {
		if *bytesMode {
			return col + 1
		}
		switch c {
		case '\b':
			if col > 0 {
				col--
			}
			return col
		case '\r':
			return 0
		case '\t':
			return col + 8 - col%8
		}
		return col + 1
	}
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	done := env.EachFile(w, files, func(name string, r io.Reader) error {
		br := bufio.NewReaderSize(r, 64<<10)
		var out []byte
		col := 0
		for n := 0; ; n++ {
			if n&0xffff == 0 && env.Ctx.Err() != nil {
				return gnu.ErrCancelled
			}
			c, err := br.ReadByte()
			if err != nil {
				if len(out) > 0 {
					if _, werr := w.Write(out); werr != nil {
						return gnu.WriteError{Err: werr}
					}
				}
				if err == io.EOF {
					return nil
				}
				return err
			}
			if c == '\n' {
				out = append(out, c)
				if _, werr := w.Write(out); werr != nil {
					return gnu.WriteError{Err: werr}
				}
				out, col = out[:0], 0
				continue
			}
		rescan:
			col = adjust(col, c)
			if col > width {
				if *spaces {
					end := -1
					for i := len(out) - 1; i >= 0; i-- {
						if out[i] == ' ' || out[i] == '\t' {
							end = i + 1
							break
						}
					}
					if end > 0 {
						w.Write(out[:end])
						w.WriteByte('\n')
						out = append(out[:0], out[end:]...)
						col = 0
						for _, b := range out {
							col = adjust(col, b)
						}
						goto rescan
					}
				}
				if len(out) == 0 {
					out = append(out, c)
					continue
				}
				out = append(out, '\n')
				if _, werr := w.Write(out); werr != nil {
					return gnu.WriteError{Err: werr}
				}
				out, col = out[:0], 0
				goto rescan
			}
			out = append(out, c)
		}
	})
	return done.finish(env, w)
}

// foldDigitAt is the index of the obsolete -WIDTH digit in the option word
// a (after any -b and -s letters), or 0.
func foldDigitAt(a string) int {
	if len(a) < 2 || a[0] != '-' {
		return 0
	}
	for k := 1; k < len(a); k++ {
		switch c := a[k]; {
		case c >= '0' && c <= '9':
			return k
		case c != 'b' && c != 's':
			return 0
		}
	}
	return 0
}
