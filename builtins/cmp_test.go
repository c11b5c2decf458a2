package builtins_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// duCase is one call of a diffutils-style builtin (cmp, diff, patch) in a
// directory holding files (names may contain '/': parent directories are
// created), with stdin and the script's exported variables.
type duCase struct {
	name    string
	files   map[string]string
	stdin   string
	environ []string
	args    []string
	out     string
	err     string
	status  int
	tree    map[string]string // if not nil: every file (and empty directory, "d/") afterwards
}

// duMtime is the modification time of the files duRun creates.
var duMtime = time.Date(2026, 11, 23, 10, 0, 0, 123456789, time.UTC)

// duRun runs c and returns its result and the directory it ran in.
func duRun(t *testing.T, c duCase) (result, string) {
	t.Helper()
	dir := t.TempDir()
	return duRunIn(t, dir, c), dir
}

// duRunIn is duRun in an existing directory.
func duRunIn(t *testing.T, dir string, c duCase) result {
	t.Helper()
	duWriteFiles(t, dir, c.files)
	return duExec(t, dir, c)
}

// duWriteFiles creates files in dir (writeHostFiles), with duMtime.
func duWriteFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	writeHostFiles(t, dir, files)
	for name := range files {
		if strings.HasSuffix(name, "/") {
			continue
		}
		// A fixed modification time, for diff's -u and -c headers.
		p := filepath.Join(dir, name)
		if err := os.Chtimes(p, duMtime, duMtime); err != nil {
			t.Fatal(err)
		}
	}
}

// duExec runs c in dir, whose files are made.
func duExec(t *testing.T, dir string, c duCase) result {
	t.Helper()
	return duExecFS(t, testFS(t, dir), dir, c)
}

// duReaders runs cases that only read their files in one directory and
// one vfsd session, each case's files in a subdirectory of their own:
// hundreds of random cases each made a temp dir and started a session.
// (The session grants the whole directory: for commands that write, a
// case's session of its own keeps its writes to its files.)
type duReaders struct {
	dir  string
	fsys FS
	n    int
}

func newDuReaders(t *testing.T) *duReaders {
	t.Helper()
	dir := t.TempDir()
	return &duReaders{dir: dir, fsys: testFS(t, dir)}
}

// run runs c in the next subdirectory (a case of a subtest run one at a
// time).
func (d *duReaders) run(t *testing.T, c duCase) result {
	t.Helper()
	d.n++
	dir := filepath.Join(d.dir, strconv.Itoa(d.n))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	duWriteFiles(t, dir, c.files)
	return duExecFS(t, d.fsys, dir, c)
}

// duExecFS is duExec with the vfsd session fsys.
func duExecFS(t *testing.T, fsys FS, dir string, c duCase) result {
	t.Helper()
	b, ok := Lookup(c.args[0])
	if !ok {
		t.Fatalf("no builtin %q", c.args[0])
	}
	var out, errb strings.Builder
	env := &Env{Ctx: context.Background(), Args: c.args, Stdin: strings.NewReader(c.stdin),
		Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir, Environ: c.environ}
	st := Run(b, env)
	return result{out.String(), errb.String(), st}
}

