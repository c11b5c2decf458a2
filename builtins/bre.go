package builtins

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/posixre"
)

// compileBRE compiles a POSIX basic regular expression (with the GNU
// extensions \+ \? \| \< \> \w \W \s \S \b \` \') to a Go regexp with
// leftmost-longest matching. Back-references are not supported.
func compileBRE(pat string) (*regexp.Regexp, error) { return compileBREFlags(pat, "(?s)") }

// compileBREFlags is compileBRE with Go flags of its own: "(?s)" makes '.'
// match a newline, "(?m)" makes '^' and '$' match at newlines instead.
func compileBREFlags(pat, flags string) (*regexp.Regexp, error) {
	if len(pat) > posixre.MaxLen {
		// Its compile would look at no context (session 25).
		return nil, errors.New("Regular expression too big")
	}
	var b breBuilder
	b.WriteString(flags)
	b.atom = -1
	atStart := true // where '*' is literal and '^' is an anchor
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		start := atStart
		atStart = false
		switch c {
		case '\\':
			if i+1 >= len(pat) {
				return nil, errors.New("Trailing backslash")
			}
			i++
			d := pat[i]
			switch d {
			case '(':
				b.groups = append(b.groups, b.Len())
				b.WriteByte('(')
				b.atom = -1
				atStart = true
				continue
			case ')':
				b.WriteByte(')')
				if n := len(b.groups); n > 0 {
					b.atom, b.groups = b.groups[n-1], b.groups[:n-1]
				}
				b.quantified = false
				continue
			case '|':
				b.WriteByte('|')
				b.atom = -1
				atStart = true
				continue
			case '{':
				if start {
					b.operand(`\{`)
					continue
				}
				j := strings.Index(pat[i:], `\}`)
				if j < 0 {
					return nil, errors.New(`Unmatched \{`)
				}
				rep, err := breInterval(pat[i+1 : i+j])
				if err != nil {
					return nil, err
				}
				b.quantifier(rep)
				i += j + 1
				continue
			case '+', '?':
				if !start {
					b.quantifier(string(d))
					continue
				}
			}
			b.operand(breEscape(d))
			if d >= '1' && d <= '9' {
				return nil, errors.New("back-references are not supported")
			}
		case '*':
			if start {
				b.operand(`\*`)
			} else {
				b.quantifier("*")
			}
		case '^':
			if start {
				b.WriteByte('^')
				atStart = true
			} else {
				b.operand(`\^`)
			}
		case '$':
			if i == len(pat)-1 || strings.HasPrefix(pat[i+1:], `\)`) || strings.HasPrefix(pat[i+1:], `\|`) {
				b.WriteByte('$')
			} else {
				b.operand(`\$`)
			}
		case '[':
			at := b.Len()
			j, err := bracketBRE(&b.Builder, pat, i)
			if err != nil {
				return nil, err
			}
			b.atom, b.quantified = at, false
			i = j
		case '.':
			b.operand(".")
		default:
			b.operand(regexp.QuoteMeta(pat[i : i+1]))
		}
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, breError(err)
	}
	re.Longest()
	return re, nil
}

// breBuilder is the Go regexp compileBREFlags writes: atom is where
// the last operand starts (-1: none), quantified whether a repetition
// follows it already, groups where the open \( groups start.
type breBuilder struct {
	strings.Builder
	atom       int
	quantified bool
	groups     []int
}

// operand writes one operand (Go syntax).
func (b *breBuilder) operand(s string) {
	b.atom, b.quantified = b.Len(), false
	b.WriteString(s)
}

// quantifier writes a repetition of the last operand; a repetition of a
// repetition (a**, a\{2\}*, a*\+, as GNU takes them) repeats it as a
// group, which Go's syntax needs.
func (b *breBuilder) quantifier(q string) {
	if b.quantified && b.atom >= 0 {
		s := b.String()
		b.Reset()
		b.WriteString(s[:b.atom] + "(?:" + s[b.atom:] + ")")
	}
	b.WriteString(q)
	b.quantified = true
}

