package builtins_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// xzHello is `printf 'hello\n' | xz` (XZ Utils 5.4.1).
const xzHello = "\xfd\x37\x7a\x58\x5a\x00\x00\x04\xe6\xd6\xb4\x46\x02\x00\x21\x01\x16\x00\x00\x00\x74\x2f\xe5\xa3\x01\x00\x05\x68\x65\x6c\x6c\x6f\x0a\x00\x00\x00\xa5\x60\x97\xf1\x94\xf6\xfd\xe0\x00\x01\x1e\x06\xc1\x2f\xa4\x1d\x1f\xb6\xf3\x7d\x01\x00\x00\x00\x00\x04\x59\x5a"

// Messages and statuses checked against xz 5.4.1.
func TestXz(t *testing.T) {
	t.Parallel()
	f := map[string]string{"t.xz": xzHello, "t.txz": xzHello, "foo": xzHello, "bad.xz": "hello\n", "t": "old"}
	tree := "bad.xz=hello\n foo=" + xzHello + " t.txz=" + xzHello + " t.xz=" + xzHello + " t=old"
	runTree(t, []treeCase{
		{f, []string{"unxz", "t.txz"}, "", "", 0, "bad.xz=hello\n foo=" + xzHello + " t.tar=hello\n t.xz=" + xzHello + " t=old"},
		{f, []string{"xz", "-dk", "t.xz"}, "", "xz: t: File exists\n", 1, tree},
		{f, []string{"xz", "-dkf", "t.xz"}, "", "", 0, "bad.xz=hello\n foo=" + xzHello + " t.txz=" + xzHello + " t.xz=" + xzHello + " t=hello\n"},
		{f, []string{"xzcat", "t.xz", "t.xz"}, "hello\nhello\n", "", 0, tree},
		{f, []string{"xz", "-d", "foo"}, "", "xz: foo: Filename has an unknown suffix, skipping\n", 2, tree},
		{f, []string{"xz", "-d", "bad.xz"}, "", "xz: bad.xz: File format not recognized\n", 1, tree},
		{f, []string{"xz", "-d", "nosuch.xz"}, "", "xz: nosuch.xz: No such file or directory\n", 1, tree},
		{f, []string{"xz", "-t", "t.xz"}, "", "", 0, tree},
		{f, []string{"xz", "t.xz"}, "", "xz: t.xz: File already has `.xz' suffix, skipping\n", 2, tree},
		{f, []string{"xz", "-q", "t.txz"}, "", "", 2, tree},
		{f, []string{"xz", "-k", "t"}, "", "xz: t.xz: File exists\n", 1, tree},
		{f, []string{"xz", "nosuch", "t.xz"}, "", "xz: nosuch: No such file or directory\nxz: t.xz: File already has `.xz' suffix, skipping\n", 1, tree},
		{f, []string{"xz", "-S", "", "t"}, "", "xz: : Invalid filename suffix\n", 1, tree},
		{f, []string{"xz", "-S", ".foo", "t.xz"}, "", "xz: t.xz: File already has `.xz' suffix, skipping\n", 2, tree},
		{map[string]string{"a.foo": xzHello}, []string{"xz", "-S", ".foo", "a.foo"}, "", "xz: a.foo: File already has `.foo' suffix, skipping\n", 2, "a.foo=" + xzHello},
		{map[string]string{"a.foo": xzHello}, []string{"xz", "-d", "--suffix=.foo", "a.foo"}, "", "", 0, "a=hello\n"},
		{f, []string{"xz", "-F", "foo", "t"}, "", "xz: foo: Unknown file format type\n", 1, tree},
		{f, []string{"xz", "--check=foo", "t"}, "", "xz: foo: Unsupported integrity check type\n", 1, tree},
		{f, []string{"xz", "-l", "t.xz"}, "Strms  Blocks   Compressed Uncompressed  Ratio  Check   Filename\n    1       1         64 B          6 B    ---  CRC64   t.xz\n", "", 0, tree},
		{f, []string{"xz", "-l", "t.xz", "t.txz", "t", "bad.xz"}, "Strms  Blocks   Compressed Uncompressed  Ratio  Check   Filename\n" +
			"    1       1         64 B          6 B    ---  CRC64   t.xz\n    1       1         64 B          6 B    ---  CRC64   t.txz\n" +
			"-------------------------------------------------------------------------------\n    2       2        128 B         12 B    ---  CRC64   2 files\n",
			"xz: t: Too small to be a valid .xz file\nxz: bad.xz: Too small to be a valid .xz file\n", 1, tree},
		{map[string]string{"two.xz": xzHello + "\x00\x00\x00\x00" + xzHello, "junk.xz": strings.Repeat("junk", 10)}, []string{"xz", "-l", "two.xz", "junk.xz"},
			"Strms  Blocks   Compressed Uncompressed  Ratio  Check   Filename\n    2       2        132 B         12 B    ---  CRC64   two.xz\n", "xz: junk.xz: File format not recognized\n", 1, "-"},
	})
	runLines(t, []linesCase{
		{nil, []string{"xz", "-dc"}, xzHello + xzHello, "hello\nhello\n", "", 0},
		{nil, []string{"xz", "-d"}, "hello\n", "", "xz: (stdin): File format not recognized\n", 1},
		{nil, []string{"xz", "-l"}, "", "", "xz: --list does not support reading from standard input\n", 1},
		// Usage errors as XZ Utils 5.4 words them: both lines prefixed.
		{nil, []string{"xz", "-y"}, "", "", "xz: invalid option -- 'y'\nxz: Try `xz --help' for more information.\n", 1},
		{nil, []string{"xzcat", "--bogus"}, "", "", "xzcat: unrecognized option '--bogus'\nxzcat: Try `xzcat --help' for more information.\n", 1},
	})
}

