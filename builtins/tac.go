package builtins

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "tac", Summary: "concatenate and print files in reverse", Run: tac})

func tac(env *Env) int {
	f := NewFlags(env, "Write each FILE to standard output, last line first.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	before := f.Bool('b', "before", "attach the separator before instead of after")
	regex := f.Bool('r', "regex", "interpret the separator as a regular expression")
	sep := "\n"
	f.StringVar(&sep, 's', "separator", "STRING", "use STRING as the separator instead of newline")
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	var re *tacRegex
	if *regex && sep != "" {
		if re, err = newTacRegex(sep); err != nil {
			env.Errorf("%s", err)
			return 1
		}
	}
	w := stdoutWriter(env)
	each := func(name string, r io.Reader) error {
		data, err := readHeld(env, r)
		if err != nil {
			return err
		}
		// Record boundaries: the end of each separator (or its start with -b).
		var cuts []int
		switch {
		case sep == "":
		case re != nil:
			if cuts, err = re.cuts(env, data, *before); err != nil {
				return err
			}
		default:
			// Separators are found from the end backwards, as GNU does.
			s := []byte(sep)
			for lim := len(data); ; {
				if len(cuts)&0xffff == 0 && env.Ctx.Err() != nil {
					return gnu.ErrCancelled
				}
				i := bytes.LastIndex(data[:lim], s)
				if i < 0 {
					break
				}
				if *before {
					cuts = append(cuts, i)
				} else {
					cuts = append(cuts, i+len(s))
				}
				lim = i
			}
			for i, j := 0, len(cuts)-1; i < j; i, j = i+1, j-1 {
				cuts[i], cuts[j] = cuts[j], cuts[i]
			}
		}
		end := len(data)
		for k := len(cuts) - 1; k >= -1; k-- {
			start := 0
			if k >= 0 {
				start = cuts[k]
			}
			if start < end {
				if _, err := w.Write(data[start:end]); err != nil {
					return gnu.WriteError{Err: err}
				}
				end = start
			}
		}
		return nil
	}
	words := fileWords{closedIn: "-", readFailed: tacReadError(env), openFailed: func(name string, err error) {
		if errors.Is(err, syscall.EISDIR) {
			tacReadError(env)(name, err) // GNU opens a directory and fails reading it
			return
		}
		env.Errorf("failed to open %s for reading: %s", env.QuoteAF(name), ErrText(err))
	}}
	// tac holds each file whole: w is flushed only at the end, as GNU's
	// own output buffer is.
	return env.eachFile(nil, files, words, each).finish(env, w)
}

// tacReadError reports a failed read GNU tac's way.
func tacReadError(env *Env) func(name string, err error) {
	return func(name string, err error) {
		text := ErrText(err)
		if errors.Is(err, syscall.EISDIR) {
			text = ErrText(syscall.EINVAL)
		}
		env.Errorf("%s: read error: %s", env.QuoteF(displayName(name)), text)
	}
}

// tacRegex is tac -r's separator. GNU tac compiles it with
// re_compile_pattern's default syntax, Emacs's: '+' and '?' are operators
// (\\+ and \\? literal), there are no intervals ({ and \\{ are literal) and no
// [:classes:], '.' does not match a newline and '^' and '$' match at
// newlines. It searches backwards: each separator is the longest match
// at the last position before the previous separator where one starts,
// within the text before that separator (so [0-9]+ splits "12" into "1"
// and "2", as GNU does).
type tacRegex struct {
	last  *regexp.Regexp // as much text as can precede a separator, then it
	at    *regexp.Regexp // a separator at the start of the text, longest
	atCtx *regexp.Regexp // one byte of context, then a separator, longest
	// nullable is set once the separator matched empty at the end of
	// the text searched: last is no help then, each start is tried.
	nullable bool
}

func newTacRegex(sep string) (*tacRegex, error) {
	re, err := compileBREFlags(emacsToBRE(sep), "(?m)")
	if err != nil {
		return nil, err
	}
	t := &tacRegex{}
	for _, c := range []struct {
		re      **regexp.Regexp
		pattern string
	}{{&t.last, `(?s:.*)(%s)`}, {&t.at, `\A(?:%s)`}, {&t.atCtx, `\A(?s:.)(?:%s)`}} {
		if *c.re, err = regexp.Compile(fmt.Sprintf(c.pattern, re.String())); err != nil {
			return nil, breError(err)
		}
	}
	t.at.Longest()
	t.atCtx.Longest()
	return t, nil
}

// matchAt is the end of the longest separator that starts at s in
// data[:lim].
func (t *tacRegex) matchAt(data []byte, s, lim int) (int, bool) {
	if s == 0 {
		m := t.at.FindIndex(data[:lim])
		if m == nil {
			return 0, false
		}
		return m[1], true
	}
	m := t.atCtx.FindIndex(data[s-1 : lim])
	if m == nil {
		return 0, false
	}
	return s - 1 + m[1], true
}

// lastStart is the last position before lim where a separator within
// data[:lim] starts, or -1.
func (t *tacRegex) lastStart(env *Env, data []byte, lim int) int {
	// The last start is looked for in a window before lim, widened until
	// a match starts past its first byte (whose left context the window
	// lacks) or the window is the whole text.
	for w := 64; !t.nullable; w *= 2 {
		from := max(0, lim-w)
		if m := t.last.FindSubmatchIndex(data[from:lim]); m != nil && (from == 0 || m[2] > 0) {
			if s := from + m[2]; s < lim {
				return s
			}
			t.nullable = true
			break
		}
		if from == 0 {
			return -1
		}
	}
	for s := lim - 1; s >= 0; s-- {
		if s&0xffff == 0 && env.Ctx.Err() != nil {
			return -1
		}
		if _, ok := t.matchAt(data, s, lim); ok {
			return s
		}
	}
	return -1
}

// cuts returns where the records of data begin: the end of each
// separator, or its start with before.
func (t *tacRegex) cuts(env *Env, data []byte, before bool) ([]int, error) {
	var cuts []int
	for lim := len(data); lim > 0; {
		if len(cuts)&0xfff == 0 && env.Ctx.Err() != nil {
			return nil, gnu.ErrCancelled
		}
		s := t.lastStart(env, data, lim)
		if s < 0 {
			break
		}
		e, ok := t.matchAt(data, s, lim)
		switch {
		case before:
			cuts = append(cuts, s)
		case ok:
			cuts = append(cuts, e)
		default:
			cuts = append(cuts, s)
		}
		lim = s
	}
	if env.Ctx.Err() != nil {
		return nil, gnu.ErrCancelled
	}
	for i, j := 0, len(cuts)-1; i < j; i, j = i+1, j-1 {
		cuts[i], cuts[j] = cuts[j], cuts[i]
	}
	return cuts, nil
}

// emacsToBRE rewrites a regular expression in Emacs syntax (see tacRegex)
// as the same expression in GNU's basic syntax.
func emacsToBRE(pat string) string {
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '\\':
			if i+1 == len(pat) {
				b.WriteByte(c) // compileBRE reports it
				break
			}
			i++
			switch d := pat[i]; d {
			case '+', '?', '{', '}':
				b.WriteByte(d)
			case 'n', 't':
				b.WriteByte(d) // no such escapes: the letter itself
			default:
				b.WriteByte(c)
				b.WriteByte(d)
			}
		case '+', '?':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '[':
			i = emacsBracket(&b, pat, i)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// emacsBracket copies the bracket expression at pat[i] and returns the
// index of its ']'. Emacs has no [:class:]: a '[' inside is a plain
// character, moved to the end of the list where it cannot start one.
func emacsBracket(b *strings.Builder, pat string, i int) int {
	j := i + 1
	if j < len(pat) && pat[j] == '^' {
		j++
	}
	if j < len(pat) && pat[j] == ']' {
		j++
	}
	for j < len(pat) && pat[j] != ']' {
		j++
	}
	if j >= len(pat) {
		b.WriteString(pat[i:]) // unmatched: compileBRE reports it
		return len(pat) - 1
	}
	body := pat[i+1 : j]
	if strings.Contains(body, "[") {
		body = strings.ReplaceAll(body, "[", "") + "["
	}
	b.WriteString("[" + body + "]")
	return j
}
