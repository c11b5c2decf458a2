package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/builtins"
)

// testHelp is the help of `llmsh test`.
// testSummary is what `llmsh test --help` says under its usage line.
const testSummary = `Run each NAME.sh fixture (PATH is a NAME.sh or a directory of them) with
its own vfsd, in a fresh temp copy of NAME.files/ (if any) that is the
working directory and is granted read-write (a line "#@ files: TREE" in
NAME.sh copies TREE.files/ beside it instead, a tree that several
fixtures share), with stdin from NAME.stdin
(if any), and compare its output with the goldens NAME.stdout,
NAME.stderr and NAME.status (NAME.stdout and NAME.status must exist;
NAME.stderr is compared when it exists). One line per fixture, a unified
diff under each that failed, then "N passed, N failed"; exit status 1
when a fixture failed.`

// testUsageErr reports a usage error of `llmsh test` in GNU's shape, as
// serve's and mcp's: status 2.
func testUsageErr(stderr io.Writer, format string, args ...any) int {
	return subUsageErr(stderr, "test", format, args...)
}

// runFixtures implements `llmsh test [--update] PATH...`.
func runFixtures(args []string, stdout, stderr io.Writer) int {
	update := false
	f := subFlags("llmsh test", stdout, testSummary, "[--update] PATH...")
	f.BoolVar(&update, 0, "update", "rewrite NAME.stdout and NAME.status, and\nNAME.stderr when it exists (create it empty to\nkeep one), with what llmsh printed")
	color := "auto"
	colorFlag(f, &color, "colour the differences as GNU diff --color:\nauto (default: when stdout is a terminal and\nNO_COLOR is not set), always, never")
	paths, st := parseSub(f, args, stdout, func(format string, a ...any) int { return testUsageErr(stderr, format, a...) })
	if st >= 0 {
		return st
	}
	if len(paths) == 0 {
		return testUsageErr(stderr, "no fixture PATH given")
	}
	var scripts []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(stderr, "llmsh: test: %s: %s\n", p, builtins.ErrText(err))
			return 2
		}
		if !info.IsDir() {
			if !strings.HasSuffix(p, ".sh") {
				return testUsageErr(stderr, "%s: not a NAME.sh fixture", p)
			}
			scripts = append(scripts, p)
			continue
		}
		found := fixtureScripts(p)
		if len(found) == 0 {
			// A directory without fixtures (a typo'd or wrong path) is an
			// error, not "0 passed, 0 failed" and status 0.
			return testUsageErr(stderr, "%s: no NAME.sh fixture in this directory", p)
		}
		scripts = append(scripts, found...)
	}
	sort.Strings(scripts)
	passed, failed := 0, 0
	for _, sc := range scripts {
		res, err := runFixture(sc, "")
		name := strings.TrimSuffix(sc, ".sh")
		if err != nil {
			fmt.Fprintf(stdout, "FAIL %s: %v\n", name, err)
			failed++
			continue
		}
		if update {
			if err := res.update(name); err != nil {
				fmt.Fprintf(stdout, "FAIL %s: %v\n", name, err)
				failed++
				continue
			}
			fmt.Fprintf(stdout, "updated %s\n", name)
			passed++
			continue
		}
		if diff := res.compare(name, colorWanted(color, stdout)); diff != "" {
			fmt.Fprintf(stdout, "FAIL %s\n%s", name, diff)
			failed++
		} else {
			fmt.Fprintf(stdout, "ok   %s\n", name)
			passed++
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

type fixtureResult struct {
	stdout, stderr []byte
	status         int
}

// update rewrites the goldens of fixture name: stdout and status, and
// stderr when it has a golden (bash's own messages are not llmsh's, so
// most fixtures keep none).
func (r *fixtureResult) update(name string) error {
	if err := os.WriteFile(name+".stdout", r.stdout, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(name+".status", []byte(strconv.Itoa(r.status)+"\n"), 0o644); err != nil {
		return err
	}
	if _, err := os.Stat(name + ".stderr"); err == nil {
		return os.WriteFile(name+".stderr", r.stderr, 0o644)
	}
	return nil
}

// compare says how the run differs from the goldens of fixture name: a
// unified diff (the golden as ---, llmsh's output as +++) for each that
// differs, and a golden .stdout or .status that is missing is a failure
// too (.stderr is optional: bash's own messages are not llmsh's).
func (r *fixtureResult) compare(name string, color bool) string {
	var b strings.Builder
	check := func(ext string, got []byte, required bool) {
		want, err := os.ReadFile(name + ext)
		if err != nil {
			if required {
				fmt.Fprintf(&b, "  %s%s: %s (llmsh test --update %s.sh records it)\n", name, ext, builtins.ErrText(err), name)
			}
			return
		}
		if !bytes.Equal(want, got) {
			diff := fmt.Sprintf("--- %s%s\n+++ %s%s (llmsh)\n", name, ext, name, ext)
			body := builtins.UnifiedDiff(want, got)
			if color {
				diff, body = sgrLines("1", diff), colorDiff(body)
			}
			b.WriteString(diff + body)
		}
	}
	check(".stdout", r.stdout, true)
	check(".stderr", r.stderr, false)
	check(".status", []byte(strconv.Itoa(r.status)+"\n"), true)
	return b.String()
}

// colorDiff colours a unified diff's hunks as GNU diff --color does: the
// line numbers cyan, a line of the golden red and one of llmsh's output
// green (a line's first byte says which: context lines start with a
// space).
func colorDiff(body string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(body, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			l = sgrLines("36", l)
		case strings.HasPrefix(l, "-"):
			l = sgrLines("31", l)
		case strings.HasPrefix(l, "+"):
			l = sgrLines("32", l)
		}
		b.WriteString(l)
	}
	return b.String()
}

// sgrLines puts each line of s in colour sgr, as GNU diff does: the
// escape before the text, the reset before the newline.
func sgrLines(sgr, s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if body, nl := strings.CutSuffix(l, "\n"); body != "" {
			lines[i] = "\x1b[" + sgr + "m" + body + "\x1b[0m"
			if nl {
				lines[i] += "\n"
			}
		}
	}
	return strings.Join(lines, "")
}

// runFixture runs one fixture in a fresh temp copy of NAME.files/, granted
// read-write, with its own vfsd session: the vfsd binary at vfsdPath, or
// this executable in server mode when it is "".
func runFixture(script, vfsdPath string) (*fixtureResult, error) {
	name := strings.TrimSuffix(script, ".sh")
	src, err := os.ReadFile(script)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "llmsh-fixture-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	tree, err := fixtureTree(name, src)
	if err != nil {
		return nil, err
	}
	if tree != "" {
		if err := os.CopyFS(dir, os.DirFS(tree)); err != nil {
			return nil, err
		}
	}
	dir, _ = filepath.EvalSymlinks(dir)
	stdin, err := os.ReadFile(name + ".stdin")
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	base := filepath.Base(script)
	sess, err := llmsh.New(llmsh.Options{Outputs: []string{dir}, Dir: dir, Name: base, Source: base, Timeout: 60 * time.Second,
		VfsdPath: vfsdPath})
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	var out, errb bytes.Buffer
	res, err := sess.RunWith(context.Background(), string(src), llmsh.RunOptions{
		Stdin: bytes.NewReader(stdin), Stdout: &out, Stderr: &errb, Script: true,
	})
	if err != nil {
		return nil, err
	}
	st := res.ExitCode
	return &fixtureResult{stdout: out.Bytes(), stderr: errb.Bytes(), status: st}, nil
}

// fixtureTree is the directory that fixture name (its script src) runs
// in a copy of: NAME.files, or TREE.files beside it when the script has a
// line "#@ files: TREE" (a tree that several fixtures share, so that each
// does not hold a copy of the same files); "" when there is none. A
// fixture that has both, names a missing tree, or names one twice, is an
// error rather than a run in the wrong directory.
func fixtureTree(name string, src []byte) (string, error) {
	own := ""
	if info, err := os.Stat(name + ".files"); err == nil && info.IsDir() {
		own = name + ".files"
	}
	shared := ""
	for line := range strings.Lines(string(src)) {
		arg, ok := strings.CutPrefix(strings.TrimRight(line, " \t\r\n"), "#@ files:")
		if !ok {
			continue
		}
		arg = strings.TrimSpace(arg)
		switch {
		case shared != "":
			return "", fmt.Errorf("more than one \"#@ files:\" line")
		case arg == "" || strings.ContainsAny(arg, "/\\ ") || strings.HasPrefix(arg, "."):
			return "", fmt.Errorf("\"#@ files: %s\": TREE must be a plain name", arg)
		case own != "":
			return "", fmt.Errorf("both %s and \"#@ files: %s\"", filepath.Base(own), arg)
		}
		shared = filepath.Join(filepath.Dir(name), arg+".files")
		if info, err := os.Stat(shared); err != nil || !info.IsDir() {
			return "", fmt.Errorf("\"#@ files: %s\": no directory %s", arg, shared)
		}
	}
	if shared != "" {
		return shared, nil
	}
	return own, nil
}

// fixtureScripts lists the NAME.sh fixtures of dir: every .sh file but
// regen-*.sh, the scripts that make goldens (testdata/fixtures/regen-bash.sh).
func fixtureScripts(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "*.sh"))
	return slices.DeleteFunc(m, func(p string) bool { return strings.HasPrefix(filepath.Base(p), "regen-") })
}
