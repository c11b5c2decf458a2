package posixre_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/posixre"
)

// A long subject read through the context's reader gives FindAll's
// matches, FindSubmatchIndex's first match and Match's answer; a stopped run stops the search.
func TestLongSubject(t *testing.T) {
	defer ForTests.SetLongSubject(1 << 10)()
	subjects := []string{strings.Repeat("ab cd\xff é", 1<<8) + "Qz", "foo" + strings.Repeat("ab\n", 1<<10), strings.Repeat("ab", 1<<10) + strings.Repeat("c", 1<<10)}
	for _, c := range []struct {
		pat string
		fl  Flags
	}{
		{`a*`, 0}, {`\(a\|ab\)\(c\|bcd\)`, 0}, {`b`, 0}, {`.`, 0}, {`[^a-z ]`, 0}, {`é`, 0}, {`Q`, 0},
		{`^ab`, 0}, {`b$`, 0}, {`\bc`, 0}, {`\<c`, 0}, {`x*`, ERE}, {`(a|ab)(c|bcd)?`, ERE}, {`[a-z]{1,3}`, ERE},
		{`A`, IgnoreCase}, {`(b)\1`, ERE},
	} {
		re, err := Compile(c.pat, c.fl)
		if err != nil {
			t.Fatalf("%q: %v", c.pat, err)
		}
		for i, s := range subjects {
			b := []byte(s)
			var want, got []string
			errW := re.FindAll(b, -1, func(loc []int) bool { want = append(want, fmt.Sprint(loc)); return true })
			errG := re.FindAllContext(context.Background(), b, -1, func(loc []int) bool { got = append(got, fmt.Sprint(loc)); return true })
			if errW != nil || errG != nil || strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%q on subject %d: %d matches, %v; want %d, %v", c.pat, i, len(got), errG, len(want), errW)
			}
			fw, errW := re.FindSubmatchIndex(b)
			if fg, errG := re.FindSubmatchIndexContext(context.Background(), b); errW != nil || errG != nil || fmt.Sprint(fg) != fmt.Sprint(fw) {
				t.Errorf("%q on subject %d: first match %v, %v; want %v, %v", c.pat, i, fg, errG, fw, errW)
			}
			mw, _ := re.Match(b)
			if mg, err := re.MatchContext(context.Background(), b); err != nil || mg != mw {
				t.Errorf("%q on subject %d: Match %v, %v; want %v", c.pat, i, mg, err, mw)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	re, _ := Compile(`[a-z]\{1,30\}Q`, 0)
	b := []byte(strings.Repeat("ab", 1<<17))
	if _, err := re.MatchContext(ctx, b); !errors.Is(err, context.Canceled) {
		t.Errorf("MatchContext, stopped: %v", err)
	}
	if _, err := re.FindSubmatchIndexContext(ctx, b); !errors.Is(err, context.Canceled) {
		t.Errorf("FindSubmatchIndexContext, stopped: %v", err)
	}
	if err := re.FindAllContext(ctx, b, -1, func([]int) bool { return true }); !errors.Is(err, context.Canceled) {
		t.Errorf("FindAllContext, stopped: %v", err)
	}
}
