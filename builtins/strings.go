package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

func init() {
	Register(Builtin{Name: "strings", Summary: "print the sequences of printable characters in files", Run: stringsCmd})
}

func stringsCmd(env *Env) int {
	f := NewFlags(env, "Display printable strings in [file(s)] (stdin by default)", "[option(s)] [file(s)]")
	f.Bool('a', "all", "scan the entire file, not just the data section [default]")
	f.Bool('d', "data", "only scan the data sections in the file (the whole file here: no object formats)")
	fileNames := f.Bool('f', "print-file-name", "print the name of the file before each string")
	minLen := 4
	setLen := func(v string) error {
		n, err := strconv.ParseInt(v, 0, 64)
		if err != nil {
			return fmt.Errorf("invalid integer argument %s", v)
		}
		if n < 1 {
			return fmt.Errorf("invalid minimum string length %d", n)
		}
		minLen = int(min(n, 1<<30))
		return nil
	}
	f.Func('n', "bytes", RequiredArg, "number", "locate & print any sequence of at least [number] characters (default 4)", func(v string, _ bool) error { return setLen(v) })
	radix := byte(0)
	f.Func('t', "radix", RequiredArg, "{o,d,x}", "print the location of the string in base 8, 10 or 16", func(v string, _ bool) error {
		if v != "o" && v != "d" && v != "x" {
			return errors.New("invalid radix")
		}
		radix = v[0]
		return nil
	})
	f.Func('o', "", NoArg, "", "an alias for --radix=o", func(string, bool) error { radix = 'o'; return nil })
	allSpace := f.Bool('w', "include-all-whitespace", "include all whitespace as valid string characters")
	encoding := byte('s')
	f.Func('e', "encoding", RequiredArg, "{s,S}", "select character size and endianness: s = 7-bit, S = 8-bit", func(v string, _ bool) error {
		if v != "s" && v != "S" {
			return errors.New("invalid encoding")
		}
		encoding = v[0]
		return nil
	})
	sep := "\n"
	f.Func('s', "output-separator", RequiredArg, "string", "string used to separate strings in output", func(v string, _ bool) error { sep = v; return nil })
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
	printable := func(c byte) bool {
		switch {
		case c >= 0x20 && c < 0x7f, c == '\t':
			return true
		case c >= 0x80:
			return encoding == 'S'
		case *allSpace && (c == '\n' || c == '\r' || c == '\f' || c == '\v'):
			return true
		}
		return false
	}
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	scan := func(name string, r io.Reader) error {
		br := bufio.NewReaderSize(r, 64<<10)
		buf := make([]byte, 0, min(minLen, 4096))
		var off, start int64
		streaming := false
		for {
			c, err := br.ReadByte()
			if err != nil {
				if streaming {
					w.WriteString(sep)
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
			if !printable(c) {
				if streaming {
					if _, err := w.WriteString(sep); err != nil {
						return gnu.WriteError{Err: err}
					}
				}
				buf, streaming = buf[:0], false
				continue
			}
			if streaming {
				w.WriteByte(c)
				continue
			}
			if len(buf) == 0 {
				start = off - 1
			}
			buf = append(buf, c)
			if len(buf) < minLen {
				continue
			}
			if *fileNames {
				w.WriteString(name)
				w.WriteString(": ")
			}
			switch radix {
			case 'o':
				fmt.Fprintf(w, "%7o ", start)
			case 'd':
				fmt.Fprintf(w, "%7d ", start)
			case 'x':
				fmt.Fprintf(w, "%7x ", start)
			}
			if _, err := w.Write(buf); err != nil {
				return gnu.WriteError{Err: err}
			}
			streaming = true
		}
	}
	if len(files) == 0 {
		if err := scan("{standard input}", env.Stdin); err != nil {
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
		err = scan(name, fh)
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
