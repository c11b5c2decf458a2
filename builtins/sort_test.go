package builtins_test

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// textCase is one call of a text-processing builtin on standard input.
type textCase struct {
	in     string
	args   []string
	out    string
	err    string
	status int
}

func runText(t *testing.T, cases []textCase) {
	t.Helper()
	for _, c := range cases {
		got := runCmd(t, nil, c.in, c.args...)
		if got.stdout != c.out || got.stderr != c.err || got.status != c.status {
			t.Errorf("%q on %q:\n got %q %q %d\nwant %q %q %d", c.args, c.in,
				got.stdout, got.stderr, got.status, c.out, c.err, c.status)
		}
	}
}

// Expected values checked against GNU coreutils 9.1 sort (LC_ALL=C).
func TestSort(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"b\na\nc\n", []string{"sort"}, "a\nb\nc\n", "", 0},
		{"b\na\nc", []string{"sort"}, "a\nb\nc\n", "", 0},
		{"b\na\nc\n", []string{"sort", "-r"}, "c\nb\na\n", "", 0},
		{"10\n9\n-1\n1.5\n-0\n0\nx\n+5\n", []string{"sort", "-n"}, "-1\n+5\n-0\n0\nx\n1.5\n9\n10\n", "", 0},
		{"10\n9\n-1\n1.5\n-0\n0\nx\n+5\n", []string{"sort", "-nr"}, "10\n9\n1.5\nx\n0\n-0\n+5\n-1\n", "", 0},
		{"10\n9\n-1\n1.5\n-0\n0\nx\n+5\n", []string{"sort", "-g"}, "x\n-1\n-0\n0\n1.5\n+5\n9\n10\n", "", 0},
		{"1e3\n0x10\ninf\n-inf\nnan\nabc\n5\n", []string{"sort", "-g"}, "abc\nnan\n-inf\n5\n0x10\n1e3\ninf\n", "", 0},
		{"2K\n1M\n100\n-1G\n0K\n1k\n", []string{"sort", "-h"}, "-1G\n0K\n100\n1k\n2K\n1M\n", "", 0},
		// GNU's keycompare reads numbers in the -f copy of the key
		{"1e3\n300\n2m\n", []string{"sort", "-hf"}, "300\n2m\n1e3\n", "", 0},
		{"1e3\n300\n2m\n", []string{"sort", "-k1,1hf"}, "300\n2m\n1e3\n", "", 0},
		{"feb\nJAN\nxxx\n dec\nMarch\n", []string{"sort", "-M"}, "xxx\nJAN\nfeb\nMarch\n dec\n", "", 0},
		{"a1 b2\na10 b1\na2 b3\n", []string{"sort", "-k2"}, "a10 b1\na1 b2\na2 b3\n", "", 0},
		{"a1 b2\na10 b1\na2 b3\n", []string{"sort", "-k1.2n"}, "a1 b2\na2 b3\na10 b1\n", "", 0},
		{"a,3\nb,1\nc,2\nd,1\n", []string{"sort", "-t,", "-k2,2n", "-k1,1r"}, "d,1\nb,1\nc,2\na,3\n", "", 0},
		{"a,3\nb,1\nc,2\nd,1\n", []string{"sort", "-t,", "-k2,2nr"}, "a,3\nc,2\nb,1\nd,1\n", "", 0},
		{"x  b\nx a\n x c\n", []string{"sort", "-k2"}, "x  b\nx a\n x c\n", "", 0},
		{"x  b\nx a\n x c\n", []string{"sort", "-k2b"}, "x a\nx  b\n x c\n", "", 0},
		{"x  b\nx a\n x c\n", []string{"sort", "-b", "-k2"}, "x a\nx  b\n x c\n", "", 0},
		{"B\na\nA\nb\n", []string{"sort", "-f"}, "A\na\nB\nb\n", "", 0},
		{"B\na\nA\nb\n", []string{"sort", "-fu"}, "a\nB\n", "", 0},
		{"B\na\nA\nb\n", []string{"sort", "-fs"}, "a\nA\nB\nb\n", "", 0},
		{"a-b\nab\na b\n", []string{"sort", "-d"}, "a b\na-b\nab\n", "", 0},
		{"1\n01\n1.0\n2\n", []string{"sort", "-nu"}, "1\n2\n", "", 0},
		{"1.10\n1.2\n1.9\nfoo-1.10.tar.gz\nfoo-1.9.tar.gz\n.a\n..\n.\n1.0~rc1\n1.0\n", []string{"sort", "-V"}, ".\n..\n.a\n1.0~rc1\n1.0\n1.2\n1.9\n1.10\nfoo-1.9.tar.gz\nfoo-1.10.tar.gz\n", "", 0},
		{"a\nb\na\n", []string{"sort", "-c"}, "", "sort: -:3: disorder: a\n", 1},
		{"a\nb\nb\n", []string{"sort", "-cu"}, "", "sort: -:3: disorder: b\n", 1},
		{"b\na\n", []string{"sort", "-C"}, "", "", 1},
		{"a\x00c\x00b\x00", []string{"sort", "-z"}, "a\x00b\x00c\x00", "", 0},
		{"b\na\n", []string{"sort", "-k0"}, "", "sort: field number is zero: invalid field specification '0'\n", 2},
		{"b\na\n", []string{"sort", "-k1.0"}, "", "sort: character offset is zero: invalid field specification '1.0'\n", 2},
		{"b\na\n", []string{"sort", "-k1,1x"}, "", "sort: stray character in field spec: invalid field specification '1,1x'\n", 2},
		{"b\na\n", []string{"sort", "-tab"}, "", "sort: multi-character tab 'ab'\n", 2},
		{"b\na\n", []string{"sort", "-nM"}, "", "sort: options '-Mn' are incompatible\n", 2},
		{"b\na\n", []string{"sort", "--sort=foo"}, "", "sort: invalid argument 'foo' for '--sort'\nValid arguments are:\n  - 'general-numeric'\n  - 'human-numeric'\n  - 'month'\n  - 'numeric'\n  - 'random'\n  - 'version'\nTry 'sort --help' for more information.\n", 1},
		{"b\na\n", []string{"sort", "--sort=numeric"}, "a\nb\n", "", 0},
		{"abc def\nabd aaa\nabc aaa\n", []string{"sort", "-k1.2,1.3", "-k2"}, "abc aaa\nabc def\nabd aaa\n", "", 0},
		{"abcdef\nabxdef\n", []string{"sort", "-k1.3,1.3", "-u"}, "abcdef\nabxdef\n", "", 0},
		{"3 b\n1 a\n3 a\n", []string{"sort", "-k1,1n", "-u"}, "1 a\n3 b\n", "", 0},
		{"3 b\n1 a\n3 a\n", []string{"sort", "-k1,1n", "-s"}, "1 a\n3 b\n3 a\n", "", 0},
		{"3 b\n1 a\n3 a\n", []string{"sort", "-r", "-k1,1n"}, "1 a\n3 b\n3 a\n", "", 0},
		{"3 b\n1 a\n3 a\n", []string{"sort", "-k1,1nr"}, "3 a\n3 b\n1 a\n", "", 0},
		{"a\tb\tc\nz\ta\ty\n", []string{"sort", "-t\\t", "-k2"}, "", "sort: multi-character tab '\\\\t'\n", 2},
		{"", []string{"sort"}, "", "", 0},
		{"x\n", []string{"sort", "-n"}, "x\n", "", 0},
		{"a b\nA c\n\x01b\n", []string{"sort", "-i"}, "A c\na b\n\x01b\n", "", 0},
		{"a\x01b\nab\n", []string{"sort", "-i"}, "a\x01b\nab\n", "", 0},
		{"10K\n2M\n5\n1.5K\n-3K\n", []string{"sort", "-hr"}, "2M\n10K\n1.5K\n5\n-3K\n", "", 0},
		{"b 2\na 10\nc 1\n", []string{"sort", "-k2n", "-k1"}, "c 1\nb 2\na 10\n", "", 0},
		{"b 2\na 10\nc 1\n", []string{"sort", "-k2,2", "-k1,1"}, "c 1\na 10\nb 2\n", "", 0},
		{"x 3\nx 1\ny 2\n", []string{"sort", "-k1,1", "-u"}, "x 3\ny 2\n", "", 0},
		{"x 3\nx 1\ny 2\n", []string{"sort", "-k1,1", "-r"}, "y 2\nx 3\nx 1\n", "", 0},
		{"1.0.10\n1.0.9\n1.0.9a\n1.0\n", []string{"sort", "-V"}, "1.0\n1.0.9\n1.0.9a\n1.0.10\n", "", 0},
		{"1\n2\n1\n", []string{"sort", "-z"}, "1\n2\n1\n\x00", "", 0},
		{"b\x00a\x00", []string{"sort", "-zc"}, "", "sort: -:2: disorder: a\x00", 1},
		{"3\n2\n1\n", []string{"sort", "-cn"}, "", "sort: -:2: disorder: 2\n", 1},
		{"1\n2\n3\n", []string{"sort", "-cn"}, "", "", 0},
		{"1\n1\n", []string{"sort", "-c", "-u"}, "", "sort: -:2: disorder: 1\n", 1},
		{"\xe9\nz\na\n", []string{"sort"}, "a\nz\n\xe9\n", "", 0},
		{"a\n", []string{"sort", "-c", "a", "b"}, "", "sort: extra operand 'b' not allowed with -c\n", 2},
		{"a\n", []string{"sort", "-k1", "-o"}, "", "sort: option requires an argument -- 'o'\nTry 'sort --help' for more information.\n", 2},
		{"a\n", []string{"sort", "-t"}, "", "sort: option requires an argument -- 't'\nTry 'sort --help' for more information.\n", 2},
		{"1,2\n1,10\n", []string{"sort", "-t,", "-k2n", "--parallel=2", "-S", "10M", "-T", "/tmp"}, "1,2\n1,10\n", "", 0},
		{"b\nA\na\nB\n", []string{"sort", "-f", "-k1,1"}, "A\na\nB\nb\n", "", 0},
		{"  3\n 10\n2\n", []string{"sort", "-n"}, "2\n  3\n 10\n", "", 0},
		{"1e2\n99\n", []string{"sort", "-g"}, "99\n1e2\n", "", 0},
		{"0x1p3\n7\n", []string{"sort", "-g"}, "7\n0x1p3\n", "", 0},
		{"-\n-0.0\n.5\n0.50\n", []string{"sort", "-n"}, "-\n-0.0\n.5\n0.50\n", "", 0},
		{"abc\nab\n", []string{"sort", "-k1.2,1.2"}, "ab\nabc\n", "", 0},
		{"abc\nab\n", []string{"sort", "-k1.4"}, "ab\nabc\n", "", 0},
	})
}

