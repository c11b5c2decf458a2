package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "numfmt", Summary: "convert numbers to and from human-readable strings", Run: numfmt})

const (
	nfNone = iota
	nfSI
	nfIEC
	nfIECI
	nfAuto
)

const (
	nfUp = iota
	nfDown
	nfFromZero
	nfTowardsZero
	nfNearest
)

type numfmtOpts struct {
	out *bufio.Writer // converted fields go here as they are done
	env *Env          // for its quoting in messages

	from, to             int
	fromUnit, toUnit     *big.Rat
	round                int
	suffix               string
	padding              int
	paddingSet           bool
	fields               []nfRange
	delim                byte
	delimSet             bool
	header               int
	invalid              string
	zero                 bool
	fmtPrefix, fmtSuffix string
	fmtWidth, fmtPrec    int
	fmtLeft, fmtZero     bool
	fmtGroup             bool // the format's ' flag: --grouping
	fmtSet               bool
	grouping, debug      bool
	invalidSeen          bool // --debug: a field failed to convert
}

type nfRange struct{ lo, hi int }

// nfArgError is GNU's "invalid argument" message for an enumerated option.
func nfArgError(val, opt string, valid []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "invalid argument %s for %s\nValid arguments are:", gnu.Quote(val), gnu.Quote("--"+opt))
	for _, v := range valid {
		fmt.Fprintf(&b, "\n  - %s", gnu.Quote(v))
	}
	return &UsageError{b.String()}
}

func nfScale(env *Env, v, opt string, auto bool) (int, error) {
	// GNU's lists: scale_from_args has auto second.
	if auto {
		return lsArgMatch(env, "--"+opt, v, []string{"none", "auto", "si", "iec", "iec-i"}, []int{nfNone, nfAuto, nfSI, nfIEC, nfIECI})
	}
	return lsArgMatch(env, "--"+opt, v, []string{"none", "si", "iec", "iec-i"}, []int{nfNone, nfSI, nfIEC, nfIECI})
}

// nfUnit parses a unit size: K is 1000 and Ki 1024, as in GNU numfmt.
func nfUnit(env *Env, v string) (*big.Rat, error) {
	t := v
	if t != "" && (t[len(t)-1] < '0' || t[len(t)-1] > '9') {
		if len(t) >= 2 && t[len(t)-1] == 'i' && (t[len(t)-2] < '0' || t[len(t)-2] > '9') {
			t = t[:len(t)-1]
		} else {
			t += "B"
		}
	}
	n, e := gnu.ParseSize(t, 10, "KMGTPEZY0")
	if e != gnu.SizeOK || n == 0 {
		return nil, fmt.Errorf("invalid unit size: %s", env.Quote(v))
	}
	return new(big.Rat).SetInt(new(big.Int).SetUint64(n)), nil
}

// nfParseFields parses --field: N, N-M, N-, -M, comma separated.
func nfParseFields(env *Env, v string) ([]nfRange, error) {
	if v == "-" {
		return []nfRange{{1, math.MaxInt}}, nil
	}
	// GNU's set_fields, as cut's
	rs, err := cutParseList(env, v, false)
	if err != nil {
		return nil, err
	}
	out := make([]nfRange, len(rs))
	for i, r := range rs {
		out[i] = nfRange(r)
	}
	return out, nil
}

