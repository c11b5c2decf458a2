package builtins

import (
	"bufio"
	"bytes"
	"io"
)

var _ = register(Builtin{Name: "look", Summary: "display lines beginning with a given string", Run: lookCmd})

// lookDict is the dictionary util-linux look reads when no file is named
// (-a: lookAltDict); in llmsh it is found only where the grants hold one.
const (
	lookDict    = "/usr/share/dict/words"
	lookAltDict = "/usr/share/dict/web2"
)

// lookCmd is util-linux 2.38's look: the lines of a sorted file that
// begin with a string. It scans from the start where util-linux bisects:
// the two agree on every sorted file.
func lookCmd(env *Env) int {
	f := NewFlags(env, "Display lines beginning with a specified string.", "[options] <string> [<file>...]")
	f.UtilLinux = true // util-linux's --help layout
	alt := f.Bool('a', "alternative", "use the alternative dictionary")
	alnum := f.Bool('d', "alphanum", "compare only blanks and alphanumeric characters")
	fold := f.Bool('f', "ignore-case", "ignore case differences when comparing")
	term, termSet := f.String('t', "terminate", "<char>", "define the string-termination character")
	version := shortHelpVersion(f, 'h', 'V')
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	file := lookDict
	if *alt {
		file = lookAltDict
	}
	switch len(args) {
	case 2:
		file = args[1]
	case 1:
		// No file: the dictionary, compared as look -df.
		*alnum, *fold = true, true
	default:
		return f.Fail(&UsageError{"bad usage"}, 1)
	}
	key := []byte(args[0])
	if *termSet && *term != "" {
		if i := bytes.IndexByte(key, (*term)[0]); i >= 0 {
			key = key[:i+1]
		}
	}
	key = lookFold(key, *alnum, *fold, -1)
	r, err := env.Open(file)
	if err != nil {
		env.Errorf("%s: %s", file, ErrText(err))
		return 1
	}
	defer r.Close()
	w := stdoutWriter(env)
	found := false
	br := bufio.NewReaderSize(r, ioBufSize)
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			var full []byte
			full = append(full, line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				full = append(full, line...)
			}
			line = full
		}
		if len(line) > 0 {
			c := bytes.Compare(key, lookFold(bytes.TrimSuffix(line, []byte("\n")), *alnum, *fold, len(key)))
			if c < 0 || found && c != 0 {
				// Past the place of the string, or past the run of
				// lines beginning with it.
				break
			}
			if c == 0 {
				found = true
				w.Write(line)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			w.Flush()
			if !quietStop(err) {
				env.Errorf("%s: %s", file, ErrText(err))
			}
			return 1
		}
	}
	status := 1
	if found {
		status = 0
	}
	return finishOutput(env, w, status)
}

// lookFold keeps of s what look compares: with alnum only blanks, letters
// and digits, with fold upper-cased; at most max bytes (-1: all).
func lookFold(s []byte, alnum, fold bool, max int) []byte {
	if !alnum && !fold {
		if max >= 0 && len(s) > max {
			return s[:max]
		}
		return s
	}
	out := make([]byte, 0, len(s))
	for _, c := range s {
		if max >= 0 && len(out) == max {
			break
		}
		isAlnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if alnum && !isAlnum && c != ' ' && c != '\t' {
			continue
		}
		if fold && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		out = append(out, c)
	}
	return out
}
