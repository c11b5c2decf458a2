// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// bash's special variables that upstream lacks: $BASH_VERSION and
// $BASH_VERSINFO, $SECONDS (assignable), $EPOCHSECONDS, $EPOCHREALTIME,
// $BASH_COMMAND, $HOSTNAME and $SHLVL. See LLMSH.md.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// The bash that llmsh's interpreter behaves as: its behaviour is checked
// against GNU bash 5.2.15 (testdata/fixtures), so scripts that test
// $BASH_VERSION or ${BASH_VERSINFO[0]} take their bash 5 paths.
const (
	BashVersion  = "5.2.15(1)-release"
	bashMachType = "x86_64-pc-linux-gnu"
)

var bashVersInfo = []string{"5", "2", "15", "1", "release", bashMachType}

// VirtualBashPath is $BASH, the path bash gives of itself (that of the
// fixtures' bash): no host file backs it; the shell layer runs a command
// named by it as a nested shell, as it runs a "#!/usr/bin/bash" script.
const VirtualBashPath = "/usr/bin/bash"

// VirtualHostname is $HOSTNAME: never the host's name.
const VirtualHostname = "llmsh"

// resetSpecialVars sets the variables bash sets at start-up, unless the
// environment has them (HOSTNAME), and starts the $SECONDS clock.
func (r *Runner) resetSpecialVars() {
	r.secondsBase = time.Now()
	r.umask = r.llmsh.entryUmask
	r.setVar("BASH_VERSION", expand.Variable{Set: true, Kind: expand.String, Str: BashVersion})
	r.setVarString("BASH", VirtualBashPath) // as bash, whatever the environment says
	r.setVar("BASH_VERSINFO", expand.Variable{Set: true, Kind: expand.Indexed, ReadOnly: true, List: bashVersInfo})
	if !r.writeEnv.Get("HOSTNAME").IsSet() {
		r.setVarString("HOSTNAME", VirtualHostname)
	}
	// llmsh: bash 5.2's default $BASH_LOADABLES_PATH (the fixtures'
	// bash's); llmsh loads no builtins from it.
	if !r.writeEnv.Get("BASH_LOADABLES_PATH").IsSet() {
		r.setVarString("BASH_LOADABLES_PATH", "/usr/local/lib/bash:/usr/lib/bash:/opt/local/lib/bash:/usr/pkg/lib/bash:/opt/pkg/lib/bash:.")
	}
	// llmsh: $MACHTYPE and its parts, as the bash of the fixtures.
	for _, v := range [][2]string{{"MACHTYPE", bashMachType}, {"HOSTTYPE", "x86_64"}, {"OSTYPE", "linux-gnu"}} {
		if !r.writeEnv.Get(v[0]).IsSet() {
			r.setVarString(v[0], v[1])
		}
	}
	// llmsh: bash's PATH when its environment has none (env -i bash):
	// a shell variable, not exported, with bash's DEFAULT_PATH_VALUE.
	if !r.writeEnv.Get("PATH").IsSet() {
		r.setVarString("PATH", bashDefaultPath)
	}
	// PPID: the virtual id of the shell's parent, readonly and an
	// integer, as bash's (a nested shell's is its parent's $BASHPID).
	r.setVar("PPID", expand.Variable{Set: true, Kind: expand.String, ReadOnly: true, Integer: true, Str: strconv.Itoa(r.llmsh.ppid)})
	// SHLVL counts the shells started from one another: one more than
	// the environment says, exported so that a nested shell counts on.
	lvl := 1
	if v := r.writeEnv.Get("SHLVL"); v.IsSet() {
		if n, err := strconv.Atoi(strings.TrimSpace(v.String())); err == nil && n >= 0 {
			lvl = n + 1
		}
	}
	r.setVar("SHLVL", expand.Variable{Set: true, Kind: expand.String, Exported: true, Str: strconv.Itoa(lvl)})
}

