package builtins_test

import (
	"bytes"
	"compress/flate"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// TestZipUnzip runs zip and unzip in one directory; the expected lines
// were produced by Info-ZIP zip 3.0 and unzip 6.0 on the same tree (except
// deflate's percentage, which is Go's).
func TestZipUnzip(t *testing.T) {
	t.Parallel()
	if testFS == nil {
		t.Skip("needs the vfsd test session")
	}
	dir := t.TempDir()
	mtime := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for name, content := range map[string]string{"a": "hello\n", "big": strings.Repeat("line of text\n", 300), "empty": "", "d/e/y": "x\n"} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"a", "big", "empty", "d/e/y", "d/e", "d"} {
		os.Chtimes(filepath.Join(dir, p), mtime, mtime)
	}
	fsys := testFS(t, dir)
	run := func(stdin string, args ...string) result {
		b, _ := Lookup(args[0])
		var out, errb bytes.Buffer
		st := Run(b, &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir})
		return result{out.String(), errb.String(), st}
	}
	for _, tc := range []struct {
		stdin    string
		args     []string
		out, err string
		status   int
	}{
		{"", []string{"zip", "t.zip", "a", "big", "empty"}, "  adding: a (stored 0%)\n  adding: big (deflated 98%)\n  adding: empty (stored 0%)\n", "", 0},
		{"", []string{"zip", "-r", "t2.zip", "d", "a"}, "  adding: d/ (stored 0%)\n  adding: d/e/ (stored 0%)\n  adding: d/e/y (stored 0%)\n  adding: a (stored 0%)\n", "", 0},
		{"", []string{"zip", "t.zip", "a"}, "updating: a (stored 0%)\n", "", 0},
		{"", []string{"zip", "n.zip", "nosuch"}, "\tzip warning: name not matched: nosuch\n\nzip error: Nothing to do! (n.zip)\n", "", 12},
		{"", []string{"unzip", "-l", "t.zip"}, "Archive:  t.zip\n  Length      Date    Time    Name\n---------  ---------- -----   ----\n        6  2024-01-02 03:04   a\n     3900  2024-01-02 03:04   big\n        0  2024-01-02 03:04   empty\n---------                     -------\n     3906                     3 files\n", "", 0},
		{"", []string{"unzip", "t2.zip", "-d", "out"}, "Archive:  t2.zip\n   creating: out/d/\n   creating: out/d/e/\n extracting: out/d/e/y               \n extracting: out/a                   \n", "", 0},
		{"", []string{"unzip", "t2.zip", "-d", "out"}, "Archive:  t2.zip\n", "replace out/d/e/y? [y]es, [n]o, [A]ll, [N]one, [r]ename:  NULL\n(EOF or read error, treating as \"[N]one\" ...)\n", 1},
		{"", []string{"unzip", "-o", "t2.zip", "-d", "out"}, "Archive:  t2.zip\n extracting: out/d/e/y               \n extracting: out/a                   \n", "", 0},
		{"", []string{"unzip", "-n", "t2.zip", "-d", "out"}, "Archive:  t2.zip\n", "", 0},
		{"", []string{"unzip", "-p", "t.zip", "a", "empty"}, "hello\n", "", 0},
		{"", []string{"unzip", "-q", "t.zip", "big", "-d", "q"}, "", "", 0},
		{"", []string{"cat", "out/d/e/y"}, "x\n", "", 0},
		{"", []string{"unzip", "t.zip", "zz", "-d", "q"}, "Archive:  t.zip\n", "caution: filename not matched:  zz\n", 11},
		{"", []string{"unzip", "nosuch.zip"}, "", "unzip:  cannot find or open nosuch.zip, nosuch.zip.zip or nosuch.zip.ZIP.\n", 9},
		{"", []string{"unzip", "-t", "t.zip"}, "Archive:  t.zip\n    testing: a                        OK\n    testing: big                      OK\n    testing: empty                    OK\nNo errors detected in compressed data of t.zip.\n", "", 0},
		// -t names directory entries; member names and -x change the verdict's words (unzip 6.00)
		{"", []string{"unzip", "-t", "t2.zip"}, "Archive:  t2.zip\n    testing: d/                       OK\n    testing: d/e/                     OK\n    testing: d/e/y                    OK\n    testing: a                        OK\nNo errors detected in compressed data of t2.zip.\n", "", 0},
		{"", []string{"unzip", "-t", "t2.zip", "d/*"}, "Archive:  t2.zip\n    testing: d/                       OK\n    testing: d/e/                     OK\n    testing: d/e/y                    OK\nNo errors detected in t2.zip for the 3 files tested.\n", "", 0},
		{"", []string{"unzip", "-t", "t2.zip", "zz", "a"}, "Archive:  t2.zip\n    testing: a                        OK\ncaution: filename not matched:  zz\nAt least one error was detected in t2.zip.\n", "", 11},
		{"", []string{"unzip", "-tqq", "t2.zip"}, "", "", 0},
		{"", []string{"unzip", "-t", "t2.zip", "-x", "d/*"}, "Archive:  t2.zip\n    testing: a                        OK\nNo errors detected in t2.zip for the 1 file tested.\n", "", 0},
	} {
		r := run(tc.stdin, tc.args...)
		if r.stdout != tc.out || r.stderr != tc.err || r.status != tc.status {
			t.Errorf("%v:\n got %q %q %d\nwant %q %q %d", tc.args, r.stdout, r.stderr, r.status, tc.out, tc.err, tc.status)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "q/big")); err != nil || !fi.ModTime().Equal(mtime) || fi.Size() != 3900 {
		t.Errorf("q/big: %v %v", fi, err)
	}
}

// TestZipDeflateStops: deflating a member looks at the context a MiB at
// a time (session 23, red team: zip of a 169 MB file took 9.6 s past a
// library Session.Run's 1 s limit, in one flate Write); uncancelled, its
// stream inflates back to the data.
func TestZipDeflateStops(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("0123456789abcdef\n"), 1<<17)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ForTests.ZipDeflate(ctx, data, 6); err != gnu.ErrCancelled {
		t.Fatalf("cancelled: %v", err)
	}
	packed, err := ForTests.ZipDeflate(context.Background(), data, 6)
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(flate.NewReader(bytes.NewReader(packed)))
	if err != nil || !bytes.Equal(back, data) {
		t.Fatalf("inflated %d bytes, %v", len(back), err)
	}
}
