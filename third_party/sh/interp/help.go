// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"maps"
	"path"
	"slices"
	"strings"
)

// The `help` builtin, following bash: `help` lists every builtin's synopsis in
// two columns, `help NAME` prints the synopsis and description of one, and
// NAME may be a glob (`help ex*`). -d, -s and -m select short, synopsis-only
// and man-page-ish output.
//
// A builtin the interpreter recognizes but does not implement is marked with a
// star, the way bash marks disabled builtins — so `help` doubles as an honest
// statement of what this shell can do.

// builtinHelp is the synopsis and description of one builtin.
type builtinHelp struct {
	synopsis string
	desc     string
}

// helpTable is keyed by builtin name. Synopses are bash 5.2's, with the
// options llmsh has; descriptions are one line each (bash's long text is
// bashHelpText, helptext.go, which help prints where bash has one).
var helpTableOnce lazy[map[string]builtinHelp] // made on first use, not in init

// helpTable returns the table (the map literal was code in the package's init,
// run at every start of llmsh).
func helpTable() map[string]builtinHelp { return helpTableOnce.get(makeHelpTable) }

func makeHelpTable() map[string]builtinHelp {
	return map[string]builtinHelp{
		":":       {":", "Null command; expands arguments and returns success."},
		".":       {". filename [arguments]", "Execute commands from a file in the current shell."},
		"[":       {"[ arg... ]", "Evaluate a conditional expression; a synonym for `test' requiring a closing `]'."},
		"alias":   {"alias [-p] [name[=value] ... ]", "Define or display aliases. With no arguments, print the alias list."},
		"bg":      {"bg [job_spec ...]", "Resume jobs in the background."},
		"bind":    {"bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]", "Set Readline key bindings and variables. -l, -p, -P and -q list the line editor's keymap; in a script line editing is off, and nothing can be rebound."},
		"break":   {"break [n]", "Exit the enclosing for, while or until loop; with n, exit n levels."},
		"builtin": {"builtin [shell-builtin [arg ...]]", "Run a shell builtin, bypassing a function of the same name."},
		"caller":  {"caller [expr]", "Return the context of the current subroutine call."},
		"cd":      {"cd [-L|[-P [-e]] [-@]] [dir]", "Change the shell working directory."},
		"command": {"command [-pVv] command [arg ...]", "Run a command, bypassing shell function lookup."},
		"compgen": {"compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]", "Display possible completions depending on the options. Users and groups are llmsh's own; files come through vfsd."},
		"complete": {"complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]",
			"Specify how arguments are to be completed by readline."},
		"compopt":  {"compopt [-o|+o option] [-DEI] [name ...]", "Modify or display completion options."},
		"continue": {"continue [n]", "Resume the next iteration of the enclosing loop; with n, of the nth enclosing loop."},
		"declare": {"declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
			"Set variable values and attributes, or display them."},
		"dirs":   {"dirs [-clpv] [+N] [-N]", "Display the list of currently remembered directories."},
		"disown": {"disown [-h] [-ar] [jobspec ... | pid ...]", "Remove jobs from the current shell's job table."},
		"echo":   {"echo [-neE] [arg ...]", "Write arguments to standard output, separated by spaces."},
		"enable": {"enable [-a] [-dnps] [-f filename] [name ...]", "Enable and disable shell builtins. A disabled builtin's name runs a function or command of that name; -f and -d refuse, as llmsh loads no shared objects."},
		"eval":   {"eval [arg ...]", "Concatenate arguments into a single command and execute it."},
		"exec":   {"exec [-cl] [-a name] [command [argument ...]] [redirection ...]", "Replace the shell with the given command."},
		"exit":   {"exit [n]", "Exit the shell with status n; without n, the status of the last command."},
		"export": {"export [-fn] [name[=value] ...] or export -p", "Mark names for automatic export to the environment."},
		"false":  {"false", "Return an unsuccessful result."},
		"fc":     {"fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]", "Display or execute commands from the history list: -l lists, -s runs one again with pat=rep applied. No editor is run. A script has no history."},
		"fg":     {"fg [job_spec]", "Move a job to the foreground."},
		"for":    {"for NAME [in WORDS ... ] ; do COMMANDS; done", "Execute commands for each member in a list."},
		"getopts": {"getopts optstring name [arg ...]",
			"Parse option arguments, one at a time, as a shell script would."},
		"hash":    {"hash [-lr] [-p pathname] [-dt] [name ...]", "Remember or display program locations."},
		"help":    {"help [-dms] [pattern ...]", "Display information about builtin commands."},
		"history": {"history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]", "Display the history list."},
		"jobs":    {"jobs [-lnprs] [jobspec ...] or jobs -x command [args]", "Display status of jobs."},
		"kill":    {"kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]", "Send a signal to a job or process."},
		"let":     {"let arg [arg ...]", "Evaluate arithmetic expressions."},
		"local":   {"local [option] name[=value] ...", "Define local variables inside a shell function."},
		"logout":  {"logout [n]", "Exit a login shell. llmsh is never one: use `exit'."},
		"mapfile": {"mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
			"Read lines from the standard input into an indexed array variable."},
		"popd":   {"popd [-n] [+N | -N]", "Remove directories from the stack."},
		"printf": {"printf [-v var] format [arguments]", "Format and print arguments under control of the format."},
		"pushd":  {"pushd [-n] [+N | -N | dir]", "Add directories to the stack and change to the top."},
		"pwd":    {"pwd [-LP]", "Print the name of the current working directory."},
		"read":   {"read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]", "Read a line from the standard input and split it into fields."},
		"readarray": {"readarray [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
			"Read lines from a file into an indexed array variable; a synonym for `mapfile'."},
		"readonly": {"readonly [-aAf] [name[=value] ...] or readonly -p", "Mark names as unchangeable."},
		"return":   {"return [n]", "Return from a shell function with status n."},
		"set":      {"set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]", "Set or unset shell options and positional parameters."},
		"shift":    {"shift [n]", "Shift positional parameters left by n (default 1)."},
		"shopt":    {"shopt [-pqsu] [-o] [optname ...]", "Set and unset shell options."},
		"source":   {"source filename [arguments]", "Execute commands from a file in the current shell; a synonym for `.'."},
		"suspend":  {"suspend [-f]", "Suspend shell execution until it gets SIGCONT. llmsh is never a job of another shell: it refuses."},
		"test":     {"test [expr]", "Evaluate a conditional expression and return 0 or 1."},
		"times":    {"times", "Display process times for the shell and its children."},
		"trap":     {"trap [-lp] [[arg] signal_spec ...]", "Trap signals and other events."},
		"true":     {"true", "Return a successful result."},
		"type":     {"type [-afptP] name [name ...]", "Display information about the type of each name."},
		"typeset": {"typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
			"Set variable values and attributes; a synonym for `declare'."},
		"ulimit":  {"ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]", "Modify or display shell resource limits."},
		"umask":   {"umask [-p] [-S] [mode]", "Display or set the file mode creation mask."},
		"unalias": {"unalias [-a] name [name ...]", "Remove each name from the list of aliases."},
		"unset":   {"unset [-f] [-v] [-n] [name ...]", "Unset values and attributes of shell variables and functions."},
		"wait":    {"wait [-fn] [-p var] [id ...]", "Wait for job completion and return exit status."},
		// The shell's keywords and help's other topics, as bash's help has
		// them (llmsh: so that help if, help '[[' and help time answer).
		"%":         {"job_spec [&]", "Resume job in foreground."},
		"(( ... ))": {"(( expression ))", "Evaluate arithmetic expression."},
		"[[ ... ]]": {"[[ expression ]]", "Execute conditional command."},
		"case":      {"case WORD in [PATTERN [| PATTERN]...) COMMANDS ;;]... esac", "Execute commands based on pattern matching."},
		"coproc":    {"coproc [NAME] command [redirections]", "Create a coprocess named NAME."},
		"for ((":    {"for (( exp1; exp2; exp3 )); do COMMANDS; done", "Arithmetic for loop."},
		"function":  {"function name { COMMANDS ; } or name () { COMMANDS ; }", "Define shell function."},
		"if":        {"if COMMANDS; then COMMANDS; [ elif COMMANDS; then COMMANDS; ]... [ else COMMANDS; ] fi", "Execute commands based on conditional."},
		"select":    {"select NAME [in WORDS ... ;] do COMMANDS; done", "Select words from a list and execute commands."},
		"time":      {"time [-p] pipeline", "Report time consumed by pipeline's execution."},
		"until":     {"until COMMANDS; do COMMANDS-2; done", "Execute commands as long as a test does not succeed."},
		"variables": {"variables - Names and meanings of some shell variables", "Common shell variable names and usage."},
		"while":     {"while COMMANDS; do COMMANDS-2; done", "Execute commands as long as a test succeeds."},
		"{ ... }":   {"{ COMMANDS ; }", "Group commands as a unit."},
	}
}