func TestSortHelp(t *testing.T) {
	t.Parallel()
	r := runCmd(t, nil, "", "sort", "--help")
	if r.status != 0 || !strings.HasPrefix(r.stdout, "Usage: sort [OPTION]... [FILE]...\n") {
		t.Fatalf("%q %d", r.stdout, r.status)
	}
}

// TestSortRandom checks that -R permutes the input and groups equal keys.
func TestSortRandom(t *testing.T) {
	t.Parallel()
	in := "a\nb\nc\na\nb\nd\ne\nf\na\n"
	r := runCmd(t, nil, in, "sort", "-R")
	if r.status != 0 || r.stderr != "" {
		t.Fatalf("%q %d", r.stderr, r.status)
	}
	got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	want := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
	slices.Sort(want)
	sorted := slices.Clone(got)
	slices.Sort(sorted)
	if !slices.Equal(sorted, want) {
		t.Fatalf("not a permutation: %q", got)
	}
	seen := map[string]bool{}
	for i, l := range got {
		if seen[l] && got[i-1] != l {
			t.Fatalf("equal keys not grouped: %q", got)
		}
		seen[l] = true
	}
}

// TestSortLarge sorts enough lines to take the parallel path and checks
// the order against a plain sort of the same lines.
func TestSortLarge(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	var lines []string
	x := uint32(1)
	for i := 0; i < 50000; i++ {
		x = x*1664525 + 1013904223
		l := strings.Repeat(string(rune('a'+x%7)), int(x>>8%5)) + string(rune('0'+x>>16%10))
		lines = append(lines, l)
		b.WriteString(l + "\n")
	}
	slices.Sort(lines)
	r := runCmd(t, nil, b.String(), "sort")
	if r.stdout != strings.Join(lines, "\n")+"\n" {
		t.Fatal("large sort differs from slices.Sort")
	}
	r = runCmd(t, nil, b.String(), "sort", "-u")
	if r.stdout != strings.Join(slices.Compact(lines), "\n")+"\n" {
		t.Fatal("large sort -u differs")
	}
}

