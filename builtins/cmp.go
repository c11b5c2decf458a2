package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "cmp", Summary: "compare two files byte by byte", Run: cmp})

const cmpSummary = `Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).`

const cmpEpilog = `SKIP values may be followed by the following multiplicative suffixes:
kB 1000, K 1024, MB 1,000,000, M 1,048,576,
GB 1,000,000,000, G 1,073,741,824, and so on for T, P, E, Z, Y.

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.`

// diffutilsUsage prints a command-line error the way GNU diffutils do:
// both lines carry the program name.
func diffutilsUsage(env *Env, msg string) int {
	name := env.Name()
	if msg != "" {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, msg)
	}
	fmt.Fprintf(env.Stderr, "%s: Try '%s --help' for more information.\n", name, name)
	return 2
}

// diffutilsFail reports a Flags.Parse error GNU diffutils style.
func diffutilsFail(env *Env, f *Flags, err error) int {
	if errors.Is(err, ErrHelp) {
		f.PrintHelp(env.Stdout)
		return 0
	}
	if msg, ok := usageMessage(err); ok {
		return diffutilsUsage(env, msg)
	}
	return diffutilsUsage(env, err.Error())
}

// posixLocale reports whether GNU's tools would take their locale (of
// messages, of times) for C or POSIX: unless the script set
// LC_ALL to another locale. Only LC_ALL counts: bash's tools, the
// reference, run under LC_ALL=C, which the category and LANG (llmsh's own
// LANG=C.UTF-8 among them) do not override, so cmp says "char" and diff
// -c dates a file as in C unless the script sets LC_ALL=C.UTF-8.
func posixLocale(env *Env) bool {
	v, set := envLookup(env.Environ, "LC_ALL")
	return !set || v == "" || v == "C" || v == "POSIX"
}

// byteLocale reports whether the script set its character locale to C
// or POSIX (LC_ALL, else LC_CTYPE, else LANG), where GNU's tools take
// each byte for a character; with none of them set it is llmsh's own
// UTF-8 (LANG=C.UTF-8), as the shell's ${#s} counts (expand.ByteLocale).
func byteLocale(env *Env) bool {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		for _, kv := range env.Environ {
			if k, v, ok := strings.Cut(kv, "="); ok && k == name && v != "" {
				return v == "C" || v == "POSIX"
			}
		}
	}
	return false
}

// parseSkip parses a byte count of -i, -n or a SKIP operand as GNU cmp
// (diffutils 3.8): gnu.ParseSize in base 0 (0x.. hex, 0.. octal) with the
// suffixes kKMGTPEZY and their B and iB forms, at most the largest int64.
func parseSkip(s string) (int64, bool) {
	v, e := gnu.ParseSize(s, 0, "kKMGTPEZY0")
	if e != gnu.SizeOK || v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}

// printableByte renders c as cmp -b does: printable ASCII as itself,
// others as ^X, ^?, M-x, M-^X.
func printableByte(c byte) string {
	var b []byte
	if c >= 32 && c < 127 {
		return string(c)
	}
	if c >= 128 {
		b = append(b, 'M', '-')
		c -= 128
	}
	switch {
	case c < 32:
		b = append(b, '^', c+64)
	case c == 127:
		b = append(b, '^', '?')
	default:
		b = append(b, c)
	}
	return string(b)
}

// cmpConfig is what cmp's command line asks for.
type cmpConfig struct {
	printBytes, verbose, quiet bool
	skip                       [2]int64
	limit                      int64 // -1: no limit
	names                      [2]string
}

func cmp(env *Env) int {
	c, status := cmpParse(env)
	if c == nil {
		return status
	}
	return c.run(env)
}

