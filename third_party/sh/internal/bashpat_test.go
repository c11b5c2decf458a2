package internal

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestBashPattern(t *testing.T) {
	const (
		file = PatFilename
		ext  = PatExtGlob
	)
	tests := []struct {
		pat, s string
		mode   PatMode
		want   bool
	}{
		{"*", ".git", file, false},
		// llmsh: PatPathname, as bash's GLOBIGNORE (FNM_PATHNAME).
		{"*.py", "d/a.py", PatPathname, false},
		{"*.py", "d/a.py", 0, true},
		{"d/*", "d/e/b.py", PatPathname, true},
		{"*/*", "d/e/b.py", PatPathname, true},
		{"*/*.py", "d/e/b.py", PatPathname, false},
		{"d?a.py", "d/a.py", PatPathname, false},
		{"d[/]a.py", "d/a.py", PatPathname, true},
		{"?*", "d/e", PatPathname, true},
		{"**", "d/e", PatPathname, true},
		{"*(?)x", "a/x", PatPathname | ext, false},
		{"*", ".git", file | PatDotGlob, true},
		{"!(keep)", ".git", file | ext, false},
		{"!(keep)", "a", file | ext, true},
		{"!(keep)", "keep", file | ext, false},
		{"!(keep)", ".git", file | ext | PatDotGlob, true},
		{"@(.h|a)", ".h", file | ext, true},
		{"?h", ".h", file, false},
		{"[.]h", ".h", file, false},
		{".*", ".h", file, true},
		{"*(a|b)c", "ababc", ext, true},
		{"+(a)", "", ext, false},
		{"*.!(c)", "a.b.c", ext, true},
		{"*.!(c)", "a.c", ext, false},
		{"[!a-c]x", "dx", 0, true},
		{"[]]", "]", 0, true},
		{"[a", "[a", 0, true},
		{"[[:digit:]]*", "1a", 0, true},
		{`\*`, "*", 0, true},
		{"K*", "keep", PatNoCase, true},
		{"+(x", "+(x", ext, true},
		{"[\xff]", "\xfe", 0, false}, // bytes that are not UTF-8 are distinct
		{"[\xff]", "\xff", 0, true},
		{"\xfe*", "\xffx", 0, false},
		{"\xfe*", "\xfex", 0, true},
		{"?", "\xfe", 0, true},
		{"[!\xfe]", "\xff", 0, true},
		{"*(\xfe)", "\xfe\xfe", ext, true},
		// after a *, bash's strmatch (session 21): !(…) at the end of
		// the subject matches whatever follows it, in the whole pattern
		{"*!(b)c", "", ext, true},
		{"a*!(a)", "a", ext, true},
		{"a?*!(x)x", "ab", ext, true},
		{"*!(x)", "x", ext, false},
		{"x*!(b)c", "c", ext, false},
		// … but not inside an alternative
		{"+(*!(b))a", "a", ext, false},
		{"@(a*!(b)|x)", "a", ext, false},
		// ?(…) is tried where the * takes nothing, then dropped
		{"*?(x)!(c)", "c", ext, false},
		{"*?(x)!(c)", "cc", ext, true},
		{"c*?(x)!(d)", "cd", ext, false},
		{"*?(x)!(e)", "", ext, true},
		{"*?(x)zzz", "abc", ext, false},
		{"*@(x|)", "ab", ext, false},
		{"**(b)x", "ab", ext, false},
	}
	for _, tc := range tests {
		if got := CompileBashPattern(tc.pat, tc.mode).Match(tc.s); got != tc.want {
			t.Errorf("%q %v match %q: got %v, want %v", tc.pat, tc.mode, tc.s, got, tc.want)
		}
	}
}

// TestMatchFlat compares matchFlat, the linear match of patterns without
// extended parts, with matchAt's backtracking on random patterns and
// names (llmsh), and checks that a pattern of many stars is fast.
func TestMatchFlat(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	toks := []string{"*", "?", "a", "b", ".", "[ab]", "[!a]", "é", "\\*", "[.]"}
	chars := []string{"a", "b", ".", "é", "*", "\xff"}
	for range 20000 {
		var pat, s strings.Builder
		for range rnd.IntN(7) {
			pat.WriteString(toks[rnd.IntN(len(toks))])
		}
		for range rnd.IntN(8) {
			s.WriteString(chars[rnd.IntN(len(chars))])
		}
		for _, mode := range []PatMode{0, PatFilename, PatFilename | PatDotGlob, PatNoCase} {
			p := CompileBashPattern(pat.String(), mode)
			want := p.matchAt(nil, p.nodes, s.String(), 0, s.Len())
			if got := p.Match(s.String()); got != want {
				t.Fatalf("pattern %q mode %d on %q: %v, backtracking %v", pat.String(), mode, s.String(), got, want)
			}
		}
	}
	name := strings.Repeat("a", 200)
	if CompileBashPattern("*a*a*a*a*a*a*a*a*a*b", PatFilename).Match(name) {
		t.Fatal("matched")
	}
}

// TestPatStop checks that a match of exponential work ends once its
// context is done, and fails (llmsh).
func TestPatStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st := &PatStop{Ctx: ctx}
	p := CompileBashPattern("+(+(a))b", PatExtGlob)
	if p.MatchStop(st, strings.Repeat("a", 60)+"c") || st.Err == nil {
		t.Fatalf("stopped match: err %v", st.Err)
	}
	if p.MatchStop(st, "ab") {
		t.Fatal("a stopped PatStop matched")
	}
	if !p.Match("aaab") {
		t.Fatal("no match without a PatStop")
	}
}