// duSnapshot reads every file under dir (empty directories as "d/").
func duSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if ents, _ := os.ReadDir(p); len(ents) == 0 {
				tree[rel+"/"] = ""
			}
			return nil
		}
		data, err := os.ReadFile(p)
		tree[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// duRunAll runs each case as a subtest and checks its result (and tree).
// diff and cmp only read their files: the cases of either that give
// the same files map and check no tree afterwards run in one directory
// of those files, made once (TestDiffGNU made its 30 files for each of
// its 128 cases: with TestCmp 1.1-1.5 s of CPU, now 0.3-0.5 s). A run
// that changed a file there would fail the cases after it.
func duRunAll(t *testing.T, cases []duCase) {
	t.Helper()
	shared := map[uintptr]string{}
	for _, c := range cases {
		if key := duShareKey(c); key != 0 && shared[key] == "" {
			shared[key] = t.TempDir()
			duWriteFiles(t, shared[key], c.files)
		}
	}
	for _, c := range cases {
		name := c.name
		if name == "" {
			name = strings.Join(c.args, " ")
		}
		t.Run(name, func(t *testing.T) {
			var r result
			dir := shared[duShareKey(c)]
			if dir != "" {
				r = duExec(t, dir, c)
			} else {
				r, dir = duRun(t, c)
			}
			if r.stdout != c.out || r.stderr != c.err || r.status != c.status {
				t.Errorf("%q:\n got out %q err %q status %d\nwant out %q err %q status %d",
					c.args, r.stdout, r.stderr, r.status, c.out, c.err, c.status)
			}
			if c.tree != nil {
				got := duSnapshot(t, dir)
				for name, want := range c.tree {
					if g, ok := got[name]; !ok {
						t.Errorf("%s: missing afterwards", name)
					} else if g != want {
						t.Errorf("%s holds %q, want %q", name, g, want)
					}
				}
				for name := range got {
					if _, ok := c.tree[name]; !ok {
						t.Errorf("%s: unexpected afterwards", name)
					}
				}
			}
		})
	}
}

// duShareKey is the files map of a case that may run in a directory
// shared with others (see duRunAll), or 0.
func duShareKey(c duCase) uintptr {
	if c.tree != nil || len(c.files) == 0 || c.args[0] != "diff" && c.args[0] != "cmp" {
		return 0
	}
	return reflect.ValueOf(c.files).Pointer()
}

// Expected values checked against GNU cmp (diffutils 3.8), LC_ALL=C unless
// the case sets LANG.
func TestCmp(t *testing.T) {
	t.Parallel()
	fs := map[string]string{
		"f1": "ab\ncd\n", "f2": "ab\n", "f3": "ab\ncx\n", "e": "",
		"g1": "x\201y\n\001", "g2": "x\377y\n\177", "b": "ab", "a": "abc\n",
		"x y": "a b", "d/": "",
	}
	tryHelp := "cmp: Try 'cmp --help' for more information.\n"
	duRunAll(t, []duCase{
		{files: fs, args: []string{"cmp", "f1", "f1"}},
		{files: fs, args: []string{"cmp", "f1", "f3"}, out: "f1 f3 differ: char 5, line 2\n", status: 1},
		{name: "utf8 locale", files: fs, environ: []string{"LC_ALL=C.UTF-8"}, args: []string{"cmp", "f1", "f3"}, out: "f1 f3 differ: byte 5, line 2\n", status: 1},
		// llmsh's own LANG=C.UTF-8 stands for the references' LC_ALL=C.
		{name: "LANG alone", files: fs, environ: []string{"LANG=C.UTF-8", "LC_MESSAGES=C.UTF-8"}, args: []string{"cmp", "f1", "f3"}, out: "f1 f3 differ: char 5, line 2\n", status: 1},
		{name: "LC_ALL wins", files: fs, environ: []string{"LANG=C.UTF-8", "LC_ALL=POSIX"}, args: []string{"cmp", "f1", "f3"}, out: "f1 f3 differ: char 5, line 2\n", status: 1},
		{files: fs, args: []string{"cmp", "-b", "f1", "f3"}, out: "f1 f3 differ: byte 5, line 2 is 144 d 170 x\n", status: 1},
		{files: fs, args: []string{"cmp", "f1", "f2"}, err: "cmp: EOF on f2 after byte 3, line 1\n", status: 1},
		{files: fs, args: []string{"cmp", "a", "b"}, err: "cmp: EOF on b after byte 2, in line 1\n", status: 1},
		{files: fs, args: []string{"cmp", "-l", "f1", "f2"}, err: "cmp: EOF on f2 after byte 3\n", status: 1},
		{files: fs, args: []string{"cmp", "e", "f1"}, err: "cmp: EOF on e which is empty\n", status: 1},
		{files: fs, args: []string{"cmp", "-l", "e", "f1"}, err: "cmp: EOF on e which is empty\n", status: 1},
		{files: fs, args: []string{"cmp", "e", "e"}},
		{files: fs, args: []string{"cmp", "-s", "f1", "f2"}, status: 1},
		{files: fs, args: []string{"cmp", "--quiet", "f1", "f3"}, status: 1},
		{files: fs, args: []string{"cmp", "--silent", "f1", "f1"}},
		{files: fs, args: []string{"cmp", "-n", "4", "f1", "f3"}},
		{files: fs, args: []string{"cmp", "-n5", "f1", "f3"}, out: "f1 f3 differ: char 5, line 2\n", status: 1},
		{files: fs, args: []string{"cmp", "-i", "1", "f1", "f3"}, out: "f1 f3 differ: char 4, line 2\n", status: 1},
		{files: fs, args: []string{"cmp", "-i", "1:2", "f1", "f3"}, out: "f1 f3 differ: char 1, line 1\n", status: 1},
		{files: fs, args: []string{"cmp", "-i", "0x2", "f1", "f3"}, out: "f1 f3 differ: char 3, line 2\n", status: 1},
		{files: fs, args: []string{"cmp", "-i", "1kB", "f1", "f2"}},
		{files: fs, args: []string{"cmp", "-i", "1K", "f1", "f2"}},
		{files: fs, args: []string{"cmp", "f1", "f3", "1", "1"}, out: "f1 f3 differ: char 4, line 2\n", status: 1},
		{files: fs, args: []string{"cmp", "-l", "g1", "g2"}, out: "2 201 377\n5   1 177\n", status: 1},
		{files: fs, args: []string{"cmp", "-lb", "g1", "g2"}, out: "2 201 M-^A 377 M-^?\n5   1 ^A   177 ^?\n", status: 1},
		{files: fs, args: []string{"cmp", "-b", "g1", "g2"}, out: "g1 g2 differ: byte 2, line 1 is 201 M-^A 377 M-^?\n", status: 1},
		{files: fs, args: []string{"cmp", "f1", "x y"}, out: "f1 x y differ: char 2, line 1\n", status: 1},
		{files: fs, stdin: "ab\ncd\n", args: []string{"cmp", "f2", "-"}, err: "cmp: EOF on f2 after byte 3, line 1\n", status: 1},
		{files: fs, stdin: "ab\ncd\n", args: []string{"cmp", "-l", "-", "f3"}, out: "5 144 170\n", status: 1},
		{files: fs, args: []string{"cmp", "f1"}, err: "cmp: EOF on - which is empty\n", status: 1},
		{files: fs, args: []string{"cmp", "-", "-"}},
		{files: fs, args: []string{"cmp", "f1", "nosuch"}, err: "cmp: nosuch: No such file or directory\n", status: 2},
		{files: fs, args: []string{"cmp", "-s", "nosuch", "f1"}, err: "cmp: nosuch: No such file or directory\n", status: 2},
		{files: fs, args: []string{"cmp", "d", "f1"}, err: "cmp: d: Is a directory\n", status: 2},
		{files: fs, args: []string{"cmp"}, err: "cmp: missing operand after 'cmp'\n" + tryHelp, status: 2},
		{files: fs, args: []string{"cmp", "--foo"}, err: "cmp: unrecognized option '--foo'\n" + tryHelp, status: 2},
		{files: fs, args: []string{"cmp", "-l", "-s", "f1", "f2"}, err: "cmp: options -l and -s are incompatible\n" + tryHelp, status: 2},
		{files: fs, args: []string{"cmp", "a", "b", "c", "d", "e"}, err: "cmp: invalid --ignore-initial value 'c'\n" + tryHelp, status: 2},
		{files: fs, args: []string{"cmp", "f1", "f2", "0", "0", "9"}, err: "cmp: extra operand '9'\n" + tryHelp, status: 2},
		{files: fs, args: []string{"cmp", "-i", "x", "f1", "f2"}, err: "cmp: invalid --ignore-initial value 'x'\n" + tryHelp, status: 2},
		{files: fs, args: []string{"cmp", "-n", "-1", "f1", "f2"}, err: "cmp: invalid --bytes value '-1'\n" + tryHelp, status: 2},
	})
}

func TestCmpHelp(t *testing.T) {
	t.Parallel()
	r := runCmd(t, nil, "", "cmp", "--help")
	if r.status != 0 || !strings.HasPrefix(r.stdout, "Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]\n") {
		t.Errorf("got %q %d", r.stdout, r.status)
	}
}
