package builtins_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Expected values checked against GNU coreutils 9.1 touch (LC_ALL=C, TZ UTC).
func TestTouch(t *testing.T) {
	t.Parallel()
	f := map[string]string{"f": "x"}
	runTree(t, []treeCase{
		{f, []string{"touch", "f", "new"}, "", "", 0, "f=x new="},
		{f, []string{"touch", "-c", "nope"}, "", "", 0, "f=x"},
		{f, []string{"touch", "nodir/x"}, "", "touch: cannot touch 'nodir/x': No such file or directory\n", 1, "f=x"},
		{f, []string{"touch", "-d", "xyz", "f"}, "", "touch: invalid date format 'xyz'\n", 1, "f=x"},
		{f, []string{"touch", "-t", "99", "f"}, "", "touch: invalid date format '99'\n", 1, "f=x"},
		{f, []string{"touch", "-r", "nope", "f"}, "", "touch: failed to get attributes of 'nope': No such file or directory\n", 1, "f=x"},
		{f, []string{"touch"}, "", "touch: missing file operand\nTry 'touch --help' for more information.\n", 1, "f=x"},
		// Outside the granted tree.
		{f, []string{"touch", "@OUT@/secret"}, "", "touch: cannot touch '@OUT@/secret': Permission denied (outside the writable paths)\n", 1, "f=x"},
		{f, []string{"touch", "@OUT@/new"}, "", "touch: cannot touch '@OUT@/new': Permission denied (outside the writable paths)\n", 1, "f=x"},
		// A component over NAME_MAX (255 bytes).
		{f, []string{"touch", strings.Repeat("n", 256)}, "", "touch: cannot touch '" + strings.Repeat("n", 256) + "': File name too long\n", 1, "f=x"},
	})
}

func TestTouchTimes(t *testing.T) {
	t.Parallel()
	utc := func(s string) time.Time {
		tm, err := time.Parse("2006-01-02 15:04:05.999999999", s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	thisYear := time.Now().UTC().Year()
	for _, tc := range []struct {
		args         []string
		mtime, atime time.Time
	}{
		{[]string{"touch", "-d", "2024-01-02 03:04:05", "f"}, utc("2024-01-02 03:04:05"), utc("2024-01-02 03:04:05")},
		{[]string{"touch", "-d", "2024-01-02T03:04:05.25Z", "f"}, utc("2024-01-02 03:04:05.25"), utc("2024-01-02 03:04:05.25")},
		{[]string{"touch", "-d", "2024-01-02 03:04:05 +02:00", "f"}, utc("2024-01-02 01:04:05"), utc("2024-01-02 01:04:05")},
		{[]string{"touch", "-t", "202401020304.05", "f"}, utc("2024-01-02 03:04:05"), utc("2024-01-02 03:04:05")},
		{[]string{"touch", "-t", "01020304", "f"}, time.Date(thisYear, 1, 2, 3, 4, 0, 0, time.UTC), time.Date(thisYear, 1, 2, 3, 4, 0, 0, time.UTC)},
		{[]string{"touch", "-t", "9901020304", "f"}, utc("1999-01-02 03:04:00"), utc("1999-01-02 03:04:00")},
		{[]string{"touch", "--date=@1700000000", "f"}, time.Unix(1700000000, 0), time.Unix(1700000000, 0)},
		{[]string{"touch", "-d", "2024-05-06", "f"}, utc("2024-05-06 00:00:00"), utc("2024-05-06 00:00:00")},
		{[]string{"touch", "-m", "-d", "2020-01-01", "f"}, utc("2020-01-01 00:00:00"), utc("2010-01-01 00:00:00")},
		{[]string{"touch", "-a", "-d", "2020-01-01", "f"}, utc("2010-01-01 00:00:00"), utc("2020-01-01 00:00:00")},
		{[]string{"touch", "-r", "ref", "f"}, utc("2001-02-03 04:05:06"), utc("2001-02-03 04:05:06")},
		{[]string{"touch", "-d", "2024-01-02", "-c", "new"}, time.Time{}, time.Time{}},
	} {
		dir := t.TempDir()
		old := utc("2010-01-01 00:00:00")
		for name, tm := range map[string]time.Time{"f": old, "ref": utc("2001-02-03 04:05:06")} {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, tm, tm); err != nil {
				t.Fatal(err)
			}
		}
		r := runCmdIn(t, dir, tc.args...)
		if r.status != 0 || r.stderr != "" {
			t.Errorf("%q: %+v", tc.args, r)
			continue
		}
		name := tc.args[len(tc.args)-1]
		fi, err := os.Stat(filepath.Join(dir, name))
		if tc.mtime.IsZero() {
			if err == nil {
				t.Errorf("%q: created %s", tc.args, name)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(tc.mtime) {
			t.Errorf("%q: mtime %v, want %v", tc.args, fi.ModTime().UTC(), tc.mtime)
		}
		if at := atimeOf(fi); !at.Equal(tc.atime) {
			t.Errorf("%q: atime %v, want %v", tc.args, at.UTC(), tc.atime)
		}
	}
}
