package llmsh_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/internal/vfsdproc"
)

// TestMain lets the test binary act as vfsd: a Session re-executes it in
// server mode.
func TestMain(m *testing.M) {
	if vfsdproc.IsWorker() {
		// An isolated session's process: TestIsolatedCrash's stack
		// overflow comes at 64 MiB instead of Go's 1 GB.
		debug.SetMaxStack(64 << 20)
	}
	llmsh.MaybeServeVfsd()
	os.Exit(m.Run())
}

// isolated reports whether t runs under TestIsolated, which runs the
// session tests again with Options.Isolated.
func isolated(t *testing.T) bool { return strings.HasPrefix(t.Name(), "TestIsolated/") }

func newSession(t *testing.T, o llmsh.Options) *llmsh.Session {
	t.Helper()
	o.Isolated = isolated(t)
	s, err := llmsh.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func run(t *testing.T, s *llmsh.Session, script string) llmsh.Result {
	t.Helper()
	res, err := s.Run(context.Background(), script, nil)
	if err != nil {
		t.Fatalf("Run(%q): %v", script, err)
	}
	return res
}

// runInTime is run for a short script in a session with a short time
// limit: a Run that the limit ended (a loaded machine gave it too little
// of a CPU in time) is run again, up to 50 times, so the test depends on
// what the session does, not on the machine's load.
func runInTime(t *testing.T, s *llmsh.Session, script string) llmsh.Result {
	t.Helper()
	res := run(t, s, script)
	for i := 0; i < 50 && res.Limit == "time"; i++ {
		res = run(t, s, script)
	}
	return res
}

// TestRunDollarZero: a Run's $0 is the shell's name, as an interactive
// bash's is "bash" (session 28: it was mvdan/sh's "gosh" in every Run of
// the library, serve, mcp and the REPL).
func TestRunDollarZero(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{})
	if r := run(t, s, `echo "$0 ${BASH_ARGV0}"; (echo "$0")`); r.Stdout != "llmsh llmsh\nllmsh\n" {
		t.Errorf("$0: %q", r.Stdout)
	}
}

func TestStatePersists(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := newSession(t, llmsh.Options{Outputs: []string{dir}, Dir: dir})
	run(t, s, `x=1; f() { echo "f:$1"; }; mkdir sub; cd sub; echo real > real.txt; echo virt > /scratch.txt; export E=e`)
	res := run(t, s, `echo "$x $E $PWD"; f a; cat real.txt /scratch.txt`)
	want := fmt.Sprintf("1 e %s/sub\nf:a\nreal\nvirt\n", dir)
	if res.Stdout != want || res.Stderr != "" || res.ExitCode != 0 {
		t.Fatalf("got %+v, want stdout %q", res, want)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "sub", "real.txt")); string(got) != "real\n" {
		t.Errorf("real file holds %q", got)
	}
	if len(res.VirtualFiles) != 1 || res.VirtualFiles[0] != "/scratch.txt" {
		t.Errorf("virtual files %q", res.VirtualFiles)
	}
}

func TestStatusAndStreams(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{})
	for _, tc := range []struct {
		script, stdin, stdout, stderr string
		code                          int
	}{
		{`echo out; echo err >&2; exit 3`, "", "out\n", "err\n", 3},
		{`false`, "", "", "", 1},
		{`wc -l`, "a\nb\n", "2\n", "", 0},
		{`nosuchcmd`, "", "", "llmsh: line 1: nosuchcmd: command not found\n", 127},
		{`echo "unterminated`, "", "", "llmsh: line 1: unexpected EOF while looking for matching `\"'\n", 2},
		{"echo before\nfi\necho after", "", "before\n", "llmsh: line 2: syntax error near unexpected token `fi'\nllmsh: line 2: `fi'\n", 2},
		{`cat /etc/passwd`, "", "", "cat: /etc/passwd: No such file or directory\n", 1},
		{`echo $?`, "", "1\n", "", 0}, // $? of the previous Run (cat's)
	} {
		res, err := s.Run(context.Background(), tc.script, strings.NewReader(tc.stdin))
		if err != nil {
			t.Fatalf("%q: %v", tc.script, err)
		}
		if res.Stdout != tc.stdout || res.Stderr != tc.stderr || res.ExitCode != tc.code || res.Truncated {
			t.Errorf("%q: got %q %q %d %v, want %q %q %d", tc.script, res.Stdout, res.Stderr, res.ExitCode, res.Truncated, tc.stdout, tc.stderr, tc.code)
		}
	}
}

