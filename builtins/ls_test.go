package builtins_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// Goldens from GNU coreutils 9.1: COLUMNS=N LC_ALL=C ls -C over these names.
func TestLsColumns(t *testing.T) {
	t.Parallel()
	names := strings.Fields("alpha beta chi delta epsilon eta gamma iota kappa lambda mu nu omega omicron phi pi psi rho sigma tau theta upsilon xi zeta")
	dir := t.TempDir()
	files := map[string]string{}
	for _, n := range names {
		files[n] = ""
	}
	writeHostFiles(t, dir, files)
	fsys := testFS(t, dir)
	for _, tc := range []struct {
		width int
		want  string
	}{
		{40, "alpha\t gamma\t omega\t  sigma\nbeta\t iota\t omicron  tau\nchi\t kappa\t phi\t  theta\ndelta\t lambda  pi\t  upsilon\nepsilon  mu\t psi\t  xi\neta\t nu\t rho\t  zeta\n"},
		{80, "alpha  delta\tgamma  lambda  omega\tpi   sigma  upsilon\nbeta   epsilon\tiota   mu      omicron\tpsi  tau    xi\nchi    eta\tkappa  nu      phi\trho  theta  zeta\n"},
		{1000, "alpha  beta  chi  delta  epsilon  eta  gamma  iota  kappa  lambda  mu  nu  omega  omicron  phi\tpi  psi  rho  sigma  tau  theta  upsilon  xi  zeta\n"},
		{1, strings.Join(names, "\n") + "\n"},
	} {
		r := runCmdFS(t, fsys, dir, "ls", "-C", "-w", strconv.Itoa(tc.width))
		if r.stdout != tc.want || r.stderr != "" || r.status != 0 {
			t.Errorf("width %d:\n got %q %q %d\nwant %q", tc.width, r.stdout, r.stderr, r.status, tc.want)
		}
	}
}

func TestLsTime(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	if got := lsTime(now.Add(-time.Hour), now); got != "Nov 23 11:00" {
		t.Errorf("recent: %q", got)
	}
	if got := lsTime(time.Date(2025, 1, 5, 0, 0, 0, 0, time.UTC), now); got != "Jan  5  2025" {
		t.Errorf("old: %q", got)
	}
}

