package builtins

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

func init() {
	Register(Builtin{Name: "nl", Summary: "number lines of files", Run: nl})
}

// nlStyle is a numbering style: a (all), t (non-empty), n (none), pBRE.
type nlStyle struct {
	kind byte
	re   *regexp.Regexp
}

func (s *nlStyle) set(what, v string) error {
	switch {
	case v == "a" || v == "t" || v == "n":
		s.kind, s.re = v[0], nil
	case strings.HasPrefix(v, "p"):
		re, err := compileBRE(v[1:])
		if err != nil {
			return err
		}
		s.kind, s.re = 'p', re
	default:
		return &UsageError{fmt.Sprintf("invalid %s numbering style: %s", what, gnu.Quote(v))}
	}
	return nil
}

func nl(env *Env) int {
	f := NewFlags(env, "Write each FILE to standard output, with line numbers added.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	body, header, footer := nlStyle{kind: 't'}, nlStyle{kind: 'n'}, nlStyle{kind: 'n'}
	f.Func('b', "body-numbering", RequiredArg, "STYLE", "use STYLE for numbering body lines", func(v string, _ bool) error { return body.set("body", v) })
	delim := `\:`
	f.Func('d', "section-delimiter", RequiredArg, "CC", "use CC for logical page delimiters", func(v string, _ bool) error {
		delim = v
		if len(v) == 1 {
			delim += ":"
		}
		return nil
	})
	f.Func('f', "footer-numbering", RequiredArg, "STYLE", "use STYLE for numbering footer lines", func(v string, _ bool) error { return footer.set("footer", v) })
	f.Func('h', "header-numbering", RequiredArg, "STYLE", "use STYLE for numbering header lines", func(v string, _ bool) error { return header.set("header", v) })
	num := func(what string, lo int64, p *int64) func(string, bool) error {
		return func(v string, _ bool) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fmt.Errorf("invalid %s: %s", what, gnu.Quote(v))
			}
			if n < lo {
				return fmt.Errorf("invalid %s: %s: Numerical result out of range", what, gnu.Quote(v))
			}
			*p = n
			return nil
		}
	}
	incr, join, start, width := int64(1), int64(1), int64(1), int64(6)
	f.Func('i', "line-increment", RequiredArg, "NUMBER", "line number increment at each line", num("line number increment", -1<<62, &incr))
	f.Func('l', "join-blank-lines", RequiredArg, "NUMBER", "group of NUMBER empty lines counted as one", num("line number of blank lines", 1, &join))
	format := "rn"
	f.Func('n', "number-format", RequiredArg, "FORMAT", "insert line numbers according to FORMAT", func(v string, _ bool) error {
		if v != "ln" && v != "rn" && v != "rz" {
			return &UsageError{"invalid line numbering format: " + gnu.Quote(v)}
		}
		format = v
		return nil
	})
	noRenumber := f.Bool('p', "no-renumber", "do not reset line numbers for each section")
	sep := "\t"
	f.StringVar(&sep, 's', "number-separator", "STRING", "add STRING after (possible) line number")
	f.Func('v', "starting-line-number", RequiredArg, "NUMBER", "first line number for each section", num("starting line number", -1<<62, &start))
	f.Func('w', "number-width", RequiredArg, "NUMBER", "use NUMBER columns for line numbers", num("line number field width", 1, &width))
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	blankPrefix := strings.Repeat(" ", int(width)+len(sep))
	w := stdoutWriter(env)
	line := start
	style := &body
	blanks := int64(0)
	var out []byte
	var werr error
	ok := env.EachFile(files, func(name string, r io.Reader) error {
		br := bufio.NewReaderSize(r, ioBufSize)
		for {
			if env.Ctx.Err() != nil {
				return gnu.ErrCancelled
			}
			text, rerr := br.ReadString('\n')
			if text == "" && rerr != nil {
				if rerr == io.EOF {
					return nil
				}
				return rerr
			}
			content := strings.TrimSuffix(text, "\n")
			// Logical page delimiters: header, body, footer.
			if delim != "" && content != "" && strings.Count(content, delim)*len(delim) == len(content) && len(content)/len(delim) <= 3 {
				switch len(content) / len(delim) {
				case 3:
					style = &header
				case 2:
					style = &body
				case 1:
					style = &footer
				}
				if !*noRenumber {
					line = start
				}
				blanks = 0
				w.WriteString("\n")
				continue
			}
			number := false
			switch style.kind {
			case 'a':
				if content == "" {
					blanks++
					if blanks == join {
						number, blanks = true, 0
					}
				} else {
					number, blanks = true, 0
				}
			case 't':
				number = content != ""
			case 'p':
				number = style.re.MatchString(content)
			}
			out = out[:0]
			if number {
				d := strconv.FormatInt(line, 10)
				pad := int(width) - len(d)
				switch format {
				case "ln":
					out = append(out, d...)
					out = append(out, strings.Repeat(" ", max(pad, 0))...)
				case "rn":
					out = append(out, strings.Repeat(" ", max(pad, 0))...)
					out = append(out, d...)
				case "rz":
					if line < 0 {
						out = append(out, '-')
						d = d[1:]
					}
					out = append(out, strings.Repeat("0", max(int(width)-len(d)-len(out), 0))...)
					out = append(out, d...)
				}
				out = append(out, sep...)
				line += incr
			} else {
				out = append(out, blankPrefix...)
			}
			out = append(out, text...)
			if !strings.HasSuffix(text, "\n") {
				out = append(out, '\n') // GNU nl ends the last line
			}
			if _, err := w.Write(out); err != nil {
				werr = err
				return ErrBrokenPipe
			}
			if rerr != nil {
				if rerr == io.EOF {
					return nil
				}
				return rerr
			}
		}
	})
	if werr != nil {
		return writeFailed(env, werr)
	}
	st := 0
	if !ok {
		st = 1
	}
	return finishOutput(env, w, st)
}