// helpNotes say where a builtin of llmsh differs from what bash's text
// says; help prints the note as a last paragraph.
var helpNotesOnce lazy[map[string]string] // made on first use, not in init

// helpNotes returns the table (the map literal was code in the package's init,
// run at every start of llmsh).
func helpNotes() map[string]string { return helpNotesOnce.get(makeHelpNotes) }

func makeHelpNotes() map[string]string {
	return map[string]string{
		"%":       "llmsh: a job_spec alone is not a command: fg and bg resume a job.",
		"bind":    "llmsh: -l, -p, -P and -q list the line editor's keymap; in a script line editing is off, and nothing can be rebound.",
		"cd":      "llmsh: -@ is not supported (files have no extended attributes here).",
		"command": "llmsh: every command is one of llmsh's builtins: -v prints its name, not a path, and -p changes nothing.",
		"compgen": "llmsh: users and groups are llmsh's own; files come through vfsd.",
		"enable":  "llmsh: -f and -d refuse, as llmsh loads no shared objects; a disabled builtin's name runs a function or command of that name.",
		"exec":    "llmsh: no host program is ever run: the command is one of llmsh's builtins, and the shell ends after it.",
		"fc":      "llmsh: no editor is run (-e - and -s run a command again); a script has no history.",
		"hash":    "llmsh: every command is one of llmsh's builtins: there are no program paths to remember, only those given with -p.",
		"help":    "llmsh: without PATTERN, help lists the shell builtins and then llmsh's commands, each with what it does; a PATTERN naming one of those commands shows its --help.",
		"history": "llmsh: a script's list holds what -s adds; -a, -n, -r and -w have no history file to use, and -p expands nothing. The interactive shell lists the lines typed there (with N, the last N) and takes no option.",
		"jobs":    "llmsh: -x puts the job's virtual process id ($!) for each jobspec.",
		"kill":    "llmsh: only llmsh's own jobs and the shell itself can be signalled; any other PID is \"No such process\".",
		"logout":  "llmsh: llmsh is never a login shell: use `exit'.",
		"pwd":     "llmsh: -P prints what -L prints: symbolic links are resolved by vfsd, which never says where one leads outside the grants.",
		"suspend": "llmsh: llmsh is never a job of another shell: it refuses.",
		"type":    "llmsh: every command is one of llmsh's builtins: type says `builtin', -p prints nothing and -P the name.",
		"ulimit":  "llmsh: the limits shown are llmsh's; changing one fails with \"Operation not permitted\".",
	}
}

