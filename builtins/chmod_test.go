package builtins_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 chmod (LC_ALL=C, umask
// 022); the setuid/setgid/sticky refusals are llmsh's policy.
func TestChmod(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args     []string
		before   string // "name=mode ..." set on the host first (f, d, d/g exist)
		out, err string
		status   int
		after    string // "name=mode ..." checked on the host after
	}{
		{args: []string{"chmod", "600", "f"}, after: "f=600"},
		{args: []string{"chmod", "7", "f"}, after: "f=7"},
		{args: []string{"chmod", "u+x,g-r", "f"}, after: "f=704"},
		{args: []string{"chmod", "+x", "f"}, after: "f=755"},
		{args: []string{"chmod", "=w", "f"}, after: "f=200"},
		{args: []string{"chmod", "g=u,o=g", "f"}, before: "f=640", after: "f=666"},
		{args: []string{"chmod", "go=u-w", "f"}, before: "f=640", after: "f=644"},
		{args: []string{"chmod", "a-x,+X", "f", "d"}, before: "f=751", after: "f=640 d=755"},
		{args: []string{"chmod", "u=rw+x", "f"}, before: "f=0", after: "f=700"},
		{args: []string{"chmod", "u-s", "f"}, after: "f=644"},
		{args: []string{"chmod", "--reference=f", "d"}, before: "f=600", after: "d=600"},
		{args: []string{"chmod", "-R", "go-rwx", "d"}, after: "d=700 d/g=600 f=644"},
		{args: []string{"chmod", "-R", "-w", "d"}, out: "", after: "d=555 d/g=444"},
		{args: []string{"chmod", "-v", "640", "f", "d"}, before: "d=640",
			out: "mode of 'f' changed from 0644 (rw-r--r--) to 0640 (rw-r-----)\nmode of 'd' retained as 0640 (rw-r-----)\n", after: "f=640"},
		{args: []string{"chmod", "-c", "640", "f", "d"}, before: "d=640",
			out: "mode of 'f' changed from 0644 (rw-r--r--) to 0640 (rw-r-----)\n", after: "f=640"},
		{args: []string{"chmod", "-w", "f"}, before: "f=777", err: "chmod: f: new permissions are r-xrwxrwx, not r-xr-xr-x\n", status: 1, after: "f=577"},
		{args: []string{"chmod", "--", "-w", "f"}, before: "f=777", after: "f=577"},
		// Errors.
		{args: []string{"chmod"}, err: "chmod: missing operand\nTry 'chmod --help' for more information.\n", status: 1},
		{args: []string{"chmod", "-w"}, err: "chmod: missing operand\nTry 'chmod --help' for more information.\n", status: 1},
		{args: []string{"chmod", "755"}, err: "chmod: missing operand after '755'\nTry 'chmod --help' for more information.\n", status: 1},
		{args: []string{"chmod", "8", "f"}, err: "chmod: invalid mode: '8'\nTry 'chmod --help' for more information.\n", status: 1},
		{args: []string{"chmod", "g=ur", "f"}, err: "chmod: invalid mode: 'g=ur'\nTry 'chmod --help' for more information.\n", status: 1},
		{args: []string{"chmod", "u,", "f"}, err: "chmod: invalid mode: 'u,'\nTry 'chmod --help' for more information.\n", status: 1},
		{args: []string{"chmod", "-Rw", "f"}, err: "chmod: invalid mode: '-Rw'\nTry 'chmod --help' for more information.\n", status: 1},
		{args: []string{"chmod", "--bogus", "f"}, err: "chmod: unrecognized option '--bogus'\nTry 'chmod --help' for more information.\n", status: 1},
		{args: []string{"chmod", "644", "nope", "f"}, before: "f=600", err: "chmod: cannot access 'nope': No such file or directory\n", status: 1, after: "f=644"},
		{args: []string{"chmod", "-v", "644", "nope"}, out: "'nope' could not be accessed\n", err: "chmod: cannot access 'nope': No such file or directory\n", status: 1},
		{args: []string{"chmod", "-f", "644", "nope"}, status: 1},
		{args: []string{"chmod", "--reference=nope", "f"}, err: "chmod: failed to get attributes of 'nope': No such file or directory\n", status: 1},
		// llmsh's policy: no setuid, setgid or sticky bits; nothing outside -o.
		{args: []string{"chmod", "u+s", "f"}, err: "chmod: changing permissions of 'f': Operation not permitted\n", status: 1, after: "f=644"},
		{args: []string{"chmod", "4755", "f"}, err: "chmod: changing permissions of 'f': Operation not permitted\n", status: 1, after: "f=644"},
		{args: []string{"chmod", "-v", "+t", "d"}, out: "failed to change mode of 'd' from 0755 (rwxr-xr-x) to 1755 (rwxr-xr-t)\n",
			err: "chmod: changing permissions of 'd': Operation not permitted\n", status: 1, after: "d=755"},
		{args: []string{"chmod", "777", "@OUT@/secret"}, err: "chmod: cannot access '@OUT@/secret': No such file or directory\n", status: 1},
		{args: []string{"chmod", "777", "../x"}, err: "chmod: cannot access '../x': No such file or directory\n", status: 1},
		{args: []string{"chmod", "000", "."}, err: "chmod: changing permissions of '.': Permission denied\n", status: 1},
		{args: []string{"chmod", "--preserve-root", "-R", "777", "/"}, err: "chmod: it is dangerous to operate recursively on '/'\nchmod: use --no-preserve-root to override this failsafe\n", status: 1},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"d", "d/g", "f"} {
				var err error
				if p == "d" {
					err = os.Mkdir(filepath.Join(dir, p), 0o755)
				} else {
					err = os.WriteFile(filepath.Join(dir, p), nil, 0o644)
				}
				if err == nil {
					err = os.Chmod(filepath.Join(dir, p), map[bool]fs.FileMode{true: 0o755, false: 0o644}[p == "d"])
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, kv := range strings.Fields(tc.before) {
				name, mode, _ := strings.Cut(kv, "=")
				if err := os.Chmod(filepath.Join(dir, name), chmodTestMode(t, mode)); err != nil {
					t.Fatal(err)
				}
			}
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "@OUT@", outside)
			}
			r := runCmdIn(t, dir, args...)
			gotErr := strings.ReplaceAll(r.stderr, outside, "@OUT@")
			if r.stdout != tc.out || gotErr != tc.err || r.status != tc.status {
				t.Errorf("got %q %q %d\nwant %q %q %d", r.stdout, gotErr, r.status, tc.out, tc.err, tc.status)
			}
			for _, kv := range strings.Fields(tc.after) {
				name, mode, _ := strings.Cut(kv, "=")
				fi, err := os.Stat(filepath.Join(dir, name))
				if err != nil || fi.Mode().Perm() != chmodTestMode(t, mode) {
					t.Errorf("%s: mode %o (%v), want %s", name, fi.Mode().Perm(), err, mode)
				}
			}
			if fi, err := os.Stat(filepath.Join(outside, "secret")); err != nil || fi.Mode().Perm() != 0o644 {
				t.Errorf("the file outside the grant changed: %v %v", fi, err)
			}
		})
	}
}

