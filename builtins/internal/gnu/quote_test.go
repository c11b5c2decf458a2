package gnu_test

import (
	"testing"

	. "github.com/llmsh/llmsh/builtins/internal/gnu"
)

// quoteCases are what GNU ls 9.1 prints for a file of each name with
// LC_ALL=C and --quoting-style=STYLE, in the order of StyleNames (ls adds
// ' ' to the characters the escape style escapes).
var quoteCases = []struct {
	in   string
	want [10]string
}{
	{"abc", [10]string{"abc", "abc", "'abc'", "abc", "'abc'", "\"abc\"", "abc", "abc", "'abc'", "\"abc\""}},
	{"a b", [10]string{"a b", "'a b'", "'a b'", "'a b'", "'a b'", "\"a b\"", "a b", "a\\ b", "'a b'", "\"a b\""}},
	{"it's", [10]string{"it's", "\"it's\"", "\"it's\"", "\"it's\"", "\"it's\"", "\"it's\"", "it's", "it's", "'it\\'s'", "\"it's\""}},
	{"it's!", [10]string{"it's!", "'it'\\''s!'", "'it'\\''s!'", "'it'\\''s!'", "'it'\\''s!'", "\"it's!\"", "it's!", "it's!", "'it\\'s!'", "\"it's!\""}},
	{"'", [10]string{"'", "\"'\"", "\"'\"", "\"'\"", "\"'\"", "\"'\"", "'", "'", "'\\''", "\"'\""}},
	{"''x", [10]string{"''x", "\"''x\"", "\"''x\"", "\"''x\"", "\"''x\"", "\"''x\"", "''x", "''x", "'\\'\\'x'", "\"''x\""}},
	{"a\x0ab", [10]string{"a\x0ab", "'a\x0ab'", "'a\x0ab'", "'a'$'\\n''b'", "'a'$'\\n''b'", "\"a\\nb\"", "\"a\\nb\"", "a\\nb", "'a\\nb'", "\"a\\nb\""}},
	{"a\x0a\x0ab", [10]string{"a\x0a\x0ab", "'a\x0a\x0ab'", "'a\x0a\x0ab'", "'a'$'\\n\\n''b'", "'a'$'\\n\\n''b'", "\"a\\n\\nb\"", "\"a\\n\\nb\"", "a\\n\\nb", "'a\\n\\nb'", "\"a\\n\\nb\""}},
	{"a\x09\x01b", [10]string{"a\x09\x01b", "'a\x09\x01b'", "'a\x09\x01b'", "'a'$'\\t\\001''b'", "'a'$'\\t\\001''b'", "\"a\\t\\001b\"", "\"a\\t\\001b\"", "a\\t\\001b", "'a\\t\\001b'", "\"a\\t\\001b\""}},
	{"\x01", [10]string{"\x01", "\x01", "'\x01'", "''$'\\001'", "''$'\\001'", "\"\\001\"", "\"\\001\"", "\\001", "'\\001'", "\"\\001\""}},
	{"ab\x01", [10]string{"ab\x01", "ab\x01", "'ab\x01'", "'ab'$'\\001'", "'ab'$'\\001'", "\"ab\\001\"", "\"ab\\001\"", "ab\\001", "'ab\\001'", "\"ab\\001\""}},
	{"x\\y", [10]string{"x\\y", "'x\\y'", "'x\\y'", "'x\\y'", "'x\\y'", "\"x\\\\y\"", "x\\y", "x\\\\y", "'x\\\\y'", "\"x\\\\y\""}},
	{"a\"b", [10]string{"a\"b", "'a\"b'", "'a\"b'", "'a\"b'", "'a\"b'", "\"a\\\"b\"", "\"a\\\"b\"", "a\"b", "'a\"b'", "\"a\\\"b\""}},
	{"a$b", [10]string{"a$b", "'a$b'", "'a$b'", "'a$b'", "'a$b'", "\"a$b\"", "a$b", "a$b", "'a$b'", "\"a$b\""}},
	{"a=b", [10]string{"a=b", "'a=b'", "'a=b'", "'a=b'", "'a=b'", "\"a=b\"", "a=b", "a=b", "'a=b'", "\"a=b\""}},
	{"a?b", [10]string{"a?b", "'a?b'", "'a?b'", "'a?b'", "'a?b'", "\"a?b\"", "a?b", "a?b", "'a?b'", "\"a?b\""}},
	{"#x", [10]string{"#x", "'#x'", "'#x'", "'#x'", "'#x'", "\"#x\"", "#x", "#x", "'#x'", "\"#x\""}},
	{"y#", [10]string{"y#", "y#", "'y#'", "y#", "'y#'", "\"y#\"", "y#", "y#", "'y#'", "\"y#\""}},
	{"~x", [10]string{"~x", "'~x'", "'~x'", "'~x'", "'~x'", "\"~x\"", "~x", "~x", "'~x'", "\"~x\""}},
	{"x~", [10]string{"x~", "x~", "'x~'", "x~", "'x~'", "\"x~\"", "x~", "x~", "'x~'", "\"x~\""}},
	{"{", [10]string{"{", "'{'", "'{'", "'{'", "'{'", "\"{\"", "{", "{", "'{'", "\"{\""}},
	{"}", [10]string{"}", "'}'", "'}'", "'}'", "'}'", "\"}\"", "}", "}", "'}'", "\"}\""}},
	{"{}", [10]string{"{}", "{}", "'{}'", "{}", "'{}'", "\"{}\"", "{}", "{}", "'{}'", "\"{}\""}},
	{"^", [10]string{"^", "'^'", "'^'", "'^'", "'^'", "\"^\"", "^", "^", "'^'", "\"^\""}},
	{"%+,-.:]_@", [10]string{"%+,-.:]_@", "%+,-.:]_@", "'%+,-.:]_@'", "%+,-.:]_@", "'%+,-.:]_@'", "\"%+,-.:]_@\"", "%+,-.:]_@", "%+,-.:]_@", "'%+,-.:]_@'", "\"%+,-.:]_@\""}},
	{"\xc3\xa9", [10]string{"\xc3\xa9", "\xc3\xa9", "'\xc3\xa9'", "''$'\\303\\251'", "''$'\\303\\251'", "\"\\303\\251\"", "\"\\303\\251\"", "\\303\\251", "'\\303\\251'", "\"\\303\\251\""}},
	{"a\x7fb", [10]string{"a\x7fb", "a\x7fb", "'a\x7fb'", "'a'$'\\177''b'", "'a'$'\\177''b'", "\"a\\177b\"", "\"a\\177b\"", "a\\177b", "'a\\177b'", "\"a\\177b\""}},
	{"\x1b[0m", [10]string{"\x1b[0m", "'\x1b[0m'", "'\x1b[0m'", "''$'\\033''[0m'", "''$'\\033''[0m'", "\"\\033[0m\"", "\"\\033[0m\"", "\\033[0m", "'\\033[0m'", "\"\\033[0m\""}},
	{"-", [10]string{"-", "-", "'-'", "-", "'-'", "\"-\"", "-", "-", "'-'", "\"-\""}},
	{"x'\x0ay", [10]string{"x'\x0ay", "'x'\\''\x0ay'", "'x'\\''\x0ay'", "'x'\\'''$'\\n''y'", "'x'\\'''$'\\n''y'", "\"x'\\ny\"", "\"x'\\ny\"", "x'\\ny", "'x\\'\\ny'", "\"x'\\ny\""}},
	{"\\", [10]string{"\\", "'\\'", "'\\'", "'\\'", "'\\'", "\"\\\\\"", "\\", "\\\\", "'\\\\'", "\"\\\\\""}},
}

