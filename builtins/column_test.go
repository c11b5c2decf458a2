package builtins_test

import (
	"context"
	"strings"
	"testing"
)

// Expected values checked against util-linux 2.38.1 column (non-ASCII
// cases and trees against LC_ALL=C.UTF-8, the rest against LC_ALL=C).
func TestColumn(t *testing.T) {
	t.Parallel()
	t1 := "a b c\nd\nee f\n"
	seq := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			b.WriteString(strings.Repeat("x", i%3) + string(rune('a'+i%26)) + "\n")
		}
		return b.String()
	}
	runText(t, []textCase{
		// Fill modes: tab-stop columns in 80 (or -c) cells.
		{t1, []string{"column"}, "a b c\td\tee f\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", []string{"column", "-c", "20"}, "1\t7\n2\t8\n3\t9\n4\t10\n5\t11\n6\t12\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", []string{"column", "-x", "-c", "20"}, "1\t2\n3\t4\n5\t6\n7\t8\n9\t10\n11\t12\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", []string{"column", "-c", "30"}, "1\t5\t9\n2\t6\t10\n3\t7\t11\n4\t8\t12\n", "", 0},
		{seq(7), []string{"column", "--output-width=25"}, "xb\txe\txh\nxxc\txxf\nd\tg\n", "", 0},
		{"aaaaaaaaa\nb\nc\n", []string{"column", "-x", "-c", "10"}, "aaaaaaaaa\tb\t\tc\n", "", 0},
		{"aaaaaaaaa\nb\nc\n", []string{"column", "-c", "10"}, "aaaaaaaaa\nb\nc\n", "", 0},
		{"a\nb\n", []string{"column", "-c", "0"}, "a\nb\n", "", 0},
		{"  ab\ncd\n", []string{"column"}, "  ab\tcd\n", "", 0},
		{"a b\n\nc d\n", []string{"column"}, "a b\tc d\n", "", 0},
		{"a b\n\nc d\n", []string{"column", "-L"}, "a b\t\tc d\n", "", 0},
		{"", []string{"column"}, "", "", 0},
		// Table mode.
		{t1, []string{"column", "-t"}, "a   b  c\nd      \nee  f  \n", "", 0},
		{"  a  b   c  \n", []string{"column", "-t"}, "a  b  c\n", "", 0},
		{"a,,b\n,x,\n", []string{"column", "-t", "-s,"}, "a     b\n   x  \n", "", 0},
		{"  ab,x\ncd,y\n", []string{"column", "-t", "-s", ","}, "  ab  x\ncd    y\n", "", 0},
		{"a:b::c\n", []string{"column", "-t", "-s:", "-o", "|"}, "a|b||c\n", "", 0},
		{t1, []string{"column", "-t", "-o", "|"}, "a |b|c\nd | |\nee|f|\n", "", 0},
		{t1, []string{"column", "-t", "-R", "1,3"}, " a  b  c\n d     \nee  f  \n", "", 0},
		{"a bb\nccc d\n", []string{"column", "-t", "-R", "2"}, "a    bb\nccc   d\n", "", 0},
		{"X,YYYYYY,z\n", []string{"column", "-t", "-s,", "-R", "2", "-N", "aaa,bbbb"}, "aaa    bbbb  \nX    YYYYYY  z\n", "", 0},
		{t1, []string{"column", "-t", "-N", "X,Y,Z"}, "X   Y  Z\na   b  c\nd      \nee  f  \n", "", 0},
		{t1, []string{"column", "-t", "-N", "X,Y,Z", "-d"}, "a   b  c\nd      \nee  f  \n", "", 0},
		{"a b\nc d\n", []string{"column", "-t", "-N", "X,Y", "-e"}, "X  Y\na  b\nc  d\n", "", 0},
		{"a b c d\nee f\n", []string{"column", "-t", "-l", "2"}, "a   b c d\nee  f\n", "", 0},
		{"ihe  e,,fge\nabcdef x\n", []string{"column", "-t", "-l", "2"}, "ihe      e,,fge\nabcdef  x\n", "", 0},
		{"abc  \nd\n", []string{"column", "-t", "-l", "2"}, "abc   \nd    \n", "", 0},
		{"a b\n\nc d\n", []string{"column", "-t", "-L"}, "a  b\n   \nc  d\n", "", 0},
		{t1, []string{"column", "-t", "-H", "2"}, "a   c\nd   \nee  \n", "", 0},
		{t1, []string{"column", "-t", "-H", "0"}, "\n\n\n", "", 0},
		{"a b c\n", []string{"column", "-t", "-N", "X,Y", "-H", "-"}, "X  Y\na  b\n", "", 0},
		{t1, []string{"column", "-t", "-O", "3,1"}, "c  a   b\n   d   \n   ee  f\n", "", 0},
		{t1, []string{"column", "-t", "-N", "X,Y,Z", "-O", "z,X"}, "Z  X   Y\nc  a   b\n   d   \n   ee  f\n", "", 0},
		{"a b c\n", []string{"column", "-t", "-O", "5"}, "a  b  c\n", "", 0},
		{"a\x00b c\nd e\n", []string{"column", "-t"}, "a  \nd  e\n", "", 0},
		{"a\x01b x\nab y\n", []string{"column", "-t"}, "a\x01b  x\nab  y\n", "", 0},
		{"é x\n日本 y\n\xff z\n", []string{"column", "-t"}, "é     x\n日本  y\n\\xff  z\n", "", 0},
		{"\n", []string{"column", "-t", "-L"}, "", "", 1},
		{"", []string{"column", "-t"}, "", "", 0},
		// Trees (checked against util-linux in LC_ALL=C.UTF-8).
		{"1 0 a\n2 1 b\n3 1 c\n4 2 d\n5 9 e\n6 5 f\n", []string{"column", "-t", "-r", "3", "-i", "1", "-p", "2"},
			"1  0  a\n2  1  ├─b\n4  2  │ └─d\n3  1  └─c\n5  9  e\n6  5  └─f\n", "", 0},
		{"1 0 a\n1 0 b\n2 1 c\n", []string{"column", "-t", "-r", "3", "-i", "1", "-p", "2"}, "1  0  a\n1  0  b\n2  1  └─c\n", "", 0},
		{"1 2 a\n2 1 b\n3 3 c\n", []string{"column", "-t", "-r", "3", "-i", "1", "-p", "2"}, "1  2  a\n2  1  └─b\n3  3  c\n", "", 0},
		{"x 1 0 aaaa\ny 2 1 b\nz 3 2 c\n", []string{"column", "-r", "4", "-i", "2", "-p", "3", "-R", "1"}, "x  1  0  aaaa\ny  2  1  └─b\nz  3  2    └─c\n", "", 0},
		{"1 0 a\n2 1 b\n", []string{"column", "-t", "-r", "1", "-i", "1", "-p", "2"}, "1    0  a\n└─2  1  b\n", "", 0},
		{"1 0 a\n2 1 b\n", []string{"column", "-t", "-N", "ID,P,NAME", "-r", "name", "-i", "id", "-p", "p"}, "ID  P  NAME\n1   0  a\n2   1  └─b\n", "", 0},
		{"1 0 a\n2 1\n3 1 c\n", []string{"column", "-t", "-r", "3", "-i", "1", "-p", "2"}, "1  0  a\n2  1  ├─\n3  1  └─c\n", "", 0},
		{"1 0 a\n2 1 b\n", []string{"column", "-t", "-r", "7", "-i", "1", "-p", "2"}, "1  0  a\n2  1  b\n", "", 0},
		{"1 0 a\n2 1 b\n", []string{"column", "-t", "-r", "x", "-i", "1", "-p", "2"}, "", "column: undefined column name 'x'\n", 1},
		{"1 0 a\n2 1 b\n", []string{"column", "-t", "-r", "3", "-i", "1"}, "", "column: options --tree-id and --tree-parent are required for tree formatting\n", 1},
		{"1 0 a\n2 1 b\n4 2 d\n3 1 c\n5 0 e\n", []string{"column", "-J", "-N", "id,p,name", "-r", "name", "-i", "id", "-p", "p"},
			"{\n   \"table\": [\n      {\n         \"id\": \"1\",\n         \"p\": \"0\",\n         \"name\": \"a\",\n         \"children\": [\n            {\n               \"id\": \"2\",\n               \"p\": \"1\",\n               \"name\": \"b\",\n               \"children\": [\n                  {\n                     \"id\": \"4\",\n                     \"p\": \"2\",\n                     \"name\": \"d\"\n                  }\n               ]\n            },{\n               \"id\": \"3\",\n               \"p\": \"1\",\n               \"name\": \"c\"\n            }\n         ]\n      },{\n         \"id\": \"5\",\n         \"p\": \"0\",\n         \"name\": \"e\"\n      }\n   ]\n}\n", "", 0},
		// JSON.
		{"a b c\nd\n", []string{"column", "-J", "-N", "X,Y,Z"}, "{\n   \"table\": [\n      {\n         \"x\": \"a\",\n         \"y\": \"b\",\n         \"z\": \"c\"\n      },{\n         \"x\": \"d\",\n         \"y\": null,\n         \"z\": null\n      }\n   ]\n}\n", "", 0},
		{"a \"q\"\\\x01\tb\n", []string{"column", "-J", "-n", "foo", "-s", "\t", "-N", "Foo Bar,Y", "-H", "y"}, "{\n   \"foo\": [\n      {\n         \"foo bar\": \"a \\\"q\\\"\\\\\\u0001\"\n      }\n   ]\n}\n", "", 0},
		{"a,,c\n", []string{"column", "-J", "-s,", "-N", "X,Y,Z"}, "{\n   \"table\": [\n      {\n         \"x\": \"a\",\n         \"y\": null,\n         \"z\": \"c\"\n      }\n   ]\n}\n", "", 0},
		{"a b c\n", []string{"column", "-J", "-N", "X,Y"}, "", "column: line 2: for JSON the name of the column 3 is required\n", 1},
		{"a b c\n", []string{"column", "-J"}, "", "column: option --table-columns required for --json\n", 1},
		// Errors.
		{t1, []string{"column", "-t", "-O", "X"}, "", "column: undefined column name 'X'\n", 1},
		{t1, []string{"column", "-c", "x"}, "", "column: invalid columns argument: 'x'\n", 1},
		{t1, []string{"column", "-c", "-5"}, "", "column: invalid columns argument: '-5': Numerical result out of range\n", 1},
		{t1, []string{"column", "-N", "x"}, "", "column: option --table required for all --table-*\n", 1},
		{t1, []string{"column", "-x", "-t"}, "", "column: mutually exclusive arguments: --table --fillrows\n", 1},
		{t1, []string{"column", "-x", "-J", "-N", "a"}, "", "column: mutually exclusive arguments: --json --fillrows\n", 1},
		{t1, []string{"column", "-t", "-l", "x"}, "", "column: invalid columns limit argument: 'x'\n", 1},
		{t1, []string{"column", "-t", "-l", "0"}, "", "column: columns limit must be greater than zero\n", 1},
		{t1, []string{"column", "-k"}, "", "column: invalid option -- 'k'\nTry 'column --help' for more information.\n", 1},
	})
}

// Checked against util-linux 2.38.1 column.
func TestColumnFiles(t *testing.T) {
	t.Parallel()
	in := map[string]string{"a": "a b\n", "b": "cc d\n"}
	runTextFiles(t, []textFileCase{
		{in, []string{"column", "-t", "a", "b"}, "a   b\ncc  d\n", "", 0, "", ""},
		// "-" is a file name, not standard input.
		{in, []string{"column", "nosuch", "-", "a"}, "a b\n", "column: nosuch: No such file or directory\ncolumn: -: No such file or directory\n", 1, "", ""},
		{in, []string{"column", "nosuch", "-"}, "", "column: nosuch: No such file or directory\ncolumn: -: No such file or directory\n", 2, "", ""},
		{in, []string{"column", "-t", "nosuch", "a"}, "a  b\n", "column: nosuch: No such file or directory\n", 0, "", ""},
	})
}

func TestColumnStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("abc def ghi\n", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "column", "-t"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out strings.Builder
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &out, "column"); st != 1 || msg != "" || out.Len() != 0 {
		t.Errorf("cancelled: %d %q %d bytes", st, msg, out.Len())
	}
}
