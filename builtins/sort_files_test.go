package builtins

import (
	"context"
	"io"
	"strings"
	"testing"
)

// skFileCase runs args in a directory holding files and checks the
// output, and afterwards the content of the file check (if not "").
type skFileCase struct {
	files  map[string]string
	args   []string
	out    string
	err    string
	status int
	check  string // a file to read back
	want   string // its expected content
}

func skRunFiles(t *testing.T, cases []skFileCase) {
	t.Helper()
	for _, c := range cases {
		dir := t.TempDir()
		fsys := testFS(t, dir)
		for name, content := range c.files {
			writeTestFile(t, fsys, dir+"/"+name, content)
		}
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
	ab := map[string]string{"a": "c\na\nb\n", "b": "2\n1\n"}
	skRunFiles(t, []skFileCase{
		{ab, []string{"sort", "a", "b"}, "1\n2\na\nb\nc\n", "", 0, "", ""},
		{ab, []string{"sort", "-o", "a", "a", "b"}, "", "", 0, "a", "1\n2\na\nb\nc\n"},
		{ab, []string{"sort", "-r", "--output=new", "b"}, "", "", 0, "new", "2\n1\n"},
		{ab, []string{"sort", "a", "nosuch"}, "", "sort: cannot read: nosuch: No such file or directory\n", 2, "", ""},
		{ab, []string{"sort", "-c", "b"}, "", "sort: b:2: disorder: 1\n", 1, "", ""},
		{ab, []string{"sort", "-C", "b"}, "", "", 1, "", ""},
		{ab, []string{"sort", "-o", "sub/x", "a"}, "", "sort: open failed: sub/x: No such file or directory\n", 2, "", ""},
		{map[string]string{"m1": "1\n3\n", "m2": "2\n4"}, []string{"sort", "-m", "m1", "m2"}, "1\n2\n3\n4\n", "", 0, "", ""},
		{map[string]string{"m1": "1\n3\n", "m2": "2\n4"}, []string{"sort", "-m", "-", "m2"}, "2\n4\n", "", 0, "", ""},
	})
}
