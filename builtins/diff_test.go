package builtins

import (
	"bytes"
	"context"
	"fmt"
	"testing"

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
	fa, fb := splitDiffLines(a.Bytes()), splitDiffLines(b.Bytes())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var err error
	allocs := testing.AllocsPerRun(1, func() { _, err = diffLines(ctx, fa, fb, &diffOpts{tabsize: 8}) })
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
	if f, err := splitDiffLinesCtx(ctx, data); err != gnu.ErrCancelled || f != nil {
		t.Fatalf("cancelled: %v, %v", f, err)
	}
	f, err := splitDiffLinesCtx(context.Background(), data)
	if err != nil || len(f.lines) != 1<<18+1 || string(f.lines[1<<18]) != "y" || !f.missingNewline {
		t.Fatalf("got %d lines, %v", len(f.lines), err)
	}
}
