// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// Pipelines, PIPESTATUS and the status of loops as bash gives them. See
// LLMSH.md ("Pipelines, PIPESTATUS and loops").

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unicode/utf8"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// pipeStatusVar is the array bash sets after each pipeline.
const pipeStatusVar = "PIPESTATUS"

// oneStatus holds, for each status, the list of a one-element PIPESTATUS.
// The lists are shared: nothing changes a variable's list in place (an
// assignment to an element copies it first).
var oneStatus = func() (l [256][]string) {
	for i := range l {
		l[i] = []string{strconv.Itoa(i)}
	}
	return l
}()

// setPipeStatus sets PIPESTATUS to the statuses of a pipeline's elements.
// It is the shell's (global) variable unless a function made it local, as
// bash's; a read-only PIPESTATUS stays as it is.
func (r *Runner) setPipeStatus(list []string) {
	if len(list) == 1 {
		// After most commands the value is the one already there (the
		// same shared list): a lookup is cheaper than an assignment.
		if cur := r.writeEnv.Get(pipeStatusVar); cur.Kind == expand.Indexed && len(cur.List) == 1 &&
			&cur.List[0] == &list[0] && cur.Indexes == nil {
			return
		}
	}
	r.writeEnv.Set(pipeStatusVar, expand.Variable{Set: true, Kind: expand.Indexed, List: list})
}

// simpleCommand reports whether bash sets PIPESTATUS to the status of st
// after it: a simple command (also one that is only assignments or only
// redirections), a declaration, let, [[ ]], (( )) and ( … ). A pipeline
// sets it in [Runner.pipeline]; a compound command (a group, if, case, a
// loop, a function definition) leaves what its last command set.
func simpleCommand(cm syntax.Command) bool {
	switch cm.(type) {
	case nil, *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause, *syntax.TestClause,
		*syntax.ArithmCmd, *syntax.Subshell, *syntax.TestDecl:
		return true
	}
	return false
}

// jobsCall reports whether st is a simple command whose name is jobs.
func jobsCall(st *syntax.Stmt) bool {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0 && ce.Args[0].Lit() == "jobs"
}

// plainElem reports whether st, the left side of a pipe, is itself a
// pipeline whose elements are elements of the outer one (the parser makes
// a | b | c as (a | b) | c).
func plainElem(st *syntax.Stmt) (*syntax.BinaryCmd, bool) {
	bc, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || (bc.Op != syntax.Pipe && bc.Op != syntax.PipeAll) {
		return nil, false
	}
	return bc, !st.Negated && len(st.Redirs) == 0 && !st.Background && !st.Coprocess && !st.Disown
}

// pipeElems lists the elements of the pipeline cm; all[i] tells whether
// element i sends its stderr to the pipe too (|&).
func pipeElems(cm *syntax.BinaryCmd) (elems []*syntax.Stmt, all []bool) {
	if x, ok := plainElem(cm.X); ok {
		elems, all = pipeElems(x)
	} else {
		elems = []*syntax.Stmt{cm.X}
	}
	return append(elems, cm.Y), append(all, cm.Op == syntax.PipeAll)
}

