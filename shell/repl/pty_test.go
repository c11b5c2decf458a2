package repl_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// llmshBin is the real llmsh binary, built once for these tests.
var llmshBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "llmsh-repl-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	llmshBin = filepath.Join(dir, "llmsh")
	// The static build the README recommends, as cmd/llmsh's tests build
	// it: the two share what the build cache holds (a default cgo build
	// besides cost 28 s more CPU from a cold cache).
	build := exec.Command("go", "build", "-o", llmshBin, "github.com/llmsh/llmsh/cmd/llmsh")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building llmsh:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// session is llmsh running on a pseudo-terminal.
type session struct {
	t    *testing.T
	pty  *os.File
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	pos  int           // expect searches from here
	more chan struct{} // signalled on every read
	done chan struct{} // closed when the terminal is closed by the child
	wait chan error
}

// env is a child environment with its own HOME and XDG_STATE_HOME.
func env(state string, extra ...string) []string {
	return append([]string{"HOME=" + state, "XDG_STATE_HOME=" + filepath.Join(state, "xdg"), "TERM=xterm", "PATH=/nonexistent"}, extra...)
}

func start(t *testing.T, dir string, environ []string, args ...string) *session {
	t.Helper()
	cmd := exec.Command(llmshBin, args...)
	cmd.Dir = dir
	cmd.Env = environ
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	return watch(t, f, cmd)
}

// watch reads f (the terminal's master, or a pipe) into a session; with
// cmd, the session also waits for it and kills it at the test's end.
func watch(t *testing.T, f *os.File, cmd *exec.Cmd) *session {
	s := &session{t: t, pty: f, cmd: cmd, more: make(chan struct{}, 1), done: make(chan struct{}), wait: make(chan error, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			s.mu.Unlock()
			select {
			case s.more <- struct{}{}:
			default:
			}
			if err != nil {
				close(s.done)
				return
			}
		}
	}()
	if cmd == nil {
		t.Cleanup(func() { f.Close() })
		return s
	}
	go func() { s.wait <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		f.Close()
	})
	return s
}

// startSplit is start with llmsh's stderr (its prompts, line editing and
// messages) on a pipe, read as a session of its own (errs); its stdin
// and stdout are the terminal (term).
func startSplit(t *testing.T, dir string, environ []string, args ...string) (term, errs *session) {
	t.Helper()
	cmd := exec.Command(llmshBin, args...)
	cmd.Dir = dir
	cmd.Env = environ
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 50, Cols: 200}); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	err = cmd.Start()
	tty.Close()
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return watch(t, ptmx, cmd), watch(t, r, nil)
}

func (s *session) send(text string) {
	s.t.Helper()
	if _, err := io.WriteString(s.pty, text); err != nil {
		s.t.Fatalf("writing %q: %v", text, err)
	}
}

// expect waits until the output after the last match contains want, and
// returns what came before it.
func (s *session) expect(want string, within time.Duration) string {
	s.t.Helper()
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		rest := s.out.String()[s.pos:]
		if i := strings.Index(rest, want); i >= 0 {
			s.pos += i + len(want)
			s.mu.Unlock()
			return rest[:i]
		}
		s.mu.Unlock()
		select {
		case <-s.more:
		case <-s.done:
			s.mu.Lock()
			rest = s.out.String()[s.pos:]
			s.mu.Unlock()
			if strings.Contains(rest, want) {
				continue
			}
			s.t.Fatalf("terminal closed before %q appeared; after the last match:\n%q", want, rest)
		case <-deadline.C:
			s.mu.Lock()
			rest = s.out.String()[s.pos:]
			s.mu.Unlock()
			s.t.Fatalf("%q did not appear within %v; after the last match:\n%q", want, within, rest)
		}
	}
}

// all returns everything the terminal has shown.
func (s *session) all() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// exitStatus waits for llmsh to end and returns its exit status.
func (s *session) exitStatus(within time.Duration) int {
	s.t.Helper()
	select {
	case err := <-s.wait:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			s.t.Fatal(err)
		}
		return 0
	case <-time.After(within):
		s.t.Fatalf("llmsh did not exit within %v; output:\n%q", within, s.all())
		return -1
	}
}

const wait = 10 * time.Second

// prompt is the end of the default prompt.
const prompt = "$ "

func TestPipeline(t *testing.T) {
	dir := t.TempDir()
	s := start(t, dir, env(t.TempDir()), "--no-history")
	s.expect("type help", wait)
	s.expect(prompt, wait)
	s.send("echo hello world | tr a-z A-Z\r")
	s.expect("HELLO WORLD\r\n", wait)
	s.expect(prompt, wait)
	s.send("exit 3\r")
	if st := s.exitStatus(wait); st != 3 {
		t.Fatalf("exit status %d, want 3", st)
	}
}

