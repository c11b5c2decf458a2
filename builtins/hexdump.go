package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "hexdump", Summary: "display file contents in hexadecimal", Run: hexdump})
var _ = register(Builtin{Name: "hd", Summary: "display file contents in canonical hex+ASCII (hexdump -C)", Run: hexdump})

// hexdumpSize parses util-linux's size arguments: a decimal, 0x hex or 0
// octal number with an optional K, M, G, T suffix (KiB and K are 1024,
// KB is 1000).
func hexdumpSize(s string) (int64, error) {
	i := 0
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		i = 2
		for i < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[i]) >= 0 {
			i++
		}
	} else {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	num := s
	digits, suffix := num[:i], num[i:]
	if digits == "" {
		return 0, errors.New("Invalid argument")
	}
	v, err := strconv.ParseInt(digits, 0, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, errors.New("Numerical result out of range")
		}
		return 0, errors.New("Invalid argument")
	}
	mult := int64(1)
	if suffix != "" {
		base := int64(1024)
		rest := suffix[1:]
		switch strings.ToUpper(rest) {
		case "", "IB":
		case "B":
			base = 1000
		default:
			return 0, errors.New("Invalid argument")
		}
		p := strings.IndexByte("KMGTPE", byte(strings.ToUpper(suffix[:1])[0]))
		if p < 0 {
			return 0, errors.New("Invalid argument")
		}
		for ; p >= 0; p-- {
			mult *= base
		}
	}
	if mult > 1 && v > math.MaxInt64/mult {
		return 0, errors.New("Numerical result out of range")
	}
	return v * mult, nil
}

// hexdumpConfig is what hexdump's command line asks for.
type hexdumpConfig struct {
	formats     []byte           // the built-in formats (-b, -c, -C, ...)
	custom      []*hexdumpFormat // the -e and -f formats
	formatFiles []string
	verbose     bool
	length      int64 // -1: all
	skip        int64
	files       []string
}

func hexdump(env *Env) int {
	c, status := hexdumpParse(env)
	if c == nil {
		return status
	}
	return c.run(env)
}

// hexdumpParse reads hexdump's options and format files; on nil it
// returns the exit status.
func hexdumpParse(env *Env) (*hexdumpConfig, int) {
	f := NewFlags(env, "Display file contents in hexadecimal, decimal, octal, or ascii.", "[options] <file>...")
	f.UtilLinux = true // util-linux's --help layout
	c := &hexdumpConfig{length: -1}
	addFormat := func(ch byte) func(string, bool) error {
		return func(string, bool) error { c.formats = append(c.formats, ch); return nil }
	}
	f.Func('b', "one-byte-octal", NoArg, "", "one-byte octal display", addFormat('b'))
	f.Func('c', "one-byte-char", NoArg, "", "one-byte character display", addFormat('c'))
	f.Func('C', "canonical", NoArg, "", "canonical hex+ASCII display", addFormat('C'))
	f.Func('d', "two-bytes-decimal", NoArg, "", "two-byte decimal display", addFormat('d'))
	f.Func('o', "two-bytes-octal", NoArg, "", "two-byte octal display", addFormat('o'))
	f.Func('x', "two-bytes-hex", NoArg, "", "two-byte hexadecimal display", addFormat('x'))
	f.Func('e', "format", RequiredArg, "format_string", "format string to be used for displaying data", func(v string, _ bool) error {
		cf, err := hexdumpParseFormat(v)
		if err != nil {
			return err
		}
		c.custom = append(c.custom, cf)
		return nil
	})
	f.Func('f', "format-file", RequiredArg, "file", "file that contains format strings", func(v string, _ bool) error {
		c.formatFiles = append(c.formatFiles, v)
		return nil
	})
	f.BoolVar(&c.verbose, 'v', "no-squeezing", "output identical lines")
	f.Func('n', "length", RequiredArg, "length", "interpret only length bytes of input", func(v string, _ bool) error {
		n, err := hexdumpSize(v)
		if err != nil {
			return fmt.Errorf("failed to parse length: '%s': %s", v, err)
		}
		c.length = n
		return nil
	})
	f.Func('s', "skip", RequiredArg, "offset", "skip offset bytes from the beginning", func(v string, _ bool) error {
		n, err := hexdumpSize(v)
		if err != nil {
			return fmt.Errorf("failed to parse offset: '%s': %s", v, err)
		}
		c.skip = n
		return nil
	})
	version := shortHelpVersion(f, 'h', 'V')
	files, err := f.Parse(env.Args[1:])
	c.files = files
	if err != nil {
		return nil, f.Fail(err, 1)
	}
	if *version {
		return nil, printVersion(env)
	}
	if env.Name() == "hd" {
		c.formats = append([]byte{'C'}, c.formats...)
	}
	for _, ff := range c.formatFiles {
		r, err := env.Open(ff)
		if err != nil {
			env.Errorf("can't read %s: %s", ff, ErrText(err))
			return nil, 1
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			env.PathError(ff, err)
			return nil, 1
		}
		for _, line := range strings.Split(string(data), "\n") {
			if t := strings.TrimSpace(line); t == "" || t[0] == '#' {
				continue
			}
			cf, err := hexdumpParseFormat(line)
			if err != nil {
				env.Errorf("%s", err)
				return nil, 1
			}
			c.custom = append(c.custom, cf)
		}
	}
	return c, 0
}