func (o *numfmtOpts) parseFormat(v string) error {
	bad := fmt.Errorf("invalid format %s, directive must be %%[0]['][-][N][.][N]f", o.env.Quote(v))
	i := 0
	var pre strings.Builder
	for ; i < len(v); i++ {
		if v[i] == '%' {
			if i+1 < len(v) && v[i+1] == '%' {
				pre.WriteByte('%')
				i++
				continue
			}
			break
		}
		pre.WriteByte(v[i])
	}
	if i >= len(v) {
		return fmt.Errorf("format %s has no %% directive", o.env.Quote(v))
	}
	i++
	// GNU skips blanks, ' and 0, then reads the width with strtol: a
	// sign is taken (- aligns left, + is dropped), and blanks before it.
	for ; i < len(v); i++ {
		switch v[i] {
		case '0':
			o.fmtZero = true
			continue
		case '\'':
			o.fmtGroup = true
			continue
		case ' ':
			continue
		}
		break
	}
	for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
		i++
	}
	if i < len(v) && (v[i] == '-' || v[i] == '+') {
		o.fmtLeft = v[i] == '-'
		i++
	}
	j := i
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i > j {
		o.fmtWidth, _ = strconv.Atoi(v[j:i])
		if o.fmtWidth > 1<<24 || i-j > 9 {
			return bad
		}
	}
	o.fmtPrec = -1
	if i < len(v) && v[i] == '.' {
		i++
		j = i
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
		}
		o.fmtPrec, _ = strconv.Atoi(v[j:i])
		if i-j > 5 {
			return bad
		}
	}
	if i >= len(v) || v[i] != 'f' {
		return bad
	}
	i++
	var suf strings.Builder
	for ; i < len(v); i++ {
		if v[i] == '%' {
			if i+1 < len(v) && v[i+1] == '%' {
				suf.WriteByte('%')
				i++
				continue
			}
			return fmt.Errorf("format %s has too many %% directives", o.env.Quote(v))
		}
		suf.WriteByte(v[i])
	}
	o.fmtPrefix, o.fmtSuffix, o.fmtSet = pre.String(), suf.String(), true
	return nil
}

func numfmt(env *Env) int {
	o := &numfmtOpts{env: env, round: nfFromZero, invalid: "abort", fromUnit: big.NewRat(1, 1), toUnit: big.NewRat(1, 1), fmtPrec: -1}
	f := o.flags(env)
	ops, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if o.to == nfAuto {
		return f.Fail(nfArgError("auto", "to", []string{"none", "si", "iec", "iec-i"}), 1)
	}
	// GNU's checks and --debug's warnings, in its order.
	if o.grouping && o.fmtSet {
		env.Errorf("--grouping cannot be combined with --format")
		return 1
	}
	if o.debug && o.from == nfNone && o.to == nfNone && !o.grouping && !o.paddingSet && !o.fmtSet {
		env.Errorf("no conversion option specified")
	}
	if o.debug && o.paddingSet && o.formatPads() {
		env.Errorf("--format padding overriding --padding")
	}
	if o.grouping || o.fmtGroup {
		if o.to != nfNone {
			env.Errorf("grouping cannot be combined with --to")
			return 1
		}
		if o.debug {
			// The C locale has no thousands separator.
			env.Errorf("grouping has no effect in this locale")
		}
	}
	st := o.run(env, ops)
	if o.debug && o.invalidSeen && o.invalid != "abort" {
		env.Errorf("failed to convert some of the input numbers")
	}
	return st
}