func TestMultiLineFor(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	s.send("for i in a b c\r")
	s.expect("> ", wait)
	s.send("do echo item-$i\r")
	s.expect("> ", wait)
	s.send("done\r")
	s.expect("item-a\r\nitem-b\r\nitem-c\r\n", wait)
	s.expect(prompt, wait)
	s.send("\x04") // Ctrl-D leaves
	if st := s.exitStatus(wait); st != 0 {
		t.Fatalf("exit status %d", st)
	}
}

func TestCtrlCInterruptsCommand(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	s.send("echo started; sleep 30\r")
	s.expect("started\r\n", wait) // the command runs (and the terminal is in its normal mode)
	sent := time.Now()
	s.send("\x03")
	s.expect("[130]", wait)
	if d := time.Since(sent); d > time.Second {
		t.Fatalf("the prompt came back after %v", d)
	}
	// A loop of the interpreter's own commands stops too, and the
	// session goes on.
	s.send("while true; do :; done\r")
	s.expect("done\r\n", wait)
	s.send("\x03")
	s.expect("[130]", wait)
	// $? agrees with the prompt (it printed 1).
	s.send("echo \"st=$?\"\r")
	s.expect("st=130\r\n", wait)
	s.send("echo still-here\r")
	s.expect("still-here\r\n", wait)
	s.send("exit\r")
	if st := s.exitStatus(wait); st != 0 {
		t.Fatalf("exit status %d", st)
	}
}

func TestCtrlCAtPromptClearsLine(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	s.send("echo never-run")
	s.expect("never-run", wait)
	s.send("\x03")
	s.expect("^C", wait)
	s.expect(prompt, wait)
	s.send("echo ran\r")
	out := s.expect("ran\r\n", wait)
	if strings.Contains(out, "never-run") {
		t.Fatalf("the cleared line ran: %q", out)
	}
}

func TestHistorySurvivesRestart(t *testing.T) {
	state := t.TempDir()
	s := start(t, t.TempDir(), env(state))
	s.expect(prompt, wait)
	s.send("echo remembered-1\r")
	s.expect("remembered-1\r\n", wait)
	s.send("for x in 1 2\r")
	s.expect("> ", wait)
	s.send("do echo $x; done\r")
	s.expect(prompt, wait)
	s.send("exit\r")
	s.exitStatus(wait)

	data, err := os.ReadFile(filepath.Join(state, "xdg", "llmsh", "history"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "echo remembered-1\n") {
		t.Fatalf("history file: %q", data)
	}

	s = start(t, t.TempDir(), env(state))
	s.expect(prompt, wait)
	s.send("history\r")
	s.expect("history\r\n", wait)
	out := s.expect("4  history\r\n", wait) + "4  history"
	s.expect(prompt, wait)
	for _, want := range []string{"1  echo remembered-1", "2  for x in 1 2; do echo $x; done", "3  exit", "4  history"} {
		if !strings.Contains(out, want) {
			t.Fatalf("history lists %q; want %q in it", out, want)
		}
	}
	// Up arrow recalls the previous session's line for editing.
	s.send("\x1b[A\x1b[A\x1b[A\x1b[A\r")
	s.expect("remembered-1\r\n", wait)
}

func TestNoHistoryWritesNothing(t *testing.T) {
	state := t.TempDir()
	s := start(t, t.TempDir(), env(state), "--no-history")
	s.expect(prompt, wait)
	s.send("echo x\r")
	s.expect(prompt, wait)
	s.send("exit\r")
	s.exitStatus(wait)
	if _, err := os.Stat(filepath.Join(state, "xdg", "llmsh", "history")); !os.IsNotExist(err) {
		t.Fatalf("history file exists with --no-history: %v", err)
	}
}

func TestCompletion(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "granted-notes.txt"), []byte("note line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, dir, env(t.TempDir()), "--no-history", "-i", dir)
	s.expect(prompt, wait)
	s.send("hea\t")
	s.expect("head ", wait)
	s.send("gra\t")
	s.expect("granted-notes.txt ", wait)
	s.send("\r")
	s.expect("note line\r\n", wait)
	s.expect(prompt, wait)
	// A path through the grant from outside it, and a variable name.
	s.send("cd /\r")
	s.expect(prompt, wait)
	s.send("cat " + dir + "/gr\t")
	s.expect("granted-notes.txt ", wait)
	s.send("\r")
	s.expect("note line\r\n", wait)
	s.send("myvariable=42\r")
	s.expect(prompt, wait)
	s.send("echo $myvar\t")
	s.expect("$myvariable ", wait)
	s.send("\r")
	s.expect("42\r\n", wait)
	// Options of the builtin being typed, from its --help.
	s.send("sort --rev\t")
	s.expect("--reverse ", wait)
}

// sgr matches a colour escape (Select Graphic Rendition).
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func TestNoColor(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir(), "NO_COLOR=1"), "--no-history")
	s.expect(prompt, wait)
	s.send("false\r")
	s.expect("[1]$ ", wait)
	s.send("echo 'unclosed\r")
	s.expect("> ", wait)
	s.send("\x04")
	s.expect("llmsh: unexpected EOF while looking for matching `''", wait)
	// $? after a syntax error is the prompt's 2, as bash's.
	s.send("echo \"st=$?\"\r")
	s.expect("st=2\r\n", wait)
	s.send("false\r")
	s.expect("[1]$ ", wait)
	s.send("done\r")
	s.expect("llmsh: syntax error near unexpected token `done'\r\n  done\r\n  ^", wait)
	s.send("echo \"st=$?\"\r")
	s.expect("st=2\r\n", wait)
	s.send("exit\r")
	s.exitStatus(wait)
	if m := sgr.FindString(s.all()); m != "" {
		t.Fatalf("colour escape %q with NO_COLOR:\n%q", m, s.all())
	}
}