// runTextEnv runs a builtin with a given writer and context.
func runTextEnv(t *testing.T, ctx context.Context, stdin io.Reader, stdout io.Writer, args ...string) (int, string) {
	t.Helper()
	b, _ := Lookup(args[0])
	var errb strings.Builder
	env := &Env{Ctx: ctx, Args: args, Stdin: stdin, Stdout: stdout, Stderr: &errb, Dir: "/"}
	return Run(b, env), errb.String()
}

type pipeErrWriter struct{}

func (pipeErrWriter) Write(p []byte) (int, error) { return 0, ErrBrokenPipe }

// TestSortStops checks the quiet status 1 on a broken pipe and on a
// cancelled context.
func TestSortStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("b\na\n", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "sort"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), io.Discard, "sort"); st != 1 || msg != "" {
		t.Errorf("cancelled: %d %q", st, msg)
	}
}

// Expected values checked against GNU coreutils 9.1 sort --debug (LC_ALL=C).
func TestSortDebug(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"b 2\na 10\nb 1\na 2\nc 1\n", []string{"sort", "--debug"}, "a 10\n____\na 2\n___\nb 1\n___\nb 2\n___\nc 1\n___\n", "sort: text ordering performed using simple byte comparison\n", 0},
		{"b 2\na 10\nb 1\na 2\nc 1\n", []string{"sort", "--debug", "-r"}, "c 1\n___\nb 2\n___\nb 1\n___\na 2\n___\na 10\n____\n", "sort: text ordering performed using simple byte comparison\n", 0},
		{"b 2\na 10\nb 1\na 2\nc 1\n", []string{"sort", "--debug", "-u", "-s"}, "a 10\n____\na 2\n___\nb 1\n___\nb 2\n___\nc 1\n___\n", "sort: text ordering performed using simple byte comparison\n", 0},
		{"10\n9\n-3\n1.5\n 2\nabc\n\n-0\n+4\n1.\n.\n-\n", []string{"sort", "--debug", "-n"}, "-3\n__\n__\n\n^ no match for key\n^ no match for key\n+4\n^ no match for key\n__\n-\n^ no match for key\n_\n-0\n__\n__\n.\n^ no match for key\n_\nabc\n^ no match for key\n___\n1.\n__\n__\n1.5\n___\n___\n 2\n _\n__\n9\n_\n_\n10\n__\n__\n", "sort: text ordering performed using simple byte comparison\nsort: note numbers use '.' as a decimal point in this locale\n", 0},
		{"1K\n2M\n512\n-1K\n0.5M\n3k\n", []string{"sort", "--debug", "-h"}, "-1K\n___\n___\n512\n___\n___\n1K\n__\n__\n3k\n__\n__\n0.5M\n____\n____\n2M\n__\n__\n", "sort: text ordering performed using simple byte comparison\nsort: note numbers use '.' as a decimal point in this locale\n", 0},
		{"Feb\njan\nDEC\nfoo\n mar\n", []string{"sort", "--debug", "-M"}, "foo\n^ no match for key\n___\njan\n___\n___\nFeb\n___\n___\n mar\n ___\n____\nDEC\n___\n___\n", "sort: text ordering performed using simple byte comparison\n", 0},
		{"a1.10\na1.2\nb\n", []string{"sort", "--debug", "-V"}, "a1.2\n____\n____\na1.10\n_____\n_____\nb\n_\n_\n", "sort: text ordering performed using simple byte comparison\n", 0},
		{"1.5e3 x\n-inf\nINFINITY y\nnan(0x1)z\n 0x1p3q\n0x\n.5\n1e\n", []string{"sort", "--debug", "-g"}, "nan(0x1)z\n________\n_________\n-inf\n____\n____\n0x\n_\n__\n.5\n__\n__\n1e\n_\n__\n 0x1p3q\n _____\n_______\n1.5e3 x\n_____\n_______\nINFINITY y\n________\n__________\n", "sort: text ordering performed using simple byte comparison\nsort: note numbers use '.' as a decimal point in this locale\n", 0},
		{"x  b\nx a\n x c\n", []string{"sort", "--debug", "-b"}, "x  b\n____\n____\nx a\n___\n___\n x c\n ___\n____\n", "sort: text ordering performed using simple byte comparison\n", 0},
		{"B\na\nA\nb\n", []string{"sort", "--debug", "-f"}, "A\n_\n_\na\n_\n_\nB\n_\n_\nb\n_\n_\n", "sort: text ordering performed using simple byte comparison\n", 0},
		{"b 2\na 10\nb 1\n", []string{"sort", "--debug", "-k2"}, "b 1\n __\n___\na 10\n ___\n____\nb 2\n __\n___\n", "sort: text ordering performed using simple byte comparison\nsort: leading blanks are significant in key 1; consider also specifying 'b'\n", 0},
		{"b 2\na 10\nb 1\n", []string{"sort", "--debug", "-k2n"}, "b 1\n  _\n___\nb 2\n  _\n___\na 10\n  __\n____\n", "sort: text ordering performed using simple byte comparison\nsort: key 1 is numeric and spans multiple fields\nsort: note numbers use '.' as a decimal point in this locale\n", 0},
		{"b 2\na 10\nb 1\n", []string{"sort", "--debug", "-k1,1", "-k2,2n"}, "a 10\n_\n  __\n____\nb 1\n_\n  _\n___\nb 2\n_\n  _\n___\n", "sort: text ordering performed using simple byte comparison\nsort: leading blanks are significant in key 1; consider also specifying 'b'\nsort: note numbers use '.' as a decimal point in this locale\n", 0},
		{"b 2\na 10\nb 1\n", []string{"sort", "--debug", "-k2n", "-r"}, "b 1\n  _\n___\nb 2\n  _\n___\na 10\n  __\n____\n", "sort: text ordering performed using simple byte comparison\nsort: key 1 is numeric and spans multiple fields\nsort: note numbers use '.' as a decimal point in this locale\nsort: option '-r' only applies to last-resort comparison\n", 0},
		{"b 2\na 10\nb 1\n", []string{"sort", "--debug", "-u", "-r", "-k2n"}, "b 1\n  _\nb 2\n  _\na 10\n  __\n", "sort: text ordering performed using simple byte comparison\nsort: key 1 is numeric and spans multiple fields\nsort: note numbers use '.' as a decimal point in this locale\nsort: option '-r' is ignored\n", 0},
		{"b 2\na 10\nb 1\n", []string{"sort", "--debug", "-s", "-b", "-f", "-r", "-k2n"}, "b 1\n  _\nb 2\n  _\na 10\n  __\n", "sort: text ordering performed using simple byte comparison\nsort: key 1 is numeric and spans multiple fields\nsort: note numbers use '.' as a decimal point in this locale\nsort: options '-bfr' are ignored\n", 0},
		{"b 2\na 10\nb 1\n", []string{"sort", "--debug", "-nr", "-k2"}, "a 10\n  __\n____\nb 2\n  _\n___\nb 1\n  _\n___\n", "sort: text ordering performed using simple byte comparison\nsort: key 1 is numeric and spans multiple fields\nsort: note numbers use '.' as a decimal point in this locale\n", 0},
		{"a-1.5 x\nb-2\n", []string{"sort", "--debug", "-t-", "-k2n"}, "a-1.5 x\n  ___\n_______\nb-2\n  _\n___\n", "sort: text ordering performed using simple byte comparison\nsort: key 1 is numeric and spans multiple fields\nsort: field separator '-' is treated as a minus sign in numbers\nsort: note numbers use '.' as a decimal point in this locale\n", 0},
		{"a.1\nb.2\n", []string{"sort", "--debug", "-t.", "-k2n"}, "a.1\n  _\n___\nb.2\n  _\n___\n", "sort: text ordering performed using simple byte comparison\nsort: key 1 is numeric and spans multiple fields\nsort: field separator '.' is treated as a decimal point in numbers\n", 0},
		{"a+1\nb+2\n", []string{"sort", "--debug", "-t+", "-k2g"}, "a+1\n  _\n___\nb+2\n  _\n___\n", "sort: text ordering performed using simple byte comparison\nsort: key 1 is numeric and spans multiple fields\nsort: field separator '+' is treated as a plus sign in numbers\nsort: note numbers use '.' as a decimal point in this locale\n", 0},
		{"ab cd ef\nx\n", []string{"sort", "--debug", "-k2,1"}, "ab cd ef\n  ^ no match for key\n________\nx\n ^ no match for key\n_\n", "sort: text ordering performed using simple byte comparison\nsort: key 1 has zero width and will be ignored\n", 0},
		{"ab cd ef\nx\n", []string{"sort", "--debug", "-k2.2,1.1n"}, "ab cd ef\n   ^ no match for key\n________\nx\n ^ no match for key\n_\n", "sort: text ordering performed using simple byte comparison\nsort: key 1 has zero width and will be ignored\nsort: note numbers use '.' as a decimal point in this locale\n", 0},
		{"ab cd ef\nx\n", []string{"sort", "--debug", "-k1.5"}, "x\n ^ no match for key\n_\nab cd ef\n    ____\n________\n", "sort: text ordering performed using simple byte comparison\nsort: leading blanks are significant in key 1; consider also specifying 'b'\n", 0},
		{"a\tb\tc\n\x01x\xff\tq\n", []string{"sort", "--debug", "-k2"}, "a>b>c\n ____\n_____\n\x01x\xff>q\n  __\n____\n", "sort: text ordering performed using simple byte comparison\nsort: leading blanks are significant in key 1; consider also specifying 'b'\n", 0},
		{"a\tb\tc\n\x01x\xff\tq\n", []string{"sort", "--debug", "-t\t", "-k2,2"}, "a>b>c\n  _\n_____\n\x01x\xff>q\n   _\n____\n", "sort: text ordering performed using simple byte comparison\n", 0},
		{"s2\x00s1\x00", []string{"sort", "--debug", "-z"}, "s1\n__\ns2\n__\n", "sort: text ordering performed using simple byte comparison\n", 0},
		{"a\n", []string{"sort", "--debug", "-c"}, "", "sort: options '-c --debug' are incompatible\n", 2},
		{"a\n", []string{"sort", "--debug", "-C"}, "", "sort: options '-C --debug' are incompatible\n", 2},
		{"a\n", []string{"sort", "-c", "--check=quiet"}, "", "sort: options '-cC' are incompatible\n", 2},
		{"b\na\n", []string{"sort", "-C", "--check=silent"}, "", "", 1},
		{"a\n", []string{"sort", "--debug", "-o", "x"}, "", "sort: options '-o --debug' are incompatible\n", 2},
		{"a-b\nab\na b\n", []string{"sort", "-i", "-d"}, "a b\na-b\nab\n", "", 0},
		{"a\n", []string{"sort", "-bnrM"}, "", "sort: options '-Mn' are incompatible\n", 2},
	})
}

