package builtins_test

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

// A unified diff whose first hunk starts at line 0 creates the file it
// names even without /dev/null or the Epoch (GNU's p_says_nonexistent
// of 1), as agents write them: "--- a/new.md" over "@@ -0,0 +1,2 @@".
// Of two names the one needing the fewest new directories wins; a
// deletion of a file that does not exist looks reversed. Outputs and
// trees as GNU patch 2.7.6 gives them.
func TestPatchCreatesNamedFile(t *testing.T) {
	create := "--- a/docs/new.md\n+++ b/docs/new.md\n@@ -0,0 +1,2 @@\n+# New\n+doc\n"
	del := "--- a/x\n+++ b/x\n@@ -1 +0,0 @@\n-bye\n"
	looksRev := "The next patch would delete the file x,\nwhich does not exist!"
	duRunAll(t, []duCase{
		{name: "create with dirs", stdin: create, args: []string{"patch", "-p1"},
			out: "patching file docs/new.md\n", tree: map[string]string{"docs/new.md": "# New\ndoc\n"}},
		{name: "create -p0", stdin: create, args: []string{"patch", "-p0"},
			out: "patching file a/docs/new.md\n", tree: map[string]string{"a/docs/new.md": "# New\ndoc\n"}},
		{name: "fewest new dirs", files: map[string]string{"docs/keep": ""},
			stdin: "--- a/zz/one.md\n+++ b/docs/longer-name.md\n@@ -0,0 +1 @@\n+hi\n", args: []string{"patch", "-p1"},
			out: "patching file docs/longer-name.md\n", tree: map[string]string{"docs/keep": "", "docs/longer-name.md": "hi\n"}},
		{name: "context", stdin: "*** c.txt\t2024-01-01 00:00:00\n--- c.txt\t2024-01-01 00:00:00\n***************\n*** 0 ****\n--- 1,2 ----\n+ a\n+ b\n",
			args: []string{"patch"}, out: "patching file c.txt\n", tree: map[string]string{"c.txt": "a\nb\n"}},
		{name: "reversed deletion creates", stdin: "--- a/m.txt\n+++ b/m.txt\n@@ -1,2 +0,0 @@\n-x\n-y\n", args: []string{"patch", "-R", "-p1"},
			out: "patching file m.txt\n", tree: map[string]string{"m.txt": "x\ny\n"}},
		{name: "existing file patched", files: map[string]string{"v": "1\n"}, stdin: "--- a/v\n+++ b/v\n@@ -0,0 +1 @@\n+h\n",
			args: []string{"patch", "-p1"}, out: "patching file v\n", tree: map[string]string{"v": "h\n1\n"}},
		{name: "delete missing", stdin: del, args: []string{"patch", "-p1"}, status: 1,
			out: looksRev + "  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n1 out of 1 hunk ignored\n", tree: map[string]string{}},
		{name: "delete missing -N", stdin: del, args: []string{"patch", "-N", "-p1"}, status: 1,
			out: looksRev + "  Skipping patch.\n1 out of 1 hunk ignored\n", tree: map[string]string{}},
		{name: "delete missing -t", stdin: del, args: []string{"patch", "-t", "-p1"},
			out: looksRev + "  Assuming -R.\npatching file x\n", tree: map[string]string{"x": "bye\n"}},
		{name: "delete missing -R", stdin: "--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+bye\n", args: []string{"patch", "-R", "-p1"}, status: 1,
			out:  "The next patch, when reversed, would delete the file x,\nwhich does not exist!  Ignore -R? [n] \nApply anyway? [n] \nSkipping patch.\n1 out of 1 hunk ignored\n",
			tree: map[string]string{}},
	})
}

