package builtins_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Expected values checked against GNU coreutils 9.1 stat (LC_ALL=C, TZ
// UTC) where vfsd reveals the value; unknown values are printed as GNU
// prints unknown ones (see stat --help).
func TestStat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mt := time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC)
	for name, content := range map[string]string{"f": "hi\n", "e": "", "big": string(make([]byte, 5000))} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	for _, tc := range []struct {
		args     []string
		out, err string
		status   int
	}{
		{[]string{"stat", "-c", "%n|%s|%F|%a|%A|%f|%b|%B|%o|%N", "f", "e", "d", "l", "big"},
			"f|3|regular file|644|-rw-r--r--|81a4|8|512|4096|'f'\n" +
				"e|0|regular empty file|644|-rw-r--r--|81a4|0|512|4096|'e'\n" +
				"d|4096|directory|750|drwxr-x---|41e8|8|512|4096|'d'\n" +
				"l|1|symbolic link|777|lrwxrwxrwx|a1ff|0|512|4096|'l' -> 'f'\n" +
				"big|5000|regular file|644|-rw-r--r--|81a4|16|512|4096|'big'\n", "", 0},
		{[]string{"stat", "-L", "-c", "%F %s", "l"}, "regular file 3\n", "", 0},
		// GNU's --terse columns; what vfsd does not know is ? or 0.
		{[]string{"stat", "-t", "f", "e"}, "f 3 8 81a4 1000 1000 ? ? 1 0 0 1704164645 1704164645 1704164645 0 4096\ne 0 0 81a4 1000 1000 ? ? 1 0 0 1704164645 1704164645 1704164645 0 4096\n", "", 0},
		{[]string{"stat", "--terse", "-c", "%s", "f"}, "3\n", "", 0},
		{[]string{"stat", "--printf", `%n\t%s\\n%%\n`, "f"}, "f\t3\\n%\n", "", 0},
		// GNU stat drops the backslash of an escape it does not know, and warns.
		{[]string{"stat", "--printf", `\q%n\x\n`, "f"}, "qfx\n", "stat: warning: unrecognized escape '\\q'\nstat: warning: unrecognized escape '\\x'\n", 0},
		{[]string{"stat", "-c", "%-6s|%6s|%06s|%.3n|%Y|%y", "f"}, "3     |     3|000003|f|1704164645|2024-01-02 03:04:05.000000006 +0000\n", "", 0},
		// the last of -c and --printf is the format
		{[]string{"stat", "-c", "%n", "--printf", "%s\\n", "f"}, "3\n", "", 0},
		{[]string{"stat", "--printf", "%s\\n", "-c", "%n", "f"}, "f\n", "", 0},
		{[]string{"stat", "-c", "%10n|%-20n|", "f"}, "         f|f                   |\n", "", 0},
		// Widths past Go's fmt limit (10^6) are padded as GNU pads them.
		{[]string{"stat", "-c", "%1500000n|%-1500000s|%01500000s", "f"}, strings.Repeat(" ", 1499999) + "f|3" + strings.Repeat(" ", 1499999) + "|" + strings.Repeat("0", 1499999) + "3\n", "", 0},
		// vfsd keeps modification times only: access and change times are it.
		{[]string{"stat", "-c", "%w %W %x %X %z %Z %U %G %u %Q x%", "f"}, "- 0 2024-01-02 03:04:05.000000006 +0000 1704164645 2024-01-02 03:04:05.000000006 +0000 1704164645 llmsh llmsh 1000 ? x%\n", "", 0},
		{[]string{"stat", "-c", "%.3X|%.9Z", "f"}, "1704164645.000|1704164645.000000006\n", "", 0},
		{[]string{"stat", "f"}, "  File: f\n  Size: 3         \tBlocks: 8          IO Block: 4096   regular file\n" +
			"Device: ?\tInode: ?           Links: 1\nAccess: (0644/-rw-r--r--)  Uid: ( 1000/   llmsh)   Gid: ( 1000/   llmsh)\n" +
			"Access: 2024-01-02 03:04:05.000000006 +0000\nModify: 2024-01-02 03:04:05.000000006 +0000\nChange: 2024-01-02 03:04:05.000000006 +0000\n Birth: -\n", "", 0},
		{[]string{"stat", "-c", "%s", "nope", "f"}, "3\n", "stat: cannot statx 'nope': No such file or directory\n", 1},
		{[]string{"stat"}, "", "stat: missing operand\nTry 'stat --help' for more information.\n", 1},
		// Outside the granted tree.
		{[]string{"stat", "-c", "%s", outside}, "", "stat: cannot statx '" + outside + "': No such file or directory\n", 1},
		{[]string{"stat", "-c", "%s", "../x"}, "", "stat: cannot statx '../x': No such file or directory\n", 1},
	} {
		r := runCmdIn(t, dir, tc.args...)
		if r.stdout != tc.out || r.stderr != tc.err || r.status != tc.status {
			t.Errorf("%q:\n got %q %q %d\nwant %q %q %d", tc.args, r.stdout, r.stderr, r.status, tc.out, tc.err, tc.status)
		}
	}
}
