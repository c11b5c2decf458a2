package llmsh_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/internal/memguard"
)

// lockedBuffer is a bytes.Buffer that the session's goroutines may write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// on, if set, is called (outside the lock) after each write with
	// what the buffer holds.
	on func(string)
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.b.Write(p)
	s := l.b.String()
	l.mu.Unlock()
	if l.on != nil {
		l.on(s)
	}
	return len(p), nil
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRunWithLiveOutput: RunOptions' writers get the output while the
// script runs: a writer that cancels the Run on its first line stops a
// script that would otherwise loop until the session's time limit. The
// Result then holds no copy of what went to the writers.
func TestRunWithLiveOutput(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	out := &lockedBuffer{on: func(s string) {
		if strings.Contains(s, "first\n") {
			once.Do(cancel)
		}
	}}
	errb := &lockedBuffer{}
	res, err := s.RunWith(ctx, "echo warn >&2; echo first; while :; do :; done", llmsh.RunOptions{Stdout: out, Stderr: errb})
	if !errors.Is(err, context.Canceled) || res.ExitCode == 124 {
		t.Fatalf("Run: %+v, %v (the writer did not see the first line live)", res, err)
	}
	if out.String() != "first\n" || errb.String() != "warn\n" || res.Stdout != "" || res.Stderr != "" || res.Output != "" {
		t.Fatalf("stdout %q, stderr %q, result %+v", out.String(), errb.String(), res)
	}
	// The session goes on, and a Run without writers captures again.
	if res := run(t, s, "echo again; echo e >&2"); res.Stdout != "again\n" || res.Output != "again\ne\n" {
		t.Fatalf("the next Run: %+v", res)
	}
}

// TestRunWithBoundedLimits: a call's timeout and output cap apply when
// they are tighter than the session's, and are cut to the session's when
// they are looser.
func TestRunWithBoundedLimits(t *testing.T) {
	t.Parallel()
	// Two sessions: the timed one runs only endless loops, so no run of
	// the caps can meet the 200 ms limit on a loaded machine.
	timed := newSession(t, llmsh.Options{Timeout: 200 * time.Millisecond})
	capped := newSession(t, llmsh.Options{MaxOutput: 10})
	loop := "while :; do :; done"
	for _, c := range []struct {
		name    string
		script  string
		ro      llmsh.RunOptions
		status  int
		limit   string
		stdout  string
		message string
	}{
		{"looser timeout", loop, llmsh.RunOptions{Timeout: time.Hour}, 124, "time", "", "llmsh: timed out after 200ms\n"},
		{"tighter timeout", loop, llmsh.RunOptions{Timeout: 20 * time.Millisecond}, 124, "time", "", "llmsh: timed out after 20ms\n"},
		{"looser cap", "echo 0123456789abc", llmsh.RunOptions{MaxOutput: 1000}, 125, "output", "0123456789", "llmsh: output limit exceeded (10 bytes)\n"},
		{"tighter cap", "echo 0123456789abc", llmsh.RunOptions{MaxOutput: 4}, 125, "output", "0123", "llmsh: output limit exceeded (4 bytes)\n"},
		{"within", "echo ok", llmsh.RunOptions{MaxOutput: 4, Timeout: time.Hour}, 0, "", "ok\n", ""},
	} {
		s := capped
		if c.script == loop {
			s = timed
		}
		res, err := s.RunWith(context.Background(), c.script, c.ro)
		if err != nil || res.ExitCode != c.status || res.Limit != c.limit || res.Stdout != c.stdout || res.Stderr != c.message || res.Truncated != (c.limit == "output") {
			t.Errorf("%s: %+v, %v", c.name, res, err)
		}
		// Output, the streams together, has the message on a line of
		// its own after the cut line; Stderr does not start with one.
		if c.limit == "output" && res.Output != c.stdout+"\n"+c.message {
			t.Errorf("%s: Output %q", c.name, res.Output)
		}
	}
}

