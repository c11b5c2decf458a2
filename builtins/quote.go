package builtins

import (
	"fmt"
	"strings"
)

// cQuote quotes s as GNU's quote() does in the C locale: 'like this',
// with backslash escapes for the quote, backslashes and unprintable bytes.
func cQuote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\'', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\a', '\b', '\f', '\n', '\r', '\t', '\v':
			b.WriteString(cEscape(c))
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// BashEscapeByte is the escape of byte c inside bash's $'…' quoting, as
// printf %q and ${v@Q} print it: a C escape, \E for ESC, else \NNN octal.
func BashEscapeByte(c byte) string {
	if e := cEscape(c); e != "" {
		return e
	}
	if c == 0x1b {
		return `\E`
	}
	return fmt.Sprintf("\\%03o", c)
}

// cEscape is the C escape of one of the control bytes \a \b \f \n \r \t \v
// ("" for any other byte), as GNU's quoting and diff/xargs/find print them.
func cEscape(c byte) string {
	switch c {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	return ""
}
