package builtins

import (
	"fmt"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// BashEscapeByte is the escape of byte c inside bash's $'…' quoting, as
// printf %q and ${v@Q} print it: a C escape, \E for ESC, else \NNN octal.
func BashEscapeByte(c byte) string {
	if e := gnu.CEscape(c); e != "" {
		return e
	}
	if c == 0x1b {
		return `\E`
	}
	return fmt.Sprintf("\\%03o", c)
}

// GNUQuote is gnulib's quote(): how GNU tools name an argument in their
// messages ('text' in the C locale), for the commands outside builtins.
func GNUQuote(s string) string { return gnu.Quote(s) }