// flags is numfmt's option table.
func (o *numfmtOpts) flags(env *Env) *Flags {
	f := NewFlags(env, "Reformat NUMBER(s), or the numbers from standard input if none are specified.", "[OPTION]... [NUMBER]...")
	f.Epilog = numfmtHelp
	f.Func(0, "from", RequiredArg, "UNIT", "auto-scale input numbers to UNITs; default is 'none';\nsee UNIT below", func(v string, _ bool) error {
		var err error
		o.from, err = nfScale(env, v, "from", true)
		return err
	})
	f.Func(0, "from-unit", RequiredArg, "N", "specify the input unit size (instead of the default 1)", func(v string, _ bool) (err error) {
		o.fromUnit, err = nfUnit(env, v)
		return err
	})
	f.Func(0, "to", RequiredArg, "UNIT", "auto-scale output numbers to UNITs; see UNIT below", func(v string, _ bool) error {
		var err error
		o.to, err = nfScale(env, v, "to", false)
		return err
	})
	f.Func(0, "to-unit", RequiredArg, "N", "the output unit size (instead of the default 1)", func(v string, _ bool) (err error) {
		o.toUnit, err = nfUnit(env, v)
		return err
	})
	f.Func(0, "round", RequiredArg, "METHOD", "use METHOD for rounding when scaling; METHOD can be:\nup, down, from-zero (default), towards-zero, nearest", func(v string, _ bool) error {
		names := []string{"up", "down", "from-zero", "towards-zero", "nearest"}
		var err error
		o.round, err = lsArgMatch(env, "--round", v, names, lsSeq(len(names)))
		return err
	})
	f.StringVar(&o.suffix, 0, "suffix", "SUFFIX", "add SUFFIX to output numbers, and accept optional SUFFIX in input numbers")
	f.Func(0, "padding", RequiredArg, "N", "pad the output to N characters; positive N will\nright-align; negative N will left-align;\npadding is ignored if the output is wider than N;\nthe default is to automatically pad if a whitespace\nis found", func(v string, _ bool) error {
		n, err := strconv.Atoi(v)
		if err != nil || n == 0 || n > 1<<24 || n < -(1<<24) {
			return fmt.Errorf("invalid padding value %s", env.Quote(v))
		}
		o.padding, o.paddingSet = n, true
		return nil
	})
	o.fields = []nfRange{{1, 1}}
	fieldSet := false
	f.Func(0, "field", RequiredArg, "FIELDS", "replace the numbers in these input fields (default=1);\nsee FIELDS below", func(v string, _ bool) (err error) {
		if fieldSet {
			return errors.New("multiple field specifications")
		}
		fieldSet = true
		o.fields, err = nfParseFields(env, v)
		return err
	})
	f.Func('d', "delimiter", RequiredArg, "X", "use X instead of whitespace for field delimiter", func(v string, _ bool) error {
		if len(v) != 1 {
			return fmt.Errorf("the delimiter must be a single character")
		}
		o.delim, o.delimSet = v[0], true
		return nil
	})
	f.Func(0, "format", RequiredArg, "FORMAT", "use printf style floating-point FORMAT;\nsee FORMAT below for details", func(v string, _ bool) error { return o.parseFormat(v) })
	f.Func(0, "header", OptionalArg, "N", "print (without converting) the first N header lines;\nN defaults to 1 if not specified", func(v string, present bool) error {
		o.header = 1
		if present {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return fmt.Errorf("invalid header value %s", env.Quote(v))
			}
			o.header = n
		}
		return nil
	})
	f.Func(0, "invalid", RequiredArg, "MODE", "failure mode for invalid numbers: MODE can be:\nabort (default), fail, warn, ignore", func(v string, _ bool) error {
		names := []string{"abort", "fail", "warn", "ignore"}
		i, err := lsArgMatch(env, "--invalid", v, names, lsSeq(len(names)))
		if err != nil {
			return err
		}
		o.invalid = names[i]
		return nil
	})
	f.BoolVar(&o.debug, 0, "debug", "print warnings about invalid input")
	f.BoolVar(&o.grouping, 0, "grouping", "use locale-defined grouping of digits, e.g. 1,000,000\n(which means it has no effect in the C/POSIX locale)")
	f.BoolVar(&o.zero, 'z', "zero-terminated", "line delimiter is NUL, not newline")
	return f
}

