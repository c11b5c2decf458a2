package stopre_test

import (
	"context"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/internal/stopre"
)

// TestEachSameMatches compares Each with Go's FindAllStringSubmatchIndex
// on random regexps (assertions that look behind among them) and texts,
// leftmost-first and leftmost-longest.
func TestEachSameMatches(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	atoms := []string{"a", "b", "é", ".", "^", "$", `\b`, `\B`, `\A`, `(?m:^)`, `(?m:$)`, "[ab]", "\n", " ", "x*", "(a|b)", "(a*)", "(?:ab|a)", "(é|\\b)"}
	quant := []string{"", "", "", "*", "+", "?", "{1,2}", "*?"}
	chars := []string{"a", "b", "é", " ", "\n", "x", "\xff"}
	ctx := context.Background()
	for range 4000 {
		var src strings.Builder
		for range 1 + rnd.IntN(4) {
			if rnd.IntN(6) == 0 {
				src.WriteString("|")
			}
			src.WriteString(atoms[rnd.IntN(len(atoms))])
			src.WriteString(quant[rnd.IntN(len(quant))])
		}
		var text strings.Builder
		for range rnd.IntN(14) {
			text.WriteString(chars[rnd.IntN(len(chars))])
		}
		for _, longest := range []bool{false, true} {
			re, err := regexp.Compile(src.String())
			if err != nil {
				continue
			}
			if longest {
				re.Longest()
			}
			want := re.FindAllStringSubmatchIndex(text.String(), -1)
			var got [][]int
			err = Each(ctx, New(re, longest), text.String(), -1, func(loc []int) bool {
				got = append(got, slices.Clone(loc))
				return true
			})
			if err != nil || !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("%q (longest %v) on %q: %v %v, want %v", src.String(), longest, text.String(), got, err, want)
			}
			var gotb [][]int
			Each(ctx, New(re, longest), []byte(text.String()), -1, func(loc []int) bool {
				gotb = append(gotb, slices.Clone(loc))
				return true
			})
			if !slices.EqualFunc(gotb, want, slices.Equal) {
				t.Fatalf("%q (longest %v) on []byte %q: %v, want %v", src.String(), longest, text.String(), gotb, want)
			}
		}
	}
}

// TestFindStops checks that a search of a long text by a regexp that
// looks behind ends once its context is done.
func TestFindStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	text := strings.Repeat("ab", 1<<17)
	for _, src := range []string{`\b[a-z]{1,30}Q`, `^[a-z]{1,30}Q|[a-z]{1,30}R`} {
		re := regexp.MustCompile(src)
		re.Longest()
		if loc, err := Find(ctx, New(re, true), text, 1); err != context.Canceled {
			t.Errorf("%s: %v %v, want the context's error", src, loc, err)
		}
	}
}

// TestEachUncompiledDerived checks that a regexp whose derived forms do
// not compile (\Q without \E) is still searched, as Go's FindAll.
func TestEachUncompiledDerived(t *testing.T) {
	re := regexp.MustCompile(`\bx\Qa)`)
	var got [][]int
	err := Each(context.Background(), New(re, false), "xa) xa) yxa)", -1, func(loc []int) bool {
		got = append(got, slices.Clone(loc))
		return true
	})
	if want := re.FindAllStringSubmatchIndex("xa) xa) yxa)", -1); err != nil || !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("%v %v, want %v", got, err, want)
	}
}

// TestIndexUncompiledDerived: a regexp that looks behind, whose derived
// forms do not compile, is searched from the start without them.
func TestIndexUncompiledDerived(t *testing.T) {
	re := regexp.MustCompile(`\bx\Qa)`)
	loc, err := Index(context.Background(), New(re, false), "yxa) xa)", 0)
	if err != nil || !slices.Equal(loc, []int{5, 8}) {
		t.Fatalf("%v %v, want [5 8]", loc, err)
	}
}

// TestPrefixAfterAsserts checks prefixAfterAsserts against the literal
// prefix of the rest of the regexp printed and compiled again (what it
// did before), on regexps that start with assertions.
func TestPrefixAfterAsserts(t *testing.T) {
	for _, src := range []string{`\bfoo\b`, `^foo`, `(?m:^)ab|c`, `\b(?i)foo`, `\Bab*c`, `^\bx(y)z`, `\b(foo)bar`,
		`^é+`, `\b[ab]c`, `^(?:ab|ac)`, `\A\bfoo`, `^`, `\bf[^a]`, `(?i:\bK)x`, `\b\x{10000}z`, `^a{2}b`} {
		re := regexp.MustCompile(src)
		tr, err := syntax.Parse(re.String(), syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if tr.Op == syntax.OpConcat {
			sub := tr.Sub
			for len(sub) > 0 && ForTests.IsAssert(sub[0].Op) {
				sub = sub[1:]
			}
			if len(sub) < len(tr.Sub) {
				tr.Sub = sub
				want, _ = regexp.MustCompile(tr.String()).LiteralPrefix()
			}
		}
		if got := ForTests.PrefixAfterAsserts(re); got != want {
			t.Errorf("%s: prefix %q, want %q", src, got, want)
		}
	}
}
