// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// llmsh: the bash builtins about the interactive shell — enable, logout,
// suspend, fc and bind — as bash 5.2 runs them in a script, and at
// llmsh's prompt where that differs. complete, compgen and compopt are in
// complete.go.

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// builtinNames are the names [IsBuiltin] accepts, in bash's order (its
// builtin table is sorted), for enable's listings and compgen -b.
var builtinNames = []string{
	".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd",
	"command", "compgen", "complete", "compopt", "continue", "declare", "dirs",
	"disown", "echo", "enable", "eval", "exec", "exit", "export", "false", "fc",
	"fg", "getopts", "hash", "help", "history", "jobs", "kill", "let", "local",
	"logout", "mapfile", "popd", "printf", "pushd", "pwd", "read",
	"readarray", "readonly", "return", "set", "shift", "shopt", "source",
	"suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit",
	"umask", "unalias", "unset", "wait",
}

// specialBuiltins are POSIX's special builtins as bash's `enable -s` lists
// them (bash counts source among them).
var specialBuiltins = map[string]bool{
	".": true, ":": true, "break": true, "continue": true, "eval": true,
	"exec": true, "exit": true, "export": true, "readonly": true,
	"return": true, "set": true, "shift": true, "source": true, "times": true,
	"trap": true, "unset": true,
}

// isBuiltin reports whether name runs as a builtin here: one of the
// shell's, and not disabled by `enable -n`.
func (r *Runner) isBuiltin(name string) bool {
	return IsBuiltin(name) && !r.disabled[name]
}

// BuiltinEnabled reports whether name is a shell builtin that `enable -n`
// has not disabled in this runner.
func (r *Runner) BuiltinEnabled(name string) bool { return r.isBuiltin(name) }

// usageFail prints bash's "NAME: -X: invalid option" (or "option
// requires an argument") and the usage line; the status is 2.
func (r *Runner) usageFail(name, opt, problem, usage string) exitStatus {
	r.errf("%s%s: %s: %s\n%s: usage: %s\n", r.errPrefix(), name, opt, problem, name, usage)
	return exitStatus{code: 2}
}

// noOptions is bash's no_options: a leading "--" is dropped, any other
// option is an invalid one (the usage line, status 2). ok is false when
// the builtin is to fail with exit.
func (r *Runner) noOptions(name, usage string, args []string) (rest []string, exit exitStatus, ok bool) {
	if len(args) > 0 && args[0] == "--" {
		return args[1:], exit, true
	}
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		return nil, r.usageFail(name, args[0][:2], "invalid option", usage), false
	}
	return args, exit, true
}

// bashOpts splits args into bash's internal_getopt options: letters
// from optstring (a letter followed by ':' takes a value, in the same word
// or the next), the operands after them; with '#' in optstring, -N (a
// digit after the dash) is an operand, as in fc -l -5. bad, when not empty, is the
// offending option and why.
type builtinOpt struct {
	c     byte
	value string
	plus  bool
}

func bashOpts(args []string, optstring string, plus bool) (opts []builtinOpt, rest []string, badOpt, problem string) {
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return opts, args[1:], "", ""
		}
		if len(a) < 2 || (a[0] != '-' && !(plus && a[0] == '+')) {
			break
		}
		if a[0] == '-' && a[1] >= '0' && a[1] <= '9' && strings.Contains(optstring, "#") {
			break // fc's -N: an operand
		}
		args = args[1:]
		for i := 1; i < len(a); i++ {
			c := a[i]
			k := strings.IndexByte(optstring, c)
			if k < 0 || c == ':' || c == '#' {
				return opts, nil, a[:1] + string(c), "invalid option"
			}
			o := builtinOpt{c: c, plus: a[0] == '+'}
			if k+1 < len(optstring) && optstring[k+1] == ':' {
				switch {
				case i+1 < len(a):
					o.value = a[i+1:]
				case len(args) > 0:
					o.value, args = args[0], args[1:]
				default:
					return opts, nil, a[:1] + string(c), "option requires an argument"
				}
				opts = append(opts, o)
				break
			}
			opts = append(opts, o)
		}
	}
	return opts, args, "", ""
}

const enableUsage = "enable [-a] [-dnps] [-f filename] [name ...]"

