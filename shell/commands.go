package shell

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"

	"github.com/llmsh/llmsh/builtins"
)

func init() {
	builtins.Register(builtins.Builtin{Name: "help", Summary: "list the commands llmsh provides", Run: help})
	builtins.Register(builtins.Builtin{Name: "env", Summary: "print the script's exported variables, or run a command with more", Run: envCmd})
	builtins.Register(builtins.Builtin{Name: "printenv", Summary: "print the values of the script's exported variables", Run: printenv})
}

// The one list of the commands the shell itself provides (as against the
// registered builtins): those mvdan.cc/sh's interpreter runs, and the
// nested shells llmsh runs on a new runner. type, command -v, which, hash,
// help, the REPL's completion and env's command lookup all ask these.
var (
	interpBuiltins = strings.Fields(": true false exit set shift unset echo printf break continue pwd cd wait " +
		"builtin trap type source . command dirs pushd popd umask ulimit alias unalias fg bg jobs kill disown getopts eval " +
		"test [ exec return read mapfile readarray shopt declare local export readonly typeset let times caller " +
		"bind compgen complete compopt enable fc logout newgrp suspend")
	nestedShells = []string{"sh", "bash", "llmsh"}
	shellCmdSet  = func() map[string]int {
		m := map[string]int{}
		for _, n := range interpBuiltins {
			m[n] = 1
		}
		for _, n := range nestedShells {
			m[n] = 2
		}
		return m
	}()
)

// isInterpBuiltin reports whether the interpreter runs name itself.
func isInterpBuiltin(name string) bool { return shellCmdSet[name] == 1 }

// isNestedShell reports whether name is sh, bash or llmsh.
func isNestedShell(name string) bool { return shellCmdSet[name] == 2 }

// builtinOn reports whether name is an interpreter builtin that enable -n
// has not turned off in the runner of ctx.
func builtinOn(ctx context.Context, name string) bool {
	if !isInterpBuiltin(name) {
		return false
	}
	r := currentRunner(ctx)
	return r == nil || r.BuiltinEnabled(name)
}

// shellCommands lists the shell's own commands.
func shellCommands() []string {
	return append(append([]string(nil), interpBuiltins...), nestedShells...)
}

// funcs returns the functions of the runner that runs the command of ctx
// (a subshell has its own), or the shell's when ctx is no handler's.
func (s *Shell) funcs(ctx context.Context) map[string]*syntax.Stmt {
	if r := currentRunner(ctx); r != nil {
		return r.Funcs
	}
	return s.runner.Funcs
}

// currentRunner is the runner that calls the handler of ctx, nil outside
// a handler's context.
func currentRunner(ctx context.Context) (r *interp.Runner) {
	defer func() {
		if recover() != nil {
			r = nil // not a handler's context
		}
	}()
	return interp.HandlerCtx(ctx).Runner()
}

// viaCommand reports whether the handler of ctx runs a command for the
// command builtin, which looks at no function (HandlerContext.NoFunc).
func viaCommand(ctx context.Context) (yes bool) {
	defer func() {
		if recover() != nil {
			yes = false // not a handler's context
		}
	}()
	return interp.HandlerCtx(ctx).NoFunc
}

func help(env *builtins.Env) int {
	prefix := "llmsh: "
	if r := currentRunner(env.Ctx); r != nil {
		prefix = r.ErrPrefix()
	}
	// bash's options, -d (NAME - what it does), -s (the synopsis) and
	// -m (man-like), its message and status for another.
	style, args := byte(0), env.Args[1:]
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0] != "--help" {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			if c != 'd' && c != 's' && c != 'm' {
				fmt.Fprintf(env.Stderr, "%shelp: -%c: invalid option\nhelp: usage: help [-dms] [pattern ...]\n", prefix, c)
				return 2
			}
			// bash: -d before -m before -s
			if style == 0 || c == 'd' || c == 'm' && style == 's' {
				style = byte(c)
			}
		}
		args = args[1:]
	}
	f := builtins.NewFlags(env, "List the commands llmsh provides, or describe each NAME (a command's own --help). Every command runs inside llmsh; no host program is ever executed.", "[NAME]...")
	names, err := f.Parse(append([]string{"--"}, args...))
	if len(args) > 0 && args[0] == "--help" {
		names, err = f.Parse(args)
	}
	if err != nil {
		return f.Fail(err, 2)
	}
	if len(names) > 0 {
		st := 0
		for _, name := range names {
			b, isCmd := builtins.Lookup(name)
			switch syn, short, text, ok := interp.BuiltinHelp(name); {
			case style != 0 && (ok || isCmd):
				if !ok {
					syn, short, text = name+" [OPTION]... (see "+name+" --help)", b.Summary, "    "+b.Summary+"\n"
				}
				helpStyled(env.Stdout, style, name, syn, short, text)
			case ok && isInterpBuiltin(name):
				// a shell builtin first (echo, printf), as bash's help
				fmt.Fprintf(env.Stdout, "%s: %s\n%s", name, syn, text)
			case isCmd:
				e := *env
				e.Args = []string{name, "--help"}
				if builtins.Run(b, &e) != 0 {
					st = 1
				}
			case isInterpBuiltin(name):
				fmt.Fprintf(env.Stdout, "%s: a shell builtin, as in bash\n", name)
			case isNestedShell(name):
				fmt.Fprintf(env.Stdout, "%s: %s\n", name, nestedShellHelp)
			default:
				// bash's words, after its "NAME: line N: ".
				fmt.Fprintf(env.Stderr, "%shelp: no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.\n", prefix, name, name, name)
				st = 1
			}
		}
		return st
	}
	fmt.Fprintln(env.Stdout, "llmsh: a restricted shell. Files go through vfsd; unknown commands are not found.")
	fmt.Fprintln(env.Stdout, "\nShell builtins (bash-compatible, from mvdan.cc/sh):")
	fmt.Fprintln(env.Stdout, "  "+strings.Join(interpBuiltins, " "))
	fmt.Fprintln(env.Stdout, "\nCommands (each takes --help):")
	for _, b := range builtins.All() {
		fmt.Fprintf(env.Stdout, "  %-10s %s\n", b.Name, b.Summary)
	}
	fmt.Fprintln(env.Stdout, "  sh, bash   "+nestedShellHelp)
	return 0
}

