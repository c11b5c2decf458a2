package builtins_test

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// Statuses and messages checked against GNU coreutils 9.1 timeout
// (LC_ALL=C); "llmsh: X: command not found" is the shell's wording where
// GNU says "timeout: failed to run command 'X': No such file or directory".
func TestTimeout(t *testing.T) {
	t.Parallel()
	try := "Try 'timeout --help' for more information.\n"
	runExecCases(t, []execCase{
		{"runs", nil, "", []string{"timeout", "5", "echo", "hi"}, "hi\n", "", 0},
		{"suffix", nil, "", []string{"timeout", "0.1m", "echo", "-n", "x"}, "x", "", 0},
		{"exponent", nil, "", []string{"timeout", "1e1", "echo", "y"}, "y\n", "", 0},
		{"zero is no limit", nil, "", []string{"timeout", "0", "echo", "z"}, "z\n", "", 0},
		{"status passes", map[string]string{}, "", []string{"timeout", "5", "cat", "nope"}, "", "cat: nope: No such file or directory\n", 1},
		{"stdin passes", nil, "abc\n", []string{"timeout", "5", "tr", "a-z", "A-Z"}, "ABC\n", "", 0},
		{"options after duration belong to the command", nil, "", []string{"timeout", "5", "echo", "-s", "x"}, "-s x\n", "", 0},
		{"no operands", nil, "", []string{"timeout"}, "", try, 125},
		{"no command", nil, "", []string{"timeout", "1"}, "", try, 125},
		{"bad duration", nil, "", []string{"timeout", "x", "echo"}, "", "timeout: invalid time interval 'x'\n" + try, 125},
		{"negative duration", nil, "", []string{"timeout", "-1", "echo"}, "", "timeout: invalid option -- '1'\n" + try, 125},
		{"bad signal", nil, "", []string{"timeout", "-s", "FOO", "1", "echo"}, "", "timeout: 'FOO': invalid signal\n" + try, 125},
		{"bad kill-after", nil, "", []string{"timeout", "-k", "x", "1", "echo"}, "", "timeout: invalid time interval 'x'\n" + try, 125},
		{"unknown command", nil, "", []string{"timeout", "1", "nope"}, "", "llmsh: nope: command not found\n", 127},
		{"host program refused", nil, "", []string{"timeout", "1", "/bin/echo", "hi"}, "", "llmsh: /bin/echo: command not found\n", 127},
	})
}

// TestTimeoutFires shows the command is cancelled: sleep 10 ends as soon
// as the 0.1 s limit fires. The parent context's 5 s deadline is the
// measure: if timeout waited for sleep, it would have expired.
func TestTimeoutFires(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args   []string
		err    string
		status int
	}{
		{[]string{"timeout", "0.1", "sleep", "10"}, "", 124},
		{[]string{"timeout", "--preserve-status", "0.1", "sleep", "10"}, "", 143},
		{[]string{"timeout", "-s", "INT", "--preserve-status", "0.1", "sleep", "10"}, "", 130},
		{[]string{"timeout", "-s", "KILL", "0.1", "sleep", "10"}, "", 137},
		{[]string{"timeout", "-s", "9", "0.1", "sleep", "10"}, "", 137},
		{[]string{"timeout", "-s", "sigint", "0.1", "sleep", "10"}, "", 124},
		{[]string{"timeout", "-v", "0.1", "sleep", "10"}, "timeout: sending signal TERM to command 'sleep'\n", 124},
		{[]string{"timeout", "-v", "-s", "HUP", "0.001", "sleep", "10"}, "timeout: sending signal HUP to command 'sleep'\n", 124},
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		e := newExecEnv(t, ctx, nil, "", c.args...)
		got := e.run()
		if ctx.Err() != nil {
			t.Errorf("%q: still running after 5s: the command was not cancelled", c.args)
		}
		cancel()
		if got.status != c.status || got.stderr != c.err || got.stdout != "" {
			t.Errorf("%q: got %q %q %d, want %q %d", c.args, got.stdout, got.stderr, got.status, c.err, c.status)
		}
	}
}

