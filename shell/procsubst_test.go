package shell_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// When the script ends, closeAll ends the pipes of process substitutions
// that no command opened: the list's writes fail with EPIPE, its reads
// end, and the command's path is no longer served.
func TestPsubCloseAll(t *testing.T) {
	p := ForTests.Psubs()
	path, w, err := p.NewPipe(true) // <(LIST): the list writes
	if err != nil {
		t.Fatal(err)
	}
	path2, r, err := p.NewPipe(false) // >(LIST): the list reads
	if err != nil {
		t.Fatal(err)
	}
	if path == path2 {
		t.Fatalf("two pipes at once share %s", path)
	}
	p.CloseAll()
	if _, ok := p.Open(path); ok {
		t.Errorf("the command's end %s is still served after closeAll", path)
	}
	if _, err := w.Write([]byte("x")); !errors.Is(err, syscall.EPIPE) {
		t.Errorf("write after closeAll: %v, want EPIPE", err)
	}
	w.Close()
	if n, err := r.Read(make([]byte, 4)); n != 0 || err != io.EOF {
		t.Errorf("read after closeAll: %d, %v; want 0, EOF", n, err)
	}
	r.Close()
}

// The command's end of a pipe is served once, under /dev/fd/N only.
func TestPsubOpenOnce(t *testing.T) {
	p := ForTests.Psubs()
	path, job, err := p.NewPipe(true)
	if err != nil {
		t.Fatal(err)
	}
	if path != "/dev/fd/63" {
		t.Errorf("first path %s, want /dev/fd/63 (bash's)", path)
	}
	f, ok := p.Open(path)
	if !ok {
		t.Fatalf("%s is not served", path)
	}
	if _, ok := p.Open(path); ok {
		t.Errorf("%s is served twice", path)
	}
	go func() { job.Write([]byte("hi")); job.Close() }()
	b, err := io.ReadAll(f)
	if string(b) != "hi" || err != nil {
		t.Errorf("read %q, %v; want \"hi\"", b, err)
	}
}

// A process substitution that exec made stdout reads to its end after the
// script, as bash's outlives the shell: `exec > >(tee log)`, a common
// logging idiom, writes all of its input to the log and the terminal (it
// was cancelled with the Run, before reading a line).
func TestPsubExecTeeAtExit(t *testing.T) {
	dir := t.TempDir()
	out, errs, st := run(t, dir, "exec > >(tee run.log) 2>&1; echo one; echo two >&2; printf 'n=%d\\n' 3", Limits{})
	want := "one\ntwo\nn=3\n"
	if out != want || st != 0 {
		t.Fatalf("out=%q err=%q status=%d; want out=%q", out, errs, st, want)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "run.log")); err != nil || string(b) != want {
		t.Fatalf("run.log %q (%v); want %q", b, err, want)
	}
}

// TestEndJobsHeldDescriptors: the end of a session's run hangs up the
// process substitutions and coprocesses that a descriptor of the session
// keeps open (attack interp/procsubst_held_fd): a list blocked writing
// to a pipe nobody reads, or reading one nobody writes, stops at once,
// instead of each wait running out the shell's grace (three of them, 3 s
// a run, at the end of this run and of every later one). The grace is a
// minute here, so a wait that runs it out fails the bound of 20 s, which
// no load makes runs of a few milliseconds reach.
func TestEndJobsHeldDescriptors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	sh, out, errb := newTestShell(t, c, dir)
	ForTests.SetHangUpWait(sh, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, script := range []string{
		`exec {fd}< <(yes)
printf '%s %s|' "$fd" "$(head -c 1 <&$fd)"
exec 3> >(cat > /dev/null)
echo hi >&3
printf 'x|'
coproc cat
printf 'c|'
coproc Y { yes; }
printf '%s|' "$(head -c 1 <&${Y[0]})"
echo done`,
		`echo second`,
	} {
		start := time.Now()
		if st, err := sh.RunInteractive(ctx, script); st != 0 || err != nil {
			t.Fatalf("status %d (%v), stderr %q", st, err, errb.String())
		}
		sh.EndJobs()
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("the run and its end took %v: a wait ran out its grace", took)
		}
	}
	if want := "10 y|x|c|y|done\nsecond\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
}

