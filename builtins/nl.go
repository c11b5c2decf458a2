package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/llmsh/llmsh/posixre"
)

var _ = register(Builtin{Name: "nl", Summary: "number lines of files", Run: nl})

// nlStyle is a numbering style: a (all), t (non-empty), n (none), pBRE.
type nlStyle struct {
	kind byte
	re   *posixre.Regexp
}

func (s *nlStyle) set(what, v string) error {
	switch {
	case v == "a" || v == "t" || v == "n":
		s.kind, s.re = v[0], nil
	case strings.HasPrefix(v, "p"):
		// GNU nl's syntax: POSIX basic with GNU's operators and
		// back-references, a reversed range empty.
		re, err := posixre.Compile(v[1:], posixre.EmptyRanges)
		if err != nil {
			return err
		}
		s.kind, s.re = 'p', re
	default:
		return &UsageError{fmt.Sprintf("invalid %s numbering style: %s", what, gnu.Quote(v))}
	}
	return nil
}

// nlConfig is what nl's options select.
type nlConfig struct {
	body, header, footer     nlStyle
	delim                    string // -d: the section delimiter
	incr, join, start, width int64
	format                   string // -n: ln, rn or rz
	noRenumber               bool
	sep                      string
}

func nl(env *Env) int {
	c := &nlConfig{body: nlStyle{kind: 't'}, header: nlStyle{kind: 'n'}, footer: nlStyle{kind: 'n'},
		delim: `\:`, incr: 1, join: 1, start: 1, width: 6, format: "rn", sep: "\t"}
	f := c.flags(env)
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	return c.run(env, files)
}

// nlNum is the setter of a numeric option about what, whose least value is
// lo.
func nlNum(env *Env, what string, lo int64, p *int64) func(string, bool) error {
	return func(v string, _ bool) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("invalid %s: %s", what, env.Quote(v))
		}
		if n < lo {
			return fmt.Errorf("invalid %s: %s: Numerical result out of range", what, env.Quote(v))
		}
		*p = n
		return nil
	}
}