// ls -l shows each entry's real mtime and -t sorts by it: a directory
// listing carries no times, so ls must stat the entries.
func TestLsLongAndTimeUseStat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	for _, n := range []string{"old", "new"} {
		writeTestFile(t, fsys, dir+"/"+n, n+"\n")
	}
	if err := fsys.Chtimes(dir+"/old", time.Unix(0, 0), time.Date(2020, 3, 4, 5, 6, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Chtimes(dir+"/new", time.Unix(0, 0), time.Date(2024, 7, 8, 9, 10, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		var out, errb strings.Builder
		env := &Env{Ctx: context.Background(), Args: append([]string{"ls"}, args...), Stdin: strings.NewReader(""),
			Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
		b, _ := Lookup("ls")
		if st := Run(b, env); st != 0 {
			t.Fatalf("ls %v: status %d: %s", args, st, errb.String())
		}
		return out.String()
	}
	long := run("-l")
	if !strings.Contains(long, "Jul  8  2024 new") || !strings.Contains(long, "Mar  4  2020 old") {
		t.Errorf("ls -l:\n%s", long)
	}
	if got := run("-t"); got != "new\nold\n" {
		t.Errorf("ls -t = %q", got)
	}
	if got := run("-tr"); got != "old\nnew\n" {
		t.Errorf("ls -tr = %q", got)
	}
}

// TestLsStyles: -g, -o, --full-time and --time-style, checked against GNU
// coreutils 9.1 ls (LC_ALL=C, TZ=UTC; owners are llmsh here).
func TestLsStyles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeTestFile(t, fsys, dir+"/f", "12345678")
	if err := fsys.Chtimes(dir+"/f", time.Time{}, time.Date(2021, 6, 7, 8, 9, 10, 500000000, time.UTC)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args     []string
		out, err string
		status   int
	}{
		{[]string{"ls", "-g", "f"}, "-rw-r--r-- 1 llmsh 8 Jun  7  2021 f\n", "", 0},
		{[]string{"ls", "-o", "f"}, "-rw-r--r-- 1 llmsh 8 Jun  7  2021 f\n", "", 0},
		{[]string{"ls", "-go", "f"}, "-rw-r--r-- 1 8 Jun  7  2021 f\n", "", 0},
		{[]string{"ls", "--full-time", "f"}, "-rw-r--r-- 1 llmsh llmsh 8 2021-06-07 08:09:10.500000000 +0000 f\n", "", 0},
		{[]string{"ls", "-l", "--time-style=long-iso", "f"}, "-rw-r--r-- 1 llmsh llmsh 8 2021-06-07 08:09 f\n", "", 0},
		{[]string{"ls", "-l", "--time-style=iso", "f"}, "-rw-r--r-- 1 llmsh llmsh 8 2021-06-07  f\n", "", 0},
		{[]string{"ls", "-l", "--time-style=+%Y/%m %%", "f"}, "-rw-r--r-- 1 llmsh llmsh 8 2021/06 % f\n", "", 0},
		{[]string{"ls", "-l", "--time-style=posix-full-iso", "f"}, "-rw-r--r-- 1 llmsh llmsh 8 Jun  7  2021 f\n", "", 0},
		{[]string{"ls", "-l", "--time-style=bogus", "f"}, "", "ls: invalid argument 'bogus' for 'time style'\nValid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format\nTry 'ls --help' for more information.\n", 2},
	} {
		r := runCmdIn(t, dir, tc.args...)
		if r.stdout != tc.out || r.stderr != tc.err || r.status != tc.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", tc.args, r.stdout, r.stderr, r.status, tc.out, tc.err, tc.status)
		}
	}
}

// TestLsClassify: -F marks directories '/', executable regular files '*'
// and symbolic links '@'; under -l the indicator is the link target's,
// after " -> TARGET"; -p marks only directories. Checked against GNU ls
// 9.1 on the same tree.
func TestLsClassify(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeTestFile(t, fsys, dir+"/plain", "x")
	writeTestFile(t, fsys, dir+"/exe", "#!/bin/sh\n")
	writeTestFile(t, fsys, dir+"/gx", "")
	writeTestFile(t, fsys, dir+"/d/", "")
	if err := fsys.Chmod(dir+"/exe", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Chmod(dir+"/gx", 0o710); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{"exe", "lexe"}, {"d", "ld"}, {"nowhere", "dangling"}} {
		if err := os.Symlink(l[0], dir+"/"+l[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		out  string
	}{
		{[]string{"ls", "-F"}, "d/\ndangling@\nexe*\ngx*\nld@\nlexe@\nplain\n"},
		{[]string{"ls", "-p"}, "d/\ndangling\nexe\ngx\nld\nlexe\nplain\n"},
		{[]string{"ls", "-F", "exe", "plain", "ld", "lexe"}, "exe*\nld@\nlexe@\nplain\n"},
		{[]string{"ls", "-Fd", "d", "gx"}, "d/\ngx*\n"},
		{[]string{"ls", "-goF", "--time-style=+", "lexe", "ld", "dangling", "exe"}, "lrwxrwxrwx 1  7  dangling -> nowhere\n-rwxr-xr-x 1 10  exe*\nlrwxrwxrwx 1  1  ld -> d/\nlrwxrwxrwx 1  3  lexe -> exe*\n"},
	} {
		r := runCmdIn(t, dir, tc.args...)
		if r.stdout != tc.out || r.stderr != "" || r.status != 0 {
			t.Errorf("%q: got %q %q %d, want %q", tc.args, r.stdout, r.stderr, r.status, tc.out)
		}
	}
}
