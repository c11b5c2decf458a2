package builtins_test

import (
	"context"
	"strings"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 paste (LC_ALL=C).
func TestPaste(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"1\n2\n3\n", []string{"paste", "-", "-"}, "1\t2\n3\t\n", "", 0},
		{"1\n2\n3\n", []string{"paste", "-", "-", "-", "-"}, "1\t2\t3\t\n", "", 0},
		{"1\n2\n3\n", []string{"paste", "-d,;", "-", "-", "-", "-"}, "1,2;3,\n", "", 0},
		{"1\n2\n3\n", []string{"paste", "-s"}, "1\t2\t3\n", "", 0},
		{"1\n2\n3", []string{"paste", "-s", "-d\\n"}, "1\n2\n3\n", "", 0},
		{"1\n2\n3\n", []string{"paste", "-s", "-d,\\0"}, "1,23\n", "", 0},
		{"1\n2\n3\n4\n", []string{"paste", "-s", "-d\\t\\\\x"}, "1\t2\\3x4\n", "", 0},
		{"1\n2\n3\n4\n", []string{"paste", "-s", "-d\\q\\b"}, "1q2\x083q4\n", "", 0},
		{"1\n2\n3\n", []string{"paste", "-d", "\\", "-", "-"}, "", "paste: delimiter list ends with an unescaped backslash: \\\n", 1},
		{"1\n2\n3\n", []string{"paste", "-d", "x\\", "-"}, "", "paste: delimiter list ends with an unescaped backslash: x\\\n", 1},
		{"1\n2\n3\n", []string{"paste", "-d\\\\", "-", "-"}, "1\\2\n3\\\n", "", 0},
		{"", []string{"paste", "-s"}, "\n", "", 0},
		{"", []string{"paste"}, "", "", 0},
		{"1\x002\x00", []string{"paste", "-z", "-", "-"}, "1\t2\x00", "", 0},
		{"1\x002\x00", []string{"paste", "-zs"}, "1\t2\x00", "", 0},
		{"1\n2\n3\n", []string{"paste", "-d", "", "-", "-"}, "12\n3\n", "", 0},
		{"1\n2\n3\n", []string{"paste", "-x"}, "", "paste: invalid option -- 'x'\nTry 'paste --help' for more information.\n", 1},
		{"1\n2\n3\n", []string{"paste", "-s", "-", "-"}, "1\t2\t3\n\n", "", 0},
	})
}

func TestPasteStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("abc\n", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "paste", "-", "-"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &strings.Builder{}, "paste", "-s"); st != 1 || msg != "" {
		t.Errorf("cancelled: %d %q", st, msg)
	}
}