// builtinEnable is bash's enable: -n disables a builtin, so that its name
// runs a function or command of that name, or is not found; without
// names it lists the builtins. Loadable builtins (-f, -d) do not exist.
func (r *Runner) builtinEnable(args []string) exitStatus {
	opts, names, bad, problem := bashOpts(args, "adnpsf:", false)
	if bad != "" {
		return r.usageFail("enable", bad, problem, enableUsage)
	}
	var all, disable, special, dynamic bool
	for _, o := range opts {
		switch o.c {
		case 'a':
			all = true
		case 'n':
			disable = true
		case 's':
			special = true
		case 'd':
			dynamic = true
		case 'f':
			r.errf("%senable: cannot open shared object %s: loadable builtins are not supported by llmsh\n", r.errPrefix(), o.value)
			return exitStatus{code: 1}
		}
	}
	if len(names) == 0 {
		for _, n := range builtinNames {
			off := r.disabled[n]
			switch {
			case special && !specialBuiltins[n]:
			case all:
				r.outf("enable %s%s\n", map[bool]string{true: "-n "}[off], n)
			case disable && off:
				r.outf("enable -n %s\n", n)
			case !disable && !off:
				r.outf("enable %s\n", n)
			}
		}
		return exitStatus{}
	}
	var exit exitStatus
	for _, n := range names {
		switch {
		case !IsBuiltin(n):
			r.errf("%senable: %s: not a shell builtin\n", r.errPrefix(), n)
			exit.code = 1
		case dynamic:
			r.errf("%senable: %s: not dynamically loaded\n", r.errPrefix(), n)
			exit.code = 1
		case disable:
			if r.disabled == nil {
				r.disabled = map[string]bool{}
			}
			r.disabled[n] = true
		default:
			delete(r.disabled, n)
		}
	}
	return exit
}

// builtinLogout is bash's logout: llmsh is never a login shell.
func (r *Runner) builtinLogout() exitStatus {
	r.errf("%slogout: not login shell: use `exit'\n", r.errPrefix())
	return exitStatus{code: 1}
}

// builtinSuspend is bash's suspend. A script has no job control, as in
// bash; at llmsh's prompt there is no parent shell to stop to.
func (r *Runner) builtinSuspend(args []string) exitStatus {
	_, rest, bad, problem := bashOpts(args, "f", false)
	if bad != "" {
		return r.usageFail("suspend", bad, problem, "suspend [-f]")
	}
	if len(rest) > 0 {
		return r.tooManyArgs("suspend") // abandons the command line, as bash
	}
	if r.llmsh.jobControl {
		r.errf("%ssuspend: cannot suspend: llmsh's shell is not a job of another shell\n", r.errPrefix())
		return exitStatus{code: 1}
	}
	r.errf("%ssuspend: cannot suspend: no job control\n", r.errPrefix())
	return exitStatus{code: 1}
}

// virtualUser is the name of llmsh's one user and of its group.
const virtualUser = "llmsh"

// History gives the runner the command history of an interactive shell,
// oldest first, with the line being run last, for fc; without it, as in
// a bash script, the history is empty.
func History(entries func() []string) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.history = entries
		return nil
	}
}

// CommandNames gives compgen -c the names of the embedder's commands
// (those its exec handler runs), after the shell's own names.
func CommandNames(names func() []string) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.commands = names
		return nil
	}
}

const fcUsage = "fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]"

