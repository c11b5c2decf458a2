package interp

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// [[ s =~ re ]] reads re as glibc's regcomp: back-references, \< \>, an
// unknown escape as its character, an invalid interval an error; a
// stopped run stops a long string's match.
func TestReMatch(t *testing.T) {
	for _, c := range []struct {
		pat, s string
		want   string // the groups, "-" for no match, "!" for an error
	}{
		{`^a(b)c$`, "abc", `["abc" "b"]`},
		{`(a)\1`, "xaa", `["aa" "a"]`},
		{`\<ab\>`, "x ab y", `["ab"]`},
		{`\d`, "d", `["d"]`},
		{`a.c`, "a\nc", `["a\nc"]`},
		{`(x)?abc`, "abc", `["abc" ""]`},
		{`(a|ab)(c|bcd)(d*)`, "abcd", `["abcd" "a" "bcd" ""]`},
		{`a{`, "a", "!"},
		{`(`, "a", "!"},
		{`z`, "abc", "-"},
	} {
		m, err := reMatch(context.Background(), c.pat, c.s, false)
		got := fmt.Sprintf("%q", m)
		switch {
		case err != nil:
			got = "!"
		case m == nil:
			got = "-"
		}
		if got != c.want {
			t.Errorf("%q =~ %q: %s, want %s", c.s, c.pat, got, c.want)
		}
	}
	if m, _ := reMatch(context.Background(), `B`, "abc", true); m == nil {
		t.Errorf("nocasematch: no match")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if m, _ := reMatch(ctx, `[a-z]{1,30}Q`, strings.Repeat("ab", 1<<20)+"Q", false); m != nil {
		t.Errorf("stopped run: %.40q, want nil", m)
	}
}
