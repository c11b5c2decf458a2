package gnu

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Style is one of gnulib's quoting styles (quotearg.h), as the
// --quoting-style option of ls names them. Every style works as in the C
// locale (a byte outside 0x20–0x7e is unprintable) unless Quoting.UTF8
// says the locale's codeset is UTF-8.
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

// QuoteF is gnulib's quotef (ShellEscape, with a colon quoted too, as
// quotearg_n_style_colon does): the name as it is when a shell would
// read it back unchanged and it has no colon, QuoteAF's form otherwise.
func QuoteF(s string) string { return Quoting{Style: ShellEscape, Also: ":"}.Quote(s) }

// QuoteStyle quotes s in the given style.
func QuoteStyle(s string, style Style) string { return Quoting{Style: style}.Quote(s) }

// Quoting is a style with the extra characters that must be escaped too
// (gnulib's set_char_quoting; ls -b escapes ' ').
type Quoting struct {
	Style Style
	Also  string // more characters to escape in the styles with escapes
	// UTF8 quotes as in a locale whose codeset is UTF-8 (C.UTF-8): a
	// printable multibyte character is written as it is, and the locale
	// styles quote with ‘…’ (gnulib's gettext_quote).
	UTF8 bool
}

// Quote quotes s as gnulib's quotearg_buffer_restyled does.
func (q Quoting) Quote(s string) string {
	var b strings.Builder
	restyled(&b, s, q.Style, q.Also, false, q.UTF8)
	return b.String()
}

// restyled writes s quoted in style to out. force is true when the outer
// quotes may not be elided any more (a character needed them). It reports
// nothing: when a style that elides its quotes meets a character that
// needs them, it starts over with them.
func restyled(out *strings.Builder, s string, style Style, also string, force, utf bool) {
	q := &quoter{out: out, s: s, also: also, allCompat: true, utf8: utf}
	q.begin(style, force)
	for i := 0; i < len(s); {
		n, ok := q.char(i)
		if !ok {
			q.redo()
			return
		}
		i += n
	}
	q.end()
}

// quoter is one pass of restyled over s: the settings of the style and
// the state of the output.
type quoter struct {
	out        *strings.Builder
	b          strings.Builder
	s          string
	style      Style
	also       string // more characters to escape
	backslash  bool   // the style escapes with '\'
	elide      bool   // the outer quotes are left out while they can be
	quote      string // the closing quote
	pendingEnd bool   // a $'…' part is open (the shell styles)
	sawQuote   bool
	allCompat  bool // every byte is one that "…" protects as '…' does
	escaping   bool // the current character is escaped
	utf8       bool // the locale's codeset is UTF-8
}

// quoteAction is what classify leaves to char.
type quoteAction int

const (
	quoteStore quoteAction = iota // store the character, escaped if asked
	quoteDone                     // the character is written
	quoteRedo                     // start over with the quotes
)

// begin sets up the style and writes the opening quote.
func (q *quoter) begin(style Style, force bool) {
	switch style {
	case CMaybe, C:
		q.elide = style == CMaybe && !force
		style = C
		if !q.elide {
			q.b.WriteByte('"')
		}
		q.backslash = true
		q.quote = `"`
	case Escape:
		q.backslash = true
	case Locale, CLocale:
		left := "'"
		q.quote = "'"
		if style == CLocale {
			left, q.quote = `"`, `"`
		}
		if q.utf8 {
			left, q.quote = "\u2018", "\u2019"
		}
		q.b.WriteString(left)
		q.backslash = true
	case ShellEscape, Shell, ShellEscapeAlways, ShellAlways:
		q.backslash = style == ShellEscape || style == ShellEscapeAlways
		q.elide = (style == Shell || style == ShellEscape) && !force
		style = ShellAlways
		if !q.elide {
			q.b.WriteByte('\'')
		}
		q.quote = "'"
	}
	q.style = style
}

// redo starts over with the outer quotes.
func (q *quoter) redo() {
	style := q.style
	if style == ShellAlways && q.backslash {
		style = ShellEscapeAlways
	}
	restyled(q.out, q.s, style, "", true, q.utf8)
}

// startEsc opens an escape; false means start over with quotes.
func (q *quoter) startEsc() bool {
	if q.elide {
		return false
	}
	q.escaping = true
	if q.style == ShellAlways && !q.pendingEnd {
		q.b.WriteString(`'$'`)
		q.pendingEnd = true
	}
	q.b.WriteByte('\\')
	return true
}