// cmpParse reads cmp's options and operands; on nil it returns the exit
// status.
func cmpParse(env *Env) (*cmpConfig, int) {
	c := &cmpConfig{limit: -1}
	f := NewFlags(env, cmpSummary, "[OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]")
	f.Epilog = cmpEpilog
	f.BoolVar(&c.printBytes, 'b', "print-bytes", "print differing bytes")
	var skipErr string
	f.Func('i', "ignore-initial", RequiredArg, "SKIP1[:SKIP2]", "skip first SKIP1 bytes of FILE1 and first SKIP2 bytes of FILE2", func(v string, _ bool) error {
		a, b, two := strings.Cut(v, ":")
		x, ok := parseSkip(a)
		y := x
		if ok && two {
			y, ok = parseSkip(b)
		}
		if !ok {
			if skipErr == "" {
				skipErr = fmt.Sprintf("invalid --ignore-initial value '%s'", v)
			}
			return nil
		}
		c.skip = [2]int64{x, y}
		return nil
	})
	f.BoolVar(&c.verbose, 'l', "verbose", "output byte numbers and differing byte values")
	f.Func('n', "bytes", RequiredArg, "LIMIT", "compare at most LIMIT bytes", func(v string, _ bool) error {
		n, ok := parseSkip(v)
		if !ok {
			if skipErr == "" {
				skipErr = fmt.Sprintf("invalid --bytes value '%s'", v)
			}
			return nil
		}
		c.limit = n
		return nil
	})
	f.BoolVar(&c.quiet, 's', "quiet", "suppress all normal output")
	f.Synonym("silent", "quiet")
	version := shortHelpVersion(f, 0, 'v')
	ops, err := f.Parse(env.Args[1:])
	if err != nil {
		return nil, diffutilsFail(env, f, err)
	}
	if *version {
		return nil, printVersion(env)
	}
	if skipErr != "" {
		return nil, diffutilsUsage(env, skipErr)
	}
	if c.verbose && c.quiet {
		return nil, diffutilsUsage(env, "options -l and -s are incompatible")
	}
	if len(ops) == 0 {
		return nil, diffutilsUsage(env, "missing operand after 'cmp'")
	}
	for i := 2; i < len(ops) && i < 4; i++ {
		n, ok := parseSkip(ops[i])
		if !ok {
			return nil, diffutilsUsage(env, fmt.Sprintf("invalid --ignore-initial value '%s'", ops[i]))
		}
		c.skip[i-2] = n
	}
	if len(ops) > 4 {
		return nil, diffutilsUsage(env, fmt.Sprintf("extra operand '%s'", ops[4]))
	}
	c.names = [2]string{ops[0], "-"}
	if len(ops) > 1 {
		c.names[1] = ops[1]
	}
	return c, 0
}

// run opens both files, skips the initial bytes and compares.
func (c *cmpConfig) run(env *Env) int {
	if c.sameFile(env) {
		return 0
	}
	var rs [2]*bufio.Reader
	var sizes [2]int64
	var dirErr [2]error // a directory opens in GNU's cmp; reading it fails
	for i, name := range c.names {
		r, err := env.Open(name)
		if err != nil && errors.Is(err, syscall.EISDIR) {
			dirErr[i] = err
			continue
		}
		if err != nil {
			env.PathError(name, err)
			return 2
		}
		defer r.Close()
		sizes[i] = -1
		if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
				sizes[i] = fi.Size()
			}
		}
		rs[i] = bufio.NewReaderSize(r, 64<<10)
	}
	if c.names[0] == "-" && c.names[1] == "-" {
		return 0
	}
	for i, err := range dirErr {
		if err != nil {
			env.PathError(c.names[i], err)
			return 2
		}
	}
	for i := range rs {
		if c.skip[i] > 0 {
			if _, err := io.CopyN(io.Discard, rs[i], c.skip[i]); err != nil && err != io.EOF {
				env.PathError(c.names[i], err)
				return 2
			}
		}
	}
	return c.compare(env, rs, c.offsetWidth(sizes))
}

// sameFile reports whether both operands name one file and are to be
// compared from the same offset: GNU cmp then says they are identical
// without reading them (`cmp dir dir`, `cmp f ./f` are status 0).
func (c *cmpConfig) sameFile(env *Env) bool {
	if c.skip[0] != c.skip[1] || c.names[0] == "-" || c.names[1] == "-" {
		return false
	}
	a, err := env.FS.Stat(env.Abs(c.names[0]))
	if err != nil {
		return false
	}
	b, err := env.FS.Stat(env.Abs(c.names[1]))
	return err == nil && SameFile(a, b)
}

