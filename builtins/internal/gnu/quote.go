package gnu

import "strings"

// Style is one of gnulib's quoting styles (quotearg.h), as the
// --quoting-style option of ls names them. Every style works as in the C
// locale: a byte outside 0x20–0x7e is unprintable.
type Style int

const (
	// Literal prints the name as it is.
	Literal Style = iota
	// Shell quotes with '…' only when a shell would need it.
	Shell
	// ShellAlways always quotes with '…'.
	ShellAlways
	// ShellEscape is Shell with $'\n' for unprintable bytes (gnulib's
	// quotef: coreutils' file names in most messages).
	ShellEscape
	// ShellEscapeAlways is ShellAlways with $'\n' for unprintable bytes
	// (gnulib's quoteaf: "cannot open 'a'$'\n''b'").
	ShellEscapeAlways
	// C is "…" with C escapes.
	C
	// CMaybe is C only when an escape is needed.
	CMaybe
	// Escape is C's escapes without the quotes (ls -b).
	Escape
	// Locale is gnulib's quote() in the C locale: '…' with backslash
	// escapes, \' for a quote.
	Locale
	// CLocale is Locale with double quotes, as in the C locale.
	CLocale
)

// StyleNames are the names of the styles as --quoting-style takes them,
// indexed by Style.
var StyleNames = []string{"literal", "shell", "shell-always", "shell-escape", "shell-escape-always", "c", "c-maybe", "escape", "locale", "clocale"}

// Quote quotes s as GNU's quote() does (the Locale style): 'like this',
// the wording of an argument in most GNU messages.
func Quote(s string) string { return QuoteStyle(s, Locale) }

// QuoteAF quotes a file name as gnulib's quoteaf does (ShellEscapeAlways):
// 'a b', "it's", 'a'$'\n”b'.
func QuoteAF(s string) string { return QuoteStyle(s, ShellEscapeAlways) }

// QuoteF is gnulib's quotef (ShellEscape): the name as it is when a shell
// would read it back unchanged, QuoteAF's form otherwise.
func QuoteF(s string) string { return QuoteStyle(s, ShellEscape) }

// QuoteStyle quotes s in the given style.
func QuoteStyle(s string, style Style) string { return Quoting{Style: style}.Quote(s) }

// Quoting is a style with the extra characters that must be escaped too
// (gnulib's set_char_quoting; ls -b escapes ' ').
type Quoting struct {
	Style Style
	Also  string // more characters to escape in the styles with escapes
}

// Quote quotes s as gnulib's quotearg_buffer_restyled does.
func (q Quoting) Quote(s string) string {
	var b strings.Builder
	restyled(&b, s, q.Style, q.Also, false)
	return b.String()
}

