package gojq

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Decoder reads a stream of JSON texts as jq 1.7 does: objects become
// *OrderedMap with their keys in the order read, and a number keeps its
// literal (as json.Number, in the canonical form jq prints) when printing it
// as a float64 would give something else, as for 1.0, 1E+2 or -0.
type Decoder struct {
	r    io.Reader
	buf  []byte
	pos  int
	err  error // the error of the last read, io.EOF at the end
	line int   // newlines before buf[pos]
	col  int   // bytes since the last newline before buf[pos]
	sb   []byte
}

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: r, buf: make([]byte, 0, 64<<10)}
}

// A DecodeError is a malformed input; its text is jq's message.
type DecodeError struct {
	Msg          string
	Line, Column int
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s at line %d, column %d", e.Msg, e.Line, e.Column)
}

// Line returns the number of newlines read so far (up to the end of the
// last value and the whitespace after it on the same line).
func (d *Decoder) Line() int { return d.line }

// fill reads more input; it returns false at the end or on error.
func (d *Decoder) fill() bool {
	if d.err != nil {
		return false
	}
	if d.pos > 0 {
		n := copy(d.buf, d.buf[d.pos:])
		d.buf = d.buf[:n]
		d.pos = 0
	}
	if len(d.buf) == cap(d.buf) {
		nb := make([]byte, len(d.buf), 2*cap(d.buf))
		copy(nb, d.buf)
		d.buf = nb
	}
	n, err := d.r.Read(d.buf[len(d.buf):cap(d.buf)])
	d.buf = d.buf[:len(d.buf)+n]
	if err != nil {
		d.err = err
	}
	return n > 0 || err == nil
}

func (d *Decoder) peek() (byte, bool) {
	for d.pos >= len(d.buf) {
		if !d.fill() {
			return 0, false
		}
	}
	return d.buf[d.pos], true
}

func (d *Decoder) advance() {
	if d.buf[d.pos] == '\n' {
		d.line++
		d.col = 0
	} else {
		d.col++
	}
	d.pos++
}

func (d *Decoder) skipSpace() (byte, bool) {
	for {
		c, ok := d.peek()
		if !ok {
			return 0, false
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			d.advance()
		default:
			return c, true
		}
	}
}

func (d *Decoder) fail(msg string) error {
	if d.err != nil && d.err != io.EOF {
		return d.err
	}
	return &DecodeError{msg, d.line + 1, d.col}
}

func (d *Decoder) eof() error {
	if d.err != nil && d.err != io.EOF {
		return d.err
	}
	return &DecodeError{"Unfinished JSON term at EOF", d.line + 1, d.col}
}

// Decode returns the next value, or io.EOF after the last.
func (d *Decoder) Decode() (any, error) {
	if _, ok := d.skipSpace(); !ok {
		if d.err != nil && d.err != io.EOF {
			return nil, d.err
		}
		return nil, io.EOF
	}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	// jq counts the rest of the line as read.
	for {
		c, ok := d.peek()
		if !ok || (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
			break
		}
		d.advance()
		if c == '\n' {
			break
		}
	}
	return v, nil
}

const maxDepth = 10000