// builtinFc is bash's fc over the history (see [History]): -l lists,
// -s re-runs a command with pat=rep applied. An editor is never run.
func (r *Runner) builtinFc(ctx context.Context, args []string) exitStatus {
	opts, rest, bad, problem := bashOpts(args, "e:lnrs#", false)
	if bad != "" {
		return r.usageFail("fc", bad, problem, fcUsage)
	}
	var list, numbers, reverse, again bool
	editor := ""
	numbers = true
	for _, o := range opts {
		switch o.c {
		case 'e':
			editor = o.value
		case 'l':
			list = true
		case 'n':
			numbers = false
		case 'r':
			reverse = true
		case 's':
			again = true
		}
	}
	// The prompt's history, or the script's (scripthist.go): the line
	// running fc is in it when it was recorded, and is not one of the
	// commands fc finds.
	hist, current := r.scriptHist, r.opts[optHistory]
	base := r.histBase
	if r.llmsh.history != nil {
		hist, current, base = r.llmsh.history(), true, 0
	}
	if current && len(hist) > 0 {
		hist = hist[:len(hist)-1]
	}
	if again || editor == "-" {
		return r.fcAgain(ctx, hist, rest, base)
	}
	if len(hist) == 0 && !current {
		return exitStatus{} // bash's fc with its history off
	}
	if !list {
		r.errf("%sfc: no editor can run in llmsh: use fc -s [pat=rep] [command] to run a command again\n", r.errPrefix())
		return exitStatus{code: 1}
	}
	if len(hist) == 0 {
		// llmsh: nothing to list (the line running left out): bash
		// prints nothing either. hist[0] below was a Go panic.
		return exitStatus{}
	}
	// fc -l lists the last 16 commands.
	first, last := max(len(hist)-16, 0), len(hist)-1
	if len(rest) > 0 {
		i, ok := fcFind(hist, rest[0], base)
		if !ok {
			return r.fcNotFound(rest[0])
		}
		first, last = i, len(hist)-1
		if len(rest) > 1 {
			if last, ok = fcFind(hist, rest[1], base); !ok {
				return r.fcNotFound(rest[1])
			}
		}
	}
	if first > last {
		first, last, reverse = last, first, !reverse
	}
	for k := range last - first + 1 {
		i := first + k
		if reverse {
			i = last - k
		}
		if numbers {
			r.outf("%d\t %s\n", base+i+1, hist[i])
		} else {
			r.outf("\t %s\n", hist[i])
		}
	}
	return exitStatus{}
}

// fcNotFound is fc's error for a FIRST or LAST that names no entry: a
// number out of range, or a text no command starts with.
func (r *Runner) fcNotFound(spec string) exitStatus {
	if _, err := strconv.Atoi(spec); err != nil {
		r.errf("%sfc: no command found\n", r.errPrefix())
	} else {
		r.errf("%sfc: history specification out of range\n", r.errPrefix())
	}
	return exitStatus{code: 1}
}

// fcFind finds a history entry as fc's FIRST and LAST: a number (negative
// counts back from the end), or the latest command starting with the text.
func fcFind(hist []string, spec string, base int) (int, bool) {
	if n, err := strconv.Atoi(spec); err == nil {
		if n > 0 {
			n = max(n-base, 1) // llmsh: numbers past what HISTSIZE dropped
		}
		switch {
		case n < 0 && len(hist)+n >= 0:
			return len(hist) + n, true
		case n > 0:
			return min(n, len(hist)) - 1, len(hist) > 0
		case n == 0 && len(hist) > 0:
			return len(hist) - 1, true
		}
		return 0, false
	}
	for i := len(hist) - 1; i >= 0; i-- {
		if strings.HasPrefix(hist[i], spec) {
			return i, true
		}
	}
	return 0, false
}

// fcAgain is fc -s [pat=rep] [command]: the command is printed and run
// again in this shell.
func (r *Runner) fcAgain(ctx context.Context, hist []string, rest []string, base int) exitStatus {
	var pat, rep string
	if len(rest) > 0 {
		if p, q, ok := strings.Cut(rest[0], "="); ok {
			pat, rep, rest = p, q, rest[1:]
		}
	}
	i, ok := len(hist)-1, len(hist) > 0
	if len(rest) > 0 {
		i, ok = fcFind(hist, rest[0], base)
	}
	if !ok {
		r.errf("%sfc: no command found\n", r.errPrefix())
		return exitStatus{code: 1}
	}
	src := hist[i]
	if pat != "" {
		src = strings.ReplaceAll(src, pat, rep) // bash: every occurrence
	}
	// bash echoes the command on stderr; in a script's history, it
	// takes the place of the line that ran fc.
	r.errf("%s\n", src)
	if r.llmsh.history == nil && r.opts[optHistory] && len(r.scriptHist) > 0 {
		hist := slices.Clip(r.scriptHist)
		if !r.histLineOut {
			hist = slices.Clip(hist[:len(hist)-1])
			r.histLineOut = true
		}
		r.scriptHist = hist
		r.histAdd(src)
	}
	file, err := r.parseText(src, "")
	if err != nil {
		r.errf("%s: %v\n", shellName, err)
		return exitStatus{code: 2}
	}
	oldText := r.text
	r.setText(textPlace{lineOffset: int(r.lineEnd) - 1, src: src})
	defer r.setText(oldText)
	r.stmts(ctx, file.Stmts)
	return r.exit
}

const bindUsage = "bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]"