// restyled writes s quoted in style to b. force is true when the outer
// quotes may not be elided any more (a character needed them). It reports
// nothing: when a style that elides its quotes meets a character that
// needs them, it starts over with them.
func restyled(out *strings.Builder, s string, style Style, also string, force bool) {
	var b strings.Builder
	backslash, elide := false, false
	quote := ""
	switch style {
	case CMaybe, C:
		elide = style == CMaybe && !force
		style = C
		if !elide {
			b.WriteByte('"')
		}
		backslash = true
		quote = `"`
	case Escape:
		backslash = true
	case Locale, CLocale:
		quote = "'"
		if style == CLocale {
			quote = `"`
		}
		b.WriteString(quote)
		backslash = true
	case ShellEscape, Shell, ShellEscapeAlways, ShellAlways:
		backslash = style == ShellEscape || style == ShellEscapeAlways
		elide = (style == Shell || style == ShellEscape) && !force
		style = ShellAlways
		if !elide {
			b.WriteByte('\'')
		}
		quote = "'"
	}
	pendingEnd := false
	sawQuote := false
	allCompat := true // every byte is one that "…" protects as '…' does
	redo := func() {
		if style == ShellAlways && backslash {
			style = ShellEscapeAlways
		}
		restyled(out, s, style, "", true)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		escaping, rightQuote, compat := false, false, false
		// startEsc opens an escape; false means start over with quotes.
		startEsc := func() bool {
			if elide {
				return false
			}
			escaping = true
			if style == ShellAlways && !pendingEnd {
				b.WriteString(`'$'`)
				pendingEnd = true
			}
			b.WriteByte('\\')
			return true
		}
		if backslash && style != ShellAlways && quote != "" && strings.HasPrefix(s[i:], quote) {
			if elide {
				redo()
				return
			}
			rightQuote = true
		}
		doEscape := false // store_escape: an escape before c
		switch c {
		case 0:
			if backslash {
				if !startEsc() {
					redo()
					return
				}
				if style != ShellAlways && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
					b.WriteString("00")
				}
				c = '0'
			}
		case '\a', '\b', '\f', '\n', '\r', '\t', '\v', '\\':
			if c == '\\' {
				if style == ShellAlways {
					if elide {
						redo()
						return
					}
					break
				}
				if backslash && elide && quote != "" {
					break
				}
			}
			if style == ShellAlways && elide && (c == '\n' || c == '\r' || c == '\t' || c == '\\') {
				redo()
				return
			}
			if backslash {
				c = escapeLetter(c)
				doEscape = true
			}
		case '{', '}', '#', '~', ' ', '!', '"', '$', '&', '(', ')', '*', ';', '<', '=', '>', '[', '^', '`', '|':
			special := true
			switch c {
			case '{', '}':
				special = len(s) == 1
			case '#', '~':
				special = i == 0
			}
			if !special {
				break
			}
			if c == ' ' || c == '{' || c == '}' || c == '#' || c == '~' {
				compat = true
			}
			if style == ShellAlways && elide {
				redo()
				return
			}
		case '\'':
			sawQuote = true
			compat = true
			if style == ShellAlways {
				if elide {
					redo()
					return
				}
				b.WriteString(`'\''`)
				pendingEnd = false
				continue
			}
		case '?':
			if style == ShellAlways && elide {
				redo()
				return
			}
		case '%', '+', ',', '-', '.', '/', ':', ']', '_':
			compat = true
		default:
			if c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
				compat = true
				break
			}
			printable := c >= 0x20 && c < 0x7f
			compat = printable
			if backslash && !printable {
				if !startEsc() {
					redo()
					return
				}
				b.WriteByte('0' + c>>6)
				b.WriteByte('0' + c>>3&7)
				c = '0' + c&7
				// store_c, with the escape still open.
				b.WriteByte(c)
				if !compat {
					allCompat = false
				}
				continue
			}
		}
		if !doEscape && (rightQuote || (backslash && style != ShellAlways || elide) && strings.IndexByte(also, c) >= 0) {
			doEscape = true
		}
		if doEscape {
			if !startEsc() {
				redo()
				return
			}
		}
		// store_c
		if pendingEnd && !escaping {
			b.WriteString(`''`)
			pendingEnd = false
		}
		b.WriteByte(c)
		if !compat {
			allCompat = false
		}
	}
	if len(s) == 0 && style == ShellAlways && elide {
		redo()
		return
	}
	if style == ShellAlways && !elide && sawQuote && allCompat {
		restyled(out, s, C, "", true)
		return
	}
	if quote != "" && !elide {
		b.WriteString(quote)
	}
	out.WriteString(b.String())
}

// escapeLetter is the letter of C's escape for a control byte or a
// backslash (\n → 'n').
func escapeLetter(c byte) byte {
	if e := CEscape(c); e != "" {
		return e[1]
	}
	return c
}

// CEscape is the C escape of one of the control bytes \a \b \f \n \r \t
// \v ("" for any other byte), as GNU's quoting, diff and bash's $'…'
// print them.
func CEscape(c byte) string {
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
