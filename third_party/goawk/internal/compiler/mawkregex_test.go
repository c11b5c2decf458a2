package compiler

import "testing"

// TestMawkRegex: mawk 1.3.4 20200120's regular expressions over bytes
// (checked with Debian 12's mawk): each case is a regex, a subject and
// the match mawk finds ("" none, "!reason" a compile error).
func TestMawkRegex(t *testing.T) {
	for _, tc := range []struct{ re, in, want string }{
		{`^.$`, "é", ""},
		{`^..$`, "é", "é"},
		{`[é]`, "é", "\xc3"},
		{`\351`, "é", ""},
		{`\351`, "a\xe9", "\xe9"},
		{`\x41`, "zA", "A"},
		{`\s`, "a s", "s"},
		{`\w\d\y\<\A`, "wdy<A", "wdy<A"},
		{`a{2}`, "aa{2}", "a{2}"},
		{`a**`, "aa*", "aa"},
		{`a*?`, "aab", "aa"},
		{`a+?`, "aab", "aa"},
		{`[]]`, "a]", "]"},
		{`[^]]`, "]a", "a"},
		{`[\]]`, "a]", "]"},
		{`[a\-z]`, "b-", "-"},
		{`[\d]`, `\d`, "d"},
		{`[/.]`, "a.", "."},
		{`[b-a]`, "xb", "b"},
		{`[a[]`, "x[", "["},
		{`[[:alpha:]]+`, "1éab", "ab"},
		{`a)`, "a)", "a)"},
		{`a|b`, "b", "b"},
		{`(ab)+`, "abab", "abab"},
		{`a.b`, "a\nb", "a\nb"},
		{`\`, `\`, `\`},
		{`^$`, "", ""},
		{`*a`, "", "!missing operand"},
		{`+a`, "", "!missing operand"},
		{`()`, "", "!missing operand"},
		{`a|`, "", "!missing operand"},
		{`|a`, "", "!missing operand"},
		{`(a|)`, "", "!missing operand"},
		// mawk's binary operators take operands from outside their
		// group (session 24): a(b|)c is (a|b)c, a(b|) is a|b.
		{`a(b|)c`, "xbc", "bc"},
		{`a(b|)c`, "abc", "bc"},
		{`a(b|)`, "xb", "b"},
		{`ab(c|)`, "xc", "c"},
		{`a()b`, "ab", "ab"},
		{`x(()|y)`, "y", "y"},
		{`a(b||c)d`, "cd", "cd"},
		{`a|(b|)`, "", "!missing operand"},
		{`(b|)c`, "", "!missing operand"},
		{`(a|b|)`, "", "!missing operand"},
		{`a||b`, "", "!missing operand"},
		// a '$' before a repetition joins the token before it
		{`a$*`, "a", "a"},
		{`xa$*`, "xa", "xa"},
		{`ab$*`, "ab", "ab"},
		{`ab$*`, "abx", ""},
		{`(a)$*`, "ab", "a"},
		{`b(a)$*`, "ba", "ba"},
		{`ab*`, "abb", "abb"},
		// leftmost-longest (CompileRegex sets Longest)
		{`x(a*|b)`, "xbc", "xb"},
		{`(`, "", "!missing ')'"},
		{`^*a`, "", "!syntax error ^* or ^+"},
		{`[a`, "", "!" + badClass},
		{`[]`, "", "!" + badClass},
		{`[[:foo:]]`, "", "!" + badClass},
	} {
		src, err := MawkRegex(tc.re)
		if err != nil {
			rerr, ok := err.(*RegexError)
			if !ok || "!"+rerr.Reason != tc.want || rerr.Regex != tc.re {
				t.Errorf("MawkRegex(%q): %v; want %q", tc.re, err, tc.want)
			}
			continue
		}
		if tc.want != "" && tc.want[0] == '!' {
			t.Errorf("MawkRegex(%q) = %q; want error %q", tc.re, src, tc.want)
			continue
		}
		re, err := CompileRegex(tc.re, true)
		if err != nil {
			t.Errorf("MawkRegex(%q) = %q: %v", tc.re, src, err)
			continue
		}
		// the subject as Latin-1 (interp's latin1), the match back as bytes
		var in []rune
		for i := 0; i < len(tc.in); i++ {
			in = append(in, rune(tc.in[i]))
		}
		var got []byte
		for _, r := range re.FindString(string(in)) {
			got = append(got, byte(r))
		}
		if string(got) != tc.want {
			t.Errorf("%q (%q) in %q: %q; want %q", tc.re, src, tc.in, got, tc.want)
		}
	}
}
