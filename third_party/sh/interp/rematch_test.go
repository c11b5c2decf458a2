package interp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/third_party/sh/interp"
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
		m, err := ForTests.ReMatch(context.Background(), c.pat, c.s, false)
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
	if m, _ := ForTests.ReMatch(context.Background(), `B`, "abc", true); m == nil {
		t.Errorf("nocasematch: no match")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if m, _ := ForTests.ReMatch(ctx, `[a-z]{1,30}Q`, strings.Repeat("ab", 1<<20)+"Q", false); m != nil {
		t.Errorf("stopped run: %.40q, want nil", m)
	}
}

// TestReMatchLongNotKept: a long pattern is not kept in the process-wide
// cache of compiled patterns (session 23, red team): six 2 MB patterns
// (alternations of 300000 numbers) in a library Session.Run left 1.5 GB
// of compiled programs live after it, for every session of the process,
// and 64 could be kept. A pattern of reCacheLen bytes or less is still
// kept (a loop's pattern is compiled once).
func TestReMatchLongNotKept(t *testing.T) {
	ctx := context.Background()
	short := "^(ab|cd)+x$"
	reCacheLen, _ := ForTests.ReLimits()
	long := "^(" + strings.Repeat("ab|", reCacheLen/3) + "cd)+x$"
	for _, tc := range []struct {
		pat  string
		kept bool
	}{{short, true}, {long, false}} {
		ForTests.ReMatch(ctx, tc.pat, "ababx", false)
		allocs := testing.AllocsPerRun(5, func() {
			if m, err := ForTests.ReMatch(ctx, tc.pat, "ababx", false); err != nil || len(m) == 0 {
				t.Fatalf("%d bytes: %q, %v", len(tc.pat), m, err)
			}
		})
		if kept := allocs < 50; kept != tc.kept {
			t.Errorf("a pattern of %d bytes: %v allocations a match (kept: %v, want %v)", len(tc.pat), allocs, kept, tc.kept)
		}
	}
}

// TestReMatchTooBig: a pattern over reMaxLen fails at once (status 2 in
// [[ ]]), rather than compiling for seconds past the run's limit.
func TestReMatchTooBig(t *testing.T) {
	_, reMaxLen := ForTests.ReLimits()
	p := strings.Repeat("ab|", reMaxLen/3+1)
	if _, err := ForTests.ReMatch(context.Background(), p, "x", false); err != ForTests.ErrReTooBig() {
		t.Errorf("a %d-byte pattern: %v", len(p), err)
	}
}
