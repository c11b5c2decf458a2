package builtins

import (
	"bytes"
	"errors"
	"syscall"
)

var _ = register(Builtin{Name: "look", Summary: "display lines beginning with a given string", Run: lookCmd})

// lookDict is the dictionary util-linux look reads when no file is named
// (-a: lookAltDict); in llmsh it is found only where the grants hold one.
const (
	lookDict    = "/usr/share/dict/words"
	lookAltDict = "/usr/share/dict/web2"
)

// lookCmd is util-linux 2.38's look: the lines of a sorted file that
// begin with a string, found as util-linux finds them (a bisection, then
// a scan), so that an unsorted file gives util-linux's answer too.
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
	if *alnum {
		key = lookAlnum(key, -1)
	}
	data, err := lookRead(env, file)
	if err != nil {
		if !quietStop(err) {
			env.Errorf("%s: %s", file, ErrText(err))
		}
		return 1
	}
	lk := looker{key: key, alnum: *alnum, fold: *fold}
	at := lk.search(data)
	if at < 0 {
		return 1
	}
	w := stdoutWriter(env)
	for p := at; p < len(data) && lk.compare(data[p:]) == 0; {
		end := bytes.IndexByte(data[p:], '\n')
		if end < 0 {
			end = len(data) - p - 1
		}
		w.Write(data[p : p+end+1])
		p += end + 1
	}
	return finishOutput(env, w, 0)
}

// lookRead reads the whole file name, which util-linux maps in memory:
// "-" is a file's name; an empty file, a pipe or a device is EINVAL
// (mmap of no bytes), a directory ENODEV.
func lookRead(env *Env, name string) ([]byte, error) {
	if name == "-" {
		name = "./-"
	}
	r, err := env.Open(name)
	if errors.Is(err, syscall.EISDIR) {
		return nil, syscall.ENODEV
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, ok := r.(File)
	if !ok {
		return nil, syscall.EINVAL
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, syscall.ENODEV
	case !fi.Mode().IsRegular() || fi.Size() == 0:
		return nil, syscall.EINVAL
	}
	return readHeld(env, r)
}

// looker compares the lines of a file with look's string.
type looker struct {
	key         []byte
	alnum, fold bool
	buf         []byte
}

// search is util-linux look's binary_search and linear_search over
// data: the offset of the first line found that begins with the key, or
// -1. A bisection step keeps the upper half when the key sorts after the
// line at its middle; on an unsorted file the answer is util-linux's.
func (lk *looker) search(data []byte) int {
	skip := func(p, back int) int {
		for p < back {
			p++
			if data[p-1] == '\n' {
				break
			}
		}
		return p
	}
	front, back := 0, len(data)
	p := skip(front+(back-front)/2, back)
	for p < back && back > front {
		if lk.compare(data[p:back]) > 0 {
			front = p
		} else {
			back = p
		}
		p = skip(front+(back-front)/2, back)
	}
	for back = len(data); front < back; front = skip(front, back) {
		switch c := lk.compare(data[front:back]); {
		case c == 0:
			return front
		case c < 0:
			return -1
		}
	}
	return -1
}

// compare is util-linux look's compare of the key with the line at the
// start of s: 0 when the line begins with it, 1 when the line sorts
// before it (the key is "greater"), -1 after. It compares as strncmp,
// or strncasecmp (lower case) under -f, the line's first len(key) bytes
// that count (-d: blanks, letters and digits).
func (lk *looker) compare(s []byte) int {
	if i := bytes.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if lk.alnum {
		lk.buf = append(lk.buf[:0], lookAlnum(s, len(lk.key))...)
		s = lk.buf
	} else if len(s) > len(lk.key) {
		s = s[:len(lk.key)]
	}
	for i, k := range lk.key {
		if i == len(s) {
			return 1 // the line ends first: its NUL sorts before
		}
		c := s[i]
		if lk.fold {
			c, k = lookLower(c), lookLower(k)
		}
		if c != k {
			if c < k {
				return 1
			}
			return -1
		}
	}
	return 0
}

func lookLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// lookAlnum keeps of s the blanks, letters and digits, at most max bytes
// (-1: all).
func lookAlnum(s []byte, max int) []byte {
	out := make([]byte, 0, len(s))
	for _, c := range s {
		if max >= 0 && len(out) == max {
			break
		}
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == ' ' || c == '\t' {
			out = append(out, c)
		}
	}
	return out
}
