// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// The trap builtin as bash has it: EXIT, ERR, DEBUG, RETURN and the
// signals by name or number, trap -l, trap -p, a subshell's own EXIT
// trap, and the DEBUG and RETURN traps kept out of functions that do not
// set them. Signals reach a shell only from kill (signals.go): the host's
// are never caught. See LLMSH.md.

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// Trap names that are no signal, after the signals in trap -p's order.
const (
	trapDebug  = "DEBUG"
	trapReturn = "RETURN"
)

// trapSpec resolves a trap's signal spec: EXIT (or 0), ERR, DEBUG,
// RETURN, or a signal by name (INT, SIGINT, int) or number. ok is false
// for anything else; SIGEXIT is not EXIT, as in bash.
func trapSpec(s string) (string, bool) {
	switch u := strings.ToUpper(s); u {
	case "EXIT", "0":
		return "EXIT", true
	case "ERR", "DEBUG", "RETURN":
		return u, true
	}
	if s == "32" || s == "33" {
		return s, true // llmsh: bash's signals with no name, by number
	}
	n, ok := signalNumber(s)
	if !ok || n == 0 {
		return "", false
	}
	return signalName(n), true
}

// trapOrder lists the traps in bash's order for trap -p: EXIT, the
// signals by number, DEBUG, ERR, RETURN.
func trapOrder() []string {
	names := []string{"EXIT"}
	for n := 1; n <= sigMax; n++ {
		if name := signalName(n); name != "" {
			names = append(names, name)
		} else if n == 32 || n == 33 {
			names = append(names, strconv.Itoa(n))
		}
	}
	return append(names, trapDebug, "ERR", trapReturn)
}

// trapAction returns the action of a trap and whether it is set ("" set:
// the signal is ignored).
func (r *Runner) trapAction(name string) (string, bool) {
	switch name {
	case "EXIT":
		return r.callbackExit, r.callbackExit != "" || r.exitIgnored
	case "ERR":
		return r.callbackErr, r.callbackErr != "" || r.errIgnored
	}
	a, ok := r.traps[name]
	return a, ok
}

func (r *Runner) setTrap(name, action string, reset bool) {
	if r.llmsh.entryIgnored[name] {
		return // llmsh: bash's rule for a signal ignored at entry
	}
	switch name {
	case "EXIT":
		r.callbackExit = action
		r.exitIgnored = action == "" && !reset
	case "ERR":
		r.callbackErr = action
		r.errIgnored = action == "" && !reset
	default:
		if reset {
			delete(r.traps, name)
			break
		}
		if r.traps == nil {
			r.traps = make(map[string]string)
		}
		r.traps[name] = action
	}
	switch name {
	case "INT":
		r.asyncInt = false
	case "QUIT":
		r.asyncQuit = false
	}
	// A subshell shows its parent's traps until it sets one (bash).
	r.shownTraps = nil
	r.noteTraps()
}

