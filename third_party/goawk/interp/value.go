// GoAWK interpreter value type (not exported).

package interp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

type valueType uint8

const (
	typeNull valueType = iota
	typeStr
	typeNum
	typeNumStr
)

// An AWK value (these are passed around by value)
type value struct {
	typ valueType // Type of value
	s   string    // String value (for typeStr and typeNumStr)
	n   float64   // Numeric value (for typeNum)
}

// Create a new null value
func null() value {
	return value{}
}

// Create a new number value
func num(n float64) value {
	return value{typ: typeNum, n: n}
}

// Create a new string value
func str(s string) value {
	return value{typ: typeStr, s: s}
}

// Create a new value to represent a "numeric string" from an input field
func numStr(s string) value {
	return value{typ: typeNumStr, s: s}
}

// Create a numeric value from a Go bool
func boolean(b bool) value {
	if b {
		return num(1)
	}
	return num(0)
}

// String returns a string representation of v for debugging.
func (v value) String() string {
	switch v.typ {
	case typeStr:
		return fmt.Sprintf("str(%q)", v.s)
	case typeNum:
		return fmt.Sprintf("num(%s)", v.str("%.6g"))
	case typeNumStr:
		return fmt.Sprintf("numStr(%q)", v.s)
	default:
		return "null()"
	}
}

// Return true if value is a "true string" (a string or a "numeric string"
// from an input field that can't be converted to a number). If false,
// also return the (possibly converted) number.
func (v value) isTrueStr() (float64, bool) {
	switch v.typ {
	case typeStr:
		return 0, true
	case typeNumStr:
		f, err := parseFloat(v.s)
		if err != nil {
			return 0, true
		}
		return f, false
	default: // typeNum, typeNull
		return v.n, false
	}
}

// Return Go bool value of AWK value. For numbers or numeric strings,
// zero is false and everything else is true. For strings, empty
// string is false and everything else is true.
func (v value) boolean() bool {
	switch v.typ {
	case typeStr:
		return v.s != ""
	case typeNumStr:
		f, err := parseFloat(v.s)
		if err != nil {
			return v.s != ""
		}
		return f != 0
	default: // typeNum, typeNull
		return v.n != 0
	}
}

// Like strconv.ParseFloat, but allow "+nan" and "-nan" (though they both
// return math.NaN()). Also disallow underscore digit separators.
//
// llmsh: as in gawk, hexadecimal ("0x1A") is not a number in input data
// (upstream accepted it), and nan/inf are numbers only with an explicit
// sign ("+inf", "-nan"; plain "inf" and "nan" are strings).
func parseFloat(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if len(s) > 1 && (s[0] == '+' || s[0] == '-') {
		if len(s) == 4 && hasNaNPrefix(s[1:]) {
			// ParseFloat doesn't handle "nan" with sign prefix, so handle it here.
			// llmsh: the sign is kept, as gawk prints it.
			return signedNaN(s[0] == '-'), nil
		}
		if len(s) > 2 && hasHexPrefix(s[1:]) {
			return 0, strconv.ErrSyntax
		}
	} else if len(s) > 1 && hasHexPrefix(s) {
		return 0, strconv.ErrSyntax
	} else if len(s) >= 3 && (hasNaNPrefix(s) || hasInfPrefix(s)) {
		return 0, strconv.ErrSyntax
	}
	n, err := strconv.ParseFloat(s, 64)
	if err == nil && strings.IndexByte(s, '_') >= 0 {
		// Underscore separators aren't supported by AWK.
		return 0, strconv.ErrSyntax
	}
	return n, err
}

// maxInt is mawk 1.3.4's Max_Int (llmsh): an integral value from -maxInt
// to maxInt converts to a string as an integer; one beyond, like any
// other number, by CONVFMT or OFMT (2^31 prints as 2.14748e+09), and
// printf's %d and %i clamp to that range (dToI).
const maxInt = math.MaxInt32

// dToI is mawk's d_to_I: d truncated, clamped to -maxInt..maxInt.
func dToI(d float64) int64 {
	switch {
	case d >= maxInt:
		return maxInt
	case d > -maxInt:
		return int64(d)
	}
	return -maxInt
}

// dToU is mawk's d_to_U, for %o %x %X %u: d truncated, clamped to
// 0..UINT_MAX.
func dToU(d float64) uint64 {
	switch {
	case d >= math.MaxUint32:
		return math.MaxUint32
	case d > 0:
		return uint64(d)
	}
	return 0
}

// Return value's string value, or convert to a string using given
// format if a number value. Integers are a special case and don't
// use floatFormat.
func (v value) str(floatFormat string) string {
	if v.typ == typeNum {
		switch {
		case math.IsNaN(v.n) || math.IsInf(v.n, 0):
			return nonFiniteString(v.n)
		case v.n == math.Trunc(v.n) && v.n >= -maxInt && v.n <= maxInt:
			return strconv.FormatInt(int64(v.n), 10)
		default:
			if floatFormat == "%.6g" {
				return strconv.FormatFloat(v.n, 'g', 6, 64)
			}
			return formatNumber(floatFormat, v.n)
		}
	}
	// For typeStr and typeNumStr we already have the string, for
	// typeNull v.s == "".
	return v.s
}

// Return value's number value, converting from string if necessary
func (v value) num() float64 {
	switch v.typ {
	case typeStr, typeNumStr:
		// Ensure string starts with a float and convert it
		return parseFloatPrefix(v.s)
	default: // typeNum, typeNull
		return v.n
	}
}

