package builtins_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// Expected values checked against GNU coreutils 9.1 du, with and without
// --apparent-size (LC_ALL=C, ext4: a directory is 4096 bytes, blocks are
// 4 KiB).
func TestDu(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, size := range map[string]int{"d/a": 3, "d/s/big": 5000} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("x", size)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dsz := func(p string) int64 {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	if dsz("d") != 4096 || dsz("d/s") != 4096 {
		t.Skip("directory sizes are not 4096 on this file system; the expectations assume ext4")
	}
	outside := t.TempDir()
	for _, tc := range []struct {
		args     []string
		out, err string
		status   int
	}{
		{[]string{"du", "--apparent-size", "d"}, "9\td/s\n13\td\n", "", 0},
		{[]string{"du", "--apparent-size", "-a", "d"}, "1\td/a\n5\td/s/big\n9\td/s\n13\td\n", "", 0},
		{[]string{"du", "--apparent-size", "-s", "d", "d/a"}, "13\td\n", "", 0},
		{[]string{"du", "--apparent-size", "-sh", "d"}, "13K\td\n", "", 0},
		{[]string{"du", "--apparent-size", "-ah", "d"}, "3\td/a\n4.9K\td/s/big\n8.9K\td/s\n13K\td\n", "", 0},
		{[]string{"du", "--apparent-size", "-c", "d/a", "d/s/big"}, "1\td/a\n5\td/s/big\n5\ttotal\n", "", 0},
		{[]string{"du", "-b", "d"}, "9096\td/s\n13195\td\n", "", 0},
		// Disk usage, the default: sizes rounded up to 4 KiB blocks.
		{[]string{"du", "d"}, "12\td/s\n20\td\n", "", 0},
		{[]string{"du", "-a", "d"}, "4\td/a\n8\td/s/big\n12\td/s\n20\td\n", "", 0},
		{[]string{"du", "-sh", "d"}, "20K\td\n", "", 0},
		{[]string{"du", "-ah", "d"}, "4.0K\td/a\n8.0K\td/s/big\n12K\td/s\n20K\td\n", "", 0},
		{[]string{"du", "-c", "d/a", "d/s/big"}, "4\td/a\n8\td/s/big\n12\ttotal\n", "", 0},
		{[]string{"du", "--max-depth=1"}, "20\t./d\n24\t.\n", "", 0},
		{[]string{"du", "-m", "d"}, "1\td/s\n1\td\n", "", 0},
		{[]string{"du", "--apparent-size", "-d", "0", "d"}, "13\td\n", "", 0},
		{[]string{"du", "--apparent-size", "--max-depth=1"}, "13\t./d\n17\t.\n", "", 0},
		{[]string{"du", "-s", "--max-depth=1", "d"}, "", "du: warning: summarizing conflicts with --max-depth=1\nTry 'du --help' for more information.\n", 1},
		{[]string{"du", "--apparent-size", "nope", "d/a"}, "1\td/a\n", "du: cannot access 'nope': No such file or directory\n", 1},
		// Outside the granted tree.
		{[]string{"du", "-s", outside}, "", "du: cannot access '" + outside + "': No such file or directory\n", 1},
		{[]string{"du", "-s", "../x"}, "", "du: cannot access '../x': No such file or directory\n", 1},
	} {
		r := runCmdIn(t, dir, tc.args...)
		if r.stdout != tc.out || r.stderr != tc.err || r.status != tc.status {
			t.Errorf("%q:\n got %q %q %d\nwant %q %q %d", tc.args, r.stdout, r.stderr, r.status, tc.out, tc.err, tc.status)
		}
	}
}

// du describes a directory's entries all at once (entryInfos) and walks them
// in order: with more entries than statAhead, the lines and the message
// about a dangling link under -L come in name order, as one at a time.
func TestDuStatAheadOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := range 40 {
		name := fmt.Sprintf("d/f%02d", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Repeat("x", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&want, "%d\t%s\n", i, name)
		if i == 20 {
			if err := os.Symlink("missing", filepath.Join(dir, "d/f20x")); err != nil {
				t.Fatal(err)
			}
			want.WriteString("du: cannot access 'd/f20x'\n")
		}
	}
	fi, err := os.Stat(filepath.Join(dir, "d"))
	if err != nil {
		t.Fatal(err)
	}
	total := fi.Size()
	for i := range 40 {
		total += int64(i)
	}
	fmt.Fprintf(&want, "%d\td\n", total)
	b, _ := Lookup("du")
	var out bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: []string{"du", "-aLb", "d"}, Stdin: strings.NewReader(""),
		Stdout: &out, Stderr: &out, FS: testFS(t, dir), Dir: dir}
	if st := Run(b, env); out.String() != want.String() || st != 1 {
		t.Errorf("du -aLb d:\n got  %q, %d\n want %q, 1", out.String(), st, want.String())
	}
}