func (d *Decoder) value(depth int) (any, error) {
	c, ok := d.skipSpace()
	if !ok {
		return nil, d.eof()
	}
	if depth > maxDepth {
		return nil, d.fail("Exceeds depth limit for parsing")
	}
	switch c {
	case '{':
		d.advance()
		m := NewOrderedMap(0)
		c, ok := d.skipSpace()
		if !ok {
			return nil, d.eof()
		}
		if c == '}' {
			d.advance()
			return m, nil
		}
		for {
			c, ok := d.skipSpace()
			if !ok {
				return nil, d.eof()
			}
			if c == '}' && m.Len() > 0 {
				d.advance()
				return nil, d.fail("Expected another key-value pair")
			}
			if c != '"' {
				return nil, d.fail("Object keys must be strings")
			}
			d.advance()
			k, err := d.str()
			if err != nil {
				return nil, err
			}
			if c, ok = d.skipSpace(); !ok {
				return nil, d.eof()
			} else if c != ':' {
				return nil, d.fail("Objects must consist of key:value pairs")
			}
			d.advance()
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			m.Set(k, v)
			if c, ok = d.skipSpace(); !ok {
				return nil, d.eof()
			}
			d.advance()
			if c == '}' {
				return m, nil
			} else if c != ',' {
				return nil, d.fail("Expected separator between values")
			}
		}
	case '[':
		d.advance()
		a := []any{}
		c, ok := d.skipSpace()
		if !ok {
			return nil, d.eof()
		}
		if c == ']' {
			d.advance()
			return a, nil
		}
		for {
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
			c, ok := d.skipSpace()
			if !ok {
				return nil, d.eof()
			}
			d.advance()
			if c == ']' {
				return a, nil
			} else if c != ',' {
				return nil, d.fail("Expected separator between values")
			}
		}
	case '"':
		d.advance()
		return d.str()
	case ']', '}':
		d.advance()
		return nil, d.fail("Unmatched '" + string(c) + "'")
	case ',':
		d.advance()
		return nil, d.fail("Expected value before ','")
	case ':':
		d.advance()
		return nil, d.fail("':' not as part of an object")
	}
	// A literal: letters, digits and signs up to a delimiter.
	lb := d.sb[:0]
	for {
		c, ok := d.peek()
		if !ok || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ']' || c == '}' ||
			c == ':' || c == '[' || c == '{' || c == '"' {
			break
		}
		if len(lb) > 4096 {
			return nil, d.fail("Invalid literal")
		}
		lb = append(lb, c)
		d.advance()
	}
	d.sb = lb[:0]
	lit := string(lb)
	_, more := d.peek()
	switch lit {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	case "nan", "NaN":
		return math.NaN(), nil
	}
	if v, ok := ParseNumberLiteral(lit); ok {
		return v, nil
	}
	atEOF := ""
	if !more {
		atEOF = " at EOF"
	}
	if c := lit[0]; c == '-' || c >= '0' && c <= '9' {
		return nil, d.fail("Invalid numeric literal" + atEOF)
	}
	return nil, d.fail("Invalid literal" + atEOF)
}

// str reads a string after its opening quote.
func (d *Decoder) str() (string, error) {
	// fast path: no escape before the closing quote in the buffer
	for i := d.pos; i < len(d.buf); i++ {
		c := d.buf[i]
		if c == '"' {
			s := d.buf[d.pos:i]
			d.col += i + 1 - d.pos
			d.pos = i + 1
			if utf8.Valid(s) {
				return string(s), nil
			}
			return strings.ToValidUTF8(string(s), "\ufffd"), nil
		}
		if c == '\\' || c == '\n' {
			break
		}
	}
	sb := d.sb[:0]
	defer func() { d.sb = sb[:0] }()
	for {
		c, ok := d.peek()
		if !ok {
			return "", d.fail("Unfinished string at EOF")
		}
		d.advance()
		switch c {
		case '"':
			if utf8.Valid(sb) {
				return string(sb), nil
			}
			return strings.ToValidUTF8(string(sb), "\ufffd"), nil
		case '\\':
			c, ok := d.peek()
			if !ok {
				return "", d.eof()
			}
			d.advance()
			switch c {
			case '"', '\\', '/':
				sb = append(sb, c)
			case 'b':
				sb = append(sb, '\b')
			case 'f':
				sb = append(sb, '\f')
			case 'n':
				sb = append(sb, '\n')
			case 'r':
				sb = append(sb, '\r')
			case 't':
				sb = append(sb, '\t')
			case 'u':
				r, err := d.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if c, ok := d.peek(); ok && c == '\\' {
						d.advance()
						if c, ok := d.peek(); ok && c == 'u' {
							d.advance()
							if r2, err = d.hex4(); err != nil {
								return "", err
							}
						} else {
							return "", d.fail("Invalid escape")
						}
					}
					if dr := utf16.DecodeRune(r, r2); dr != utf8.RuneError {
						r = dr
					} else {
						sb = utf8.AppendRune(sb, utf8.RuneError)
						if r2 < 0 {
							continue
						}
						r = r2
						if utf16.IsSurrogate(r) {
							r = utf8.RuneError
						}
					}
				}
				sb = utf8.AppendRune(sb, r)
			default:
				return "", d.fail("Invalid escape")
			}
		default:
			sb = append(sb, c)
		}
	}
}

func (d *Decoder) hex4() (rune, error) {
	var r rune
	for range 4 {
		c, ok := d.peek()
		if !ok {
			return 0, d.eof()
		}
		d.advance()
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, d.fail("Invalid escape")
		}
	}
	return r, nil
}