// helpText is the text under the synopsis of `help NAME`: bash's, or the
// one-line description where bash has none, and llmsh's note.
func helpText(name string) string {
	text, ok := bashHelpText()[name]
	if !ok {
		text = "    " + helpTable()[name].desc + "\n"
	}
	if note := helpNotes()[name]; note != "" {
		// within bash's 80 columns
		text += "    \n" + wrapNote(note) + "\n"
	}
	return text
}

// helpShort is `help -d NAME`'s description: the first line of bash's text.
func helpShort(name string) string {
	if text, ok := bashHelpText()[name]; ok {
		first, _, _ := strings.Cut(text, "\n")
		return strings.TrimSpace(first)
	}
	return helpTable()[name].desc
}

// helpMatch returns the documented names matching a bash-style pattern. An
// exact name wins; otherwise the pattern is matched as a glob, and as a
// prefix, like bash's `help ex*` and `help ex`.
func helpMatch(pattern string) []string {
	if _, ok := helpTable()[pattern]; ok {
		return []string{pattern}
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(helpTable())) {
		if ok, err := path.Match(pattern, name); err == nil && ok {
			out = append(out, name)
			continue
		}
		if strings.HasPrefix(name, pattern) {
			out = append(out, name)
		}
	}
	return out
}

// HelpTopics returns the builtins help PATTERN describes, as bash's help
// finds them: the exact name, or the names the glob matches, or else the
// names it begins (llmsh: for its own help command).
func HelpTopics(pattern string) []string { return helpMatch(pattern) }

// helpLine is the two-column list entry for a builtin, starred when
// enable -n has turned it off, as bash stars it.
func (r *Runner) helpLine(name string) string {
	star := " "
	if r.disabled[name] {
		star = "*"
	}
	return star + helpTable()[name].synopsis
}

