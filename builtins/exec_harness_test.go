package builtins_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"reflect"
	"strings"
	"sync"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// syncBuffer is a bytes.Buffer safe for the concurrent writers of xargs -P.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// execCall records one command run through the test Exec.
type execCall struct {
	args []string
	dir  string
}

// execEnv is an Env whose Exec runs builtins as the shell does
// (shell.exec): a name with a slash or an unknown name is "command not
// found" (127), and nothing outside the registry can run. extra adds test
// commands (a stand-in for shell functions).
type execEnv struct {
	*Env
	out, errb *syncBuffer
	mu        sync.Mutex
	calls     []execCall
	extra     map[string]Func
}

func newExecEnv(t *testing.T, ctx context.Context, files map[string]string, stdin string, args ...string) *execEnv {
	t.Helper()
	dir := emptyDir(t)
	var fsys FS
	if files != nil {
		dir = t.TempDir()
		writeHostFiles(t, dir, files)
		fsys = testFS(t, dir)
	}
	return newExecEnvIn(ctx, fsys, dir, stdin, args...)
}

// newExecEnvIn is newExecEnv in dir, whose files fsys serves.
func newExecEnvIn(ctx context.Context, fsys FS, dir, stdin string, args ...string) *execEnv {
	e := &execEnv{out: &syncBuffer{}, errb: &syncBuffer{}, extra: map[string]Func{}}
	e.Env = &Env{Ctx: ctx, Args: args, Stdin: strings.NewReader(stdin), Stdout: e.out, Stderr: e.errb, FS: fsys, Dir: dir}
	e.Env.Exec = e.execIn(dir)
	return e
}

func (e *execEnv) execIn(dir string) ExecFunc {
	return func(ctx context.Context, args []string, in io.Reader, out, errw io.Writer) int {
		dir := dir
		if d, ok := ExecDir(ctx); ok {
			dir = d // find -execdir
		}
		e.mu.Lock()
		e.calls = append(e.calls, execCall{append([]string(nil), args...), dir})
		fn := e.extra[args[0]]
		e.mu.Unlock()
		if in == nil {
			in = strings.NewReader("")
		}
		sub := &Env{Ctx: ctx, Args: args, Stdin: in, Stdout: out, Stderr: errw, FS: e.FS, Dir: dir}
		_, sub.StdinClosed = in.(ClosedStdin) // as the shell's Exec
		sub.Exec = e.execIn(dir)
		if fn != nil {
			return fn(sub)
		}
		b, ok := Lookup(args[0])
		if strings.Contains(args[0], "/") || !ok {
			fmt.Fprintf(errw, "llmsh: %s: command not found\n", args[0])
			ExecFailureOf(ctx).Set() // as the shell's Exec
			return 127
		}
		return Run(b, sub)
	}
}

// run runs the command and returns its result.
func (e *execEnv) run() result {
	b, ok := Lookup(e.Args[0])
	if !ok {
		panic("no builtin " + e.Args[0])
	}
	st := Run(b, e.Env)
	return result{e.out.String(), e.errb.String(), st}
}

// execCase is a table row for commands that run other commands.
type execCase struct {
	name   string
	files  map[string]string
	stdin  string
	args   []string
	out    string
	err    string
	status int
}

func runExecCases(t *testing.T, cases []execCase) {
	t.Helper()
	for _, c := range cases {
		checkExecCase(t, c, newExecEnv(t, context.Background(), c.files, c.stdin, c.args...).run())
	}
}

func checkExecCase(t *testing.T, c execCase, got result) {
	t.Helper()
	if got.stdout != c.out || got.stderr != c.err || got.status != c.status {
		t.Errorf("%s: %q:\n got %q %q %d\nwant %q %q %d", c.name, c.args,
			got.stdout, got.stderr, got.status, c.out, c.err, c.status)
	}
}

// runReadingCases is runExecCases for cases that only read the tree
// files, which each case names as its files: they run in one directory
// and one vfsd session (a tree and a session a case cost their inodes'
// allocation and the session's goroutines), and a case that changed the
// tree, which would change the next one's, fails the test.
func runReadingCases(t *testing.T, files map[string]string, cases []execCase) {
	t.Helper()
	dir := t.TempDir()
	writeHostFiles(t, dir, files)
	fsys := testFS(t, dir)
	before := duSnapshot(t, dir)
	for _, c := range cases {
		if !reflect.DeepEqual(c.files, files) {
			t.Fatalf("%s: the case's files are not the shared tree", c.name)
		}
		checkExecCase(t, c, newExecEnvIn(context.Background(), fsys, dir, c.stdin, c.args...).run())
	}
	if after := duSnapshot(t, dir); !maps.Equal(before, after) {
		t.Errorf("the cases changed the shared tree:\n%v\nwas\n%v", after, before)
	}
}
