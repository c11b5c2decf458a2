package interp_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/goawk/interp"
	"github.com/llmsh/llmsh/third_party/goawk/parser"
)

// BenchmarkWordCount is the commonest awk idiom, {c[$1]++} and a for-in,
// over 1M lines of 5 words from a 5000-word vocabulary (llmsh: measures
// the cost of the mawk-ordered arrays of awkarray.go).
func BenchmarkWordCount(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 1000000; i++ {
		for j := 0; j < 5; j++ {
			fmt.Fprintf(&sb, "w%d ", (i*7+j*13+i*j)%5000)
		}
		sb.WriteString("\n")
	}
	input := sb.String()
	for _, src := range []string{
		`{c[$1]++} END {for (k in c) n++; print n}`,
		`{for (i = 1; i <= NF; i++) c[$i]++} END {for (k in c) n++; print n}`,
		`{a[NR % 4096] += NF} END {for (k in a) n++; print n}`,
	} {
		prog, err := parser.ParseProgram([]byte(src), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(src[:12], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				var out bytes.Buffer
				cfg := &interp.Config{Stdin: strings.NewReader(input), Output: &out, Error: io.Discard}
				if _, err := interp.ExecProgram(prog, cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
