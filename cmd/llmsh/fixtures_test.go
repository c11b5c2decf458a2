package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fileWriter returns a function that writes data to the file name under
// dir, making its directories.
func fileWriter(t *testing.T, dir string) func(name, data string) {
	return func(name, data string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTestSubcommand drives `llmsh test` as a fixture author does: the
// output format, NAME.stdin, NAME.files copied to a temp working directory
// (the original untouched), the goldens that exist compared, --update,
// and the statuses (1 when a fixture fails, 2 for usage errors).
func TestTestSubcommand(t *testing.T) {
	dir := t.TempDir()
	write := fileWriter(t, dir)
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write("a.sh", "read -r l; echo \"got $l\"; cat data.txt; echo new > made.txt; ls; case $PWD in \""+dir+"\"*) echo in-repo;; esac; echo oops >&2; exit 3\n")
	write("a.stdin", "in put\n")
	write("a.files/data.txt", "data\n")
	write("a.stdout", "got in put\ndata\ndata.txt\nmade.txt\n")
	write("a.status", "3\n")
	write("b.sh", "echo b\n")
	write("b.stdout", "wrong\n")
	write("b.stderr", "")
	write("c.sh", "nosuch\n")

	run1 := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := run(append([]string{"test"}, args...), strings.NewReader(""), &out, &errb)
		return out.String(), errb.String(), code
	}
	out, errs, code := run1(dir)
	missing := func(name, ext string) string {
		return "  " + dir + "/" + name + ext + ": No such file or directory (llmsh test --update " + dir + "/" + name + ".sh records it)\n"
	}
	want := "ok   " + dir + "/a\n" +
		"FAIL " + dir + "/b\n--- " + dir + "/b.stdout\n+++ " + dir + "/b.stdout (llmsh)\n@@ -1 +1 @@\n-wrong\n+b\n" + missing("b", ".status") +
		"FAIL " + dir + "/c\n" + missing("c", ".stdout") + missing("c", ".status") +
		"1 passed, 2 failed\n"
	if out != want || errs != "" || code != 1 {
		t.Fatalf("llmsh test DIR: status %d\nstdout %q\nwant   %q\nstderr %q", code, out, want, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.files", "made.txt")); err == nil {
		t.Fatal("the fixture wrote into NAME.files itself")
	}

	out, _, code = run1("--update", dir)
	if code != 0 || out != "updated "+dir+"/a\nupdated "+dir+"/b\nupdated "+dir+"/c\n3 passed, 0 failed\n" {
		t.Fatalf("--update: status %d, %q", code, out)
	}
	for name, want := range map[string]string{
		"a.stdout": "got in put\ndata\ndata.txt\nmade.txt\n", "a.status": "3\n",
		"b.stdout": "b\n", "b.stderr": "", "b.status": "0\n",
		"c.stdout": "", "c.status": "127\n",
	} {
		if got := read(name); got != want {
			t.Errorf("after --update %s = %q, want %q", name, got, want)
		}
	}
	for _, name := range []string{"a.stderr", "c.stderr"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("--update created %s", name)
		}
	}
	out, _, code = run1(filepath.Join(dir, "b.sh"), filepath.Join(dir, "a.sh"))
	if code != 0 || out != "ok   "+dir+"/a\nok   "+dir+"/b\n2 passed, 0 failed\n" {
		t.Fatalf("llmsh test FILE FILE: status %d, %q", code, out)
	}
	// A stderr golden that exists is compared.
	write("c.stderr", "")
	out, _, code = run1(filepath.Join(dir, "c.sh"))
	if code != 1 || !strings.Contains(out, "+++ "+dir+"/c.stderr (llmsh)\n@@ -0,0 +1 @@\n+c.sh: line 1: nosuch: command not found\n") {
		t.Fatalf("stderr golden: status %d, %q", code, out)
	}

	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{nil, "llmsh: test: no fixture PATH given\n"},
		{[]string{"--bogus", dir}, "llmsh: test: unrecognized option '--bogus'\n"},
		{[]string{filepath.Join(dir, "a.stdout")}, "not a NAME.sh fixture"},
		{[]string{filepath.Join(dir, "absent")}, "absent"},
		{[]string{filepath.Join(dir, "a.files")}, "a.files: no NAME.sh fixture in this directory\n"},
	} {
		out, errs, code := run1(tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.msg) {
			t.Errorf("llmsh test %q: status %d, stdout %q, stderr %q", tc.args, code, out, errs)
		}
	}
	if _, errs, _ := run1("--bogus"); errs != "llmsh: test: unrecognized option '--bogus'\nTry 'llmsh test --help' for more information.\n" {
		t.Errorf("usage line: %q", errs)
	}
	if out, _, code := run1("--help"); code != 0 || !strings.HasPrefix(out, "Usage: llmsh test [--update] PATH...") {
		t.Errorf("--help: %d %q", code, out)
	}
	// A golden that cannot be written is a failure, not "updated".
	os.Remove(filepath.Join(dir, "b.stdout"))
	if err := os.Mkdir(filepath.Join(dir, "b.stdout"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, code = run1("--update", filepath.Join(dir, "b.sh"))
	if code != 1 || !strings.HasPrefix(out, "FAIL "+dir+"/b: ") || !strings.HasSuffix(out, "0 passed, 1 failed\n") {
		t.Fatalf("--update of an unwritable golden: status %d, %q", code, out)
	}
}

// TestTestSharedTree checks the "#@ files: TREE" line of a fixture: it
// runs in a fresh copy of TREE.files (the tree untouched, the copy not
// seen by the next fixture), and a fixture with its own NAME.files too,
// a missing tree, a tree that is a path, or two such lines fail with a
// message instead of running in the wrong directory.
func TestTestSharedTree(t *testing.T) {
	dir := t.TempDir()
	write := fileWriter(t, dir)
	write("proj.files/src/a.txt", "alpha\n")
	for _, n := range []string{"s1", "s2"} {
		// Each sees the tree as it is committed, not as the other left it.
		write(n+".sh", "#!/bin/bash\n#@ files: proj\nls -R; cat src/a.txt; echo "+n+" >> src/a.txt\n")
		write(n+".stdout", ".:\nsrc\n\n./src:\na.txt\nalpha\n")
		write(n+".status", "0\n")
	}
	var out, errb bytes.Buffer
	if code := run([]string{"test", dir}, strings.NewReader(""), &out, &errb); code != 0 || !strings.HasSuffix(out.String(), "2 passed, 0 failed\n") {
		t.Fatalf("shared tree: status %d\n%s%s", code, out.String(), errb.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "proj.files/src/a.txt")); string(b) != "alpha\n" {
		t.Fatalf("a fixture wrote into the shared tree: %q", b)
	}
	for _, tc := range []struct{ script, own, msg string }{
		{"#@ files: proj\n", "x.txt", `both bad.files and "#@ files: proj"`},
		{"#@ files: nope\n", "", `"#@ files: nope": no directory ` + filepath.Join(dir, "nope.files")},
		{"#@ files: ../proj\n", "", `"#@ files: ../proj": TREE must be a plain name`},
		{"#@ files: proj\n#@ files: proj\n", "", `more than one "#@ files:" line`},
	} {
		os.RemoveAll(filepath.Join(dir, "bad.files"))
		if tc.own != "" {
			write("bad.files/"+tc.own, "")
		}
		write("bad.sh", tc.script+"echo ran\n")
		write("bad.stdout", "ran\n")
		write("bad.status", "0\n")
		out.Reset()
		code := run([]string{"test", filepath.Join(dir, "bad.sh")}, strings.NewReader(""), &out, &errb)
		if want := "FAIL " + filepath.Join(dir, "bad") + ": " + tc.msg + "\n0 passed, 1 failed\n"; code != 1 || out.String() != want {
			t.Errorf("%q: status %d, %q, want %q", tc.script, code, out.String(), want)
		}
	}
}

// TestParseFixtureReport: TestFixtures reads `llmsh test`'s report per
// fixture (the differences under a FAIL line are that fixture's), and a
// report it cannot read is an error, not a pass.
func TestParseFixtureReport(t *testing.T) {
	report := "ok   d/a\nFAIL d/b\n--- d/b.stdout\n+++ d/b.stdout (llmsh)\n@@ -1 +1 @@\n-x\n+y\n" +
		"FAIL d/c: open d/c.sh: permission denied\nok   d/e\n2 passed, 2 failed\n"
	got, err := parseFixtureReport(report)
	want := map[string]string{"d/a": "", "d/e": "", "d/b": "--- d/b.stdout\n+++ d/b.stdout (llmsh)\n@@ -1 +1 @@\n-x\n+y\n",
		"d/c": "open d/c.sh: permission denied\n"}
	if err != nil || len(got) != len(want) {
		t.Fatalf("got %q, %v", got, err)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	for _, bad := range []string{"", "ok   d/a\n", "ok   d/a\n1 passed, 0 failed", "stray\nok   d/a\n1 passed, 0 failed\n",
		"FAIL d/b\n0 passed, 1 failed\n"} {
		if got, err := parseFixtureReport(bad); err == nil {
			t.Errorf("%q: %q, want an error", bad, got)
		}
	}
}

// TestTestHostileLinks: a fixture's files are its own (session 23, red
// team). An agent confined to a writable grant may plant links there that
// point anywhere (their text is data, T-LINK-3); when an operator later
// runs `llmsh test` on that tree, the runner, which is the operator's own
// process, followed them: NAME.stdin, a golden or the script itself read
// a host file into the run or its diff, NAME.files copied a host tree into
// the fixture's grant, and --update wrote the fixture's output through a
// golden that is a link (a file of the operator's chosen by the agent,
// its content the script's). Each is now refused, and nothing outside
// changes.
func TestTestHostileLinks(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	write := fileWriter(t, dir)
	secret := filepath.Join(outside, "secret")
	victim := filepath.Join(outside, "victim")
	os.WriteFile(secret, []byte("SECRET-MARKER\n"), 0o644)
	os.WriteFile(victim, []byte("victim\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "x"), []byte("OUTSIDE-TREE\n"), 0o644)
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"stdin", "files", "golden", "script", "update"} {
		write(n+".stdout", "\n")
		write(n+".status", "0\n")
	}
	write("stdin.sh", "cat\n")
	link(secret, "stdin.stdin")
	write("files.sh", "cat x\n")
	link(outside, "files.files")
	write("golden.sh", "echo\n")
	link(secret, "golden.stderr")
	link(secret, "script.sh")
	write("update.sh", "echo PWNED\n")
	os.Remove(filepath.Join(dir, "update.stdout"))
	link(victim, "update.stdout")

	var out, errb bytes.Buffer
	code := run([]string{"test", dir}, strings.NewReader(""), &out, &errb)
	const notReg = ": not a regular file (llmsh test reads a fixture's own files: no link, FIFO or device)"
	for _, want := range []string{
		"FAIL " + dir + "/stdin: " + dir + "/stdin.stdin" + notReg + "\n",
		"FAIL " + dir + "/files: " + dir + "/files.files: not a directory within the fixture's (llmsh test copies no tree through a link out)\n",
		"FAIL " + dir + "/golden\n  " + dir + "/golden.stderr" + notReg + "\n",
		"FAIL " + dir + "/script: " + dir + "/script.sh" + notReg + "\n",
		"FAIL " + dir + "/update\n  " + dir + "/update.stdout" + notReg + "\n",
		"0 passed, 5 failed\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	if code != 1 || strings.Contains(out.String(), "MARKER") || strings.Contains(out.String(), "OUTSIDE-TREE") {
		t.Errorf("status %d, a host file in the report:\n%s", code, out.String())
	}
	out.Reset()
	code = run([]string{"test", "--update", filepath.Join(dir, "update.sh")}, strings.NewReader(""), &out, &errb)
	if want := "FAIL " + dir + "/update: " + dir + "/update.stdout" + notReg + "\n0 passed, 1 failed\n"; code != 1 || out.String() != want {
		t.Errorf("--update through a link: status %d, %q, want %q", code, out.String(), want)
	}
	if b, _ := os.ReadFile(victim); string(b) != "victim\n" {
		t.Errorf("--update wrote %q through a link to a host file", b)
	}
}

// TestTestOutputCap: a fixture's output is capped (session 23, red team:
// `yes` in a hostile fixture grew the runner's memory for the fixture's
// 60 s, 1.26 GB before the heap guard stopped it): the run stops with the
// output limit's status 125 and message, and the runner goes on.
func TestTestOutputCap(t *testing.T) {
	dir := t.TempDir()
	write := fileWriter(t, dir)
	write("y.sh", "yes\n")
	var out, errb bytes.Buffer
	if code := run([]string{"test", "--update", filepath.Join(dir, "y.sh")}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("status %d: %s%s", code, out.String(), errb.String())
	}
	st, _ := os.ReadFile(filepath.Join(dir, "y.status"))
	fi, err := os.Stat(filepath.Join(dir, "y.stdout"))
	if err != nil || string(st) != "125\n" || fi.Size() > fixtureMaxOutput {
		t.Fatalf("status %q, stdout %v, %v", st, fi.Size(), err)
	}
}
