package builtins

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "iconv", Summary: "convert text from one character encoding to another", Run: iconvCmd})

// iconvCharset is an encoding iconv knows: decode reads one character of
// p (n bytes; n == 0: p holds only the start of one, at the end of the
// input; r < 0: an illegal sequence), encode appends r or reports that
// the encoding cannot hold it.
type iconvCharset struct {
	name   string
	decode func(p []byte, st *iconvState) (r rune, n int)
	encode func(dst []byte, r rune, st *iconvState) ([]byte, bool)
	// readMark, for UTF-16 and UTF-32, reads the byte order mark at the
	// start of the input, if any, and says how long it is.
	readMark func(p []byte, st *iconvState) int
}

// iconvState is what a conversion remembers between characters: whether
// the byte order mark was read or written, and the order it chose.
type iconvState struct {
	started   bool
	bigEndian bool
}

// iconvNames maps the upper-cased names glibc accepts for an encoding to
// its canonical name.
var iconvNames = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"UTF-8": "UTF-8", "UTF8": "UTF-8",
		"UTF-16": "UTF-16", "UTF16": "UTF-16",
		"UTF-16LE": "UTF-16LE", "UTF16LE": "UTF-16LE",
		"UTF-16BE": "UTF-16BE", "UTF16BE": "UTF-16BE",
		"UTF-32": "UTF-32", "UTF32": "UTF-32",
		"UTF-32LE": "UTF-32LE", "UTF32LE": "UTF-32LE",
		"UTF-32BE": "UTF-32BE", "UTF32BE": "UTF-32BE",
		"ISO-8859-1": "ISO-8859-1", "ISO8859-1": "ISO-8859-1", "ISO_8859-1": "ISO-8859-1", "ISO88591": "ISO-8859-1",
		"LATIN1": "ISO-8859-1", "L1": "ISO-8859-1", "CP819": "ISO-8859-1", "IBM819": "ISO-8859-1",
		"ISO-IR-100": "ISO-8859-1", "CSISOLATIN1": "ISO-8859-1", "ISO_8859-1:1987": "ISO-8859-1",
		"ISO-8859-15": "ISO-8859-15", "ISO8859-15": "ISO-8859-15", "ISO_8859-15": "ISO-8859-15", "ISO885915": "ISO-8859-15",
		"LATIN-9": "ISO-8859-15", "LATIN9": "ISO-8859-15", "ISO-IR-203": "ISO-8859-15", "ISO_8859-15:1998": "ISO-8859-15",
		"ANSI_X3.4-1968": "ANSI_X3.4-1968", "ASCII": "ANSI_X3.4-1968", "US-ASCII": "ANSI_X3.4-1968", "US": "ANSI_X3.4-1968",
		"ISO646-US": "ANSI_X3.4-1968", "CP367": "ANSI_X3.4-1968", "IBM367": "ANSI_X3.4-1968", "CSASCII": "ANSI_X3.4-1968",
		"646": "ANSI_X3.4-1968", "ANSI_X3.4-1986": "ANSI_X3.4-1968", "ISO-IR-6": "ANSI_X3.4-1968", "ISO_646.IRV:1991": "ANSI_X3.4-1968",
		"CP1252": "CP1252", "WINDOWS-1252": "CP1252", "MS-ANSI": "CP1252",
	}
})

// cp1252High is CP1252's 0x80..0x9F (0: undefined).
var cp1252High = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// latin9Diff are the places where ISO-8859-15 differs from ISO-8859-1.
var latin9Diff = map[byte]rune{0xA4: 0x20AC, 0xA6: 0x0160, 0xA8: 0x0161, 0xB4: 0x017D, 0xB8: 0x017E, 0xBC: 0x0152, 0xBD: 0x0153, 0xBE: 0x0178}

// singleByte makes the charset of a one-byte encoding from its table of
// the bytes 0x80..0xFF (nil: ASCII, where they are illegal).
func singleByte(name string, high func(b byte) rune) iconvCharset {
	rev := map[rune]byte{}
	if high != nil {
		for b := 0x80; b <= 0xFF; b++ {
			if r := high(byte(b)); r != 0 {
				rev[r] = byte(b)
			}
		}
	}
	return iconvCharset{
		name: name,
		decode: func(p []byte, _ *iconvState) (rune, int) {
			if p[0] < 0x80 {
				return rune(p[0]), 1
			}
			if high == nil {
				return -1, 1
			}
			if r := high(p[0]); r != 0 {
				return r, 1
			}
			return -1, 1
		},
		encode: func(dst []byte, r rune, _ *iconvState) ([]byte, bool) {
			if r < 0x80 {
				return append(dst, byte(r)), true
			}
			if b, ok := rev[r]; ok {
				return append(dst, b), true
			}
			return dst, false
		},
	}
}