func TestColorAndSyntaxError(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	s.send("echo a |; echo b\r")
	s.expect("\x1b[31mllmsh: syntax error near unexpected token `;'", wait)
	s.expect("\x1b[31;1m[2]\x1b[0;22m$ ", wait) // the status, in red
	s.send("echo after\r")                      // the session goes on
	s.expect("after\r\n", wait)
}

func TestPromptAndSession(t *testing.T) {
	dir := t.TempDir()
	s := start(t, dir, env(t.TempDir()), "--no-history", "--color=never", "-o", dir)
	banner := s.expect(prompt, wait)
	if !strings.Contains(banner, "writable: "+dir) || !strings.Contains(banner, "llmsh ") {
		t.Fatalf("banner: %q", banner)
	}
	s.send(`PS1='[\u@\h \W]\$ '` + "\r")
	s.expect("[llmsh@llmsh "+filepath.Base(dir)+"]$ ", wait)
	s.send("cd /tmp; f() { echo in-f; }; x=kept\r")
	s.expect("[llmsh@llmsh tmp]$ ", wait)
	s.send("f; echo $x; echo virtual > /tmp/v.txt\r")
	s.expect("in-f\r\nkept\r\n", wait)
	s.send("cat /tmp/v.txt\r")
	s.expect("virtual\r\n", wait)
	s.send("help\r")
	s.expect("Commands (each takes --help):", wait) // llmsh's help, not the interpreter's
	s.expect(prompt, wait)
	s.send("echo $HOME $USER\r")
	s.expect("/home/llmsh llmsh\r\n", wait)
	s.expect(prompt, wait)
	s.send("\x04")
	s.expect("discarded virtual files: /tmp/v.txt", wait)
	s.exitStatus(wait)
}

func TestHistoryOutsideREPL(t *testing.T) {
	// As in a bash script: the history is off and empty, but history -s
	// adds to it.
	out, err := exec.Command(llmshBin, "-c", "history; history -c; history 3; echo $?; history -p 'a b' c; history x; echo $?; history -s y; history").CombinedOutput()
	want := "0\na b\nc\nllmsh: line 1: history: x: numeric argument required\n1\n    1  y\n"
	if err != nil || string(out) != want {
		t.Fatalf("history outside the REPL: %v %q", err, out)
	}
}

func TestCommandsReadTheTerminal(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	// "ready" shows that the command runs, so the terminal is in its
	// normal mode and echoes what is typed.
	s.send("echo ready; read -r x; echo got:$x\r")
	s.expect("\r\nready\r\n", wait)
	s.send("typed line\r")
	s.expect("got:typed line\r\n", wait)
	s.expect(prompt, wait)
	// cat reads until Ctrl-D, which ends its input, not the session.
	s.send("echo ready; cat | tr a-z A-Z\r")
	s.expect("\r\nready\r\n", wait)
	s.send("shout\r")
	s.expect("shout\r\n", wait) // the terminal's echo
	s.send("\x04")
	s.expect("SHOUT\r\n", wait)
	s.expect(prompt, wait)
	s.send("echo after-cat\r")
	s.expect("\r\nafter-cat\r\n", wait)
	s.expect(prompt, wait)
	// Ctrl-C while a command waits for the terminal.
	s.send("echo ready; cat\r")
	s.expect("\r\nready\r\n", wait)
	s.send("\x03")
	s.expect("[130]", wait)
	s.send("echo after-interrupt\r")
	s.expect("after-interrupt\r\n", wait)
}