func TestTimeoutKeepsSession(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{Timeout: 200 * time.Millisecond})
	runInTime(t, s, `v=kept`)
	res := run(t, s, `echo before; while :; do :; done`)
	if res.ExitCode != 124 || res.Stdout != "before\n" || !strings.Contains(res.Stderr, "timed out after 200ms") {
		t.Fatalf("timeout: %+v", res)
	}
	res = runInTime(t, s, `echo "$v"`)
	if res.Stdout != "kept\n" || res.ExitCode != 0 {
		t.Fatalf("after timeout: %+v", res)
	}
}

func TestMaxOutput(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{MaxOutput: 10})
	res := run(t, s, `yes`)
	if res.Stdout != "y\ny\ny\ny\ny\n" || !res.Truncated || res.ExitCode != 125 || !strings.Contains(res.Stderr, "output limit exceeded") {
		t.Fatalf("got %+v", res)
	}
	res = run(t, s, `echo ok`)
	if res.Stdout != "ok\n" || res.Truncated || res.ExitCode != 0 {
		t.Fatalf("after the cap: %+v", res)
	}
}

func TestLimitKeepsSession(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{Limits: llmsh.Limits{MaxCommands: 100}})
	res := run(t, s, `i=0; while :; do i=$((i+1)); done`)
	if res.ExitCode != 125 || !strings.Contains(res.Stderr, "limit exceeded") {
		t.Fatalf("got %+v", res)
	}
	if res := run(t, s, `echo again`); res.Stdout != "again\n" {
		t.Fatalf("after a limit: %+v", res)
	}
}

// signalReader yields its text once, closing read when it is first read.
type signalReader struct {
	text string
	read chan struct{}
}

func (r *signalReader) Read(p []byte) (int, error) {
	if r.text == "" {
		return 0, io.EOF
	}
	n := copy(p, r.text)
	r.text = r.text[n:]
	close(r.read)
	return n, nil
}

func TestContextCancel(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	in := &signalReader{text: "x\n", read: make(chan struct{})}
	done := make(chan struct{})
	var err error
	go func() {
		_, err = s.Run(ctx, `while :; do :; done`, in)
		close(done)
	}()
	<-in.read // the Run has begun
	cancel()
	<-done
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if res := run(t, s, `echo next`); res.Stdout != "next\n" {
		t.Fatalf("after cancel: %+v", res)
	}
}

func TestReset(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{})
	run(t, s, `x=1; echo v > /v.txt`)
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	res := run(t, s, `echo "[$x]"; cat /v.txt`)
	if res.Stdout != "[]\n" || res.ExitCode != 1 || len(res.VirtualFiles) != 0 {
		t.Fatalf("after Reset: %+v", res)
	}
}