// breEscape is the Go syntax of the BRE escape \d that is an operand.
func breEscape(d byte) string {
	switch d {
	case '<', '>':
		return `\b`
	case '`':
		return `\A`
	case '\'':
		return `\z`
	case 'w', 'W', 's', 'S':
		cls, _ := posixre.ClassRE2(map[byte]string{'w': "word", 'W': "word", 's': "space", 'S': "space"}[d])
		if d == 'W' || d == 'S' {
			cls = "^" + cls
		}
		return "[" + cls + "]"
	case 'b', 'B':
		return `\` + string(d)
	case 'n':
		return `\n`
	case 't':
		return `\t`
	}
	return regexp.QuoteMeta(string(d))
}

// breInterval is Go's repetition for the contents of \{...\}: "M",
// "M,", ",N" or "M,N" (GNU's errors otherwise).
func breInterval(c string) (string, error) {
	lo, hi, comma := strings.Cut(c, ",")
	digits := func(s string) bool { return strings.Trim(s, "0123456789") == "" }
	if !digits(lo) || !digits(hi) || lo == "" && !comma {
		return "", errors.New(`Invalid content of \{\}`)
	}
	n, m := 0, -1
	for _, x := range []struct {
		s string
		v *int
	}{{lo, &n}, {hi, &m}} {
		if x.s == "" {
			continue
		}
		if len(x.s) > 5 {
			return "", errors.New("Regular expression too big")
		}
		*x.v, _ = strconv.Atoi(x.s)
		if *x.v > 32767 {
			return "", errors.New("Regular expression too big")
		}
	}
	switch {
	case !comma:
		return "{" + strconv.Itoa(n) + "}", nil
	case m < 0:
		return "{" + strconv.Itoa(n) + ",}", nil
	case m < n:
		return "", errors.New(`Invalid content of \{\}`)
	}
	return "{" + strconv.Itoa(n) + "," + strconv.Itoa(m) + "}", nil
}

// breError is the GNU regex message for what Go's parser rejected.
func breError(err error) error {
	var se *syntax.Error
	if errors.As(err, &se) {
		switch se.Code {
		case syntax.ErrMissingParen:
			return errors.New(`Unmatched ( or \(`)
		case syntax.ErrUnexpectedParen:
			return errors.New(`Unmatched ) or \)`)
		case syntax.ErrInvalidRepeatSize:
			return errors.New(`Invalid content of \{\}`)
		case syntax.ErrInvalidCharRange, syntax.ErrInvalidCharClass:
			if strings.HasPrefix(se.Expr, "[:") {
				return errors.New("Invalid character class name")
			}
			return errors.New("Invalid range end")
		}
	}
	return errors.New("Invalid regular expression")
}

// bracketBRE translates the bracket expression that starts at pat[i]
// into b and returns the index of its closing ']'.
func bracketBRE(b *strings.Builder, pat string, i int) (int, error) {
	j := i + 1
	if j < len(pat) && pat[j] == '^' {
		j++
	}
	if j < len(pat) && pat[j] == ']' {
		j++
	}
	for j < len(pat) && pat[j] != ']' {
		if pat[j] == '[' && j+1 < len(pat) && (pat[j+1] == ':' || pat[j+1] == '=' || pat[j+1] == '.') {
			k := strings.Index(pat[j+2:], string(pat[j+1])+"]")
			if k < 0 {
				return 0, errors.New("Unmatched [, [^, [:, [., or [=")
			}
			j += k + 4
			continue
		}
		j++
	}
	if j >= len(pat) {
		return 0, errors.New("Unmatched [, [^, [:, [., or [=")
	}
	body := pat[i+1 : j]
	b.WriteByte('[')
	for k := 0; k < len(body); k++ {
		if strings.HasPrefix(body[k:], "[:") {
			// The class as in C.UTF-8 (RE2's [:alpha:] is ASCII).
			if end := strings.Index(body[k+2:], ":]"); end >= 0 {
				if cls, ok := posixre.ClassRE2(body[k+2 : k+2+end]); ok {
					b.WriteString(cls)
					k += end + 3
					continue
				}
			}
		}
		if body[k] == '\\' {
			b.WriteString(`\\`)
		} else if body[k] == '[' && k+1 < len(body) && body[k+1] != ':' {
			b.WriteString(`\[`)
		} else {
			b.WriteByte(body[k])
		}
	}
	b.WriteByte(']')
	return j, nil
}
