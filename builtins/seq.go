package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

var _ = register(Builtin{Name: "seq", Summary: "print a sequence of numbers", Run: seq})

// seqOperand is a parsed number with the width and precision GNU seq
// derives from how it was written (prec -1: unknown, as for hex or inf).
type seqOperand struct {
	v           float64
	width, prec int
	integer     bool // plain decimal integer that fits in an int64
	i           int64
	// ld is the value as strtold reads it, a long double of 64 bits of
	// mantissa (x86's, which GNU seq computes in); nil for inf.
	ld *big.Float
}

// long returns o's long double value (nil for inf).
func (o seqOperand) long() *big.Float {
	if o.ld == nil && !math.IsInf(o.v, 0) {
		return new(big.Float).SetPrec(64).SetFloat64(o.v)
	}
	return o.ld
}

func seqParse(env *Env, arg string) (seqOperand, error) {
	op := seqOperand{prec: -1}
	s := strings.TrimLeft(arg, " \t\n\v\f\r")
	num := s
	hex := strings.ContainsAny(s, "xX")
	if hex && !strings.ContainsAny(s, "pP") && !strings.ContainsAny(strings.ToLower(s), "in") {
		num += "p0"
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || strings.Contains(s, "_") {
		return op, fmt.Errorf("invalid floating point argument: %s", env.Quote(arg))
	}
	if math.IsNaN(v) {
		return op, fmt.Errorf("invalid 'not-a-number' argument: %s", env.Quote(arg))
	}
	op.v = v
	if !strings.ContainsAny(strings.ToLower(s), "in") {
		if ld, _, err := big.ParseFloat(strings.TrimRight(num, " \t\n\v\f\r"), 0, 64, big.ToNearestEven); err == nil {
			op.ld = ld
		}
	}
	// -0 stays a float: GNU prints it as "-0".
	if i, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64); err == nil && i > -1<<62 && i < 1<<62 && !(i == 0 && strings.HasPrefix(s, "-")) {
		op.integer, op.i = true, i
	}
	op.width = len(arg)
	if hex || math.IsInf(v, 0) && op.ld == nil {
		return op, nil
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(arg), "e")
	dot := strings.IndexByte(mant, '.')
	if dot < 0 {
		op.prec = 0
	} else {
		frac := len(mant) - dot - 1
		op.prec = frac
		switch {
		case frac == 0:
			op.width--
		case dot == 0 || mant[dot-1] < '0' || mant[dot-1] > '9':
			op.width++
		}
	}
	if hasExp {
		x, _ := strconv.Atoi(exp)
		if x < 0 {
			op.prec += -x
		} else {
			op.prec -= min(op.prec, x)
		}
		op.width -= len(exp) + 1
		if x < 0 {
			if dot < 0 || dot == len(mant)-1 {
				op.width++
			}
			x = -x
		}
		op.width += x
	}
	return op, nil
}

// seqConfig is what seq's options select.
type seqConfig struct {
	format           string // -f
	hasFormat, equal bool
	sep              string
}

func seq(env *Env) int {
	c := &seqConfig{sep: "\n"}
	f := NewFlags(env, "Print numbers from FIRST to LAST, in steps of INCREMENT.", "[OPTION]... LAST", "[OPTION]... FIRST LAST", "[OPTION]... FIRST INCREMENT LAST")
	f.StopAtOperand = true
	f.Func('f', "format", RequiredArg, "FORMAT", "use printf style floating-point FORMAT", func(v string, _ bool) error {
		c.format, c.hasFormat = v, true
		return nil
	})
	f.StringVar(&c.sep, 's', "separator", "STRING", "use STRING to separate numbers (default: \\n)")
	f.BoolVar(&c.equal, 'w', "equal-width", "equalize width by padding with leading zeroes")
	// A negative number ends the options, as in GNU seq.
	args := env.Args[1:]
	k := len(args)
	for i, a := range args {
		if len(a) > 1 && a[0] == '-' && (a[1] == '.' || a[1] >= '0' && a[1] <= '9') {
			k = i
			break
		}
		if a == "--" {
			break
		}
	}
	ops, err := f.Parse(args[:k])
	if err != nil {
		return f.Fail(err, 1)
	}
	ops = append(ops, args[k:]...)
	switch {
	case len(ops) == 0:
		return f.Fail(&UsageError{"missing operand"}, 1)
	case len(ops) > 3:
		return f.Fail(&UsageError{"extra operand " + env.Quote(ops[3])}, 1)
	}
	first, step := seqOperand{v: 1, width: 1, prec: 0, integer: true, i: 1}, seqOperand{v: 1, width: 1, prec: 0, integer: true, i: 1}
	var last seqOperand
	parsed := make([]seqOperand, len(ops))
	for i, a := range ops {
		if parsed[i], err = seqParse(env, a); err != nil {
			return f.Fail(&UsageError{err.Error()}, 1)
		}
	}
	switch len(parsed) {
	case 1:
		last = parsed[0]
	case 2:
		first, last = parsed[0], parsed[1]
	case 3:
		first, step, last = parsed[0], parsed[1], parsed[2]
		if step.v == 0 && (step.ld == nil || step.ld.Sign() == 0) {
			return f.Fail(&UsageError{"invalid Zero increment value: " + env.Quote(ops[1])}, 1)
		}
	}
	if c.hasFormat && c.equal {
		env.Errorf("format string may not be specified when printing equal width strings")
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
		return 1
	}
	return c.run(env, ops, first, step, last)
}

// seqRun is one run of seq: its format and output.
type seqRun struct {
	env       *Env
	w         *bufio.Writer
	sep       string
	pre, post string // the format's text around its conversion
	spec      floatFormat
	line      []byte
	printed   bool
}

// seqMaxConversion is the largest width or precision seq formats (16
// MiB): each line is formatted in memory (printf(1) and the shell's printf
// write their padding a piece at a time, and go up to C's INT_MAX).
const seqMaxConversion = 1 << 24

// run prints the numbers from first to last in steps of step; ops are the
// operands as written.
func (c *seqConfig) run(env *Env, ops []string, first, step, last seqOperand) int {
	s := &seqRun{env: env, sep: c.sep}
	if c.hasFormat {
		var err error
		if s.pre, s.spec, s.post, err = parseFloatFormat(env, c.format); err != nil {
			env.Errorf("%s", err)
			return 1
		}
		// A width or precision past seqMaxConversion would make each
		// line one allocation of up to gigabytes: seq fails as GNU seq
		// does when the C library cannot allocate a conversion that large.
		if s.spec.width > seqMaxConversion || s.spec.prec > seqMaxConversion {
			env.Errorf("write error: Cannot allocate memory")
			return 1
		}
	} else {
		s.spec = seqDefaultFormat(first, step, last, c.equal)
	}
	s.w = stdoutWriter(env)
	var st int
	switch {
	case seqBig(ops, len(ops)) && !c.hasFormat && !(first.integer && step.integer && last.integer):
		st = s.bigInts(ops)
	case first.integer && step.integer && last.integer && !c.hasFormat:
		st = s.ints(first.i, step.i, last.i)
	case seqExact(first) && seqExact(step) && seqExact(last) && s.spec.verb|0x20 != 'a' || !c.hasFormat && seqShort(first, step, last) || first.long() == nil || step.long() == nil || last.long() == nil:
		st = s.floats(first.v, step.v, last.v)
	default:
		st = s.longs(first.long(), step.long(), last.long())
	}
	if st >= 0 {
		return st
	}
	if s.printed {
		s.w.WriteString("\n")
	}
	return finishOutput(env, s.w, 0)
}

// emit prints x, or xi when isInt; false when the output failed.
func (s *seqRun) emit(x float64, xi int64, isInt bool) bool {
	s.line = s.line[:0]
	if s.printed {
		s.line = append(s.line, s.sep...)
	}
	s.line = append(s.line, s.pre...)
	if isInt {
		s.line = seqAppendInt(s.line, xi, s.spec.width)
	} else {
		s.line = s.spec.append(s.line, x)
	}
	s.line = append(s.line, s.post...)
	s.printed = true
	_, err := s.w.Write(s.line)
	return err == nil
}

// stop is the status of a cancelled run, or -1 to go on.
func (s *seqRun) stop() int {
	if s.env.Ctx.Err() != nil {
		s.w.Flush()
		return 1
	}
	return -1
}

// bigInts counts integers beyond int64 exactly, as GNU does with digit
// strings. Like ints and floats, it returns -1 when it printed them all,
// else the status to exit with.
func (s *seqRun) bigInts(ops []string) int {
	bf, bs, bl := big.NewInt(1), big.NewInt(1), new(big.Int)
	switch len(ops) {
	case 1:
		bl.SetString(strings.TrimLeft(ops[0], " +"), 10)
	case 2:
		bf.SetString(strings.TrimLeft(ops[0], " +"), 10)
		bl.SetString(strings.TrimLeft(ops[1], " +"), 10)
	case 3:
		bf.SetString(strings.TrimLeft(ops[0], " +"), 10)
		bs.SetString(strings.TrimLeft(ops[1], " +"), 10)
		bl.SetString(strings.TrimLeft(ops[2], " +"), 10)
	}
	var num []byte
	for x, n := bf, 0; bs.Sign() > 0 && x.Cmp(bl) <= 0 || bs.Sign() < 0 && x.Cmp(bl) >= 0; n++ {
		if n&0xfff == 0 {
			if st := s.stop(); st >= 0 {
				return st
			}
		}
		s.line = s.line[:0]
		if s.printed {
			s.line = append(s.line, s.sep...)
		}
		num = x.Append(num[:0], 10)
		if num[0] == '-' {
			s.line = append(s.line, '-')
			num = num[1:]
		}
		for k := len(num); k < s.spec.width; k++ {
			s.line = append(s.line, '0')
		}
		s.line = append(s.line, num...)
		s.printed = true
		if _, err := s.w.Write(s.line); err != nil {
			return finishOutput(s.env, s.w, 1)
		}
		x.Add(x, bs)
	}
	return -1
}

// ints prints integers that int64 holds.
func (s *seqRun) ints(first, step, last int64) int {
	for i := int64(0); ; i++ {
		if i&0xfff == 0 {
			if st := s.stop(); st >= 0 {
				return st
			}
		}
		x := first + i*step
		if step > 0 && x > last || step < 0 && x < last {
			return -1
		}
		if !s.emit(0, x, true) {
			return finishOutput(s.env, s.w, 1)
		}
	}
}

// floats prints numbers in floating point.
func (s *seqRun) floats(first, step, last float64) int {
	for i := 0.0; ; i++ {
		if math.Mod(i, 4096) == 0 {
			if st := s.stop(); st >= 0 {
				return st
			}
		}
		x := first
		if i > 0 {
			x += i * step
		}
		if step > 0 && x > last || step < 0 && x < last {
			if i > 0 && s.extra(x, first+(i-1)*step, last) {
				s.emit(x, 0, false)
			}
			return -1
		}
		if !s.emit(x, 0, false) {
			return finishOutput(s.env, s.w, 1)
		}
		if x == last {
			return -1
		}
	}
}

// seqExact reports whether o is an integer that a double holds, as it
// does every sum of such numbers up to 2^53: double arithmetic then gives
// the long double's results.
func seqExact(o seqOperand) bool {
	return o.integer && o.i > -1<<53 && o.i < 1<<53
}

// seqShort reports whether double arithmetic prints what long double
// does with the default format %.Pf: the numbers are multiples of 10^-P
// (P the most digits after the point of the operands), and a double's
// error, under 2^-51 of the largest, stays far from half of 10^-P
// below 10^14 units of 10^-P (session 24: the long double path is five
// times slower).
func seqShort(first, step, last seqOperand) bool {
	p := max(first.prec, step.prec, last.prec)
	if first.prec < 0 || step.prec < 0 || last.prec < 0 || p > 14 {
		return false
	}
	bound := max(math.Abs(first.v), math.Abs(last.v)) + math.Abs(step.v)
	return bound*math.Pow10(p) < 1e14
}

// longs is floats in long double arithmetic, as GNU seq computes (its
// x = first + i * step, each operation rounded to 64 bits of mantissa):
// seq -f %.20g 0.1 0.1 0.3 prints 0.30000000000000000001 last.
func (s *seqRun) longs(first, step, last *big.Float) int {
	x := new(big.Float).SetPrec(64)
	prev := new(big.Float).SetPrec(64)
	fi := new(big.Float).SetPrec(64)
	for i := int64(0); ; i++ {
		if i&0xfff == 0 {
			if st := s.stop(); st >= 0 {
				return st
			}
		}
		prev.Set(x)
		if i == 0 {
			x.Set(first)
		} else {
			fi.SetInt64(i)
			x.Mul(fi, step)
			x.Add(first, x)
		}
		c := x.Cmp(last)
		if step.Sign() > 0 && c > 0 || step.Sign() < 0 && c < 0 {
			if i > 0 && s.extraLong(x, prev, last) {
				s.emitLong(x)
			}
			return -1
		}
		if !s.emitLong(x) {
			return finishOutput(s.env, s.w, 1)
		}
		if c == 0 {
			return -1
		}
	}
}

// emitLong is emit for a long double.
func (s *seqRun) emitLong(x *big.Float) bool {
	s.line = s.line[:0]
	if s.printed {
		s.line = append(s.line, s.sep...)
	}
	s.line = append(s.line, s.pre...)
	s.line = s.spec.appendLong(s.line, x)
	s.line = append(s.line, s.post...)
	s.printed = true
	_, err := s.w.Write(s.line)
	return err == nil
}

// extraLong is extra for long doubles.
func (s *seqRun) extraLong(x, prev, last *big.Float) bool {
	if s.post != "" {
		return false
	}
	xs := s.spec.appendLong(nil, x)
	v, _, err := big.ParseFloat(strings.TrimLeft(string(xs), " "), 0, 64, big.ToNearestEven)
	return err == nil && v.Cmp(last) == 0 && string(xs) != string(s.spec.appendLong(nil, prev))
}

// extra reports whether x, the first number past last, is printed all
// the same, as GNU does to undo rounding: when x formatted reads back as
// exactly last and looks different from prev, the number before it.
func (s *seqRun) extra(x, prev, last float64) bool {
	if s.post != "" {
		return false // GNU reads the whole line back: text after fails
	}
	xs := s.spec.append(nil, x)
	v, err := strconv.ParseFloat(strings.TrimLeft(string(xs), " "), 64)
	return err == nil && v == last && string(xs) != string(s.spec.append(nil, prev))
}

// seqBig reports whether the n operands are all decimal integers (-0
// is not: GNU prints it as the float it is).
func seqBig(ops []string, n int) bool {
	for _, a := range ops[:n] {
		a = strings.TrimLeft(a, " ")
		neg := strings.HasPrefix(a, "-")
		a = strings.TrimPrefix(strings.TrimPrefix(a, "+"), "-")
		if a == "" || headDigits(a) != len(a) || neg && strings.Trim(a, "0") == "" {
			return false
		}
	}
	return true
}

// seqAppendInt writes x as %0*.0f would: zero padded to width after the sign.
func seqAppendInt(dst []byte, x int64, width int) []byte {
	if x < 0 {
		dst = append(dst, '-')
		width--
		x = -x
	}
	var num [20]byte
	d := strconv.AppendInt(num[:0], x, 10)
	for n := len(d); n < width; n++ {
		dst = append(dst, '0')
	}
	return append(dst, d...)
}

// seqDefaultFormat is GNU seq's get_default_format: %.Pf with the larger
// precision of FIRST and INCREMENT, zero padded with -w, or %g when a
// precision is unknown.
func seqDefaultFormat(first, step, last seqOperand, equal bool) floatFormat {
	prec := max(first.prec, step.prec)
	if first.prec < 0 || step.prec < 0 || last.prec < 0 {
		return floatFormat{verb: 'g', prec: -1}
	}
	spec := floatFormat{verb: 'f', prec: prec}
	if equal {
		fw := first.width + (prec - first.prec)
		lw := last.width + (prec - last.prec)
		if last.prec > 0 && prec == 0 {
			lw--
		}
		if last.prec == 0 && prec > 0 {
			lw++
		}
		if first.prec == 0 && prec > 0 {
			fw++
		}
		spec.width = max(fw, lw)
		spec.zero = true
	}
	return spec
}
