package compiler

// llmsh: regular expressions as mawk 1.3.4 20200120 reads them, over
// bytes. Go's regexp matches UTF-8 characters; mawk matches bytes in
// every locale (`match("é", /^.$/)` is 0, `/\351/` matches the byte
// 0xe9, not "é"). MawkRegex translates mawk's syntax into Go's over
// Latin-1: each byte b of the subject is matched as the rune U+00b, so
// the caller hands the regexp the subject with each byte of 0x80 or more
// written as that rune (interp's latin1) and maps the offsets back.

import (
	"bytes"
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
	// mawk's operator-precedence parser (rexp.c): a machine stack of
	// operands and an operator stack of CAT ('c'), OR ('|') and '('.
	// As mawk's, a binary operator takes its operands from the whole
	// stack, outside its group too: a(b|)c is (a|b)c, a(b|) is a|b,
	// while (b|) and a|(b|) are "missing operand"; a CAT with a lone
	// operand is dropped (a()b is ab).
	ms   []mawkOperand
	ops  []byte
	prev bool // the last token ends an operand: a CAT comes before the next
}

// mawkOperand is one operand in Go syntax: a single atom, or a group.
type mawkOperand struct {
	re         string
	quantified bool // it has a repetition operator already
	caret      bool // it is a ^ anchor
	anchor     bool // it is ^ or $ (Go repeats neither), or ends in $
	// simple: a run of literal characters (lits of them, the last one
	// last bytes of re), a bracket expression or '.': mawk's lexer
	// makes one token of it, which a '$' before a repetition joins
	// (a$* is (a$)*, ab$* is (ab$)*).
	simple bool
	lits   int
	last   int
}

func (t *mawkTranslator) fail(reason string) error {
	return &RegexError{Reason: reason, Regex: t.src}
}

func (t *mawkTranslator) run() error {
	src := t.src
	if src == "" {
		return nil
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch c {
		case '*', '+', '?':
			if !t.prev || len(t.ms) == 0 {
				return t.fail("missing operand")
			}
			if top := t.ms[len(t.ms)-1]; top.lits > 1 {
				// ab* is a(b*): the run gives up its last character.
				n := len(top.re) - top.last
				t.ms[len(t.ms)-1] = mawkOperand{re: top.re[:n], simple: true}
				if err := t.pushOp('c'); err != nil {
					return err
				}
				t.ms = append(t.ms, mawkOperand{re: top.re[n:], simple: true, lits: 1, last: top.last})
			}
			top := &t.ms[len(t.ms)-1]
			if top.caret && c != '?' {
				return t.fail("syntax error ^* or ^+")
			}
			if top.quantified || top.anchor {
				// mawk's a** is (a*)*, a*? is (a*)? (Go: nested
				// repetition, or a lazy a*)
				top.re = "(?:" + top.re + ")"
			}
			top.re += string(c)
			top.quantified, top.caret, top.anchor = true, false, false
			top.simple, top.lits = false, 0
			i++
		case '|':
			if err := t.pushOp('|'); err != nil {
				return err
			}
			t.prev = false
			i++
		case '(':
			if err := t.cat(); err != nil {
				return err
			}
			t.ops = append(t.ops, '(')
			t.prev = false
			i++
		case ')':
			if bytes.IndexByte(t.ops, '(') < 0 {
				if err := t.operand(`\)`); err != nil {
					return err
				}
				i++
				continue
			}
			for t.ops[len(t.ops)-1] != '(' {
				if err := t.reduce(); err != nil {
					return err
				}
			}
			t.ops = t.ops[:len(t.ops)-1]
			t.prev = true
			if n := len(t.ms); n > 0 {
				// A group is no run: (ab)* repeats it all.
				t.ms[n-1].simple, t.ms[n-1].lits = false, 0
				t.ms[n-1].re = "(?:" + t.ms[n-1].re + ")"
			}
			i++
		case '[':
			n, err := t.bracket(i)
			if err != nil {
				return err
			}
			i = n
		case '\\':
			b, n := mawkEscape(src, i+1)
			if err := t.literal(latinByte(b)); err != nil {
				return err
			}
			i = n
		case '.':
			if err := t.operand("."); err != nil {
				return err
			}
			t.ms[len(t.ms)-1].simple = true
			i++
		case '$':
			if n := len(t.ms); t.prev && n > 0 && t.ms[n-1].simple && i+1 < len(src) && strings.IndexByte("*+?", src[i+1]) >= 0 {
				top := &t.ms[n-1]
				top.re = "(?:" + top.re + "$)"
				top.simple, top.lits, top.anchor = false, 0, true
				i++
				continue
			}
			fallthrough
		case '^':
			if err := t.operand(string(c)); err != nil {
				return err
			}
			top := &t.ms[len(t.ms)-1]
			top.caret, top.anchor = c == '^', true
			i++
		default:
			if err := t.literal(latinByte(c)); err != nil {
				return err
			}
			i++
		}
	}
	for len(t.ops) > 0 {
		if t.ops[len(t.ops)-1] == '(' {
			return t.fail("missing ')'")
		}
		if err := t.reduce(); err != nil {
			return err
		}
	}
	if len(t.ms) == 0 {
		return t.fail("missing operand")
	}
	t.out.WriteString(t.ms[0].re)
	return nil
}

// cat pushes the CAT that joins an operand starting now to the last one.
func (t *mawkTranslator) cat() error {
	if !t.prev {
		return nil
	}
	return t.pushOp('c')
}

// pushOp reduces the operators that bind at least as tightly as op (CAT
// binds tighter than OR; both group to the left), then pushes op.
func (t *mawkTranslator) pushOp(op byte) error {
	for len(t.ops) > 0 {
		top := t.ops[len(t.ops)-1]
		if top == '(' || top == '|' && op == 'c' {
			break
		}
		if err := t.reduce(); err != nil {
			return err
		}
	}
	t.ops = append(t.ops, op)
	return nil
}

// reduce applies the operator on top of the stack to the two operands
// on top of the machine stack.
func (t *mawkTranslator) reduce() error {
	op := t.ops[len(t.ops)-1]
	t.ops = t.ops[:len(t.ops)-1]
	n := len(t.ms)
	if op == 'c' && n == 1 {
		return nil // mawk: "ignoring empty T_CAT"
	}
	if n < 2 {
		return t.fail("missing operand")
	}
	a, b := t.ms[n-2].re, t.ms[n-1].re
	if op == 'c' {
		t.ms[n-2] = mawkOperand{re: "(?:" + a + b + ")"}
	} else {
		t.ms[n-2] = mawkOperand{re: "(?:" + a + "|" + b + ")"}
	}
	t.ms = t.ms[:n-1]
	return nil
}

// literal adds a literal character (Go syntax) to the run on top, or
// starts one.
func (t *mawkTranslator) literal(s string) error {
	if n := len(t.ms); t.prev && n > 0 && t.ms[n-1].lits > 0 {
		top := &t.ms[n-1]
		top.re += s
		top.lits++
		top.last = len(s)
		return nil
	}
	if err := t.operand(s); err != nil {
		return err
	}
	top := &t.ms[len(t.ms)-1]
	top.simple, top.lits, top.last = true, 1, len(s)
	return nil
}

// operand pushes one operand (Go syntax), after the CAT that joins it
// to the one before.
func (t *mawkTranslator) operand(s string) error {
	if err := t.cat(); err != nil {
		return err
	}
	t.ms = append(t.ms, mawkOperand{re: s})
	t.prev = true
	return nil
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
	if err := t.operand(b.String()); err != nil {
		return 0, err
	}
	t.ms[len(t.ms)-1].simple = true
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
