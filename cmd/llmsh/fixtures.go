package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/internal/replacefile"
)

// testSummary is what `llmsh test --help` says under its usage line.
const testSummary = `Run each NAME.sh fixture (PATH is a NAME.sh or a directory of them) with
its own vfsd, in a fresh temp copy of NAME.files/ (if any) that is the
working directory and is granted read-write (a line "#@ files: TREE" in
NAME.sh copies TREE.files/ beside it instead, a tree that several
fixtures share), with stdin from NAME.stdin
(if any), and compare its output with the goldens NAME.stdout,
NAME.stderr and NAME.status (NAME.stdout and NAME.status must exist;
NAME.stderr is compared when it exists). A fixture runs for 60 s and
keeps 16 MiB of output at most; its script, stdin and goldens are never
read or written through a link, nor its tree copied from outside its
directory. One line per fixture, a unified diff under each that failed,
then "N passed, N failed"; exit status 1 when a fixture failed.`

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
	colorFlag(f, &color, "colour the differences as GNU diff --color:\nauto (default: when stdout is a terminal,\nNO_COLOR is not set and TERM is not dumb),\nalways, never")
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
	if err := writeGolden(name+".stdout", r.stdout); err != nil {
		return err
	}
	if err := writeGolden(name+".status", []byte(strconv.Itoa(r.status)+"\n")); err != nil {
		return err
	}
	if _, err := os.Lstat(name + ".stderr"); err == nil {
		return writeGolden(name+".stderr", r.stderr)
	}
	return nil
}

// errFixtureFile is the refusal of a fixture's file that is not a
// regular file of its own: a fixture's tree may have been written by a
// confined agent, which may plant links there that point anywhere
// (T-LINK-3), and `llmsh test` runs as the operator (session 23, red
// team: --update wrote a fixture's output through NAME.stdout, a link to
// a file of the operator's; NAME.stdin read a host file into the run).
var errFixtureFile = errors.New("not a regular file (llmsh test reads a fixture's own files: no link, FIFO or device)")

// readFixtureFile reads a fixture's script, stdin or golden: a regular
// file, not through a link (a FIFO would not block: O_NONBLOCK). The
// error of a file that is not one says path.
func readFixtureFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s: %w", path, errFixtureFile)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, errFixtureFile)
	}
	return io.ReadAll(f)
}

// writeGolden replaces the golden path with data: a regular file that
// is there, or none, is replaced by a new file renamed over its name, so
// that nothing is written through a link (or into another name of the
// file, a hard link); anything else there is errFixtureFile.
func writeGolden(path string, data []byte) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w", path, errFixtureFile)
	}
	return replacefile.Write(path, 0o644, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// compare says how the run differs from the goldens of fixture name: a
// unified diff (the golden as ---, llmsh's output as +++) for each that
// differs, and a golden .stdout or .status that is missing is a failure
// too (.stderr is optional: bash's own messages are not llmsh's).
func (r *fixtureResult) compare(name string, color bool) string {
	var b strings.Builder
	check := func(ext string, got []byte, required bool) {
		want, err := readFixtureFile(name + ext)
		if errors.Is(err, errFixtureFile) {
			fmt.Fprintf(&b, "  %v\n", err)
			return
		}
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
	src, err := readFixtureFile(script)
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
		if err := copyTree(dir, tree); err != nil {
			return nil, err
		}
	}
	dir, _ = filepath.EvalSymlinks(dir)
	stdin, err := readFixtureFile(name + ".stdin")
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	base := filepath.Base(script)
	sess, err := llmsh.New(llmsh.Options{Outputs: []string{dir}, Dir: dir, Name: base, Source: base, Timeout: 60 * time.Second,
		MaxOutput: fixtureMaxOutput, VfsdPath: vfsdPath})
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

// fixtureMaxOutput caps a fixture's stdout and stderr together (the
// largest golden is 38 KB): the runner keeps them in memory, and `yes` in
// a hostile fixture grew them for its 60 s (session 23, red team).
const fixtureMaxOutput = 16 << 20

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

// errFixtureTree is the refusal of a fixture's tree that is not within
// the fixture's directory (errFixtureFile says why: a NAME.files that
// linked out copied a host tree into the fixture's grant). A link to a
// tree beside it, which several fixtures share, is one.
var errFixtureTree = errors.New("not a directory within the fixture's (llmsh test copies no tree through a link out)")

// copyTree copies the fixture tree to dst, opened through an os.Root of
// the fixture's directory (a link that leads out of it is refused), its
// entries through an os.Root of it (links within are copied as links,
// which vfsd follows only within the grant).
func copyTree(dst, tree string) error {
	dir, err := os.OpenRoot(filepath.Dir(tree))
	if err != nil {
		return err
	}
	defer dir.Close()
	root, err := dir.OpenRoot(filepath.Base(tree))
	if err != nil {
		return fmt.Errorf("%s: %w", tree, errFixtureTree)
	}
	defer root.Close()
	return os.CopyFS(dst, root.FS())
}

// fixtureScripts lists the NAME.sh fixtures of dir: every .sh file but
// regen-*.sh, the scripts that make goldens (testdata/fixtures/regen-bash.sh).
func fixtureScripts(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "*.sh"))
	return slices.DeleteFunc(m, func(p string) bool { return strings.HasPrefix(filepath.Base(p), "regen-") })
}