// An exec that moves stdout off a process substitution, or closes it,
// lets the pipe go, as bash's dup2 or close of descriptor 1 does: tee
// reads the end of its input and `wait` returns (it waited for ever:
// the shell kept every file exec had made stdout open until its end).
// The same when the exec runs in a function whose call has a redirection
// of its own: that call puts back only what it redirected, as bash's.
func TestPsubExecMovedOff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		script, want string
		status       int
	}{
		{"exec 3>&1; exec > >(tee a.log); echo a; exec >&3 3>&-; wait; echo done; cat a.log", "a\ndone\na\n", 0},
		{"exec > >(tee b.log) 2>&1; echo b; exec >&- 2>&-; wait; cat b.log", "b\n", 1},
		{"exec 3>&1; exec > >(tee c.log); f() { exec >&3; }; f 2>/dev/null; echo c; wait; wc -c < c.log", "c\n0\n", 0},
		{"exec 3>&1; exec > >(tee d.log); { exec >&3; } 2>&1; echo d; wait; wc -c < d.log", "d\n0\n", 0},
		{"exec 3>&1; exec > >(tee e.log); { sleep 0.01; echo bg; } & exec >&3; wait; cat e.log", "bg\nbg\n", 0},
	} {
		got, errs, st, late := runWithin(t, t.TempDir(), tc.script)
		if got != tc.want || st != tc.status || late != nil {
			t.Errorf("%s\nstdout %q, status %d (%v), stderr %q; want %q, %d", tc.script, got, st, late, errs, tc.want, tc.status)
		}
	}
}

// A >(LIST) writes where the statement that holds it sent its output
// before its own redirections, as bash's, which expands the words first
// (it wrote to the shell's first stdout: the b of a function's, a
// substitution's or a pipeline's was lost or went to the terminal); a
// list in a redirection's word sees the redirections before it. The list
// keeps its stdout open, and a subshell or pipeline element waits for
// the lists it started (they were cut off when it ended).
func TestPsubListOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct{ script, want string }{
		{"f() { tee >(sed s/a/b/) <<< a >/dev/null; }; f > o1; wait; echo \"[$(cat o1)]\"", "[b]\n"},
		{"{ tee >(sed s/a/b/ >&2) <<< a >/dev/null; } 2> o2; wait; cat o2", "b\n"},
		{"x=$(tee >(sed s/a/b/) <<< a >/dev/null); echo \"[$x]\"", "[b]\n"},
		{"echo a | tee >(sed s/a/b/) | sort | sed 's/^/>/'", ">a\n>b\n"},
		{"( echo a > >(sed s/a/b/) ) | sed 's/^/>/'", ">b\n"},
		{"ls nope > /dev/null 2> >(sed 's/^/E: /'); wait; echo end", "end\n"},
		{"tee >(grep -c x > o3) >(wc -l > o4) < <(printf 'x\\ny\\nx\\n') | cat > /dev/null; cat o3 o4", "2\n3\n"},
	} {
		got, errs, st, late := runWithin(t, dir, tc.script)
		if got != tc.want || st != 0 || late != nil {
			t.Errorf("%s\nstdout %q, status %d (%v), stderr %q; want %q", tc.script, got, st, late, errs, tc.want)
		}
	}
}

// A command whose stdin is a copy of a descriptor opened on a process
// substitution reads it where the last reader stopped and takes only
// what it reads: `while read -r l <&3; do …; done 3< <(cmd)` reads every
// line (it read the first: each command's copy took the whole buffer).
func TestPsubReadDup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errs, st := run(t, dir, `while IFS= read -r l <&3; do printf '[%s]' "$l"; done 3< <(printf 'a\nb\nc\n'); echo
exec 3< <(printf '1\n2\n3\n'); read -r x <&3; read -r y <&3; echo "$x$y"; cat <&3`, Limits{})
	if want := "[a][b][c]\n12\n3\n"; out != want || st != 0 {
		t.Errorf("stdout %q, status %d, stderr %q; want %q", out, st, errs, want)
	}
}

// tee writing to a >(LIST) that has ended dies of SIGPIPE as GNU tee,
// silently, status 141 (it said "tee: /dev/fd/63: Broken pipe", status
// 1); with -p that output is dropped without a word. What a command
// writes before such a list ends, up to a page, a pipe of bash would
// have taken: no error (tee >(false) of three lines is 0, as in bash).
func TestPsubTeeBrokenList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errs, st := run(t, dir, `seq 100000 | tee >(head -1 > /dev/null) > /dev/null; echo "rc=$?"
tee -p >(head -c1 > /dev/null) < <(seq 100000) > /dev/null; echo "p=$?"
set -o pipefail; seq 3 | tee >(false) | cat > /dev/null; echo "small=$?"`, Limits{})
	if want := "rc=141\np=0\nsmall=0\n"; out != want || errs != "" || st != 0 {
		t.Errorf("stdout %q, stderr %q, status %d; want %q and no stderr", out, errs, st, want)
	}
}

// runWithin is run (shell_test.go) with a minute for the script: late is
// the deadline's error when the script outlived it (a list or a job that
// never ended).
func runWithin(t *testing.T, dir, src string) (stdout, stderr string, status int, late error) {
	t.Helper()
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	var out, errb lockedBuffer
	sh, err := New(Options{Client: c, Stdout: &out, Stderr: &errb, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st := sh.Run(ctx, src, "llmsh")
	return out.String(), errb.String(), st, ctx.Err()
}
