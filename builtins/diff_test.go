package builtins_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// TestDiffLinesStopsEarly: the equivalence classes of millions of lines
// took seconds without a look at the context, so a cancelled diff (sdiff,
// diff3) ran on that long past a time limit. Once the context has ended,
// diffLines builds no class of the lines (each class a string allocated).
func TestDiffLinesStopsEarly(t *testing.T) {
	var a, b bytes.Buffer
	for i := range 1 << 17 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	diff := ForTests.DiffLines(a.Bytes(), b.Bytes())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var err error
	allocs := testing.AllocsPerRun(1, func() { err = diff(ctx) })
	if err == nil {
		t.Fatal("diffLines under a cancelled context: no error")
	}
	if allocs > 1000 {
		t.Errorf("diffLines under a cancelled context made %v allocations (lines classified)", allocs)
	}
}

// TestSplitDiffLinesStops: cutting a file into lines looks at the context
// too (session 23, red team: the 20 million lines of a 169 MB file took
// seconds past a 1 s limit before diffLines was reached); uncancelled, it
// cuts them all, the last without a newline as such.
func TestSplitDiffLinesStops(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("x\n"), 1<<18)
	data = append(data, 'y')
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if lines, _, err := ForTests.SplitDiffLines(ctx, data); err != gnu.ErrCancelled || lines != nil {
		t.Fatalf("cancelled: %d lines, %v", len(lines), err)
	}
	lines, missingNewline, err := ForTests.SplitDiffLines(context.Background(), data)
	if err != nil || len(lines) != 1<<18+1 || string(lines[1<<18]) != "y" || !missingNewline {
		t.Fatalf("got %d lines, %v", len(lines), err)
	}
}