// run converts the numbers ops, or the lines of standard input.
func (o *numfmtOpts) run(env *Env, ops []string) int {
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	o.out = w
	status := 0
	eol := byte('\n')
	if o.zero {
		eol = 0
	}
	// convert handles one line; it reports whether to stop (abort).
	convert := func(line string) bool {
		ok := o.line(env, line)
		if !ok && o.invalid == "abort" {
			// GNU stops mid-line, after the text before the bad field.
			status = 2
			return true
		}
		w.WriteByte(eol)
		if !ok && o.invalid == "fail" {
			status = 2
		}
		return false
	}
	if len(ops) > 0 {
		for _, op := range ops {
			if convert(op) {
				break
			}
		}
		return finishOutput(env, w, status)
	}
	br := bufio.NewReaderSize(env.Stdin, 64<<10)
	var buf []byte
	for n := 0; ; n++ {
		if n&0xfff == 0 && env.Ctx.Err() != nil {
			return 1
		}
		var err error
		buf, err = env.gatherLine(buf[:0], br, eol)
		line := string(buf)
		if err != nil && err != io.EOF {
			if quietStop(err) {
				return 1 // a part of a line read until the run stopped
			}
			// GNU says so and ends as at the input's end.
			env.Errorf("error reading input: %s", ErrText(err))
			break
		}
		if line == "" && err != nil {
			break
		}
		line = strings.TrimSuffix(line, string(eol))
		if n < o.header {
			w.WriteString(line)
			w.WriteByte(eol)
			continue
		}
		if convert(line) {
			break
		}
		if _, err := w.Write(nil); err != nil {
			break
		}
	}
	return finishOutput(env, w, status)
}

func (o *numfmtOpts) inField(n int) bool {
	for _, r := range o.fields {
		if n >= r.lo && n <= r.hi {
			return true
		}
	}
	return false
}

// line writes one line with its selected fields converted (without the
// line's end); on an invalid field under --invalid=abort it stops after
// the text before it, as GNU.
func (o *numfmtOpts) line(env *Env, line string) bool {
	b := o.out
	ok := true
	if o.delimSet {
		for i, field := range strings.Split(line, string(o.delim)) {
			if i > 0 {
				b.WriteByte(o.delim)
			}
			if o.inField(i + 1) {
				s, good := o.number(env, field, 0)
				if !good {
					ok = false
					if o.invalid == "abort" {
						return false
					}
				}
				b.WriteString(s)
			} else {
				b.WriteString(field)
			}
		}
		return ok
	}
	// Blank-separated, as GNU's next_field: a field is its leading blanks
	// and the non-blanks after them; the one byte that ends it is written
	// as a space. An empty line, or a blank at the end, makes an empty
	// field.
	rest := line
	for n := 1; ; n++ {
		k := 0
		for k < len(rest) && numfmtSep(rest[k]) {
			k++
		}
		prefixed := k > 0
		for k < len(rest) && !numfmtSep(rest[k]) {
			k++
		}
		field := rest[:k]
		if o.inField(n) {
			width := 0
			if !o.paddingSet && (prefixed || n > 1) {
				width = len(field)
			}
			s, good := o.number(env, strings.TrimLeft(field, " \t"), width)
			if !good {
				ok = false
				if o.invalid == "abort" {
					return false
				}
				s = field
			}
			b.WriteString(s)
		} else {
			b.WriteString(field)
		}
		if k >= len(rest) {
			break
		}
		b.WriteByte(' ')
		rest = rest[k+1:]
	}
	return ok
}

// nfUnscaledMax is 10^19: without --to, GNU prints values below it. It
// and nfAcceptableMax are made when numfmt first needs them, not at
// start-up (their math/big code was a page of the binary every start
// faulted in).
var nfUnscaledMax = sync.OnceValue(func() *big.Rat {
	return new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(19), nil))
})

var nfPowers = "KMGTPEZY"

// nfAcceptableMax is 10^27, the least value numfmt --to cannot print.
var nfAcceptableMax = sync.OnceValue(func() *big.Rat {
	return new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(27), nil))
})

// warn reports an invalid field after what is written so far, as GNU's
// error() flushes standard output first.
func (o *numfmtOpts) warn(env *Env, err error) {
	o.out.Flush()
	env.Errorf("%s", err)
}

