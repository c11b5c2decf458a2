package builtins

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// echo is also one of the shell's own builtins: a script's `echo` never
// reaches this one. It serves commands that run other commands in-process
// (xargs, whose default command is echo; find -exec; timeout; env), as
// /bin/echo from GNU coreutils does for the real tools.
func init() {
	Register(Builtin{Name: "echo", Summary: "display a line of text (for xargs, find -exec, timeout; scripts use the shell's echo)", Run: echoCmd})
}

func echoCmd(env *Env) int { return echo(env, false) }

// ShellEcho is the shell's own echo, as bash has it: no --help or
// --version, -e knows \E, \uHHHH and \UHHHHHHHH but not \NNN without a
// leading 0, and a write error is "llmsh: echo: write error: REASON" with
// status 1.
func ShellEcho(env *Env) int { return echo(env, true) }

func echo(env *Env, bash bool) int {
	args := env.Args[1:]
	if !bash && len(args) == 1 && (args[0] == "--help" || args[0] == "--version") {
		if args[0] == "--version" {
			env.Stdout.Write([]byte("echo (llmsh)\n"))
			return 0
		}
		f := NewFlags(env, "Echo the STRING(s) to standard output.\n\n  -n             do not output the trailing newline\n  -e             enable interpretation of backslash escapes\n  -E             disable interpretation of backslash escapes (default)", "[SHORT-OPTION]... [STRING]...", "LONG-OPTION")
		f.PrintHelp(env.Stdout)
		return 0
	}
	newline, escapes := true, false
	for len(args) > 0 {
		a := args[0]
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !escapes {
			b.WriteString(a)
			continue
		}
		if stop := echoEscapes(&b, a, bash); stop {
			newline = false
			break
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	if _, err := env.Stdout.Write([]byte(b.String())); err != nil {
		if !IsBrokenPipe(err) {
			if bash {
				fmt.Fprint(env.Stderr, "llmsh: ")
			}
			env.Errorf("write error: %s", ErrText(err))
		}
		return 1
	}
	return 0
}

// The escapes of echo -e: GNU's (\0NNN and \NNN octal), or bash's
// (\0NNN only, \E, \u and \U).
var (
	gnuEchoEscapes  = gnu.Escapes{Letters: `abefnrtv\`, Octal: 3, Octal0: 3, Hex: 2, Stop: 'c'}
	bashEchoEscapes = gnu.Escapes{Letters: `abeEfnrtv\`, Octal0: 3, Hex: 2, Stop: 'c',
		Unicode: func(dst []byte, v uint32) []byte { return utf8.AppendRune(dst, rune(v)) }}
)

// echoEscapes writes s with GNU echo -e's escapes, or bash's when bash is
// set; it reports \c, which ends all output.
func echoEscapes(b *strings.Builder, s string, bash bool) bool {
	e := &gnuEchoEscapes
	if bash {
		e = &bashEchoEscapes
	}
	out, stop := e.Decode(s)
	b.WriteString(out)
	return stop
}