// pipeline runs the pipeline cm as bash does without lastpipe: each
// element in a subshell of its own, the last one too (so `exit`,
// `return`, `cd` or an assignment there end or change that element only),
// all at once, connected by pipes. The status is the last element's (with
// pipefail, the last that failed); PIPESTATUS gets each element's.
// Upstream ran the last element in the shell itself.
func (r *Runner) pipeline(ctx context.Context, cm *syntax.BinaryCmd) {
	defer r.reapDone() // llmsh: it waited for children (jobs.go)
	elems, all := pipeElems(cm)
	n := len(elems)
	subs := make([]*Runner, n)
	// closers[i] are closed when element i has ended: its end of the
	// pipe it writes to (its reader sees end of file) and of the one
	// it reads from (its writer fails as on a broken pipe).
	closers := make([][]io.Closer, n)
	gates := make([]*gatedWriter, n-1)   // llmsh: see end below
	ctxs := make([]context.Context, n-1) // stopped by a broken pipe
	readers := make([]io.Closer, n)      // element i's end of its stdin pipe
	// llmsh: bash runs the DEBUG trap for each simple command element,
	// in order, as it forks them (set -T or not), so that an element
	// sees what the actions before it set, and leaves $BASH_COMMAND the
	// last one's (for an ERR trap). A compound element ([[ ]], (( )),
	// case) runs it in its subshell, which has it under set -T only.
	debug := !r.inDebug && r.traps[trapDebug] != ""
	skipped := make([]bool, n) // by the trap under extdebug: not run, status 0
	for i := range elems {
		parentDebug := false
		if st := elems[i]; (!r.inTrap || debug) && debugCmd(st.Cmd) {
			if !r.inTrap {
				r.curCmd, r.curRedirs, r.curText, r.curSrc = st.Cmd, st.Redirs, "", r.text.src
			}
			if debug && simpleDebugCmd(st.Cmd) {
				skipped[i] = r.debugTrap(ctx, st.Cmd)
				if r.exit.exiting || r.exit.returning {
					// exit (set -e, set -u's error) in the
					// action, or extdebug's return: nothing
					// more of the pipeline runs.
					return
				}
				parentDebug = true
			}
		} else if _, ok := st.Cmd.(*syntax.Subshell); ok && !r.inTrap {
			r.subshellCommandText(st) // as a ( ) not in a pipeline
		}
		// The last element runs while the shell waits for it: it may
		// read the shell's variables through an overlay, as ( … ) does.
		// The others run while it does, with copies.
		subs[i] = r.subshell(i < n-1)
		subs[i].debugAsync = parentDebug // not again in the element
		subs[i].exitTrapLost = losesExitTrap(elems[i].Cmd)
		if !jobsCall(elems[i]) {
			// llmsh: a forked element has no jobs, but bash keeps
			// them for a simple `jobs` (jobs | wc -l).
			subs[i].inheritedJobs = nil
		}
		if i > 0 {
			// llmsh: bash's stdin_redir in a compound element that
			// reads the pipe (jobs.go).
			subs[i].pipeIn = true
			subs[i].readsPipe = true // llmsh: read -t 0 (pipeSettle)
			if controlStructure(elems[i].Cmd) {
				subs[i].stdinRedir = true
			}
		}
		// Where set -e is ignored (a test, before && or ||), it is
		// ignored inside the elements too, as it was in the last one
		// when it ran in the shell itself.
		subs[i].noErrExit = r.noErrExit
		// The pipeline, not its element, is what set -e and the ERR
		// trap check (stmtSync); a ( … ) that ends it is checked as
		// bash checks it, with the shell's ERR trap.
		_, sub := elems[i].Cmd.(*syntax.Subshell)
		sub = sub && i == n-1
		subs[i].pipeElem = !sub
		subs[i].pipeStmt = elems[i]
		if sub {
			subs[i].callbackErr = r.callbackErr
		}
		// break and continue as a simple command there end nothing and
		// say nothing, as in bash's children of a pipeline (a compound
		// element is a subshell, which says that it runs no loop).
		if _, simple := elems[i].Cmd.(*syntax.CallExpr); simple {
			subs[i].inLoop = r.inLoop
		}
		// $BASH_SUBSHELL: bash counts a compound element as a subshell
		// (a ( … ) once), a simple command only when it calls a
		// function (see pipeCall).
		switch elems[i].Cmd.(type) {
		case *syntax.CallExpr:
			subs[i].subshellLevel = r.subshellLevel
			subs[i].pipeCall = true
			subs[i].forkedCall = true
			// llmsh: a shell it starts has this one for parent, but the
			// same SHLVL (NoForkExec).
			subs[i].setNoForkTail([]*syntax.Stmt{{Cmd: elems[i].Cmd}}, r.bashPid, false, redirsAlone)
		case *syntax.DeclClause:
			subs[i].forkedCall = true
		case *syntax.Subshell:
			subs[i].subshellLevel = r.subshellLevel
		}
	}
	// llmsh: at an interactive prompt the pipeline is a job in the
	// foreground, which Ctrl-Z stops (jobstop.go): its elements pass the
	// job's gate and run under its context, outside the line's.
	var fg *bgProc
	lineCtx := ctx
	if r.foregroundJobs() {
		fg, ctx = r.newJob(r.jobBase(ctx))
		r.llmsh.fg.Store(fg) // before it runs: Ctrl-Z from now on stops it
		fg.text = jobStmtText(&syntax.Stmt{Cmd: cm}, r.text.src)
		for _, r2 := range subs {
			r2.gate = fg.gate
		}
	}
	gctx := r.goContext(ctx) // llmsh: the elements' goroutines (GoContext)
	var traced []*traceGate
	if r.opts[optXTrace] {
		// llmsh: the elements' set -x lines in the order of bash's
		// forks (trace.go), also inside an element that is itself in a
		// pipeline's element.
		traced = make([]*traceGate, n)
		for i := range subs {
			traced[i] = newTraceGate(ctx.Done())
			subs[i].traceWait = slices.Clip(r.traceWait)
			if i > 0 {
				subs[i].traceWait = append(subs[i].traceWait, traced[i-1])
			}
			subs[i].traceDone = append(slices.Clip(r.traceDone), traced[i])
		}
	}
	for i := 0; i < n-1; i++ {
		pr, pw, err := newPipe()
		if err != nil {
			for _, cls := range closers {
				for _, c := range cls {
					c.Close()
				}
			}
			if fg != nil { // llmsh: the job that never ran
				r.llmsh.fg.Store(nil)
				fg.finish(r, exitStatus{})
			}
			r.exit.fatal(err) // not being able to create a pipe is rare but critical
			return
		}
		ectx, cancel := context.WithCancel(gctx)
		ctxs[i] = ectx
		gw := &gatedWriter{w: pw, broken: cancel}
		if commandElem(subs[i], elems[i]) {
			// the handler answers for a command's SIGPIPE itself
			// (141; xargs says how its command died)
			gw.broken = func() {}
		}
		gates[i], readers[i+1] = gw, pr
		subs[i].stdout = gw
		if all[i] {
			switch elems[i].Cmd.(type) {
			case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause:
				subs[i].pipeAllErr = subs[i].stderr
			}
			subs[i].stderr = gw
		}
		subs[i+1].stdin, subs[i+1].stdinSrc = pr, nil
		closers[i] = append(closers[i], pw)
		closers[i+1] = append(closers[i+1], pr)
	}
	// end closes element i's ends of its pipes. llmsh: in bash a reader
	// is a process that takes a while to start, so a writer whose output
	// fits in the pipe has usually written all of it before its reader
	// ends: the reader's end is closed once its writer has ended or has
	// written more than a pipe is sure to hold ([gatedWriter]), so that
	// echo a | true and for i in 1 2 3; do echo $i; done | head -1 are
	// 0 0 as in bash, not a broken pipe that depends on timing.
	end := func(i int) {
		if traced != nil {
			traced[i].open()
		}
		if i < n-1 {
			gates[i].ended()
		}
		for _, c := range closers[i] {
			if i > 0 && c == readers[i] {
				gates[i-1].readerEnded(c)
				continue
			}
			c.Close()
		}
	}
	run := func(i int) {
		r2 := subs[i]
		ectx := ctx
		if i < n-1 {
			ectx = ctxs[i]
		}
		if !skipped[i] {
			r2.stmt(ectx, elems[i])
		}
		r2.subshellExit(ectx) // llmsh: its own EXIT trap
		r2.waitPsubs(ectx)    // llmsh: fds.go
		r2.exit.leaveShell()  // subshells don't exit the parent shell
		r2.exit.returning = false
		if i < n-1 && gates[i].broke.Load() && ctx.Err() == nil && !commandElem(r2, elems[i]) {
			// llmsh: as bash's SIGPIPE: a write after its reader
			// ended stops the element, status 128+13.
			r2.exit = exitStatus{code: 141}
		}
		end(i)
	}
	var wg sync.WaitGroup
	for i := 0; i < n-1; i++ {
		wg.Go(func() { run(i) })
	}
	var last exitStatus
	forked := n // llmsh: the children bash forks, for the CHLD trap (chld.go)
	if fg != nil {
		go func() {
			run(n - 1)
			wg.Wait()
			fg.finish(r, subs[n-1].exit)
		}()
		var stopped bool
		if r.exit, stopped = r.waitForeground(lineCtx, fg); stopped {
			// Stopped: it runs on as a job of the table.
			r.setPipeStatus(slices.Repeat([]string{oneStatus[r.exit.code][0]}, n))
			return
		}
		last = subs[n-1].exit
	} else if r.opts[optLastPipe] && !r.llmsh.jobControl && !r.opts[optMonitor] {
		// llmsh: shopt -s lastpipe (bash, without job control, which
		// set -m turns on in a script too): the last element runs in
		// the shell itself, reading the pipe.
		oldStdin, oldSrc := r.stdin, r.stdinSrc
		oldWait, oldDone := r.traceWait, r.traceDone
		r.stdin, r.stdinSrc = subs[n-1].stdin, subs[n-1].stdinSrc
		r.traceWait, r.traceDone = subs[n-1].traceWait, subs[n-1].traceDone
		r.pipeElem = true
		if !skipped[n-1] {
			r.stmt(ctx, elems[n-1])
		}
		r.stdin, r.stdinSrc = oldStdin, oldSrc
		r.traceWait, r.traceDone = oldWait, oldDone
		end(n - 1)
		last = r.exit
		forked--
	} else {
		run(n - 1)
		last = subs[n-1].exit
	}
	wg.Wait()
	r.childExited(forked)

	list := make([]string, n)
	r.exit = last
	for i, r2 := range subs {
		st := r2.exit
		if i == n-1 {
			st = last
		}
		list[i] = oneStatus[st.code][0]
		if r.opts[optPipeFail] && !st.ok() {
			r.exit = st // llmsh: a signal that ended it is reported (bash's raw_job_exit_status)
		}
	}
	if r.exit.signaled != 0 {
		// llmsh: for bash's report of the pipeline (reportForeground).
		r.pipeProcs = make([]pipeProc, n)
		for i, r2 := range subs {
			st := r2.exit
			if i == n-1 {
				st = last
			}
			r.pipeProcs[i] = pipeProc{pid: r2.bashPid, status: st, text: jobStmtText(elems[i], r.text.src)}
		}
	}
	for _, r2 := range subs {
		if r2.exit.fatalExit {
			r.exit.fatal(r2.exit.err) // surface fatal errors immediately
			break
		}
	}
	r.setPipeStatus(list)
}

