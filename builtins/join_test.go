package builtins_test

import (
	"context"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// joinCase joins the files "a" and "b" (or stdin where an operand is "-").
type joinCase struct {
	a, b   string
	args   []string
	out    string
	err    string
	status int
}

func joinRun(t *testing.T, cases []joinCase) {
	t.Helper()
	var fc []textFileCase
	for _, c := range cases {
		fc = append(fc, textFileCase{map[string]string{"a": c.a, "b": c.b}, append([]string{"join"}, c.args...), c.out, c.err, c.status, "", ""})
	}
	runTextFiles(t, fc)
}

// Expected values checked against GNU coreutils 9.1 join (LC_ALL=C); most
// cases are the vectors of coreutils' tests/join/join.pl.
func TestJoin(t *testing.T) {
	t.Parallel()
	f := []string{"a", "b"}
	with := func(opts ...string) []string { return append(opts, f...) }
	joinRun(t, []joinCase{
		{"a 1\n", "b\n", with("-a1"), "a 1\n", "", 0},
		{"a 1\n", "b\n", with("-a2"), "b\n", "", 0},
		{"a 1\n", "b\n", with("-a1", "-a2"), "a 1\nb\n", "", 0},
		{"a 1\nb\n", "b\n", with("-a1"), "a 1\nb\n", "", 0},
		{"b\n", "a\nb\n", with("-a2"), "a\nb\n", "", 0},
		{"a\nb\nc\n", "a x y\nb\nc\n", with("-a1", "-e", "."), "a x y\nb\nc\n", "", 0},
		{"a\nb\nc\nd\n", "a x y\nb\nc\n", with("-a1", "-e", ".", "-o", "2.1,2.2,2.3"), "a x y\nb . .\nc . .\n. . .\n", "", 0},
		{"\n\na", "\n\nb", with("-e", "c"), "c\nc\nc\nc\n", "", 0},
		{"a:1\nb:1\n", "a:2:\nb:2:\n", with("-t:"), "a:1:2:\nb:1:2:\n", "", 0},
		{"a 1\nb 1\n", "a 1\nb 2\n", with("-t", ""), "a 1\n", "", 0},
		{"a\x00a\n", "a\x00b\n", with("-t", `\0`), "a\x00a\x00b\n", "", 0},
		{"a\xa71\nb\xa71\n", "a\xa72\xa7\nb\xa72\xa7\n", with("-t\xa7"), "a\xa71\xa72\xa7\nb\xa71\xa72\xa7\n", "", 0},
		{"a 1\n", "b\n", with("-v", "1"), "a 1\n", "", 0},
		{"a 1\nb\n", "b\n", with("-v", "2"), "", "", 0},
		{"b\n", "a 1\nb\n", with("-v", "2"), "a 1\n", "", 0},
		{"a\nb\n", "b\nc\n", with("-v1", "-v2"), "a\nc\n", "", 0},
		{"apr 15\naug 20\ndec 18\nfeb 05\n", "apr 06\naug 14\ndate\nfeb 15\n", with("-a1", "-e", "-", "-o", "1.1,2.2"), "apr 06\naug 14\ndec -\nfeb 15\n", "", 0},
		{"apr 15\naug 20\ndec 18\nfeb 05\n", "apr 06\naug 14\ndate\nfeb 15\n", with("-a2", "-e", "-", "-o", "2.2,1.1"), "06 apr\n14 aug\n- -\n15 feb\n", "", 0},
		{"dec 18\n", "", with("-a1", "-e", "-", "-o", "1.1,2.2"), "dec -\n", "", 0},
		{"a 21\nb 22\nc 23\nf 26\n", "a 1\nb 2\nd 4\n", with("-a1", "-e", "-"), "a 21 1\nb 22 2\nc 23\nf 26\n", "", 0},
		{"a\nb\nc\nd G\n", "a x y\nb\nc\ne\n", with("-a1", "-a2", "-e", ".", "-o", "0,1.2"), "a .\nb .\nc .\nd G\ne .\n", "", 0},
		{" a 1\n b 2\n", " a Y\n b Z\n", with(), "a 1 Y\nb 2 Z\n", "", 0},
		{"a 1 2\nb 1\nd 1 2\n", "a 3 4\nb 3 4\nc 3 4\n", with("-a1", "-a2", "-e", ".", "-o", "auto"), "a 1 2 3 4\nb 1 . 3 4\nc . . 3 4\nd 1 2 . .\n", "", 0},
		{"a 1 2\nb 1\nd 1 2\n", "a 3 4\nb 3 4\nc 3 4\n", with("-a1", "-a2", "-j3", "-e", ".", "-o", "auto"), "2 a 1 . .\n. b 1 . .\n2 d 1 . .\n4 . . a 3\n4 . . b 3\n4 . . c 3\n", "", 0},
		{"a 1 2\nb 1\nd 1 2\n", "a 3 4\nb 3 4\nc 3 4\n", with("-a2", "-1", "1", "-2", "4", "-e.", "-o", "auto"), ". . . a 3 4\n. . . b 3 4\n. . . c 3 4\n", "", 0},
		{"a,1,,2\nb,1,2\n", "a,3,4\nb,3,4\n", with("-t,", "-o", "auto"), "a,1,,2,3,4\nb,1,2,,3,4\n", "", 0},
		{"a,,b\n", "a,c,\n", with("-t,", "-e", "X"), "a,X,b,c,X\n", "", 0},
		{"", "2 1\n", with("-v2", "-2", "2"), "1 2\n", "", 0},
		{"a:x \n", "a:y \n", with("-t:", "-1", "1", "-2", "1"), "a:x :y \n", "", 0},
		{"\f 1\n", "\f 2\n", with(), "\f 1 2\n", "", 0},
		{"a\n", "b\n", with("-1", "18446744073709551616", "-2", "2"), " a b\n", "", 0},
		{"A 1\nb 2\n", "a x\nB y\n", with("-i"), "A 1 x\nb 2 y\n", "", 0},
		{"a 1\na 2\nb 3\n", "a x\na y\nb z\nb w\n", with(), "a 1 x\na 1 y\na 2 x\na 2 y\nb 3 z\nb 3 w\n", "", 0},
		{"1 a\n2 b\n", "a x\nb y\n", with("-j1", "2"), "a 1 x\nb 2 y\n", "", 0},
		{"x a\ny b\n", "p a\nq b\n", with("-j", "2"), "a x p\nb y q\n", "", 0},
		// Order checking.
		{" b 1\n a 2\n", " b Y\n a Z\n", with(), "b 1 Y\na 2 Z\n", "", 0},
		{" b 1\n a 2\n", " b Y\n a Z\n", with("--check-order"), "", "join: a:2: is not sorted:  a 2\n", 1},
		{" a 2\n b 1\n", " b Y\n\n", with("--check-order"), "", "join: b:2: is not sorted: \n", 1},
		{"a\nx\no", "b\ny\np", with(), "", "join: a:3: is not sorted: o\njoin: b:3: is not sorted: p\njoin: input is not in sorted order\n", 1},
		{" b 1\n a 2\n", " b Y\n c Z\n", with("--nocheck-order"), "b 1 Y\n", "", 0},
		{"2 a\n1 b\n", "2 c\n1 d", with("-12"), "", "", 0},
		{"2 a\n1 b\n", "", with(), "", "", 0},
		{"a\nc\nb\n", "a\nd\n", with("-a1"), "a\nc\nb\n", "", 0},
		{"a\nc\nd\nb\n", "a\ne\n", with("-a1"), "a\nc\nd\nb\n", "join: a:4: is not sorted: b\njoin: input is not in sorted order\n", 1},
		// Headers.
		{"ID Name\n1 A\n2 B\n", "ID Color\n1 red\n", with("--header"), "ID Name Color\n1 A red\n", "", 0},
		{"ID Name\n2 B\n1 A\n", "ID Color\n2 blue\n", with("--header", "--check-order"), "ID Name Color\n", "join: a:3: is not sorted: 1 A\n", 1},
		{"ID Group Name\n1 Foo A\n2 Bar B\n", "ID Color\n2 blue\n", with("--header", "-o", "0,1.3,2.2"), "ID Name Color\n2 B blue\n", "", 0},
		{"ID1 Name\n1 A\n", "", with("--header", "-a1"), "ID1 Name\n1 A\n", "", 0},
		// NUL-terminated lines.
		{"a\x00c\x00e", "a\x00b\x00c", with("-z"), "a\x00c\x00", "", 0},
		{"a\n\n1\x00c 3\x00", "a 2\x00b\n8\x00c 9\x00", with("-z", "-a1", "-a2"), "a 1 2\x00b 8\x00c 3 9\x00", "", 0},
		{"a\n1\n\x00", "a\n1\n\x00", with("-z", "-t", ""), "a\n1\n\x00", "", 0},
		// -o forms, including the obsolete one spread over operands.
		{"1 a x\n2 b y\n", "1 d u\n2 e v\n", with("-o", "1.1 1.3\t2.2"), "1 x d\n2 y e\n", "", 0},
		{"1 a x\n2 b y\n", "1 d u\n2 e v\n", with("-o", "1.1", "1.3", "2.2"), "1 x d\n2 y e\n", "", 0},
		{"1 a\n", "1 c\n", with("-a1", "-e", "d", "-e", "d", "-o", "1.1,1.2,2.2"), "1 a c\n", "", 0},
		// Errors.
		{"", "", with("-e", "d", "-e", "e"), "", "join: conflicting empty-field replacement strings\n", 1},
		{"", "", with("-j", "x"), "", "join: invalid field number: 'x'\n", 1},
		{"", "", with("-1", "it's"), "", "join: invalid field number: 'it\\'s'\n", 1},
		{"", "", with("-1", "0"), "", "join: invalid field number: '0'\n", 1},
		{"", "", with("-a", "3"), "", "join: invalid field number: '3'\n", 1},
		{"", "", with("-o", "3.1"), "", "join: invalid file number in field spec: '3.1'\n", 1},
		{"", "", with("-o", "0.1"), "", "join: invalid field specifier: '0.1'\n", 1},
		{"", "", with("-o", "1.1,"), "", "join: invalid file number in field spec: ''\n", 1},
		{"", "", with("-t", "ab"), "", "join: multi-character tab 'ab'\n", 1},
		{"", "", with("-t", "a", "-t", "b"), "", "join: incompatible tabs\n", 1},
		{"", "", with("-1", "2", "-j1", "1"), "", "join: incompatible join fields 2, 1\n", 1},
		{"", "", with("-x"), "", "join: invalid option -- 'x'\nTry 'join --help' for more information.\n", 1},
		{"", "", []string{"a"}, "", "join: missing operand after 'a'\nTry 'join --help' for more information.\n", 1},
		{"", "", []string{"a", "-i"}, "", "join: missing operand after '-i'\nTry 'join --help' for more information.\n", 1},
		{"", "", []string{}, "", "join: missing operand\nTry 'join --help' for more information.\n", 1},
		{"", "", []string{"a", "b", "a"}, "", "join: extra operand 'a'\nTry 'join --help' for more information.\n", 1},
		{"", "", []string{"-o", "1.1", "1.2", "2.2", "a"}, "", "join: 2.2: No such file or directory\n", 1},
		{"", "", []string{"a", "nosuch"}, "", "join: nosuch: No such file or directory\n", 1},
		{"", "", []string{"-", "-"}, "", "join: both files cannot be standard input\n", 1},
	})
}

// Checked against GNU coreutils 9.1 join (LC_ALL=C).
func TestJoinStdin(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"a 1\nb 2\n", []string{"join", "-", "-"}, "", "join: both files cannot be standard input\n", 1},
	})
	runTextFiles(t, []textFileCase{
		{map[string]string{"b": "a x\nc y\n"}, []string{"join", "-a2", "-", "b"}, "a x\nc y\n", "", 0, "", ""},
	})
	// stdin as FILE2.
	got := runCmd(t, map[string]string{"a": "a 1\nb 2\n"}, "a x\nb y\n", "join", "a", "-")
	if got.stdout != "a 1 x\nb 2 y\n" || got.stderr != "" || got.status != 0 {
		t.Errorf("join a -: %q %q %d", got.stdout, got.stderr, got.status)
	}
}