// runHelp implements the help builtin. It writes through the runner so it
// honours redirections like every other builtin.
func (r *Runner) runHelp(args []string) exitStatus {
	var short, synopsisOnly, manStyle bool
	rest := args
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") && rest[0] != "-" {
		switch rest[0] {
		case "-d":
			short = true
		case "-s":
			synopsisOnly = true
		case "-m":
			manStyle = true
		case "--":
			rest = rest[1:]
			goto patterns
		default:
			r.errf("help: %s: invalid option\n", rest[0])
			r.errf("help: usage: %s\n", helpTable()["help"].synopsis)
			return exitStatus{code: 2}
		}
		rest = rest[1:]
	}
patterns:

	if len(rest) == 0 {
		r.out("A shell built on mvdan.cc/sh/v3. These shell commands are defined internally.\n")
		r.out("Type `help' to see this list.\n")
		r.out("Type `help name' to find out more about the function `name'.\n\n")
		r.out("A star (*) next to a name means that the command is disabled.\n\n")

		names := slices.Sorted(maps.Keys(helpTable()))
		// two columns, like bash: first half down the left, second half right
		half := (len(names) + 1) / 2
		for i := 0; i < half; i++ {
			left := r.helpLine(names[i])
			if i+half < len(names) {
				r.outf("%-78s%s\n", left, r.helpLine(names[i+half]))
			} else {
				r.outf("%s\n", left)
			}
		}
		return exitStatus{}
	}

	exit := exitStatus{}
	for _, pattern := range rest {
		matches := helpMatch(pattern)
		if len(matches) == 0 {
			r.errf("help: no help topics match `%s'.  Try `help help'.\n", pattern)
			exit = exitStatus{code: 1}
			continue
		}
		for _, name := range matches {
			h := helpTable()[name]
			switch {
			case synopsisOnly:
				r.outf("%s: %s\n", name, h.synopsis)
			case short:
				r.outf("%s - %s\n", name, helpShort(name))
			case manStyle:
				r.outf("NAME\n    %s - %s\n\nSYNOPSIS\n    %s\n\nDESCRIPTION\n%s\n",
					name, helpShort(name), h.synopsis, helpText(name))
			default:
				r.outf("%s: %s\n%s", name, h.synopsis, helpText(name))
			}
		}
	}
	return exit
}

// BuiltinHelp returns what `help NAME` shows for a shell builtin: the
// synopsis, the one-line description (help -d) and the text under the
// synopsis (bash's, with llmsh's note). llmsh: its own help command shows
// them for the interpreter's builtins.
func BuiltinHelp(name string) (synopsis, short, text string, ok bool) {
	h, ok := helpTable()[name]
	if !ok {
		return "", "", "", false
	}
	return h.synopsis, helpShort(name), helpText(name), true
}

// noDashHelp are the builtins that take --help as an operand, as bash's.
var noDashHelpOnce lazy[map[string]bool] // made on first use, not in init

// noDashHelp returns the table (the map literal was code in the package's init,
// run at every start of llmsh).
func noDashHelp() map[string]bool { return noDashHelpOnce.get(makeNoDashHelp) }

func makeNoDashHelp() map[string]bool {
	return map[string]bool{"echo": true, "test": true, "[": true, ":": true, "true": true, "false": true}
}

// dashHelp answers `NAME --help ...` for a builtin as bash does (its
// CHECK_HELPOPT looks at the first argument only): the help text on
// stdout, status 2. ok is false when NAME takes --help otherwise.
func (r *Runner) dashHelp(name string, args []string) (exitStatus, bool) {
	if len(args) == 0 || args[0] != "--help" || noDashHelp()[name] {
		return exitStatus{}, false
	}
	h, ok := helpTable()[name]
	if !ok {
		return exitStatus{}, false
	}
	r.outf("%s: %s\n%s", name, h.synopsis, helpText(name))
	return exitStatus{code: 2}, true
}

// wrapNote fills llmsh's note into lines of at most 79 columns indented
// by four spaces, as bash's help texts are (a word too long for a line
// stays whole). The vendored fork imports none of llmsh's packages.
func wrapNote(note string) string {
	const width, indent = 79, "    "
	var b strings.Builder
	line := indent
	for _, w := range strings.Fields(note) {
		if line != indent && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += w
	}
	b.WriteString(line)
	return b.String()
}