// loopStatus is the status a loop ends with: that of the last command its
// body ran (body), 0 if it never ran, unless the loop is being left by
// exit, return or a fatal error (then r.exit says so).
func (r *Runner) loopStatus(body exitStatus) {
	if r.exit.returning || r.exit.exiting || r.exit.fatalExit {
		return
	}
	r.exit.code, r.exit.err = body.code, body.err
}

// loopCmd reports whether cm is a loop: bash's set -e and ERR trap never
// act on a loop's own status (its last command's, already acted on when
// set -e did not ignore it).
func loopCmd(cm syntax.Command) bool {
	switch cm.(type) {
	case *syntax.WhileClause, *syntax.ForClause:
		return true
	}
	return false
}

// cstyleArith evaluates an expression of for (( … )): an error is
// reported as (( … ))'s, and ends the loop with status 1 (bash goes on
// with the script).
func (r *Runner) cstyleArith(expr syntax.ArithmExpr, y *syntax.CStyleLoop, part int) (int, bool) {
	defer r.arithRestore(r.arithAs("(("))
	if r.opts[optXTrace] {
		return r.tracedCstyleArith(expr, y, part)
	}
	if expr == nil {
		return r.cstyleEmpty(y, part), true
	}
	end := [3]syntax.Pos{y.Semi1, y.Semi2, y.Rparen}[part]
	if !expr.Pos().After(y.Lparen) {
		// llmsh: the text of an expression that did not parse,
		// positioned on its own, holds its blanks already.
		end = syntax.Pos{}
	}
	n, inner, err := expand.ArithmInnerEnd(r.ecfg, expr, end)
	if r.arithCmdErrInner("((", err, inner) {
		return 0, false
	}
	return n, true
}

