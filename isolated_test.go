package llmsh_test

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/builtins"
)

// TestIsolated runs the session tests again with Options.Isolated: the
// shell in a worker process, every call relayed.
func TestIsolated(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		f    func(*testing.T)
	}{
		{"StatePersists", TestStatePersists},
		{"StatusAndStreams", TestStatusAndStreams},
		{"TimeoutKeepsSession", TestTimeoutKeepsSession},
		{"MaxOutput", TestMaxOutput},
		{"LimitKeepsSession", TestLimitKeepsSession},
		{"ContextCancel", TestContextCancel},
		{"Reset", TestReset},
		{"Close", TestClose},
		{"ConcurrentSessions", TestConcurrentSessions},
		{"NoVfsd", TestNoVfsd},
		{"ReadFileAndDir", TestReadFileAndDir},
		{"MaxVirtualBytes", TestMaxVirtualBytes},
		{"Stat", testStat},
		{"RunWithLiveOutput", TestRunWithLiveOutput},
		{"RunWithBoundedLimits", TestRunWithBoundedLimits},
		{"RunWithDirAndEnv", TestRunWithDirAndEnv},
		{"RunWithScript", TestRunWithScript},
		{"GrantRefused", TestGrantRefused},
		{"RunWithOnStop", TestRunWithOnStop},
	} {
		t.Run(tc.name, tc.f)
	}
}

func testStat(t *testing.T) {
	dir := t.TempDir()
	s := newSession(t, llmsh.Options{Outputs: []string{dir}, Dir: dir})
	run(t, s, `mkdir -p w/d; printf 12345 > w/f; printf v > /virt`)
	fi, err := s.Stat("w/f")
	if err != nil || fi.Size() != 5 || fi.IsDir() || fi.Name() != "f" {
		t.Fatalf("Stat(w/f) = %v, %v", fi, err)
	}
	if fi, err := s.Stat("/virt"); err != nil || fi.Size() != 1 {
		t.Fatalf("Stat(/virt) = %v, %v", fi, err)
	}
	ents, err := s.ReadDir("w")
	if err != nil || len(ents) != 2 || ents[0].Name() != "d" || !ents[0].IsDir() || ents[1].Name() != "f" {
		t.Fatalf("ReadDir(w) = %v, %v", ents, err)
	}
	if _, err := s.Stat("w/none"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat of a missing file: %v", err)
	}
}

