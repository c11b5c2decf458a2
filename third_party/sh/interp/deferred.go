package interp

import (
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// llmsh: deferred write confirmation. An echo or printf whose output goes
// to a redirection that outlives it (`for …; do printf …; done > f`) may
// end before vfsd has confirmed its write: the handler sends the write and
// returns the status it would have if the write succeeds, and the runner
// asks for the confirmation (DeferredWrites' settle) before anything can
// read that status or follow it:
//
//   - the start of every statement that is not an echo or printf
//     (`$?` in exit, return, a test, a trap, or any command's effects);
//   - an expansion of $? or PIPESTATUS, and the start of a command or
//     process substitution (its $? is the shell's, its reads and writes
//     come after the shell's);
//   - the end of every compound command (a loop's status is its last
//     command's), of a while loop's body (its status is kept aside),
//     and of Run.
//
// Only a statement whose status nothing reads right after it may defer:
// one of a list (r.stmts) that is not its last, or any of a loop's body,
// with no redirection of its own (which would be closed, and waited for,
// at its end), not negated, not in a pipeline, with set -e not acting on
// it and no trap set (an ERR trap reads its status; a DEBUG or signal
// trap's action may read $?, and its $? is put back after it), in the
// shell itself (not a subshell or a trap), and while no job or process
// substitution runs (one could settle, from its goroutine, what the
// shell deferred, and its own writes meet the ones settle sends again). A
// write that fails is then charged to the command that made it, as
// before: settle reports it in its words and gives its status, which
// becomes $? (or the loop's status) if nothing ran since.

// DeferredWrites lets echo and printf defer the confirmation of their
// writes (see HandlerContext.DeferSeq). settle waits for every deferred
// command's writes, reports the failures, and returns the status of the
// command of statement cur (HandlerContext.DeferSeq) if it was deferred
// and charged with a failure (ok), the status it must have now.
func DeferredWrites(settle func(cur uint64) (status uint8, ok bool)) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.settleDeferred = settle
		return nil
	}
}

// DeferredRedirects lets an echo or printf with one output redirection
// of its own, `>FILE` or `>>FILE` of its stdout, defer as one without
// may (see [DeferredWrites]): the open handler is told
// (HandlerContext.Lazy) that it may open the file without waiting for
// the answer, and the exec handler that the redirection's close, right
// after the command, need not wait either; the settle then confirms the
// open, the writes and the close, and charges a failed open as the
// runner would have reported it, "NAME: line N: FILE: REASON", status 1.
func DeferredRedirects(enabled bool) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.deferRedirs = enabled
		return nil
	}
}

// deferBarrier asks for the confirmation of the deferred writes and
// corrects st, the status of the last statement that ended (r.lastSeq),
// if that statement was a deferred command whose write failed.
func (r *Runner) deferBarrier(st *exitStatus) {
	if r.deferredRan == 0 || r.llmsh.settleDeferred == nil || r.bashPid != r.llmsh.pid {
		return
	}
	r.deferredRan = 0
	if r.deferSeq != 0 {
		// A barrier in the words of an echo or printf that may defer
		// ($?, $(…)): that command's write is still to be confirmed.
		r.deferredRan = 1
	}
	if code, ok := r.llmsh.settleDeferred(r.lastSeq); ok && code != st.code && !st.returning && !st.exiting && !st.fatalExit {
		st.code = code
		if st == &r.lastExit || st == &r.exit {
			r.setPipeStatus(oneStatus[code])
		}
	}
}

// deferrable says whether st, run by a list with mayDefer set, may end
// before its writes are confirmed.
func (r *Runner) deferrable(st *syntax.Stmt, mayDefer, elem bool) bool {
	if !mayDefer || elem || st.Negated || (len(st.Redirs) > 0 && !r.lazyRedir(st)) || r.llmsh.settleDeferred == nil ||
		r.bashPid != r.llmsh.pid || r.llmsh.running.Load() > 0 || r.handlingTrap || r.inTrap || r.callbackErr != "" || len(r.traps) > 0 ||
		(r.opts[optErrExit] && !r.noErrExit) {
		return false
	}
	return echoOrPrintf(st)
}

// lazyRedir says whether st's redirections are one that a deferring
// echo or printf may open without waiting (DeferredRedirects): `>FILE`
// or `>>FILE` of its stdout, when echo and printf are the builtins.
func (r *Runner) lazyRedir(st *syntax.Stmt) bool {
	if !r.llmsh.deferRedirs || len(st.Redirs) != 1 || r.opts[optNoClobber] {
		return false
	}
	rd := st.Redirs[0]
	if rd.Op != syntax.RdrOut && rd.Op != syntax.AppOut || rd.N != nil && rd.N.Value != "1" || rd.Hdoc != nil {
		return false
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	if _, ok := r.Funcs[ce.Args[0].Lit()]; ok {
		return false
	}
	if ce.Args[0].Lit() == "printf" {
		// printf -v assigns: bash would not if the open failed, so
		// its open is waited for (as one whose format is not known).
		format, ok := staticWord(ce.Args[1:])
		return ok && !strings.HasPrefix(format, "-")
	}
	return true
}

// staticWord is the value of the first of words when it has no
// expansion (literal and quoted text only).
func staticWord(words []*syntax.Word) (string, bool) {
	if len(words) == 0 {
		return "", false
	}
	var sb strings.Builder
	for _, part := range words[0].Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			sb.WriteString(part.Value)
		case *syntax.SglQuoted:
			if part.Dollar {
				return "", false
			}
			sb.WriteString(part.Value)
		case *syntax.DblQuoted:
			for _, q := range part.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				sb.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// echoOrPrintf says whether st is a simple command whose first word is
// echo or printf as written.
func echoOrPrintf(st *syntax.Stmt) bool {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	switch ce.Args[0].Lit() {
	case "echo", "printf":
		return true
	}
	return false
}

// handlerDeferSeq is HandlerContext.DeferSeq for a handler of kind.
func (r *Runner) handlerDeferSeq(kind handlerKind) uint64 {
	if kind != handlerKindExec || !r.inExecBuiltin {
		return 0
	}
	return r.deferSeq
}