// tracedCstyleArith is cstyleArith under set -x, which shows each
// expression as bash: its text with leading blanks dropped, its
// expansions done (i<$n is i<2), "1" when it is empty; the text shown is
// the text evaluated.
func (r *Runner) tracedCstyleArith(expr syntax.ArithmExpr, y *syntax.CStyleLoop, part int) (int, bool) {
	text, expanded := "1", false
	if expr != nil {
		var err error
		if text, expanded, err = expand.ArithmExprText(r.ecfg, expr, syntax.Pos{}); r.arithCmdErrInner("((", err, true) {
			return 0, false
		}
	}
	shown := text
	if parts := r.cstyleTexts(y); parts != nil {
		if t := strings.TrimLeft(parts[part], " \t"); expand.RawQuoted(expr) {
			shown = strings.TrimLeft(text, " \t\n") // llmsh: its quotes removed, as bash
		} else if t != "" && !expanded && !strings.Contains(t, "\\") {
			shown = t
		} else if t != "" {
			shown = text + t[len(strings.TrimRight(t, " \t\n")):]
		}
	}
	t := r.tracer()
	t.string("(( " + shown + " ))")
	t.newLineFlush()
	if expr == nil {
		return r.cstyleEmpty(y, part), true
	}
	n, err := r.ecfg.ArithmText(text)
	if r.arithCmdErr("((", err) {
		return 0, false
	}
	return int(n), true
}

