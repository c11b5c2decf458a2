package stopre_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/internal/stopre"
)

var benchText = strings.Repeat("the quick brown fox jumps over the lazy dog ", 100)

func BenchmarkDirect(b *testing.B) {
	for _, src := range []string{`[a-z]+`, `o`, `\bfox\b`, `(qu|la)[a-z]*`} {
		re := regexp.MustCompile(src)
		b.Run(src, func(b *testing.B) {
			for b.Loop() {
				re.FindAllStringSubmatchIndex(benchText, -1)
			}
		})
	}
}

func BenchmarkEach(b *testing.B) {
	for _, src := range []string{`[a-z]+`, `o`, `\bfox\b`, `(qu|la)[a-z]*`} {
		re := regexp.MustCompile(src)
		s := New(re, false)
		b.Run(src, func(b *testing.B) {
			for b.Loop() {
				Each(context.Background(), s, benchText, -1, func([]int) bool { return true })
			}
		})
	}
}