// char writes the character at s[i] and says how many bytes it took;
// false means start over with quotes.
func (q *quoter) char(i int) (int, bool) {
	c := q.s[i]
	q.escaping = false
	rightQuote := false
	if q.backslash && q.style != ShellAlways && q.quote != "" && strings.HasPrefix(q.s[i:], q.quote) {
		if q.elide {
			return 0, false
		}
		rightQuote = true
	}
	if q.utf8 && c >= utf8.RuneSelf {
		if r, size := utf8.DecodeRuneInString(q.s[i:]); size > 1 && PrintableRune(r) {
			// A printable multibyte character is written as it is,
			// after a backslash when it is the closing quote.
			if rightQuote {
				q.b.WriteByte('\\')
			}
			if q.pendingEnd {
				q.b.WriteString(`''`)
				q.pendingEnd = false
			}
			q.b.WriteString(q.s[i : i+size])
			return size, true
		}
	}
	c, doEscape, compat, act := q.classify(i, c)
	switch act {
	case quoteRedo:
		return 0, false
	case quoteDone:
		return 1, true
	}
	if !doEscape && (rightQuote || (q.backslash && q.style != ShellAlways || q.elide) && strings.IndexByte(q.also, c) >= 0) {
		doEscape = true
	}
	if doEscape && !q.startEsc() {
		return 0, false
	}
	// store_c
	if q.pendingEnd && !q.escaping {
		q.b.WriteString(`''`)
		q.pendingEnd = false
	}
	q.b.WriteByte(c)
	if !compat {
		q.allCompat = false
	}
	return 1, true
}

// PrintableRune is glibc's iswprint in C.UTF-8, near enough: an assigned
// character that is neither a control nor a line or paragraph separator.
func PrintableRune(r rune) bool {
	return unicode.IsGraphic(r) || unicode.In(r, unicode.Cf, unicode.Co)
}

// classify decides how the byte c at s[i] is written: the byte to store
// (an escape's letter for a control byte), whether an escape goes before
// it (store_escape), whether "…" protects it as '…' does, and whether it
// is written already or calls for starting over.
func (q *quoter) classify(i int, c byte) (byte, bool, bool, quoteAction) {
	doEscape, compat := false, false
	switch c {
	case 0:
		if q.backslash {
			if !q.startEsc() {
				return c, false, false, quoteRedo
			}
			if q.style != ShellAlways && i+1 < len(q.s) && q.s[i+1] >= '0' && q.s[i+1] <= '9' {
				q.b.WriteString("00")
			}
			c = '0'
		}
	case '\a', '\b', '\f', '\n', '\r', '\t', '\v', '\\':
		if c == '\\' {
			if q.style == ShellAlways {
				if q.elide {
					return c, false, false, quoteRedo
				}
				break
			}
			if q.backslash && q.elide && q.quote != "" {
				break
			}
		}
		if q.style == ShellAlways && q.elide && (c == '\n' || c == '\r' || c == '\t' || c == '\\') {
			return c, false, false, quoteRedo
		}
		if q.backslash {
			c = escapeLetter(c)
			doEscape = true
		}
	case '{', '}', '#', '~', ' ', '!', '"', '$', '&', '(', ')', '*', ';', '<', '=', '>', '[', '^', '`', '|':
		special := true
		switch c {
		case '{', '}':
			special = len(q.s) == 1
		case '#', '~':
			special = i == 0
		}
		if !special {
			break
		}
		if c == ' ' || c == '{' || c == '}' || c == '#' || c == '~' {
			compat = true
		}
		if q.style == ShellAlways && q.elide {
			return c, false, false, quoteRedo
		}
	case '\'':
		q.sawQuote = true
		compat = true
		if q.style == ShellAlways {
			if q.elide {
				return c, false, false, quoteRedo
			}
			q.b.WriteString(`'\''`)
			q.pendingEnd = false
			return c, false, compat, quoteDone
		}
	case '?':
		if q.style == ShellAlways && q.elide {
			return c, false, false, quoteRedo
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
		if q.backslash && !printable {
			if !q.startEsc() {
				return c, false, false, quoteRedo
			}
			q.b.WriteByte('0' + c>>6)
			q.b.WriteByte('0' + c>>3&7)
			c = '0' + c&7
			// store_c, with the escape still open.
			q.b.WriteByte(c)
			if !compat {
				q.allCompat = false
			}
			return c, false, compat, quoteDone
		}
	}
	return c, doEscape, compat, quoteStore
}

// end writes the closing quote, or starts over where the style asks.
func (q *quoter) end() {
	if len(q.s) == 0 && q.style == ShellAlways && q.elide {
		q.redo()
		return
	}
	if q.style == ShellAlways && !q.elide && q.sawQuote && q.allCompat {
		restyled(q.out, q.s, C, "", true, q.utf8)
		return
	}
	if q.quote != "" && !q.elide {
		q.b.WriteString(q.quote)
	}
	q.out.WriteString(q.b.String())
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