// TestRunWithDirAndEnv: Dir and Env act as a cd and exports typed before
// the script, which persist; $? is the previous script's; a Dir that cd
// refuses is the Run's status and message, and the script does not run.
func TestRunWithDirAndEnv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := newSession(t, llmsh.Options{Inputs: []string{dir}})
	run(t, s, "(exit 3)")
	res, err := s.RunWith(context.Background(), `echo "$? $PWD [$A] [$B]"`, llmsh.RunOptions{Dir: dir, Env: []string{"A=x  y", "B="}})
	if want := "3 " + dir + " [x  y] []\n"; err != nil || res.Stdout != want {
		t.Fatalf("got %+v, %v; want stdout %q", res, err, want)
	}
	if res := run(t, s, `echo "$PWD $A"; env | grep '^A='`); res.Stdout != dir+" x  y\nA=x  y\n" {
		t.Fatalf("not kept: %+v", res)
	}
	res, err = s.RunWith(context.Background(), "echo ran", llmsh.RunOptions{Dir: dir + "/missing"})
	if err != nil || res.ExitCode != 1 || res.Stdout != "" || !strings.Contains(res.Stderr, "cd: "+dir+"/missing: No such file or directory") {
		t.Fatalf("a Dir that does not exist: %+v, %v", res, err)
	}
	for _, env := range []string{"1A=x", "NOEQUALS", "A-B=c"} {
		if _, err := s.RunWith(context.Background(), "echo ran", llmsh.RunOptions{Env: []string{env}}); err == nil {
			t.Errorf("Env %q: no error", env)
		}
	}
}

// TestRunWithScript: Script runs the text as a script file: its errors
// name the script (at a prompt, llmsh), and the EXIT trap runs at its end.
func TestRunWithScript(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{Name: "job.sh"})
	res, err := s.RunWith(context.Background(), "echo before\nif", llmsh.RunOptions{Script: true})
	if err != nil || res.ExitCode != 2 || res.Stdout != "before\n" || res.Stderr != "job.sh: line 3: syntax error: unexpected end of file\n" {
		t.Fatalf("script with a syntax error: %+v, %v", res, err)
	}
	if res := run(t, s, "echo before\nif"); res.ExitCode != 2 || res.Stdout != "before\n" || !strings.HasPrefix(res.Stderr, "llmsh: line ") {
		t.Fatalf("the same at the prompt: %+v", res)
	}
	res, err = s.RunWith(context.Background(), "trap 'echo bye' EXIT; echo hi", llmsh.RunOptions{Script: true})
	if err != nil || res.Stdout != "hi\nbye\n" {
		t.Fatalf("EXIT trap: %+v, %v", res, err)
	}
	if res := run(t, s, "trap 'echo bye' EXIT; echo hi"); res.Stdout != "hi\n" {
		t.Fatalf("EXIT trap at the prompt: %+v", res)
	}
	// A script read from Stdin as it runs: read takes its next line, the
	// EXIT trap runs once at its end, and a syntax error stops it there.
	res, err = s.RunWith(context.Background(), "", llmsh.RunOptions{ScriptFromStdin: true,
		Stdin: strings.NewReader("trap 'echo bye $?' EXIT\nread x\nline two\necho \"[$x]\"\n(\necho not-run\n")})
	if err != nil || res.ExitCode != 2 || res.Stdout != "[line two]\nbye 2\n" || res.Stderr != "job.sh: line 6: syntax error: unexpected end of file\n" {
		t.Fatalf("script from stdin: %+v, %v", res, err)
	}
}

// TestGrantRefused: a grant vfsd cannot serve fails New with
// ErrGrantRefused and vfsd's reason, which names the path.
func TestGrantRefused(t *testing.T) {
	t.Parallel()
	var vfsdErr bytes.Buffer
	missing := filepath.Join(t.TempDir(), "missing")
	_, err := llmsh.New(llmsh.Options{Inputs: []string{missing + "/x"}, VfsdStderr: &vfsdErr, Isolated: isolated(t)})
	if !errors.Is(err, llmsh.ErrGrantRefused) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("New: %v", err)
	}
	if !isolated(t) && !strings.Contains(vfsdErr.String(), missing) {
		t.Errorf("vfsd's stderr: %q", vfsdErr.String())
	}
}