// helpStyled is help -d, -s or -m for one name, in bash's layout.
func helpStyled(w io.Writer, style byte, name, syn, short, text string) {
	switch style {
	case 'd':
		fmt.Fprintf(w, "%s - %s\n", name, short)
	case 's':
		fmt.Fprintf(w, "%s: %s\n", name, syn)
	default:
		fmt.Fprintf(w, "NAME\n    %s - %s\n\nSYNOPSIS\n    %s\n\nDESCRIPTION\n%s\n", name, short, syn, text)
	}
}

// nestedShellHelp describes sh, bash and a nested llmsh.
const nestedShellHelp = "run a script (-c SCRIPT, a FILE, or stdin) on a new shell in the same session and limits"

func envCmd(env *builtins.Env) int {
	f := builtins.NewFlags(env, "Print the script's exported variables, or set NAME=VALUE pairs and run COMMAND with them.", "[OPTION]... [NAME=VALUE]... [COMMAND [ARG]...]")
	f.StopAtOperand = true
	ignore := f.Bool('i', "ignore-environment", "start with an empty environment")
	null := f.Bool('0', "null", "end each output line with NUL, not newline")
	var unset []string
	f.Func('u', "unset", builtins.RequiredArg, "NAME", "remove variable from the environment", func(v string, _ bool) error {
		unset = append(unset, v)
		return nil
	})
	rest, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 125)
	}
	vars := env.Environ
	if *ignore {
		vars = nil
	}
	out := []string{}
	for _, kv := range vars {
		name, _, _ := strings.Cut(kv, "=")
		skip := false
		for _, u := range unset {
			skip = skip || u == name
		}
		if !skip {
			out = append(out, kv)
		}
	}
	for len(rest) > 0 && strings.Contains(rest[0], "=") {
		out = append(out, rest[0])
		rest = rest[1:]
	}
	out = setEnviron(out)
	if len(rest) == 0 {
		end := "\n"
		if *null {
			end = "\x00"
		}
		return printLines(env, out, end, 0, 125) // GNU env fails with EXIT_CANCELED
	}
	if env.Exec == nil {
		env.Errorf("cannot run commands here")
		return 126
	}
	ctx := context.WithValue(env.Ctx, environKey{}, setEnviron(out))
	return env.Exec(ctx, rest, env.Stdin, env.Stdout, env.Stderr)
}

func printenv(env *builtins.Env) int {
	f := builtins.NewFlags(env, "Print the values of the named exported variables, or all of them.", "[OPTION]... [VARIABLE]...")
	null := f.Bool('0', "null", "end each output line with NUL, not newline")
	names, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 2)
	}
	end := "\n"
	if *null {
		end = "\x00"
	}
	if len(names) == 0 {
		return printLines(env, env.Environ, end, 0, 2)
	}
	status := 0
	var values []string
	for _, n := range names {
		found := false
		for _, kv := range env.Environ {
			if v, ok := strings.CutPrefix(kv, n+"="); ok {
				values = append(values, v)
				found = true
				break
			}
		}
		if !found {
			status = 1
		}
	}
	return printLines(env, values, end, status, 2) // GNU: PRINTENV_FAILURE
}

// printLines writes each line followed by end to standard output and
// returns status, or failed after GNU's "write error" if writing failed.
func printLines(env *builtins.Env, lines []string, end string, status, failed int) int {
	w := bufio.NewWriter(env.Stdout)
	for _, l := range lines {
		w.WriteString(l)
		w.WriteString(end)
	}
	if err := w.Flush(); err != nil {
		return env.WriteFailed(err, failed)
	}
	return status
}

// setEnviron keeps the last assignment of each name, sorted by name.
func setEnviron(kvs []string) []string {
	last := map[string]string{}
	for _, kv := range kvs {
		name, _, _ := strings.Cut(kv, "=")
		last[name] = kv
	}
	out := make([]string, 0, len(last))
	for _, kv := range last {
		out = append(out, kv)
	}
	sort.Strings(out)
	return out
}

// commandNames are the commands compgen -c offers after the shell's own
// names: the registered builtins and the nested shells, sorted.
func commandNames() []string {
	var out []string
	for _, b := range builtins.All() {
		out = append(out, b.Name)
	}
	out = append(out, nestedShells...)
	sort.Strings(out)
	return out
}