func utf8Charset() iconvCharset {
	return iconvCharset{
		name: "UTF-8",
		decode: func(p []byte, _ *iconvState) (rune, int) {
			if p[0] < utf8.RuneSelf {
				return rune(p[0]), 1
			}
			if !utf8.FullRune(p) {
				return 0, 0
			}
			r, n := utf8.DecodeRune(p)
			if r == utf8.RuneError && n == 1 {
				return -1, 1
			}
			return r, n
		},
		encode: func(dst []byte, r rune, _ *iconvState) ([]byte, bool) {
			return utf8.AppendRune(dst, r), true
		},
	}
}

// unitCharset is UTF-16 (size 2) or UTF-32 (size 4); bom: the unmarked
// form, which reads a byte order mark (little-endian without one, as glibc
// on this machine) and writes one before little-endian text.
func unitCharset(name string, size int, bigEndian, bom bool) iconvCharset {
	unit := func(p []byte, be bool) rune {
		var v uint32
		for i := 0; i < size; i++ {
			b := uint32(p[i])
			if be {
				v = v<<8 | b
			} else {
				v |= b << (8 * i)
			}
		}
		return rune(v)
	}
	put := func(dst []byte, v uint32, be bool) []byte {
		for i := 0; i < size; i++ {
			shift := 8 * i
			if be {
				shift = 8 * (size - 1 - i)
			}
			dst = append(dst, byte(v>>shift))
		}
		return dst
	}
	cs := iconvCharset{
		name: name,
		decode: func(p []byte, st *iconvState) (rune, int) {
			if len(p) < size {
				return 0, 0
			}
			be := bigEndian
			if bom {
				be = st.bigEndian
			}
			r := unit(p, be)
			if size == 4 {
				if r > utf8.MaxRune || r >= 0xD800 && r < 0xE000 || r < 0 {
					return -1, 4
				}
				return r, 4
			}
			switch {
			case r >= 0xDC00 && r < 0xE000:
				return -1, 2
			case r >= 0xD800 && r < 0xDC00:
				if len(p) < 4 {
					return 0, 0
				}
				lo := unit(p[2:], be)
				if lo < 0xDC00 || lo >= 0xE000 {
					return -1, 2
				}
				return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), 4
			}
			return r, 2
		},
		encode: func(dst []byte, r rune, st *iconvState) ([]byte, bool) {
			if r >= 0xD800 && r < 0xE000 {
				return dst, false
			}
			if bom && !st.started {
				st.started = true
				dst = put(dst, 0xFEFF, false)
			}
			if size == 2 && r >= 0x10000 {
				r -= 0x10000
				dst = put(dst, uint32(0xD800+r>>10), bigEndian)
				return put(dst, uint32(0xDC00+r&0x3FF), bigEndian), true
			}
			return put(dst, uint32(r), bigEndian), true
		},
	}
	if bom {
		cs.readMark = func(p []byte, st *iconvState) int {
			switch {
			case len(p) < size:
			case unit(p, false) == 0xFEFF:
				return size
			case unit(p, true) == 0xFEFF:
				st.bigEndian = true
				return size
			}
			return 0
		}
	}
	return cs
}

// iconvCharsetFor returns the encoding called name (canonical).
func iconvCharsetFor(name string) iconvCharset {
	switch name {
	case "UTF-8":
		return utf8Charset()
	case "UTF-16":
		return unitCharset(name, 2, false, true)
	case "UTF-16LE":
		return unitCharset(name, 2, false, false)
	case "UTF-16BE":
		return unitCharset(name, 2, true, false)
	case "UTF-32":
		return unitCharset(name, 4, false, true)
	case "UTF-32LE":
		return unitCharset(name, 4, false, false)
	case "UTF-32BE":
		return unitCharset(name, 4, true, false)
	case "ISO-8859-1":
		return singleByte(name, func(b byte) rune { return rune(b) })
	case "ISO-8859-15":
		return singleByte(name, func(b byte) rune {
			if r, ok := latin9Diff[b]; ok {
				return r
			}
			return rune(b)
		})
	case "CP1252":
		return singleByte(name, func(b byte) rune {
			if b < 0xA0 {
				return cp1252High[b-0x80]
			}
			return rune(b)
		})
	}
	return singleByte(name, nil)
}

