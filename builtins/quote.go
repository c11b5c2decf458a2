package builtins

import (
	"fmt"
)

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
