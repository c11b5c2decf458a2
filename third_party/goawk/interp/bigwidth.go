package interp

import (
	"fmt"
	"strings"
)

// llmsh: printf widths and precisions past what Go's fmt takes. fmt
// refuses a width or precision that grows past 10^6 as it reads it (so
// about 10^7 at most) and prints "%!(NOVERB)%!(EXTRA int64=1)" for
// printf "%100000000d", or "%!(BADWIDTH)" for a * of 10^8; C's printf,
// and so mawk, pad to any width that fits an int. A conversion with such
// a number is formatted without it here, then padded as C does.

// fmtNumMax is the largest width or precision handed to fmt.
const fmtNumMax = 1000000

// fmtExactDigits is a precision past every digit a float64 has after
// its point (1074 at most): more only adds zeros, here.
const fmtExactDigits = 1100

// fmtSpec is one conversion of a format that parseFmtTypes made.
type fmtSpec struct {
	flags       string
	width, prec int // -1: none
	verb        byte
	args        int // the arguments it takes (the *s and the value)
}

// parseFmtSpec reads the conversion after the '%' at f[i-1]; width and
// precision are those written, or -2 for a '*'.
func parseFmtSpec(f string, i int) (s fmtSpec, next int) {
	s.width, s.prec = -1, -1
	for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
		s.flags += f[i : i+1]
		i++
	}
	num := func() int {
		if i < len(f) && f[i] == '*' {
			i++
			s.args++
			return -2
		}
		n := 0
		for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
			n = min(n*10+int(f[i]-'0'), 1<<31)
		}
		return n
	}
	if i < len(f) && (f[i] == '*' || f[i] >= '0' && f[i] <= '9') {
		s.width = num()
	}
	if i < len(f) && f[i] == '.' {
		i++
		s.prec = num()
	}
	if i < len(f) {
		s.verb = f[i]
		i++
	}
	s.args++
	return s, i
}

// starArg is the int value of a '*' argument.
func starArg(v interface{}) int {
	switch n := v.(type) {
	case int64:
		return int(max(min(n, 1<<31), -1<<31))
	case uint64:
		return int(min(n, 1<<31))
	}
	return 0
}

// fmtBig reports whether a conversion of format, with the arguments
// converted, has a width or precision that fmt would refuse, or whether
// their sum passes fmtNumMax: such a format goes through sprintfBig,
// which stops at MaxString (session 33, review: "%999999d" a thousand
// times made a gigabyte in one fmt.Sprintf, which no guard can stop).
// A format with no * and no number of 3 digits or more is never big:
// its padding is under 100 times its length.
func fmtBig(format string, converted []interface{}) bool {
	if !strings.Contains(format, "*") && !longDigits(format, 3) {
		return false
	}
	arg, total := 0, 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			i++
			continue
		}
		s, next := parseFmtSpec(format, i+1)
		w, p := s.width, s.prec
		if w == -2 && arg < len(converted) {
			w = starArg(converted[arg])
			arg++
		}
		if p == -2 && arg < len(converted) {
			p = starArg(converted[arg])
			arg++
		}
		if w > fmtNumMax || w < -fmtNumMax || p > fmtNumMax {
			return true
		}
		if total += max(w, -w, precOut(s.verb, s.flags, p)); total > fmtNumMax {
			return true
		}
		arg++
		i = next - 1
	}
	return false
}

// precOut is what precision p adds to the output of a conversion by
// verb with flags: the digits of an integer or a fixed or exponent
// float, or of %#g; nothing for %s, %c and %g without '#', which it
// only cuts.
func precOut(verb byte, flags string, p int) int {
	switch {
	case strings.IndexByte("diouxXeEfF", verb) >= 0:
		return p
	case (verb == 'g' || verb == 'G') && strings.Contains(flags, "#"):
		return p
	}
	return 0
}

// longDigits reports whether f has a run of n digits or more.
func longDigits(f string, n int) bool {
	run := 0
	for i := 0; i < len(f); i++ {
		if f[i] < '0' || f[i] > '9' {
			run = 0
		} else if run++; run >= n {
			return true
		}
	}
	return false
}

