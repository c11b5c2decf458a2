package builtins_test

import (
	"context"
	"io"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// Expected values checked against GNU wc 9.1 (LC_ALL=C.UTF-8).
func TestWc(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"wc"}, "hello world\nfoo\n", "      2       3      16\n", "", 0},
		{nil, []string{"wc"}, "", "      0       0       0\n", "", 0},
		{nil, []string{"wc"}, "no newline", "      0       2      10\n", "", 0},
		{nil, []string{"wc", "-l"}, "a\nb\nc", "2\n", "", 0},
		{nil, []string{"wc", "-w"}, "  one two\tthree\n\x0bfour\x0d\x0cfive ", "5\n", "", 0},
		{nil, []string{"wc", "-c"}, "abc\n", "4\n", "", 0},
		{nil, []string{"wc", "-m"}, "h\xc3\xa9llo w\xc3\xb6rld\x80 \xe4\xb8\xad\xe6\x96\x87\tx\x01y \xc2\xa0z\n", "22\n", "", 0},
		{nil, []string{"wc", "-L"}, "h\xc3\xa9llo w\xc3\xb6rld\x80 \xe4\xb8\xad\xe6\x96\x87\tx\x01y \xc2\xa0z\n", "29\n", "", 0},
		{nil, []string{"wc"}, "h\xc3\xa9llo w\xc3\xb6rld\x80 \xe4\xb8\xad\xe6\x96\x87\tx\x01y \xc2\xa0z\n", "      1       5      30\n", "", 0},
		{nil, []string{"wc", "-mL"}, "h\xc3\xa9llo w\xc3\xb6rld\x80 \xe4\xb8\xad\xe6\x96\x87\tx\x01y \xc2\xa0z\n", "     22      29\n", "", 0},
		{nil, []string{"wc", "-lwmcL"}, "h\xc3\xa9llo w\xc3\xb6rld\x80 \xe4\xb8\xad\xe6\x96\x87\tx\x01y \xc2\xa0z\n", "      1       5      22      30      29\n", "", 0},
		{nil, []string{"wc", "-L"}, "ab\tc\x0dxyzw\n12345678901\n", "11\n", "", 0},
		{nil, []string{"wc", "-w"}, "\x01 \x01 a\x01b", "1\n", "", 0},
		{nil, []string{"wc", "-m"}, "\xe4\xb8", "0\n", "", 0},
		{nil, []string{"wc", "-cl"}, "x\n", "      1       2\n", "", 0},
		{nil, []string{"wc", "-"}, "x y\n", "      1       2       4 -\n", "", 0},
		{nil, []string{"wc", "-l", "-"}, "x y\n", "1 -\n", "", 0},
		{nil, []string{"wc", "-L"}, "e\xcc\x81\xe3\x80\x80x\n", "4\n", "", 0},
		{nil, []string{"wc", "-w"}, "a\xe2\x80\x83b c\xe2\x80\x87d\n", "4\n", "", 0},
		{nil, []string{"wc", "--lines", "-", "-"}, "1\n2\n", "      2 -\n      0 -\n      2 total\n", "", 0},
		{nil, []string{"wc", "-x"}, "", "", "wc: invalid option -- 'x'\nTry 'wc --help' for more information.\n", 1},
	})
}

// TestWcChunkBoundaries counts multibyte characters that straddle the read
// buffer; checked against GNU wc 9.1 (LC_ALL=C.UTF-8).
func TestWcChunkBoundaries(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("\u00e9", 70001) + strings.Repeat(" \u4e2d", 30000) + "\n"
	got := runCmd(t, nil, strings.Repeat(line, 3), "wc", "-mwLlc")
	want := "      3   90003  390006  780009  160001\n"
	if got.stdout != want || got.status != 0 {
		t.Errorf("got %q (status %d), want %q", got.stdout, got.status, want)
	}
}

// A reader with WriteTo (a vfsd file has one) is counted from its own
// buffers: the same counts as through Read, and a cancelled context stops
// the count.
func TestWcCountWriterTo(t *testing.T) {
	t.Parallel()
	data := strings.Repeat("some line\n", 50_000) + "tail"
	buf := make([]byte, ForTests.IOBufSize()+4)
	env := &Env{Ctx: context.Background()}
	for _, what := range []struct{ lines, bytes bool }{{lines: true}, {bytes: true}, {lines: true, bytes: true}} {
		lines, bytes, err := ForTests.WcCount(env, strings.NewReader(data), what.lines, what.bytes, buf)
		if err != nil {
			t.Fatal(err)
		}
		rlines, rbytes, err := ForTests.WcCount(env, struct{ io.Reader }{strings.NewReader(data)}, what.lines, what.bytes, buf)
		if err != nil {
			t.Fatal(err)
		}
		if lines != rlines || bytes != rbytes || bytes != int64(len(data)) || (what.lines && lines != 50_000) {
			t.Fatalf("%+v: WriteTo %d lines %d bytes, Read %d lines %d bytes", what, lines, bytes, rlines, rbytes)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := ForTests.WcCount(&Env{Ctx: ctx}, strings.NewReader(data), true, false, buf); err != gnu.ErrCancelled {
		t.Fatalf("cancelled: err = %v", err)
	}
}
