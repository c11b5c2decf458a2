package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "strings", Summary: "print the sequences of printable characters in files", Run: stringsCmd})

// stringsConfig is what strings's options select.
type stringsConfig struct {
	version             *bool // -v or -V
	fileNames, allSpace bool
	minLen              int  // -n
	radix               byte // -t: 'o', 'd', 'x', or 0 for no offsets
	encoding            byte // -e: 's' or 'S'
	sep                 string
}

func stringsCmd(env *Env) int {
	c := &stringsConfig{minLen: 4, encoding: 's', sep: "\n"}
	f := c.flags(env)
	// The obsolete -NUMBER form, and "-" for --all.
	args := make([]string, 0, len(env.Args))
	for i, a := range env.Args[1:] {
		if a == "--" {
			args = append(args, env.Args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			a = "-n" + a[1:]
		} else if a == "-" {
			a = "-a"
		}
		args = append(args, a)
	}
	files, err := f.Parse(args)
	if err != nil {
		_, isUsage := usageMessage(err)
		if isUsage || errors.Is(err, ErrHelp) {
			return f.Fail(err, 1)
		}
		env.Errorf("%s", err)
		return 1
	}
	if *c.version {
		return printVersion(env)
	}
	return c.run(env, files)
}

// flags is strings's option table.
func (c *stringsConfig) flags(env *Env) *Flags {
	f := NewFlags(env, "Display printable strings in [file(s)] (stdin by default)", "[option(s)] [file(s)]")
	c.version = shortHelpVersion(f, 'h', 'v', 'V')
	f.Bool('a', "all", "scan the entire file, not just the data section [default]")
	f.Bool('d', "data", "only scan the data sections in the file (the whole file here: no object formats)")
	f.BoolVar(&c.fileNames, 'f', "print-file-name", "print the name of the file before each string")
	f.Func('n', "bytes", RequiredArg, "number", "locate & print any sequence of at least [number] characters (default 4)", func(v string, _ bool) error {
		n, err := strconv.ParseInt(v, 0, 64)
		if err != nil {
			return fmt.Errorf("invalid integer argument %s", v)
		}
		if n < 1 {
			return fmt.Errorf("invalid minimum string length %d", n)
		}
		c.minLen = int(min(n, 1<<30))
		return nil
	})
	f.Func('t', "radix", RequiredArg, "{o,d,x}", "print the location of the string in base 8, 10 or 16", func(v string, _ bool) error {
		if v != "o" && v != "d" && v != "x" {
			return errors.New("invalid radix")
		}
		c.radix = v[0]
		return nil
	})
	f.Func('o', "", NoArg, "", "an alias for --radix=o", func(string, bool) error { c.radix = 'o'; return nil })
	f.BoolVar(&c.allSpace, 'w', "include-all-whitespace", "include all whitespace as valid string characters")
	f.Func('e', "encoding", RequiredArg, "{s,S}", "select character size and endianness: s = 7-bit, S = 8-bit", func(v string, _ bool) error {
		if v != "s" && v != "S" {
			return errors.New("invalid encoding")
		}
		c.encoding = v[0]
		return nil
	})
	f.Func('s', "output-separator", RequiredArg, "string", "string used to separate strings in output", func(v string, _ bool) error { c.sep = v; return nil })
	return f
}

// run prints the strings of files, or of standard input.
func (c *stringsConfig) run(env *Env, files []string) int {
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	if len(files) == 0 {
		if err := c.scan(env, w, "{standard input}", env.Stdin); err != nil {
			st, _ := stopError(env, err)
			return st
		}
		return finishOutput(env, w, 0)
	}
	status := 0
	for _, name := range files {
		if env.Ctx.Err() != nil {
			return 1
		}
		fi, err := env.FS.Stat(env.Abs(name))
		if err == nil && fi.IsDir() {
			w.Flush()
			env.Errorf("Warning: '%s' is a directory", name)
			status = 1
			continue
		}
		fh, err := env.Open(name)
		if err != nil {
			w.Flush()
			// binutils' own wording, whatever the errno.
			env.Errorf("'%s': No such file", name)
			status = 1
			continue
		}
		err = c.scan(env, w, name, fh)
		fh.Close()
		if err != nil {
			if st, stop := stopError(env, err); stop {
				return st
			}
			w.Flush()
			env.Errorf("%s: %s", name, ErrText(err))
			status = 1
		}
	}
	return finishOutput(env, w, status)
}

// printable tells whether ch may be part of a string.
func (c *stringsConfig) printable(ch byte) bool {
	switch {
	case ch >= 0x20 && ch < 0x7f, ch == '\t':
		return true
	case ch >= 0x80:
		return c.encoding == 'S'
	case c.allSpace && (ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v'):
		return true
	}
	return false
}

// scan prints the strings of r, the file name, to w.
func (c *stringsConfig) scan(env *Env, w *bufio.Writer, name string, r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	buf := make([]byte, 0, min(c.minLen, 4096))
	var off, start int64
	streaming := false
	for {
		ch, err := br.ReadByte()
		if err != nil {
			if streaming {
				w.WriteString(c.sep)
			}
			if err == io.EOF {
				return nil
			}
			return err
		}
		if off&0xffff == 0 && env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		off++
		if !c.printable(ch) {
			if streaming {
				if _, err := w.WriteString(c.sep); err != nil {
					return gnu.WriteError{Err: err}
				}
			}
			buf, streaming = buf[:0], false
			continue
		}
		if streaming {
			w.WriteByte(ch)
			continue
		}
		if len(buf) == 0 {
			start = off - 1
		}
		buf = append(buf, ch)
		if len(buf) < c.minLen {
			continue
		}
		if c.fileNames {
			w.WriteString(name)
			w.WriteString(": ")
		}
		if c.radix != 0 {
			// The radix letters are fmt's verbs for the bases.
			fmt.Fprintf(w, "%7"+string(rune(c.radix))+" ", start)
		}
		if _, err := w.Write(buf); err != nil {
			return gnu.WriteError{Err: err}
		}
		streaming = true
	}
}
