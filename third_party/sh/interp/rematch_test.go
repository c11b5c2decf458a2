package interp

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// A long string's =~ match, read through the context's reader, is the
// string's own; a stopped run stops it.
func TestFindSubmatchCtx(t *testing.T) {
	defer func(n int) { longMatch = n }(longMatch)
	longMatch = 1 << 12
	big := strings.Repeat("ab cd\xff é", 1<<10)
	for _, pat := range []string{`(a|ab)(c|bcd)`, `^ab`, `é$`, `(x)?b\b`, `\xff`, `z`, `(é)+`, `.*d`} {
		re := regexp.MustCompile("(?s)" + pat)
		re.Longest()
		for _, s := range []string{big, big + "xz", "z" + big} {
			got := findSubmatchCtx(context.Background(), re, s)
			want := re.FindStringSubmatch(s)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
				t.Errorf("%s: %.40q, want %.40q", pat, got, want)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	re := regexp.MustCompile(`[a-z]{1,30}Q`)
	if m := findSubmatchCtx(ctx, re, strings.Repeat("ab", 1<<17)+"Q"); m != nil {
		t.Errorf("stopped run: %.40q, want nil", m)
	}
}