// shQuoteAlways quotes s in single quotes as bash's trap -p does, also
// when s needs no quoting.
func shQuoteAlways(s string) string {
	if s == "'" {
		return `\'` // llmsh: bash's sh_single_quote
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// trapLine is one line of trap -p; posix mode names a signal without
// its SIG prefix (trap -- 'x' INT), as bash.
func trapLine(name, action string, posix bool) string {
	shown := name
	switch name {
	case "EXIT", "ERR", trapDebug, trapReturn, "32", "33":
	default:
		if posix {
			break
		}
		shown = "SIG" + name
	}
	return "trap -- " + shQuoteAlways(action) + " " + shown + "\n"
}

// trapListing is the text of trap -p for the given trap names (all when
// names is empty). ok is false when a name is no trap. With print (trap
// -p) in posix mode a trap that is not set is listed too, as the
// default action (trap -- - HUP), as bash.
func (r *Runner) trapListing(names []string, print bool) (string, bool) {
	get := r.trapAction
	if r.shownTraps != nil {
		get = func(name string) (string, bool) {
			a, ok := r.shownTraps[name]
			return a, ok
		}
	}
	if r.asyncInt {
		// bash lists the SIGINT a job of & ignores (not its SIGQUIT).
		get0 := get
		get = func(name string) (string, bool) {
			if name == "INT" {
				return "", true
			}
			return get0(name)
		}
	}
	var sb strings.Builder
	if len(names) == 0 {
		names = trapOrder()
	}
	for _, n := range names {
		name, ok := trapSpec(n)
		if !ok {
			return "", false
		}
		action, set := get(name)
		if set {
			sb.WriteString(trapLine(name, action, r.opts[optPosix]))
		} else if print && r.opts[optPosix] {
			sb.WriteString("trap -- - " + name + "\n")
		}
	}
	return sb.String(), true
}

// builtinTrap is the trap builtin.
func (r *Runner) builtinTrap(args []string) exitStatus {
	var exit exitStatus
	print, list := false, false
	// "-" is an action (reset), not an option.
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'l':
				list = true
			case 'p': // llmsh: -P is bash 5.3's
				print = true
			default:
				r.errf("%strap: -%c: invalid option\n", r.errPrefix(), c)
				r.errf("trap: usage: trap [-lp] [[arg] signal_spec ...]\n")
				exit.code = 2
				return exit
			}
		}
		args = args[1:]
	}
	if list {
		listSignals(r.outf)
		return exit
	}
	if print || len(args) == 0 {
		if len(args) == 0 {
			text, _ := r.trapListing(nil, print)
			r.outf("%s", text)
			return exit
		}
		// llmsh: each in turn, as bash's: an invalid one's message
		// comes between the listings of the others.
		for _, a := range args {
			if _, ok := trapSpec(a); !ok {
				r.errf("%strap: %s: invalid signal specification\n", r.errPrefix(), a)
				exit.code = 1
				continue
			}
			text, _ := r.trapListing([]string{a}, true)
			r.outf("%s", text)
		}
		return exit
	}
	action, reset := args[0], false
	sigs := args[1:]
	switch {
	case len(args) == 1:
		// trap SIG: reset SIG; in posix mode only a number (bash).
		_, err := strconv.ParseUint(args[0], 10, 32)
		if _, ok := trapSpec(args[0]); !ok || r.opts[optPosix] && err != nil {
			// llmsh: one operand that is no signal is bash's usage.
			r.errf("trap: usage: trap [-lp] [[arg] signal_spec ...]\n")
			exit.code = 2
			return exit
		}
		action, reset, sigs = "", true, args
	case action == "-":
		action, reset = "", true
	default:
		// POSIX: a first operand that is a number is a signal, and
		// all the operands are reset.
		if _, err := strconv.ParseUint(action, 10, 32); err == nil {
			action, reset, sigs = "", true, args
		}
	}
	for _, s := range sigs {
		name, ok := trapSpec(s)
		if !ok {
			r.errf("%strap: %s: invalid signal specification\n", r.errPrefix(), s)
			exit.code = 1
			continue
		}
		r.setTrap(name, action, reset)
	}
	return exit
}

// IgnoredAtEntry names the signals that the shell's parent ignored (trap
// ” SIG) as it started the shell (a nested bash -c): as bash, their traps
// show ” and trap cannot set or reset them.
func IgnoredAtEntry(names ...string) RunnerOption {
	return func(r *Runner) error {
		for _, n := range names {
			if name, ok := trapSpec(n); ok && !pseudoSignal(name) {
				if r.llmsh.entryIgnored == nil {
					r.llmsh.entryIgnored = make(map[string]bool)
				}
				r.llmsh.entryIgnored[name] = true
			}
		}
		return nil
	}
}

