package posixre_test

import (
	"testing"

	. "github.com/llmsh/llmsh/posixre"
)

// TestFoldGNU checks -i matching in UTF-8 against GNU grep 3.8 under
// LC_ALL=C.UTF-8 (`printf '%s\n' SUBJECT | grep -ic PATTERN` on the
// host): the Kelvin sign, Ångström sign and Ohm sign match themselves
// only, but match their letters; ẞ does not match ß; i matches ı.
func TestFoldGNU(t *testing.T) {
	for _, tc := range []struct {
		pat, subj string
		want      bool
	}{
		{"k", "\u212a", false}, {"K", "\u212a", false}, {"\u212a", "k", false},
		{"\u212a", "\u212a", true}, {"k", "K", true}, {"K", "k", true},
		{"[k]", "\u212a", false}, {"[j-l]", "\u212a", false}, {"[^k]", "\u212a", true},
		{"\u00e5", "\u212b", false}, {"\u00e5", "\u00c5", true},
		{"\u03c9", "\u2126", false}, {"\u2126", "\u03c9", false}, {"\u03c9", "\u03a9", true},
		{"\u00df", "\u1e9e", false}, {"\u1e9e", "\u00df", false},
		{"i", "\u0131", true}, {"\u0131", "I", true}, {"i", "\u0130", false}, {"\u0130", "i", false},
		{"s", "\u017f", true}, {"\u03c3", "\u03c2", true}, {"\u03c2", "\u03a3", true},
		{"\u03bc", "\u00b5", true}, {"hello", "HeLLo", true},
		{`\(k\)\1`, "k\u212a", false}, {`\(k\)\1`, "kK", true},
	} {
		re, err := Compile(tc.pat, IgnoreCase)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := re.Match([]byte(tc.subj)); err != nil || got != tc.want {
			t.Errorf("%q -i on %q: %v %v, want %v", tc.pat, tc.subj, got, err, tc.want)
		}
	}
}

// TestMustFold: under -i in UTF-8 the prefilter string leaves out s and
// i, which ſ and ı match too.
func TestMustFold(t *testing.T) {
	for _, tc := range []struct {
		pat  string
		fl   Flags
		want string
	}{
		{"missing", IgnoreCase, "ng"}, {"missing", IgnoreCase | Bytes, "missing"},
		{"error", IgnoreCase, "error"}, {"Kelvin", IgnoreCase, "Kelv"}, {"missing", 0, "missing"},
	} {
		re, err := Compile(tc.pat, tc.fl)
		if err != nil {
			t.Fatal(err)
		}
		if got := re.Must(); got != tc.want {
			t.Errorf("Must(%q, %v) = %q, want %q", tc.pat, tc.fl, got, tc.want)
		}
	}
}
