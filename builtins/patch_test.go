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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// Hunks whose line counts do not match their lines, as hand-written and
// model-written diffs often have, are taken or refused as GNU patch 2.7.6
// takes or refuses them (the table was recorded from it, run with -p1 on a
// file f of "one two (blank) three four five"): a short hunk is padded with
// blank context lines when at most three new lines are missing, a line that
// overflows a count is malformed, a tab-led line is context, and a hunk
// without a change is malformed.
func TestPatchMiscountedHunks(t *testing.T) {
	t.Parallel()
	const orig = "one\ntwo\n\nthree\nfour\nfive\n"
	for _, c := range []struct {
		name, diff, out, err string
		status               int
		after                string
	}{
		{"allctx", "@@ -1,2 +1,2 @@\n one\n two\n", "patching file f\n", "patch: **** malformed patch at line 5:  two\n\n", 2, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"blank3", "@@ -2,4 +2,4 @@\n-two\n+TWO\n", "patching file f\nHunk #1 succeeded at 2 with fuzz 2.\n", "", 0, "one\nTWO\n\nthree\nfour\nfive\n"},
		{"bsmid", "@@ -1,3 +1,3 @@\n one\n\\ x\n-two\n+TWO\n \n", "patching file f\n", "patch: **** malformed patch at line 5: \\ x\n\n", 2, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"ctxonlyeof", "@@ -1,3 +1,4 @@\n one\n+X\n two\n", "patching file f\n", "", 0, "one\nX\ntwo\n\nthree\nfour\nfive\n"},
		{"emptyctx", "@@ -2,3 +2,3 @@\n-two\n+TWO\n\n three\n", "patching file f\n", "", 0, "one\nTWO\n\nthree\nfour\nfive\n"},
		{"extraminus", "@@ -1,2 +1,3 @@\n one\n-two\n-x\n+TWO\n+y\n", "patching file f\n", "patch: **** malformed patch at line 6: -x\n\n", 2, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"fourshort", "@@ -1,6 +1,6 @@\n one\n-two\n+TWO\n", "patching file f\n", "patch: **** unexpected end of file in patch\n", 2, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"garbage", "@@ -1,3 +1,3 @@\n one\nxtwo\n+TWO\n \n", "patching file f\n", "patch: **** malformed patch at line 5: xtwo\n\n", 2, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"newmore", "@@ -1,2 +1,5 @@\n one\n-two\n+TWO\n", "patching file f\n", "patch: **** malformed patch at line 6:  \n\n", 2, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"newshort", "@@ -1,2 +1,3 @@\n one\n-two\n+TWO\n", "patching file f\n", "patch: **** malformed patch at line 6:  \n\n", 2, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"noeol", "@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+TWO\n", "patching file f\nHunk #1 FAILED at 1.\n1 out of 1 hunk FAILED -- saving rejects to file f.rej\n", "", 1, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"ok", "@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n \n", "patching file f\n", "", 0, "one\nTWO\n\nthree\nfour\nfive\n"},
		{"oldshort", "@@ -1,3 +1,2 @@\n one\n-two\n+TWO\n", "patching file f\n", "patch: **** malformed patch at line 6:  \n\n", 2, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"oneshort", "@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n", "patching file f\n", "", 0, "one\nTWO\n\nthree\nfour\nfive\n"},
		{"onlyadd", "@@ -0,0 +1,2 @@\n+a\n", "patching file f\n", "patch: **** malformed patch at line 4:  \n\n", 2, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"plusfull", "@@ -1,2 +1,2 @@\n one\n+A\n+B\n-two\n", "patching file f\n", "patch: **** malformed patch at line 6: +B\n\n", 2, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"tabline", "@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n\t\n", "patching file f\nHunk #1 succeeded at 1 with fuzz 1.\n", "", 0, "one\nTWO\n\nthree\nfour\nfive\n"},
		{"threeshort", "@@ -1,5 +1,5 @@\n one\n-two\n+TWO\n", "patching file f\nHunk #1 succeeded at 1 with fuzz 2.\n", "", 0, "one\nTWO\n\nthree\nfour\nfive\n"},
		{"toolong", "@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n three\n", "patching file f\nHunk #1 succeeded at 1 with fuzz 1.\n", "", 0, "one\nTWO\n\nthree\nfour\nfive\n"},
		{"trailing", "@@ -1,2 +1,2 @@\n one\n-two\n+TWO\nsome trailing text\n", "patching file f\nHunk #1 succeeded at 1 with fuzz 1.\n", "", 0, "one\nTWO\n\nthree\nfour\nfive\n"},
		{"twohunks", "@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n@@ -4,3 +4,3 @@\n three\n-four\n+FOUR\n five\n", "patching file f\nHunk #1 succeeded at 1 with fuzz 1.\n", "", 0, "one\nTWO\n\nthree\nFOUR\nfive\n"},
		{"twohunksbad", "@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n@@ -4,3 +4,3 @@\n three\n-four\n+FOUR\n five\n", "patching file f\n", "patch: **** malformed patch at line 7: @@ -4,3 +4,3 @@\n\n", 2, "one\ntwo\n\nthree\nfour\nfive\n"},
		{"twoshort", "@@ -1,4 +1,4 @@\n one\n-two\n+TWO\n", "patching file f\nHunk #1 succeeded at 1 with fuzz 1.\n", "", 0, "one\nTWO\n\nthree\nfour\nfive\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, dir := duRun(t, duCase{files: map[string]string{"f": orig, "p.diff": "--- a/f\n+++ b/f\n" + c.diff},
				args: []string{"patch", "-i", "p.diff", "-p1"}})
			if r.stdout != c.out || r.stderr != c.err || r.status != c.status {
				t.Errorf("got %q %q %d, want %q %q %d", r.stdout, r.stderr, r.status, c.out, c.err, c.status)
			}
			if b, err := os.ReadFile(filepath.Join(dir, "f")); err != nil || string(b) != c.after {
				t.Errorf("f is %q (%v), want %q", b, err, c.after)
			}
		})
	}
}