// TestStdinIsTheTerminal: a command line's stdin is the terminal, as in
// bash: [ -t 0 ] is true and read -p shows its prompt; a pipe or a
// redirection is not.
func TestStdinIsTheTerminal(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	s.send("[ -t 0 ] && echo is-a-tty; echo x | { [ -t 0 ] || echo piped; }\r")
	s.expect("\r\nis-a-tty\r\npiped\r\n", wait)
	s.expect(prompt, wait)
	s.send("read -p 'name? ' n; echo hi:$n\r")
	s.expect("name? ", wait)
	s.send("ann\r")
	s.expect("hi:ann\r\n", wait)
	s.expect(prompt, wait)
	s.send("f() { read -p 'in-f? ' v; echo v:$v; }; f; [[ -t 0 ]] </dev/null || echo redirected\r")
	s.expect("in-f? ", wait)
	s.send("x\r")
	s.expect("v:x\r\nredirected\r\n", wait)
	s.expect(prompt, wait)
	if runtime.GOOS != "linux" {
		return
	}
	// read -s: the terminal does not echo what is typed.
	s.send("read -s -p 'pw? ' pw; echo; echo got:$pw\r")
	// read's own prompt, after the line's end: the redrawn command line
	// holds "pw? " too, and typing before read turns echo off shows it.
	s.expect("\r\npw? ", wait)
	s.send("hush\r")
	if shown := s.expect("got:hush\r\n", wait); strings.Contains(shown, "hush") {
		t.Errorf("read -s echoed what was typed: %q", shown)
	}
	s.expect(prompt, wait)
	s.send("echo typed-back\r")
	s.expect("echo typed-back\r\n", wait) // the prompt echoes again
}

func TestRefusedInputEndsCommandNotSession(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history", "--color=never")
	s.expect(prompt, wait)
	s.send("x=1; echo " + strings.Repeat("{", 1001) + "\r")
	s.expect("nested too deeply", wait)
	s.expect("[2]$ ", wait)
	s.send("echo alive:$x\r")
	s.expect("\r\nalive:\r\n", wait) // nothing of the refused line ran
	s.send("exit 0\r")
	if st := s.exitStatus(wait); st != 0 {
		t.Fatalf("exit status %d", st)
	}
}

func TestTypeAheadReachesThePrompt(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	s.send("echo started; sleep 1\r")
	s.expect("started\r\n", wait)
	s.send("echo typed-ahead\r")          // while sleep runs and does not read
	s.expect("\r\ntyped-ahead\r\n", wait) // the output, not the echo
}

func TestExitTrapRunsOnceAtTheEnd(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	s.send("trap 'echo trap-ran' EXIT\r")
	s.expect(prompt, wait)
	s.send("echo one; history | tail -n 1\r")
	out := s.expect("\r\none\r\n    2  echo one; history | tail -n 1\r\n", wait)
	s.expect(prompt, wait)
	if strings.Contains(out, "trap-ran\r\n") {
		t.Fatalf("the EXIT trap ran after a line: %q", out)
	}
	s.send("\x04")
	s.expect("trap-ran\r\n", wait)
	if st := s.exitStatus(wait); st != 0 {
		t.Fatalf("exit status %d", st)
	}
	if n := strings.Count(s.all(), "trap-ran\r\n"); n != 1 {
		t.Fatalf("the EXIT trap ran %d times:\n%q", n, s.all())
	}
}

// TestLimitsEndTheLineNotTheSession: --timeout, --max-output and
// --max-commands apply to each command line; one that fires ends that
// line with a message and a status, and the next line runs with a fresh
// budget in the same session.
func TestLimitsEndTheLineNotTheSession(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history", "--color=never", "--timeout", "1s")
	s.expect(prompt, wait)
	s.send("x=kept; echo started; sleep 5\r")
	s.expect("started\r\n", wait)
	s.expect("llmsh: timed out after 1s\r\n", wait)
	s.expect("[124]$ ", wait)
	s.send("echo ok-1 $x\r")
	s.expect("\r\nok-1 kept\r\n", wait)
	s.expect(prompt, wait)
	// A command reading the terminal is stopped too, and what is typed
	// next goes to the prompt.
	s.send("echo reading; cat\r")
	s.expect("\r\nreading\r\n", wait)
	s.expect("llmsh: timed out after 1s\r\n", wait)
	s.expect("[124]$ ", wait)
	s.send("echo ok-$((1+1))\r")
	s.expect("\r\nok-2\r\n", wait)
	s.expect(prompt, wait)
	s.send("exit\r")
	if st := s.exitStatus(wait); st != 0 {
		t.Fatalf("exit status %d, want 0", st)
	}

	s = start(t, t.TempDir(), env(t.TempDir()), "--no-history", "--color=never", "--max-output", "1000", "--max-commands", "10000")
	s.expect(prompt, wait)
	s.send("yes\r")
	s.expect("llmsh: output limit exceeded (1000 bytes)\r\n", wait)
	s.expect("[125]$ ", wait)
	s.send("echo ok-2\r")
	s.expect("\r\nok-2\r\n", wait)
	s.expect(prompt, wait)
	s.send("while true; do :; done\r")
	s.expect("llmsh: limit exceeded: more than 10000 commands\r\n", wait)
	s.expect("[125]$ ", wait)
	s.send("f() { f; }; f\r")
	s.expect("llmsh: limit exceeded: maximum call depth exceeded\r\n", wait)
	s.expect("[125]$ ", wait)
	// Each line has the whole budget again: 600 bytes twice, and more
	// commands than one line may run.
	for i := 0; i < 2; i++ {
		s.send("for i in $(seq 20); do echo 012345678901234567890123456789; done | wc -c\r")
		s.expect("\r\n620\r\n", wait)
		s.expect(prompt, wait)
	}
	for i := 0; i < 2; i++ {
		s.send("i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; echo counted $i\r")
		s.expect("\r\ncounted 3000\r\n", wait)
		s.expect(prompt, wait)
	}
	s.send("exit 4\r")
	if st := s.exitStatus(wait); st != 4 {
		t.Fatalf("exit status %d, want 4", st)
	}
}

