package builtins_test

import (
	"context"
	"strings"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 fold (LC_ALL=C).
func TestFold(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"hello world this is a test\n", []string{"fold", "-w", "10"}, "hello worl\nd this is \na test\n", "", 0},
		{"hello world this is a test\n", []string{"fold", "-w", "10", "-s"}, "hello \nworld \nthis is a \ntest\n", "", 0},
		{"hello world this is a test", []string{"fold", "-w10", "-s"}, "hello \nworld \nthis is a \ntest", "", 0},
		{"a\tb\tc\td\n", []string{"fold", "-w", "10"}, "a\tb\n\tc\n\td\n", "", 0},
		{"a\tb\tc\td\n", []string{"fold", "-b", "-w", "5"}, "a\tb\tc\n\td\n", "", 0},
		{"ab\\bcd\\ref\n", []string{"fold", "-w", "3"}, "ab\\\nbcd\n\\re\nf\n", "", 0},
		{"abcdefghij\n", []string{"fold", "-3"}, "abc\ndef\nghi\nj\n", "", 0},
		{"abcdefghij\n", []string{"fold", "-w", "1"}, "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "", 0},
		{"x\n", []string{"fold", "-w", "0"}, "", "fold: invalid number of columns: '0': Numerical result out of range\n", 1},
		{"x\n", []string{"fold", "-w", "x"}, "", "fold: invalid number of columns: 'x'\n", 1},
		{"x\n", []string{"fold", "-w", "-1"}, "", "fold: invalid number of columns: '-1'\n", 1},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", []string{"fold"}, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\naaaaaaaaaaaaaaaaaaaa\n", "", 0},
		{"a b  c d\n", []string{"fold", "-s", "-w", "3"}, "a \nb  \nc d\n", "", 0},
		{"\xff\xfe\xfd\n", []string{"fold", "-w", "2"}, "\xff\xfe\n\xfd\n", "", 0},
	})
}

func TestFoldStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("abc def ghi\n", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "fold", "-w4"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &strings.Builder{}, "fold"); st != 1 || msg != "" {
		t.Errorf("cancelled: %d %q", st, msg)
	}
}