func TestJoinStops(t *testing.T) {
	t.Parallel()
	big := func() string {
		var b strings.Builder
		for i := range 200000 {
			b.WriteString(strings.Repeat("x", 8))
			b.WriteString(" ")
			b.WriteString(string(rune('a' + i%26)))
			b.WriteString("\n")
		}
		return b.String()
	}()
	// Every line of stdin pairs with every other: a huge output that must
	// stop at the first failed write, and at once when cancelled.
	files := map[string]string{"k": "xxxxxxxx 1\nxxxxxxxx 2\n"}
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeHostFiles(t, dir, files)
	b, _ := Lookup("join")
	env := &Env{Ctx: context.Background(), Args: []string{"join", "-", "k"}, Stdin: strings.NewReader(big),
		Stdout: pipeErrWriter{}, Stderr: &strings.Builder{}, FS: fsys, Dir: dir}
	if st := Run(b, env); st != 1 || env.Stderr.(*strings.Builder).String() != "" {
		t.Errorf("broken pipe: %d %q", st, env.Stderr.(*strings.Builder).String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out strings.Builder
	env = &Env{Ctx: ctx, Args: []string{"join", "-", "k"}, Stdin: strings.NewReader(big),
		Stdout: &out, Stderr: &strings.Builder{}, FS: fsys, Dir: dir}
	if st := Run(b, env); st != 1 || env.Stderr.(*strings.Builder).String() != "" || out.Len() >= 64<<10 {
		t.Errorf("cancelled: %d %q, %d bytes out", st, env.Stderr.(*strings.Builder).String(), out.Len())
	}
}