// run dumps the files (standard input if none) as one stream.
func (c *hexdumpConfig) run(env *Env) int {
	if len(c.formats) == 0 && len(c.custom) == 0 {
		c.formats = []byte{'D'}
	}
	bs := 0
	if len(c.formats) > 0 {
		bs = 16
	}
	for _, cf := range c.custom {
		bs = max(bs, cf.size())
	}
	for _, cf := range c.custom {
		cf.fill(bs)
	}
	canonicalOnly := true
	for _, ch := range c.formats {
		if ch != 'C' {
			canonicalOnly = false
		}
	}

	// The operands are read as one stream; a file that cannot be opened is
	// reported when it is reached.
	in := &hexdumpInput{env: env, files: c.files}
	if len(c.files) == 0 {
		in.cur = nopReadCloser{env.Stdin}
		in.opened = 1
		in.next = 1
		// util-linux names a failed read of its standard input by
		// the argument before it (argv[optind-1]: "hexdump: -C: Bad
		// file descriptor") and does not fail for it.
		in.files = []string{env.Args[len(env.Args)-1]}
		in.stdin = true
	}
	br := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	defer func() {
		if in.cur != nil {
			in.cur.Close()
		}
	}()

	addr := int64(0)
	if c.skip > 0 {
		n, err := io.CopyN(io.Discard, br, c.skip)
		addr = n
		if err != nil && err != io.EOF {
			if errors.Is(err, gnu.ErrCancelled) {
				return 1
			}
		}
	}
	var r io.Reader = br
	if c.length >= 0 {
		r = io.LimitReader(br, c.length)
	}
	if bs == 0 {
		// util-linux prints nothing when no format consumes data; it
		// still opens each file.
		if _, err := io.Copy(io.Discard, r); errors.Is(err, gnu.ErrCancelled) {
			return 1
		}
		return c.finish(env, w, in)
	}
	addr, printed, ok := c.dump(w, r, addr, bs)
	if !ok {
		return 1
	}
	if len(c.formats) == 0 {
		for _, cf := range c.custom {
			cf.printEnd(w, addr)
		}
	} else if printed || addr > 0 {
		if canonicalOnly {
			fmt.Fprintf(w, "%08x\n", addr)
		} else {
			fmt.Fprintf(w, "%07x\n", addr)
		}
	}
	return c.finish(env, w, in)
}

// finish reports when every file failed and flushes the output.
func (c *hexdumpConfig) finish(env *Env, w *bufio.Writer, in *hexdumpInput) int {
	if in.opened == 0 && in.status != 0 {
		env.Errorf("all input file arguments failed")
		w.Flush()
		return 1
	}
	return finishOutput(env, w, in.status)
}

// dump prints the blocks of bs bytes of in, from address addr on; it
// returns the end address, whether anything was read, and false if
// cancelled.
func (c *hexdumpConfig) dump(w *bufio.Writer, in io.Reader, addr int64, bs int) (int64, bool, bool) {
	block, prev := make([]byte, bs), make([]byte, bs)
	havePrev, starred := false, false
	printed := false
	for {
		n, err := io.ReadFull(in, block[:])
		if n == 0 {
			if err != nil && errors.Is(err, gnu.ErrCancelled) {
				return addr, printed, false
			}
			break
		}
		printed = true
		if n == bs && havePrev && !c.verbose && bytes.Equal(block, prev) {
			if !starred {
				w.WriteString("*\n")
				starred = true
			}
		} else {
			starred = false
			for _, ch := range c.formats {
				if ch == 'C' {
					hexdumpCanonical(w, addr, block[:n])
				} else {
					hexdumpUnits(w, ch, addr, block[:n])
				}
			}
			for _, cf := range c.custom {
				cf.print(w, block[:n], addr, bs)
			}
		}
		copy(prev, block)
		havePrev = n == bs
		addr += int64(n)
		if err != nil {
			if errors.Is(err, gnu.ErrCancelled) {
				return addr, printed, false
			}
			break
		}
		if _, werr := w.Write(nil); werr != nil {
			break
		}
	}
	return addr, printed, true
}