var asciiSpace = [256]uint8{'\t': 1, '\n': 1, '\v': 1, '\f': 1, '\r': 1, ' ': 1}

// Like strconv.ParseFloat, but parses at the start of string and
// allows things like "1.5foo"
func parseFloatPrefix(s string) float64 {
	// Skip whitespace at start
	i := 0
	for i < len(s) && asciiSpace[s[i]] != 0 {
		i++
	}
	start := i

	// Parse optional sign and check for NaN and Inf (llmsh: only after a
	// sign, as gawk).
	signed := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
		signed = true
	}
	if signed && i+3 <= len(s) {
		if hasNaNPrefix(s[i:]) {
			return signedNaN(s[start] == '-')
		}
		if hasInfPrefix(s[i:]) {
			if s[start] == '-' {
				return math.Inf(-1)
			}
			return math.Inf(1)
		}
	}

	// Parse mantissa: initial digit(s), optional '.', then more digits
	// (llmsh: "0x1A" is 0 followed by junk, as in gawk; upstream parsed hex)
	gotDigit := false
	for i < len(s) && isDigit(s[i]) {
		gotDigit = true
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
	}
	for i < len(s) && isDigit(s[i]) {
		gotDigit = true
		i++
	}
	if !gotDigit {
		return 0
	}

	// Parse exponent ("1e" and similar are allowed, but ParseFloat
	// rejects them)
	end := i
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		for i < len(s) && isDigit(s[i]) {
			i++
			end = i
		}
	}

	floatStr := s[start:end]
	f, _ := strconv.ParseFloat(floatStr, 64)
	return f // Returns infinity in case of "value out of range" error
}

func hasHexPrefix(s string) bool {
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X')
}

func hasNaNPrefix(s string) bool {
	return (s[0] == 'n' || s[0] == 'N') && (s[1] == 'a' || s[1] == 'A') && (s[2] == 'n' || s[2] == 'N')
}

func hasInfPrefix(s string) bool {
	return (s[0] == 'i' || s[0] == 'I') && (s[1] == 'n' || s[1] == 'N') && (s[2] == 'f' || s[2] == 'F')
}

func isDigit(c byte) bool {
	return c >= '0' && c <= '9'
}

// signedNaN is a NaN with the sign bit set when negative is true.
func signedNaN(negative bool) float64 {
	if negative {
		return math.Copysign(math.NaN(), -1)
	}
	return math.NaN()
}

// nonFiniteString is how mawk writes infinities and NaNs (C's printf):
// "inf", "-inf", "nan", "-nan" (llmsh).
func nonFiniteString(n float64) string {
	switch {
	case math.IsInf(n, 1):
		return "inf"
	case math.IsInf(n, -1):
		return "-inf"
	case math.Signbit(n):
		return "-nan"
	}
	return "nan"
}

// nonFinite formats an infinity or NaN for printf's %e %f %g as C does:
// its name (upper case for %E %F %G), the + and space flags, the width
// with blanks, never zeros (upstream passed it to fmt: "+Inf", "NaN").
type nonFinite float64

func (n nonFinite) Format(f fmt.State, verb rune) {
	s := nonFiniteString(float64(n))
	if s[0] != '-' {
		switch {
		case f.Flag('+'):
			s = "+" + s
		case f.Flag(' '):
			s = " " + s
		}
	}
	if verb == 'E' || verb == 'F' || verb == 'G' {
		s = strings.ToUpper(s)
	}
	if w, ok := f.Width(); ok && w > len(s) {
		pad := strings.Repeat(" ", w-len(s))
		if f.Flag('-') {
			s += pad
		} else {
			s = pad + s
		}
	}
	_, _ = f.Write([]byte(s))
}

// formatNumber converts n by CONVFMT or OFMT as C's sprintf would (llmsh):
// %d and %i print it truncated to an integer, %o %x %X and %u as an
// unsigned one, %g and %G with a precision of 6 unless one is given; a
// format without exactly one conversion of a number gives "%.6g".
// Upstream handed the format to fmt.Sprintf, which printed
// "%!d(float64=1.5)" for CONVFMT = "%d".
func formatNumber(format string, n float64) string {
	verb, at, precision := byte(0), -1, false
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
		for i < len(format) && strings.IndexByte(" .-+#0123456789", format[i]) >= 0 {
			precision = precision || format[i] == '.'
			i++
		}
		if i >= len(format) || at >= 0 {
			at = -1
			break
		}
		verb, at = format[i], i
	}
	if at < 0 {
		return strconv.FormatFloat(n, 'g', 6, 64)
	}
	with := func(goVerb string) string { return format[:at] + goVerb + format[at+1:] }
	switch verb {
	case 'd', 'i':
		return fmt.Sprintf(with("d"), dToI(n))
	case 'u':
		return fmt.Sprintf(with("d"), dToU(n))
	case 'o', 'x', 'X':
		return fmt.Sprintf(format, dToU(n))
	case 'e', 'E', 'f':
		return fmt.Sprintf(format, n)
	case 'F':
		return fmt.Sprintf(with("f"), n)
	case 'g', 'G':
		if !precision {
			return fmt.Sprintf(with(".6"+string(verb)), n)
		}
		return fmt.Sprintf(format, n)
	}
	return strconv.FormatFloat(n, 'g', 6, 64)
}