// bashDefaultPath is bash 5.2's DEFAULT_PATH_VALUE (config-top.h).
const bashDefaultPath = "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:."

// specialVar computes the value of a variable that bash computes when it
// is read; ok is false for any other name.
func (r *Runner) specialVar(name string) (vr expand.Variable, ok bool) {
	switch name {
	case "SECONDS":
		if v := r.writeEnv.Get(name); v.Declared() && !v.IsSet() {
			return vr, false // unset: no longer special (bash)
		}
		// llmsh: the whole seconds elapsed since, rounded down (so
		// SECONDS=-5 reads -5). bash counts tv_sec differences, which
		// tick at the clock's second boundaries: a read a millisecond
		// after SECONDS=4 may be 5 there; here it is 4 until a whole
		// second has passed.
		secs := r.secondsAssigned + int64(math.Floor(time.Since(r.secondsBase).Seconds()))
		// llmsh: bash's declare -i SECONDS, once its value was
		// computed (secondsRead).
		return expand.Variable{Set: true, Kind: expand.String, Integer: r.secondsRead, Str: strconv.FormatInt(secs, 10)}, true
	case "EPOCHSECONDS":
		return expand.Variable{Set: true, Kind: expand.String, Str: strconv.FormatInt(time.Now().Unix(), 10)}, true
	case "EPOCHREALTIME":
		now := time.Now()
		return expand.Variable{Set: true, Kind: expand.String, Str: fmt.Sprintf("%d.%06d", now.Unix(), now.Nanosecond()/1000)}, true
	case "BASH_COMMAND":
		if r.curText != "" {
			return expand.Variable{Set: true, Kind: expand.String, Str: r.curText}, true
		}
		if r.curCmd == nil {
			return vr, false
		}
		if cc, ok := r.curCmd.(*syntax.CaseClause); ok {
			// bash shows a case command's head: "case WORD in ".
			var sb strings.Builder
			syntax.NewPrinter(syntax.SingleLine(true)).Print(&sb, cc.Word)
			return expand.Variable{Set: true, Kind: expand.String, Str: "case " + sb.String() + " in "}, true
		}
		var sb strings.Builder
		p := syntax.NewPrinter(syntax.SingleLine(true))
		if tc, ok := r.curCmd.(*syntax.TestClause); ok {
			// bash prints [[ ]] as declare -f does: a lone word as a
			// -n test, ( … ) spaced.
			fp := &funcPrinter{words: p}
			return expand.Variable{Set: true, Kind: expand.String, Str: "[[ " + fp.testExpr(tc.X) + " ]]"}, true
		}
		p.Print(&sb, r.curCmd)
		text := strings.TrimSpace(sb.String())
		if written, ok := r.writtenCommand(p); ok {
			text = written
		}
		if cm, ok := r.curCmd.(*syntax.ArithmCmd); ok {
			if written, ok := r.writtenArithm(cm); ok {
				return expand.Variable{Set: true, Kind: expand.String, Str: written}, true
			}
			// bash shows (( x++ )), the printer ((x++)), and not its
			// redirections.
			inner := strings.TrimSuffix(strings.TrimPrefix(text, "(("), "))")
			return expand.Variable{Set: true, Kind: expand.String, Str: "(( " + strings.TrimSpace(inner) + " ))"}, true
		}
		text += r.redirsText(r.curRedirs)
		return expand.Variable{Set: true, Kind: expand.String, Str: text}, true
	}
	return vr, false
}

// keepBashCommand saves $BASH_COMMAND for eval and source, which put it
// back when they return, as bash's parse_and_execute: an ERR trap for a
// failed `eval false` names `eval false` (after the one for `false`).
// The outermost one's is also what exit shows to the EXIT trap, as
// bash's exit unwinds them all (evalCmd).
func (r *Runner) keepBashCommand() (restore func()) {
	saved := &bashCommand{r.curCmd, r.curRedirs, r.curText, r.curSrc}
	outer := r.evalCmd == nil
	if outer {
		r.evalCmd = saved
	}
	stale := r.errStale
	return func() {
		saved.put(r)
		r.errStale = stale
		if outer {
			r.evalCmd = nil
		}
	}
}

