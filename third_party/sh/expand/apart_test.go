package expand_test

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/llmsh/llmsh/third_party/sh/expand"
)

// TestSmallPartApart: a substring or pattern removal that keeps less than
// half of a long value is a copy, not a piece of the value's storage,
// which it would keep alive after the variable is unset (llmsh, session
// 32: x=${a:0:3} held all of a 7 MB a); one that keeps most of it may be
// a piece (s=${s#?} in a loop copies nothing).
func TestSmallPartApart(t *testing.T) {
	env := expand.ListEnviron("a=" + strings.Repeat("x", 4000) + "y")
	src := env.Get("a").Str
	start := uintptr(unsafe.Pointer(unsafe.StringData(src)))
	inside := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return len(s) > 0 && p >= start && p < start+uintptr(len(src))
	}
	cfg := &expand.Config{Env: env}
	for _, c := range []struct {
		word, want string
		apart      bool
	}{
		{"${a:0:3}", "xxx", true},
		{"${a: -2}", "xy", true},
		{"${a:3990:3}", "xxx", true},
		{"${a##*x}", "y", true},
		{"${a%%y}", strings.Repeat("x", 4000), false},
		{"${a#x}", strings.Repeat("x", 3999) + "y", false},
	} {
		got, err := expand.Literal(cfg, longWord(t, c.word))
		if err != nil || got != c.want {
			t.Errorf("%s = %.10q (%d bytes), %v", c.word, got, len(got), err)
			continue
		}
		if c.apart && inside(got) {
			t.Errorf("%s is a piece of a's storage", c.word)
		}
	}
}