// sprintfBig is fmt.Sprintf(format, converted...) for a format that
// fmtBig found: each conversion is formatted on its own, the numbers
// past fmtNumMax applied here. The result may not pass MaxString, as a
// concatenation may not (a width of 2^33 was one allocation of 8 GB,
// which no context or memory guard could stop).
func sprintfBig(format string, converted []interface{}) (string, error) {
	var b strings.Builder
	arg := 0
	next := func() interface{} {
		if arg < len(converted) {
			arg++
			return converted[arg-1]
		}
		return nil
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		s, end := parseFmtSpec(format, i+1)
		i = end - 1
		if s.width == -2 {
			if s.width = starArg(next()); s.width < 0 {
				s.flags += "-" // C: a negative * width is the - flag
				s.width = -s.width
			}
		}
		if s.prec == -2 {
			if s.prec = starArg(next()); s.prec < 0 {
				s.prec = -1 // C: a negative * precision is none
			}
		}
		if max(s.width, precOut(s.verb, s.flags, s.prec)) > MaxString-b.Len() {
			return "", errStringTooLong()
		}
		b.WriteString(formatBig(s, next()))
		if b.Len() > MaxString {
			return "", errStringTooLong()
		}
	}
	return b.String(), nil
}

// formatBig formats v by s, as C's printf would.
func formatBig(s fmtSpec, v interface{}) string {
	prec, extra := s.prec, 0
	_, nonFin := v.(nonFinite)
	switch {
	case prec <= fmtNumMax:
	case strings.IndexByte("eEfF", s.verb) >= 0 && !nonFin:
		prec, extra = fmtExactDigits, prec-fmtExactDigits
	case strings.IndexByte("gG", s.verb) >= 0 && !nonFin:
		prec = fmtExactDigits // no more digits: %g drops the zeros
		if strings.Contains(s.flags, "#") {
			extra = s.prec - fmtExactDigits // which # keeps
		}
	case strings.IndexByte("dxXo", s.verb) >= 0:
		prec, extra = -1, prec // as many digits, zeros before them (addZeros)
	default:
		prec = -1 // %s and %c: a precision past the string cuts nothing
	}
	spec := "%" + s.flags
	if s.width >= 0 && s.width <= fmtNumMax {
		spec += fmt.Sprint(s.width)
	}
	if prec >= 0 {
		spec += "." + fmt.Sprint(prec)
	}
	out := fmt.Sprintf(spec+string(s.verb), v)
	if extra > 0 {
		out = addZeros(out, s.verb, extra)
	}
	if s.width > fmtNumMax && len(out) < s.width {
		out = padTo(out, s, nonFin, s.width)
	}
	return out
}

// addZeros adds n zeros to a formatted number: after the fraction's
// digits for %f (and %#g), before the exponent for %e; an integer gets
// zeros before its digits (after its sign or 0x) up to n digits.
func addZeros(out string, verb byte, n int) string {
	switch verb {
	case 'f', 'F':
		return out + strings.Repeat("0", n)
	case 'e', 'E', 'g', 'G':
		if k := strings.LastIndexAny(out, "eE"); k >= 0 {
			return out[:k] + strings.Repeat("0", n) + out[k:]
		}
		return out + strings.Repeat("0", n)
	}
	// An integer: n is the precision, the least number of digits.
	k := numStart(out)
	if n -= len(out) - k; n <= 0 {
		return out
	}
	return out[:k] + strings.Repeat("0", n) + out[k:]
}

// numStart is where the digits of a formatted number begin: past its
// sign, blank and 0x prefix.
func numStart(out string) int {
	k := 0
	for k < len(out) && strings.IndexByte("+- ", out[k]) >= 0 {
		k++
	}
	if strings.HasPrefix(out[k:], "0x") || strings.HasPrefix(out[k:], "0X") {
		k += 2
	}
	return k
}

// padTo pads out to width: blanks after it under -, zeros after its
// sign under 0 (a number, without a precision for an integer), blanks
// before it otherwise.
func padTo(out string, s fmtSpec, nonFin bool, width int) string {
	n := width - len(out)
	switch {
	case strings.Contains(s.flags, "-"):
		return out + strings.Repeat(" ", n)
	case strings.Contains(s.flags, "0") && !nonFin && strings.IndexByte("sc", s.verb) < 0 &&
		(s.prec < 0 || strings.IndexByte("dxXo", s.verb) < 0):
		k := numStart(out)
		return out[:k] + strings.Repeat("0", n) + out[k:]
	}
	return strings.Repeat(" ", n) + out
}
