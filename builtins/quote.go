package builtins

import (
	"fmt"
	"strings"

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

// Quote is gnu.Quote in the script's locale: ‘like this’ when its
// character locale is UTF-8 (see QuoteUTF8).
func (e *Env) Quote(s string) string { return e.QuoteStyle(s, gnu.Locale) }

// QuoteAF is gnu.QuoteAF in the script's locale: a printable UTF-8
// character is left as it is when the locale is UTF-8.
func (e *Env) QuoteAF(s string) string { return e.QuoteStyle(s, gnu.ShellEscapeAlways) }

// QuoteF is gnu.QuoteF in the script's locale: a name with a colon is
// quoted too.
func (e *Env) QuoteF(s string) string {
	return gnu.Quoting{Style: gnu.ShellEscape, Also: ":", UTF8: e.QuoteUTF8()}.Quote(s)
}

// QuoteStyle is gnu.QuoteStyle in the script's locale.
func (e *Env) QuoteStyle(s string, style gnu.Style) string {
	return gnu.Quoting{Style: style, UTF8: e.QuoteUTF8()}.Quote(s)
}

// QuoteUTF8 reports whether GNU's tools would quote in a UTF-8 locale:
// the script set LC_ALL to a UTF-8 locale (LC_ALL=C.UTF-8). Only LC_ALL
// counts: bash's tools, the reference, run under LC_ALL=C, where LC_CTYPE
// and LANG change nothing (llmsh's own LANG=C.UTF-8 among them), so
// messages keep 'quotes' unless the script sets LC_ALL.
func (e *Env) QuoteUTF8() bool {
	if e == nil {
		return false
	}
	v, _ := envLookup(e.Environ, "LC_ALL")
	_, set, _ := strings.Cut(v, ".")
	set, _, _ = strings.Cut(set, "@")
	set = strings.ToLower(set)
	return set == "utf-8" || set == "utf8"
}