// cstyleEmpty is the value of an empty expression of for ((…)): 1, but
// 0 when its text holds a newline (for ((i=0;⏎;i++))): bash's
// make_arith_for_expr drops only leading blanks, so it evaluates the
// newline, which is 0, and the loop never runs.
func (r *Runner) cstyleEmpty(y *syntax.CStyleLoop, part int) int {
	if parts := r.cstyleTexts(y); parts != nil && strings.TrimLeft(parts[part], " \t") != "" {
		return 0
	}
	return 1
}

// cstyleTexts is the text of the three expressions of for ((…)) as
// written, nil when the runner does not have the source.
func (r *Runner) cstyleTexts(y *syntax.CStyleLoop) []string {
	return cstyleSrcParts(r.text.src, y)
}

// cstyleSrcParts is the text of the three expressions of for ((…)) in
// src, nil when src does not hold it.
func cstyleSrcParts(src string, y *syntax.CStyleLoop) []string {
	inner, ok := srcBetween(src, y.Lparen, y.Rparen)
	if !ok {
		return nil
	}
	parts := strings.SplitN(inner, ";", 3)
	if len(parts) != 3 {
		return nil
	}
	return parts
}

// srcBetween is the source text inside the double brackets that open at
// left and close at right ("((" and "))").
func (r *Runner) srcBetween(left, right syntax.Pos) (string, bool) {
	return srcBetween(r.text.src, left, right)
}

