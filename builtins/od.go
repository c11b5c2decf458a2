package builtins

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "od", Summary: "dump files in octal and other formats", Run: od})

// odSpec is one output format (-t TYPE or a traditional option), as GNU
// od's struct tspec.
type odSpec struct {
	kind  byte // d o u x f a c
	size  int  // bytes per item
	width int  // field width, excluding the leading space
	pad   int  // total padding divided among the fields of a line
	z     bool // printable characters at the end of the line
}

// Field widths by item size, from GNU od.
var (
	odOctDigits  = [...]int{0, 3, 6, 8, 11, 14, 16, 19, 22}
	odSDecDigits = [...]int{1, 4, 6, 8, 11, 13, 16, 18, 20}
	odUDecDigits = [...]int{0, 3, 5, 8, 10, 13, 15, 17, 20}
	odHexDigits  = [...]int{0, 2, 4, 6, 8, 10, 12, 14, 16}
)

var odCharNames = [...]string{
	"nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel",
	"bs", "ht", "nl", "vt", "ff", "cr", "so", "si",
	"dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb",
	"can", "em", "sub", "esc", "fs", "gs", "rs", "us",
	"sp",
}

// odCEscapes are the bytes -t c shows as C's backslash escapes.
var odCEscapes = [256]string{0: `\0`, '\a': `\a`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`, '\v': `\v`}

// odParseType decodes a -t TYPE string (several specs may follow each
// other: "x1z" "d4u2").
func odParseType(env *Env, s string) ([]odSpec, error) {
	orig := s
	var out []odSpec
	for s != "" {
		var sp odSpec
		c := s[0]
		s = s[1:]
		switch c {
		case 'd', 'o', 'u', 'x':
			size, rest, err := odTypeSize(env, orig, s, 4, "CSIL", []int{1, 2, 4, 8}, "integral")
			if err != nil {
				return nil, err
			}
			s = rest
			sp = odSpec{kind: c, size: size}
			switch c {
			case 'd':
				sp.width = odSDecDigits[size]
			case 'o':
				sp.width = odOctDigits[size]
			case 'u':
				sp.width = odUDecDigits[size]
			case 'x':
				sp.width = odHexDigits[size]
			}
		case 'f':
			size, rest, err := odTypeSize(env, orig, s, 8, "FDL", []int{4, 8, 16}, "floating point")
			if err != nil {
				return nil, err
			}
			s = rest
			sp = odSpec{kind: 'f', size: size}
			switch size {
			case 4:
				sp.width = 15
			case 8:
				sp.width = 24
			default:
				sp.width = 29
			}
		case 'a', 'c':
			sp = odSpec{kind: c, size: 1, width: 3}
		default:
			return nil, fmt.Errorf("invalid character '%c' in type string %s", c, env.Quote(orig))
		}
		if s != "" && s[0] == 'z' {
			sp.z = true
			s = s[1:]
		}
		out = append(out, sp)
	}
	return out, nil
}

// odTypeSize reads the size that may follow a -t type letter in s: one
// of letters, which stand for sizes[i], or a decimal byte count that must
// be one of sizes (GNU: "this system doesn't provide a N-byte KIND type").
// Without either the size is def and s is returned whole.
func odTypeSize(env *Env, orig, s string, def int, letters string, sizes []int, kind string) (int, string, error) {
	if s == "" {
		return def, s, nil
	}
	if i := strings.IndexByte(letters, s[0]); i >= 0 {
		return sizes[i], s[1:], nil
	}
	n, rest := odSmallInt(s)
	if rest == s {
		return def, s, nil
	}
	if !slices.Contains(sizes, int(n)) {
		return 0, s, fmt.Errorf("invalid type string %s;\nthis system doesn't provide a %d-byte %s type", env.Quote(orig), n, kind)
	}
	return int(n), rest, nil
}

// odSmallInt reads leading decimal digits as a size (saturating).
func odSmallInt(s string) (n uint64, rest string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		n = min(n*10+uint64(s[i]-'0'), math.MaxInt64)
		i++
	}
	return n, s[i:]
}

// odParseSize is gnu.ParseSize with od's messages (gnulib's xstrtol_fatal):
// the error names the option as the user spelt it (-j or --skip-bytes)
// and the argument between plain quotes, as gnulib's xstrtol_fatal.
func odParseSize(arg, opt string, base int, suffixes string) (uint64, error) {
	v, e := gnu.ParseSize(arg, base, suffixes)
	switch {
	case e&gnu.SizeInvalid != 0:
		return 0, fmt.Errorf("invalid %s argument '%s'", opt, arg)
	case e&gnu.SizeInvalidSuffix != 0:
		return 0, fmt.Errorf("invalid suffix in %s argument '%s'", opt, arg)
	case e == gnu.SizeOverflow:
		return 0, fmt.Errorf("%s argument '%s' too large", opt, arg)
	}
	return v, nil
}

// odParseOldOffset parses a traditional [+]OFFSET[.][b] operand.
func odParseOldOffset(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	s = strings.TrimPrefix(s, "+")
	base := 8
	if strings.Contains(s, ".") {
		base = 10
	} else if len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		base = 16
	}
	v, err := odParseSize(s, "", base, "Bb")
	return v, err == nil
}

// odInput is the concatenation of the operands, opened one at a time as
// GNU od does, with open and read errors reported as they happen.
type odInput struct {
	env    *Env
	names  []string
	cur    io.ReadCloser
	name   string // for messages
	failed bool
	readIn bool // standard input was opened
	// flush, once the dump has begun, writes out what is buffered
	// before a message: GNU's error() flushes stdout first, so the
	// lines of the operands before a bad one come before its message.
	flush func()
}

// fail reports err about name after flushing the dump's output.
func (in *odInput) fail(name string, err error) {
	if in.flush != nil {
		in.flush()
	}
	in.env.PathError(name, err)
	in.failed = true
}

// next opens the following operand that can be opened; it leaves cur nil
// at the end of the list.
func (in *odInput) next() {
	if in.cur != nil {
		in.cur.Close()
		in.cur = nil
	}
	for len(in.names) > 0 {
		name := in.names[0]
		in.names = in.names[1:]
		r, err := in.env.Open(name)
		if errors.Is(err, syscall.EISDIR) {
			// GNU od opens a directory and fails on reading it: the
			// error comes at read time and the dump goes on.
			r, err = odErrReader{err}, nil
		}
		if err != nil {
			in.fail(name, err)
			continue
		}
		in.cur, in.name = r, name
		if name == "-" {
			in.name, in.readIn = "standard input", true
		}
		return
	}
}

// devNull reports whether the operand being read is /dev/null (by its
// name, or standard input redirected from it): GNU od's lseek of that
// character device succeeds, so any skip is done (`od -j 5 </dev/null`
// prints 0000005, status 0, where an empty file or pipe fails).
func (in *odInput) devNull() bool {
	if in.name == "/dev/null" {
		return true
	}
	if !in.readIn {
		return false
	}
	st, ok := in.env.Stdin.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return false
	}
	fi, err := st.Stat()
	return err == nil && fi.Mode()&fs.ModeCharDevice != 0 && fi.Name() == "null"
}

// odErrReader is an operand that fails on its first read.
type odErrReader struct{ err error }

func (r odErrReader) Read([]byte) (int, error) { return 0, r.err }
func (r odErrReader) Close() error             { return nil }

// Read reads from the current operand, moving on to the next at its end.
func (in *odInput) Read(p []byte) (int, error) {
	for in.cur != nil {
		n, err := in.cur.Read(p)
		if n > 0 {
			return n, nil
		}
		if err == nil {
			continue
		}
		if err != io.EOF {
			if IsBrokenPipe(err) {
				return 0, err
			}
			in.fail(in.name, err)
		}
		in.next()
	}
	return 0, io.EOF
}

// skip skips n bytes of the combined input, seeking where the operand
// is a regular file; it reports whether the input was long enough.
func (in *odInput) skip(n uint64) (bool, error) {
	buf := make([]byte, 32<<10)
	for n > 0 && in.cur != nil {
		if err := in.env.Ctx.Err(); err != nil {
			return false, gnu.ErrCancelled
		}
		if _, ok := in.cur.(odErrReader); ok || in.devNull() {
			// GNU seeks the directory stream, or /dev/null, which
			// succeeds and uses up the whole skip.
			return true, nil
		}
		if f, ok := in.cur.(File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				size := uint64(max(fi.Size(), 0))
				if size < n {
					n -= size
					in.next()
					continue
				}
				if _, err := f.Seek(int64(n), io.SeekCurrent); err == nil {
					return true, nil
				}
			}
		}
		k, err := in.cur.Read(buf[:min(uint64(len(buf)), n)])
		n -= uint64(k)
		if err == io.EOF || (k == 0 && err == nil) {
			if err == io.EOF {
				in.next()
			}
			continue
		}
		if err != nil {
			if IsBrokenPipe(err) {
				return false, err
			}
			in.env.PathError(in.name, err)
			in.failed = true
			in.next()
		}
	}
	return n == 0, nil
}

// odDumper formats blocks.
type odDumper struct {
	specs    []odSpec
	perBlock int
	addrBase int // 8, 10, 16, or 0 for none
	addrPad  int
	label    bool   // traditional pseudo-address in parentheses
	labelOff uint64 // pseudo address minus offset
	paren    bool   // only the pseudo-address (-A n with a label)
	swap     bool
	buf      []byte
}

func (d *odDumper) addrStd(a uint64, c byte) {
	var s string
	switch d.addrBase {
	case 8:
		s = strconv.FormatUint(a, 8)
	case 10:
		s = strconv.FormatUint(a, 10)
	case 16:
		s = strconv.FormatUint(a, 16)
	}
	for i := len(s); i < d.addrPad; i++ {
		d.buf = append(d.buf, '0')
	}
	d.buf = append(d.buf, s...)
	if c != 0 {
		d.buf = append(d.buf, c)
	}
}

// address writes the offset a as GNU's format_address does, followed by c
// (0 for nothing).
func (d *odDumper) address(a uint64, c byte) {
	switch {
	case d.paren:
		// GNU's format_address_paren prints the offset itself.
		d.buf = append(d.buf, '(')
		d.addrStd(a, ')')
		if c != 0 {
			d.buf = append(d.buf, c)
		}
	case d.label:
		d.addrStd(a, ' ')
		d.buf = append(d.buf, '(')
		d.addrStd(a+d.labelOff, ')')
		if c != 0 {
			d.buf = append(d.buf, c)
		}
	case d.addrBase == 0:
	default:
		d.addrStd(a, c)
	}
}

func (d *odDumper) padTo(width int, s []byte) {
	for i := len(s); i < width; i++ {
		d.buf = append(d.buf, ' ')
	}
	d.buf = append(d.buf, s...)
}

// item formats the item at p with spec sp into tmp.
func (d *odDumper) item(sp *odSpec, p []byte, tmp []byte) []byte {
	tmp = tmp[:0]
	if sp.kind == 'a' {
		c := p[0] & 0x7f
		switch {
		case c == 127:
			return append(tmp, "del"...)
		case c <= ' ':
			return append(tmp, odCharNames[c]...)
		}
		return append(tmp, c)
	}
	if sp.kind == 'c' {
		c := p[0]
		if e := odCEscapes[c]; e != "" {
			return append(tmp, e...)
		}
		if c >= ' ' && c < 0x7f {
			return append(tmp, c)
		}
		return append(tmp, '0'+c>>6, '0'+c>>3&7, '0'+c&7)
	}
	var raw [16]byte
	copy(raw[:], p[:sp.size])
	if d.swap {
		for i, j := 0, sp.size-1; i < j; i, j = i+1, j-1 {
			raw[i], raw[j] = raw[j], raw[i]
		}
	}
	if sp.kind == 'f' {
		switch sp.size {
		case 4:
			return odFormatFloat(tmp, float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[:]))), 32)
		case 8:
			return odFormatFloat(tmp, math.Float64frombits(binary.LittleEndian.Uint64(raw[:])), 64)
		default:
			return odFormatLongDouble(tmp, raw[:10])
		}
	}
	var v uint64
	switch sp.size {
	case 1:
		v = uint64(raw[0])
	case 2:
		v = uint64(binary.LittleEndian.Uint16(raw[:]))
	case 4:
		v = uint64(binary.LittleEndian.Uint32(raw[:]))
	default:
		v = binary.LittleEndian.Uint64(raw[:])
	}
	switch sp.kind {
	case 'd':
		shift := 64 - 8*uint(sp.size)
		return strconv.AppendInt(tmp, int64(v<<shift)>>shift, 10)
	case 'u':
		return strconv.AppendUint(tmp, v, 10)
	case 'o', 'x':
		base, digits := 8, odOctDigits[sp.size]
		if sp.kind == 'x' {
			base, digits = 16, odHexDigits[sp.size]
		}
		s := strconv.FormatUint(v, base)
		for i := len(s); i < digits; i++ {
			tmp = append(tmp, '0')
		}
		return append(tmp, s...)
	}
	return tmp
}

// odFormatFloat is gnulib's ftoastr/dtoastr: the shortest %.*g (from
// FLT_DIG or DBL_DIG digits up) that reads back as the same value.
func odFormatFloat(tmp []byte, x float64, bits int) []byte {
	switch {
	case math.IsNaN(x):
		if math.Signbit(x) {
			return append(tmp, "-nan"...)
		}
		return append(tmp, "nan"...)
	case math.IsInf(x, 1):
		return append(tmp, "inf"...)
	case math.IsInf(x, -1):
		return append(tmp, "-inf"...)
	}
	// FLT_DIG and FLT_MIN, or DBL_DIG and DBL_MIN; the digits needed to
	// read any value back are at most 9 or 17.
	prec, maxPrec, minNormal := 6, 9, 1.1754943508222875e-38
	if bits == 64 {
		prec, maxPrec, minNormal = 15, 17, 2.2250738585072014e-308
	}
	if math.Abs(x) < minNormal {
		prec = 1
	}
	for ; ; prec++ {
		s := strconv.FormatFloat(x, 'g', prec, 64)
		if prec >= maxPrec {
			return append(tmp, s...)
		}
		y, err := strconv.ParseFloat(s, bits)
		if err == nil && y == x {
			return append(tmp, s...)
		}
	}
}

// odFormatLongDouble formats an x87 80-bit extended value (the long double
// of amd64 and i386) as ldtoastr does: %.*Lg from LDBL_DIG (18) digits up
// until it reads back exactly.
func odFormatLongDouble(tmp []byte, raw []byte) []byte {
	mant := binary.LittleEndian.Uint64(raw[:8])
	se := binary.LittleEndian.Uint16(raw[8:10])
	neg := se&0x8000 != 0
	exp := int(se & 0x7fff)
	sign := ""
	if neg {
		sign = "-"
	}
	switch {
	case exp == 0x7fff:
		if mant<<1 == 0 && mant>>63 == 1 {
			return append(tmp, sign+"inf"...)
		}
		return append(tmp, sign+"nan"...)
	case exp != 0 && mant>>63 == 0:
		// An unnormal: glibc prints it as a NaN.
		return append(tmp, sign+"nan"...)
	}
	// A pseudo-denormal (integer bit set on a denormal): glibc's printf
	// ignores the integer bit, but the x87 compare does not, so the
	// read-back test never succeeds and all 21 digits are printed.
	pseudo := exp == 0 && mant>>63 == 1
	if exp == 0 {
		mant &^= 1 << 63
	}
	if mant == 0 {
		return append(tmp, sign+"0"...)
	}
	e := exp - 16383 - 63
	if exp == 0 {
		e = 1 - 16383 - 63
	}
	x := new(big.Float).SetPrec(64).SetMantExp(new(big.Float).SetUint64(mant), e)
	if neg {
		x.Neg(x)
	}
	// The precision of the value's own grid: 64 bits for normal numbers,
	// fewer for denormals.
	gridPrec := uint(64)
	if exp == 0 {
		gridPrec = uint(64 - odLeadingZeros(mant))
	}
	prec := 18
	if exp == 0 {
		prec = 1
	}
	for ; ; prec++ {
		s := odCFormatG(x, prec)
		if prec >= 21 {
			return append(tmp, s...)
		}
		if pseudo {
			continue
		}
		y, _, err := big.ParseFloat(s, 10, gridPrec, big.ToNearestEven)
		if err == nil && y.Cmp(x) == 0 {
			return append(tmp, s...)
		}
	}
}

func odLeadingZeros(v uint64) int {
	n := 0
	for v&(1<<63) == 0 {
		v <<= 1
		n++
	}
	return n
}

// odCFormatG formats x like C's %.{prec}g: %e style when the decimal
// exponent is below -4 or at least prec, trailing zeros removed.
func odCFormatG(x *big.Float, prec int) string {
	e := x.Text('e', prec-1) // d.ddde±XX
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	if exp < -4 || exp >= prec {
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		es := strconv.Itoa(exp)
		if len(es) < 2 {
			es = "0" + es
		}
		return mant + "e" + sign + es
	}
	f := x.Text('f', max(prec-1-exp, 0))
	if strings.Contains(f, ".") {
		f = strings.TrimRight(strings.TrimRight(f, "0"), ".")
	}
	return f
}

// block writes the lines for one block of n bytes (data is padded with
// zeros to a multiple of every item size).
func (d *odDumper) block(offset uint64, data []byte, n int) {
	var tmp [64]byte
	for i := range d.specs {
		sp := &d.specs[i]
		fields := d.perBlock / sp.size
		blank := (d.perBlock - n) / sp.size
		if i == 0 {
			d.address(offset, 0)
		} else {
			for range d.addrWidth() {
				d.buf = append(d.buf, ' ')
			}
		}
		padRemaining := sp.pad
		p := data
		for f := fields; f > blank; f-- {
			next := sp.pad * (f - 1) / fields
			s := d.item(sp, p, tmp[:0])
			d.padTo(padRemaining-next+sp.width, s)
			p = p[sp.size:]
			padRemaining = next
		}
		if sp.z {
			for range blank*sp.width + sp.pad*blank/fields {
				d.buf = append(d.buf, ' ')
			}
			d.buf = append(d.buf, "  >"...)
			for _, c := range data[:n] {
				if c < ' ' || c >= 0x7f {
					c = '.'
				}
				d.buf = append(d.buf, c)
			}
			d.buf = append(d.buf, '<')
		}
		d.buf = append(d.buf, '\n')
	}
}

// addrWidth is GNU's address_pad_len, the indent of continuation lines.
func (d *odDumper) addrWidth() int {
	if d.addrBase == 0 && !d.paren {
		return 0
	}
	return d.addrPad
}

// odEpilog ends od's --help.
const odEpilog = `Traditional format specifications may be intermixed; they accumulate:
  -a   same as -t a,  select named characters, ignoring high-order bit
  -b   same as -t o1, select octal bytes
  -c   same as -t c,  select printable characters or backslash escapes
  -d   same as -t u2, select unsigned decimal 2-byte units
  -f   same as -t fF, select floats
  -i   same as -t dI, select decimal ints
  -l   same as -t dL, select decimal longs
  -o   same as -t o2, select octal 2-byte units
  -s   same as -t d2, select decimal 2-byte units
  -x   same as -t x2, select hexadecimal 2-byte units

TYPE is made up of one or more of these specifications:
  a          named character, ignoring high-order bit
  c          printable character or backslash escape
  d[SIZE]    signed decimal, SIZE bytes per integer
  f[SIZE]    floating point, SIZE bytes per float
  o[SIZE]    octal, SIZE bytes per integer
  u[SIZE]    unsigned decimal, SIZE bytes per integer
  x[SIZE]    hexadecimal, SIZE bytes per integer

SIZE is a number.  For TYPE in [doux], SIZE may also be C for
sizeof(char), S for sizeof(short), I for sizeof(int) or L for
sizeof(long).  If TYPE is f, SIZE may also be F for sizeof(float), D
for sizeof(double) or L for sizeof(long double).

Adding a z suffix to any type displays printable characters at the end of
each output line.

BYTES is hex with 0x or 0X prefix, and may have a multiplier suffix:
  b    512
  KB   1000
  K    1024
  MB   1000*1000
  M    1024*1024
and so on for G, T, P, E, Z, Y, R, Q.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.`

// odConfig is what od's options and operands select.
type odConfig struct {
	env                      *Env // for its quoting in messages
	specs                    []odSpec
	modern, traditional      bool // an option only GNU's od has; --traditional
	addrBase, addrPad        int
	skipBytes, limit         uint64
	limited, noDup, strMode  bool
	strMin                   uint64
	width                    int
	widthSet, swap, typeFail bool
	labelStart               uint64 // --traditional's LABEL
	haveLabel                bool
}

// odMult is the suffixes of od's sizes.
const odMult = "bEGKkMmPQRTYZ0"

func od(env *Env) int {
	c := &odConfig{env: env, addrBase: 8, addrPad: 7, strMin: 3}
	f := c.flags(env)
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if c.typeFail {
		return 1
	}
	if c.strMode && len(c.specs) > 0 {
		env.Errorf("no type may be specified when dumping strings")
		return 1
	}
	if !c.modern || c.traditional {
		files = c.offsetOperands(files)
		if c.traditional && len(files) > 1 {
			fmt.Fprintf(env.Stderr, "%s: extra operand %s\n%s: compatibility mode supports at most one file\nTry '%s --help' for more information.\n", env.Name(), env.Quote(files[1]), env.Name(), env.Name())
			return 1
		}
	}
	return c.run(env, files)
}

// flags is od's option table.
func (c *odConfig) flags(env *Env) *Flags {
	f := NewFlags(env, "Write an unambiguous representation, octal bytes by default,\nof FILE to standard output.  With more than one FILE argument,\nconcatenate them in the listed order to form the input.\n\nWith no FILE, or when FILE is -, read standard input.",
		"[OPTION]... [FILE]...", "[-abcdfilosx]... [FILE] [[+]OFFSET[.][b]]", "--traditional [OPTION]... [FILE] [[+]OFFSET[.][b] [+][LABEL][.][b]]")
	f.Epilog = odEpilog
	f.Func('A', "address-radix", RequiredArg, "RADIX", "output format for file offsets; RADIX is one of [doxn], for Decimal, Octal, Hex or None", func(v string, _ bool) error {
		c.modern = true
		r := byte(0)
		if v != "" {
			r = v[0]
		}
		switch r {
		case 'd':
			c.addrBase, c.addrPad = 10, 7
		case 'o':
			c.addrBase, c.addrPad = 8, 7
		case 'x':
			c.addrBase, c.addrPad = 16, 6
		case 'n':
			c.addrBase, c.addrPad = 0, 0
		default:
			return fmt.Errorf("invalid output address radix '%c'; it must be one character from [doxn]", r)
		}
		return nil
	})
	f.Func(0, "endian", RequiredArg, "{big|little}", "swap input bytes according the specified order", func(v string, _ bool) error {
		valid := "\nValid arguments are:\n  - 'little'\n  - 'big'\nTry '" + env.Name() + " --help' for more information."
		switch {
		case v == "":
			return fmt.Errorf("ambiguous argument %s for '--endian'%s", env.Quote(v), valid)
		case strings.HasPrefix("big", v):
			c.swap = true
		case strings.HasPrefix("little", v):
			c.swap = false
		default:
			return fmt.Errorf("invalid argument %s for '--endian'%s", env.Quote(v), valid)
		}
		return nil
	})
	c.sizeOpt(f, 'j', "skip-bytes", "skip BYTES input bytes first", func(v uint64) { c.skipBytes = v })
	c.sizeOpt(f, 'N', "read-bytes", "limit dump to BYTES input bytes", func(v uint64) { c.limit, c.limited = v, true })
	f.Func('S', "", RequiredArg, "BYTES", "show only NUL terminated strings of at least BYTES (3) printable characters;\n                             above 16 GiB, GNU's 'memory exhausted' (GNU's limit is the machine's)", c.strOpt("-S"))
	f.Func(0, "strings", OptionalArg, "BYTES", "same as -S, BYTES defaulting to 3", c.strOpt("--strings"))
	f.Func('t', "format", RequiredArg, "TYPE", "select output format or formats", func(v string, _ bool) error {
		c.modern = true
		return c.addType(env, v)
	})
	f.Func('v', "output-duplicates", NoArg, "", "do not use * to mark line suppression", func(string, bool) error {
		c.modern, c.noDup = true, true
		return nil
	})
	f.Func('w', "", OptionalArg, "BYTES", "output BYTES bytes per output line; 32 is implied when BYTES is not specified", c.widthOpt("-w"))
	f.Func(0, "width", OptionalArg, "BYTES", "same as -w", c.widthOpt("--width"))
	f.BoolVar(&c.traditional, 0, "traditional", "accept arguments in third form above")
	for _, o := range []struct {
		c rune
		t string
	}{{'a', "a"}, {'b', "o1"}, {'c', "c"}, {'D', "u4"}, {'d', "u2"}, {'F', "fD"}, {'e', "fD"}, {'f', "fF"},
		{'X', "x4"}, {'H', "x4"}, {'i', "dI"}, {'I', "dL"}, {'L', "dL"}, {'l', "dL"}, {'O', "o4"}, {'B', "o2"},
		{'o', "o2"}, {'s', "d2"}, {'h', "x2"}, {'x', "x2"}} {
		f.Func(o.c, "", NoArg, "", "", func(string, bool) error { return c.addType(env, o.t) })
	}
	return f
}

func (c *odConfig) addType(env *Env, t string) error {
	s, err := odParseType(env, t)
	if err != nil {
		c.typeFail = true
		return err
	}
	c.specs = append(c.specs, s...)
	return nil
}

// sizeOpt registers -short and --long, options of a size in bytes.
func (c *odConfig) sizeOpt(f *Flags, short rune, long, help string, fn func(v uint64)) {
	set := func(opt string) func(string, bool) error {
		return func(v string, _ bool) error {
			c.modern = true
			n, err := odParseSize(v, opt, 0, odMult)
			if err != nil {
				return err
			}
			fn(n)
			return nil
		}
	}
	f.Func(short, "", RequiredArg, "BYTES", help, set("-"+string(short)))
	f.Func(0, long, RequiredArg, "BYTES", "same as -"+string(short), set("--"+long))
}

// strOpt is the setter of -S and --strings.
func (c *odConfig) strOpt(opt string) func(string, bool) error {
	return func(v string, present bool) error {
		c.modern, c.strMode = true, true
		if !present {
			c.strMin = 3
			return nil
		}
		n, err := odParseSize(v, opt, 0, odMult)
		if err != nil {
			return err
		}
		c.strMin = n
		return nil
	}
}

// widthOpt is the setter of -w and --width.
func (c *odConfig) widthOpt(opt string) func(string, bool) error {
	return func(v string, present bool) error {
		c.modern, c.widthSet = true, true
		if !present {
			c.width = 32
			return nil
		}
		n, err := odParseSize(v, opt, 10, "")
		if err != nil {
			return err
		}
		if n > math.MaxInt32 {
			return fmt.Errorf("%s is too large", c.env.Quote(v))
		}
		c.width = int(n)
		return nil
	}
}

// offsetOperands takes the traditional [+]OFFSET and LABEL operands off
// files, the ones that remain being the files.
func (c *odConfig) offsetOperands(files []string) []string {
	switch len(files) {
	case 1:
		if c.traditional || strings.HasPrefix(files[0], "+") {
			if o, ok := odParseOldOffset(files[0]); ok {
				c.skipBytes, files = o, nil
			}
		}
	case 2:
		if a := files[1]; c.traditional || a != "" && (a[0] == '+' || a[0] >= '0' && a[0] <= '9') {
			if o2, ok := odParseOldOffset(files[1]); ok {
				if o1, ok1 := odParseOldOffset(files[0]); c.traditional && ok1 {
					c.skipBytes, c.labelStart, c.haveLabel, files = o1, o2, true, nil
				} else {
					c.skipBytes, files = o2, files[:1]
				}
			}
		}
	case 3:
		if c.traditional {
			o1, ok1 := odParseOldOffset(files[1])
			o2, ok2 := odParseOldOffset(files[2])
			if ok1 && ok2 {
				c.skipBytes, c.labelStart, c.haveLabel, files = o1, o2, true, files[:1]
			}
		}
	}
	return files
}

// run dumps files.
func (c *odConfig) run(env *Env, files []string) int {
	d := &odDumper{addrBase: c.addrBase, addrPad: c.addrPad, swap: c.swap}
	if c.haveLabel {
		if c.addrBase == 0 {
			d.paren, d.addrBase, d.addrPad = true, 8, 7
		} else {
			d.label = true
		}
	}
	var end uint64
	if c.limited {
		end = c.skipBytes + c.limit
		if end < c.skipBytes {
			env.Errorf("skip-bytes + read-bytes is too large")
			return 1
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	in := &odInput{env: env, names: files}
	in.next()
	if in.cur == nil {
		return 1
	}
	defer func() {
		if in.cur != nil {
			in.cur.Close()
		}
	}()
	ok, err := in.skip(c.skipBytes)
	if err != nil {
		return 1
	}
	if !ok {
		env.Errorf("cannot skip past end of combined input")
		return 1
	}
	if in.cur == nil {
		return 1
	}
	d.labelOff = c.labelStart - c.skipBytes
	c.layout(env, d)

	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	in.flush = func() {
		if d.flush(w, true) == nil {
			w.Flush()
		}
	}
	var runErr error
	if c.strMode && c.strMin > odStringsMax {
		// GNU allocates a buffer of -S bytes first and fails so; llmsh
		// holds only the strings it finds, but refuses the same values.
		env.Errorf("memory exhausted")
		return 1
	}
	if c.strMode {
		runErr = d.strings(env, in, w, c.skipBytes, c.strMin, c.limited, end)
	} else {
		runErr = d.dump(env, in, w, c.skipBytes, c.limited, end, !c.noDup)
	}
	if runErr != nil {
		if st, stop := stopError(env, runErr); stop {
			return st
		}
		return 1
	}
	status := 0
	if in.failed {
		status = 1
	}
	if in.readIn && env.StdinClosed {
		// GNU closes the standard input it read: a closed one fails
		// again.
		w.Flush()
		env.Errorf("standard input: %s", gnu.Strerror(syscall.EBADF))
		status = 1
	}
	return finishOutput(env, w, status)
}

// layout sets d's bytes per line and its types' padding.
func (c *odConfig) layout(env *Env, d *odDumper) {
	specs := c.specs
	if len(specs) == 0 {
		specs, _ = odParseType(env, "oS")
	}
	lcm := 1
	for _, sp := range specs {
		lcm = lcm * sp.size / odGCD(lcm, sp.size)
	}
	switch {
	case c.widthSet && c.width != 0 && c.width%lcm == 0:
		d.perBlock = c.width
	case c.widthSet:
		env.Errorf("warning: invalid width %d; using %d instead", c.width, lcm)
		d.perBlock = lcm
	case lcm < 16:
		d.perBlock = lcm * (16 / lcm)
	default:
		d.perBlock = lcm
	}
	widthPerBlock := 0
	for _, sp := range specs {
		widthPerBlock = max(widthPerBlock, (sp.width+1)*(d.perBlock/sp.size))
	}
	for i := range specs {
		specs[i].pad = widthPerBlock - specs[i].width*(d.perBlock/specs[i].size)
	}
	d.specs = specs
}

func odGCD(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// flush writes the pending output once it is large.
func (d *odDumper) flush(w *bufio.Writer, force bool) error {
	if len(d.buf) < 32<<10 && !force {
		return nil
	}
	_, err := w.Write(d.buf)
	d.buf = d.buf[:0]
	if err != nil {
		return gnu.WriteError{Err: err}
	}
	return nil
}

func (d *odDumper) dump(env *Env, in *odInput, w *bufio.Writer, offset uint64, limited bool, end uint64, abbreviate bool) error {
	bpb := d.perBlock
	var cur, prev []byte
	first, prevEqual := true, false
	n := 0
	for count := 0; ; count++ {
		if count&255 == 0 && env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		want := bpb
		if limited {
			if offset >= end {
				n = 0
				break
			}
			want = int(min(end-offset, uint64(bpb)))
		}
		var err error
		cur, n, err = odReadBlock(in, cur, want)
		if err != nil {
			return err
		}
		if n < bpb {
			break
		}
		if abbreviate && !first && bytes.Equal(prev[:bpb], cur[:bpb]) {
			if !prevEqual {
				d.buf = append(d.buf, "*\n"...)
				prevEqual = true
			}
		} else {
			prevEqual = false
			d.block(offset, cur, bpb)
		}
		first = false
		if err := d.flush(w, false); err != nil {
			return err
		}
		offset += uint64(bpb)
		cur, prev = prev, cur
	}
	if n > 0 {
		// A short last block is never a duplicate.
		d.block(offset, cur, n)
		offset += uint64(n)
	}
	d.address(offset, '\n')
	return d.flush(w, true)
}

// odReadBlock reads up to want bytes of in into buf, grown as they come
// (a width of gigabytes, od -w2000000000, was two buffers of that size
// made at once: the process ran out of memory), and returns it with the
// count read and 16 zero bytes after them, as d.block reads whole units.
func odReadBlock(in io.Reader, buf []byte, want int) ([]byte, int, error) {
	n := 0
	for n < want {
		k := min(want-n, 64<<10)
		buf = slices.Grow(buf[:n], k)[:n+k]
		m, err := io.ReadFull(in, buf[n:])
		n += m
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return buf, 0, err
		}
	}
	buf = slices.Grow(buf[:n], 16)[:n+16]
	clear(buf[n:])
	return buf, n, nil
}

// strings is od -S: NUL-terminated runs of at least min printable
// characters, each with its address.
// odStringsMax is the largest -S that llmsh takes: GNU od mallocs a
// buffer of that size and reports "memory exhausted" where the machine
// cannot give it (the limit depends on its memory; 16 GiB here).
const odStringsMax = 16 << 30

func (d *odDumper) strings(env *Env, in *odInput, w *bufio.Writer, addr, strMin uint64, limited bool, end uint64) error {
	br := bufio.NewReaderSize(in, 64<<10)
	var s []byte
	printable := func(c byte) bool { return c >= ' ' && c < 0x7f }
	count := 0
	readByte := func() (byte, bool, error) {
		count++
		if count&0xffff == 0 && env.Ctx.Err() != nil {
			return 0, false, gnu.ErrCancelled
		}
		c, err := br.ReadByte()
		if err != nil {
			if err == io.EOF {
				return 0, false, nil
			}
			return 0, false, err
		}
		return c, true, nil
	}
outer:
	for {
		if limited && (end < strMin || end-strMin <= addr) {
			break
		}
		s = s[:0]
		for uint64(len(s)) < strMin {
			c, ok, err := readByte()
			addr++
			if err != nil {
				return err
			}
			if !ok {
				return d.flush(w, true)
			}
			if !printable(c) {
				continue outer
			}
			s = append(s, c)
		}
		for !limited || addr < end {
			c, ok, err := readByte()
			addr++
			if err != nil {
				return err
			}
			if !ok {
				return d.flush(w, true)
			}
			if c == 0 {
				break
			}
			if !printable(c) {
				continue outer
			}
			s = append(s, c)
		}
		d.address(addr-uint64(len(s))-1, ' ')
		for _, c := range s {
			switch c {
			case '\a':
				d.buf = append(d.buf, `\a`...)
			case '\b':
				d.buf = append(d.buf, `\b`...)
			case '\f':
				d.buf = append(d.buf, `\f`...)
			case '\n':
				d.buf = append(d.buf, `\n`...)
			case '\r':
				d.buf = append(d.buf, `\r`...)
			case '\t':
				d.buf = append(d.buf, `\t`...)
			case '\v':
				d.buf = append(d.buf, `\v`...)
			default:
				d.buf = append(d.buf, c)
			}
		}
		d.buf = append(d.buf, '\n')
		if err := d.flush(w, false); err != nil {
			return err
		}
	}
	return d.flush(w, true)
}
