package builtins_test

import (
	"context"
	"io"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// textFileCase runs args in a directory holding files and checks the
// output, and afterwards the content of the file check (if not "").
type textFileCase struct {
	files  map[string]string
	args   []string
	out    string
	err    string
	status int
	check  string // a file to read back
	want   string // its expected content
}

func runTextFiles(t *testing.T, cases []textFileCase) {
	t.Helper()
	for _, c := range cases {
		dir := t.TempDir()
		fsys := testFS(t, dir)
		writeHostFiles(t, dir, c.files)
		b, _ := Lookup(c.args[0])
		var out, errb strings.Builder
		env := &Env{Ctx: context.Background(), Args: c.args, Stdin: strings.NewReader(""),
			Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
		st := Run(b, env)
		if out.String() != c.out || errb.String() != c.err || st != c.status {
			t.Errorf("%q:\n got %q %q %d\nwant %q %q %d", c.args, out.String(), errb.String(), st, c.out, c.err, c.status)
		}
		if c.check != "" {
			f, err := fsys.OpenFile(dir+"/"+c.check, 0)
			if err != nil {
				t.Errorf("%q: %v", c.args, err)
				continue
			}
			data, _ := io.ReadAll(f)
			f.Close()
			if string(data) != c.want {
				t.Errorf("%q: %s holds %q, want %q", c.args, c.check, data, c.want)
			}
		}
	}
}

// Expected values checked against GNU coreutils 9.1 sort (LC_ALL=C).
func TestSortFiles(t *testing.T) {
	t.Parallel()
	ab := map[string]string{"a": "c\na\nb\n", "b": "2\n1\n"}
	runTextFiles(t, []textFileCase{
		{ab, []string{"sort", "a", "b"}, "1\n2\na\nb\nc\n", "", 0, "", ""},
		{ab, []string{"sort", "-o", "a", "a", "b"}, "", "", 0, "a", "1\n2\na\nb\nc\n"},
		{ab, []string{"sort", "-r", "--output=new", "b"}, "", "", 0, "new", "2\n1\n"},
		{ab, []string{"sort", "a", "nosuch"}, "", "sort: cannot read: nosuch: No such file or directory\n", 2, "", ""},
		{ab, []string{"sort", "-c", "b"}, "", "sort: b:2: disorder: 1\n", 1, "", ""},
		{ab, []string{"sort", "-C", "b"}, "", "", 1, "", ""},
		{ab, []string{"sort", "-o", "sub/x", "a"}, "", "sort: open failed: sub/x: No such file or directory\n", 2, "", ""},
		{map[string]string{"m1": "1\n3\n", "m2": "2\n4"}, []string{"sort", "-m", "m1", "m2"}, "1\n2\n3\n4\n", "", 0, "", ""},
		{map[string]string{"m1": "1\n3\n", "m2": "2\n4"}, []string{"sort", "-m", "-", "m2"}, "2\n4\n", "", 0, "", ""},
		// -m merges and never sorts: unsorted inputs stay in their order.
		{map[string]string{"u": "c\nb\na\n", "s": "a\nc\ne\n"}, []string{"sort", "-m", "u", "s"}, "a\nc\nb\na\nc\ne\n", "", 0, "", ""},
		{map[string]string{"u": "c\nb\na\n"}, []string{"sort", "-m", "-r", "u"}, "c\nb\na\n", "", 0, "", ""},
		// Ties go to the earlier operand; with keys the last resort still
		// orders whole lines unless -s.
		{map[string]string{"x": "b 1\na 2\n", "y": "a 1\nc 0\n"}, []string{"sort", "-m", "-k2,2n", "x", "y"}, "a 1\nc 0\nb 1\na 2\n", "", 0, "", ""},
		{map[string]string{"x": "b 1\na 2\n", "y": "a 1\nc 0\n"}, []string{"sort", "-m", "-s", "-k2,2n", "x", "y"}, "b 1\na 1\nc 0\na 2\n", "", 0, "", ""},
		{map[string]string{"x": "a\nB\nb\n", "y": "A\nb\n"}, []string{"sort", "-m", "-f", "x", "y"}, "A\na\nB\nb\nb\n", "", 0, "", ""},
		{map[string]string{"x": "a\nB\nb\n", "y": "A\nb\n"}, []string{"sort", "-mu", "-f", "x", "y"}, "a\nB\n", "", 0, "", ""},
		{map[string]string{"s1": "a\nc\n", "s2": "b\nc\nd\n"}, []string{"sort", "-mu", "s1", "s2", "s1"}, "a\nb\nc\nd\n", "", 0, "", ""},
		{map[string]string{"n": "alpha\nbeta\ngamma", "s": "b\nc\n"}, []string{"sort", "-m", "n", "s"}, "alpha\nb\nbeta\nc\ngamma\n", "", 0, "", ""},
		{map[string]string{"z": "s1\x00s2\x00"}, []string{"sort", "-mz", "z", "z"}, "s1\x00s1\x00s2\x00s2\x00", "", 0, "", ""},
		{map[string]string{"s1": "a\nc\n", "s2": "b\n"}, []string{"sort", "-m", "-o", "s1", "s1", "s2"}, "", "", 0, "s1", "a\nb\nc\n"},
		{map[string]string{"s1": "a\n", "d/x": ""}, []string{"sort", "-m", "d", "s1"}, "", "sort: read failed: d: Is a directory\n", 2, "", ""},
		{map[string]string{"s1": "a\n"}, []string{"sort", "-m", "s1", "nosuch"}, "", "sort: cannot read: nosuch: No such file or directory\n", 2, "", ""},
		// -S is checked as GNU sort checks it (then ignored).
		{map[string]string{"s": "b\na\n"}, []string{"sort", "-S", "1b", "s"}, "a\nb\n", "", 0, "", ""},
		{map[string]string{"s": "b\na\n"}, []string{"sort", "-S", "5%", "s"}, "a\nb\n", "", 0, "", ""},
		{map[string]string{"s": "b\na\n"}, []string{"sort", "-S", "1KB", "s"}, "", "sort: invalid suffix in -S argument '1KB'\n", 2, "", ""},
		{map[string]string{"s": "b\na\n"}, []string{"sort", "--buffer-size=1Z", "s"}, "", "sort: --buffer-size argument '1Z' too large\n", 2, "", ""},
		{map[string]string{"s": "b\na\n"}, []string{"sort", "-S", "18014398509481984", "s"}, "", "sort: -S argument '18014398509481984' too large\n", 2, "", ""},
		{map[string]string{"s": "b\na\n"}, []string{"sort", "-S", "", "s"}, "", "sort: invalid -S argument ''\n", 2, "", ""},
		// --files0-from.
		{map[string]string{"f0": "s1\x00s2\x00", "s1": "c\na\n", "s2": "b\n"}, []string{"sort", "--files0-from=f0"}, "a\nb\nc\n", "", 0, "", ""},
		{map[string]string{"f0": "s1\x00s2", "s1": "a\nc\n", "s2": "b\n"}, []string{"sort", "-m", "--files0-from", "f0"}, "a\nb\nc\n", "", 0, "", ""},
		{map[string]string{"f0": "s1\x00s2\x00", "s1": "c\na\n", "s2": "b\n"}, []string{"sort", "--files0-from=f0", "s1"}, "", "sort: extra operand 's1'\nfile operands cannot be combined with --files0-from\nTry 'sort --help' for more information.\n", 2, "", ""},
		{map[string]string{"f0": "s1\x00s2\x00", "s1": "c\na\n", "s2": "b\n"}, []string{"sort", "-c", "--files0-from=f0"}, "", "sort: extra operand 's2' not allowed with -c\n", 2, "", ""},
		{map[string]string{"f0": "s1\x00\x00s2\x00", "s1": "a\n"}, []string{"sort", "--files0-from=f0"}, "", "sort: f0:2: invalid zero-length file name\n", 2, "", ""},
		{map[string]string{"f0": "s1\x00-\x00", "s1": "a\n"}, []string{"sort", "--files0-from=f0"}, "", "sort: when reading file names from stdin, no file name of '-' allowed\n", 2, "", ""},
		{map[string]string{"f0": ""}, []string{"sort", "--files0-from=f0"}, "", "sort: no input from 'f0'\n", 2, "", ""},
		{map[string]string{"f0": "s1\nx\x00"}, []string{"sort", "--files0-from=f0"}, "", "sort: cannot read: 's1'$'\\n''x': No such file or directory\n", 2, "", ""},
		{map[string]string{"d/x": ""}, []string{"sort", "--files0-from=d"}, "", "sort: cannot read file names from 'd'\n", 2, "", ""},
		{nil, []string{"sort", "--files0-from=nosuch"}, "", "sort: open failed: nosuch: No such file or directory\n", 2, "", ""},
	})
}