// ParseNumberLiteral converts a JSON number literal to the value jq 1.7
// keeps for it: an int or *big.Int for an integer printed as written, a
// float64 when jq would print it the same, else a json.Number holding the
// canonical form of the literal (decNumber's, as jq 1.7 prints it).
func ParseNumberLiteral(s string) (any, bool) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	i := 0
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i++
	}
	if i == 0 || i > 1 && body[0] == '0' {
		return nil, false
	}
	intPart, frac, exp := body[:i], "", 0
	rest := body[i:]
	if strings.HasPrefix(rest, ".") {
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j == 1 {
			return nil, false
		}
		frac, rest = rest[1:j], rest[j:]
	}
	if len(rest) > 0 {
		if rest[0] != 'e' && rest[0] != 'E' {
			return nil, false
		}
		e, err := strconv.Atoi(strings.TrimPrefix(rest[1:], "+"))
		if err != nil || rest[1:] == "" || strings.HasPrefix(rest[1:], "+-") || strings.HasPrefix(rest[1:], "+ ") {
			return nil, false
		}
		exp = e
	}
	if frac == "" && len(rest) == 0 && !(neg && intPart == "0") {
		// past 2^53 jq keeps the literal but computes with a double
		if n, err := strconv.Atoi(s); err == nil && n <= 1<<53 && n >= -1<<53 {
			return n, true
		}
		return json.Number(s), true
	}
	canon := canonicalNumber(neg, intPart+frac, exp-len(frac))
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, false
	}
	if formatFloat(f) == canon {
		return f, true
	}
	return json.Number(canon), true
}

// canonicalNumber is decNumber's to-scientific-string of the coefficient
// digits and exponent.
func canonicalNumber(neg bool, coef string, exp int) string {
	coef = strings.TrimLeft(coef, "0")
	if coef == "" {
		coef = "0"
	}
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	adj := exp + len(coef) - 1
	if exp <= 0 && adj >= -6 {
		if exp == 0 {
			sb.WriteString(coef)
		} else if n := len(coef) + exp; n > 0 {
			sb.WriteString(coef[:n])
			sb.WriteByte('.')
			sb.WriteString(coef[n:])
		} else {
			sb.WriteString("0.")
			sb.WriteString(strings.Repeat("0", -n))
			sb.WriteString(coef)
		}
		return sb.String()
	}
	sb.WriteString(coef[:1])
	if len(coef) > 1 {
		sb.WriteByte('.')
		sb.WriteString(coef[1:])
	}
	sb.WriteByte('E')
	if adj >= 0 {
		sb.WriteByte('+')
	}
	sb.WriteString(strconv.Itoa(adj))
	return sb.String()
}

// formatFloat formats f as jq 1.7 prints a double: the shortest digits that
// read back as f, in exponent form (two exponent digits at least) when the
// decimal point would be more than 15 places past the digits or more than
// 3 places before them.
func formatFloat(f float64) string {
	if math.IsNaN(f) {
		return "null"
	}
	f = min(max(f, -math.MaxFloat64), math.MaxFloat64)
	if f == 0 {
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	b := strconv.AppendFloat(nil, f, 'e', -1, 64)
	var sb strings.Builder
	if b[0] == '-' {
		sb.WriteByte('-')
		b = b[1:]
	}
	mant, e, _ := strings.Cut(string(b), "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(e)
	decpt := x + 1
	if decpt <= -4 || decpt > len(digits)+15 {
		sb.WriteString(digits[:1])
		if len(digits) > 1 {
			sb.WriteByte('.')
			sb.WriteString(digits[1:])
		}
		sb.WriteByte('e')
		if x < 0 {
			sb.WriteByte('-')
			x = -x
		} else {
			sb.WriteByte('+')
		}
		if x < 10 {
			sb.WriteByte('0')
		}
		sb.WriteString(strconv.Itoa(x))
		return sb.String()
	}
	switch {
	case decpt <= 0:
		sb.WriteString("0.")
		sb.WriteString(strings.Repeat("0", -decpt))
		sb.WriteString(digits)
	case decpt >= len(digits):
		sb.WriteString(digits)
		sb.WriteString(strings.Repeat("0", decpt-len(digits)))
	default:
		sb.WriteString(digits[:decpt])
		sb.WriteByte('.')
		sb.WriteString(digits[decpt:])
	}
	return sb.String()
}

// fromJSONError is a failure of fromjson, worded as jq 1.7 words it.
type fromJSONError struct {
	err error
	s   string
}

func (e *fromJSONError) Error() string {
	return fmt.Sprintf("%s (while parsing '%s')", e.err, e.s)
}