// bashCommand is a saved $BASH_COMMAND.
type bashCommand struct {
	cmd    syntax.Command
	redirs []*syntax.Redirect
	text   string
	src    string
}

func (b *bashCommand) put(r *Runner) {
	r.curCmd, r.curRedirs, r.curText, r.curSrc = b.cmd, b.redirs, b.text, b.src
}

// writtenCommand is the simple command running as bash's BASH_COMMAND
// shows it: its words as written ($((1+2)), not the printer's $((1 + 2))),
// one space between them, but a $( ) printed again and $'…' decoded as
// bash prints them; printed is the printer's text of it. ok is false when
// r does not have the text the command was parsed from (llmsh).
func (r *Runner) writtenCommand(p *syntax.Printer) (string, bool) {
	if r.curSrc == "" {
		return "", false
	}
	var parts []string
	switch cm := r.curCmd.(type) {
	case *syntax.CallExpr:
		for _, as := range cm.Assigns {
			parts = append(parts, r.writtenNode(p, as))
		}
		for _, w := range cm.Args {
			parts = append(parts, r.writtenNode(p, w))
		}
	case *syntax.DeclClause:
		for _, as := range cm.Assigns {
			parts = append(parts, r.writtenNode(p, as))
		}
		parts = append(parts, cm.Variant.Value)
		for _, as := range cm.Args {
			parts = append(parts, r.writtenNode(p, as))
		}
	default:
		return "", false
	}
	return strings.Join(parts, " "), true
}