// number converts one field; autoWidth right-aligns to the field's width.
func (o *numfmtOpts) number(env *Env, s string, autoWidth int) (string, bool) {
	text := strings.TrimLeft(s, " \t")
	if o.suffix != "" {
		text = strings.TrimSuffix(text, o.suffix)
	}
	val, prec, err := o.parse(text)
	if err == nil && o.debug && nfPrecisionLoss(text) {
		o.warn(env, fmt.Errorf("large input value %s: possible precision loss", env.Quote(text)))
	}
	if err != nil {
		o.invalidSeen = true
		if o.invalid != "ignore" {
			o.warn(env, err)
		}
		return s, false
	}
	val.Mul(val, o.fromUnit)
	val.Quo(val, o.toUnit)
	out, err := o.format(val, prec)
	if err != nil {
		o.invalidSeen = true
		if o.invalid != "ignore" {
			o.warn(env, err)
		}
		return s, false
	}
	out += o.suffix
	switch {
	case o.paddingSet && o.formatPads():
	case o.paddingSet && o.padding > 0:
		out = fmt.Sprintf("%*s", o.padding, out)
	case o.paddingSet:
		out = fmt.Sprintf("%-*s", -o.padding, out)
	case autoWidth > 0:
		out = fmt.Sprintf("%*s", autoWidth, out)
	}
	return out, true
}

// formatPads reports whether --format's width replaces --padding: any
// width but a right-aligned zero padding, which --padding pads further.
func (o *numfmtOpts) formatPads() bool {
	return o.fmtSet && o.fmtWidth != 0 && !(o.fmtZero && !o.fmtLeft)
}

// nfPrecisionLoss reports whether the integer or the fraction part of s
// has more than 18 digits from its first nonzero one: GNU's
// MAX_UNSCALED_DIGITS, past which a long double may lose precision.
func nfPrecisionLoss(s string) bool {
	s = strings.TrimPrefix(s, "-")
	for _, part := range strings.SplitN(s, ".", 2) {
		n := 0
		for i := 0; i < len(part) && part[i] >= '0' && part[i] <= '9'; i++ {
			if n > 0 || part[i] != '0' {
				n++
			}
		}
		if n > 18 {
			return true
		}
	}
	return false
}

// parse reads a number with an optional unit suffix, as --from says.
func (o *numfmtOpts) parse(s string) (*big.Rat, int, error) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	prec := 0
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
			prec++
		}
	}
	if digits == 0 {
		return nil, 0, fmt.Errorf("invalid number: %s", o.env.Quote(s))
	}
	if digits > 27 {
		return nil, 0, fmt.Errorf("value too large to be converted: %s", o.env.Quote(s))
	}
	val, ok := new(big.Rat).SetString(s[:i])
	if !ok {
		return nil, 0, fmt.Errorf("invalid number: %s", o.env.Quote(s))
	}
	rest := s[i:]
	if rest == "" && o.from == nfIECI {
		// GNU 9.1: --from=iec-i wants the suffix on every number
		return nil, 0, fmt.Errorf("missing 'i' suffix in input: %s (e.g Ki/Mi/Gi)", o.env.Quote(s))
	}
	if rest == "" {
		return val, prec, nil
	}
	p := strings.IndexByte(nfPowers, rest[0])
	if p < 0 {
		return nil, 0, fmt.Errorf("invalid suffix in input: %s", o.env.Quote(s))
	}
	if o.from == nfNone {
		return nil, 0, fmt.Errorf("rejecting suffix in input: %s (consider using --from)", o.env.Quote(s))
	}
	base := int64(1000)
	hasI := len(rest) > 1 && rest[1] == 'i'
	switch o.from {
	case nfIEC:
		base = 1024
	case nfIECI:
		base = 1024
		if !hasI {
			return nil, 0, fmt.Errorf("missing 'i' suffix in input: %s (e.g Ki/Mi/Gi)", o.env.Quote(s))
		}
	case nfAuto:
		if hasI {
			base = 1024
		}
	}
	n := 2
	if !hasI || o.from == nfSI || o.from == nfIEC {
		n = 1
	}
	if len(rest) > n {
		return nil, 0, fmt.Errorf("invalid suffix in input %s: %s", o.env.Quote(s), o.env.Quote(rest[n:]))
	}
	mult := new(big.Int).Exp(big.NewInt(base), big.NewInt(int64(p+1)), nil)
	val.Mul(val, new(big.Rat).SetInt(mult))
	return val, 0, nil
}

