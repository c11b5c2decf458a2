package shell

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/internal/getopt"
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
		"builtin trap type source . command dirs pushd popd umask ulimit alias unalias fg bg jobs kill disown getopts eval hash " +
		"test [ exec return read mapfile readarray shopt declare local export readonly typeset let times caller " +
		"bind compgen complete compopt enable fc logout suspend")
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

// execFailed tells the runner of ctx, if any, that its exec builtin's
// command could not be run (shopt -s execfail).
func execFailed(ctx context.Context) {
	defer func() { recover() }() // not a handler's context
	interp.HandlerCtx(ctx).ExecFailed()
}

// execing reports whether ctx is the context of the exec builtin's
// command (false outside a handler's context).
func execing(ctx context.Context) (yes bool) {
	defer func() { recover() }() // not a handler's context
	return interp.HandlerCtx(ctx).Exec
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
	if len(args) > 0 && args[0] == "--help" {
		// bash's CHECK_HELPOPT: its own text, status 2
		syn, _, text, _ := interp.BuiltinHelp("help")
		fmt.Fprintf(env.Stdout, "help: %s\n%s", syn, text)
		return 2
	}
	if len(args) > 0 {
		return helpTopics(env, prefix, style, args)
	}
	// within 79 columns, as bash's help and every --help
	fmt.Fprintln(env.Stdout, "llmsh: a restricted shell. Files go through vfsd; other commands are not found.")
	fmt.Fprintln(env.Stdout, "\nShell builtins (bash-compatible, from mvdan.cc/sh):")
	fmt.Fprintln(env.Stdout, getopt.Wrap("  "+strings.Join(interpBuiltins, " ")))
	fmt.Fprintln(env.Stdout, "\nCommands (each takes --help):")
	for _, b := range builtins.All() {
		fmt.Fprintln(env.Stdout, helpEntry(b.Name, b.Summary))
	}
	fmt.Fprintln(env.Stdout, helpEntry("sh, bash", nestedShellHelp))
	return 0
}

// helpEntry is one command's line of help's list, "  NAME       SUMMARY",
// a summary too wide for 79 columns going on under itself.
func helpEntry(name, summary string) string {
	const col = 13 // "  " + the name in 10 + " "
	l := fmt.Sprintf("  %-10s %s", name, summary)
	if len(name) > 10 {
		return l
	}
	w := getopt.Wrap(strings.Repeat(" ", col) + summary)
	return l[:col] + w[col:]
}

// helpTopics is help PATTERN...: as bash's, each pattern names a builtin
// exactly or as a glob, or else as a prefix (help ec), a header coming
// first when the first pattern is a glob; llmsh's commands answer by
// their exact name first (with their --help). Only when nothing at all matches
// does it fail, naming the last pattern.
func helpTopics(env *builtins.Env, prefix string, style byte, patterns []string) int {
	if globPattern(patterns[0]) {
		s := ""
		if len(patterns) > 1 {
			s = "s"
		}
		fmt.Fprintf(env.Stdout, "Shell commands matching keyword%s `%s'\n\n", s, strings.Join(patterns, ", "))
	}
	st, found := 0, false
	for _, pattern := range patterns {
		b, isCmd := builtins.Lookup(pattern)
		topics := []string{pattern} // a name of llmsh's own first (help sh)
		if !isCmd && !isInterpBuiltin(pattern) && !isNestedShell(pattern) {
			topics = interp.HelpTopics(pattern)
		}
		found = found || len(topics) > 0
		for _, name := range topics {
			switch syn, short, text, ok := interp.BuiltinHelp(name); {
			case style != 0 && (ok || isCmd):
				if !ok {
					short, text = b.Summary, "    "+b.Summary+"\n"
					if style != 'd' {
						syn = usageLine(b, env, name)
					}
				}
				helpStyled(env.Stdout, style, name, syn, short, text)
			case ok:
				// a shell builtin first (echo, printf, help, history), as
				// bash's help
				fmt.Fprintf(env.Stdout, "%s: %s\n%s", name, syn, text)
			case isCmd:
				e := *env
				e.Args = []string{name, "--help"}
				if builtins.Run(b, &e) != 0 {
					st = 1
				}
			case isInterpBuiltin(name):
				fmt.Fprintf(env.Stdout, "%s: a shell builtin, as in bash\n", name)
			default:
				fmt.Fprintf(env.Stdout, "%s: %s\n", name, nestedShellHelp)
			}
		}
	}
	if !found {
		// bash's words, after its "NAME: line N: ".
		last := patterns[len(patterns)-1]
		fmt.Fprintf(env.Stderr, "%shelp: no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.\n", prefix, last, last, last)
		return 1
	}
	return st
}

// usageLine is the synopsis of llmsh's command name for help -s and -m:
// the first line of its --help after "Usage: " (cat [OPTION]... [FILE]...),
// or a pointer to --help when that line says nothing.
func usageLine(b builtins.Builtin, env *builtins.Env, name string) string {
	var out strings.Builder
	e := *env
	e.Args, e.Stdout, e.Stderr = []string{name, "--help"}, &out, io.Discard
	builtins.Run(b, &e)
	first, _, _ := strings.Cut(out.String(), "\n")
	if syn, ok := strings.CutPrefix(first, "Usage: "); ok && strings.HasPrefix(syn, name+" ") {
		return syn
	}
	return name + " [OPTION]... (see " + name + " --help)"
}