// srcBetween is the text of src inside the double brackets that open at
// left and close at right ("((" and "))").
func srcBetween(src string, left, right syntax.Pos) (string, bool) {
	start, end := int(left.Offset())+2, int(right.Offset())
	if src == "" || !left.IsValid() || !right.IsValid() || start > end || end > len(src) ||
		!strings.HasPrefix(src[start-2:], "((") || !strings.HasPrefix(src[end:], "))") {
		return "", false
	}
	return src[start:end], true
}

// cstyleLoop runs for ((INIT; COND; POST)): POST runs after each run of
// the body, also after continue; the status is the body's last command's,
// 0 if it never ran, 1 after an arithmetic error. Upstream stopped the
// loop after a body whose last command failed, and an arithmetic error
// ended the shell.
func (r *Runner) cstyleLoop(ctx context.Context, cm *syntax.ForClause, y *syntax.CStyleLoop) {
	var body exitStatus
	fail := func() {
		if r.exit.code == 0 {
			r.exit.code = 1
		}
		body = r.exit
	}
	debug := r.traps[trapDebug] != "" && !r.inDebug
	// arith runs the DEBUG trap before an expression, then evaluates it;
	// under extdebug a trap whose status is not 0 makes it 0, as bash.
	arith := func(expr syntax.ArithmExpr, part int) (int, bool) {
		// llmsh: bash evaluates each expression at the line of `for`
		// (arith_for_lineno), also after a body on later lines.
		r.line = int(r.lineBase + cm.ForPos.Line())
		if debug && r.forDebugTrap(ctx, cm, r.cstyleDebugText(y, expr, part)) {
			return 0, true
		}
		return r.cstyleArith(expr, y, part)
	}
	if _, ok := arith(y.Init, 0); !ok {
		fail()
		r.loopStatus(body)
		return
	}
	for !r.stop(ctx) {
		if n, ok := arith(y.Cond, 1); !ok {
			fail()
			break
		} else if n == 0 {
			break
		}
		broken := r.loopStmtsBroken(ctx, cm.Do)
		body = r.exit
		if broken || r.stop(ctx) {
			break
		}
		if y.Post != nil || r.opts[optXTrace] {
			r.exit = exitStatus{}
		}
		if _, ok := arith(y.Post, 2); !ok {
			fail()
			break
		}
	}
	r.loopStatus(body)
}

// loopControl runs break and continue as bash: N above the number of
// loops being run stops at the outermost; N below 1 is an error that
// leaves every loop (status 1); more than one argument abandons the rest
// of the line (tooManyArgs); a word that is no number ends the
// shell (status 128 | $?, bash's throw_to_top_level). Outside a loop they say so
// and succeed; in posix mode silently, as bash's check_loop_level.
// Upstream kept an N above the depth for the loops run next,
// which ended them at once, and answered errors with a usage line.
func (r *Runner) loopControl(name string, args []string) exitStatus {
	if !r.inLoop {
		if r.opts[optPosix] {
			return exitStatus{}
		}
		r.errf("%s%s: only meaningful in a `for', `while', or `until' loop\n", r.errPrefix(), name)
		return exitStatus{}
	}
	n := 1
	args = dashDash(args)
	if len(args) > 1 && !numericArg(args[0]) {
		args = args[:1] // bash checks the first before the count
	}
	switch {
	case len(args) > 1:
		return r.tooManyArgs(name)
	case len(args) == 1:
		v, ok := legalNumber(args[0])
		if !ok {
			r.errf("%s%s: %s: numeric argument required\n", r.errPrefix(), name, args[0])
			code := r.lastExit.code
			if code < 128 {
				code |= 128 // bash's throw_to_top_level
			}
			return exitStatus{code: code, exiting: true}
		}
		if v < 1 {
			r.errf("%s%s: %s: loop count out of range\n", r.errPrefix(), name, args[0])
			r.breakEnclosing = max(r.loopDepth, 1)
			return exitStatus{code: 1}
		}
		n = int(min(v, int64(max(r.loopDepth, 1))))
	}
	n = min(n, max(r.loopDepth, 1))
	if name == "continue" {
		r.contnEnclosing = n
	} else {
		r.breakEnclosing = n
	}
	return exitStatus{}
}