// iconvSpec splits "NAME//TRANSLIT//IGNORE" into the encoding's canonical
// name (ok false: unknown) and the suffixes.
func iconvSpec(s string) (name string, translit, ignore, ok bool) {
	parts := strings.Split(s, "//")
	base := strings.ToUpper(parts[0])
	if base == "" {
		base = "ANSI_X3.4-1968" // the C locale's charset
	}
	for _, p := range parts[1:] {
		for _, q := range strings.Split(strings.ToUpper(p), ",") {
			switch q {
			case "TRANSLIT":
				translit = true
			case "IGNORE":
				ignore = true
			}
		}
	}
	name, ok = iconvNames()[base]
	return name, translit, ignore, ok
}

//go:embed iconv_translit.txt
var iconvTranslitText string

//go:embed iconv_translit_utf8.txt
var iconvTranslitUTF8Text string

// iconvTranslit is glibc's C locale transliteration table (see
// testdata/gen_iconv_translit.py), read on first use.
var iconvTranslit = sync.OnceValue(func() map[rune]string { return parseTranslit(iconvTranslitText, 1800) })

// iconvTranslitUTF8 is glibc's table in the C.UTF-8 locale, llmsh's own
// (its translit_combining drops accents: é is e there, ? in C).
var iconvTranslitUTF8 = sync.OnceValue(func() map[rune]string { return parseTranslit(iconvTranslitUTF8Text, 4500) })

// parseTranslit reads a table of gen_iconv_translit.py: "HEX<TAB>COUNT<TAB>
// REPLACEMENT" lines, a run of COUNT code points whose replacements are
// consecutive characters from REPLACEMENT's.
func parseTranslit(text string, size int) map[rune]string {
	m := make(map[rune]string, size)
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		f := strings.SplitN(line, "\t", 3)
		start, _ := strconv.ParseUint(f[0], 16, 32)
		n, _ := strconv.Atoi(f[1])
		if n == 1 {
			m[rune(start)] = f[2]
			continue
		}
		first, _ := utf8.DecodeRuneInString(f[2])
		for i := 0; i < n; i++ {
			m[rune(start)+rune(i)] = string(first + rune(i))
		}
	}
	return m
}

