package gnu

import "strings"

// Escapes is one command's set of C backslash escapes: which it decodes
// and how. The zero value decodes none (each backslash stays as it is).
type Escapes struct {
	// Letters are the one-letter escapes decoded: any of a b e E f n r t
	// v (the C controls, e and E ESC), \ " ' ? (themselves), q (a double
	// quote, bc's) and 0 (a NUL byte with no digits after it).
	Letters string
	// Octal is the most digits of an escape \NNN that starts with 1–7
	// (or 0 when Octal0 is 0): \101 is 'A'. 0 decodes none.
	Octal int
	// Octal0 is the most digits after the 0 of \0NNN (echo -e, printf
	// %b); 0 leaves \0 to Octal.
	Octal0 int
	// Hex is the most digits of \xHH; 0 decodes none. \x without a digit
	// is not an escape.
	Hex int
	// Unicode decodes \uHHHH and \UHHHHHHHH with it (nil: none).
	Unicode func(dst []byte, v uint32) []byte
	// Stop is the letter that ends the output (echo's and %b's \c), 0 for
	// none.
	Stop byte
	// DropUnknown drops the backslash of an escape it does not know (\z
	// is z) instead of keeping both.
	DropUnknown bool
	// Unknown, when set, is told of each escape Decode does not know
	// (GNU stat warns of them).
	Unknown func(c byte)
}

// letterValue is the byte that the one-letter escape c stands for.
func letterValue(c byte) (byte, bool) {
	switch c {
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'e', 'E':
		return 0x1b, true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case '\\', '"', '\'', '?':
		return c, true
	case 'q':
		return '"', true
	case '0':
		return 0, true
	}
	return 0, false
}

// Next decodes the escape that s (the text after a backslash) starts
// with, appending its bytes to dst. n is how many bytes of s it used: 0
// when s starts no escape of e's (dst is unchanged; the backslash is the
// caller's to keep or drop). stop reports e.Stop.
func (e *Escapes) Next(dst []byte, s string) (out []byte, n int, stop bool) {
	if s == "" {
		return dst, 0, false
	}
	c := s[0]
	switch {
	case e.Stop != 0 && c == e.Stop:
		return dst, 1, true
	case c == '0' && e.Octal0 > 0:
		v, k := digits(s[1:], 8, e.Octal0)
		return append(dst, byte(v)), 1 + k, false
	case c >= '0' && c <= '7' && e.Octal > 0:
		v, k := digits(s, 8, e.Octal)
		return append(dst, byte(v)), k, false
	case c == 'x' && e.Hex > 0:
		v, k := digits(s[1:], 16, e.Hex)
		if k == 0 {
			return dst, 0, false
		}
		return append(dst, byte(v)), 1 + k, false
	case (c == 'u' || c == 'U') && e.Unicode != nil:
		max := 4
		if c == 'U' {
			max = 8
		}
		v, k := digits(s[1:], 16, max)
		if k == 0 {
			return dst, 0, false
		}
		return e.Unicode(dst, v), 1 + k, false
	}
	if strings.IndexByte(e.Letters, c) >= 0 {
		if b, ok := letterValue(c); ok {
			return append(dst, b), 1, false
		}
	}
	return dst, 0, false
}

// Decode expands every escape of s. A backslash that starts no escape
// stays with the character after it (or, with DropUnknown, only that
// character does); a final backslash stays. stop reports e.Stop: out ends where it was.
func (e *Escapes) Decode(s string) (out string, stop bool) {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s, false
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b = append(b, s[i])
			continue
		}
		var n int
		b, n, stop = e.Next(b, s[i+1:])
		if stop {
			return string(b), true
		}
		if n == 0 {
			// Not an escape: the backslash stays (or goes) and the
			// character after it is taken as it is.
			if e.Unknown != nil {
				e.Unknown(s[i+1])
			}
			if !e.DropUnknown {
				b = append(b, '\\')
			}
			b = append(b, s[i+1])
			n = 1
		}
		i += n
	}
	return string(b), false
}

// digits reads up to max digits of base from the start of s: their value
// and how many there were.
func digits(s string, base, max int) (v uint32, n int) {
	for n < max && n < len(s) {
		d := DigitValue(s[n])
		if d >= base {
			break
		}
		v = v*uint32(base) + uint32(d)
		n++
	}
	return v, n
}

// DigitValue is the value of c as a digit of a base up to 36 (99 when it
// is none).
func DigitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}
