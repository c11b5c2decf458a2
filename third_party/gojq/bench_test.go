package gojq_test

import (
	"testing"

	"github.com/llmsh/llmsh/third_party/gojq"
)

// The benchmarks use only gojq's public API of v0.12.20 (Parse, Compile,
// Run), so the same file runs against the unmodified first commit of this
// directory, for side-by-side figures.

// benchProgram is a filter of the size an agent writes: objects, strings
// with interpolation, numbers, a definition, reduce and alternatives.
const benchProgram = `def pct(a; b): if b == 0 then 0 else (a * 100 / b | floor) end;
[.[] | select(.ok and .score >= 10.5) | {id, name: "user-\(.id)", region, tags: (.tags // [] | join(",")),
  meta: {z: .meta.z, m: (.meta.m | ascii_upcase)}, n: 1}]
| group_by(.region) | map({region: .[0].region, n: length, share: pct(length; 1000)})
| reduce .[] as $r ({}; .[$r.region] = $r.n) | to_entries | sort_by(-.value) | .[:3]`

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := gojq.Parse(benchProgram); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseCompile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		q, err := gojq.Parse(benchProgram)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := gojq.Compile(q); err != nil {
			b.Fatal(err)
		}
	}
}

// benchInput makes n objects of 7 keys, one nested, with jq itself.
func benchInput(b *testing.B, n int) any {
	q, err := gojq.Parse(`[range(.) | {id: ., name: "user-\(.)", region: (["Central","East","West"][. % 3]),
		score: (. * 1.5), tags: ["x", "y"], meta: {z: ., a: true, m: "mid"}, ok: (. % 2 == 0)}]`)
	if err != nil {
		b.Fatal(err)
	}
	v, _ := q.Run(n).Next()
	if err, ok := v.(error); ok {
		b.Fatal(err)
	}
	return v
}

func benchRun(b *testing.B, filter string, n int) {
	in := benchInput(b, n)
	q, err := gojq.Parse(filter)
	if err != nil {
		b.Fatal(err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		iter := code.Run(in)
		for {
			v, ok := iter.Next()
			if !ok {
				break
			}
			if err, ok := v.(error); ok {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkGroupBy(b *testing.B) { benchRun(b, `group_by(.region) | map(length)`, 20000) }

func BenchmarkSortBy(b *testing.B) { benchRun(b, `sort_by(.name) | length`, 20000) }

func BenchmarkObjectBuild(b *testing.B) { benchRun(b, `map({region, id, s: .score}) | length`, 20000) }
