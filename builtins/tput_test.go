package builtins_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// TestTputInitReset checks init and reset on a terminal against ncurses
// 6.4's tput run on a pty (the fixture tput_ncurses covers the rest, off
// a terminal).
func TestTputInitReset(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		term, cmd, out string
	}{
		{"xterm-256color", "init", "\x1b[!p\x1b[?3;4l\x1b[4l\x1b>\x1b[?69l"},
		{"xterm-256color", "reset", "\x1bc\x1b]104\x07\x1b[!p\x1b[?3;4l\x1b[4l\x1b>\x1b[?69l"},
		{"xterm", "reset", "\x1bc\x1b[!p\x1b[?3;4l\x1b[4l\x1b>\x1b[?69l"},
		{"vt100", "init", ""},
		{"vt100", "reset", "\x1b<\x1b>\x1b[?3;4;5l\x1b[?7;8h\x1b[r"},
		{"linux", "reset", "\x1bc\x1b]R"},
		{"screen", "init", "\x1b)0"},
		{"screen", "reset", "\x1bc\x1b[?1000l\x1b[?25h"},
		{"dumb", "reset", ""},
	} {
		var out, errb bytes.Buffer
		b, _ := Lookup("tput")
		st := Run(b, &Env{Ctx: context.Background(), Args: []string{"tput", tc.cmd}, Stdin: strings.NewReader(""),
			Stdout: &out, Stderr: &errb, Environ: []string{"TERM=" + tc.term}, Terminal: true, Dir: "/"})
		if out.String() != tc.out || errb.Len() != 0 || st != 0 {
			t.Errorf("TERM=%s tput %s: got %q %q %d, want %q", tc.term, tc.cmd, out.String(), errb.String(), st, tc.out)
		}
	}
}