// editorKeys is the keymap of llmsh's line editor (chzyer/readline in
// emacs mode), by readline function name, in bash's notation.
var editorKeysOnce lazy[map[string][]string] // made on first use, not in init

// editorKeys returns the table (the map literal was code in the package's init,
// run at every start of llmsh).
func editorKeys() map[string][]string { return editorKeysOnce.get(makeEditorKeys) }

func makeEditorKeys() map[string][]string {
	return map[string][]string{
		"abort":                  {`\C-g`},
		"accept-line":            {`\C-j`, `\C-m`},
		"backward-char":          {`\C-b`, `\e[D`},
		"backward-delete-char":   {`\C-h`, `\C-?`},
		"backward-kill-word":     {`\C-w`, `\e\C-?`},
		"backward-word":          {`\eb`},
		"beginning-of-line":      {`\C-a`, `\e[H`},
		"clear-screen":           {`\C-l`},
		"complete":               {`\C-i`},
		"delete-char":            {`\C-d`},
		"end-of-line":            {`\C-e`, `\e[F`},
		"forward-char":           {`\C-f`, `\e[C`},
		"forward-search-history": {`\C-s`},
		"forward-word":           {`\ef`},
		"kill-line":              {`\C-k`},
		"kill-word":              {`\ed`},
		"next-history":           {`\C-n`, `\e[B`},
		"previous-history":       {`\C-p`, `\e[A`},
		"reverse-search-history": {`\C-r`},
		"transpose-chars":        {`\C-t`},
		"unix-line-discard":      {`\C-u`},
		"yank":                   {`\C-y`},
	}
}

// bindKeymaps are the keymap names bind -m accepts, as readline's.
var bindKeymaps = []string{"emacs", "emacs-standard", "emacs-meta", "emacs-ctlx", "vi", "vi-move", "vi-command", "vi-insert"}

// builtinBind is bash's bind. In a script, as in bash, line editing is
// off: bind warns, lists, and changes nothing. At llmsh's prompt it lists
// the line editor's real keymap, which takes no new bindings.
func (r *Runner) builtinBind(ctx context.Context, args []string) exitStatus {
	interactive := r.llmsh.jobControl
	if !interactive {
		r.errf("%sbind: warning: line editing not enabled\n", r.errPrefix())
	}
	opts, rest, bad, problem := bashOpts(args, "lvpVPsSXf:q:u:m:r:x:", false)
	if bad != "" {
		return r.usageFail("bind", bad, problem, bindUsage)
	}
	funcs := slices.Sorted(maps.Keys(editorKeys()))
	changes := len(rest) > 0
	for _, o := range opts {
		switch o.c {
		case 'm':
			if !slices.Contains(bindKeymaps, o.value) {
				r.errf("%sbind: `%s': invalid keymap name\n", r.errPrefix(), o.value)
				return exitStatus{code: 1}
			}
		case 'l':
			for _, f := range funcs {
				r.outf("%s\n", f)
			}
		case 'p', 'P':
			r.bindList(funcs, o.c == 'P')
		case 'q':
			keys, ok := editorKeys()[o.value]
			switch {
			case !ok:
				r.errf("%sbind: `%s': unknown function name\n", r.errPrefix(), o.value)
				return exitStatus{code: 1}
			default:
				r.outf("%s can be invoked via %s.\n", o.value, quoteKeys(keys))
			}
		case 'f':
			if _, err := r.stat(ctx, o.value); err != nil {
				msg := "No such file or directory"
				if !errors.Is(err, fs.ErrNotExist) {
					msg = errText(err)
				}
				r.errf("%sbind: %s: cannot read: %s\n", r.errPrefix(), o.value, msg)
				return exitStatus{code: 1}
			}
			changes = true
		case 'u', 'r', 'x':
			changes = true
		}
	}
	if changes && interactive {
		r.errf("%sbind: llmsh's line editor takes no new key bindings\n", r.errPrefix())
		return exitStatus{code: 1}
	}
	return exitStatus{}
}

// bindList is bind -p (in inputrc's form) and -P (in words).
func (r *Runner) bindList(funcs []string, words bool) {
	if !words {
		r.out("\n")
	}
	for _, f := range funcs {
		keys := editorKeys()[f]
		if words {
			r.outf("%s can be found on %s.\n", f, quoteKeys(keys))
			continue
		}
		for _, k := range keys {
			r.outf("\"%s\": %s\n", k, f)
		}
	}
}