// globPattern reports whether p has a glob's special characters, as
// bash's glob_pattern_p: * or ?, or a [ with a ] after it.
func globPattern(p string) bool {
	if strings.ContainsAny(p, "*?") {
		return true
	}
	i := strings.IndexByte(p, '[')
	return i >= 0 && strings.IndexByte(p[i+1:], ']') >= 0
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

// envOpts is env's command line: the options, possibly spliced from -S
// strings.
type envOpts struct {
	ignore, null, debug, listSignals bool
	unset                            []string
	chdir                            string
	split                            *string // the -S string not yet spliced
	badSignal                        int     // KILL or STOP given a new action
}

const envHelp = "Set each NAME to VALUE in the environment and run COMMAND; without\n" +
	"COMMAND, print the resulting environment (the script's exported variables).\n\n" +
	"llmsh runs COMMAND in-process: no signal reaches it, so the signal options\n" +
	"(--block-signal, --default-signal, --ignore-signal) are checked and\n" +
	"accepted but change nothing, and --list-signal-handling lists nothing."

// envFlags registers env's options on a parser that fills o.
func envFlags(env *builtins.Env, o *envOpts) *builtins.Flags {
	f := builtins.NewFlags(env, envHelp, "[OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]")
	f.StopAtOperand = true
	f.BoolVar(&o.ignore, 'i', "ignore-environment", "start with an empty environment")
	f.BoolVar(&o.null, '0', "null", "end each output line with NUL, not newline")
	f.Func('u', "unset", builtins.RequiredArg, "NAME", "remove variable from the environment", func(v string, _ bool) error {
		o.unset = append(o.unset, v)
		return nil
	})
	f.StringVar(&o.chdir, 'C', "chdir", "DIR", "change working directory to DIR")
	f.Func('S', "split-string", builtins.RequiredArg, "S", "process and split S into separate arguments;\n"+
		"used to pass multiple arguments on shebang lines", func(v string, _ bool) error {
		o.split = &v
		f.Stop()
		return nil
	})
	signals := func(action bool) func(string, bool) error {
		return func(v string, present bool) error {
			if !present {
				return nil
			}
			for _, sig := range strings.Split(v, ",") {
				n, ok := builtins.SignalNumber(sig)
				if !ok {
					return &builtins.UsageError{Msg: gnuQuote(sig) + ": invalid signal"}
				}
				if action && (n == 9 || n == 19) && o.badSignal == 0 {
					o.badSignal = n // SIGKILL and SIGSTOP keep their action
				}
			}
			return nil
		}
	}
	f.Func(0, "block-signal", builtins.OptionalArg, "SIG", "block delivery of SIG signal(s) to COMMAND", signals(false))
	f.Func(0, "default-signal", builtins.OptionalArg, "SIG", "reset handling of SIG signal(s) to the default", signals(true))
	f.Func(0, "ignore-signal", builtins.OptionalArg, "SIG", "set handling of SIG signal(s) to do nothing", signals(true))
	f.BoolVar(&o.listSignals, 0, "list-signal-handling", "list non default signal handling to stderr")
	f.BoolVar(&o.debug, 'v', "debug", "print verbose information for each processing step")
	f.Epilog = "A mere - implies -i.  If no COMMAND, print the resulting environment.\n\n" +
		"SIG may be a signal name like 'PIPE', or a signal number like '13'.\n" +
		"Without SIG, all known signals are included.  Multiple signals can be\ncomma-separated."
	return f
}

func envCmd(env *builtins.Env) int {
	var o envOpts
	args := env.Args[1:]
	var rest []string
	for {
		f := envFlags(env, &o)
		var err error
		if rest, err = f.Parse(args); err != nil {
			return f.Fail(err, 125)
		}
		if o.split == nil {
			if o.chdir != "" && (len(rest) == 0 || !hasCommand(rest)) {
				return f.Fail(&builtins.UsageError{Msg: "must specify command with --chdir (-C)"}, 125)
			}
			break
		}
		words, err := splitEnvString(*o.split, env.Environ)
		if err != nil {
			env.Errorf("%s", err)
			return 125
		}
		if o.debug {
			fmt.Fprintf(env.Stderr, "split -S:  %s\n", gnuQuote(*o.split))
			for i, w := range words {
				lead := " into:    "
				if i > 0 {
					lead = "     &    "
				}
				fmt.Fprintf(env.Stderr, "%s%s\n", lead, gnuQuote(w))
			}
		}
		o.split = nil
		args = append(words, rest...)
	}
	if o.badSignal != 0 {
		env.Errorf("failed to set signal action for signal %d: %s", o.badSignal, builtins.ErrText(syscall.EINVAL))
		return 125
	}
	if len(rest) > 0 && rest[0] == "-" {
		o.ignore, rest = true, rest[1:]
	}
	vars := env.Environ
	if o.ignore {
		vars = nil
		if o.debug {
			fmt.Fprintln(env.Stderr, "cleaning environ")
		}
	} else if o.debug {
		for _, u := range o.unset {
			fmt.Fprintf(env.Stderr, "unset:    %s\n", u)
		}
	}
	out := []string{}
	for _, kv := range vars {
		name, _, _ := strings.Cut(kv, "=")
		skip := false
		for _, u := range o.unset {
			skip = skip || u == name
		}
		if !skip {
			out = append(out, kv)
		}
	}
	for len(rest) > 0 && strings.Contains(rest[0], "=") {
		if o.debug {
			fmt.Fprintf(env.Stderr, "setenv:   %s\n", rest[0])
		}
		out = append(out, rest[0])
		rest = rest[1:]
	}
	out = setEnviron(out)
	if len(rest) == 0 {
		end := "\n"
		if o.null {
			end = "\x00"
		}
		return printLines(env, out, end, 0, 125) // GNU env fails with EXIT_CANCELED
	}
	if env.Exec == nil {
		env.Errorf("cannot run commands here")
		return 126
	}
	ctx := context.WithValue(env.Ctx, environKey{}, setEnviron(out))
	if o.chdir != "" {
		dir := env.Abs(o.chdir)
		if fi, err := env.FS.Stat(dir); err != nil || !fi.IsDir() {
			if err == nil {
				err = syscall.ENOTDIR
			}
			env.Errorf("cannot change directory to %s: %s", gnuQuote(o.chdir), builtins.ErrText(err))
			return 125
		}
		if o.debug {
			fmt.Fprintf(env.Stderr, "chdir:    %s\n", gnuQuote(o.chdir))
		}
		ctx = builtins.WithExecDir(ctx, dir)
	}
	if o.debug {
		fmt.Fprintf(env.Stderr, "executing: %s\n", rest[0])
		for i, a := range rest {
			fmt.Fprintf(env.Stderr, "   arg[%d]= %s\n", i, gnuQuote(a))
		}
	}
	return env.Exec(ctx, rest, env.Stdin, env.Stdout, env.Stderr)
}

// hasCommand reports whether env's operands name a command after their
// NAME=VALUE pairs (and a leading "-").
func hasCommand(rest []string) bool {
	if len(rest) > 0 && rest[0] == "-" {
		rest = rest[1:]
	}
	for _, a := range rest {
		if !strings.Contains(a, "=") {
			return true
		}
	}
	return false
}

// splitEnvString splits env -S's string as GNU env does: whitespace
// separates words; single quotes keep everything but \\ and \'; double
// quotes and bare text take the escapes \" \# \$ \' \\ \_ \c \f \n
// \r \t \v and ${NAME} (from environ); # starting a word ends the string.
func splitEnvString(s string, environ []string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	end := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
				continue
			}
			if c == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\'') {
				i++
				c = s[i]
			}
			cur.WriteByte(c)
			continue
		case quote == 0 && strings.IndexByte(" \t\n\v\f\r", c) >= 0:
			end()
			continue
		case quote == 0 && c == '#' && !inWord:
			return words, nil
		case c == '\'' && quote == 0, c == '"' && quote == 0:
			quote, inWord = c, true
			continue
		case c == '"':
			quote = 0
			continue
		}
		wasInWord := inWord
		inWord = true
		switch c {
		case '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("invalid backslash at end of string in -S")
			}
			i++
			switch e := s[i]; e {
			case 'c':
				if quote == '"' {
					return nil, fmt.Errorf("'\\c' must not appear in double-quoted -S string")
				}
				// \c after blanks ends the string without a word
				inWord = wasInWord
				end()
				return words, nil
			case '_':
				if quote == 0 {
					inWord = wasInWord
					end()
					continue
				}
				cur.WriteByte(' ')
			case 'f', 'n', 'r', 't', 'v':
				cur.WriteByte(map[byte]byte{'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}[e])
			case '"', '#', '$', '\'', '\\':
				cur.WriteByte(e)
			default:
				return nil, fmt.Errorf("invalid sequence '\\%c' in -S", e)
			}
		case '$':
			if i+1 >= len(s) || s[i+1] != '{' {
				return nil, fmt.Errorf("only ${VARNAME} expansion is supported, error at: %s", s[i:])
			}
			j := strings.IndexByte(s[i:], '}')
			name := ""
			if j > 0 {
				name = s[i+2 : i+j]
			}
			if j < 0 || !validEnvName(name) {
				return nil, fmt.Errorf("only ${VARNAME} expansion is supported, error at: %s", s[i:])
			}
			for _, kv := range environ {
				if v, ok := strings.CutPrefix(kv, name+"="); ok {
					cur.WriteString(v)
				}
			}
			i += j
		default:
			cur.WriteByte(c)
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("no terminating quote in -S string")
	}
	end()
	return words, nil
}

// validEnvName: a letter or _ then letters, digits and _.
func validEnvName(n string) bool {
	for i, c := range n {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return n != ""
}

// gnuQuote is GNU's quote(): 'text' in the C locale.
var gnuQuote = builtins.GNUQuote

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