// TestLimitEndsHeldWrite: a command line whose write to the terminal is
// held by ^S (XOFF) ends at its time limit all the same, as a signal
// ends bash's command held there (session 28: the write waited, and the
// line ran on past its limit, until ^Q). llmsh's stderr is a pipe here,
// so its message shows while the terminal is held; the command says
// "ready" and waits for a line, so that ^S is typed while the terminal
// is in its normal mode (at the prompt it is a key for the editor).
func TestLimitEndsHeldWrite(t *testing.T) {
	term, errs := startSplit(t, t.TempDir(), env(t.TempDir()), "--no-history", "--color=never", "--timeout", "3s")
	errs.expect(prompt, wait)
	// a command's write, then the shell's own echo
	for _, line := range []string{"echo ready; read x; yes\r", "echo ready; read x; while :; do echo y; done\r"} {
		term.send(line)
		term.expect("ready\r\n", wait)
		term.send("\x13go\r")
		// held for good without the fix: only the guard's 60 s end it
		if before := errs.expect("llmsh: timed out after 3s\n", 60*time.Second); strings.Contains(before, "timeout") {
			t.Errorf("the ended write was reported: %q", before)
		}
		errs.expect("[124]$ ", wait)
	}
	term.send("echo after\r")
	term.expect("after\r\n", wait)
	errs.expect(prompt, wait)
	term.send("exit 5\r")
	if st := term.exitStatus(wait); st != 5 {
		t.Fatalf("exit status %d, want 5", st)
	}
}

// TestBuiltinsFollowColorChoice: grep --color=auto colours on the
// terminal, and not with NO_COLOR, with --color=never or into a pipe;
// --color=always makes it colour into a pipe too.
func TestBuiltinsFollowColorChoice(t *testing.T) {
	csi := regexp.MustCompile(`\x1b\[[0-9;]*[mK]`)      // grep's colours and erase-line
	const match = "\x1b[01;31m\x1b[Kneedle\x1b[m\x1b[K" // GNU grep's default mt=01;31
	for _, tc := range []struct {
		name    string
		environ []string
		args    []string
		colour  bool // grep --color=auto on the terminal
		piped   bool // grep --color=auto | cat
	}{
		{"auto", nil, nil, true, false},
		{"NO_COLOR", []string{"NO_COLOR=1"}, nil, false, false},
		{"never", nil, []string{"--color=never"}, false, false},
		{"always", []string{"NO_COLOR=1"}, []string{"--color=always"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, t.TempDir(), env(t.TempDir(), tc.environ...), append([]string{"--no-history"}, tc.args...)...)
			s.expect(prompt, wait)
			s.send("echo hay-needle-hay | grep --color=auto needle; echo end-$((1))\r")
			s.expect("end-$((1))", wait) // the typed line
			out := s.expect("end-1\r\n", wait)
			if got := strings.Contains(out, match); got != tc.colour {
				t.Fatalf("coloured %v, want %v: %q", got, tc.colour, out)
			}
			if !strings.Contains(csi.ReplaceAllString(out, ""), "hay-needle-hay\r\n") {
				t.Fatalf("grep's line is missing: %q", out)
			}
			s.send("echo hay-needle-hay | grep --color=auto needle | cat; echo end-$((2))\r")
			s.expect("end-$((2))", wait)
			out = s.expect("end-2\r\n", wait)
			if got := strings.Contains(out, match); got != tc.piped {
				t.Fatalf("piped: coloured %v, want %v: %q", got, tc.piped, out)
			}
			// An explicit --color=always or never is grep's own choice.
			s.send("echo hay-needle-hay | grep --color=always needle | cat; echo hay-needle-hay | grep --color=never needle; echo end-$((3))\r")
			s.expect("end-$((3))", wait)
			out = s.expect("end-3\r\n", wait)
			if strings.Count(out, match) != 1 {
				t.Fatalf("grep --color=always/never: %q", out)
			}
		})
	}
}