// offsetWidth is the width of byte numbers in -l output: digits of the
// largest offset that can be printed.
func (c *cmpConfig) offsetWidth(sizes [2]int64) int {
	width := 1
	if !c.verbose {
		return width
	}
	maxOff := int64(math.MaxInt64)
	if c.limit >= 0 {
		maxOff = c.limit
	}
	for i := range sizes {
		if sizes[i] >= 0 {
			if left := max(sizes[i]-c.skip[i], 0); left < maxOff {
				maxOff = left
			}
		}
	}
	for maxOff /= 10; maxOff != 0; maxOff /= 10 {
		width++
	}
	return width
}

// compare reads both inputs byte by byte and reports the differences.
func (c *cmpConfig) compare(env *Env, rs [2]*bufio.Reader, width int) int {
	names := c.names
	out := bufio.NewWriter(env.Stdout)
	defer out.Flush()
	var pos int64 // bytes compared so far
	line := int64(1)
	atLineStart := true
	status := 0
	for {
		if pos&0xffff == 0 && env.Ctx.Err() != nil {
			return 2
		}
		if c.limit >= 0 && pos >= c.limit {
			return status
		}
		a, errA := rs[0].ReadByte()
		b, errB := rs[1].ReadByte()
		for i, e := range []error{errA, errB} {
			if e != nil && e != io.EOF {
				out.Flush()
				env.PathError(names[i], e)
				return 2
			}
		}
		if errA != nil || errB != nil {
			if errA != nil && errB != nil {
				return status
			}
			short := 0
			if errB != nil {
				short = 1
			}
			if !c.quiet {
				if env.Terminal {
					out.Flush() // glibc's stdout is line-buffered there
				}
				// Elsewhere GNU's stdout holds the lines (-l) it has not
				// written in 4 KiB blocks: the message comes before them
				// (`cmp -l a b > f 2>&1`), as Go's 4096-byte buffer does.
				c.reportEOF(env, names[short], pos, line, atLineStart)
			}
			return 1
		}
		pos++
		if a != b {
			switch {
			case c.quiet:
				return 1
			case c.verbose:
				if c.printBytes {
					fmt.Fprintf(out, "%*d %3o %-4s %3o %s\n", width, pos, a, printableByte(a), b, printableByte(b))
				} else {
					fmt.Fprintf(out, "%*d %3o %3o\n", width, pos, a, b)
				}
				status = 1
			default:
				unit := "byte"
				if posixLocale(env) && !c.printBytes {
					unit = "char"
				}
				if c.printBytes {
					fmt.Fprintf(out, "%s %s differ: byte %d, line %d is %3o %s %3o %s\n", names[0], names[1], pos, line, a, printableByte(a), b, printableByte(b))
				} else {
					fmt.Fprintf(out, "%s %s differ: %s %d, line %d\n", names[0], names[1], unit, pos, line)
				}
				if err := out.Flush(); err != nil && !IsBrokenPipe(err) {
					env.Errorf("write error: %s", ErrText(err))
					return 2
				}
				return 1
			}
		}
		atLineStart = a == '\n'
		if atLineStart {
			line++
		}
	}
}

// reportEOF says that name ended after pos bytes.
func (c *cmpConfig) reportEOF(env *Env, name string, pos, line int64, atLineStart bool) {
	switch {
	case pos == 0:
		fmt.Fprintf(env.Stderr, "cmp: EOF on %s which is empty\n", name)
	case c.verbose:
		fmt.Fprintf(env.Stderr, "cmp: EOF on %s after byte %d\n", name, pos)
	case atLineStart:
		fmt.Fprintf(env.Stderr, "cmp: EOF on %s after byte %d, line %d\n", name, pos, line-1)
	default:
		fmt.Fprintf(env.Stderr, "cmp: EOF on %s after byte %d, in line %d\n", name, pos, line)
	}
}
