package builtins_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
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

// TestDiffStreamsBigFiles: two files past the held-input bound are
// compared as streams when that decides diff's answer (session 33: two
// 349 MB files could not be compared at the default bound of 256 MiB,
// where GNU diff answers): identical (-s), differing under -q, binary,
// one missing under -N -q. Lines that differ still need them whole:
// value too large, as before.
func TestDiffStreamsBigFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	var text bytes.Buffer
	for i := range 30000 {
		fmt.Fprintf(&text, "line %d\n", i)
	}
	a := text.String()
	writeTestFile(t, fsys, dir+"/a", a)
	writeTestFile(t, fsys, dir+"/c", a)
	writeTestFile(t, fsys, dir+"/b", strings.Replace(a, "line 20000\n", "x\n", 1))
	writeTestFile(t, fsys, dir+"/bin", "\x00"+a[1:])
	for _, c := range []struct {
		args     []string
		out      string
		st       int
		tooLarge bool
	}{
		{[]string{"diff", "-s", "a", "c"}, "Files a and c are identical\n", 0, false},
		{[]string{"diff", "a", "c"}, "", 0, false},
		{[]string{"diff", "-q", "a", "b"}, "Files a and b differ\n", 1, false},
		{[]string{"diff", "a", "bin"}, "Binary files a and bin differ\n", 1, false},
		{[]string{"diff", "-N", "-q", "a", "missing"}, "Files a and missing differ\n", 1, false},
		{[]string{"diff", "a", "b"}, "", 2, true},
		{[]string{"diff", "-q", "-i", "a", "b"}, "", 2, true},
	} {
		var limits []error
		var out, errb strings.Builder
		b, _ := Lookup("diff")
		st := Run(b, &Env{Ctx: context.Background(), Args: c.args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			FS: fsys, Dir: dir, MaxLine: 100000, Limit: func(err error) { limits = append(limits, err) }})
		if st != c.st || out.String() != c.out || errb.Len() != 0 || (len(limits) == 1) != c.tooLarge {
			t.Errorf("%q: status %d, stdout %q, stderr %q, limits %v", c.args, st, out.String(), errb.String(), limits)
		}
	}
}
