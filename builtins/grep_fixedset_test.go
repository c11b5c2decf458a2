package builtins_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// TestGrepSetAsRegexps compares the fixed-string set with the regexp path
// it replaces, on random pattern lists and lines (and with -w since
// session 25, around word characters of both locales).
func TestGrepSetAsRegexps(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	word := func(alpha string, lo, hi int) string {
		n := lo + rng.Intn(hi-lo+1)
		runes := []rune(alpha)
		b := make([]rune, n)
		for i := range b {
			b[i] = runes[rng.Intn(len(runes))]
		}
		return string(b)
	}
	ctx := context.Background()
	for round := 0; round < 400; round++ {
		wd := round%2 == 1
		palpha, lalpha := "abAB", "abAB-"
		if wd {
			palpha, lalpha = "abA -", "abA -_é"
		}
		var pats []string
		for len(pats) < 2 || len(ForTests.GrepDistinct(pats)) < 2 {
			pats = append(pats, word(palpha, 1, 4))
		}
		mode := "FGE"[round%3]
		icase, line, cloc := rng.Intn(2) == 0, rng.Intn(4) == 0, rng.Intn(2) == 0
		if line && rng.Intn(3) == 0 {
			pats = append(pats, "")
		}
		set, err := ForTests.GrepMatcher(ctx, pats, mode, icase, wd, line, '\n', cloc)
		if err != nil || !set.Set() {
			t.Fatalf("%q: no set (%v)", pats, err)
		}
		restore := ForTests.SetGrepSetMin(1 << 30)
		re, err := ForTests.GrepMatcher(ctx, pats, mode, icase, wd, line, '\n', cloc)
		restore()
		if err != nil || re.Set() {
			t.Fatalf("%q: %v", pats, err)
		}
		var buf strings.Builder
		for i := 0; i < 6; i++ {
			buf.WriteString(word(lalpha, 0, 12) + "\n")
		}
		what := fmt.Sprintf("%q %c i=%v w=%v x=%v C=%v over %q", pats, mode, icase, wd, line, cloc, buf.String())
		b := []byte(buf.String())
		for from := 0; from < len(b); {
			s1, e1, err1 := set.Next(b, from, len(b))
			s2, e2, err2 := re.Next(b, from, len(b))
			if s1 != s2 || e1 != e2 || err1 != nil || err2 != nil {
				t.Fatalf("%s: next from %d: set %d,%d re %d,%d", what, from, s1, e1, s2, e2)
			}
			if s1 < 0 {
				break
			}
			from = e1 + 1
		}
		for _, l := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
			ok1, _ := set.MatchLine([]byte(l))
			ok2, _ := re.MatchLine([]byte(l))
			var m1, m2 []int
			set.EachMatch([]byte(l), func(s, e int) { m1 = append(m1, s, e) })
			re.EachMatch([]byte(l), func(s, e int) { m2 = append(m2, s, e) })
			if ok1 != ok2 || fmt.Sprint(m1) != fmt.Sprint(m2) {
				t.Fatalf("%s: line %q: set %v %v re %v %v", what, l, ok1, m1, ok2, m2)
			}
		}
	}
}

// TestGrepSetFits keeps the letters with Unicode case variants and the
// patterns that are not fixed strings on the regexp path.
func TestGrepSetFits(t *testing.T) {
	for _, c := range []struct {
		pats        []string
		mode        byte
		icase, cloc bool
		want        bool
	}{
		{[]string{"ab", "cd"}, 'F', false, false, true},
		{[]string{"ab", "c.d"}, 'G', false, false, false},
		{[]string{"ab", "c.d"}, 'F', false, false, true},
		{[]string{"ab", "kd"}, 'F', true, false, false}, // K (Kelvin)
		{[]string{"ab", "kd"}, 'F', true, true, true},
		{[]string{"ab", "é"}, 'F', true, false, false},
		{[]string{"ab", "é"}, 'F', false, false, true},
		{[]string{"ab"}, 'F', false, false, false},
		{[]string{"ab", "a\xff"}, 'F', false, false, false},
	} {
		if got := grepSetFits(c.pats, c.mode, c.icase, false, false, '\n', c.cloc); got != c.want {
			t.Errorf("%q %c i=%v C=%v: %v, want %v", c.pats, c.mode, c.icase, c.cloc, got, c.want)
		}
	}
}

// TestGrepSetStops: building a set of many strings, or compiling many
// patterns, stops with the context (session 23's leftover: a library Run
// took minutes and gigabytes on millions of strings, unstoppable).
func TestGrepSetStops(t *testing.T) {
	pats := make([]string, 50_000)
	for i := range pats {
		pats[i] = fmt.Sprint(i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ForTests.GrepMatcher(ctx, pats, 'F', false, false, false, '\n', false); err == nil {
		t.Fatal("a cancelled build went on")
	}
	pats = append(pats, "a.*b") // not fixed: the regexp path
	if _, err := ForTests.GrepMatcher(ctx, pats, 'G', false, false, false, '\n', false); err == nil {
		t.Fatal("a cancelled compile went on")
	}
}