// writtenArithm is the text of the (( )) command cm as written in
// r.curSrc, as bash's $BASH_COMMAND shows it (`((a=0))`, `(( 1/0 ))`),
// when that text reads back as one (( )) command (llmsh).
func (r *Runner) writtenArithm(cm *syntax.ArithmCmd) (string, bool) {
	from, to := int(cm.Left.Offset()), int(cm.Right.Offset())+2
	if r.curSrc == "" || cm.Unsigned || from >= to || to > len(r.curSrc) {
		return "", false
	}
	text := r.curSrc[from:to]
	if !strings.HasPrefix(text, "((") || !strings.HasSuffix(text, "))") {
		return "", false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	if _, ok := f.Stmts[0].Cmd.(*syntax.ArithmCmd); !ok {
		return "", false
	}
	return text, true
}

// writtenNode is a word or an assignment of the command running as
// BASH_COMMAND shows it: as written in r.curSrc when that text reads back
// as n, else as the printer prints it.
func (r *Runner) writtenNode(p *syntax.Printer, n syntax.Node) string {
	var printed strings.Builder
	p.Print(&printed, n)
	// A $( ) in it is laid out anew as bash's parser does (comsub.go).
	fp := &funcPrinter{src: r.curSrc, words: p}
	w, isWord := n.(*syntax.Word)
	if isWord && hasDollarSgl(w) {
		return fp.text(w) // $'…' decoded, from the node itself
	}
	if as, ok := n.(*syntax.Assign); ok && as.Array == nil && as.Value != nil && hasDollarSgl(as.Value) {
		// x=$'a\tb' shows as x='a<TAB>b', as bash's parser decodes it.
		if text := fp.assign(as); strings.HasPrefix(text, as.Name.Value) {
			return text
		}
	}
	text := fp.text(n)
	if as, ok := n.(*syntax.Assign); ok {
		if as.Array != nil && !as.Naked {
			// As set -x traces it ($'…' decoded reads back as
			// another word).
			return r.writtenArray(as)
		}
		text = fp.assign(as)
	}
	// The text must read back as n (the source the runner has may not
	// be this node's when an alias was expanded).
	src := text
	if isWord {
		src = ": " + text
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 {
		return printed.String()
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	var back syntax.Node
	switch {
	case !ok:
	case isWord && len(call.Args) == 2 && len(call.Assigns) == 0:
		back = call.Args[1]
	case !isWord && len(call.Args) == 0 && len(call.Assigns) == 1:
		back = call.Assigns[0]
	}
	if back == nil {
		return printed.String()
	}
	var again strings.Builder
	p.Print(&again, back)
	if again.String() != printed.String() {
		return printed.String()
	}
	return text
}

// assignSpecial handles an assignment to a variable whose value bash
// computes: SECONDS=N sets the clock so that it reads N now.
func (r *Runner) assignSpecial(name string, vr expand.Variable) {
	if name == "BASH_ARGV0" && !r.argv0Gone {
		// Assigning it sets $0 (not the name in the shell's messages).
		r.arg0, r.arg0Set = vr.String(), true
	}
	if name == "BASH_XTRACEFD" {
		r.setXtraceFd(vr.String(), true)
	}
	if name == "BASH_COMPAT" {
		r.assignCompat(vr.String(), true) // compat.go
	}
	if name == "POSIXLY_CORRECT" {
		r.strictPosix(vr.IsSet())
	}
	if name == "IGNOREEOF" {
		r.opts[optIgnoreEOF] = vr.IsSet() // bash's sv_ignoreeof
	}
	if name == "SECONDS" && vr.Kind == expand.String && !r.dynGone[name] && !r.dynLocal(name) {
		r.secondsAssigned = int64(atoi(vr.Str))
		r.secondsBase = time.Now()
	}
}

// ignoreEOFMode is what bash's set -o ignoreeof and set +o ignoreeof
// do besides the option itself (set_ignoreeof): IGNOREEOF=10 is
// assigned (its attributes kept) and unset; assigning IGNOREEOF or
// unsetting it turns the option on or off (sv_ignoreeof).
func (r *Runner) ignoreEOFMode(on bool) {
	if on {
		r.setVarString("IGNOREEOF", "10")
	} else {
		r.delVar("IGNOREEOF")
	}
	r.opts[optIgnoreEOF] = on
}

// strictPosix is bash's sv_strict_posix, run when POSIXLY_CORRECT is
// assigned, unset, or gets back its value after a command or a function:
// set turns POSIX mode on, unset off (the variable is left as it is).
func (r *Runner) strictPosix(set bool) {
	if set != r.opts[optPosix] {
		r.opts[optPosix] = set
		r.posixOpts(set)
	}
}

// redirsText is a command's redirections as $BASH_COMMAND shows them
// after its words (bash's print form): `2> /dev/null`, `1>&2`, `<<< x`,
// a here-document with its body.
func (r *Runner) redirsText(redirs []*syntax.Redirect) string {
	var sb, bodies strings.Builder
	p := syntax.NewPrinter(syntax.SingleLine(true))
	word := func(w *syntax.Word) string {
		if r.curSrc != "" {
			return r.writtenNode(p, w) // llmsh: as written
		}
		var wb strings.Builder
		p.Print(&wb, w)
		return wb.String()
	}
	for _, rd := range redirs {
		sb.WriteByte(' ')
		n := ""
		if rd.N != nil {
			n = rd.N.Value
			if strings.HasPrefix(n, "{") {
				n = "{" + strings.Trim(n, "{}") + "}"
			}
		}
		switch rd.Op {
		case syntax.DplOut, syntax.DplIn:
			if n == "" {
				n = "1"
				if rd.Op == syntax.DplIn {
					n = "0"
				}
			}
			sb.WriteString(n + rd.Op.String() + word(rd.Word))
		case syntax.Hdoc, syntax.DashHdoc:
			// llmsh: as bash, the bodies follow the line of all the
			// redirections, those of <<- with no leading tabs.
			delim := word(rd.Word)
			sb.WriteString(n + rd.Op.String() + delim)
			if rd.Hdoc != nil {
				body := word(rd.Hdoc)
				if rd.Op == syntax.DashHdoc {
					lines := strings.SplitAfter(body, "\n")
					for i, l := range lines {
						lines[i] = strings.TrimLeft(l, "\t")
					}
					body = strings.Join(lines, "")
				}
				bodies.WriteString(body)
			}
			bodies.WriteString(strings.Trim(delim, `'"\`) + "\n")
		default:
			sb.WriteString(n + rd.Op.String() + " " + word(rd.Word))
		}
	}
	if bodies.Len() > 0 {
		sb.WriteString("\n" + bodies.String())
	}
	return sb.String()
}

// unsetPlain are the variables whose value bash computes when they are
// read; unset, each loses that meaning for good and becomes a plain
// variable (an assignment then stores a value), as bash's do.
var unsetPlain = map[string]bool{
	"RANDOM": true, "SRANDOM": true, "SECONDS": true, "LINENO": true, "EPOCHSECONDS": true,
	"EPOCHREALTIME": true, "BASHPID": true, "HISTCMD": true, "BASH_COMMAND": true,
	"BASH_SUBSHELL": true, "GROUPS": true, "DIRSTACK": true, "COMP_WORDBREAKS": true,
	"FUNCNAME": true,
}

// noAssign reports whether name is one of bash's noassign variables, as
// long as it has its meaning: an assignment to it is ignored (status 0),
// a declaration with a value fails (status 1; in a function, with
// bash's "variable may not be assigned value"). The call stack's
// variables but FUNCNAME cannot be unset either (llmsh).
func (r *Runner) noAssign(name string) bool {
	switch name {
	case "BASH_SOURCE", "BASH_LINENO", "BASH_ARGV", "BASH_ARGC":
		return true
	case "FUNCNAME", "GROUPS":
		return !r.dynGone[name]
	}
	return false
}

// dynLocal reports whether name, a variable whose value bash computes
// when it is read (unsetPlain), is a function's local here: a plain
// variable then, as in bash (local RANDOM=5 SECONDS=7 hold 5 and 7, and
// neither seeds nor sets the clock).
func (r *Runner) dynLocal(name string) bool {
	if !r.inFunc {
		return false
	}
	switch name { // unsetPlain but GROUPS, which no local takes
	case "RANDOM", "SRANDOM", "SECONDS", "LINENO", "EPOCHSECONDS", "EPOCHREALTIME",
		"BASHPID", "HISTCMD", "BASH_COMMAND", "BASH_SUBSHELL", "DIRSTACK":
		return r.writeEnv.Get(name).Local
	}
	return false
}

// ParentPid sets $PPID, the virtual id of the shell's parent: a nested
// shell's is its parent's $BASHPID. Without it, a number below $$.
func ParentPid(pid int) RunnerOption {
	return func(r *Runner) error {
		if pid > 0 {
			r.llmsh.ppid = pid
		}
		return nil
	}
}

// subshellCommandText makes $BASH_COMMAND a ( … ) subshell about to run,
// as bash prints it ("( exit 2 )"), when an ERR trap is set: bash sets it
// as it forks a user subshell then, so the trap run for the subshell's
// failure shows it. No DEBUG trap runs for it.
func (r *Runner) subshellCommandText(st *syntax.Stmt) {
	if r.callbackErr == "" || r.inTrap {
		return
	}
	r.curCmd, r.curRedirs, r.curText, r.curSrc = st.Cmd, nil, r.stmtText(st), r.text.src
}

// stmtText is a statement as bash prints it for $BASH_COMMAND and in job
// reports: `( exit 2 ) 2> /dev/null`.
func (r *Runner) stmtText(st *syntax.Stmt) string {
	fp := &funcPrinter{src: r.text.src, words: syntax.NewPrinter(syntax.SingleLine(true))}
	fp.command(st.Cmd, 0)
	fp.redirs(st.Redirs, false)
	fp.endLine()
	return strings.ReplaceAll(fp.b.String(), ";\n", "; ")
}
