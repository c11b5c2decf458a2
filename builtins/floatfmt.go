package builtins

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// floatFormat is one C printf floating-point conversion: %[flags][width][.prec]verb.
type floatFormat struct {
	minus, plus, space, zero, alt bool
	width, prec                   int // prec -1: the default
	verb                          byte
}

// parseFloatFormat splits a printf format holding exactly one floating
// conversion (%e %f %g %a and capitals; "%%" is a literal percent) into
// the text before it, the conversion and the text after it. The error is
// GNU seq's wording without the command name.
func parseFloatFormat(env *Env, format string) (pre string, spec floatFormat, post string, err error) {
	var b strings.Builder
	found := false
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		if found {
			return "", spec, "", fmt.Errorf("format %s has too many %% directives", env.Quote(format))
		}
		found = true
		j := i + 1
		for ; j < len(format) && strings.IndexByte("-+ 0#'", format[j]) >= 0; j++ {
			switch format[j] {
			case '-':
				spec.minus = true
			case '+':
				spec.plus = true
			case ' ':
				spec.space = true
			case '0':
				spec.zero = true
			case '#':
				spec.alt = true
			}
		}
		k := j
		for ; j < len(format) && format[j] >= '0' && format[j] <= '9'; j++ {
		}
		spec.width, _ = strconv.Atoi(format[k:j])
		spec.prec = -1
		if j < len(format) && format[j] == '.' {
			j++
			k = j
			for ; j < len(format) && format[j] >= '0' && format[j] <= '9'; j++ {
			}
			spec.prec, _ = strconv.Atoi(format[k:j])
		}
		if j < len(format) && format[j] == 'L' {
			j++
		}
		if j >= len(format) {
			return "", spec, "", fmt.Errorf("format %s ends in %%", env.Quote(format))
		}
		if strings.IndexByte("eEfFgGaA", format[j]) < 0 {
			// GNU names the conversion character alone.
			return "", spec, "", fmt.Errorf("format %s has unknown %%%s directive", env.Quote(format), format[j:j+1])
		}
		spec.verb = format[j]
		pre = b.String()
		b.Reset()
		i = j
	}
	if !found {
		return "", spec, "", fmt.Errorf("format %s has no %% directive", env.Quote(format))
	}
	return pre, spec, b.String(), nil
}

// append formats v as C's printf does and appends it to dst.
func (s *floatFormat) append(dst []byte, v float64) []byte {
	var body []byte
	neg := math.Signbit(v) && !math.IsNaN(v)
	a := math.Abs(v)
	special := math.IsInf(v, 0) || math.IsNaN(v)
	switch {
	case math.IsInf(v, 0):
		body = []byte("inf")
	case math.IsNaN(v):
		body = []byte("nan")
	default:
		prec := s.prec
		switch s.verb | 0x20 {
		case 'f':
			if prec < 0 {
				prec = 6
			}
			body = strconv.AppendFloat(nil, a, 'f', prec, 64)
			if s.alt && prec == 0 {
				body = append(body, '.')
			}
		case 'e':
			if prec < 0 {
				prec = 6
			}
			body = strconv.AppendFloat(nil, a, 'e', prec, 64)
			if s.alt && prec == 0 {
				i := bytes.IndexByte(body, 'e')
				body = append(body[:i], append([]byte{'.'}, body[i:]...)...)
			}
		case 'g':
			if prec < 0 {
				prec = 6
			}
			if prec == 0 {
				prec = 1
			}
			e := strconv.AppendFloat(nil, a, 'e', prec-1, 64)
			x, _ := strconv.Atoi(string(e[bytes.IndexByte(e, 'e')+1:]))
			if x < prec && x >= -4 {
				body = strconv.AppendFloat(nil, a, 'f', prec-1-x, 64)
				if !s.alt && bytes.IndexByte(body, '.') >= 0 {
					body = bytes.TrimRight(body, "0")
					body = bytes.TrimSuffix(body, []byte("."))
				}
			} else {
				body = e
				if !s.alt {
					i := bytes.IndexByte(body, 'e')
					m := body[:i]
					if bytes.IndexByte(m, '.') >= 0 {
						m = bytes.TrimRight(m, "0")
						m = bytes.TrimSuffix(m, []byte("."))
					}
					body = append(append([]byte{}, m...), body[i:]...)
				}
			}
		case 'a':
			body = strconv.AppendFloat(nil, a, 'x', prec, 64)
			// C writes the exponent without leading zeros: 0x1p+0.
			if i := bytes.IndexAny(body, "pP"); i >= 0 && i+3 < len(body)+1 {
				exp := bytes.TrimLeft(body[i+2:], "0")
				if len(exp) == 0 {
					exp = []byte("0")
				}
				body = append(body[:i+2], exp...)
			}
		}
	}
	return s.pad(dst, body, neg, special)
}