// TestIsolatedCrash: a shell that crashes (here Go's unrecoverable stack
// overflow, reached by lifting the nesting limit) ends its own session
// only: its Run says so, another session in the same program goes on, and
// Reset starts the crashed one anew.
func TestIsolatedCrash(t *testing.T) {
	t.Parallel()
	other := newIsolated(t, llmsh.Options{})
	run(t, other, `kept=yes`)
	s := newIsolated(t, llmsh.Options{Limits: llmsh.Limits{MaxNesting: 50_000_000, MaxScriptSize: 64 << 20}})
	res, err := s.Run(context.Background(), `eval "$(printf '%1000000s' '' | tr ' ' '(')"`, nil)
	if !errors.Is(err, llmsh.ErrCrashed) || !strings.Contains(err.Error(), "stack overflow") {
		t.Fatalf("Run: %+v, %v; want ErrCrashed naming the stack overflow", res, err)
	}
	if strings.Contains(err.Error(), "goroutine ") {
		t.Errorf("the error holds a stack trace: %v", err)
	}
	if _, err := s.Run(context.Background(), `echo`, nil); !errors.Is(err, llmsh.ErrCrashed) {
		t.Errorf("Run after the crash: %v", err)
	}
	if _, err := s.ReadFile("/x"); !errors.Is(err, llmsh.ErrCrashed) {
		t.Errorf("ReadFile after the crash: %v", err)
	}
	if r := run(t, other, `echo $kept`); r.Stdout != "yes\n" {
		t.Errorf("the other session: %+v", r)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if r := run(t, s, `echo again`); r.Stdout != "again\n" {
		t.Errorf("after Reset: %+v", r)
	}
}

// TestIsolatedMemoryLimit: a Run whose heap passes MaxMemory is stopped
// with status 125 and the llmsh command's message, and the session goes
// on.
// The values are gathered in a subshell: what a session keeps counts
// against its bound, so an array kept at the limit would stop the next
// Run too, by timing (a cold CI run saw that).
func TestIsolatedMemoryLimit(t *testing.T) {
	t.Parallel()
	s := newIsolated(t, llmsh.Options{MaxMemory: 64 << 20})
	run(t, s, `kept=yes`)
	res := run(t, s, `(while :; do a+=("$(yes | head -c 4000000)"); done); echo never`)
	if res.ExitCode != 125 || !strings.Contains(res.Stderr, "llmsh: memory limit exceeded (64 MiB)") || strings.Contains(res.Stdout, "never") {
		t.Fatalf("got %+v", res)
	}
	if r := run(t, s, `echo $kept`); r.Stdout != "yes\n" || r.ExitCode != 0 {
		t.Fatalf("after the limit: %+v", r)
	}
}

// TestIsolatedSessionGrowth: an isolated session's Runs that each keep
// less than its MaxMemory, and end before the guard's tick looks, are
// stopped once what they keep passes it (keepUntilStopped).
func TestIsolatedSessionGrowth(t *testing.T) {
	t.Parallel()
	s := newIsolated(t, llmsh.Options{MaxMemory: 32 << 20, Limits: llmsh.Limits{MaxValue: 256 << 20}})
	keepUntilStopped(t, func(script string) llmsh.Result { return run(t, s, script) }, "llmsh: memory limit exceeded (32 MiB)")
}

// stuckForTest is a command of this test binary (and so of its isolated
// sessions' processes) that works for a minute without looking at its
// run's context, as any work that cannot be stopped midway would (the
// extended pattern over a long value this test used stops since session
// 18).
var _ = func() struct{} {
	builtins.Register(builtins.Builtin{Name: "llmsh-test-stuck", Summary: "ignore the context for a minute (tests)",
		Run: func(*builtins.Env) int {
			time.Sleep(time.Minute)
			return 0
		}})
	return struct{}{}
}()

// TestIsolatedStuckRun: a Run whose time limit passes while the shell is
// deep in work that does not look at its context (llmsh-test-stuck) ends
// the session's process a moment later, as the llmsh command ends itself,
// instead of keeping the session busy and a CPU burning for good (serve
// and mcp run their sessions so): ErrCrashed with llmsh's line, and Reset
// starts the session anew.
func TestIsolatedStuckRun(t *testing.T) {
	t.Parallel()
	s := newIsolated(t, llmsh.Options{Timeout: 500 * time.Millisecond})
	res, err := s.Run(context.Background(), `llmsh-test-stuck; echo never`, nil)
	if !errors.Is(err, llmsh.ErrCrashed) || !strings.Contains(err.Error(), "llmsh: the script did not stop when its run was cancelled") {
		t.Fatalf("Run: %+v, %v; want ErrCrashed saying the script did not stop", res, err)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if r := run(t, s, `echo again`); r.Stdout != "again\n" {
		t.Errorf("after Reset: %+v", r)
	}
}

// TestIsolatedParallelFileCalls: ReadFile and Stat answer while a Run is in
// progress, from several goroutines.
func TestIsolatedParallelFileCalls(t *testing.T) {
	t.Parallel()
	s := newIsolated(t, llmsh.Options{})
	run(t, s, `echo data > /f`)
	started := &signalReader{text: "go\n", read: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Run(context.Background(), `read x; while [ ! -e /stop ]; do :; done`, started)
	}()
	<-started.read
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if b, err := s.ReadFile("/f"); err != nil || string(b) != "data\n" {
				t.Errorf("ReadFile = %q, %v", b, err)
			}
		}()
	}
	wg.Wait()
	s.Close() // cancels the Run
	<-done
}

func newIsolated(t *testing.T, o llmsh.Options) *llmsh.Session {
	t.Helper()
	o.Isolated = true
	s, err := llmsh.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