// flags is nl's option table.
func (c *nlConfig) flags(env *Env) *Flags {
	f := NewFlags(env, "Write each FILE to standard output, with line numbers added.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	f.LeftMax = 30
	f.Epilog = nlHelp
	f.Func('b', "body-numbering", RequiredArg, "STYLE", "use STYLE for numbering body lines", func(v string, _ bool) error { return c.body.set("body", v) })
	f.Func('d', "section-delimiter", RequiredArg, "CC", "use CC for logical page delimiters", func(v string, _ bool) error {
		c.delim = v
		if len(v) == 1 {
			c.delim += ":"
		}
		return nil
	})
	f.Func('f', "footer-numbering", RequiredArg, "STYLE", "use STYLE for numbering footer lines", func(v string, _ bool) error { return c.footer.set("footer", v) })
	f.Func('h', "header-numbering", RequiredArg, "STYLE", "use STYLE for numbering header lines", func(v string, _ bool) error { return c.header.set("header", v) })
	f.Func('i', "line-increment", RequiredArg, "NUMBER", "line number increment at each line", nlNum(env, "line number increment", -1<<62, &c.incr))
	f.Func('l', "join-blank-lines", RequiredArg, "NUMBER", "group of NUMBER empty lines counted as one", nlNum(env, "line number of blank lines", 1, &c.join))
	f.Func('n', "number-format", RequiredArg, "FORMAT", "insert line numbers according to FORMAT", func(v string, _ bool) error {
		if v != "ln" && v != "rn" && v != "rz" {
			return &UsageError{"invalid line numbering format: " + env.Quote(v)}
		}
		c.format = v
		return nil
	})
	f.BoolVar(&c.noRenumber, 'p', "no-renumber", "do not reset line numbers for each section")
	f.StringVar(&c.sep, 's', "number-separator", "STRING", "add STRING after (possible) line number")
	f.Func('v', "starting-line-number", RequiredArg, "NUMBER", "first line number for each section", nlNum(env, "starting line number", -1<<62, &c.start))
	f.Func('w', "number-width", RequiredArg, "NUMBER", "use NUMBER columns for line numbers", nlNum(env, "line number field width", 1, &c.width))
	return f
}

// nlRun is one run of nl: where the numbering is.
type nlRun struct {
	nlConfig
	env    *Env
	w      *bufio.Writer
	line   int64 // the next line number
	style  *nlStyle
	blanks int64
	// overflow: the number after line did not fit in an int64; GNU nl
	// fails only when it has to print it.
	overflow bool
}

var errNlOverflow = errors.New("line number overflow")

// run numbers the lines of files.
func (c *nlConfig) run(env *Env, files []string) int {
	n := &nlRun{nlConfig: *c, env: env, w: stdoutWriter(env), line: c.start}
	n.style = &n.body
	done := env.EachFile(n.w, files, func(name string, r io.Reader) error {
		br := bufio.NewReaderSize(r, ioBufSize)
		var line []byte
		for {
			if env.Ctx.Err() != nil {
				return gnu.ErrCancelled
			}
			var rerr error
			line, rerr = env.gatherLine(line[:0], br, '\n')
			text := string(line)
			if rerr != nil && quietStop(rerr) {
				return rerr // a part of a line read until the run stopped
			}
			if text == "" && rerr != nil {
				if rerr == io.EOF {
					return nil
				}
				return rerr
			}
			if err := n.add(text); err == gnu.ErrCancelled {
				return err
			} else if err == errNlOverflow {
				n.w.Flush()
				env.Errorf("%s", err)
				return gnu.ErrCancelled // status 1, nothing more
			} else if err != nil {
				return gnu.WriteError{Err: err}
			}
			if rerr != nil {
				if rerr == io.EOF {
					return nil
				}
				return rerr
			}
		}
	})
	return done.finish(env, n.w)
}

// add prints the line text, numbered as its section's style says, or
// starts a section when it is a delimiter line.
func (n *nlRun) add(text string) error {
	content := strings.TrimSuffix(text, "\n")
	// Logical page delimiters: header, body, footer.
	if d := n.delim; d != "" && content != "" && strings.Count(content, d)*len(d) == len(content) && len(content)/len(d) <= 3 {
		switch len(content) / len(d) {
		case 3:
			n.style = &n.header
		case 2:
			n.style = &n.body
		case 1:
			n.style = &n.footer
		}
		if !n.noRenumber {
			n.line, n.overflow = n.start, false
		}
		n.blanks = 0
		n.w.WriteString("\n")
		return nil
	}
	number := false
	switch n.style.kind {
	case 'a':
		if content == "" {
			n.blanks++
			if n.blanks == n.join {
				number, n.blanks = true, 0
			}
		} else {
			number, n.blanks = true, 0
		}
	case 't':
		number = content != ""
	case 'p':
		// A long line is matched under the run's context (session 18,
		// red team: -b p'[a-z]\{1,1000\}Q' of a 1 MB line ran past 100 s).
		var err error
		if number, err = n.style.re.MatchContext(n.env.Ctx, []byte(content)); err != nil {
			if n.env.Ctx.Err() != nil {
				return gnu.ErrCancelled
			}
			return err
		}
	}
	var err error
	if number {
		err = n.number()
	} else {
		err = writeRepeat(n.env, n.w, ' ', uint64(n.width)+uint64(len(n.sep)))
	}
	if err != nil {
		return err
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n" // GNU nl ends the last line
	}
	_, err = n.w.WriteString(text)
	return err
}

// number writes the line number, padded to the width (a piece at a time:
// -w 2000000000 made each line one allocation of 2 GB), and the separator.
func (n *nlRun) number() error {
	if n.overflow {
		return errNlOverflow
	}
	d := strconv.FormatInt(n.line, 10)
	pad := uint64(max(n.width-int64(len(d)), 0))
	var err error
	switch n.format {
	case "ln":
		n.w.WriteString(d)
		err = writeRepeat(n.env, n.w, ' ', pad)
	case "rn":
		err = writeRepeat(n.env, n.w, ' ', pad)
		n.w.WriteString(d)
	case "rz":
		if n.line < 0 {
			n.w.WriteByte('-')
			d = d[1:]
		}
		err = writeRepeat(n.env, n.w, '0', pad)
		n.w.WriteString(d)
	}
	if err != nil {
		return err
	}
	next := n.line + n.incr
	n.overflow = n.incr > 0 && next < n.line || n.incr < 0 && next > n.line
	n.line = next
	_, err = n.w.WriteString(n.sep)
	return err
}

// nlHelp is the end of nl's --help, as GNU's.
const nlHelp = `Default options are: -bt -d'\:' -fn -hn -i1 -l1 -n'rn' -s<TAB> -v1 -w6

CC are two delimiter characters used to construct logical page delimiters;
a missing second character implies ':'.  As a GNU extension one can specify
more than two characters, and also specifying the empty string (-d '')
disables section matching.

STYLE is one of:

  a      number all lines
  t      number only nonempty lines
  n      number no lines
  pBRE   number only lines that contain a match for the basic regular
         expression, BRE

FORMAT is one of:

  ln     left justified, no leading zeros
  rn     right justified, no leading zeros
  rz     right justified, leading zeros
`
