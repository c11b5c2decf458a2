package builtins

import (
	"strings"
)

var _ = register(Builtin{Name: "clear", Summary: "clear the terminal screen", Run: clearCmd})

// clearCmd prints the xterm clear sequence when standard output is a
// terminal. Otherwise it does what ncurses' clear does for the script's
// TERM: the sequence for a terminal type that has one, nothing and status
// 1 for "dumb" (llmsh's default) or an unknown type, and a message when
// TERM is unset. TERM is the script's variable, never the host's.
func clearCmd(env *Env) int {
	f := NewFlags(env, "Clear the terminal screen.", "[options]")
	term, termSet := f.String('T', "", "TERM", "use this instead of $TERM")
	curses := f.Bool('V', "", "print curses-version")
	keep := f.Bool('x', "", "do not try to clear scrollback")
	version := versionOption(f)
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	switch {
	case *version:
		return printVersion(env)
	case *curses:
		w := stdoutWriter(env)
		w.WriteString("ncurses 6.4.20221231\n")
		return finishOutput(env, w, 0)
	case len(operands) > 0:
		f.PrintHelp(env.Stderr)
		return 1
	}
	seq := "\x1b[H\x1b[2J"
	if !env.Terminal {
		t, ok := *term, *termSet
		if !ok {
			t, ok = envLookup(env.Environ, "TERM")
		}
		if !ok {
			env.Stderr.Write([]byte("TERM environment variable not set.\n"))
			return 1
		}
		switch {
		case t == "linux":
			seq = "\x1b[H\x1b[J"
		case !clearXterm(t):
			return 1
		}
	}
	if !*keep && seq == "\x1b[H\x1b[2J" {
		seq += "\x1b[3J"
	}
	w := stdoutWriter(env)
	w.WriteString(seq)
	return finishOutput(env, w, 0)
}

// clearXterm reports whether terminal type t clears as xterm does.
func clearXterm(t string) bool {
	for _, p := range []string{"xterm", "screen", "tmux", "rxvt", "vte", "alacritty", "kitty", "foot", "st-"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// envLookup returns the value of the variable name in environ
// ("NAME=value" entries).
func envLookup(environ []string, name string) (string, bool) {
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}