func chmodTestMode(t *testing.T, s string) fs.FileMode {
	m, ok := compileMode(s)
	if !ok {
		t.Fatalf("bad mode %q", s)
	}
	return fs.FileMode(adjustMode(m, 0, false, 0))
}

// TestCompileMode covers gnulib's mode grammar and adjustment rules.
// Checked against GNU chmod 9.1 with umask 022.
func TestCompileMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode  string
		old   uint32
		dir   bool
		want  uint32
		valid bool
	}{
		{"755", 0, false, 0o755, true},
		{"0", 0o777, false, 0, true},
		{"07777", 0, false, 0o7777, true},
		{"17777", 0, false, 0, false},
		{"u+s", 0o640, false, 0o4640, true},
		{"g=s", 0o640, false, 0o2600, true},
		{"+t", 0o640, false, 0o1640, true},
		{"-w", 0o777, false, 0o577, true},
		{"-r", 0o007, false, 0o003, true},
		{"a+rw-w", 0o640, false, 0o444, true},
		{"ug=o", 0o642, false, 0o222, true},
		{"u=", 0o640, false, 0o040, true},
		{"=", 0o640, false, 0, true},
		{"a+X", 0o600, true, 0o711, true},
		{"a+X", 0o600, false, 0o600, true},
		{"a+X", 0o610, false, 0o711, true},
		{"755", 0o2755, true, 0o2755, true}, // a directory keeps setgid unless 5 digits
		{"00755", 0o2755, true, 0o755, true},
		{"", 0, false, 0, false},
		{"u", 0, false, 0, false},
		{",", 0, false, 0, false},
		{"u+q", 0, false, 0, false},
		{"g=ur", 0, false, 0, false},
		{"9", 0, false, 0, false},
	} {
		ch, ok := compileMode(tc.mode)
		if ok != tc.valid {
			t.Errorf("compileMode(%q) valid = %v", tc.mode, ok)
			continue
		}
		if !ok {
			continue
		}
		if got := adjustMode(ch, tc.old, tc.dir, 0o022); got != tc.want {
			t.Errorf("%q on %o (dir %v) = %o, want %o", tc.mode, tc.old, tc.dir, got, tc.want)
		}
	}
}
