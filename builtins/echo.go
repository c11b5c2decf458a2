package builtins

import (
	"fmt"
	"io"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// echo is also one of the shell's own builtins: a script's `echo` never
// reaches this one. It serves commands that run other commands in-process
// (xargs, whose default command is echo; find -exec; timeout; env), as
// /bin/echo from GNU coreutils does for the real tools.
var _ = register(Builtin{Name: "echo", Summary: "display a line of text (for xargs, find -exec, timeout; scripts use the shell's echo)", Run: echoCmd})

func echoCmd(env *Env) int { return echo(env, false) }

// echoChunk is the most echo holds before it writes.
const echoChunk = 64 << 10

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
	newline, escapes := true, bash && env.XPGEcho
	for len(args) > 0 && !(bash && env.EchoNoOptions) {
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
	// The output goes out in one write when it is small, as bash's
	// buffered echo does, and in pieces of about echoChunk bytes past
	// that: echo "${a[@]}" of big elements built all of it first (4.8 GB
	// for 300 elements of 16 MB: issue 18).
	var b strings.Builder
	var werr error
	flush := func() {
		if b.Len() > 0 && werr == nil {
			_, werr = io.WriteString(env.Stdout, b.String())
		}
		b.Reset()
	}
	locale := 0 // llmsh: the script's C locale, asked once (1 no, 2 yes)
	byteLocale := func() bool {
		if locale == 0 {
			locale = 1
			if bash && env.Shell != nil && env.Shell.ByteLocale() {
				locale = 2
			}
		}
		return locale == 2
	}
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !escapes {
			if len(a) >= echoChunk {
				flush()
				if werr == nil {
					_, werr = io.WriteString(env.Stdout, a)
				}
			} else {
				b.WriteString(a)
			}
		} else if stop := echoEscapes(&b, a, bash, byteLocale()); stop {
			newline = false
			break
		}
		if b.Len() >= echoChunk {
			flush()
		}
		if werr != nil {
			break
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	flush()
	if err := werr; err != nil {
		if !IsBrokenPipe(err) {
			if bash {
				fmt.Fprint(env.Stderr, env.ShellName())
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
		Unicode: printfAppendUTF8}
	bashEchoEscapesC = gnu.Escapes{Letters: `abeEfnrtv\`, Octal0: 3, Hex: 2, Stop: 'c',
		Unicode: printfAppendCEscape}
)

// echoEscapes writes s with GNU echo -e's escapes, or bash's when bash is
// set (in the C or POSIX locale when byteLocale: \u00e9 stays an escape);
// it reports \c, which ends all output.
func echoEscapes(b *strings.Builder, s string, bash, byteLocale bool) bool {
	e := &gnuEchoEscapes
	if bash && byteLocale {
		e = &bashEchoEscapesC
	} else if bash {
		e = &bashEchoEscapes
	}
	out, stop := e.Decode(s)
	b.WriteString(out)
	return stop
}
