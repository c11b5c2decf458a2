package builtins_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// Checked against ncurses clear 6.4 with TERM unset, dumb and xterm.
func TestClear(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		environ  []string
		terminal bool
		args     []string
		out, err string
		status   int
	}{
		{nil, false, []string{"clear"}, "", "TERM environment variable not set.\n", 1},
		{[]string{"TERM=dumb"}, false, []string{"clear"}, "", "", 1},
		{[]string{"TERM=xterm"}, false, []string{"clear"}, "\x1b[H\x1b[2J\x1b[3J", "", 0},
		{[]string{"TERM=xterm"}, false, []string{"clear", "-x"}, "\x1b[H\x1b[2J", "", 0},
		{[]string{"TERM=dumb"}, false, []string{"clear", "-T", "xterm-256color"}, "\x1b[H\x1b[2J\x1b[3J", "", 0},
		{[]string{"TERM=dumb"}, true, []string{"clear"}, "\x1b[H\x1b[2J\x1b[3J", "", 0},
		{nil, false, []string{"clear", "-V"}, "ncurses 6.4.20221231\n", "", 0},
	} {
		var out, errb bytes.Buffer
		b, _ := Lookup("clear")
		st := Run(b, &Env{Ctx: context.Background(), Args: tc.args, Stdin: strings.NewReader(""),
			Stdout: &out, Stderr: &errb, Environ: tc.environ, Terminal: tc.terminal, Dir: "/"})
		if out.String() != tc.out || errb.String() != tc.err || st != tc.status {
			t.Errorf("%v %v: got %q %q %d, want %q %q %d", tc.environ, tc.args, out.String(), errb.String(), st, tc.out, tc.err, tc.status)
		}
	}
}