// The extended headers of git diffs, as GNU patch 2.7.6 applies them: a
// rename or copy (with or without hunks), an empty file created or
// deleted, a mode; outputs and trees from GNU patch.
func TestPatchGitHeaders(t *testing.T) {
	rename := "diff --git a/v b/r\nsimilarity index 100%\nrename from v\nrename to r\n"
	duRunAll(t, []duCase{
		{name: "rename", files: map[string]string{"v": "1\n"}, stdin: rename, args: []string{"patch", "-p1"},
			out: "patching file r (renamed from v)\n", tree: map[string]string{"r": "1\n"}},
		{name: "rename dry-run", files: map[string]string{"v": "1\n"}, stdin: rename, args: []string{"patch", "-p1", "--dry-run"},
			out: "checking file r (renamed from v)\n", tree: map[string]string{"v": "1\n"}},
		{name: "rename -R", files: map[string]string{"r": "1\n"}, stdin: rename, args: []string{"patch", "-R", "-p1"},
			out: "patching file v (renamed from r)\n", tree: map[string]string{"v": "1\n"}},
		{name: "rename missing", stdin: rename, args: []string{"patch", "-p1"}, status: 1,
			out: "Cannot rename file without two valid file names\n", tree: map[string]string{}},
		{name: "copy", files: map[string]string{"v": "1\n"}, stdin: "diff --git a/v b/w\ncopy from v\ncopy to w\n", args: []string{"patch", "-p1"},
			out: "patching file w (copied from v)\n", tree: map[string]string{"v": "1\n", "w": "1\n"}},
		{name: "rename with a hunk", files: map[string]string{"d/a": "x\ny\n"},
			stdin: "diff --git a/d/a b/e/b\nrename from d/a\nrename to e/b\n--- a/d/a\n+++ b/e/b\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n",
			args:  []string{"patch", "-p1"}, out: "patching file e/b (renamed from d/a)\n", tree: map[string]string{"e/b": "x\nz\n"}},
		{name: "empty files", files: map[string]string{"gone": ""},
			stdin: "diff --git a/p/e b/p/e\nnew file mode 100644\nindex 0000000..e69de29\n" +
				"diff --git a/gone b/gone\ndeleted file mode 100644\nindex e69de29..0000000\n",
			args: []string{"patch", "-p1"}, out: "patching file p/e\npatching file gone\n", tree: map[string]string{"p/e": ""}},
	})
	// Modes: a new mode alone, and a new file's mode with its hunk.
	r, dir := duRun(t, duCase{files: map[string]string{"s.sh": "echo\n"}, args: []string{"patch", "-p1"},
		stdin: "diff --git a/s.sh b/s.sh\nold mode 100644\nnew mode 100755\n" +
			"diff --git a/bin/run b/bin/run\nnew file mode 100755\nindex 0000000..1111111\n--- /dev/null\n+++ b/bin/run\n@@ -0,0 +1 @@\n+echo run\n"})
	if r.stdout != "patching file s.sh\npatching file bin/run\n" || r.stderr != "" || r.status != 0 {
		t.Errorf("got %q %q %d", r.stdout, r.stderr, r.status)
	}
	for _, n := range []string{"s.sh", "bin/run"} {
		if fi, err := os.Stat(filepath.Join(dir, n)); err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: %v, %v; want mode 0755", n, fi, err)
		}
	}
}

// -o - writes the patched file on stdout and says the rest on stderr,
// even under --dry-run (GNU patch 2.7.6).
func TestPatchOutputStdout(t *testing.T) {
	diff := "--- a/v\n+++ b/v\n@@ -1 +1 @@\n-1\n+2\n"
	duRunAll(t, []duCase{
		{name: "-o -", files: map[string]string{"v": "1\n"}, stdin: diff, args: []string{"patch", "-p1", "-o", "-"},
			out: "2\n", err: "patching file - (read from v)\n", tree: map[string]string{"v": "1\n"}},
		{name: "-o - --dry-run", files: map[string]string{"v": "1\n"}, stdin: diff, args: []string{"patch", "-p1", "-o", "-", "--dry-run"},
			out: "2\n", err: "checking file - (read from v)\n", tree: map[string]string{"v": "1\n"}},
	})
}

