package builtins

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
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
func parseFloatFormat(format string) (pre string, spec floatFormat, post string, err error) {
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
			return "", spec, "", fmt.Errorf("format %s has too many %% directives", gnu.Quote(format))
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
			return "", spec, "", fmt.Errorf("format %s ends in %%", gnu.Quote(format))
		}
		if strings.IndexByte("eEfFgGaA", format[j]) < 0 {
			// GNU names the conversion character alone.
			return "", spec, "", fmt.Errorf("format %s has unknown %%%s directive", gnu.Quote(format), format[j:j+1])
		}
		spec.verb = format[j]
		pre = b.String()
		b.Reset()
		i = j
	}
	if !found {
		return "", spec, "", fmt.Errorf("format %s has no %% directive", gnu.Quote(format))
	}
	return pre, spec, b.String(), nil
}

// append formats v as C's printf does and appends it to dst.
func (s *floatFormat) append(dst []byte, v float64) []byte {
	var body []byte
	neg := math.Signbit(v) && !math.IsNaN(v)
	a := math.Abs(v)
	upper := s.verb >= 'A' && s.verb <= 'Z'
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
	if upper {
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
