package shell_test

import (
	"context"
	"testing"

	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestSyntaxErrorAsBash: a script with a syntax error runs its whole
// lines before the error, then says so in bash 5.2's words with the
// script's name as bash gives it (checked against bash -c, bash FILE and
// bash < FILE), status 2; an exit before the error wins.
func TestSyntaxErrorAsBash(t *testing.T) {
	for _, tc := range []struct {
		name           string
		opts           Options
		src, out, errs string
		st             int
	}{
		{"-c", Options{Name: "llmsh", Command: true}, "echo a; echo b\necho c; fi\necho d", "a\nb\n",
			"llmsh: -c: line 2: syntax error near unexpected token `fi'\nllmsh: -c: line 2: `echo c; fi'\n", 2},
		{"file", Options{Name: "s.sh", Source: "s.sh"}, "echo one\nif true; then\n  echo two\n", "one\n",
			"s.sh: line 4: syntax error: unexpected end of file\n", 2},
		{"stdin", Options{Name: "llmsh"}, "x=1\necho \"$x\n", "",
			"llmsh: line 2: unexpected EOF while looking for matching `\"'\n", 2},
		{"exit first", Options{Name: "llmsh", Command: true}, "echo a\nexit 3\ndone", "a\n", "", 3},
		{"heredoc kept", Options{Name: "llmsh", Command: true}, "cat <<E\nbody\nE\nthen", "body\n",
			"llmsh: -c: line 4: syntax error near unexpected token `then'\nllmsh: -c: line 4: `then'\n", 2},
		{"must be followed", Options{Name: "sh", Command: true}, "echo hi | | cat", "",
			"sh: -c: line 1: syntax error near unexpected token `|'\nsh: -c: line 1: `echo hi | | cat'\n", 2},
		{"eval", Options{Name: "llmsh", Command: true}, "eval 'echo in\nfi'; echo \"st=$?\"", "in\nst=2\n",
			"llmsh: eval: line 3: syntax error near unexpected token `fi'\nllmsh: eval: line 3: `fi'\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRunAs(t, tc.opts, tc.src, tc.out, tc.errs, tc.st)
		})
	}
}

// checkRunAs runs src in a shell made with opts (a -c string, a file) and
// checks its stdout, stderr and status.
func checkRunAs(t *testing.T, opts Options, src, wantOut, wantErr string, wantSt int) {
	t.Helper()
	dir := t.TempDir()
	var out, errb lockedBuffer
	o := opts
	o.Client, o.Stdout, o.Stderr, o.Dir = vfstest.Session(t, vfsd.Config{Outputs: []string{dir}}), &out, &errb, dir
	sh, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	st := sh.Run(context.Background(), src, o.Name)
	if out.String() != wantOut || errb.String() != wantErr || st != wantSt {
		t.Errorf("got out=%q err=%q status=%d\nwant out=%q err=%q status=%d", out.String(), errb.String(), st, wantOut, wantErr, wantSt)
	}
}

// TestBuiltinHelpAsBash: `help NAME` and `NAME --help` describe a shell
// builtin as bash does (synopsis, bash's text; --help's status is 2),
// whatever llmsh does with NAME otherwise; echo and true take --help as
// an operand.
func TestBuiltinHelpAsBash(t *testing.T) {
	out, errs, st := run(t, t.TempDir(), `help true; help -d cd; cd --help | sed -n 2p; cd --help >/dev/null; echo "st=$?"; type --help >/dev/null; echo "st=$?"; echo --help; true --help; echo "st=$?"; printf --help | sed -n 2p; printf --help >/dev/null; echo "st=$?"; printf '%s\n' --help`, Limits{})
	want := "true: true\n    Return a successful result.\n    \n    Exit Status:\n    Always succeeds.\n" +
		"cd - Change the shell working directory.\n    Change the shell working directory.\nst=2\nst=2\n--help\nst=0\n" +
		"    Formats and prints ARGUMENTS under control of the FORMAT.\nst=2\n--help\n"
	if out != want || errs != "" || st != 0 {
		t.Errorf("got out=%q err=%q status=%d\nwant %q", out, errs, st, want)
	}
}