// TestHistoryNotReadableByScripts: the history file is llmsh's own state;
// a grant that covers it (here the whole state directory, read-write) does
// not let a command read, copy or overwrite it, by its name or a link.
func TestHistoryNotReadableByScripts(t *testing.T) {
	state := t.TempDir()
	histDir := filepath.Join(state, "xdg", "llmsh")
	if err := os.MkdirAll(histDir, 0o700); err != nil {
		t.Fatal(err)
	}
	hist := filepath.Join(histDir, "history")
	if err := os.WriteFile(hist, []byte("echo earlier-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(hist, filepath.Join(state, "link")); err != nil {
		t.Fatal(err)
	}
	s := start(t, state, env(state), "--color=never", "-o", state)
	s.expect(prompt, wait)
	s.send("cat xdg/llmsh/history link; echo status=$?\r")
	out := s.expect("status=1\r\n", wait)
	if strings.Count(out, "Permission denied") != 2 || strings.Contains(out, "earlier-secret\r\n") {
		t.Fatalf("reading the history: %q", out)
	}
	s.send("echo overwritten > xdg/llmsh/history; echo status=$?\r")
	s.expect("status=1\r\n", wait)
	s.send("history 1\r")
	s.expect("    4  history 1\r\n", wait) // the REPL's own view is whole
	s.send("exit\r")
	s.exitStatus(wait)
	data, err := os.ReadFile(hist)
	if err != nil || !strings.HasPrefix(string(data), "echo earlier-secret\ncat xdg/llmsh/history link; echo status=$?\n") {
		t.Fatalf("history file: %q %v", data, err)
	}
}

// TestContinuationPrompts: an open quote, a here-document, a trailing pipe
// and a trailing backslash each get the continuation prompt, as in bash.
func TestContinuationPrompts(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history", "--color=never")
	s.expect(prompt, wait)
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"echo 'open", "quote'"}, "open\r\nquote\r\n"},
		{[]string{"tr a-z A-Z <<EOF", "here doc", "EOF"}, "HERE DOC\r\n"},
		{[]string{"echo piped |", "tr a-z A-Z"}, "PIPED\r\n"},
		{[]string{"echo back\\", "slash"}, "backslash\r\n"},
		{[]string{"for w in x y; do", "echo w-$w", "done"}, "w-x\r\nw-y\r\n"},
	} {
		for i, l := range tc.lines {
			s.send(l + "\r")
			if i < len(tc.lines)-1 {
				s.expect("\r> ", wait) // the prompt, redrawn at the start of a line
			}
		}
		s.expect("\r\n"+tc.want, wait)
		s.expect(prompt, wait)
	}
}

// TestAliasOpensCommand: an alias whose value opens a command (a `{`, a
// quote) makes the prompt read on, as bash's (PS2), until later lines
// close it; the command then runs as bash reads it.
func TestAliasOpensCommand(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history", "--color=never")
	s.expect(prompt, wait)
	s.send("alias br='{ echo in'; alias q='echo \"open'\r")
	s.expect(prompt, wait)
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"br", "echo mid", "}"}, "in\r\nmid\r\n"},
		{[]string{"q", "close\""}, "open\r\nclose\r\n"},
	} {
		for i, l := range tc.lines {
			s.send(l + "\r")
			if i < len(tc.lines)-1 {
				s.expect("\r> ", wait)
			}
		}
		s.expect("\r\n"+tc.want, wait)
		s.expect(prompt, wait)
	}
	s.send("echo after-$?\r")
	s.expect("after-0\r\n", wait)
}

// TestHistoryFallsBackToHome: without XDG_STATE_HOME the history is
// ~/.local/state/llmsh/history.
func TestHistoryFallsBackToHome(t *testing.T) {
	home := t.TempDir()
	s := start(t, t.TempDir(), []string{"HOME=" + home, "TERM=xterm", "PATH=/nonexistent"}, "--color=never")
	s.expect(prompt, wait)
	s.send("echo in-home-history\r")
	s.expect("\r\nin-home-history\r\n", wait)
	s.send("exit\r")
	s.exitStatus(wait)
	data, err := os.ReadFile(filepath.Join(home, ".local", "state", "llmsh", "history"))
	if err != nil || string(data) != "echo in-home-history\nexit\n" {
		t.Fatalf("history file: %q %v", data, err)
	}
}

// TestCompletionOfVirtualFiles: a virtual file (written outside every
// grant) completes like a real one, through vfsd's list.
func TestCompletionOfVirtualFiles(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history", "--color=never")
	s.expect(prompt, wait)
	s.send("echo kept-virtually > /tmp/llmsh-virtual-only.txt\r")
	s.expect(prompt, wait)
	s.send("cat /tmp/llmsh-virtual-o\t")
	s.expect("cat /tmp/llmsh-virtual-only.txt ", wait)
	s.send("\r")
	s.expect("\r\nkept-virtually\r\n", wait)
}

// TestCtrlCAtContinuationPrompt: Ctrl-C drops the unfinished command and
// returns to the primary prompt; nothing of it runs.
func TestCtrlCAtContinuationPrompt(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history", "--color=never")
	s.expect(prompt, wait)
	s.send("for i in 1 2; do\r")
	s.expect("\r> ", wait)
	s.send("echo dropped-$i\r")
	s.expect("\r> ", wait)
	s.send("\x03")
	s.expect(prompt, wait)
	s.send("echo fresh-$((6*7))-$?\r")
	// $? is 130 after Ctrl-C at any prompt, as in bash.
	out := s.expect("\r\nfresh-42-130\r\n", wait)
	if strings.Contains(out, "dropped-1") {
		t.Fatalf("the dropped loop ran: %q", out)
	}
}

