package builtins

import (
	"bytes"
	"errors"
	"io"
	"regexp"
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
	var re *regexp.Regexp
	if *regex && sep != "" {
		if re, err = compileBRE(sep); err != nil {
			env.Errorf("%s", err)
			return 1
		}
	}
	w := stdoutWriter(env)
	each := func(name string, r io.Reader) error {
		data, err := readAllCtx(env, r)
		if err != nil {
			return err
		}
		// Record boundaries: the end of each separator (or its start with -b).
		var cuts []int
		switch {
		case sep == "":
		case re != nil:
			for _, m := range re.FindAllIndex(data, -1) {
				if m[1] == m[0] {
					continue
				}
				if *before {
					cuts = append(cuts, m[0])
				} else {
					cuts = append(cuts, m[1])
				}
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
	words := fileWords{readFailed: tacReadError(env), openFailed: func(name string, err error) {
		if errors.Is(err, syscall.EISDIR) {
			tacReadError(env)(name, err) // GNU opens a directory and fails reading it
			return
		}
		env.Errorf("failed to open %s for reading: %s", gnu.QuoteAF(name), ErrText(err))
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
		env.Errorf("%s: read error: %s", gnu.QuoteF(displayName(name)), text)
	}
}