// IgnoredSignals names the signals whose trap is ” (ignored): what a
// nested shell starts with ([IgnoredAtEntry]).
func (r *Runner) IgnoredSignals() []string {
	var names []string
	for name, a := range r.traps {
		if a == "" && !pseudoSignal(name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// nestedTrap reports whether the action of trap name runs while another
// trap's action runs: the DEBUG trap (not in its own action) and a
// signal's trap (not in its own), as bash runs them.
func (r *Runner) nestedTrap(name string) bool {
	switch name {
	case trapDebug:
		return !r.inDebug
	case "exit", "error", trapReturn, chldTrap:
		return false
	}
	return !slices.Contains(r.sigRunning, name)
}

// pseudoSignal reports whether name is a trap that is no signal.
func pseudoSignal(name string) bool {
	switch name {
	case "EXIT", "ERR", trapDebug, trapReturn:
		return true
	}
	return false
}

// subshellTraps gives a subshell r2 the traps bash gives it: none but the
// ignored signals, ERR under set -E, DEBUG and RETURN under set -T; trap
// -p shows the parent's until r2 sets one.
func (r *Runner) subshellTraps(r2 *Runner) {
	if r.callbackExit == "" && r.callbackErr == "" && len(r.traps) == 0 && r.shownTraps == nil &&
		!r.exitIgnored && !r.errIgnored {
		return
	}
	shown := r.shownTraps
	if shown == nil {
		shown = make(map[string]string, len(r.traps)+2)
		for name, a := range r.traps {
			shown[name] = a
		}
		if r.callbackExit != "" || r.exitIgnored {
			shown["EXIT"] = r.callbackExit
		}
		if r.callbackErr != "" || r.errIgnored {
			shown["ERR"] = r.callbackErr
		}
	}
	r2.shownTraps = shown
	for name, a := range r.traps {
		if a == "" && name != trapDebug && name != trapReturn ||
			r.opts[optFuncTrace] && (name == trapDebug || name == trapReturn) {
			// set -T (functrace): DEBUG and RETURN are inherited.
			if r2.traps == nil {
				r2.traps = make(map[string]string)
			}
			r2.traps[name] = a
		}
	}
	if r.opts[optErrTrace] {
		// set -E (errtrace): the ERR trap is inherited.
		r2.callbackErr = r.callbackErr
	}
}

// subshellExit runs the EXIT trap of a subshell that has ended, as bash
// does when a subshell process exits.
func (r *Runner) subshellExit(ctx context.Context) {
	if cb := r.callbackExit; cb != "" {
		r.callbackExit = ""
		if r.exitTrapLost && r.exit.signaled == 0 {
			cb = "" // llmsh: see exitTrapLost
		}
		if r.pipeCall {
			// llmsh: a pipeline's simple command that set it: bash's
			// child runs it one level deeper (trap … EXIT | cat).
			r.pipeCall = false
			r.subshellLevel++
		}
		r.trapCallback(ctx, cb, "exit")
	}
	r.closeFds() // llmsh: the subshell's descriptors (fds.go)
}

// funcTraps is what a function call keeps of its caller's DEBUG and
// RETURN traps, which bash does not run in a function (without the trace
// attribute or set -T) unless the function sets them, and of its ERR
// trap (without set -E).
type funcTraps struct {
	debug, ret, err        string
	hasDebug, hasR, hasErr bool
}

// enterFunc takes the DEBUG and RETURN traps away for a function's body,
// unless set -T (functrace) is on or the function has the trace attribute
// (traced), and the ERR trap unless set -E (errtrace) is on.
func (r *Runner) enterFunc(traced bool) (saved funcTraps) {
	if !r.opts[optErrTrace] && r.callbackErr != "" {
		saved.err, saved.hasErr = r.callbackErr, true
		r.callbackErr = ""
	}
	if len(r.traps) == 0 || r.opts[optFuncTrace] || traced {
		return saved
	}
	saved.debug, saved.hasDebug = r.traps[trapDebug]
	saved.ret, saved.hasR = r.traps[trapReturn]
	delete(r.traps, trapDebug)
	delete(r.traps, trapReturn)
	return saved
}

// leaveFunc runs the RETURN trap that the function set, if any, then
// gives back the caller's DEBUG and RETURN traps where the function left
// them unset.
func (r *Runner) leaveFunc(ctx context.Context, saved funcTraps, line int) {
	r.runReturnTrap(ctx, line)
	if saved.hasErr && r.callbackErr == "" {
		// bash gives the ERR trap back unless the function set one,
		// which then stays.
		r.callbackErr = saved.err
	}
	if saved.hasDebug {
		if _, ok := r.traps[trapDebug]; !ok {
			r.setTrapQuiet(trapDebug, saved.debug)
		}
	}
	if saved.hasR {
		if _, ok := r.traps[trapReturn]; !ok {
			r.setTrapQuiet(trapReturn, saved.ret)
		}
	}
}

func (r *Runner) setTrapQuiet(name, action string) {
	if r.traps == nil {
		r.traps = make(map[string]string)
	}
	r.traps[name] = action
}

// runReturnTrap runs the RETURN trap, at the end of a function or of a
// sourced file; $LINENO in it counts from line, as bash's: the line of
// the function's body, or of the source command (llmsh).
func (r *Runner) runReturnTrap(ctx context.Context, line int) {
	pre, hasPre := r.preReturn, r.hasPreReturn
	r.hasPreReturn = false
	// llmsh: not when the function or file ends with the shell (exit,
	// set -e) or with the line an error abandoned: bash leaves for the
	// top level without running it.
	if a := r.traps[trapReturn]; a != "" && !r.exit.exiting && !r.exit.fatalExit {
		returning, code := r.exit.returning, r.exit.code
		r.exit.returning = false
		if hasPre {
			r.exit.code = pre // $? as before `return N`
		}
		oldLine := r.returnLine
		r.returnLine = line
		r.trapCallback(ctx, a, "RETURN")
		r.returnLine = oldLine
		r.exit.returning = returning
		if !r.exit.exiting {
			r.exit.code = code
		}
	}
}

// debugCmd reports whether cm is a command that bash runs the DEBUG trap
// before and names in $BASH_COMMAND.
func debugCmd(cm syntax.Command) bool {
	switch cm.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause, *syntax.ArithmCmd,
		*syntax.TestClause, *syntax.CaseClause:
		return true
	}
	// for and select run it themselves, before each iteration
	// (forDebugTrap).
	return false
}

// simpleDebugCmd reports whether bash runs the DEBUG trap for cm, a
// pipeline element, in the shell before it forks the element: a simple
// command's (execute_simple_command), not a compound one's.
func simpleDebugCmd(cm syntax.Command) bool {
	switch cm.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause:
		return true
	}
	return false
}

// asyncDebugTrap runs the DEBUG trap for `cmd &` where cmd is a simple
// command, before the job starts, as bash does before it forks; ran says
// it did, skip that the action ended the shell or, under extdebug, skips
// cmd.
func (r *Runner) asyncDebugTrap(ctx context.Context, st *syntax.Stmt) (ran, skip bool) {
	switch st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause:
	default:
		return false, false
	}
	if r.traps[trapDebug] == "" || r.inDebug {
		return false, false
	}
	if !r.inTrap {
		r.curCmd, r.curRedirs, r.curText, r.curSrc = st.Cmd, st.Redirs, "", r.text.src
	}
	skip = r.debugTrap(ctx, st.Cmd)
	if skip && !r.exit.exiting && !r.exit.returning {
		r.exit = exitStatus{} // extdebug: cmd does not run, $? is 0
	}
	return true, skip || r.stop(ctx)
}