// Ctrl-C while a completion list or a history search is shown clears the
// line, as it does at a plain prompt.
func TestCtrlCDuringCompletionAndSearch(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	s.send("ta\t\t") // more than one command starts with "ta": a list
	s.expect("tail", wait)
	s.send("\x03")
	s.expect(prompt, wait)
	s.send("echo hi\r")
	out := s.expect("hi\r\n", wait)
	if strings.Contains(out, "taecho") {
		t.Fatalf("after Ctrl-C in a completion list: %q", out)
	}
	s.expect(prompt, wait) // typed before the prompt, keys meet a cooked terminal
	s.send("echo searched\r")
	s.expect("searched\r\n", wait)
	s.expect(prompt, wait)
	s.send("echo pre\x12sear") // typed text, then a reverse search
	// The search prompt with all four letters: the history line shown
	// ("echo searched") holds "sear" from the first letter on.
	s.expect("bck-i-search: sear", wait)
	s.send("\x03")
	s.expect(prompt, wait)
	s.send("echo two\r")
	out = s.expect("two\r\n", wait)
	if strings.Contains(out, "preecho") || strings.Contains(out, "searchedecho") {
		t.Fatalf("after Ctrl-C in a search: %q", out)
	}
}

// TestInteractiveBuiltins: at the prompt, Tab completes from the specs
// `complete` stores (-W and -F), fc lists and runs again from the
// history, bind lists the line editor's keymap without a warning, and
// suspend and logout refuse as bash's non-login shell.
func TestInteractiveBuiltins(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	s.send("complete -W 'alpha beta alpine' foo\r")
	s.expect(prompt, wait)
	s.send("foo() { echo \"foo got $1\"; }\r")
	s.expect(prompt, wait)
	s.send("foo be\t\r")
	s.expect("foo got beta\r\n", wait)
	s.expect(prompt, wait)
	s.send("_g() { COMPREPLY=(gamma-one gamma-two); }; complete -F _g gg; gg() { echo \"gg got $1\"; }\r")
	s.expect(prompt, wait)
	s.send("gg gamma-t\t\r")
	s.expect("gg got gamma-two\r\n", wait)
	s.expect(prompt, wait)
	s.send("echo first-entry\r")
	s.expect("first-entry\r\n", wait)
	s.expect(prompt, wait)
	s.send("fc -l -1\r")
	s.expect("\t echo first-entry\r\n", wait)
	s.expect(prompt, wait)
	s.send("fc -s first=second echo\r")
	s.expect("echo second-entry\r\nsecond-entry\r\n", wait)
	s.expect(prompt, wait)
	s.send("bind -q beginning-of-line; echo bind=$?\r")
	before := s.expect("bind=0\r\n", wait)
	if !strings.Contains(before, `beginning-of-line can be invoked via "\C-a"`) || strings.Contains(before, "warning") {
		t.Fatalf("bind -q at the prompt printed %q", before)
	}
	s.send("logout; echo logout=$?\r")
	s.expect("logout: not login shell: use `exit'", wait)
	s.expect("logout=1\r\n", wait)
	s.send("suspend; echo suspend=$?\r")
	s.expect("suspend: cannot suspend", wait)
	s.expect("suspend=1\r\n", wait)
	// fg's and bg's errors carry the shell's name, as bash's at a prompt.
	s.send("fg %9; echo fg=$?\r")
	s.expect("\r\nllmsh: fg: %9: no such job\r\nfg=1\r\n", wait)
	s.send("exit\r")
	if st := s.exitStatus(wait); st != 0 {
		t.Fatalf("exit status %d, want 0 (echo's)", st)
	}
}