func quoteKeys(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = `"` + k + `"`
	}
	return strings.Join(q, ", ")
}

// bashBuiltin runs the builtins of this file and complete.go; ok is false
// for any other name.
func (r *Runner) bashBuiltin(ctx context.Context, name string, args []string) (exitStatus, bool) {
	switch name {
	case "enable":
		return r.builtinEnable(args), true
	case "logout":
		return r.builtinLogout(), true
	case "suspend":
		return r.builtinSuspend(args), true
	case "fc":
		return r.builtinFc(ctx, args), true
	case "history":
		return r.builtinHistory(args), true
	case "bind":
		return r.builtinBind(ctx, args), true
	case "complete":
		return r.builtinComplete(args), true
	case "compopt":
		return r.builtinCompopt(args), true
	case "compgen":
		return r.builtinCompgen(ctx, args), true
	}
	return exitStatus{}, false
}

const historyUsage = "history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]"

// builtinHistory is history in a script, where bash records no command
// but keeps a list all the same: -s adds its arguments as one entry, -c
// clears, -d N deletes entry N (negative: from the end; START-END a
// range), N lists the last N, -p prints its arguments (no history
// expansion), -anrw have no file to use (llmsh). A subshell has a copy.
// The interactive shell's history is the embedder's (RouteBuiltins).
func (r *Runner) builtinHistory(args []string) exitStatus {
	opts, rest, bad, problem := bashOpts(args, "cd:anrwps", false)
	if bad != "" {
		return r.usageFail("history", bad, problem, historyUsage)
	}
	files := 0
	for _, o := range opts {
		switch o.c {
		case 'c':
			r.scriptHist = nil
		case 'a', 'n', 'r', 'w':
			files++
		case 'p':
			for _, a := range rest {
				r.outf("%s\n", a)
			}
			return exitStatus{}
		case 's':
			if len(rest) > 0 {
				hist := slices.Clip(r.scriptHist)
				if r.opts[optHistory] && len(hist) > 0 && !r.histLineOut {
					// bash: the line running history -s gives way
					// to the entry it adds (once: more -s on that
					// line add after it).
					hist = slices.Clip(hist[:len(hist)-1])
					r.histLineOut = true
				}
				r.scriptHist = hist
				r.histAdd(strings.Join(rest, " "))
			}
			return exitStatus{}
		}
	}
	if files > 1 {
		r.errf("%shistory: cannot use more than one of -anrw\n", r.errPrefix())
		return exitStatus{code: 1}
	}
	for _, o := range opts {
		if o.c == 'd' {
			return r.historyDelete(o.value)
		}
	}
	if files == 1 {
		return exitStatus{}
	}
	first := 0
	switch {
	case len(rest) > 1:
		return r.tooManyArgs("history") // llmsh: bash discards the line
	case len(rest) == 1:
		n, err := strconv.Atoi(rest[0])
		if err != nil {
			r.errf("%shistory: %s: numeric argument required\n", r.errPrefix(), rest[0])
			return exitStatus{code: 1}
		}
		first = max(0, len(r.scriptHist)-max(n, 0))
	}
	for i := first; i < len(r.scriptHist); i++ {
		r.outf("%5d  %s\n", r.histBase+i+1, r.scriptHist[i])
	}
	return exitStatus{}
}

// historyDelete is history -d SPEC: one entry, from the end when
// negative, or START-END (llmsh).
func (r *Runner) historyDelete(spec string) exitStatus {
	pos := func(s string) (int, bool) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, false
		}
		if n < 0 {
			n += len(r.scriptHist) + 1
		} else {
			n -= r.histBase // llmsh: numbers past what HISTSIZE dropped
		}
		return n, n >= 1 && n <= len(r.scriptHist)
	}
	lo, hi := spec, spec
	if i := strings.LastIndexByte(spec, '-'); i > 0 {
		lo, hi = spec[:i], spec[i+1:]
	}
	a, okA := pos(lo)
	b, okB := pos(hi)
	if okA && okB && a > b {
		return exitStatus{code: 1} // bash says nothing
	}
	if !okA || !okB {
		r.errf("%shistory: %s: history position out of range\n", r.errPrefix(), spec)
		return exitStatus{code: 1}
	}
	r.scriptHist = slices.Delete(slices.Clone(r.scriptHist), a-1, b)
	return exitStatus{}
}
