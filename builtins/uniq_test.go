package builtins_test

import (
	"context"
	"strings"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 uniq (LC_ALL=C).
func TestUniq(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"a\na\nb\nc\nc\nc\nd\n", []string{"uniq"}, "a\nb\nc\nd\n", "", 0},
		{"a\na\nb\nc\nc\nc\nd", []string{"uniq"}, "a\nb\nc\nd\n", "", 0},
		{"a\na\nb\nc\nc\nc\nd\n", []string{"uniq", "-c"}, "      2 a\n      1 b\n      3 c\n      1 d\n", "", 0},
		{"a\na\nb\nc\nc\nc\nd\n", []string{"uniq", "-d"}, "a\nc\n", "", 0},
		{"a\na\nb\nc\nc\nc\nd\n", []string{"uniq", "-u"}, "b\nd\n", "", 0},
		{"a\na\nb\nc\nc\nc\nd\n", []string{"uniq", "-D"}, "a\na\nc\nc\nc\n", "", 0},
		{"a\na\nb\nc\nc\nc\nd\n", []string{"uniq", "--all-repeated=separate"}, "a\na\n\nc\nc\nc\n", "", 0},
		{"a\na\nb\nc\nc\nc\nd\n", []string{"uniq", "--all-repeated=prepend"}, "\na\na\n\nc\nc\nc\n", "", 0},
		{"a\na\nb\nc\nc\nc\nd\n", []string{"uniq", "--all-repeated"}, "a\na\nc\nc\nc\n", "", 0},
		{"a\na\nb\nc\nc\nc\nd\n", []string{"uniq", "-dc"}, "      2 a\n      3 c\n", "", 0},
		{"a\na\nb\nc\nc\nc\nd\n", []string{"uniq", "-uc"}, "      1 b\n      1 d\n", "", 0},
		{"a\na\nb\nc\nc\nc\nd\n", []string{"uniq", "-Du"}, "a\nc\nc\n", "", 0},
		{"a\nA\nb\n", []string{"uniq", "-i"}, "a\nb\n", "", 0},
		{"a\nA\nb\n", []string{"uniq", "-ic"}, "      2 a\n      1 b\n", "", 0},
		{"x a\ny a\nz b\n", []string{"uniq", "-f1"}, "x a\nz b\n", "", 0},
		{"x a\ny  a\nz b\n", []string{"uniq", "-f", "1", "-c"}, "      1 x a\n      1 y  a\n      1 z b\n", "", 0},
		{"ab1\nab2\nac3\n", []string{"uniq", "-w2"}, "ab1\nac3\n", "", 0},
		{"ab1\nab2\nac3\n", []string{"uniq", "-w1", "-c"}, "      3 ab1\n", "", 0},
		{"1ab\n2ab\n3ac\n", []string{"uniq", "-s1", "-w1"}, "1ab\n", "", 0},
		{"1ab\n2ab\n3ac\n", []string{"uniq", "-s2"}, "1ab\n3ac\n", "", 0},
		{"aa\nab\nac\n", []string{"uniq", "-w1", "-D"}, "aa\nab\nac\n", "", 0},
		{"a\x00a\x00b\x00", []string{"uniq", "-z"}, "a\x00b\x00", "", 0},
		{"a\x00a\x00b", []string{"uniq", "-zc"}, "      2 a\x00      1 b\x00", "", 0},
		{"", []string{"uniq"}, "", "", 0},
		{"", []string{"uniq", "-c"}, "", "", 0},
		{"a\n", []string{"uniq", "-f", "x"}, "", "uniq: x: invalid number of fields to skip\n", 1},
		{"a\n", []string{"uniq", "-s", "-1"}, "", "uniq: -1: invalid number of bytes to skip\n", 1},
		{"a\n", []string{"uniq", "-w", "x"}, "", "uniq: x: invalid number of bytes to compare\n", 1},
		{"a\n", []string{"uniq", "-cD"}, "", "uniq: printing all duplicated lines and repeat counts is meaningless\nTry 'uniq --help' for more information.\n", 1},
		{"a\n", []string{"uniq", "a", "b", "c"}, "", "uniq: extra operand 'c'\nTry 'uniq --help' for more information.\n", 1},
		{"a\n", []string{"uniq", "--all-repeated=foo"}, "", "uniq: invalid argument 'foo' for '--all-repeated'\nValid arguments are:\n  - 'none'\n  - 'prepend'\n  - 'separate'\nTry 'uniq --help' for more information.\n", 1},
		{"a\n", []string{"uniq", "-x"}, "", "uniq: invalid option -- 'x'\nTry 'uniq --help' for more information.\n", 1},
		{"a\n", []string{"uniq", "-f", "99999999999999999999"}, "a\n", "", 0},
		{"\xff\xfe\n\xff\xfe\nz\n", []string{"uniq", "-c"}, "      2 \xff\xfe\n      1 z\n", "", 0},
		// --group, checked against GNU coreutils 9.1.
		{"b\nb\na\nc\nc\n", []string{"uniq", "--group"}, "b\nb\n\na\n\nc\nc\n", "", 0},
		{"b\nb\na\nc\nc\n", []string{"uniq", "--group=prepend"}, "\nb\nb\n\na\n\nc\nc\n", "", 0},
		{"b\nb\na\nc\nc\n", []string{"uniq", "--group=append"}, "b\nb\n\na\n\nc\nc\n\n", "", 0},
		{"b\nb\na\nc\nc\n", []string{"uniq", "--group=both"}, "\nb\nb\n\na\n\nc\nc\n\n", "", 0},
		{"a\nA\nb\n", []string{"uniq", "-i", "--group=both"}, "\na\nA\n\nb\n\n", "", 0},
		{"a\x00a\x00b\x00", []string{"uniq", "-z", "--group"}, "a\x00a\x00\x00b\x00", "", 0},
		{"", []string{"uniq", "--group=both"}, "", "", 0},
		{"a\n", []string{"uniq", "--group", "-u"}, "", "uniq: --group is mutually exclusive with -c/-d/-D/-u\nTry 'uniq --help' for more information.\n", 1},
		{"a\n", []string{"uniq", "--group=x"}, "", "uniq: invalid argument 'x' for '--group'\nValid arguments are:\n  - 'prepend'\n  - 'append'\n  - 'separate'\n  - 'both'\nTry 'uniq --help' for more information.\n", 1},
	})
}

func TestUniqStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("b\na\n", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "uniq"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &strings.Builder{}, "uniq"); st != 1 || msg != "" {
		t.Errorf("cancelled: %d %q", st, msg)
	}
}
