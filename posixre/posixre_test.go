package posixre_test

import (
	"errors"
	"regexp"
	"testing"

	. "github.com/llmsh/llmsh/posixre"
)

// Expected matches are what GNU grep 3.8 -o prints (LC_ALL=C; the first
// match of the line), for the same pattern and options.
var matchCases = []struct {
	opts string // G (BRE) or E, then i (ignore case), w (-w)
	pat  string
	in   string
	want string // "-": no match
}{
	{"G", `a\{2,3\}b`, "xaaaab", "aaab"},
	{"G", `\(ab\)*c`, "xababcd", "ababc"},
	{"E", `[[:alpha:]]+`, "12abC3", "abC"},
	{"G", `[]a]*`, "]a]b", "]a]"},
	{"G", `[^]a]\+`, "]]abc", "bc"},
	{"E", `xa{,3}`, "xaaaaa", "xaaa"},
	{"E", `a{`, "ba{", "a{"},
	{"E", `a{1`, "a{1", "a{1"},
	{"E", `a{1,2`, "a{1,2", "a{1,2"},
	{"G", `*a`, "x*a", "*a"},
	{"G", `^*a`, "*ab", "*a"},
	{"G", `\(*a\)`, "*a", "*a"},
	{"E", `*a`, "a", "a"},
	{"E", `a|*b`, "xb", "b"},
	{"E", `a|b+`, "cbbba", "bbb"},
	{"G", `\<foo\>`, "foobar foo", "foo"},
	{"G", `\<foo`, "xfoo foo", "foo"},
	{"G", `o\>`, "oa o", "o"},
	{"G", `\(a*\)b\1`, "xaabaa", "aabaa"},
	{"G", `\(a\)\1`, "xaba", "-"},
	{"E", `(a)(b)?c\2`, "ac", "-"},
	{"E", `(a|ab)(c|bcd)(d*)`, "abcd", "abcd"},
	{"G", `[\]x`, `a\x`, `\x`},
	{"G", `a\sb\w`, "a b_", "a b_"},
	{"E", `a{1}{2}`, "aaa", "aa"},
	{"E", `a**`, "aa", "aa"},
	{"G", `x\{,2\}`, "xxxx", "xx"},
	{"G", `a\|b`, "cab", "a"},
	{"G", `\(^a\)`, "ab", "a"},
	{"G", `a^b`, "a^b", "a^b"},
	{"G", `a$b`, "a$b", "a$b"},
	{"E", `a^b`, "a^b", "-"},
	{"E", `(^|x)y`, "xy", "xy"},
	{"G", `[a-]\+`, "-a-b", "-a-"},
	{"G", `[[.-.]a]\+`, "-a-b", "-a-"},
	{"G", `[[=e=]]\+`, "eee", "eee"},
	{"G", `\bfo`, "afo fo", "fo"},
	{"G", `o\B.`, "foo", "oo"},
	{"G", `\w\+\>`, "ab cd", "ab"},
	{"E", `()a`, "ba", "a"},
	{"E", `\.a`, "x.a", ".a"},
	{"E", `a\{`, "a{", "a{"},
	{"E", `a)`, "a)", "a)"},
	{"G", `a+?`, "a+?", "a+?"},
	{"G", `a\{1,\}`, "aaa", "aaa"},
	{"E", `x+?`, "xxx", "xxx"},
	{"G", `.\+`, "h\xc3\xa9llo", "h\xc3\xa9llo"},
	// GNU (grep 3.8, sed 4.9 in C.UTF-8): a byte that is not UTF-8 is
	// no character for '.' or a negated class (session 24).
	{"G", `a.b`, "a\xffb", "-"},
	{"G", `a.*b`, "a\xffb", "-"},
	{"G", `.b`, "\xef\xbf\xbd\xffb", "-"},
	{"G", ".\xff", "\xef\xbf\xbd\xffb", "\xef\xbf\xbd\xff"},
	{"G", `[^a]*`, "\xef\xbf\xbd\xff", "\xef\xbf\xbd"},
	{"E", `b\W`, "ab\xff", "-"},
	{"E", `b.?`, "ab\xff", "b"},
	{"G", "a\xffb", "xa\xffb", "a\xffb"},
	{"G", "a\xff", "a\xfe", "-"},
	{"G", `[^x]`, "\xff", "-"},
	{"E", `[[:digit:][:upper:]]+`, "aB12c", "B12"},
	{"E", `[a\-z]+`, `a-\z`, "a"},
	{"E", `a.c`, "a\nc", "-"},
	{"E", `a[^x]c`, "a\nc", "-"},
	{"E", `a\Wc`, "a\nc", "-"},
	{"E", `[[:space:]]+`, "a \t\vb", " \t\v"},
	{"G", `\` + "`" + `a`, "ab", "a"},
	{"G", `b\'`, "ab", "b"},
	{"E", `a{1000}`, "a", "-"},
	{"E", `a{1001}`, "a", "-"},
	{"Ei", `ABC`, "xabcx", "abc"},
	{"Gi", `[a-c]\+`, "xAbCd", "AbC"},
	{"Gi", `\(a\)\1`, "aA", "aA"},
	{"Gw", `foo`, "foobar foo", "foo"},
	{"Ew", `a.`, "aab ab", "ab"},
	{"Gw", `@x`, "a @x", "@x"},
	{"Gw", `x`, "xx", "-"},
	{"Gx", `a*`, "aaa", "aaa"},
	{"Gx", `a`, "ab", "-"},
	{"Ex", `(a)\1|b`, "aa", "aa"},
	{"Ex", `a|b`, "ab", "-"},
	// p: NoGNUOps (sed --posix, checked with GNU sed 4.9).
	{"Gp", `a\+b\?c\|d`, "aab a+b?c|d", "a+b?c|d"},
	{"Gp", `x$\|y`, "x$|y", "x$|y"},
	{"Gp", "\\w\\W\\s\\S\\b\\B\\<\\>\\'\\`", "a wWsSbB<>'`", "wWsSbB<>'`"},
	{"Ep", `a+|\w`, "w aa", "w"},
	{"Gp", `a\{2\}`, "aaa", "aa"},
}

func caseFlags(opts string) (Flags, bool) {
	fl := Lines
	words := false
	for _, c := range opts {
		switch c {
		case 'E':
			fl |= ERE
		case 'i':
			fl |= IgnoreCase
		case 'w':
			words = true
		case 'x':
			fl |= MatchLines
		case 'p':
			fl |= NoGNUOps
		}
	}
	return fl, words
}

func TestMatch(t *testing.T) {
	for _, c := range matchCases {
		fl, words := caseFlags(c.opts)
		if words {
			fl |= MatchWords
		}
		for _, engine := range []string{"auto", "backtrack"} {
			re, err := Compile(c.pat, fl)
			if err != nil {
				t.Errorf("%s %q: %v", c.opts, c.pat, err)
				continue
			}
			if engine == "backtrack" {
				ForTests.Backtrack(re)
			}
			loc, err := re.FindSubmatchIndex([]byte(c.in))
			if err != nil {
				t.Errorf("%s %q on %q (%s): %v", c.opts, c.pat, c.in, engine, err)
				continue
			}
			got := "-"
			if loc != nil {
				got = c.in[loc[0]:loc[1]]
			}
			if got != c.want {
				t.Errorf("%s %q on %q (%s): got %q, want %q", c.opts, c.pat, c.in, engine, got, c.want)
			}
			ok, err := re.Match([]byte(c.in))
			if err != nil || ok != (c.want != "-") {
				t.Errorf("%s %q on %q (%s): Match = %v, %v", c.opts, c.pat, c.in, engine, ok, err)
			}
		}
	}
}

// Messages checked against GNU grep 3.8 (LC_ALL=C).
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		opts, pat, want string
	}{
		{"G", `a\{1`, `Unmatched \{`},
		{"E", `a{2,1}`, `Invalid content of \{\}`},
		{"G", `a\{x\}`, `Invalid content of \{\}`},
		{"G", `\(a`, `Unmatched ( or \(`},
		{"E", `(a`, `Unmatched ( or \(`},
		{"G", `a\)`, `Unmatched ) or \)`},
		{"G", `[`, `Invalid regular expression`},
		{"G", `a[`, `Invalid regular expression`},
		{"G", `[a`, `Unmatched [, [^, [:, [., or [=`},
		{"G", `[[:foo:]]`, `Invalid character class name`},
		{"G", `a\`, `Trailing backslash`},
		{"G", `\(a\)\2`, `Invalid back reference`},
		{"G", `\(a\1\)`, `Invalid back reference`},
		{"E", `a{99999}`, `Regular expression too big`},
		{"G", `[b-a]`, `Invalid range end`},
		{"G", `[[.hyphen.]]`, `Invalid collation character`},
		{"G", `[:alpha:]`, `character class syntax is [[:space:]], not [:space:]`},
	} {
		fl, _ := caseFlags(c.opts)
		_, err := Compile(c.pat, fl)
		var e *Error
		if !errors.As(err, &e) || e.Msg != c.want {
			t.Errorf("%s %q: got %v, want %q", c.opts, c.pat, err, c.want)
		}
	}
}

func TestTranslate(t *testing.T) {
	for _, c := range []struct {
		fl        Flags
		pat, want string
		err       error
	}{
		{0, `a\{2,3\}b`, `(?s)(?:a){2,3}b`, nil},
		{0, `a+?(|){`, `(?s)a\+\?\(\|\)\{`, nil},
		{ERE, `a+?`, `(?s)(?:(?:a)+)?`, nil},
		{0, `*a`, `(?s)\*a`, nil},
		{Lines, `[^a]`, `(?m)[^\x{61}\x{a}]`, nil},
		{ERE | IgnoreCase, `^x$`, `(?i)(?s)^x$`, nil},
		{0, "\\`x\\'", `(?s)\Ax\z`, nil},
		{0, `\(a\)\1`, "", ErrBackref},
		{0, "\xff", "", ErrNotRE2},
		{0, `\<a`, "", ErrNotRE2},
	} {
		got, err := TranslateBRE(c.pat)
		if c.fl != 0 {
			var tr *Translation
			tr, err = Translate(c.pat, c.fl)
			if tr != nil {
				got = tr.Expr
			}
		}
		if err != c.err || got != c.want {
			t.Errorf("%q: got %q, %v; want %q, %v", c.pat, got, err, c.want, c.err)
		}
	}
	if got, err := TranslateERE(`(a|b)+`); err != nil || got != `(?s)(?:((?:a|b)))+` {
		t.Errorf("TranslateERE: %q, %v", got, err)
	}
	tr, err := Translate(`\<a\>`, 0)
	if err != nil || len(tr.Checks) != 2 || tr.Checks[0] != (Check{1, WordStart}) || tr.Checks[1] != (Check{2, WordEnd}) {
		t.Errorf(`\<a\>: %+v, %v`, tr, err)
	}
}

func TestFindAll(t *testing.T) {
	for _, c := range []struct {
		pat, in string
		want    []string
	}{
		{`b*`, "abc", []string{"", "b", ""}},
		{`\<a`, "a ba a", []string{"a", "a"}},
		{`\(x\)\1`, "xxaxxx", []string{"xx", "xx"}},
	} {
		for _, bt := range []bool{false, true} {
			re, err := Compile(c.pat, 0)
			if err != nil {
				t.Fatal(err)
			}
			if bt {
				ForTests.Backtrack(re)
			}
			var got []string
			re.FindAll([]byte(c.in), -1, func(loc []int) bool {
				got = append(got, c.in[loc[0]:loc[1]])
				return true
			})
			if len(got) != len(c.want) {
				t.Errorf("%q on %q (bt %v): %q, want %q", c.pat, c.in, bt, got, c.want)
				continue
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("%q on %q (bt %v): %q, want %q", c.pat, c.in, bt, got, c.want)
				}
			}
		}
	}
}

func TestMust(t *testing.T) {
	for pat, want := range map[string]string{`[0-9]\{3\}x`: "x", `abc.*defg`: "defg", `a\|b`: "", `\(foo\)\+bar`: "foo"} {
		re, err := Compile(pat, Lines|IgnoreCase)
		if err != nil || re.Must() != want {
			t.Errorf("%q: Must = %q, %v; want %q", pat, re.Must(), err, want)
		}
	}
}

func TestTooComplex(t *testing.T) {
	re, err := Compile(`\(a*\)*\1b`, Lines)
	if err != nil {
		t.Fatal(err)
	}
	// A smaller budget than btBudget's 20 million steps (25 s of a
	// loaded race-detector suite run): the give-up is the same.
	ForTests.SetBudget(re, 200_000)
	_, err = re.Match([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
	if err != ErrTooComplex {
		t.Errorf("got %v, want ErrTooComplex", err)
	}
	// Within the budget the same search is an answer.
	ForTests.SetBudget(re, 20_000_000) // btBudget, match.go's
	if ok, err := re.Match([]byte("aaab")); !ok || err != nil {
		t.Errorf("aaab: %v %v, want a match", ok, err)
	}
}

func FuzzTranslate(f *testing.F) {
	for _, c := range matchCases {
		f.Add(c.pat, c.opts == "E", c.in)
	}
	f.Add(`[[:alpha:]-z]`, false, "x")
	f.Add(`\(\(a\)\|b\)*\2`, false, "aab")
	f.Fuzz(func(t *testing.T, pat string, ere bool, in string) {
		fl := Flags(0)
		if ere {
			fl = ERE
		}
		for _, mode := range []Flags{0, Lines} {
			tr, err := Translate(pat, fl|mode)
			if err == nil {
				if _, cerr := regexp.Compile(tr.Expr); cerr != nil {
					t.Fatalf("%q: translation %q does not compile: %v", pat, tr.Expr, cerr)
				}
			}
			re, err := Compile(pat, fl|mode)
			if err != nil {
				continue
			}
			if len(in) > 64 {
				in = in[:64]
			}
			a, errA := re.FindSubmatchIndex([]byte(in))
			ForTests.Backtrack(re)
			b, errB := re.FindSubmatchIndex([]byte(in))
			if errA != nil || errB != nil {
				continue
			}
			if (a == nil) != (b == nil) || a != nil && (a[0] != b[0] || a[1] != b[1]) {
				t.Fatalf("%q on %q: RE2 %v, backtracking %v", pat, in, a, b)
			}
		}
	})
}

// TestCloseError: GNU sed -E refuses an unmatched ')', which grep -E and
// regcomp read as a literal.
func TestCloseError(t *testing.T) {
	for _, pat := range []string{"a)", "(a))", "a|b)", ")"} {
		if _, err := Compile(pat, ERE|CloseError); err == nil || err.Error() != "Unmatched ) or \\)" {
			t.Errorf("%q with CloseError: %v, want Unmatched ) or \\)", pat, err)
		}
		re, err := Compile(pat, ERE)
		if err != nil {
			t.Errorf("%q without CloseError: %v", pat, err)
		} else if ok, _ := re.Match([]byte(")")); !ok && pat == ")" {
			t.Errorf("%q does not match a ')'", pat)
		}
	}
	for _, pat := range []string{"(a)", "[)]", "\\)", "(a|b)c"} {
		if _, err := Compile(pat, ERE|CloseError); err != nil {
			t.Errorf("%q with CloseError: %v", pat, err)
		}
	}
}

// TestRegCompBRE: GNU sed's BRE (RE_CONTEXT_INVALID_DUP) refuses \{ at
// the start and * or \{ right after a repetition; grep's reads them.
func TestRegCompBRE(t *testing.T) {
	for _, pat := range []string{`\{1\}a`, `^\{1\}`, `\(\{1\}\)`, `a\|\{1\}`, `a**`, `a\+*`, `a*\{2\}`, `a\{2\}*`} {
		if _, err := Compile(pat, RegComp); err == nil || err.Error() != "Invalid preceding regular expression" {
			t.Errorf("%q with RegComp: %v", pat, err)
		}
		if _, err := Compile(pat, 0); err != nil {
			t.Errorf("%q without RegComp: %v", pat, err)
		}
	}
	for _, pat := range []string{`a*\+`, `*a`, `\(*a\)`, `x\|*`, `a*b*`, `\(a*\)*`, `a\?\?`} {
		if _, err := Compile(pat, RegComp); err != nil {
			t.Errorf("%q with RegComp: %v", pat, err)
		}
	}
}

// TestStartInterval: GNU grep's ERE takes a valid interval at the start
// as repeating nothing, with one warning; a BRE's \{ there is literal.
func TestStartInterval(t *testing.T) {
	for _, c := range []struct {
		pat   string
		fl    Flags
		subj  string
		match bool
		warns int
	}{
		{"{1}a", ERE, "a", true, 1},
		{"{1}{2}a", ERE, "a", true, 1},
		{"{1", ERE, "{1", true, 0},
		{"{x}a", ERE, "{x}a", true, 0},
		{`\{1\}a`, 0, "{1}a", true, 0},
		{`\{1\}a`, 0, "a", false, 0},
	} {
		re, err := Compile(c.pat, c.fl)
		if err != nil {
			t.Errorf("%q: %v", c.pat, err)
			continue
		}
		if ok, _ := re.Match([]byte(c.subj)); ok != c.match || len(re.Warnings) != c.warns {
			t.Errorf("%q on %q: match %v, warnings %q", c.pat, c.subj, ok, re.Warnings)
		}
	}
}

// EmptyRanges: a reversed range is empty, as glibc without
// RE_NO_EMPTY_RANGES (GNU expr, csplit, nl; checked with expr 9.1).
func TestEmptyRanges(t *testing.T) {
	for _, c := range []struct {
		pat, in string
		want    bool
	}{
		{`[b-a]`, "a", false},
		{`[b-a]`, "b", false},
		{`x[b-a]*y`, "xy", true},
		{`[^b-a]`, "q", true},
		{`[b-ac]`, "c", true},
		{`[b-ac]`, "b", false},
	} {
		re, err := Compile(c.pat, EmptyRanges)
		if err != nil {
			t.Errorf("%q: %v", c.pat, err)
			continue
		}
		if got, err := re.Match([]byte(c.in)); err != nil || got != c.want {
			t.Errorf("%q on %q: got %v, %v; want %v", c.pat, c.in, got, err, c.want)
		}
	}
}
