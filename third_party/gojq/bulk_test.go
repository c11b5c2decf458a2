package gojq_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/gojq"
)

// bulkEvery is bulk.go's: how many items a bulk function makes between
// two looks at its context.
const bulkEvery = 1 << 16

// bulkCode compiles src, a query of $v and $t.
func bulkCode(t *testing.T, src string) *gojq.Code {
	t.Helper()
	q, err := gojq.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	code, err := gojq.Compile(q, gojq.WithVariables([]string{"$v", "$t"}))
	if err != nil {
		t.Fatal(err)
	}
	return code
}

// bulkRun runs code on null with $v and $t, and returns its first output.
func bulkRun(ctx context.Context, code *gojq.Code, v, x any) any {
	out, _ := code.RunWithContext(ctx, nil, v, x).Next()
	return out
}

// TestBulkSameResults: split, explode, implode, index, rindex and indices
// of bulk.go answer as the original element-by-element code does, for
// strings with multi-byte and invalid sequences (llmsh, session 21), run
// as compiled queries.
func TestBulkSameResults(t *testing.T) {
	codes := map[string]*gojq.Code{}
	for _, name := range []string{"index", "rindex", "indices", "split"} {
		codes[name] = bulkCode(t, "$v | "+name+"($t)")
	}
	explode, implode := bulkCode(t, "$v | explode"), bulkCode(t, "$v | implode")
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
			if gojq.Compare(vs[i:i+len(xs)], xs) == 0 {
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
			if got, want := bulkRun(ctx, codes[name], s, tt), old(name, s, tt); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q | %s(%q) = %v, want %v", s, name, tt, got, want)
			}
		}
		want := []any{}
		if s != "" {
			for _, p := range strings.Split(s, tt) {
				want = append(want, p)
			}
		}
		if got := bulkRun(ctx, codes["split"], s, tt); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q | split(%q) = %q, want %q", s, tt, got, want)
		}
		ex, _ := bulkRun(ctx, explode, s, nil).([]any)
		if len(ex) != len([]rune(s)) {
			t.Fatalf("explode %q: %v", s, ex)
		}
		if got := bulkRun(ctx, implode, ex, nil); got != string([]rune(s)) {
			t.Fatalf("implode of explode %q: %q", s, got)
		}
	}
}

// errOnlyCtx says it is cancelled only when asked Err: its Done never
// closes, so the interpreter's loop runs on and only a bulk function
// given the run's context stops (the compiled wiring is tested).
type errOnlyCtx struct{ context.Context }

func (errOnlyCtx) Err() error { return context.Canceled }

// TestBulkStops: each bulk function, called by a compiled query, stops
// with the context's error once it is done, within bulkEvery items.
func TestBulkStops(t *testing.T) {
	ctx := errOnlyCtx{context.Background()}
	long := strings.Repeat("a", 3*bulkEvery)
	codes := make([]any, 3*bulkEvery)
	for i := range codes {
		codes[i] = 97
	}
	for name, c := range map[string]struct {
		src  string
		v, x any
	}{
		"explode":      {"$v | explode", long, nil},
		"implode":      {"$v | implode", codes, nil},
		"split":        {"$v | split($t)", long, ""},
		"split a":      {"$v | split($t)", long, "a"},
		"indices":      {"$v | indices($t)", long, "a"},
		"indices \xff": {"$v | indices($t)", long + "\xff", "a"},
		"index array":  {"$v | index($t)", codes, 98},
		"rindex array": {"$v | rindex($t)", codes, 98},
	} {
		v := bulkRun(ctx, bulkCode(t, c.src), c.v, c.x)
		if err, _ := v.(error); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %T, want context.Canceled", name, v)
		}
	}
	for _, src := range []string{
		`"a" * 300000 | explode | length`, `"a" * 300000 | split("") | length`,
		`"a" * 300000 / "" | length`, `"a" * 300000 | indices("a") | length`,
		`[range(300000)] | implode | length`, `[range(300000)] | rindex(-1)`,
	} {
		v := bulkRun(ctx, bulkCode(t, src), nil, nil)
		if err, _ := v.(error); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", src, v)
		}
	}
}
