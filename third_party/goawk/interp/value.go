// GoAWK interpreter value type (not exported).

package interp

import (
	"fmt"
	"io"
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

// parseFloat is mawk 1.3.4's test of a "numeric string" (check_strnum):
// after blanks at both ends, the text must begin with a digit, a sign or a
// dot, end with a digit or a dot, and strtod must read all of it. So "1e3",
// " 12 ", "0x10" and "0x1p2" are numbers, while "0x1A" (ends with a letter),
// "inf", "+inf" and "nan" are strings.
//
// llmsh: upstream accepted what Go's ParseFloat accepts (hexadecimal with
// digits only, "+nan" and "-inf"); session 16 made it gawk's rules.
func parseFloat(s string) (float64, error) {
	i, j := 0, len(s)
	for i < j && strnumSpace(s[i]) {
		i++
	}
	for j > i && strnumSpace(s[j-1]) {
		j--
	}
	if i == j {
		return 0, strconv.ErrSyntax
	}
	if last := s[j-1]; !isDigit(last) && last != '.' {
		return 0, strconv.ErrSyntax
	}
	if first := s[i]; !isDigit(first) && first != '+' && first != '-' && first != '.' {
		return 0, strconv.ErrSyntax
	}
	f, n := strtod(s[i:j])
	if n != j-i {
		return 0, strconv.ErrSyntax
	}
	return f, nil
}

// strnumSpace is mawk's SC_SPACE class: the blanks that check_strnum skips
// (not a newline).
func strnumSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'
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
			return formatNumber(floatFormat, v.n)
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

// parseFloatPrefix converts a string to a number as mawk 1.3.4 does, with
// glibc's strtod: leading white space, a sign, then "inf", "infinity",
// "nan" (case-insensitive), a hexadecimal number ("0x1A", "0x1.8p3") or a
// decimal one; what follows is ignored ("1.5foo" is 1.5), and text with no
// number is 0.
//
// llmsh: upstream read decimals only; session 16 made nan and inf need a
// sign, as gawk.
func parseFloatPrefix(s string) float64 {
	i := 0
	for i < len(s) && asciiSpace[s[i]] != 0 {
		i++
	}
	f, _ := strtod(s[i:])
	return f
}

// strtod reads the longest number at the start of s as glibc's strtod
// does (after its white space) and returns it and how many bytes it
// read: 0 when s starts with no number. A value out of range is an
// infinity or zero.
func strtod(s string) (float64, int) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var (
		f float64
		n int
	)
	switch rest := s[i:]; {
	case len(rest) >= 3 && hasInfPrefix(rest):
		f, n = math.Inf(1), 3
		if len(rest) >= 8 && strings.EqualFold(rest[:8], "infinity") {
			n = 8
		}
	case len(rest) >= 3 && hasNaNPrefix(rest):
		f, n = math.NaN(), 3
		if k := nanCharsEnd(rest[3:]); k > 0 {
			n += k
		}
	case len(rest) >= 3 && hasHexPrefix(rest) && (isHexDigit(rest[2]) ||
		rest[2] == '.' && len(rest) > 3 && isHexDigit(rest[3])):
		f, n = hexPrefix(rest)
	default:
		f, n = decimalPrefix(rest)
	}
	if n == 0 {
		return 0, 0
	}
	if neg {
		f = -f
	}
	return f, i + n
}

// nanCharsEnd is the length of a "(n-char-sequence)" at the start of s
// (what strtod accepts after "nan"), or 0.
func nanCharsEnd(s string) int {
	if s == "" || s[0] != '(' {
		return 0
	}
	for k := 1; k < len(s); k++ {
		c := s[k]
		switch {
		case c == ')':
			return k + 1
		case isDigit(c), c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		default:
			return 0
		}
	}
	return 0
}

// decimalPrefix reads digits, an optional point and more digits (at least
// one digit in all), then an optional exponent that has digits.
func decimalPrefix(s string) (float64, int) {
	i := 0
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
		return 0, 0
	}
	end := exponentEnd(s, i, 'e', 'E')
	f, _ := strconv.ParseFloat(s[:end], 64)
	return f, end // infinity when out of range
}

