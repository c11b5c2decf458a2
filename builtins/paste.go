package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "paste", Summary: "merge lines of files", Run: paste})

// pasteEscapes are the escapes of a -d list besides \0 (an empty
// delimiter); any other escaped character stands for itself.
var pasteEscapes = gnu.Escapes{Letters: "bfnrtv", DropUnknown: true}

// pasteList is a -d list decoded: a byte per delimiter, or noDelim for
// \0 (none). Two bytes each, not a slice each (session 28, red team: a
// 100 MB list took 800 MB and ten seconds to decode, looking at no
// context, in 100 million slices of one byte).
type pasteList []uint16

const noDelim = 256

// appendAt appends delimiter i (cycling through the list) to b.
func (l pasteList) appendAt(b []byte, i int) []byte {
	if d := l[i%len(l)]; d != noDelim {
		b = append(b, byte(d))
	}
	return b
}

// pasteDelims turns a -d list into its delimiters; an empty one is "\0".
func pasteDelims(s string) (pasteList, error) {
	out := make(pasteList, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' {
			if i+1 == len(s) {
				return nil, fmt.Errorf("delimiter list ends with an unescaped backslash: %s", s)
			}
			i++
			if s[i] == '0' {
				out = append(out, noDelim)
				continue
			}
			c = s[i]
			if b, n, _ := pasteEscapes.Next(nil, s[i:]); n > 0 {
				c = b[0]
			}
		}
		out = append(out, uint16(c))
	}
	if len(out) == 0 {
		out = append(out, noDelim)
	}
	return out, nil
}

func paste(env *Env) int {
	c := &pasteConfig{list: "\t"}
	f := NewFlags(env, "Write lines consisting of the sequentially corresponding lines from\neach FILE, separated by TABs, to standard output.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	f.StringVar(&c.list, 'd', "delimiters", "LIST", "reuse characters from LIST instead of TABs")
	f.BoolVar(&c.serial, 's', "serial", "paste one file at a time instead of in parallel")
	f.BoolVar(&c.zero, 'z', "zero-terminated", "line delimiter is NUL, not newline")
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if c.delims, err = pasteDelims(c.list); err != nil {
		env.Errorf("%s", err)
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	c.eol = '\n'
	if c.zero {
		c.eol = 0
	}
	p := &pasteRun{pasteConfig: c, env: env, w: bufio.NewWriterSize(env.Stdout, 64<<10)}
	if c.serial {
		return p.serial(files)
	}
	return p.parallel(files)
}

// pasteConfig is what paste's options select.
type pasteConfig struct {
	list         string // -d
	serial, zero bool
	delims       pasteList // list decoded
	eol          byte
}

// pasteRun is one run of paste.
type pasteRun struct {
	*pasteConfig
	env   *Env
	w     *bufio.Writer
	stdin *lineReader // read once, however many times "-" is named
}

// open opens the file name, returning its closer if it is to be closed.
func (p *pasteRun) open(name string) (*lineReader, io.Closer, error) {
	if name == "-" {
		if p.stdin == nil {
			p.stdin = newLineReader(p.env, p.env.Stdin)
		}
		return p.stdin, nil, nil
	}
	r, err := p.env.Open(name)
	if errors.Is(err, syscall.EISDIR) {
		// GNU opens a directory and fails on reading it.
		return newLineReader(p.env, errReader{err}), nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return newLineReader(p.env, r), r, nil
}

// serial is -s: each file's lines joined on one line. As GNU's, a file
// whose reading fails still ends its line before the message.
func (p *pasteRun) serial(files []string) int {
	env, w := p.env, p.w
	dirFailed := func(name string, err error) {
		if errors.Is(err, syscall.EISDIR) {
			// GNU opens a directory; reading it fails, after the line's end.
			w.WriteByte(p.eol)
			w.Flush()
		}
		env.PathError(name, err)
	}
	d := env.eachFile(w, files, fileWords{openFailed: dirFailed, closedIn: "-"}, func(_ string, r io.Reader) error {
		lr := newLineReader(env, r)
		k := 0
		first := true
		for {
			line, _, err := lr.next(p.eol)
			if err == io.EOF {
				break
			}
			if err != nil {
				if quietStop(err) {
					return err
				}
				if werr := w.WriteByte(p.eol); werr != nil {
					return gnu.WriteError{Err: werr}
				}
				return err
			}
			if !first {
				if d := p.delims[k%len(p.delims)]; d != noDelim {
					w.WriteByte(byte(d))
				}
				k++
			}
			first = false
			if _, err := w.Write(line); err != nil {
				return gnu.WriteError{Err: err}
			}
		}
		if err := w.WriteByte(p.eol); err != nil {
			return gnu.WriteError{Err: err}
		}
		return nil
	})
	return d.finish(env, w)
}

// parallel joins the files' first lines, then their second ones, and so on.
func (p *pasteRun) parallel(files []string) int {
	env, w := p.env, p.w
	readers := make([]*lineReader, len(files))
	for i, name := range files {
		lr, c, err := p.open(name)
		if err != nil {
			env.PathError(name, err)
			return 1
		}
		if c != nil {
			defer c.Close()
		}
		readers[i] = lr
	}
	if env.StdinClosed && p.stdin != nil && slices.ContainsFunc(files, func(f string) bool { return f != "-" }) {
		// GNU: with its standard input closed, the first file it
		// opens is given descriptor 0, which it notices.
		env.Errorf("standard input is closed")
		return 1
	}
	done := make([]bool, len(files))
	status := 0
	var out []byte
	for {
		out = out[:0]
		any, sent := false, 0 // sent: how much of out GNU has written
		for i, lr := range readers {
			had := false
			if !done[i] {
				line, _, err := lr.next(p.eol)
				switch {
				case err == io.EOF:
					done[i] = true
				case err != nil:
					if st, stop := stopError(env, err); stop {
						return st
					}
					// GNU reports it after the line so far: the
					// delimiters after files with no line left are
					// held until a line follows them. The file ends there.
					w.Write(out[:sent])
					w.Flush()
					out, sent = append(out[:0], out[sent:]...), 0
					env.PathError(files[i], err)
					done[i] = true
					status = 1
				default:
					any, had = true, true
					out = append(out, line...)
				}
			}
			if i < len(readers)-1 {
				out = p.delims.appendAt(out, i)
			}
			if had {
				sent = len(out)
			}
		}
		if !any {
			break
		}
		out = append(out, p.eol)
		if _, err := w.Write(out); err != nil {
			return finishOutput(env, w, 1)
		}
	}
	if env.StdinClosed && slices.Contains(files, "-") {
		// GNU closes the standard input it read: a closed one fails
		// again.
		w.Flush()
		env.Errorf("-: %s", gnu.Strerror(syscall.EBADF))
		status = 1
	}
	return finishOutput(env, w, status)
}