// nfRound rounds x to an integer as --round says.
func nfRound(x *big.Rat, mode int) *big.Rat {
	num, den := x.Num(), x.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int)) // truncated toward zero
	if m.Sign() == 0 {
		return new(big.Rat).SetInt(q)
	}
	neg := x.Sign() < 0
	one := big.NewInt(1)
	away := func() { // away from zero
		if neg {
			q.Sub(q, one)
		} else {
			q.Add(q, one)
		}
	}
	switch mode {
	case nfUp:
		if !neg {
			q.Add(q, one)
		}
	case nfDown:
		if neg {
			q.Sub(q, one)
		}
	case nfFromZero:
		away()
	case nfTowardsZero:
	case nfNearest:
		twice := new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2))
		if twice.Cmp(den) >= 0 {
			away()
		}
	}
	return new(big.Rat).SetInt(q)
}

func (o *numfmtOpts) format(val *big.Rat, prec int) (string, error) {
	if o.fmtSet && o.fmtPrec >= 0 {
		prec = o.fmtPrec
	}
	var body, unit string
	if o.to == nfNone {
		// GNU refuses 19 integer digits or more (LDBL_DIG is 18).
		if f, _ := val.Float64(); new(big.Rat).Abs(val).Cmp(nfUnscaledMax()) >= 0 {
			return "", fmt.Errorf("value too large to be printed: '%s' (consider using --to)", nfG(f))
		}
		scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(prec)), nil))
		r := nfRound(new(big.Rat).Mul(val, scale), o.round)
		r.Quo(r, scale)
		body = r.FloatString(prec)
	} else {
		base := big.NewRat(1000, 1)
		if o.to != nfSI {
			base = big.NewRat(1024, 1)
		}
		x := new(big.Rat).Set(val)
		power := 0
		abs := func(r *big.Rat) *big.Rat { return new(big.Rat).Abs(r) }
		for abs(x).Cmp(base) >= 0 && power < 9 {
			x.Quo(x, base)
			power++
		}
		// GNU refuses 28 integer digits or more (MAX_ACCEPTABLE_DIGITS),
		// whatever the base.
		if power > 8 || abs(val).Cmp(nfAcceptableMax()) >= 0 {
			f, _ := val.Float64()
			return "", fmt.Errorf("value too large to be printed: '%s' (cannot handle values > 999Y)", nfG(f))
		}
		if o.fmtSet && o.fmtPrec >= 0 {
			// GNU rounds to min(3*power, precision) decimals (an
			// unscaled value to an integer), then prints the precision.
			adj := min(3*power, o.fmtPrec)
			scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(adj)), nil))
			r := nfRound(new(big.Rat).Mul(x, scale), o.round)
			x = r.Quo(r, scale)
			if abs(x).Cmp(base) >= 0 {
				x.Quo(x, base)
				power++
			}
			body = x.FloatString(o.fmtPrec)
		} else {
			ten := big.NewRat(10, 1)
			small := abs(x).Cmp(ten) < 0
			if small {
				x.Mul(x, ten)
			}
			x = nfRound(x, o.round)
			if small {
				x.Quo(x, ten)
			}
			if abs(x).Cmp(base) >= 0 {
				x.Quo(x, base)
				power++
			}
			if x.Sign() != 0 && abs(x).Cmp(ten) < 0 && power > 0 {
				body = x.FloatString(1)
			} else {
				f, _ := x.Float64()
				body = strconv.FormatFloat(f, 'f', 0, 64)
				if body == "-0" {
					body = "0"
				}
			}
		}
		if power > len(nfPowers) {
			unit = "(error)" // GNU's suffix past Y, after rounding up to it
		} else if power > 0 {
			unit = nfPowers[power-1 : power]
		}
		if power > 0 && o.to == nfIECI {
			unit += "i"
		}
	}
	if !o.fmtSet {
		return body + unit, nil
	}
	// A zero padding pads the number alone, before its unit (GNU prints
	// it with "%0*.*Lf" and appends the unit); other widths pad both.
	if o.fmtZero && !o.fmtLeft && o.fmtWidth > len(body) {
		sign := ""
		if strings.HasPrefix(body, "-") {
			sign, body = "-", body[1:]
		}
		body = sign + strings.Repeat("0", o.fmtWidth-len(body)-len(sign)) + body
	}
	pad := body + unit
	if o.fmtWidth > len(pad) {
		if o.fmtLeft {
			pad += strings.Repeat(" ", o.fmtWidth-len(pad))
		} else {
			pad = strings.Repeat(" ", o.fmtWidth-len(pad)) + pad
		}
	}
	return o.fmtPrefix + pad + o.fmtSuffix, nil
}

