package expand_test

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"
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

// TestPlainReplaceStop: ${x//TEXT/r} of a pattern without a special
// character, over a value with many matches, ends with the context's
// error once the run is stopped (session 29, red team: `${x// /ab}` of
// 30 million spaces ran 2 s past a 2 s --timeout, and with --max-memory
// 128M `${x// /abcdefgh}` was ended as stuck), and replaces them all
// while it is not.
func TestPlainReplaceStop(t *testing.T) {
	env := mapEnv{"x": str(strings.Repeat(" ", 10000))}
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	src := `${x// /ab}`
	got, err := expand.Literal(&expand.Config{Env: env, Ctx: context.Background()}, longWord(t, src))
	if err != nil || got != strings.Repeat("ab", 10000) {
		t.Errorf("%s: %.40q, %v", src, got, err)
	}
	if _, err := expand.Literal(&expand.Config{Env: env, Ctx: stopped}, longWord(t, src)); !errors.Is(err, context.Canceled) {
		t.Errorf("%s in a stopped run: %v, want context.Canceled", src, err)
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

// TestAssocKeysStop: the keys and values of an associative array of many
// keys end with the context's error once the run is stopped (session 26,
// red team: `${!m[*]}` of a million keys kept a library Run with a 300 ms
// limit for 9.4 s), and are listed in bash's order while it is not: by
// bucket of bash's hash table, newest first within one where the order
// of insertion is known (Born), else in byte order.
func TestAssocKeysStop(t *testing.T) {
	m, born := map[string]string{}, map[string]uint64{}
	for i := range 30000 {
		k := strings.Repeat("k", i%7) + strconv.Itoa(i*7919%100003)
		m[k] = "v"
		born[k] = uint64(i + 1)
	}
	var v expand.Variable
	for _, born := range []map[string]uint64{nil, born} {
		v = expand.Variable{Set: true, Kind: expand.Associative, Map: m, Born: born}
		got := v.AssocKeys()
		want := slices.Collect(maps.Keys(m))
		nb := uint32(1024)
		for uint32(len(want)) > nb*2 {
			nb *= 4
		}
		slices.SortFunc(want, func(a, b string) int {
			if c := cmp.Compare(fnv1(a)&(nb-1), fnv1(b)&(nb-1)); c != 0 {
				return c
			}
			if born != nil {
				return cmp.Compare(born[b], born[a]) // newest first
			}
			return strings.Compare(a, b)
		})
		if len(got) != len(want) {
			t.Fatalf("%d keys, want %d", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("not in bash's order from key %d: %q, want %q", i, got[i:i+3], want[i:i+3])
			}
		}
	}
	env := mapEnv{"m": v}
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	for _, src := range []string{`${!m[*]}`, `${m[*]}`, `${#m[@]}`, `${m[*]@K}`, `${m[*]:1}`} {
		if _, err := expand.Literal(&expand.Config{Env: env, Ctx: context.Background()}, longWord(t, src)); err != nil {
			t.Errorf("%s: %v", src, err)
		}
		if _, err := expand.Literal(&expand.Config{Env: env, Ctx: stopped}, longWord(t, src)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s in a stopped run: %v, want context.Canceled", src, err)
		}
	}
}

// fnv1 is bash's hash_string, whose char is signed.
func fnv1(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = h*16777619 ^ uint32(int8(s[i]))
	}
	return h
}

// TestHeapCheckBeforeGrowth: a split into fields past 256Ki asks
// HeapCheck about the bytes of its list before the list grows, not only
// every 64Ki fields (session 32: the last doubling of the list, made
// between two looks, took `IFS=0; set -- $x` to 1.4 times the memory
// limit), and a HeapCheck that cancels the run stops the split before
// it grows its list.
func TestHeapCheckBeforeGrowth(t *testing.T) {
	env := mapEnv{"x": str(strings.Repeat("0", 700000)), "IFS": str("0")}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var asked []uint64
	check := func(grow uint64) {
		asked = append(asked, grow)
		if grow > 0 {
			cancel() // as the memory guard fires
		}
	}
	_, err := expand.Fields(&expand.Config{Env: env, Ctx: ctx, HeapCheck: check}, parseWords(t, `$x`)...)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled; asked %v", err, asked)
	}
	// A list of 256Ki fields or more grows by a quarter: 24-byte slice
	// headers each.
	if last := asked[len(asked)-1]; last < (1<<18)*5/4*24 || last%24 != 0 {
		t.Errorf("HeapCheck asked %v, want a growth of the list last", asked)
	}
}
