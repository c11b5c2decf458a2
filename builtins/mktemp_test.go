package builtins_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// Messages checked against GNU coreutils 9.1 mktemp (LC_ALL=C).
func TestMktemp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args   []string
		env    []string
		out    string // a regexp for stdout; @DIR@ is the working directory
		err    string
		status int
		kind   string // "f" or "d": what must exist at the printed name on the host
	}{
		{args: []string{"mktemp", "-p", "."}, out: `^\./tmp\.[A-Za-z0-9]{10}\n$`, kind: "f"},
		{args: []string{"mktemp", "-d", "--tmpdir=sub"}, out: `^sub/tmp\.[A-Za-z0-9]{10}\n$`, kind: "d"},
		{args: []string{"mktemp", "sub/aXXXXb.txt"}, out: `^sub/a[A-Za-z0-9]{4}b\.txt\n$`, kind: "f"},
		{args: []string{"mktemp", "--suffix=.sh", "sub/XXX"}, out: `^sub/[A-Za-z0-9]{3}\.sh\n$`, kind: "f"},
		{args: []string{"mktemp", "-t", "yXXX"}, env: []string{"TMPDIR=@DIR@/sub"}, out: `^@DIR@/sub/y[A-Za-z0-9]{3}\n$`, kind: "f"},
		{args: []string{"mktemp", "-u", "-p", "sub"}, out: `^sub/tmp\.[A-Za-z0-9]{10}\n$`},
		{args: []string{"mktemp", "ab"}, err: "mktemp: too few X's in template 'ab'\n", status: 1},
		{args: []string{"mktemp", "-q", "ab"}, err: "mktemp: too few X's in template 'ab'\n", status: 1},
		{args: []string{"mktemp", "a", "b"}, err: "mktemp: too many templates\nTry 'mktemp --help' for more information.\n", status: 1},
		{args: []string{"mktemp", "nodir/XXX"}, err: "mktemp: failed to create file via template 'nodir/XXX': No such file or directory\n", status: 1},
		{args: []string{"mktemp", "-q", "nodir/XXX"}, status: 1},
		{args: []string{"mktemp", "-p", "sub", "/abs/XXX"}, err: "mktemp: invalid template, '/abs/XXX'; with --tmpdir, it may not be absolute\n", status: 1},
		{args: []string{"mktemp", "-t", "a/XXX"}, err: "mktemp: invalid template, 'a/XXX', contains directory separator\n", status: 1},
		{args: []string{"mktemp", "--suffix=a/b", "XXX"}, err: "mktemp: invalid suffix 'a/b', contains directory separator\n", status: 1},
		// Outside the grants (the test session is --strict, so no virtual
		// files).
		{args: []string{"mktemp"}, err: "mktemp: failed to create file via template '/tmp/tmp.XXXXXXXXXX': Permission denied (outside the writable paths)\n", status: 1},
		{args: []string{"mktemp", "-d"}, err: "mktemp: failed to create directory via template '/tmp/tmp.XXXXXXXXXX': Permission denied (outside the writable paths)\n", status: 1},
	} {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		env := make([]string, len(tc.env))
		for i, e := range tc.env {
			env[i] = strings.ReplaceAll(e, "@DIR@", dir)
		}
		b, _ := Lookup("mktemp")
		var out, errb strings.Builder
		e := &Env{Ctx: t.Context(), Args: tc.args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			FS: testFS(t, dir), Dir: dir, Environ: env}
		st := Run(b, e)
		re := regexp.MustCompile(strings.ReplaceAll(tc.out, "@DIR@", regexp.QuoteMeta(dir)))
		if tc.out == "" {
			re = regexp.MustCompile(`^$`)
		}
		if !re.MatchString(out.String()) || errb.String() != tc.err || st != tc.status {
			t.Errorf("%q: got %q %q %d, want %s %q %d", tc.args, out.String(), errb.String(), st, tc.out, tc.err, tc.status)
			continue
		}
		name := strings.TrimSuffix(out.String(), "\n")
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		switch tc.kind {
		case "f":
			if fi, err := os.Stat(name); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
				t.Errorf("%q: %s: %v %v", tc.args, name, fi, err)
			}
		case "d":
			if fi, err := os.Stat(name); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
				t.Errorf("%q: %s: %v %v", tc.args, name, fi, err)
			}
		default:
			if _, err := os.Lstat(name); err == nil && name != dir && strings.HasPrefix(name, dir) {
				t.Errorf("%q: %s was created", tc.args, name)
			}
		}
	}
}