// TestInProcessMemoryLimit: with MaxMemory, a session in the embedding
// process stops a Run whose heap passes it, with status 125 and the llmsh
// command's message, and goes on. The session's bound on one value is an
// eighth of MaxMemory (session 30; it was 256 MiB whatever MaxMemory
// said), unless Limits.MaxValue says otherwise: here the guard is to see
// one value grow.
func TestInProcessMemoryLimit(t *testing.T) {
	small, err := llmsh.New(llmsh.Options{MaxMemory: 256 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	res := run(t, small, "x=$(yes | head -c 34000000); echo survived")
	if want := "llmsh: limit exceeded: value too large (more than 33554432 bytes)\n"; res.ExitCode != 125 || strings.Contains(res.Stdout, "survived") || !strings.HasSuffix(res.Stderr, want) {
		t.Fatalf("value limit: got status %d stdout %q stderr %q, want %q", res.ExitCode, res.Stdout, res.Stderr, want)
	}
	if got, want := llmsh.ValueLimit(0), 256<<20; got != want {
		t.Errorf("ValueLimit(0) = %d, want %d", got, want)
	}
	s, err := llmsh.New(llmsh.Options{MaxMemory: 64 << 20, Limits: llmsh.Limits{MaxValue: 256 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res = run(t, s, "x=$(yes | head -c 200000000); echo survived")
	if res.ExitCode != 125 || res.Limit != "memory" || strings.Contains(res.Stdout, "survived") || res.Stderr != "llmsh: memory limit exceeded (64 MiB)\n" {
		t.Fatalf("got status %d limit %q stdout %q stderr %q", res.ExitCode, res.Limit, res.Stdout, res.Stderr)
	}
	if res := run(t, s, "echo ok"); res.ExitCode != 0 || res.Stdout != "ok\n" {
		t.Fatalf("the next Run: %+v", res)
	}
}

// TestInProcessRunGrowth: without MaxMemory, a session in the embedding
// process stops a Run that grows the heap by more than its bound (here
// lowered from DefaultMaxMemory to 24 MiB): rev gathering one endless
// line of /dev/zero (session 22, red team: with a 3 s limit, 7.2 s and
// 7.7 GB of heap) ends with status 125 and the memory message long
// before the time limit, and the session goes on. A negative MaxMemory
// has no guard.
func TestInProcessRunGrowth(t *testing.T) {
	memguard.RunGrowth = 24 << 20
	defer func() { memguard.RunGrowth = 0 }()
	s, err := llmsh.New(llmsh.Options{Timeout: 100 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res := run(t, s, "rev /dev/zero; echo survived")
	if res.ExitCode != 125 || res.Limit != "memory" || strings.Contains(res.Stdout, "survived") || res.Stderr != "llmsh: memory limit exceeded (24 MiB)\n" {
		t.Fatalf("got status %d limit %q stdout %q stderr %q", res.ExitCode, res.Limit, res.Stdout, res.Stderr)
	}
	if res := run(t, s, "echo ok"); res.ExitCode != 0 || res.Stdout != "ok\n" {
		t.Fatalf("the next Run: %+v", res)
	}
	off, err := llmsh.New(llmsh.Options{MaxMemory: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	res = run(t, off, "x=$(yes | head -c 40000000); echo ${#x}")
	if res.ExitCode != 0 || res.Stdout != "39999999\n" || res.Stderr != "" {
		t.Fatalf("MaxMemory -1: status %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
}

// growthSession is a session whose Runs may keep 32 MiB in all (the
// guard's RunGrowth), closed and reset when the test ends.
func growthSession(t *testing.T) *llmsh.Session {
	memguard.RunGrowth = 32 << 20
	t.Cleanup(func() { memguard.RunGrowth = 0 })
	// The session's base is the heap at its start, garbage included (a
	// base never below the live heap): collect the earlier tests' first.
	runtime.GC()
	s, err := llmsh.New(llmsh.Options{Timeout: 100 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestInProcessSessionGrowth: what a session keeps between Runs counts
// against its memory bound (session 24's leftover: twelve Runs each
// keeping 192 MB took the heap to 2.3 GB, each Run's guard counting from
// its own start), and a Run that gives it back is not stopped.
func TestInProcessSessionGrowth(t *testing.T) {
	s := growthSession(t)
	keepUntilStopped(t, func(script string) llmsh.Result { return run(t, s, script) }, "llmsh: memory limit exceeded (32 MiB)")
}

// TestSessionGrowthExportedParams: what a Run over the session's bound
// kept in an exported variable, or in the positional parameters, is given
// back at its end (session 33: the exported list a command got held a
// copy of the value after the session's unset, so the session stayed
// over and every later Run was stopped; the parameters, no variable,
// were never cleared). Each Run keeps 12.5 MB under 32 MiB.
func TestSessionGrowthExportedParams(t *testing.T) {
	for _, keep := range []string{`export a%[1]d; cat </dev/null`, `set -- "$@" "$a%[1]d"; unset a%[1]d`} {
		s := growthSession(t)
		for i := 0; ; i++ {
			if i == 4 {
				t.Fatalf("%s: four Runs kept 50 MB under a limit of 32 MiB", keep)
			}
			res := run(t, s, fmt.Sprintf("printf -v a%[1]d '%%*s' 12500000 ''; "+keep+"; echo kept", i))
			if res.ExitCode == 0 {
				continue
			}
			if res.ExitCode != 125 || strings.Contains(res.Stderr, "the session keeps more") {
				t.Fatalf("%s: Run %d: %+v", keep, i, res)
			}
			if r := run(t, s, "echo $#"); r.ExitCode != 0 {
				t.Fatalf("%s: the Run after the stopped one: %+v", keep, r)
			}
			break
		}
	}
}

// TestInteractiveSessionGrowth is TestInProcessSessionGrowth for the
// command lines of Session.Interactive (the REPL's): each is guarded and
// checked at its end as a Run is (session 32: a line had no guard of
// the session's growth without MaxMemory, and no check at its end, so
// lines of a few milliseconds each kept 12.5 MB for good).
func TestInteractiveSessionGrowth(t *testing.T) {
	s := growthSession(t)
	var stdout, stderr bytes.Buffer
	lines, results := make(chan string), make(chan llmsh.Result)
	done := make(chan error, 1)
	var closeOnce sync.Once
	end := func() { closeOnce.Do(func() { close(lines) }) }
	defer end() // before s.Close, which waits for Interactive to return
	go func() {
		_, err := s.Interactive(context.Background(), &stdout, &stderr, func(ctx context.Context, p llmsh.Prompt) int {
			for line := range lines {
				lineCtx, cancel := context.WithCancel(ctx)
				p.Begin(cancel)
				st, _ := p.Shell.RunInteractive(lineCtx, line)
				res := llmsh.Result{ExitCode: st}
				if p.End() {
					res.ExitCode, res.Limit = 125, "memory"
				}
				cancel()
				res.Stdout, res.Stderr = stdout.String(), stderr.String()
				stdout.Reset()
				stderr.Reset()
				results <- res
			}
			return 0
		})
		done <- err
	}()
	keepUntilStopped(t, func(line string) llmsh.Result {
		lines <- line
		return <-results
	}, "llmsh: memory limit exceeded (32 MiB)")
	end()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// keepUntilStopped runs Runs that each keep 12.5 MB in a variable, and
// fails unless one of the first four is stopped with msg (the limit is
// 32 MiB), the variable of that Run is unset (the next Run runs, with
// what the earlier ones kept) and a Run that unsets them then runs: one that starts over
// the limit, and gets to its unset only after several of the guard's
// ticks (session 28: under load the first tick stopped it before its
// unset ran; the sleep makes that window wide without load).
func keepUntilStopped(t *testing.T, run func(string) llmsh.Result, msg string) {
	t.Helper()
	for i := 0; ; i++ {
		if i == 4 {
			t.Fatalf("four Runs kept 50 MB under a limit of 32 MiB")
		}
		// Each Run lasts a few milliseconds: less than a tick of the
		// guard, so only its end's check sees what it keeps.
		// The store into readonly UID fails: what is unset after a
		// Run over the limit is only what it stored.
		res := run(fmt.Sprintf("declare UID=5 2>/dev/null; printf -v a%d '%%*s' 12500000 ''; echo kept", i))
		if res.ExitCode == 125 {
			if !strings.Contains(res.Stderr, msg) || res.Limit != "memory" {
				t.Fatalf("Run %d: %+v", i, res)
			}
			// What the stopped Run set was unset when it left the
			// session over its bound (a tick may have stopped it for
			// the garbage of its printf, the session staying under):
			// the session is under its bound again, and a Run that
			// keeps nothing runs.
			if strings.Contains(res.Stderr, "which this run set") && !strings.Contains(res.Stderr, fmt.Sprintf("llmsh: unset a%d, which this run set: the session would keep more than its memory limit\n", i)) {
				t.Fatalf("Run %d: %+v", i, res)
			}
			want := "12500000 0 1000\n"
			if !strings.Contains(res.Stderr, "which this run set") {
				want = "12500000 12500000 1000\n" // under the bound with it
			}
			if r := run(fmt.Sprintf("echo ${#a0} ${#a%d} $UID", i)); r.ExitCode != 0 || r.Stdout != want {
				t.Fatalf("the Run after the stopped one: %+v", r)
			}
			break
		}
		if res.ExitCode != 0 || res.Stdout != "kept\n" {
			t.Fatalf("Run %d: %+v", i, res)
		}
	}
	if res := run("sleep 0.1; unset a0 a1 a2 a3; echo ok"); res.ExitCode != 0 || res.Stdout != "ok\n" {
		t.Fatalf("the Run that gives it back: %+v", res)
	}
}

// TestRunWithOnStop: OnStop hears why the session stopped a Run (here
// its output cap), and nothing for a Run that ended by itself.
func TestRunWithOnStop(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{MaxOutput: 4})
	var mu sync.Mutex
	var causes []error
	onStop := func(c error) {
		mu.Lock()
		causes = append(causes, c)
		mu.Unlock()
	}
	res, err := s.RunWith(context.Background(), "echo ok", llmsh.RunOptions{OnStop: onStop})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("%+v, %v", res, err)
	}
	res, err = s.RunWith(context.Background(), "echo 0123456789; while :; do :; done", llmsh.RunOptions{OnStop: onStop})
	if err != nil || res.ExitCode != 125 {
		t.Fatalf("%+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(causes) != 1 || !errors.Is(causes[0], llmsh.ErrOutputLimit) {
		t.Fatalf("causes %v", causes)
	}
}

// TestRunWithPlainBuffers: RunOptions' writers get one write at a time,
// so a bytes.Buffer is enough, also for one buffer as both and when a
// pipeline's elements write at once (their set -x lines, messages, the
// output of a background job): the race detector sees no race, and
// nothing is lost.
func TestRunWithPlainBuffers(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{Timeout: time.Minute})
	const script = `set -x
for i in 1 2 3; do echo "o$i"; echo "e$i" >&2; done | while read -r l; do echo "$l" >&2; echo "r$l"; done | cat
{ echo a; echo b >&2; } & { echo c; echo d >&2; } | cat; wait`
	var out, errb bytes.Buffer
	if _, err := s.RunWith(context.Background(), script, llmsh.RunOptions{Stdout: &out, Stderr: &errb}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ro1\n", "ro3\n", "a\n", "c\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout %q lacks %q", out.String(), want)
		}
	}
	if n := strings.Count(errb.String(), "+ echo e"); n != 3 || !strings.Contains(errb.String(), "e3\n") {
		t.Errorf("stderr %q", errb.String())
	}
	var both bytes.Buffer
	if _, err := s.RunWith(context.Background(), script, llmsh.RunOptions{Stdout: &both, Stderr: &both}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(both.String(), "ro2\n") || !strings.Contains(both.String(), "+ read -r l\n") {
		t.Errorf("one buffer: %q", both.String())
	}
}
