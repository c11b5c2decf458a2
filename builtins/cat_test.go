package builtins_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// Expected values checked against GNU cat 9.1 (LC_ALL=C).
func TestCat(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"cat"}, "hello\nworld\n", "hello\nworld\n", "", 0},
		{nil, []string{"cat"}, "no newline", "no newline", "", 0},
		{nil, []string{"cat", "-"}, "dash\n", "dash\n", "", 0},
		{nil, []string{"cat", "-n"}, "a\nb\n\nc", "     1\ta\n     2\tb\n     3\t\n     4\tc", "", 0},
		{nil, []string{"cat", "-b"}, "a\n\n\nb\n", "     1\ta\n\n\n     2\tb\n", "", 0},
		{nil, []string{"cat", "-s"}, "\n\n\na\n\n\n\nb\n\n", "\na\n\nb\n\n", "", 0},
		{nil, []string{"cat", "-bs"}, "x\n\n\ny\n", "     1\tx\n\n     2\ty\n", "", 0},
		{nil, []string{"cat", "-ns"}, "x\n\n\ny\n", "     1\tx\n     2\t\n     3\ty\n", "", 0},
		{nil, []string{"cat", "-E"}, "a\x0d\nb\x0dc\n\x0d", "a^M$\nb\x0dc$\n\x0d", "", 0},
		{nil, []string{"cat", "-T"}, "a\tb\n", "a^Ib\n", "", 0},
		{nil, []string{"cat", "-A"}, "a\tb\x01\x7f\x80\x9b\xff\xe9\x0d\n", "a^Ib^A^?M-^@M-^[M-^?M-i^M$\n", "", 0},
		{nil, []string{"cat", "-v"}, "\x00\x1b[1m\t\xc3\xa9\n", "^@^[[1m\tM-CM-)\n", "", 0},
		{nil, []string{"cat", "-e"}, "x\ty\n", "x\ty$\n", "", 0},
		{nil, []string{"cat", "-t"}, "x\ty\x02\n", "x^Iy^B\n", "", 0},
		{nil, []string{"cat", "-u"}, "u\n", "u\n", "", 0},
		{nil, []string{"cat", "-n", "-", "-"}, "a", "     1\ta", "", 0},
		{nil, []string{"cat", "-z"}, "", "", "cat: invalid option -- 'z'\nTry 'cat --help' for more information.\n", 1},
		{nil, []string{"cat", "--bogus"}, "", "", "cat: unrecognized option '--bogus'\nTry 'cat --help' for more information.\n", 1},
		{nil, []string{"cat", "--number-nonblank", "--show-ends"}, "p\n\nq\n", "     1\tp$\n$\n     2\tq$\n", "", 0},
	})
}

// stdinErr is a standard input whose reads fail, as reading a directory
// redirected to it does (`cmd < DIR`).
type stdinErr struct{ err error }

func (r stdinErr) Read([]byte) (int, error) { return 0, r.err }

// TestStdinReadError: each builtin names a failing standard input in its
// GNU tool's words (checked against GNU coreutils 9.1, grep 3.8 and sed
// 4.9 with `CMD < .`).
func TestStdinReadError(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args   []string
		out    string
		err    string
		status int
	}{
		{[]string{"cat"}, "", "cat: -: Is a directory\n", 1},
		{[]string{"head", "-1"}, "", "head: error reading 'standard input': Is a directory\n", 1},
		{[]string{"tail", "-1"}, "", "tail: error reading 'standard input': Is a directory\n", 1},
		{[]string{"wc"}, "      0       0       0\n", "wc: 'standard input': Is a directory\n", 1},
		{[]string{"sort"}, "", "sort: read failed: -: Is a directory\n", 2},
		{[]string{"grep", "x"}, "", "grep: (standard input): Is a directory\n", 2},
		{[]string{"uniq"}, "", "uniq: error reading '-'\n", 1},
		{[]string{"base64"}, "", "base64: read error: Is a directory\n", 1},
		{[]string{"sed", "p"}, "", "sed: read error on stdin: Is a directory\n", 4},
		{[]string{"tac"}, "", "tac: 'standard input': read error: Invalid argument\n", 1},
	} {
		b, _ := Lookup(c.args[0])
		var out, errb strings.Builder
		env := &Env{Ctx: context.Background(), Args: c.args, Stdin: stdinErr{syscall.EISDIR}, Stdout: &out, Stderr: &errb}
		st := Run(b, env)
		if out.String() != c.out || errb.String() != c.err || st != c.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", c.args, out.String(), errb.String(), st, c.out, c.err, c.status)
		}
	}
}

// TestDirOperandRead: a directory operand is opened and fails reading, in
// each GNU tool's words (checked against GNU coreutils 9.1 and sed 4.9).
func TestDirOperandRead(t *testing.T) {
	t.Parallel()
	files := map[string]string{"d/": "", "a": "x\n"}
	for _, c := range []struct {
		args   []string
		out    string
		err    string
		status int
	}{
		{[]string{"head", "-1", "d"}, "", "head: error reading 'd': Is a directory\n", 1},
		{[]string{"tail", "-1", "d"}, "", "tail: error reading 'd': Is a directory\n", 1},
		{[]string{"head", "-1", "a", "d"}, "==> a <==\nx\n\n==> d <==\n", "head: error reading 'd': Is a directory\n", 1},
		{[]string{"tac", "d"}, "", "tac: d: read error: Invalid argument\n", 1},
		{[]string{"uniq", "d"}, "", "uniq: error reading 'd'\n", 1},
		{[]string{"base64", "d"}, "", "base64: read error: Is a directory\n", 1},
		{[]string{"sed", "p", "d"}, "", "sed: read error on d: Is a directory\n", 4},
	} {
		r := runCmd(t, files, "", c.args...)
		if r.stdout != c.out || r.stderr != c.err || r.status != c.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", c.args, r.stdout, r.stderr, r.status, c.out, c.err, c.status)
		}
	}
}

// TestCatAnswersEachLine: with line options, cat writes what it holds
// before it waits for more input, as GNU cat does when FIONREAD says none
// is pending, so `coproc cat -n` answers each line (and a line's first
// part) as it comes, not at the end of its input.
func TestCatAnswersEachLine(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	b, _ := Lookup("cat")
	var errb strings.Builder
	env := &Env{Ctx: context.Background(), Args: []string{"cat", "-n"}, Stdin: inR, Stdout: outW, Stderr: &errb}
	status := make(chan int, 1)
	go func() { status <- Run(b, env); outW.Close() }()
	out := bufio.NewReader(outR)
	expect := func(send, want string) {
		t.Helper()
		got := make(chan string, 1)
		go func() {
			inW.Write([]byte(send))
			buf := make([]byte, len(want))
			n, _ := io.ReadFull(out, buf)
			got <- string(buf[:n])
		}()
		select {
		case g := <-got:
			if g != want {
				t.Fatalf("after %q: got %q, want %q", send, g, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("after %q: no output while cat waits for input", send)
		}
	}
	expect("hello\n", "     1\thello\n")
	expect("wor", "     2\twor")
	expect("ld\nx\n", "ld\n     3\tx\n")
	inW.Close()
	if st := <-status; st != 0 || errb.Len() > 0 {
		t.Errorf("status %d, stderr %q", st, errb.String())
	}
}
