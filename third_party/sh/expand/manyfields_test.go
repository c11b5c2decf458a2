package expand_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/sh/expand"
)

// TestManyFieldsStop: a split into many fields, and an operation on each
// of many elements, end with the context's error once the run is stopped
// (session 25, red team: `a=( $x )` of 15 million words kept a library
// Run 65 s past its limit, `"${a[*]/#/x}"` of two million elements 8 s),
// and give every field or element while it is not.
func TestManyFieldsStop(t *testing.T) {
	words := make([]string, 10000)
	for i := range words {
		words[i] = "w1"
	}
	env := mapEnv{"x": str(strings.Join(words, " ")), "a": list(words...)}
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	for _, src := range []string{`$x`, `${a[@]}`, `"${a[@]}"`, `"${a[@]/#/x}"`} {
		got, err := expand.Fields(&expand.Config{Env: env, Ctx: context.Background()}, parseWords(t, src)...)
		if err != nil || len(got) != len(words) {
			t.Errorf("%s: %d fields, %v", src, len(got), err)
		}
		if _, err := expand.Fields(&expand.Config{Env: env, Ctx: stopped}, parseWords(t, src)...); !errors.Is(err, context.Canceled) {
			t.Errorf("%s in a stopped run: %v, want context.Canceled", src, err)
		}
	}
	for _, src := range []string{`${a[*]/#/x}`, `${a[*]^^}`, `${a[*]#w}`, `${a[*]%1}`, `${a[*]@U}`} {
		got, err := expand.Literal(&expand.Config{Env: env, Ctx: context.Background()}, longWord(t, src))
		if err != nil || strings.Count(got, " ") != len(words)-1 {
			t.Errorf("%s: %.40q, %v", src, got, err)
		}
		if _, err := expand.Literal(&expand.Config{Env: env, Ctx: stopped}, longWord(t, src)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s in a stopped run: %v, want context.Canceled", src, err)
		}
	}
}

// TestDeclValueStop: `declare -p` and `set` of an array of many elements
// end with the context's error once the run is stopped (session 25, red
// team: two million elements kept a library Run 2.5 s past a 500 ms
// limit), and print it all while it is not.
func TestDeclValueStop(t *testing.T) {
	m := map[string]string{}
	words := make([]string, 10000)
	for i := range words {
		words[i] = "w"
		m[strings.Repeat("k", i%50)+string(rune('a'+i%26))+strings.Repeat("x", i/1300)] = "v"
	}
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	for _, v := range []expand.Variable{list(words...), {Set: true, Kind: expand.Associative, Map: m}} {
		want := expand.Quoter{}.DeclValue(v)
		if got, err := (expand.Quoter{}).DeclValueStop(context.Background(), v); got != want || err != nil || len(got) < 5000 {
			t.Errorf("%v: %.40q, %v, want %.40q", v.Kind, got, err, want)
		}
		if _, err := (expand.Quoter{}).DeclValueStop(stopped, v); !errors.Is(err, context.Canceled) {
			t.Errorf("%v in a stopped run: %v, want context.Canceled", v.Kind, err)
		}
	}
}
