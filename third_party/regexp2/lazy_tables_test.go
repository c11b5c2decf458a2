package regexp2_test

import (
	"testing"

	"github.com/llmsh/llmsh/third_party/regexp2"
)

// TestLazyTables compiles patterns that reach each table made lazy in
// llmsh's fork (LLMSH.md): the ECMAScript property aliases and ranges, and
// the property and value aliases of the other modes, and checks what they
// match. Each table is built on first use, so each pattern here is the
// first lookup of its table in this process unless another test ran first.
func TestLazyTables(t *testing.T) {
	for _, c := range []struct {
		pattern string
		opts    regexp2.RegexOptions
		in      string
		want    bool
	}{
		{`^\p{Script=Greek}+$`, regexp2.ECMAScript | regexp2.Unicode, "αβγ", true},                 // ecmaScriptAliases
		{`^\p{Script=Greek}+$`, regexp2.ECMAScript | regexp2.Unicode, "abc", false},                //
		{`^\p{scx=Grek}$`, regexp2.ECMAScript | regexp2.Unicode, "α", true},                        // ecmaScriptExtensions
		{`^\p{gc=Lu}$`, regexp2.ECMAScript | regexp2.Unicode, "A", true},                           // ecmaCategoryAliases
		{`^\p{Lowercase_Letter}$`, regexp2.ECMAScript | regexp2.Unicode, "A", false},               //
		{`^\p{AHex}+$`, regexp2.ECMAScript | regexp2.Unicode, "0aF", true},                         // ecmaBinaryAliases, ecmaPropertyRanges
		{`^\p{AHex}+$`, regexp2.ECMAScript | regexp2.Unicode, "g", false},                          //
		{`^\p{Emoji_Presentation}$`, regexp2.ECMAScript | regexp2.Unicode, "\U0001F600", true},     //
		{`^\p{Greek}+$`, regexp2.None, "αβγ", true},                                                // unicode.Scripts
		{`^\p{emoji_modifier}$`, regexp2.None, "\U0001F3FB", true},                                 // unicodeSupportedPropertyAliases
		{`^\p{emoji_modifier}$`, regexp2.None, "a", false},                                         //
		{`^\p{gcb=LF}$`, regexp2.None, "\n", true},                                                 // unicodeSupportedPropertyValueAliases
		{`^\p{gcb=LF}$`, regexp2.None, "a", false},                                                 //
		{`^\p{ri}$`, regexp2.None, "\U0001F1E6", true},                                             // unicodeBarePropertyValueAliases
		{`^\p{ri}$`, regexp2.None, "a", false},                                                     //
		{`^\p{Nd}+$`, regexp2.None, "0123", true},                                                  // the eager category table
		{`^\p{Greek}+$`, regexp2.IgnoreCase, "ΑΒΓαβγ", true},                                       //
		{`^\p{Script_Extensions=Greek}+$`, regexp2.ECMAScript | regexp2.Unicode, "\u0342", true},   //
		{`^\p{Script_Extensions=Greek}+$`, regexp2.ECMAScript | regexp2.Unicode, "a", false},       //
		{`^\p{General_Category=Decimal_Number}$`, regexp2.ECMAScript | regexp2.Unicode, "٣", true}, //
	} {
		re, err := regexp2.Compile(c.pattern, c.opts)
		if err != nil {
			t.Errorf("Compile(%q, %v): %v", c.pattern, c.opts, err)
			continue
		}
		got, err := re.MatchString(c.in)
		if err != nil || got != c.want {
			t.Errorf("%q (%v) on %q = %v, %v; want %v", c.pattern, c.opts, c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`\p{NoSuchProperty}`, `\p{Script=NoSuchScript}`} {
		if _, err := regexp2.Compile(bad, regexp2.ECMAScript|regexp2.Unicode); err == nil {
			t.Errorf("Compile(%q) in ECMAScript mode: no error", bad)
		}
	}
}

// TestLazyClasses matches through each constant class that llmsh's fork
// builds on first use (syntax/charclass.go: \w, \s, \d, their negations,
// ., and their ECMAScript and RE2 forms), first from several goroutines at
// once (go test -race), so that each class's first build races with others.
func TestLazyClasses(t *testing.T) {
	cases := []struct {
		pattern string
		opts    regexp2.RegexOptions
		in      string
		want    bool
	}{
		{`^\w+$`, regexp2.None, "ab_9é", true},
		{`^\W$`, regexp2.None, "-", true},
		{`^\W$`, regexp2.None, "a", false},
		{`^\s$`, regexp2.None, "\u2003", true},
		{`^\S$`, regexp2.None, " ", false},
		{`^\d+$`, regexp2.None, "٣3", true},
		{`^\D$`, regexp2.None, "3", false},
		{`^.$`, regexp2.None, "\n", false},
		{`^.$`, regexp2.Singleline, "\n", true},
		{`^\w+$`, regexp2.ECMAScript, "ab_9", true},
		{`^\w$`, regexp2.ECMAScript, "é", false},
		{`^\W$`, regexp2.ECMAScript, "é", true},
		{`^\s$`, regexp2.ECMAScript, "\ufeff", true},
		{`^\S$`, regexp2.ECMAScript, "\ufeff", false},
		{`^\d$`, regexp2.ECMAScript, "٣", false},
		{`^\D$`, regexp2.ECMAScript, "٣", true},
		{`^.$`, regexp2.ECMAScript, "\u2028", false},
		{`^\s$`, regexp2.RE2, "\v", false},
		{`^\S$`, regexp2.RE2, "\v", true},
		{`^[^\n]$`, regexp2.None, "x", true},
	}
	check := func(t *testing.T) {
		for _, c := range cases {
			re, err := regexp2.Compile(c.pattern, c.opts)
			if err != nil {
				t.Errorf("Compile(%q, %v): %v", c.pattern, c.opts, err)
				continue
			}
			if got, err := re.MatchString(c.in); err != nil || got != c.want {
				t.Errorf("%q (%v) on %q: %v, %v; want %v", c.pattern, c.opts, c.in, got, err, c.want)
			}
		}
	}
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			check(t)
		}()
	}
	for range 4 {
		<-done
	}
	check(t)
}