// dashDash drops a first argument "--", which shift, exit, return, break
// and continue take as the end of their options, as bash's
// get_numeric_arg and get_exitstat do (llmsh).
func dashDash(args []string) []string {
	if len(args) > 0 && args[0] == "--" {
		return args[1:]
	}
	return args
}

// numericArg reports whether s is a number to shift, exit, return,
// break and continue, which bash checks before their count of arguments.
func numericArg(s string) bool {
	_, ok := legalNumber(s)
	return ok
}

// tooManyArgs is bash's answer to shift, exit, return, break or continue
// given more than one argument: the message, and the rest of the command
// line is abandoned with status 1, or the failing $? it had (bash's
// jump_to_top_level DISCARD).
func (r *Runner) tooManyArgs(name string) exitStatus {
	r.errf("%s%s: too many arguments\n", r.errPrefix(), name)
	code := uint8(1)
	if r.lastExit.code != 0 && r.subst == nil {
		code = r.lastExit.code // llmsh: a failing $? stays (DISCARD)
	}
	return exitStatus{code: code, exiting: true, abandon: true, discard: true, noExit: true}
}

// gatedWriter is a pipeline element's end of its stdout pipe. When the
// element reading the pipe ends, its end of the pipe is closed at once
// if this writer has ended, copies in bulk (ReadFrom) or has written
// more than pipeBuf bytes; otherwise only when it ends or its output
// outgrows pipeBuf, as the pipe holds that much for a reader that has not
// read it: a writer can never block on a pipe nobody will read.
type gatedWriter struct {
	w io.Writer

	mu      sync.Mutex
	written int64     // bytes written so far
	bulk    bool      // a ReadFrom copy: no bound on what it writes
	done    bool      // the writer has ended
	pending io.Closer // the ended reader's end of the pipe, not closed yet

	// broken stops the element when a write fails because its reader
	// has ended (bash: SIGPIPE); broke records it.
	broken func()
	broke  atomic.Bool
}

// pipeBuf is POSIX's PIPE_BUF: the least a pipe holds (a Linux pipe
// holds at least one page, whatever the user's pipe buffer limit).
const pipeBuf = 4096

// release closes the reader's end of the pipe if it ended; g.mu is held.
func (g *gatedWriter) release() {
	if g.pending != nil {
		g.pending.Close()
		g.pending = nil
	}
}

// readerEnded closes c, the reader's end of the pipe, now or once the
// writer has ended or written more than pipeBuf bytes.
func (g *gatedWriter) readerEnded(c io.Closer) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pending = c
	if g.done || g.bulk || g.written > pipeBuf {
		g.release()
	}
}

// ended records that the writer has ended.
func (g *gatedWriter) ended() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.done = true
	g.release()
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	g.count(int64(len(p)))
	n, err := g.w.Write(p)
	g.check(err)
	return n, err
}

func (g *gatedWriter) check(err error) {
	if errors.Is(err, syscall.EPIPE) {
		g.broke.Store(true)
		g.broken()
	}
}

// count records n bytes written.
func (g *gatedWriter) count(n int64) {
	g.mu.Lock()
	if g.written += n; g.written > pipeBuf {
		g.release()
	}
	g.mu.Unlock()
}

// copying records a copy in bulk.
func (g *gatedWriter) copying() {
	g.mu.Lock()
	g.bulk = true
	g.release()
	g.mu.Unlock()
}

// ReadFrom keeps the pipe's own ReadFrom (splice) for copies into it.
func (g *gatedWriter) ReadFrom(src io.Reader) (int64, error) {
	g.copying()
	n, err := io.Copy(g.w, src)
	g.check(err)
	return n, err
}

