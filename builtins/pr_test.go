package builtins_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// Expected values produced by GNU pr 9.1.
func TestPr(t *testing.T) {
	t.Parallel()
	files := map[string]string{"s10": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "s5": "11\n12\n13\n14\n15\n", "long": "abcdefghijklmnopqrstuvwxyz\nb\nc\n",
		// blanks in columns: empty lines, trailing blanks, tabs, long lines
		"e1": "a\n\nb\n\n", "e2": "a  \nb  \nc\n", "e3": "abcdefghijklmnopqrstuvwxyz0123456789ABCDEF\n2\n3\n",
		"e4": "a\tb\tc\n  x  y \nlong line with\ttabs\tand more text to cut off here\n"}
	runLines(t, []linesCase{
		{files, []string{"pr", "-t", "-n", "s10"}, "", "    1\t1\n    2\t2\n    3\t3\n    4\t4\n    5\t5\n    6\t6\n    7\t7\n    8\t8\n    9\t9\n   10\t10\n", "", 0},
		{files, []string{"pr", "-t", "-3", "s10"}, "", "1\t\t\t5\t\t\t8\n2\t\t\t6\t\t\t9\n3\t\t\t7\t\t\t10\n4\n", "", 0},
		// -COLUMN's digits start again after another option; --columns
		// overrides them; they are checked after the options
		{files, []string{"pr", "-2", "-t", "-3", "s10"}, "", "1\t\t\t5\t\t\t8\n2\t\t\t6\t\t\t9\n3\t\t\t7\t\t\t10\n4\n", "", 0},
		{files, []string{"pr", "-t", "-3", "--columns=1", "s5"}, "", "11\n12\n13\n14\n15\n", "", 0},
		{files, []string{"pr", "-t", "-0", "s5"}, "", "", "pr: invalid number of columns: '0': Numerical result out of range\n", 1},
		{files, []string{"pr", "-t", "-3", "-a", "s10"}, "", "1\t\t\t2\t\t\t3\n4\t\t\t5\t\t\t6\n7\t\t\t8\t\t\t9\n10\n", "", 0},
		{files, []string{"pr", "-t", "-m", "s10", "s5"}, "", "1\t\t\t\t    11\n2\t\t\t\t    12\n3\t\t\t\t    13\n4\t\t\t\t    14\n5\t\t\t\t    15\n6\t\t\t\t    \n7\t\t\t\t    \n8\t\t\t\t    \n9\t\t\t\t    \n10\t\t\t\t    \n", "", 0},
		{files, []string{"pr", "-t", "-2", "-s", "s10"}, "", "1\t6\n2\t7\n3\t8\n4\t9\n5\t10\n", "", 0},
		{files, []string{"pr", "-m", "-t", "nope1", "nope2"}, "", "", "pr: nope1: No such file or directory\npr: nope2: No such file or directory\n", 1},
		// -m -n: one number a merged line, the columns narrower by it
		{files, []string{"pr", "-m", "-t", "-n", "-w30", "s5", "e2"}, "", "    1\t11\t   a\n    2\t12\t   b\n    3\t13\t   c\n    4\t14\t   \n    5\t15\t   \n", "", 0},
		{files, []string{"pr", "-m", "-t", "-n:", "-o2", "-w30", "e2", "s5"}, "", "      1:a\t    11\n      2:b\t    12\n      3:c\t    13\n      4:\t    14\n      5:\t    15\n", "", 0},
		{files, []string{"pr", "-t", "-2", "-s:", "s10"}, "", "1:6\n2:7\n3:8\n4:9\n5:10\n", "", 0},
		{files, []string{"pr", "-t", "-d", "s5"}, "", "11\n\n12\n\n13\n\n14\n\n15\n\n", "", 0},
		{files, []string{"pr", "-t", "-o", "3", "s5"}, "", "   11\n   12\n   13\n   14\n   15\n", "", 0},
		{files, []string{"pr", "-t", "-w", "20", "-2", "long"}, "", "abcdefghi c\nb\n", "", 0},
		{files, []string{"pr", "-l", "5", "s10"}, "", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "", 0},
		{files, []string{"pr", "-t", "-2", "e1"}, "", "a\t\t\t\t    b\n\t\t\t\t    \n", "", 0},
		{files, []string{"pr", "-t", "-2", "-s,", "e1"}, "", "a,b\n,\n", "", 0},
		{files, []string{"pr", "-t", "-3", "e2"}, "", "a\t\t\tb\t\t\tc\n", "", 0},
		{files, []string{"pr", "-t", "-3", "-o", "2", "e2"}, "", "  a\t\t\t  b\t\t\t  c\n", "", 0},
		{files, []string{"pr", "-t", "-3", "e3"}, "", "abcdefghijklmnopqrstuvw 2\t\t\t3\n", "", 0},
		{files, []string{"pr", "-t", "-3", "-a", "-n", "e3"}, "", "    1\tabcdefghijklmno     2\t2\t\t    3\t3\n", "", 0},
		{files, []string{"pr", "-t", "-2", "-n", "e1"}, "", "    1\ta\t\t\t    \t3   b\n    2\t\t\t\t    \t4\n", "", 0},
		{files, []string{"pr", "-t", "-2", "e4"}, "", "a\tb\tc\t\t    long line with  tabs    and more te\n  x  y\n", "", 0},
		{files, []string{"pr", "-t", "-2", "-d", "e2"}, "", "a\t\t\t\t    c\n\nb\n", "", 0},
		{files, []string{"pr", "-t", "-m", "e2", "e1"}, "", "a\t\t\t\t    a\nb\t\t\t\t    \nc\t\t\t\t    b\n\t\t\t\t    \n", "", 0},
		{files, []string{"pr", "-t", "-m", "e2"}, "", "a  \nb  \nc\n", "", 0},
		{files, []string{"pr", "nosuch"}, "", "", "pr: nosuch: No such file or directory\n", 1},
		{files, []string{"pr", "/dev/null"}, "", "", "", 0},
	})
	// The header dates the file by its modification time (now, here).
	r := runCmd(t, files, "", "pr", "-h", "HDR", "-l", "12", "s5")
	got := regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d`).ReplaceAllString(r.stdout, "DATE")
	if want := "\n\nDATE                       HDR                        Page 1\n\n\n11\n12\n\n\n\n\n\n\n\nDATE                       HDR                        Page 2\n\n\n13\n14\n\n\n\n\n\n\n\nDATE                       HDR                        Page 3\n\n\n15\n\n\n\n\n\n\n"; got != want || r.status != 0 {
		t.Errorf("pr -h: got %q, want %q", got, want)
	}
}

// TestPrStops: cutting a file into lines and laying them out in pages
// look at the context (session 23, red team: pr of the 20 million lines
// of a 169 MB file in a library Session.Run with a 1 s limit answered
// after 21 s, in prColumns); the cut is strings.Split's.
func TestPrStops(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "a", "a\n", "\n\n", "a\nb", "a\n\nb\n"} {
		got, err := ForTests.SplitStringLines(context.Background(), s)
		if want := strings.Split(s, "\n"); err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %q, %v, want %q", s, got, err, want)
		}
	}
	s := strings.Repeat("x\n", 1<<18)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ForTests.SplitStringLines(ctx, s); err != gnu.ErrCancelled {
		t.Fatalf("split under a cancelled context: %v", err)
	}
	lines := strings.Split(s, "\n")
	if pages := ForTests.PrColumns(&Env{Ctx: ctx}, 1, 66, lines); pages != 0 {
		t.Fatalf("prColumns under a cancelled context: %d pages", pages)
	}
	if pages := ForTests.PrColumns(&Env{Ctx: context.Background()}, 1, 66, lines); pages != (len(lines)+55)/56 {
		t.Fatalf("prColumns: %d pages", pages)
	}
}
