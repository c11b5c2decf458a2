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
)

func init() {
	Register(Builtin{Name: "hexdump", Summary: "display file contents in hexadecimal", Run: hexdump})
	Register(Builtin{Name: "hd", Summary: "display file contents in canonical hex+ASCII (hexdump -C)", Run: hexdump})
}

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

func hexdump(env *Env) int {
	f := NewFlags(env, "Display file contents in hexadecimal, decimal, octal, or ascii.", "[options] <file>...")
	canonical := f.Bool('C', "canonical", "canonical hex+ASCII display")
	verbose := f.Bool('v', "no-squeezing", "output identical lines")
	var length int64 = -1
	var skip int64
	f.Func('n', "length", RequiredArg, "length", "interpret only length bytes of input", func(v string, _ bool) error {
		n, err := hexdumpSize(v)
		if err != nil {
			return fmt.Errorf("failed to parse length: '%s': %s", v, err)
		}
		length = n
		return nil
	})
	f.Func('s', "skip", RequiredArg, "offset", "skip offset bytes from the beginning", func(v string, _ bool) error {
		n, err := hexdumpSize(v)
		if err != nil {
			return fmt.Errorf("failed to parse offset: '%s': %s", v, err)
		}
		skip = n
		return nil
	})
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if env.Name() == "hd" {
		*canonical = true
	}

	// The operands are read as one stream; a file that cannot be opened is
	// reported when it is reached.
	status := 0
	opened := 0
	next := 0
	var cur io.ReadCloser
	if len(files) == 0 {
		cur = nopReadCloser{env.Stdin}
		opened = 1
		next = 1
		files = []string{"-"}
	}
	read := func(p []byte) (int, error) {
		for {
			if env.Ctx.Err() != nil {
				return 0, errSkCancelled
			}
			if cur == nil {
				if next >= len(files) {
					return 0, io.EOF
				}
				name := files[next]
				next++
				fh, err := env.Open(name)
				if err != nil {
					env.PathError(name, err)
					status = 1
					continue
				}
				opened++
				cur = fh
			}
			n, err := cur.Read(p)
			if err == io.EOF || (err == nil && n == 0) {
				cur.Close()
				cur = nil
				if n > 0 {
					return n, nil
				}
				continue
			}
			if err != nil {
				env.PathError(files[next-1], err)
				cur.Close()
				cur = nil
				status = 1
				if n > 0 {
					return n, nil
				}
				continue
			}
			return n, nil
		}
	}
	br := bufio.NewReaderSize(readerFunc(read), 64<<10)
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	defer func() {
		if cur != nil {
			cur.Close()
		}
	}()

	addr := int64(0)
	if skip > 0 {
		n, err := io.CopyN(io.Discard, br, skip)
		addr = n
		if err != nil && err != io.EOF {
			if errors.Is(err, errSkCancelled) {
				return 1
			}
		}
	}
	var in io.Reader = br
	if length >= 0 {
		in = io.LimitReader(br, length)
	}
	var block, prev [16]byte
	havePrev, starred := false, false
	printed := false
	for {
		n, err := io.ReadFull(in, block[:])
		if n == 0 {
			if err != nil && errors.Is(err, errSkCancelled) {
				return 1
			}
			break
		}
		printed = true
		if n == 16 && havePrev && !*verbose && block == prev {
			if !starred {
				w.WriteString("*\n")
				starred = true
			}
		} else {
			starred = false
			if *canonical {
				hexdumpCanonical(w, addr, block[:n])
			} else {
				hexdumpDefault(w, addr, block[:n])
			}
		}
		prev, havePrev = block, n == 16
		addr += int64(n)
		if err != nil {
			if errors.Is(err, errSkCancelled) {
				return 1
			}
			break
		}
		if _, werr := w.Write(nil); werr != nil {
			break
		}
	}
	if printed || addr > 0 {
		if *canonical {
			fmt.Fprintf(w, "%08x\n", addr)
		} else {
			fmt.Fprintf(w, "%07x\n", addr)
		}
	}
	if opened == 0 && status != 0 {
		env.Errorf("all input file arguments failed")
		w.Flush()
		return 1
	}
	return skFlush(env, w, status)
}

// readerFunc adapts a function to io.Reader.
type readerFunc func(p []byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

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

func hexdumpDefault(w *bufio.Writer, addr int64, b []byte) {
	fmt.Fprintf(w, "%07x", addr)
	for i := 0; i < 16; i += 2 {
		switch {
		case i+1 < len(b):
			fmt.Fprintf(w, " %04x", uint16(b[i])|uint16(b[i+1])<<8)
		case i < len(b):
			fmt.Fprintf(w, " %04x", uint16(b[i]))
		default:
			w.WriteString("     ")
		}
	}
	w.WriteByte('\n')
}