// TestTimeoutKillAfter: a command that ignores its cancellation is
// abandoned after -k, with status 137, and its later output is dropped.
func TestTimeoutKillAfter(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	wrote := make(chan error, 1)
	e := newExecEnv(t, context.Background(), nil, "", "timeout", "-k", "0.05", "0.05", "stubborn")
	e.extra["stubborn"] = func(env *Env) int {
		<-release // ignores env.Ctx on purpose
		_, err := env.Stdout.Write([]byte("late\n"))
		wrote <- err
		return 0
	}
	got := e.run()
	close(release)
	if err := <-wrote; !IsBrokenPipe(err) {
		t.Errorf("late write: %v, want a broken pipe", err)
	}
	if got.status != 137 || got.stdout != "" || got.stderr != "" {
		t.Errorf("got %q %q %d, want 137 quietly", got.stdout, got.stderr, got.status)
	}
}

// TestTimeoutParentCancelled: when timeout itself is cancelled, the
// command is too, and timeout returns its status.
func TestTimeoutParentCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := newExecEnv(t, ctx, nil, "", "timeout", "100", "sleep", "100")
	if got := e.run(); got.status != 1 {
		t.Errorf("got status %d, want sleep's 1", got.status)
	}
}

func TestEcho(t *testing.T) {
	t.Parallel()
	// Checked against GNU coreutils 9.1 /bin/echo.
	runExecCases(t, []execCase{
		{"plain", nil, "", []string{"echo", "a", "b"}, "a b\n", "", 0},
		{"none", nil, "", []string{"echo"}, "\n", "", 0},
		{"-n", nil, "", []string{"echo", "-n", "x"}, "x", "", 0},
		{"not an option", nil, "", []string{"echo", "-nx", "y"}, "-nx y\n", "", 0},
		{"dashdash", nil, "", []string{"echo", "--", "-n"}, "-- -n\n", "", 0},
		{"escapes off", nil, "", []string{"echo", `a\tb`}, `a\tb` + "\n", "", 0},
		{"escapes", nil, "", []string{"echo", "-e", `a\101b\0101c\x41\xg\q\cZ`}, `aAbAcA\xg\q`, "", 0},
		{"-E wins last", nil, "", []string{"echo", "-eE", `a\tb`}, `a\tb` + "\n", "", 0},
	})
}

// TestTimeoutBlockedRead: a command blocked reading a pipe that never
// delivers still ends when the limit fires (the pipe is never written).
func TestTimeoutBlockedRead(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	pr, pw := io.Pipe()
	defer pw.Close()
	e := newExecEnv(t, ctx, nil, "", "timeout", "0.1", "cat")
	e.Stdin = pr
	got := e.run()
	if ctx.Err() != nil {
		t.Fatal("timeout waited for the blocked read")
	}
	if got.status != 124 || got.stdout != "" || got.stderr != "" {
		t.Errorf("got %q %q %d, want 124 quietly", got.stdout, got.stderr, got.status)
	}
}

// TestTimeoutStdinNotOverread: the command's input is read only as the
// command asks; what it leaves stays for the next reader.
func TestTimeoutStdinNotOverread(t *testing.T) {
	t.Parallel()
	in := strings.NewReader("first\nsecond\n")
	e := newExecEnv(t, context.Background(), nil, "", "timeout", "5", "onebyte")
	e.Stdin = in
	e.extra["onebyte"] = func(env *Env) int {
		b := make([]byte, 1)
		n, err := env.Stdin.Read(b)
		if n != 1 || err != nil || b[0] != 'f' {
			return 2
		}
		return 0
	}
	if got := e.run(); got.status != 0 {
		t.Fatalf("status %d", got.status)
	}
	if rest, _ := io.ReadAll(in); string(rest) != "irst\nsecond\n" {
		t.Errorf("left %q", rest)
	}
}