// hexdumpInput reads the operands one after the other, reporting those
// that cannot be opened or read as it reaches them.
type hexdumpInput struct {
	env    *Env
	files  []string
	next   int // index in files of the next to open
	opened int
	status int
	cur    io.ReadCloser
	stdin  bool // there is no operand: the standard input is read
}

func (in *hexdumpInput) Read(p []byte) (int, error) {
	env := in.env
	for {
		if env.Ctx.Err() != nil {
			return 0, gnu.ErrCancelled
		}
		if in.cur == nil {
			if in.next >= len(in.files) {
				return 0, io.EOF
			}
			name := in.files[in.next]
			in.next++
			fh, err := env.Open(name)
			if errors.Is(err, syscall.EISDIR) {
				// util-linux opens a directory; its read fails, which
				// it reports without failing.
				in.opened++
				env.PathError(name, err)
				continue
			}
			if err != nil {
				env.PathError(name, err)
				in.status = 1
				continue
			}
			in.opened++
			in.cur = fh
		}
		n, err := in.cur.Read(p)
		if err == io.EOF || (err == nil && n == 0) {
			in.cur.Close()
			in.cur = nil
			if n > 0 {
				return n, nil
			}
			continue
		}
		if err != nil {
			env.PathError(in.files[in.next-1], err)
			in.cur.Close()
			in.cur = nil
			if !errors.Is(err, syscall.EISDIR) && !in.stdin {
				in.status = 1
			}
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, nil
	}
}

func hexdumpCanonical(w *bufio.Writer, addr int64, b []byte) {
	const hexd = "0123456789abcdef"
	var line bytes.Buffer
	fmt.Fprintf(&line, "%08x  ", addr)
	for i := 0; i < 16; i++ {
		if i < len(b) {
			line.WriteByte(hexd[b[i]>>4])
			line.WriteByte(hexd[b[i]&15])
			line.WriteByte(' ')
		} else {
			line.WriteString("   ")
		}
		if i == 7 {
			line.WriteByte(' ')
		}
	}
	line.WriteString(" |")
	for _, c := range b {
		if c >= 0x20 && c < 0x7f {
			line.WriteByte(c)
		} else {
			line.WriteByte('.')
		}
	}
	line.WriteString("|\n")
	w.Write(line.Bytes())
}

// hexdumpUnits prints one line of the default format (D) or of -b, -c,
// -d, -o, -x: the address, then each byte or little-endian two-byte unit,
// blank-padded where the block ends early.
func hexdumpUnits(w *bufio.Writer, format byte, addr int64, b []byte) {
	fmt.Fprintf(w, "%07x", addr)
	switch format {
	case 'b', 'c':
		for i := 0; i < 16; i++ {
			if i >= len(b) {
				w.WriteString("    ")
				continue
			}
			c := b[i]
			if format == 'b' {
				fmt.Fprintf(w, " %03o", c)
				continue
			}
			switch {
			case c >= 0x20 && c < 0x7f:
				fmt.Fprintf(w, "   %c", c)
			case c == 0:
				w.WriteString("  \\0")
			case c == '\a':
				w.WriteString("  \\a")
			case c == '\b':
				w.WriteString("  \\b")
			case c == '\f':
				w.WriteString("  \\f")
			case c == '\n':
				w.WriteString("  \\n")
			case c == '\r':
				w.WriteString("  \\r")
			case c == '\t':
				w.WriteString("  \\t")
			case c == '\v':
				w.WriteString("  \\v")
			default:
				fmt.Fprintf(w, " %03o", c)
			}
		}
	default:
		for i := 0; i < 16; i += 2 {
			if i >= len(b) {
				if format == 'D' {
					w.WriteString("     ")
				} else {
					w.WriteString("        ")
				}
				continue
			}
			u := uint16(b[i])
			if i+1 < len(b) {
				u |= uint16(b[i+1]) << 8
			}
			switch format {
			case 'D':
				fmt.Fprintf(w, " %04x", u)
			case 'd':
				fmt.Fprintf(w, "   %05d", u)
			case 'o':
				fmt.Fprintf(w, "  %06o", u)
			case 'x':
				fmt.Fprintf(w, "    %04x", u)
			}
		}
	}
	w.WriteByte('\n')
}
