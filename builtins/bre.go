package builtins

import (
	"errors"
	"regexp"
	"regexp/syntax"
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
	var b strings.Builder
	b.WriteString(flags)
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
			switch d := pat[i]; d {
			case '(':
				b.WriteByte('(')
				atStart = true
			case ')':
				b.WriteByte(')')
			case '|':
				b.WriteByte('|')
				atStart = true
			case '{':
				j := strings.Index(pat[i:], `\}`)
				if j < 0 {
					return nil, errors.New(`Unmatched \{`)
				}
				b.WriteString("{" + pat[i+1:i+j] + "}")
				i += j + 1
			case '+', '?':
				if start {
					b.WriteString(`\` + string(d))
				} else {
					b.WriteByte(d)
				}
			case '<', '>':
				b.WriteString(`\b`)
			case '`':
				b.WriteString(`\A`)
			case '\'':
				b.WriteString(`\z`)
			case 'w', 'W', 's', 'S':
				cls, _ := posixre.ClassRE2(map[byte]string{'w': "word", 'W': "word", 's': "space", 'S': "space"}[d])
				if d == 'W' || d == 'S' {
					cls = "^" + cls
				}
				b.WriteString("[" + cls + "]")
			case 'b', 'B':
				b.WriteString(`\` + string(d))
			case 'n':
				b.WriteString(`\n`)
			case 't':
				b.WriteString(`\t`)
			default:
				if d >= '1' && d <= '9' {
					return nil, errors.New("back-references are not supported")
				}
				b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
			}
		case '*':
			if start {
				b.WriteString(`\*`)
			} else {
				b.WriteByte('*')
			}
		case '^':
			if start {
				b.WriteByte('^')
				atStart = true
			} else {
				b.WriteString(`\^`)
			}
		case '$':
			if i == len(pat)-1 || strings.HasPrefix(pat[i+1:], `\)`) || strings.HasPrefix(pat[i+1:], `\|`) {
				b.WriteByte('$')
			} else {
				b.WriteString(`\$`)
			}
		case '[':
			j, err := bracketBRE(&b, pat, i)
			if err != nil {
				return nil, err
			}
			i = j
		case '.':
			b.WriteByte('.')
		default:
			b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
		}
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, breError(err)
	}
	re.Longest()
	return re, nil
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
