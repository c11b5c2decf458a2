package builtins_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// The window check (a match looked for only around each occurrence of the
// pattern's required literal) must select exactly the lines that matching
// each whole line selects, whatever the pattern, flags and bytes.
func TestGrepWindowAgreesWithLines(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "b", "x", "ab", "é", "[0-9]", "[^a]", "[aé]", ".", "\\{2\\}", "\\{1,3\\}", "\\?",
		"*", "^", "$", "\\<", "\\>", "\\b", "\\(x\\)", "\\|", "K", "[[:digit:]]", "€", "[^€]", "\\{3\\}"}
	chars := []string{"a", "b", "x", "X", "0", "7", "é", "\xff", "\xa9", " ", "K", "k", "ab", "xx", "€", "\xe2\x82"}
	rng := rand.New(rand.NewPCG(4, 2))
	windowed := 0
	for n := 0; n < 6000; n++ {
		var p strings.Builder
		for k := 1 + rng.IntN(4); k > 0; k-- {
			p.WriteString(pieces[rng.IntN(len(pieces))])
		}
		var lines []string
		for k := rng.IntN(12); k > 0; k-- {
			var l strings.Builder
			for c := rng.IntN(14); c > 0; c-- {
				l.WriteString(chars[rng.IntN(len(chars))])
			}
			lines = append(lines, l.String())
		}
		buf := []byte(strings.Join(lines, "\n") + "\n")
		if len(lines) == 0 {
			buf = nil
		}
		icase, word, line := rng.IntN(3) == 0, rng.IntN(4) == 0, rng.IntN(6) == 0
		m, err := ForTests.GrepMatcher(context.Background(), []string{p.String()}, 'G', icase, word, line, '\n', false)
		if err != nil || !m.Window() {
			continue
		}
		windowed++
		var want, got []string
		for _, l := range lines {
			ok, err := m.MatchLine([]byte(l))
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				want = append(want, l)
			}
		}
		for pos := 0; pos < len(buf); {
			ls, le, err := m.Next(buf, pos, len(buf))
			if err != nil {
				t.Fatal(err)
			}
			if ls < 0 {
				break
			}
			got = append(got, string(buf[ls:le]))
			pos = le + 1
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("pattern %q icase=%v word=%v line=%v over %q:\n window %q\n lines  %q", p.String(), icase, word, line, buf, got, want)
		}
	}
	if windowed < 300 {
		t.Fatalf("only %d patterns used the window check", windowed)
	}
}

// Which patterns get the window check, and grep's answers with it
// (checked against GNU grep 3.8, LC_ALL=C; the same with LC_ALL=C.UTF-8 -a).
func TestGrepWindow(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pat    string
		mode   byte
		icase  bool
		window bool
	}{
		{"[0-9]\\{3\\}x", 'G', false, true},
		{"ab\\|x.", 'G', false, false},  // two literals: no single must
		{"a[0-9]*x", 'G', false, false}, // unbounded
		{"^ab", 'G', false, false},      // anchor
		{"ab$", 'G', false, false},
		{"\\<ab", 'G', false, false},
		{"(ab|ac)d{2}", 'E', false, true},
		{"ab.", 'G', true, true},
	} {
		m, err := ForTests.GrepMatcher(context.Background(), []string{c.pat}, c.mode, c.icase, false, false, '\n', false)
		if err != nil {
			t.Fatal(err)
		}
		if (m.Window()) != c.window {
			t.Errorf("%q: window %v, want %v", c.pat, m.Window(), c.window)
		}
	}
	in := "123x\n12x 999x\nabc\n9x99x\né9é99x\n\xff000x\n000\n"
	grepRunCases(t, nil, []grepCase{
		{in, []string{"grep", "-a", "[0-9]\\{3\\}x"}, "123x\n12x 999x\n\xff000x\n", "", 0},
		{in, []string{"grep", "-c", "[0-9]\\{3\\}x"}, "3\n", "", 0},
		{in, []string{"grep", "-v", "[0-9]\\{3\\}x"}, "abc\n9x99x\né9é99x\n000\n", "", 0},
		{in, []string{"grep", "-an", "[0-9]\\{2\\}x"}, "1:123x\n2:12x 999x\n4:9x99x\n5:é9é99x\n6:\xff000x\n", "", 0},
		{in, []string{"grep", "-o", "[0-9]\\{3\\}x"}, "123x\n999x\n000x\n", "", 0},
		{in, []string{"grep", "-aw", "[0-9]\\{3\\}x"}, "123x\n12x 999x\n\xff000x\n", "", 0},
		{in, []string{"grep", "-x", "[0-9]\\{3\\}x"}, "123x\n", "", 0},
		{in, []string{"grep", "-ic", "[0-9]\\{3\\}X"}, "3\n", "", 0},
		{"A1Bx\na1bX\nab\n", []string{"grep", "-i", "a.bx"}, "A1Bx\na1bX\n", "", 0},
	})
}