// TestXzCompressRoundTrip compresses at several presets and checks that
// xz -d (this one, and XZ Utils' when installed) gives the input back,
// that FILE is replaced by FILE.xz unless -k, and that xz -l reads what
// was written.
func TestXzCompressRoundTrip(t *testing.T) {
	t.Parallel()
	var big strings.Builder
	for i := range 20000 {
		big.WriteString(strings.Repeat("line ", i%7) + string(rune('a'+i%26)) + "\n")
	}
	inputs := map[string]string{"empty": "", "hello": "hello\n", "big": big.String(), "bin": "\x00\xff\xfd7zXZ\x00"}
	realXz, _ := exec.LookPath("xz")
	if realXz == "" {
		t.Log("no xz program installed: XZ Utils' decompression of the output is not checked")
	}
	for _, args := range [][]string{{"xz"}, {"xz", "-k", "-0", "-S", ".xz"}, {"xz", "-9e", "-T2", "--check=crc32"}, {"xz", "-z", "-C", "sha256"}, {"xz", "--check=none", "-k"}} {
		dir := t.TempDir()
		fsys := testFS(t, dir)
		var names []string
		for name, content := range inputs {
			writeTestFile(t, fsys, dir+"/"+name, content)
			names = append(names, name)
		}
		b, _ := Lookup("xz")
		run := func(args ...string) (string, string, int) {
			var out, errb bytes.Buffer
			env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
			st := Run(b, env)
			return out.String(), errb.String(), st
		}
		if out, errs, st := run(append(args, names...)...); out != "" || errs != "" || st != 0 {
			t.Fatalf("%q: %q %q %d", args, out, errs, st)
		}
		keep := slices.Contains(args, "-k")
		for name, content := range inputs {
			if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != keep {
				t.Errorf("%q: %s kept: %v", args, name, err == nil)
			}
			out, errs, st := run("xz", "-dc", name+".xz")
			if out != content || errs != "" || st != 0 {
				t.Errorf("%q: xz -dc %s.xz: %q %q %d", args, name, out, errs, st)
			}
			if out, errs, st := run("xz", "-l", name+".xz"); st != 0 || errs != "" || !strings.Contains(out, "    1       1 ") {
				t.Errorf("%q: xz -l %s.xz: %q %q %d", args, name, out, errs, st)
			}
			if realXz != "" {
				got, err := exec.Command(realXz, "-dc", filepath.Join(dir, name+".xz")).Output()
				if err != nil || string(got) != content {
					t.Errorf("%q: XZ Utils' xz -dc %s.xz: %v, %d bytes (want %d)", args, name, err, len(got), len(content))
				}
			}
		}
	}
	// Standard input to standard output.
	got := runCmd(t, nil, "hello\n", "xz")
	back := runCmd(t, nil, got.stdout, "xz", "-d")
	if got.status != 0 || back.stdout != "hello\n" {
		t.Errorf("xz | xz -d: %+v, %+v", got, back)
	}
}
