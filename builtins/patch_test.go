package builtins

import (
	"os"
	"path/filepath"
	"testing"
)

// Names in a diff that leave the working tree are ignored (as GNU patch
// 2.7.6 does), and a target given explicitly outside the granted tree is
// refused by the file system: nothing is written outside.
func TestPatchOutsideRefused(t *testing.T) {
	create := "--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+evil\n"
	for _, c := range []struct {
		name string
		args []string
		out  string
		err  string
	}{
		{"origfile dotdot", []string{"patch", "../outside", "p.diff"}, "patching file ../outside\n",
			"patch: **** Can't create file ../outside : Permission denied (outside the writable paths)\n"},
		{"output dotdot", []string{"patch", "-o", "../outside", "-i", "p.diff"}, "patching file ../outside (read from x)\n",
			"patch: **** Can't create file ../outside : Permission denied (outside the writable paths)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, dir := duRun(t, duCase{files: map[string]string{"p.diff": create}, args: c.args})
			if r.stdout != c.out || r.stderr != c.err || r.status != 2 {
				t.Errorf("got %q %q %d, want %q %q 2", r.stdout, r.stderr, r.status, c.out, c.err)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "outside")); err == nil {
				t.Error("a file was written outside the granted directory")
			}
		})
	}
	// The diff names ../outside and an absolute path: both ignored.
	evil := "--- ../outside\n+++ ../outside\n@@ -0,0 +1 @@\n+evil\n--- /abs\n+++ /abs\n@@ -0,0 +1 @@\n+evil\n"
	r, dir := duRun(t, duCase{files: map[string]string{"p.diff": evil}, args: []string{"patch", "-p0", "-i", "p.diff"}})
	want := "Ignoring potentially dangerous file name ../outside\n" +
		"can't find file to patch at input line 3\nPerhaps you used the wrong -p or --strip option?\n" +
		"The text leading up to this was:\n--------------------------\n|--- ../outside\n|+++ ../outside\n--------------------------\n" +
		"File to patch: \nSkip this patch? [y] \nSkipping patch.\n1 out of 1 hunk ignored\n" +
		"Ignoring potentially dangerous file name /abs\n" +
		"can't find file to patch at input line 7\nPerhaps you used the wrong -p or --strip option?\n" +
		"The text leading up to this was:\n--------------------------\n|--- /abs\n|+++ /abs\n--------------------------\n" +
		"File to patch: \nSkip this patch? [y] \nSkipping patch.\n1 out of 1 hunk ignored\n"
	if r.stdout != want || r.stderr != "" || r.status != 1 {
		t.Errorf("got %q %q %d", r.stdout, r.stderr, r.status)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "outside")); err == nil {
		t.Error("a file was written outside the granted directory")
	}
}

func TestPatchRejectsMissingNewline(t *testing.T) {
	// A hunk that does not apply keeps its "\ No newline" marker in the
	// .rej file; the original is kept as .orig. (GNU patch 2.7.6 writes
	// "-b+B" here, dropping the markers and the line ends: we keep the
	// hunk as the diff wrote it, which can be applied later.)
	p := "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+B\n\\ No newline at end of file\n"
	r, dir := duRun(t, duCase{files: map[string]string{"f": "x\ny", "p.diff": p}, args: []string{"patch", "-i", "p.diff"}})
	if r.stdout != "patching file f\nHunk #1 FAILED at 1.\n1 out of 1 hunk FAILED -- saving rejects to file f.rej\n" || r.status != 1 {
		t.Errorf("got %q %q %d", r.stdout, r.stderr, r.status)
	}
	rej, _ := os.ReadFile(filepath.Join(dir, "f.rej"))
	if string(rej) != p {
		t.Errorf("f.rej = %q", rej)
	}
	orig, _ := os.ReadFile(filepath.Join(dir, "f.orig"))
	if string(orig) != "x\ny" {
		t.Errorf("f.orig = %q", orig)
	}
}

// TestPatchEdErrors: ed scripts that do not fit the file, or use commands
// diff -e never writes, are refused without changing it (llmsh's wording:
// GNU patch would hand them to ed).
func TestPatchEdErrors(t *testing.T) {
	for _, tc := range []struct{ script, err string }{
		{"9d\n", "patch: **** ed script line 1: address out of range\n"},
		{"3,2d\n", "patch: **** ed script line 1: address out of range\n"},
		{"1a\nx\n", "patch: **** ed script line 1: text not ended by '.'\n"},
		{"1d\n!ls\n", "patch: **** ed script line 2: unsupported command \"!ls\"\n"},
		{"2c\n\n.\ns/.//\n", "patch: **** ed script line 4: no match\n"},
	} {
		r := runCmd(t, map[string]string{"f": "a\nb\n", "e.ed": tc.script}, "", "patch", "-e", "f", "e.ed")
		if r.status != 2 || r.stderr != tc.err || r.stdout != "" {
			t.Errorf("%q: got %+v, want %q", tc.script, r, tc.err)
		}
	}
	r := runCmd(t, map[string]string{"f": "a\nb\n", "e.ed": "1c\nA\n.\n"}, "", "patch", "-R", "-e", "f", "e.ed")
	if r.status != 2 || r.stderr != "patch: **** ed scripts cannot be reversed\n" {
		t.Errorf("-R: %+v", r)
	}
}