// iconvCmd is glibc 2.36's iconv: the files (standard input when none)
// are converted and written to standard output or -o's file. It stops at
// the first file it cannot convert.
func iconvCmd(env *Env) int {
	f := NewFlags(env, "Convert encoding of given files from one encoding to another.", "[OPTION...] [FILE...]")
	from, _ := f.String('f', "from-code", "NAME", "encoding of original text")
	to, _ := f.String('t', "to-code", "NAME", "encoding for output")
	list := f.Bool('l', "list", "list all known coded character sets")
	omit := f.Bool('c', "", "omit invalid characters from output")
	output, outSet := f.String('o', "output", "FILE", "output file")
	f.Bool('s', "silent", "suppress warnings")
	verbose := f.Bool(0, "verbose", "print progress information")
	f.Func('?', "", NoArg, "", "", func(string, bool) error { return ErrHelp })
	f.HelpShort = '?'
	version := f.Bool('V', "", "")
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		if msg, ok := usageMessage(err); ok {
			fmt.Fprintf(env.Stderr, "iconv: %s\nTry `iconv --help' or `iconv --usage' for more information.\n", msg)
			return 64
		}
		return f.Fail(err, 64)
	}
	if *version {
		return printVersion(env)
	}
	w := stdoutWriter(env)
	if *list {
		names := []string{"ANSI_X3.4-1968", "CP1252", "ISO-8859-1", "ISO-8859-15", "UTF-8", "UTF-16", "UTF-16BE",
			"UTF-16LE", "UTF-32", "UTF-32BE", "UTF-32LE"}
		for _, n := range names {
			fmt.Fprintf(w, "%s//\n", n)
		}
		return finishOutput(env, w, 0)
	}
	fromName, _, _, okFrom := iconvSpec(*from)
	toName, translit, ignore, okTo := iconvSpec(*to)
	if !okFrom || !okTo {
		// glibc names ENOENT when either name has a suffix (it then
		// looks for the charset's module), nothing otherwise.
		if strings.Contains(*from, "//") || strings.Contains(*to, "//") {
			env.Errorf("failed to start conversion processing: %s", ErrText(syscall.ENOENT))
		} else {
			env.Errorf("failed to start conversion processing")
		}
		return 1
	}
	conv := &iconvConv{ctx: env.Ctx, src: iconvCharsetFor(fromName), dst: iconvCharsetFor(toName),
		skip: ignore || *omit, omit: *omit}
	if translit {
		// glibc's table is the locale's: the C locale's when the script
		// chose C or POSIX, else llmsh's C.UTF-8's.
		conv.translit = iconvTranslitUTF8
		if byteLocale(env) {
			conv.translit = iconvTranslit
		}
	}
	if len(args) == 0 {
		args = []string{"-"}
	}
	var out []byte
	status := 0
	for _, name := range args {
		if *verbose {
			fmt.Fprintf(env.Stderr, "%s:\n", name)
		}
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("cannot open input file `%s': %s", name, ErrText(err))
			status = 1
			break
		}
		data, err := readHeld(env, r)
		r.Close()
		if err != nil {
			if st, stop := stopError(env, err); stop {
				return st
			}
			env.Errorf("error while reading the input: %s", ErrText(err))
			status = 1
			break
		}
		var msg string
		out, msg = conv.run(out, data)
		if conv.cancelled {
			return writeFailed(env, gnu.ErrCancelled)
		}
		if !*outSet {
			if _, err := w.Write(out); err != nil {
				return writeFailed(env, err)
			}
			out = out[:0]
		}
		if msg != "" {
			// glibc's iconv writes what it converted before it complains.
			if err := w.Flush(); err != nil {
				return finishOutput(env, w, 1)
			}
			env.Errorf("%s", msg)
			status = 1
			break
		}
	}
	if *outSet {
		if err := env.WriteFile(*output, out); err != nil {
			env.Errorf("cannot open output file: %s", ErrText(err))
			return 1
		}
	}
	return finishOutput(env, w, status)
}

// iconvConv is one conversion, kept across the input files as glibc
// keeps its conversion descriptor.
type iconvConv struct {
	// ctx is the run's: a conversion of gigabytes stops when it ends
	// (a limit), cancelled then saying so.
	ctx                context.Context
	cancelled          bool
	src, dst           iconvCharset
	srcState, dstState iconvState
	skip               bool // //IGNORE or -c: drop what cannot be converted
	omit               bool // -c: and do not fail for it
	// translit is the locale's table for //TRANSLIT, nil without it.
	translit func() map[rune]string
}

// run converts data, appending to out; msg is glibc's complaint, if any.
func (c *iconvConv) run(out, data []byte) ([]byte, string) {
	skipped := false
	i := 0
	if c.src.readMark != nil && !c.srcState.started && len(data) > 0 {
		c.srcState.started = true
		i = c.src.readMark(data, &c.srcState)
	}
	for check := 0; i < len(data); check++ {
		if check&0xffff == 0 && c.ctx.Err() != nil {
			c.cancelled = true
			return out, ""
		}
		r, n := c.src.decode(data[i:], &c.srcState)
		switch {
		case n == 0:
			return out, "incomplete character or shift sequence at end of buffer"
		case r < 0:
			if !c.skip {
				return out, fmt.Sprintf("illegal input sequence at position %d", i)
			}
			skipped = true
			i += n
			continue
		}
		var ok bool
		out, ok = c.dst.encode(out, r, &c.dstState)
		if !ok {
			if c.translit != nil {
				if s, found := c.translit()[r]; found {
					out = c.encodeString(out, s)
				} else {
					out = c.encodeString(out, "?")
				}
			} else if c.skip {
				skipped = true
			} else {
				return out, fmt.Sprintf("illegal input sequence at position %d", i)
			}
		}
		i += n
	}
	if skipped && !c.omit {
		return out, fmt.Sprintf("illegal input sequence at position %d", len(data))
	}
	return out, ""
}

func (c *iconvConv) encodeString(out []byte, s string) []byte {
	for _, r := range s {
		out, _ = c.dst.encode(out, r, &c.dstState)
	}
	return out
}