// Headers as agents write them: none at all when the file is named on
// the command line, one line of the two, a C-quoted name (and its
// quoted message), a time stamp after a space. Outputs from GNU patch.
func TestPatchLooseHeaders(t *testing.T) {
	hunk := "@@ -1 +1 @@\n-1\n+2\n"
	duRunAll(t, []duCase{
		{name: "hunks only, file named", files: map[string]string{"v": "1\n"}, stdin: "text\n" + hunk, args: []string{"patch", "v"},
			out: "patching file v\n", tree: map[string]string{"v": "2\n"}},
		{name: "hunks only", files: map[string]string{"v": "1\n"}, stdin: hunk, args: []string{"patch"}, status: 2,
			err: "patch: **** Only garbage was found in the patch input.\n", tree: map[string]string{"v": "1\n"}},
		{name: "+++ alone", files: map[string]string{"v": "1\n"}, stdin: "+++ v\n" + hunk, args: []string{"patch"},
			out: "patching file v\n", tree: map[string]string{"v": "2\n"}},
		{name: "--- alone", files: map[string]string{"v": "1\n"}, stdin: "--- v\n" + hunk, args: []string{"patch"},
			out: "patching file v\n", tree: map[string]string{"v": "2\n"}},
		{name: "quoted", files: map[string]string{"my file": "1\n"}, stdin: "--- \"a/my file\"\n+++ \"b/my file\"\n" + hunk,
			args: []string{"patch", "-p1"}, out: "patching file 'my file'\n", tree: map[string]string{"my file": "2\n"}},
		{name: "space then time", files: map[string]string{"v": "1\n"}, stdin: "--- a/v 2024-01-01\n+++ b/v 2024-01-02\n" + hunk,
			args: []string{"patch", "-p1"}, out: "patching file v\n", tree: map[string]string{"v": "2\n"}},
	})
}

// A hunk that fails where the file and the patch end their lines
// differently says so, as GNU patch's check_line_endings.
func TestPatchDifferentLineEndings(t *testing.T) {
	duRunAll(t, []duCase{
		{name: "crlf file", files: map[string]string{"f": "a\r\nb\r\n"}, stdin: "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
			args: []string{"patch"}, status: 1,
			out: "patching file f\nHunk #1 FAILED at 1 (different line endings).\n1 out of 1 hunk FAILED -- saving rejects to file f.rej\n"},
		{name: "crlf patch", files: map[string]string{"f": "a\nb\n"}, stdin: "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n",
			args: []string{"patch"}, status: 1,
			out: "patching file f\nHunk #1 FAILED at 1 (different line endings).\n1 out of 1 hunk FAILED -- saving rejects to file f.rej\n"},
		{name: "same endings", files: map[string]string{"f": "a\nb\n"}, stdin: "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-x\n+c\n",
			args: []string{"patch"}, status: 1,
			out: "patching file f\nHunk #1 FAILED at 1.\n1 out of 1 hunk FAILED -- saving rejects to file f.rej\n"},
	})
}

// The text before a "diff --git" line (a mail's headers) stays part of
// what "can't find file" shows, as GNU patch shows it.
func TestPatchGitLeadingText(t *testing.T) {
	in := "Subject: [PATCH] x\n\ndiff --git a/n b/n\nindex 1..2 100644\n--- a/n\n+++ b/n\n@@ -1 +1 @@\n-a\n+b\n"
	r, _ := duRun(t, duCase{stdin: in, args: []string{"patch", "-p1"}})
	want := "can't find file to patch at input line 7\nPerhaps you used the wrong -p or --strip option?\n" +
		"The text leading up to this was:\n--------------------------\n|Subject: [PATCH] x\n|\n|diff --git a/n b/n\n" +
		"|index 1..2 100644\n|--- a/n\n|+++ b/n\n--------------------------\n" +
		"File to patch: \nSkip this patch? [y] \nSkipping patch.\n1 out of 1 hunk ignored\n"
	if r.stdout != want || r.stderr != "" || r.status != 1 {
		t.Errorf("got %q %q %d", r.stdout, r.stderr, r.status)
	}
}
