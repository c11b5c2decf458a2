package regexp2

import "testing"

// TestLazyTables compiles patterns that reach each table made lazy in
// llmsh's fork (LLMSH.md): the ECMAScript property aliases and ranges, and
// the property and value aliases of the other modes, and checks what they
// match. Each table is built on first use, so each pattern here is the
// first lookup of its table in this process unless another test ran first.
func TestLazyTables(t *testing.T) {
	for _, c := range []struct {
		pattern string
		opts    RegexOptions
		in      string
		want    bool
	}{
		{`^\p{Script=Greek}+$`, ECMAScript | Unicode, "αβγ", true},                 // ecmaScriptAliases
		{`^\p{Script=Greek}+$`, ECMAScript | Unicode, "abc", false},                //
		{`^\p{scx=Grek}$`, ECMAScript | Unicode, "α", true},                        // ecmaScriptExtensions
		{`^\p{gc=Lu}$`, ECMAScript | Unicode, "A", true},                           // ecmaCategoryAliases
		{`^\p{Lowercase_Letter}$`, ECMAScript | Unicode, "A", false},               //
		{`^\p{AHex}+$`, ECMAScript | Unicode, "0aF", true},                         // ecmaBinaryAliases, ecmaPropertyRanges
		{`^\p{AHex}+$`, ECMAScript | Unicode, "g", false},                          //
		{`^\p{Emoji_Presentation}$`, ECMAScript | Unicode, "\U0001F600", true},     //
		{`^\p{Greek}+$`, None, "αβγ", true},                                        // unicode.Scripts
		{`^\p{emoji_modifier}$`, None, "\U0001F3FB", true},                         // unicodeSupportedPropertyAliases
		{`^\p{emoji_modifier}$`, None, "a", false},                                 //
		{`^\p{gcb=LF}$`, None, "\n", true},                                         // unicodeSupportedPropertyValueAliases
		{`^\p{gcb=LF}$`, None, "a", false},                                         //
		{`^\p{ri}$`, None, "\U0001F1E6", true},                                     // unicodeBarePropertyValueAliases
		{`^\p{ri}$`, None, "a", false},                                             //
		{`^\p{Nd}+$`, None, "0123", true},                                          // the eager category table
		{`^\p{Greek}+$`, IgnoreCase, "ΑΒΓαβγ", true},                               //
		{`^\p{Script_Extensions=Greek}+$`, ECMAScript | Unicode, "\u0342", true},   //
		{`^\p{Script_Extensions=Greek}+$`, ECMAScript | Unicode, "a", false},       //
		{`^\p{General_Category=Decimal_Number}$`, ECMAScript | Unicode, "٣", true}, //
	} {
		re, err := Compile(c.pattern, c.opts)
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
		if _, err := Compile(bad, ECMAScript|Unicode); err == nil {
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
		opts    RegexOptions
		in      string
		want    bool
	}{
		{`^\w+$`, None, "ab_9é", true},
		{`^\W$`, None, "-", true},
		{`^\W$`, None, "a", false},
		{`^\s$`, None, "\u2003", true},
		{`^\S$`, None, " ", false},
		{`^\d+$`, None, "٣3", true},
		{`^\D$`, None, "3", false},
		{`^.$`, None, "\n", false},
		{`^.$`, Singleline, "\n", true},
		{`^\w+$`, ECMAScript, "ab_9", true},
		{`^\w$`, ECMAScript, "é", false},
		{`^\W$`, ECMAScript, "é", true},
		{`^\s$`, ECMAScript, "\ufeff", true},
		{`^\S$`, ECMAScript, "\ufeff", false},
		{`^\d$`, ECMAScript, "٣", false},
		{`^\D$`, ECMAScript, "٣", true},
		{`^.$`, ECMAScript, "\u2028", false},
		{`^\s$`, RE2, "\v", false},
		{`^\S$`, RE2, "\v", true},
		{`^[^\n]$`, None, "x", true},
	}
	check := func(t *testing.T) {
		for _, c := range cases {
			re, err := Compile(c.pattern, c.opts)
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