// pad appends body (the digits, without sign) with the sign and the
// padding that the flags and width ask for.
func (s *floatFormat) pad(dst, body []byte, neg, special bool) []byte {
	if s.verb >= 'A' && s.verb <= 'Z' {
		body = bytes.ToUpper(body)
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case s.plus:
		sign = "+"
	case s.space:
		sign = " "
	}
	pad := s.width - len(sign) - len(body)
	switch {
	case pad <= 0:
		dst = append(dst, sign...)
		dst = append(dst, body...)
	case s.minus:
		dst = append(dst, sign...)
		dst = append(dst, body...)
		dst = append(dst, strings.Repeat(" ", pad)...)
	case s.zero && !special:
		dst = append(dst, sign...)
		if s.verb|0x20 == 'a' && len(body) > 2 {
			dst = append(dst, body[:2]...)
			body = body[2:]
		}
		dst = append(dst, strings.Repeat("0", pad)...)
		dst = append(dst, body...)
	default:
		dst = append(dst, strings.Repeat(" ", pad)...)
		dst = append(dst, sign...)
		dst = append(dst, body...)
	}
	return dst
}

// appendLong is append for a long double of 64 bits of mantissa, which x
// holds exactly (glibc's printf of a long double: %La writes the first
// four bits before the point, 0xc.ccccccccccccccdp-7 for 0.1).
func (s *floatFormat) appendLong(dst []byte, x *big.Float) []byte {
	a := new(big.Float).Abs(x)
	prec := s.prec
	if prec < 0 && s.verb|0x20 != 'a' {
		prec = 6
	}
	var body []byte
	switch s.verb | 0x20 {
	case 'f':
		body = a.Append(nil, 'f', prec)
		if s.alt && prec == 0 {
			body = append(body, '.')
		}
	case 'e':
		body = a.Append(nil, 'e', prec)
		if s.alt && prec == 0 {
			i := bytes.IndexByte(body, 'e')
			body = append(body[:i], append([]byte{'.'}, body[i:]...)...)
		}
	case 'g':
		prec = max(prec, 1)
		e := a.Append(nil, 'e', prec-1)
		x, _ := strconv.Atoi(string(e[bytes.IndexByte(e, 'e')+1:]))
		if x < prec && x >= -4 {
			body = a.Append(nil, 'f', prec-1-x)
		} else {
			body = e
		}
		if !s.alt {
			body = trimFloatZeros(body)
		}
	case 'a':
		body = hexLong(a, prec)
		if s.alt && bytes.IndexByte(body, '.') < 0 {
			i := bytes.IndexByte(body, 'p')
			body = append(body[:i], append([]byte{'.'}, body[i:]...)...)
		}
	}
	return s.pad(dst, body, x.Signbit(), false)
}

// trimFloatZeros drops the trailing zeros of the fraction of a %f or %e
// body, and a point left alone (%g without '#').
func trimFloatZeros(body []byte) []byte {
	i := bytes.IndexByte(body, 'e')
	if i < 0 {
		i = len(body)
	}
	m := body[:i]
	if bytes.IndexByte(m, '.') < 0 {
		return body
	}
	m = bytes.TrimSuffix(bytes.TrimRight(m, "0"), []byte("."))
	return append(append([]byte{}, m...), body[i:]...)
}

// hexLong writes a (not negative) as glibc's %La does for an x87 long
// double: the mantissa's top four bits, a point and the other 60 bits in
// 15 hex digits (prec of them, rounded to even; all but trailing zeros
// when prec < 0), then p and the binary exponent.
func hexLong(a *big.Float, prec int) []byte {
	if a.Sign() == 0 {
		b := []byte("0x0")
		if prec > 0 {
			b = append(append(b, '.'), strings.Repeat("0", prec)...)
		}
		return append(b, "p+0"...)
	}
	m := new(big.Float).SetPrec(64)
	exp := a.MantExp(m) // a = m * 2^exp, 0.5 <= m < 1
	mi, _ := new(big.Float).SetMantExp(m, 64).Int(nil)
	u := mi.Uint64() // the 64 bits, the top one set
	exp -= 4         // a = u/2^60 * 2^exp
	digits := 15
	if prec >= 0 && prec < 15 {
		drop := uint(4 * (15 - prec))
		rest, half := u&(1<<drop-1), uint64(1)<<(drop-1)
		u >>= drop
		if rest > half || rest == half && u&1 == 1 {
			u++
		}
		digits = prec
		if u>>(4*uint(prec)) >= 16 {
			// 0xf.f rounded up: glibc writes 0x10.0 as 0x1.0 and
			// the exponent 4 more.
			u >>= 4
			exp += 4
		}
	}
	lead := u >> (4 * uint(digits))
	frac := ""
	if digits > 0 {
		frac = strconv.FormatUint(u&(1<<(4*uint(digits))-1), 16)
		frac = strings.Repeat("0", digits-len(frac)) + frac
	}
	if prec < 0 {
		frac = strings.TrimRight(frac, "0")
	} else if prec > 15 {
		frac += strings.Repeat("0", prec-15)
	}
	b := append([]byte("0x"), strconv.FormatUint(lead, 16)...)
	if frac != "" {
		b = append(append(b, '.'), frac...)
	}
	b = append(b, 'p')
	if exp >= 0 {
		b = append(b, '+')
	}
	return strconv.AppendInt(b, int64(exp), 10)
}