// forDebugTrap runs the DEBUG trap as bash does in a for or select loop:
// with $BASH_COMMAND the loop's head as bash prints it ("for x in a b",
// "select x in ", "((i < 3))"), before each iteration of a for loop
// (before its assignment), once before a select's menu, and before each
// expression of for (( … )).
func (r *Runner) forDebugTrap(ctx context.Context, cm *syntax.ForClause, text string) (skip bool) {
	if r.traps[trapDebug] == "" || r.inDebug {
		return false
	}
	if !r.inTrap {
		r.curCmd, r.curRedirs, r.curText = cm, nil, text
	}
	return r.debugTrap(ctx, cm)
}

// forHeadText is a for or select loop's head as $BASH_COMMAND shows it:
// "for x in " and the words as written ("$@" for for x; do).
func forHeadText(cm *syntax.ForClause, y *syntax.WordIter) string {
	var sb strings.Builder
	if cm.Select {
		sb.WriteString("select ")
	} else {
		sb.WriteString("for ")
	}
	sb.WriteString(y.Name.Value + " in ")
	if !y.InPos.IsValid() {
		sb.WriteString(`"$@"`)
		return sb.String()
	}
	p := syntax.NewPrinter(syntax.SingleLine(true))
	for i, w := range y.Items {
		if i > 0 {
			sb.WriteByte(' ')
		}
		p.Print(&sb, w)
	}
	return sb.String()
}