// exponentEnd is where an exponent ("e12", "p-3") that starts at i ends,
// or i when there is none with digits.
func exponentEnd(s string, i int, lower, upper byte) int {
	if i >= len(s) || s[i] != lower && s[i] != upper {
		return i
	}
	k := i + 1
	if k < len(s) && (s[k] == '+' || s[k] == '-') {
		k++
	}
	if k >= len(s) || !isDigit(s[k]) {
		return i
	}
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	return k
}

// hexPrefix reads a hexadecimal number, "0x" then hexadecimal digits with
// an optional point and an optional binary exponent ("p3"); the caller
// has checked that a digit follows the "0x" (or its point).
func hexPrefix(s string) (float64, int) {
	i := 2
	for i < len(s) && isHexDigit(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isHexDigit(s[i]) {
			i++
		}
	}
	end := exponentEnd(s, i, 'p', 'P')
	text := s[:end]
	if end == i {
		text += "p0" // Go's ParseFloat needs the exponent
	}
	f, _ := strconv.ParseFloat(text, 64)
	return f, end
}

func isHexDigit(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
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

// nonFiniteString is how C's printf, and so mawk, writes an infinity or a
// NaN by %f, %e or %g: "inf", "-inf", "nan", or "-nan" for a NaN with its
// sign bit set (llmsh: session 16 wrote gawk's "+inf" and "+nan").
func nonFiniteString(n float64) string {
	s := "nan"
	if math.IsInf(n, 0) {
		s = "inf"
	}
	if math.Signbit(n) {
		return "-" + s
	}
	return s
}

// nonFinite formats an infinity or NaN for printf's %e %f %g (and their
// capitals) as C's printf does: the flags + and space give the sign of a
// positive one, the width pads with spaces (left with -, never zeros), the
// precision is ignored (upstream passed it to fmt: "+Inf", "NaN").
type nonFinite float64

func (n nonFinite) Format(f fmt.State, verb rune) {
	s := nonFiniteString(float64(n))
	if !math.Signbit(float64(n)) {
		if f.Flag('+') {
			s = "+" + s
		} else if f.Flag(' ') {
			s = " " + s
		}
	}
	if verb == 'E' || verb == 'G' || verb == 'F' || verb == 'X' {
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
	_, _ = io.WriteString(f, s)
}

// x86NaN is the NaN that x86's arithmetic makes (sign bit set): mawk
// prints 0/0 and 5%0 as "-nan". (A function: a package variable of it was
// code in the package's init.)
func x86NaN() float64 { return math.Float64frombits(0xfff8000000000000) }

// divide is mawk's l / r: IEEE's result, an infinity or -nan for a zero
// divisor (llmsh: upstream's fatal "division by zero", as gawk).
func divide(l, r float64) float64 {
	q := l / r
	if math.IsNaN(q) && !math.IsNaN(l) && !math.IsNaN(r) {
		return x86NaN()
	}
	return q
}

// modulo is mawk's l % r, C's fmod: -nan for a zero divisor or an
// infinite dividend (llmsh: upstream's fatal "division by zero in mod").
func modulo(l, r float64) float64 {
	switch {
	case math.IsNaN(l):
		return l
	case math.IsNaN(r):
		return r
	case r == 0 || math.IsInf(l, 0):
		return x86NaN()
	}
	return math.Mod(l, r)
}

// formatNumber converts n by CONVFMT or OFMT as C's sprintf would (llmsh):
// %d and %i print it truncated to an integer, %o %x %X and %u as an
// unsigned one, %g and %G with a precision of 6 unless one is given; a
// format without exactly one conversion of a number gives "%.6g".
// Upstream handed the format to fmt.Sprintf, which printed
// "%!d(float64=1.5)" for CONVFMT = "%d".
func formatNumber(format string, n float64) string {
	special := math.IsNaN(n) || math.IsInf(n, 0)
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
		if special {
			return nonFiniteString(n)
		}
		return strconv.FormatFloat(n, 'g', 6, 64)
	}
	var fv any = n // llmsh: C's inf and nan by the float verbs
	if special {
		fv = nonFinite(n)
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
		return fmt.Sprintf(format, fv)
	case 'F':
		return fmt.Sprintf(with("f"), fv)
	case 'g', 'G':
		if !precision {
			return fmt.Sprintf(with(".6"+string(verb)), fv)
		}
		return fmt.Sprintf(format, fv)
	}
	if special {
		return nonFiniteString(n)
	}
	return strconv.FormatFloat(n, 'g', 6, 64)
}