// TestCtrlZStopsForegroundJob: Ctrl-Z stops the command in the
// foreground and gives the prompt back with bash's report and status
// 148 (the rest of the line runs); jobs shows it stopped; bg continues
// it in the background, fg brings it back (and Ctrl-Z stops it again),
// kill -CONT continues it; wait on a stopped job warns; the first exit
// with a stopped job warns, the second exits. Ctrl-Z at the prompt does
// nothing. Each Ctrl-Z is sent once the command has said it runs.
func TestCtrlZStopsForegroundJob(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	s.send("echo ty\"\"ped\x1a\r")
	s.expect("typed\r\n", wait) // Ctrl-Z at the prompt changed nothing
	s.expect(prompt, wait)
	// The line runs (the terminal is in its normal mode, which echoes
	// what is typed) once "go" is printed; cat runs once it has copied
	// its first line.
	s.send("echo g\"\"o; cat; echo after=$?\r")
	s.expect("go\r\n", wait)
	s.send("hello\r")
	s.expect("hello\r\nhello\r\n", wait) // the terminal's echo, then cat's
	s.send("\x1a")
	s.expect("\r\n[1]+  Stopped                 cat\r\n", wait)
	s.expect("after=148\r\n", wait)
	s.send("kill %1; wait %1; echo \"w=$?\"\r") // kill continues it too
	s.expect("w=143\r\n", wait)
	s.send("sleep 60 &\r")
	s.expect("[1] ", wait)
	s.send("fg\r")
	s.expect("sleep 60\r\n", wait)
	s.send("\x1a")
	s.expect("\r\n[1]+  Stopped                 sleep 60\r\n", wait)
	s.expect("[148]", wait)
	s.send("jobs; jobs -s; jobs -r; echo list\"\"ed\r")
	out := s.expect("listed\r\n", wait)
	if strings.Count(out, "[1]+  Stopped                 sleep 60\r\n") != 2 {
		t.Fatalf("jobs of a stopped job: %q", out)
	}
	s.send("bg\r")
	s.expect("[1]+ sleep 60 &\r\n", wait)
	s.send("jobs\r")
	s.expect("[1]+  Running                 sleep 60 &\r\n", wait)
	s.send("kill -STOP %1\r")
	s.expect(prompt, wait)
	s.send("\r") // the stop is reported before the next prompt
	s.expect("[1]+  Stopped                 sleep 60\r\n", wait)
	s.send("wait %1; echo wait=$?\r")
	s.expect("llmsh: warning: wait_for_job: job 1 is stopped\r\nwait=147\r\n", wait)
	s.send("wait; echo all=$?\r")
	s.expect("llmsh: wait: warning: job 1[", wait)
	s.expect("] stopped\r\nall=0\r\n", wait)
	s.send("kill -CONT %1; jobs\r")
	s.expect("[1]+  Running                 sleep 60 &\r\n", wait)
	s.send("fg\r")
	s.expect("sleep 60\r\n", wait)
	s.send("\x1a")
	s.expect("[1]+  Stopped                 sleep 60\r\n", wait)
	s.send("exit\r")
	s.expect("There are stopped jobs.\r\n", wait)
	s.send("exit\r")
	if st := s.exitStatus(wait); st != 1 {
		t.Fatalf("exit status %d, want 1 (the warning's)", st)
	}
}

// TestCtrlZPipelineAndSubshell: Ctrl-Z stops a whole pipeline and a
// ( … ) as one job each (PIPESTATUS says 148 for each element); fg then
// Ctrl-C ends the job (130); kill ends the stopped one (143).
func TestCtrlZPipelineAndSubshell(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	s.send("sleep 60 | { echo in-pipe\"\"line; cat; }; echo \"ps=${PIPESTATUS[*]}\"\r")
	s.expect("in-pipeline\r\n", wait)
	s.send("\x1a")
	s.expect("[1]+  Stopped                 sleep 60 | { echo in-pipe\"\"line; cat; }\r\n", wait)
	s.expect("ps=148 148\r\n", wait)
	s.send("( echo in-sub\"\"shell; sleep 50; echo sub-done )\r")
	s.expect("in-subshell\r\n", wait)
	s.send("\x1a")
	s.expect("[2]+  Stopped                 ( echo in-sub\"\"shell; sleep 50; echo sub-done )\r\n", wait)
	s.expect("[148]", wait)
	s.send("jobs\r")
	s.expect("[1]-  Stopped                 sleep 60 | { echo in-pipe\"\"line; cat; }\r\n[2]+  Stopped                 ( echo in-sub\"\"shell; sleep 50; echo sub-done )\r\n", wait)
	s.send("fg %1\r")
	s.expect("; cat; }\r\n", wait)
	s.send("\x03")
	s.expect("[130]", wait)
	s.send("kill %2; wait %2; echo \"w=$?\"\r")
	s.expect("w=143\r\n", wait)
	s.send("jobs; echo \"n\"one\r")
	if out := s.expect("none\r\n", wait); strings.Contains(out, "[1]") || strings.Contains(out, "[2]") {
		t.Fatalf("jobs after both ended: %q", out)
	}
}

// A pasted long line is echoed once, not redrawn whole for each of its
// characters: chzyer/readline wrote about n*n/2 bytes for a line of n
// characters typed at its end (3000 characters, 4.5 MB: seconds of
// terminal work), the line editor now writes each character once.
func TestPastedLineEchoedOnce(t *testing.T) {
	s := start(t, t.TempDir(), env(t.TempDir()), "--no-history")
	s.expect(prompt, wait)
	word := strings.Repeat("x", 3000)
	before := len(s.all())
	s.send("echo " + word + " | wc -c\r")
	s.expect("\r\n3001\r\n", wait)
	s.expect(prompt, wait)
	if n := len(s.all()) - before; n > 4*len(word) { // the line, then redrawn twice on Enter
		t.Fatalf("the terminal got %d bytes for a %d-character line: %q", n, len(word), strings.ReplaceAll(s.all()[before:], word, "<word>"))
	}
}
