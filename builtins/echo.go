package builtins

import (
	"fmt"
	"strings"
	"unicode/utf8"
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

// echoEscapes writes s with GNU echo -e's escapes, or bash's when bash is
// set; it reports \c, which ends all output.
func echoEscapes(b *strings.Builder, s string, bash bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'c':
			return true
		case 'e':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\':
			b.WriteByte('\\')
		case 'x':
			v, n := 0, 0
			for n < 2 && i+1 < len(s) && echoIsHex(s[i+1]) {
				i++
				v = v*16 + echoHexVal(s[i])
				n++
			}
			if n == 0 {
				b.WriteString(`\x`)
			} else {
				b.WriteByte(byte(v))
			}
		case '0':
			v := 0
			for n := 0; n < 3 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; n++ {
				i++
				v = v*8 + int(s[i]-'0')
			}
			b.WriteByte(byte(v))
		case 'E', 'u', 'U':
			if !bash {
				b.WriteByte('\\')
				b.WriteByte(c)
				break
			}
			if c == 'E' {
				b.WriteByte(0x1b)
				break
			}
			v, n, max := 0, 0, 4
			if c == 'U' {
				max = 8
			}
			for n < max && i+1 < len(s) && echoIsHex(s[i+1]) {
				i++
				v = v*16 + echoHexVal(s[i])
				n++
			}
			switch {
			case n == 0:
				b.WriteByte('\\')
				b.WriteByte(c)
			case v > utf8.MaxRune:
				b.WriteRune(utf8.RuneError)
			default:
				b.WriteRune(rune(v))
			}
		case '1', '2', '3', '4', '5', '6', '7':
			if bash {
				b.WriteByte('\\')
				b.WriteByte(c)
				break
			}
			v := int(c - '0')
			for n := 1; n < 3 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; n++ {
				i++
				v = v*8 + int(s[i]-'0')
			}
			b.WriteByte(byte(v))
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return false
}

func echoIsHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func echoHexVal(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}