func TestClose(t *testing.T) {
	t.Parallel()
	s, err := llmsh.New(llmsh.Options{Isolated: isolated(t)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), "echo", nil); !errors.Is(err, llmsh.ErrClosed) {
		t.Fatalf("Run after Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestConcurrentSessions runs several sessions at once (under -race in
// CI), each with virtual files of the same names that the others must
// never see, and one session used from several goroutines.
func TestConcurrentSessions(t *testing.T) {
	t.Parallel()
	const n = 4
	var wg sync.WaitGroup
	for i := range n {
		s := newSession(t, llmsh.Options{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 5 {
				res, err := s.Run(context.Background(), fmt.Sprintf(`echo %d-%d >> /shared.txt; cat /shared.txt | wc -l; tail -n1 /shared.txt`, i, j), nil)
				if err != nil {
					t.Error(err)
					return
				}
				if want := fmt.Sprintf("%d\n%d-%d\n", j+1, i, j); res.Stdout != want {
					t.Errorf("session %d run %d: %q, want %q", i, j, res.Stdout, want)
				}
			}
		}()
	}
	shared := newSession(t, llmsh.Options{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				if _, err := shared.Run(context.Background(), `n=$((n+1))`, nil); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if res := run(t, shared, `echo $n`); res.Stdout != fmt.Sprintf("%d\n", 5*n) {
		t.Errorf("serialised runs: n=%q", res.Stdout)
	}
}

func TestNoVfsd(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "missing")
	_, err := llmsh.New(llmsh.Options{VfsdPath: missing, Isolated: isolated(t)})
	// GNU's words, not exec's "fork/exec PATH: no such file or directory".
	if err == nil || !strings.Contains(err.Error(), "cannot start vfsd: "+missing+": No such file or directory") ||
		!errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v", err)
	}
}

func TestReadFileAndDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("A"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("S"), 0o644)
	s := newSession(t, llmsh.Options{Inputs: []string{dir}, Dir: dir})
	run(t, s, `echo virtual > /v.txt`)
	if b, err := s.ReadFile("a.txt"); err != nil || string(b) != "A" {
		t.Errorf("ReadFile(a.txt) = %q, %v", b, err)
	}
	if b, err := s.ReadFile("/v.txt"); err != nil || string(b) != "virtual\n" {
		t.Errorf("ReadFile(/v.txt) = %q, %v", b, err)
	}
	if _, err := s.ReadFile(filepath.Join(outside, "secret")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile outside the grants (absent): %v", err)
	}
	// ReadFileMax: at most max bytes, else EFBIG (mcp's resources/read).
	if b, err := s.ReadFileMax("/v.txt", 8); err != nil || string(b) != "virtual\n" {
		t.Errorf("ReadFileMax(/v.txt, 8) = %q, %v", b, err)
	}
	if b, err := s.ReadFileMax("/v.txt", 7); !errors.Is(err, syscall.EFBIG) || b != nil {
		t.Errorf("ReadFileMax(/v.txt, 7) = %q, %v", b, err)
	}
	if _, err := s.ReadFileMax(filepath.Join(outside, "secret"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFileMax outside the grants (absent): %v", err)
	}
	ents, err := s.ReadDir(dir)
	if err != nil || len(ents) != 1 || ents[0].Name() != "a.txt" {
		t.Errorf("ReadDir = %v, %v", ents, err)
	}
	s.Close()
	if _, err := s.ReadFile("a.txt"); !errors.Is(err, llmsh.ErrClosed) {
		t.Errorf("ReadFile after Close: %v", err)
	}
}

func TestMaxVirtualBytes(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{MaxVirtualBytes: 100})
	res := run(t, s, `seq 10 > /small; seq 1000 | sort -o /big; echo $?; wc -l < /small`)
	if res.Stdout != "2\n10\n" || !strings.Contains(res.Stderr, "sort: fflush failed: /big: File too large\nsort: write error\n") {
		t.Fatalf("got %+v", res)
	}
}

// TestVirtualFilesOmitted: a Result names the shortest virtual files when
// their names do not fit one listing, and counts the others.
func TestVirtualFilesOmitted(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{})
	res := run(t, s, `d=/tmp/$(printf "%0250d/" $(seq 15)); mkdir -p "$d"; for i in $(seq 300); do : > "$d$(printf %0230d $i)"; done; echo x > /tmp/important`)
	if !slices.Contains(res.VirtualFiles, "/tmp/important") || res.VirtualFilesOmitted == 0 ||
		int(res.VirtualFilesOmitted)+len(res.VirtualFiles) != 301 {
		t.Fatalf("%d named, %d omitted, /tmp/important named: %v", len(res.VirtualFiles), res.VirtualFilesOmitted,
			slices.Contains(res.VirtualFiles, "/tmp/important"))
	}
}

// TestRunJobsForgotten: the jobs of a Run that have ended leave the table
// after the next Run (which can still list them, as an interactive bash
// reports them at the next prompt) or once it starts a job of its own:
// a long-lived session's table kept every job of every Run, numbered on
// ("[2000] PID" after 2000 Runs of `: &`), and each job start walked it.
func TestRunJobsForgotten(t *testing.T) {
	t.Parallel()
	s := newSession(t, llmsh.Options{Timeout: time.Minute})
	for i := 0; i < 3; i++ {
		if r := run(t, s, `: &`); !strings.HasPrefix(r.Stderr, "[1] ") {
			t.Fatalf("run %d: %q, want job 1", i, r.Stderr)
		}
	}
	if r := run(t, s, `jobs`); !strings.HasPrefix(r.Stdout, "[1]+  ") || !strings.HasSuffix(r.Stdout, " :\n") {
		t.Errorf("the last Run's job: %q", r.Stdout)
	}
	if r := run(t, s, `jobs`); r.Stdout != "" {
		t.Errorf("a job two Runs old: %q", r.Stdout)
	}
}

// TestRunEndsJobs: a Run's background jobs, disowned or not, end with it
// (Result.HungUp names them): under the job context of the REPL they
// outlived the Run, so that a serve session's `while :; do :; done &`
// burnt a CPU for good, past any time limit.
func TestRunEndsJobs(t *testing.T) {
	t.Parallel()
	for _, iso := range []bool{false, true} {
		s, err := llmsh.New(llmsh.Options{Isolated: iso, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		r := run(t, s, `( while :; do :; done ) & { while :; do echo x >> /tick; done; } & disown; until [[ -s /tick ]]; do :; done; echo started`)
		if r.Stdout != "started\n" || len(r.HungUp) != 2 {
			t.Fatalf("isolated %v: %+v, want two jobs hung up", iso, r)
		}
		first := run(t, s, `jobs; wc -c < /tick`)
		if !strings.HasPrefix(first.Stdout, "[1]+  Hangup") {
			t.Errorf("isolated %v: jobs: %q", iso, first.Stdout)
		}
		if again := run(t, s, `wc -c < /tick`); !strings.HasSuffix(first.Stdout, again.Stdout) {
			t.Errorf("isolated %v: the disowned job still writes: %q, then %q", iso, first.Stdout, again.Stdout)
		}
	}
}