// nfG is C's %Lg for the messages about values too large.
func nfG(f float64) string {
	s := strconv.FormatFloat(f, 'e', 5, 64)
	mant, exp, _ := strings.Cut(s, "e")
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	e, _ := strconv.Atoi(exp)
	return fmt.Sprintf("%se%c%02d", mant, map[bool]byte{true: '-', false: '+'}[e < 0], max(e, -e))
}

// numfmtHelp closes numfmt's --help, as GNU's (its df example aside:
// llmsh has no df).
const numfmtHelp = `UNIT options:
  none       no auto-scaling is done; suffixes will trigger an error
  auto       accept optional single/two letter suffix:
               1K = 1000,
               1Ki = 1024,
               1M = 1000000,
               1Mi = 1048576,
  si         accept optional single letter suffix:
               1K = 1000,
               1M = 1000000,
               ...
  iec        accept optional single letter suffix:
               1K = 1024,
               1M = 1048576,
               ...
  iec-i      accept optional two-letter suffix:
               1Ki = 1024,
               1Mi = 1048576,
               ...

FIELDS supports cut(1) style field ranges:
  N    N'th field, counted from 1
  N-   from N'th field, to end of line
  N-M  from N'th to M'th field (inclusive)
  -M   from first to M'th field (inclusive)
  -    all fields
Multiple fields/ranges can be separated with commas

FORMAT must be suitable for printing one floating-point argument '%f'.
Optional quote (%'f) will enable --grouping (if supported by current locale).
Optional width value (%10f) will pad output. Optional zero (%010f) width
will zero pad the number. Optional negative values (%-10f) will left align.
Optional precision (%.1f) will override the input determined precision.

Exit status is 0 if all input numbers were successfully converted.
By default, numfmt will stop at the first conversion error with exit status 2.
With --invalid='fail' a warning is printed for each conversion error
and the exit status is 2.  With --invalid='warn' each conversion error is
diagnosed, but the exit status is 0.  With --invalid='ignore' conversion
errors are not diagnosed and the exit status is 0.

Examples:
  $ numfmt --to=si 1000
            -> "1.0K"
  $ numfmt --to=iec 2048
           -> "2.0K"
  $ numfmt --to=iec-i 4096
           -> "4.0Ki"
  $ echo 1K | numfmt --from=si
           -> "1000"
  $ echo 1K | numfmt --from=iec
           -> "1024"
  $ ls -l  | numfmt --header --field 5 --to=iec
  $ ls -lh | numfmt --header --field 5 --from=iec --padding=10
  $ ls -lh | numfmt --header --field 5 --from=iec --format %10f`

// numfmtSep is GNU numfmt's field separator without -d: a blank, or a
// newline (in an argument, or a line of -z).
func numfmtSep(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }
