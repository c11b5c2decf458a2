package builtins

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

func init() {
	Register(Builtin{Name: "seq", Summary: "print a sequence of numbers", Run: seq})
}

// seqOperand is a parsed number with the width and precision GNU seq
// derives from how it was written (prec -1: unknown, as for hex or inf).
type seqOperand struct {
	v           float64
	width, prec int
	integer     bool // plain decimal integer that fits in an int64
	i           int64
}

func seqParse(arg string) (seqOperand, error) {
	op := seqOperand{prec: -1}
	s := strings.TrimLeft(arg, " \t\n\v\f\r")
	num := s
	hex := strings.ContainsAny(s, "xX")
	if hex && !strings.ContainsAny(s, "pP") && !strings.ContainsAny(strings.ToLower(s), "in") {
		num += "p0"
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || strings.Contains(s, "_") {
		return op, fmt.Errorf("invalid floating point argument: %s", gnu.Quote(arg))
	}
	if math.IsNaN(v) {
		return op, fmt.Errorf("invalid 'not-a-number' argument: %s", gnu.Quote(arg))
	}
	op.v = v
	if i, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64); err == nil && i > -1<<62 && i < 1<<62 {
		op.integer, op.i = true, i
	}
	op.width = len(arg)
	if hex || math.IsInf(v, 0) {
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

func seq(env *Env) int {
	f := NewFlags(env, "Print numbers from FIRST to LAST, in steps of INCREMENT.", "[OPTION]... LAST", "[OPTION]... FIRST LAST", "[OPTION]... FIRST INCREMENT LAST")
	f.StopAtOperand = true
	format, hasFormat := f.String('f', "format", "FORMAT", "use printf style floating-point FORMAT")
	sep := "\n"
	f.StringVar(&sep, 's', "separator", "STRING", "use STRING to separate numbers (default: \\n)")
	equal := f.Bool('w', "equal-width", "equalize width by padding with leading zeroes")
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
		return f.Fail(&UsageError{"extra operand " + gnu.Quote(ops[3])}, 1)
	}
	first, step := seqOperand{v: 1, width: 1, prec: 0, integer: true, i: 1}, seqOperand{v: 1, width: 1, prec: 0, integer: true, i: 1}
	var last seqOperand
	parsed := make([]seqOperand, len(ops))
	for i, a := range ops {
		if parsed[i], err = seqParse(a); err != nil {
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
		if step.v == 0 {
			return f.Fail(&UsageError{"invalid Zero increment value: " + gnu.Quote(ops[1])}, 1)
		}
	}
	if *hasFormat && *equal {
		env.Errorf("format string may not be specified when printing equal width strings")
		fmt.Fprintf(env.Stderr, "Try '%s --help' for more information.\n", env.Name())
		return 1
	}
	var pre, post string
	var spec floatFormat
	if *hasFormat {
		if pre, spec, post, err = parseFloatFormat(*format); err != nil {
			env.Errorf("%s", err)
			return 1
		}
	} else {
		spec = seqDefaultFormat(first, step, last, *equal)
	}
	w := stdoutWriter(env)
	var line []byte
	printed := false
	emit := func(x float64, xi int64, isInt bool) bool {
		line = line[:0]
		if printed {
			line = append(line, sep...)
		}
		line = append(line, pre...)
		if isInt {
			line = seqAppendInt(line, xi, spec.width)
		} else {
			line = spec.append(line, x)
		}
		line = append(line, post...)
		printed = true
		_, err := w.Write(line)
		return err == nil
	}
	if seqBig(ops, len(parsed)) && !*hasFormat && !(first.integer && step.integer && last.integer) {
		// Integers beyond int64: count exactly, as GNU does with digit strings.
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
			if n&0xfff == 0 && env.Ctx.Err() != nil {
				w.Flush()
				return 1
			}
			line = line[:0]
			if printed {
				line = append(line, sep...)
			}
			num = x.Append(num[:0], 10)
			if num[0] == '-' {
				line = append(line, '-')
				num = num[1:]
			}
			for k := len(num); k < spec.width; k++ {
				line = append(line, '0')
			}
			line = append(line, num...)
			printed = true
			if _, err := w.Write(line); err != nil {
				return finishOutput(env, w, 1)
			}
			x.Add(x, bs)
		}
	} else if first.integer && step.integer && last.integer && !*hasFormat {
		for i := int64(0); ; i++ {
			if i&0xfff == 0 && env.Ctx.Err() != nil {
				w.Flush()
				return 1
			}
			x := first.i + i*step.i
			if step.i > 0 && x > last.i || step.i < 0 && x < last.i {
				break
			}
			if !emit(0, x, true) {
				return finishOutput(env, w, 1)
			}
		}
	} else {
		for i := 0.0; ; i++ {
			if math.Mod(i, 4096) == 0 && env.Ctx.Err() != nil {
				w.Flush()
				return 1
			}
			x := first.v
			if i > 0 {
				x += i * step.v
			}
			if step.v > 0 && x > last.v || step.v < 0 && x < last.v {
				// Print LAST when rounding took x just past it but both
				// look the same once formatted, as GNU does.
				if i > 0 && string(spec.append(nil, x)) == string(spec.append(nil, last.v)) {
					emit(last.v, 0, false)
				}
				break
			}
			if !emit(x, 0, false) {
				return finishOutput(env, w, 1)
			}
			if x == last.v {
				break
			}
		}
	}
	if printed {
		w.WriteString("\n")
	}
	return finishOutput(env, w, 0)
}

// seqBig reports whether the n operands are all decimal integers.
func seqBig(ops []string, n int) bool {
	for _, a := range ops[:n] {
		a = strings.TrimLeft(a, " ")
		a = strings.TrimPrefix(strings.TrimPrefix(a, "+"), "-")
		if a == "" || headDigits(a) != len(a) {
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
