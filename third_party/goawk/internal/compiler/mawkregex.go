package compiler

// llmsh: regular expressions as mawk 1.3.4 20200120 reads them, over
// bytes. Go's regexp matches UTF-8 characters; mawk matches bytes in
// every locale (`match("é", /^.$/)` is 0, `/\351/` matches the byte
// 0xe9, not "é"). MawkRegex translates mawk's syntax into Go's over
// Latin-1: each byte b of the subject is matched as the rune U+00b, so
// the caller hands the regexp the subject with each byte of 0x80 or more
// written as that rune (interp's latin1) and maps the offsets back.

import (
	"fmt"
	"strings"
)

// RegexError is mawk's reason for refusing a regular expression
// ("missing operand"); Error is mawk's message with the expression on
// the next line.
type RegexError struct {
	Reason, Regex string
}

func (e *RegexError) Error() string {
	return "regular expression compile failed (" + e.Reason + ")\n" + e.Regex
}

// mawkClass says whether name is a POSIX class mawk knows, in Go's (ASCII)
// meaning, which is the C library's for bytes in every locale mawk runs
// in (a switch: a map literal is code in the package's init).
func mawkClass(name string) bool {
	switch name {
	case "alpha", "alnum", "blank", "cntrl", "digit", "graph",
		"lower", "print", "punct", "space", "upper", "xdigit":
		return true
	}
	return false
}

const badClass = "bad class -- [], [^] or ["

// MawkRegex returns the Go regexp (Latin-1 runes, "." matching newline)
// for mawk's regular expression src, or a *RegexError.
func MawkRegex(src string) (string, error) {
	t := mawkTranslator{src: src}
	if err := t.run(); err != nil {
		return "", err
	}
	return "(?s:" + t.out.String() + ")", nil
}

type mawkTranslator struct {
	src string
	out strings.Builder
	// atom is where the last operand starts in out (-1: none, so a
	// repetition now has no operand); quantified says it has one already.
	atom       int
	quantified bool
	caret      bool  // the last operand is a ^ anchor
	anchor     bool  // the last operand is ^ or $ (Go repeats neither)
	groups     []int // out offsets of the open groups
}

func (t *mawkTranslator) fail(reason string) error {
	return &RegexError{Reason: reason, Regex: t.src}
}

func (t *mawkTranslator) run() error {
	t.atom = -1
	src := t.src
	for i := 0; i < len(src); {
		c := src[i]
		switch c {
		case '*', '+', '?':
			if t.atom < 0 {
				return t.fail("missing operand")
			}
			if t.caret && c != '?' {
				return t.fail("syntax error ^* or ^+")
			}
			if t.quantified || t.anchor {
				// mawk's a** is (a*)*, a*? is (a*)? (Go: nested
				// repetition, or a lazy a*)
				s := t.out.String()[t.atom:]
				t.truncate(t.atom)
				t.out.WriteString("(?:" + s + ")")
			}
			t.out.WriteByte(c)
			t.quantified, t.caret, t.anchor = true, false, false
			i++
		case '|':
			if t.atom < 0 || i+1 == len(src) || src[i+1] == ')' && len(t.groups) > 0 {
				return t.fail("missing operand")
			}
			t.out.WriteByte('|')
			t.atom, t.quantified, t.caret, t.anchor = -1, false, false, false
			i++
		case '(':
			t.groups = append(t.groups, t.out.Len())
			t.out.WriteString("(?:")
			t.atom, t.quantified, t.caret, t.anchor = -1, false, false, false
			i++
		case ')':
			if len(t.groups) == 0 {
				t.operand(`\)`)
				i++
				continue
			}
			if t.atom < 0 {
				return t.fail("missing operand")
			}
			t.out.WriteByte(')')
			t.atom = t.groups[len(t.groups)-1]
			t.groups = t.groups[:len(t.groups)-1]
			t.quantified, t.caret, t.anchor = false, false, false
			i++
		case '[':
			n, err := t.bracket(i)
			if err != nil {
				return err
			}
			i = n
		case '\\':
			b, n := mawkEscape(src, i+1)
			t.operand(latinByte(b))
			i = n
		case '.':
			t.operand(".")
			i++
		case '^', '$':
			t.operand(string(c))
			t.caret, t.anchor = c == '^', true
			i++
		default:
			t.operand(latinByte(c))
			i++
		}
	}
	if len(t.groups) > 0 {
		return t.fail("missing ')'")
	}
	return nil
}