func TestQuoteStyles(t *testing.T) {
	for _, tc := range quoteCases {
		for st, want := range tc.want {
			q := Quoting{Style: Style(st)}
			if Style(st) == Escape {
				q.Also = " "
			}
			if got := q.Quote(tc.in); got != want {
				t.Errorf("%s %q = %q, want %q", StyleNames[st], tc.in, got, want)
			}
		}
	}
}

func TestQuoteEmpty(t *testing.T) {
	for _, tc := range []struct {
		style Style
		want  string
	}{
		{Literal, ""}, {Shell, "''"}, {ShellAlways, "''"}, {ShellEscape, "''"},
		{ShellEscapeAlways, "''"}, {C, `""`}, {Locale, "''"}, {CLocale, `""`},
	} {
		if got := QuoteStyle("", tc.style); got != tc.want {
			t.Errorf("%s \"\" = %q, want %q", StyleNames[tc.style], got, tc.want)
		}
	}
}

// TestQuoteHelpers checks the shorthands against what GNU prints: head's
// "cannot open %s" (quoteaf), chmod's file names (quotef) and dd's
// "invalid number %s" (quote).
func TestQuoteHelpers(t *testing.T) {
	for _, tc := range []struct {
		f    func(string) string
		in   string
		want string
	}{
		{QuoteAF, "a\nbx", `'a'$'\n''bx'`},
		{QuoteAF, "it'sx", `"it'sx"`},
		{QuoteF, "plain", "plain"},
		{QuoteF, "a b", "'a b'"},
		{Quote, "1x", "'1x'"},
		{Quote, "a'b", `'a\'b'`},
	} {
		if got := tc.f(tc.in); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCEscape(t *testing.T) {
	for c, want := range map[byte]string{'\a': `\a`, '\n': `\n`, '\v': `\v`, 0x1b: "", 'n': "", 0: ""} {
		if got := CEscape(c); got != want {
			t.Errorf("CEscape(%q) = %q, want %q", c, got, want)
		}
	}
}

// quoteUTF8Cases are what GNU ls 9.1 prints for a file of each name with
// LC_ALL=C.UTF-8 and --quoting-style=STYLE: printable characters as they
// are, invalid or unprintable ones (U+0085, U+2028) escaped byte by byte,
// ‘…’ in the locale styles with a backslash before a ’ of the name.
var quoteUTF8Cases = []struct {
	in   string
	want [10]string
}{
	{"\xc3\xa9", [10]string{"\xc3\xa9", "\xc3\xa9", "'\xc3\xa9'", "\xc3\xa9", "'\xc3\xa9'", "\"\xc3\xa9\"", "\xc3\xa9", "\xc3\xa9", "\xe2\x80\x98\xc3\xa9\xe2\x80\x99", "\xe2\x80\x98\xc3\xa9\xe2\x80\x99"}},
	{"a\xc3\xa9 b", [10]string{"a\xc3\xa9 b", "'a\xc3\xa9 b'", "'a\xc3\xa9 b'", "'a\xc3\xa9 b'", "'a\xc3\xa9 b'", "\"a\xc3\xa9 b\"", "a\xc3\xa9 b", "a\xc3\xa9\\ b", "\xe2\x80\x98a\xc3\xa9 b\xe2\x80\x99", "\xe2\x80\x98a\xc3\xa9 b\xe2\x80\x99"}},
	{"it\xe2\x80\x99s", [10]string{"it\xe2\x80\x99s", "it\xe2\x80\x99s", "'it\xe2\x80\x99s'", "it\xe2\x80\x99s", "'it\xe2\x80\x99s'", "\"it\xe2\x80\x99s\"", "it\xe2\x80\x99s", "it\xe2\x80\x99s", "\xe2\x80\x98it\\\xe2\x80\x99s\xe2\x80\x99", "\xe2\x80\x98it\\\xe2\x80\x99s\xe2\x80\x99"}},
	{"\xc3\xa9\x01", [10]string{"\xc3\xa9\x01", "\xc3\xa9\x01", "'\xc3\xa9\x01'", "'\xc3\xa9'$'\\001'", "'\xc3\xa9'$'\\001'", "\"\xc3\xa9\\001\"", "\"\xc3\xa9\\001\"", "\xc3\xa9\\001", "\xe2\x80\x98\xc3\xa9\\001\xe2\x80\x99", "\xe2\x80\x98\xc3\xa9\\001\xe2\x80\x99"}},
	{"a\xc3", [10]string{"a\xc3", "a\xc3", "'a\xc3'", "'a'$'\\303'", "'a'$'\\303'", "\"a\\303\"", "\"a\\303\"", "a\\303", "\xe2\x80\x98a\\303\xe2\x80\x99", "\xe2\x80\x98a\\303\xe2\x80\x99"}},
	{"\xe6\x97\xa5\xe6\x9c\xac", [10]string{"\xe6\x97\xa5\xe6\x9c\xac", "\xe6\x97\xa5\xe6\x9c\xac", "'\xe6\x97\xa5\xe6\x9c\xac'", "\xe6\x97\xa5\xe6\x9c\xac", "'\xe6\x97\xa5\xe6\x9c\xac'", "\"\xe6\x97\xa5\xe6\x9c\xac\"", "\xe6\x97\xa5\xe6\x9c\xac", "\xe6\x97\xa5\xe6\x9c\xac", "\xe2\x80\x98\xe6\x97\xa5\xe6\x9c\xac\xe2\x80\x99", "\xe2\x80\x98\xe6\x97\xa5\xe6\x9c\xac\xe2\x80\x99"}},
	{"x\xc2\x85y", [10]string{"x\xc2\x85y", "x\xc2\x85y", "'x\xc2\x85y'", "'x'$'\\302\\205''y'", "'x'$'\\302\\205''y'", "\"x\\302\\205y\"", "\"x\\302\\205y\"", "x\\302\\205y", "\xe2\x80\x98x\\302\\205y\xe2\x80\x99", "\xe2\x80\x98x\\302\\205y\xe2\x80\x99"}},
	{"it's \xc3\xa9", [10]string{"it's \xc3\xa9", "\"it's \xc3\xa9\"", "\"it's \xc3\xa9\"", "\"it's \xc3\xa9\"", "\"it's \xc3\xa9\"", "\"it's \xc3\xa9\"", "it's \xc3\xa9", "it's\\ \xc3\xa9", "\xe2\x80\x98it's \xc3\xa9\xe2\x80\x99", "\xe2\x80\x98it's \xc3\xa9\xe2\x80\x99"}},
	{"\xc3\xa9's!", [10]string{"\xc3\xa9's!", "'\xc3\xa9'\\''s!'", "'\xc3\xa9'\\''s!'", "'\xc3\xa9'\\''s!'", "'\xc3\xa9'\\''s!'", "\"\xc3\xa9's!\"", "\xc3\xa9's!", "\xc3\xa9's!", "\xe2\x80\x98\xc3\xa9's!\xe2\x80\x99", "\xe2\x80\x98\xc3\xa9's!\xe2\x80\x99"}},
	{"\xc3\xa9's", [10]string{"\xc3\xa9's", "\"\xc3\xa9's\"", "\"\xc3\xa9's\"", "\"\xc3\xa9's\"", "\"\xc3\xa9's\"", "\"\xc3\xa9's\"", "\xc3\xa9's", "\xc3\xa9's", "\xe2\x80\x98\xc3\xa9's\xe2\x80\x99", "\xe2\x80\x98\xc3\xa9's\xe2\x80\x99"}},
	{"a\xe2\x80\x98b", [10]string{"a\xe2\x80\x98b", "a\xe2\x80\x98b", "'a\xe2\x80\x98b'", "a\xe2\x80\x98b", "'a\xe2\x80\x98b'", "\"a\xe2\x80\x98b\"", "a\xe2\x80\x98b", "a\xe2\x80\x98b", "\xe2\x80\x98a\xe2\x80\x98b\xe2\x80\x99", "\xe2\x80\x98a\xe2\x80\x98b\xe2\x80\x99"}},
	{"\xe2\x80\xa8", [10]string{"\xe2\x80\xa8", "\xe2\x80\xa8", "'\xe2\x80\xa8'", "''$'\\342\\200\\250'", "''$'\\342\\200\\250'", "\"\\342\\200\\250\"", "\"\\342\\200\\250\"", "\\342\\200\\250", "\xe2\x80\x98\\342\\200\\250\xe2\x80\x99", "\xe2\x80\x98\\342\\200\\250\xe2\x80\x99"}},
	{"\xc2\xa0x", [10]string{"\xc2\xa0x", "\xc2\xa0x", "'\xc2\xa0x'", "\xc2\xa0x", "'\xc2\xa0x'", "\"\xc2\xa0x\"", "\xc2\xa0x", "\xc2\xa0x", "\xe2\x80\x98\xc2\xa0x\xe2\x80\x99", "\xe2\x80\x98\xc2\xa0x\xe2\x80\x99"}},
}

func TestQuoteStylesUTF8(t *testing.T) {
	for _, tc := range quoteUTF8Cases {
		for st, want := range tc.want {
			q := Quoting{Style: Style(st), UTF8: true}
			if Style(st) == Escape {
				q.Also = " "
			}
			if got := q.Quote(tc.in); got != want {
				t.Errorf("%s %q = %q, want %q", StyleNames[st], tc.in, got, want)
			}
		}
	}
	// The C locale's cases hold in UTF-8 for every name of ASCII bytes
	// but the locale styles' quotes.
	for _, tc := range quoteCases {
		for st, want := range tc.want {
			if Style(st) == Locale || Style(st) == CLocale || !isASCII(tc.in) {
				continue
			}
			q := Quoting{Style: Style(st), UTF8: true}
			if Style(st) == Escape {
				q.Also = " "
			}
			if got := q.Quote(tc.in); got != want {
				t.Errorf("UTF-8 %s %q = %q, want %q", StyleNames[st], tc.in, got, want)
			}
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