// cstyleDebugText is $BASH_COMMAND for an expression of for ((…)): its
// text as written, without its leading blanks, in (( )); "((1))" when
// it is empty.
func (r *Runner) cstyleDebugText(y *syntax.CStyleLoop, expr syntax.ArithmExpr, part int) string {
	text := ""
	if parts := r.cstyleTexts(y); parts != nil {
		text = strings.TrimLeft(parts[part], " \t\n")
	} else if expr != nil {
		var sb strings.Builder
		syntax.NewPrinter().Print(&sb, expr)
		text = sb.String()
	}
	if strings.TrimSpace(text) == "" {
		text = "1"
	}
	return "((" + text + "))"
}

// debugTrap runs the DEBUG trap before a command, with $BASH_COMMAND the
// command. Under shopt -s extdebug, as bash, an action whose status is
// not 0 skips the command (skip; r.exit is then 0) and, in a function or
// a sourced file, status 2 returns from it with status 2.
func (r *Runner) debugTrap(ctx context.Context, cm syntax.Command) (skip bool) {
	a := r.traps[trapDebug]
	if a == "" || r.inDebug {
		return false
	}
	// llmsh: $LINENO in the action is the command's line, as bash.
	old := r.ecfg.TrapLine
	if cm != nil {
		r.ecfg.TrapLine = uint64(r.lineBase + cm.Pos().Line())
		if r.substLine {
			// In a $( ) that bash runs from its print, the line
			// there (substLineMap).
			r.ecfg.TrapLine = uint64(r.line)
		}
	}
	// llmsh: $? in the action is the status of the command before, as
	// bash's (the statement about to run has reset r.exit).
	saved := r.exit
	r.exit = r.lastExit
	// llmsh: before an EXIT trap's first command, the status before is
	// the one the shell leaves with; the action's DEBUG trap runs anyway.
	r.exit.exiting, r.exit.returning = false, false
	line, substLine := r.line, r.substLine
	status := r.trapCallback(ctx, a, trapDebug)
	r.ecfg.TrapLine = old
	r.line, r.substLine = line, substLine // llmsh: the command's, for what follows
	if r.exit.returning && (r.inFunc || r.inSource) {
		// llmsh: return in the action returns from the function
		// or sourced file before the command runs, as bash's.
		return true
	}
	if r.exit.exiting {
		// llmsh: exit, set -e or set -u's error in the action ends the
		// shell before the command runs, as bash's.
		return true
	}
	r.exit = saved
	if status == 0 || !r.opts[optExtDebug] || r.exit.exiting {
		return false
	}
	r.exit = exitStatus{}
	if status == 2 && (r.inFunc || r.inSource) {
		r.exit = exitStatus{code: 2, returning: true}
	}
	return true
}