// TestSortAcrossChunks sorts more lines than one block of records holds
// (sortLoader fills chunks of 1<<15, or of a sixteenth of a smaller -S
// buffer: 4096 records at -S 2M, under which these 20000 lines, 0.9 MB
// of lines and records, are not spilled), so that the k-way merge of the
// sorted blocks decides the order: ties keep input order under -s, -u
// keeps the first of equal lines, and plain sort breaks ties by the
// whole line. The expected output is built with the standard library.
// The keys are equal in their first 8 bytes in pairs, around 8 bytes
// long, with NULs and bytes over 0x7f, for sortPrefixTie. (100000 lines
// at the default buffer were 1.9 s of CPU under the race detector.)
func TestSortAcrossChunks(t *testing.T) {
	t.Parallel()
	const n = 20_000
	type line struct {
		key, text string
	}
	keys := []string{"a", "b", "c", "abcdefg", "abcdefg\x00", "abcdefgh", "abcdefgh\xff", "\xff\x00"}
	lines := make([]line, n)
	var in strings.Builder
	x := uint32(12345)
	for i := range lines {
		x = x*1664525 + 1013904223 // a fixed sequence of keys
		k := keys[x>>16%uint32(len(keys))]
		lines[i] = line{k, k + " " + strconv.Itoa(i)}
		in.WriteString(lines[i].text + "\n")
	}
	join := func(ls []line) string {
		var b strings.Builder
		for _, l := range ls {
			b.WriteString(l.text + "\n")
		}
		return b.String()
	}
	stable := slices.Clone(lines)
	slices.SortStableFunc(stable, func(a, b line) int { return strings.Compare(a.key, b.key) })
	plain := slices.Clone(lines)
	slices.SortFunc(plain, func(a, b line) int { return strings.Compare(a.text, b.text) })
	reversed := slices.Clone(plain)
	slices.Reverse(reversed)
	var uniq []line
	for _, l := range stable {
		if len(uniq) == 0 || uniq[len(uniq)-1].key != l.key {
			uniq = append(uniq, l)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sort", "-s", "-k1,1"}, join(stable)},
		{[]string{"sort"}, join(plain)},
		{[]string{"sort", "-r"}, join(reversed)},
		{[]string{"sort", "-u", "-k1,1"}, join(uniq)},
	} {
		got := runCmd(t, nil, in.String(), append(c.args, "-S", "2M")...)
		if got.status != 0 || got.stderr != "" {
			t.Fatalf("%q: status %d, stderr %q", c.args, got.status, got.stderr)
		}
		if got.stdout != c.want {
			t.Errorf("%q: output differs (%d bytes, want %d)", c.args, len(got.stdout), len(c.want))
		}
	}
}

// TestSortPrefixTie: for keys whose 8-byte prefixes are equal, the tie
// rule orders as bytes.Compare does, around 8 bytes and with NULs.
func TestSortPrefixTie(t *testing.T) {
	t.Parallel()
	keys := []string{"", "\x00", "a", "a\x00", "a\x00\x00", "abcdefg", "abcdefg\x00", "abcdefgh",
		"abcdefgh\x00", "abcdefgha", "abcdefghb", "abcdefghab", "abcdefgh\x00\x00"}
	for _, a := range keys {
		for _, b := range keys {
			if ForTests.SortPrefix([]byte(a)) != ForTests.SortPrefix([]byte(b)) {
				continue
			}
			want := bytes.Compare([]byte(a), []byte(b))
			if got := ForTests.SortPrefixTie([]byte(a), []byte(b)); (got > 0) != (want > 0) || (got < 0) != (want < 0) {
				t.Errorf("sortPrefixTie(%q, %q) = %d, bytes.Compare %d", a, b, got, want)
			}
		}
	}
}

// TestSortWorkersGrow: the background sorter starts at a later chunk
// when the sort had one CPU at the first ones (GOMAXPROCS grows during a
// run: llmsh's main gives a script every P only after a while). The
// chunks filled before it must be sorted too: they used to be taken for
// the sorter's and merged unsorted. Not parallel: it sets sortWorkers.
// A buffer of 2 MiB (-S) makes chunks of 4096 records, not
// 32768, so that 30000 lines fill the chunks the test needs: 200000
// lines at the default buffer were 1.9 s of CPU under the race detector
// (session 30), run alone at the end of the binary.
func TestSortWorkersGrow(t *testing.T) {
	const n = 30_000
	var in strings.Builder
	lines := make([]string, n)
	x := uint32(7)
	for i := range lines {
		x = x*1664525 + 1013904223
		lines[i] = strconv.Itoa(int(x >> 8))
		in.WriteString(lines[i] + "\n")
	}
	slices.Sort(lines)
	want := strings.Join(lines, "\n") + "\n"
	for _, declined := range []int{1, 2, 3} {
		calls := 0
		restore := ForTests.SetSortWorkers(func() int {
			calls++
			if calls <= declined {
				return 1
			}
			return 2
		})
		got := runCmd(t, nil, in.String(), "sort", "-S", "2M")
		restore()
		if calls <= declined {
			t.Fatalf("declined %d: the sorter was asked %d times; the input is too small to test", declined, calls)
		}
		if got.stdout != want {
			t.Errorf("declined %d: output not sorted (%d bytes, want %d)", declined, len(got.stdout), len(want))
		}
	}
}
