package gojq

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestBulkSameResults: split, explode, implode, index, rindex and indices
// of bulk.go answer as the original element-by-element code does, for
// strings with multi-byte and invalid sequences (llmsh, session 21).
func TestBulkSameResults(t *testing.T) {
	pieces := []string{"a", "b", "é", "\xff", "\ufffd", ",", "ab"}
	word := func(r *rand.Rand, n int) string {
		var sb strings.Builder
		for range r.IntN(n) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		return sb.String()
	}
	// The original: code points compared position by position.
	old := func(name, s, t string) any {
		vs := []any{}
		for _, r := range s {
			vs = append(vs, int(r))
		}
		xs := []any{}
		for _, r := range t {
			xs = append(xs, int(r))
		}
		var rs []any
		for i := 0; len(xs) > 0 && i+len(xs) <= len(vs); i++ {
			if Compare(vs[i:i+len(xs)], xs) == 0 {
				rs = append(rs, i)
			}
		}
		switch {
		case name == "indices" && rs == nil:
			return []any{}
		case name == "indices":
			return rs
		case rs == nil:
			return nil
		case name == "index":
			return rs[0]
		}
		return rs[len(rs)-1]
	}
	r := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	for range 3000 {
		s, tt := word(r, 12), word(r, 3)
		for _, name := range []string{"index", "rindex", "indices"} {
			if got, want := indexCtx(ctx, name, s, tt), old(name, s, tt); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q | %s(%q) = %v, want %v", s, name, tt, got, want)
			}
		}
		want := []any{}
		if s != "" {
			for _, p := range strings.Split(s, tt) {
				want = append(want, p)
			}
		}
		if got := splitCtx(ctx, s, tt); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q | split(%q) = %q, want %q", s, tt, got, want)
		}
		ex := explodeCtx(ctx, s).([]any)
		if len(ex) != len([]rune(s)) {
			t.Fatalf("explode %q: %v", s, ex)
		}
		if got := implodeCtx(ctx, ex); got != string([]rune(s)) {
			t.Fatalf("implode of explode %q: %q", s, got)
		}
	}
}

// errOnlyCtx says it is cancelled only when asked Err: its Done never
// closes, so the interpreter's loop runs on and only a bulk function
// given the run's context stops (the compiled wiring is tested).
type errOnlyCtx struct{ context.Context }

func (errOnlyCtx) Err() error { return context.Canceled }

// TestBulkStops: each bulk function stops with the context's error once
// it is done, within bulkEvery items, also through a compiled query.
func TestBulkStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	long := strings.Repeat("a", 3*bulkEvery)
	codes := make([]any, 3*bulkEvery)
	for i := range codes {
		codes[i] = 97
	}
	for name, v := range map[string]any{
		"explode":      explodeCtx(ctx, long),
		"implode":      implodeCtx(ctx, codes),
		"split":        splitCtx(ctx, long, ""),
		"split a":      splitCtx(ctx, long, "a"),
		"indices":      indexCtx(ctx, "indices", long, "a"),
		"indices \xff": indexCtx(ctx, "indices", long+"\xff", "a"),
		"index array":  indexCtx(ctx, "index", codes, 98),
		"rindex array": indexCtx(ctx, "rindex", codes, 98),
	} {
		if err, _ := v.(error); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %T, want context.Canceled", name, v)
		}
	}
	for _, src := range []string{
		`"a" * 300000 | explode | length`, `"a" * 300000 | split("") | length`,
		`"a" * 300000 / "" | length`, `"a" * 300000 | indices("a") | length`,
		`[range(300000)] | implode | length`, `[range(300000)] | rindex(-1)`,
	} {
		q, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		code, err := Compile(q)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := code.RunWithContext(errOnlyCtx{context.Background()}, nil).Next()
		if err, _ := v.(error); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", src, v)
		}
	}
}