// truncate cuts out back to n bytes.
func (t *mawkTranslator) truncate(n int) {
	s := t.out.String()[:n]
	t.out.Reset()
	t.out.WriteString(s)
}

// operand appends one operand (Go syntax).
func (t *mawkTranslator) operand(s string) {
	t.atom = t.out.Len()
	t.out.WriteString(s)
	t.quantified, t.caret, t.anchor = false, false, false
}

// bracket translates the bracket expression at src[i] and returns the
// index after it.
func (t *mawkTranslator) bracket(i int) (int, error) {
	src := t.src
	var b strings.Builder
	b.WriteByte('[')
	j := i + 1
	if j < len(src) && src[j] == '^' {
		b.WriteByte('^')
		j++
	}
	first := true
	for {
		if j >= len(src) {
			return 0, t.fail(badClass)
		}
		c := src[j]
		if c == ']' && !first {
			j++
			break
		}
		first = false
		if c == '[' && j+1 < len(src) && src[j+1] == ':' {
			end := strings.Index(src[j+2:], ":]")
			if end < 0 || !mawkClass(src[j+2:j+2+end]) {
				return 0, t.fail(badClass)
			}
			b.WriteString(src[j : j+2+end+2])
			j += end + 4
			continue
		}
		lo, n := bracketByte(src, j)
		if n+1 < len(src) && src[n] == '-' && src[n+1] != ']' {
			hi, m := bracketByte(src, n+1)
			lo, hi = min(lo, hi), max(lo, hi)
			fmt.Fprintf(&b, `\x{%x}-\x{%x}`, lo, hi)
			j = m
			continue
		}
		fmt.Fprintf(&b, `\x{%x}`, lo)
		j = n
	}
	b.WriteByte(']')
	t.operand(b.String())
	return j, nil
}

// bracketByte is the byte at src[j] in a bracket expression, a
// backslash escaping the next, and the index after it.
func bracketByte(src string, j int) (byte, int) {
	if src[j] == '\\' && j+1 < len(src) {
		return mawkEscape(src, j+1)
	}
	return src[j], j + 1
}

// mawkEscape reads the escape after a backslash at src[j-1]: C's
// letters, 1 to 3 octal digits, x and 1 or 2 hexadecimal digits, or any
// other byte standing for itself (a backslash at the end is one).
func mawkEscape(src string, j int) (byte, int) {
	if j >= len(src) {
		return '\\', j
	}
	switch c := src[j]; c {
	case 'a':
		return 7, j + 1
	case 'b':
		return 8, j + 1
	case 'f':
		return 12, j + 1
	case 'n':
		return 10, j + 1
	case 'r':
		return 13, j + 1
	case 't':
		return 9, j + 1
	case 'v':
		return 11, j + 1
	case 'x':
		v, k := 0, j+1
		for ; k < len(src) && k < j+3 && hexVal(src[k]) >= 0; k++ {
			v = v*16 + hexVal(src[k])
		}
		if k == j+1 {
			return 'x', k
		}
		return byte(v), k
	default:
		if c >= '0' && c <= '7' {
			v, k := 0, j
			for ; k < len(src) && k < j+3 && src[k] >= '0' && src[k] <= '7'; k++ {
				v = v*8 + int(src[k]-'0')
			}
			return byte(v), k
		}
		return c, j + 1
	}
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// latinByte is Go's syntax for the literal byte b as its Latin-1 rune.
func latinByte(b byte) string {
	if b >= 0x80 || b < 0x20 || b == 0x7f {
		return fmt.Sprintf(`\x{%x}`, b)
	}
	if strings.IndexByte(`\.+*?()|[]{}^$`, b) >= 0 {
		return `\` + string(b)
	}
	return string(b)
}