// commandElem reports whether a pipeline element is a simple command that
// is no function: the exec handler reports its broken pipe itself.
func commandElem(r *Runner, st *syntax.Stmt) bool {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	name := ce.Args[0].Lit()
	return name != "" && r.Funcs[name] == nil && !IsBuiltin(name)
}

// selectMenu lays out select's menu as bash's print_select_list: in
// columns as wide as the widest "N) item" and two spaces more, as many
// as COLUMNS (80 when not a positive number) holds, numbered down the
// columns, padded with tabs and spaces to tab stops of 8.
func selectMenu(items []string, columns string) string {
	numLen := func(n int) int { return len(strconv.Itoa(n)) }
	width := 0
	for _, it := range items {
		width = max(width, utf8.RuneCountInString(it))
	}
	indicesLen := numLen(len(items))
	width += indicesLen + 2 + 2
	screen := 80
	if c, err := strconv.Atoi(strings.TrimSpace(columns)); err == nil && c > 0 {
		screen = c
	}
	cols := max(screen/width, 1)
	rows := (len(items) + cols - 1) / cols
	cols = (len(items) + rows - 1) / rows
	if rows == 1 {
		rows, cols = cols, 1
	}
	firstLen := numLen(rows)
	var b strings.Builder
	for row := range rows {
		pos := 0
		for ind := row; ; {
			n := indicesLen
			if pos == 0 {
				n = firstLen
			}
			fmt.Fprintf(&b, "%*d) %s", n, ind+1, items[ind])
			from := pos + utf8.RuneCountInString(items[ind]) + n + 2
			ind += rows
			if ind >= len(items) {
				break
			}
			for to := pos + width; from < to; {
				if to/8 > from/8 {
					b.WriteByte('\t')
					from += 8 - from%8
				} else {
					b.WriteByte(' ')
					from++
				}
			}
			pos += width
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// posixFuncName refuses, in posix mode, a function name that is no
// identifier or is a special builtin's, as bash's execute_intern_function;
// the shell then exits (posixBadFunc). It reports whether it refused.
func (r *Runner) posixFuncName(name string) bool {
	switch {
	case !syntax.ValidName(name):
		r.errf("%s`%s': not a valid identifier\n", r.errPrefix(), name)
	case specialBuiltins[name]:
		r.errf("%s`%s': is a special builtin\n", r.errPrefix(), name)
	default:
		return false
	}
	r.exit.code = 1
	r.posixBadFunc()
	return true
}

// posixBadFunc ends a non-interactive shell in posix mode with status 2
// after a function definition bash refused (jump_to_top_level with
// EX_BADUSAGE); in bash mode the refusal is status 1 and the shell goes on.
func (r *Runner) posixBadFunc() {
	if r.opts[optPosix] {
		r.exit = exitStatus{code: 2, exiting: true}
	}
}

// programGate is a pipeline element's pipe as a program run in a compound
// element writes to it (llmsh): in bash a program is its own process,
// which SIGPIPE kills alone, so { yes; echo done >&2; } | head -1 says
// done and ends 0. Its write that fails does not stop the element; the
// handler answers for the program's status (141).
type programGate struct{ g *gatedWriter }

// programOut is w as a program's output: its own view of a pipeline's
// pipe, w itself otherwise.
func programOut(w io.Writer) io.Writer {
	if g, ok := w.(*gatedWriter); ok {
		return programGate{g}
	}
	return w
}

func (p programGate) Write(b []byte) (int, error) {
	p.g.count(int64(len(b)))
	return p.g.w.Write(b)
}

// ReadFrom keeps the pipe's own ReadFrom (splice) for copies into it.
func (p programGate) ReadFrom(src io.Reader) (int64, error) {
	p.g.copying()
	return io.Copy(p.g.w, src)
}
