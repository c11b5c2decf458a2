// Copyright (c) 2026, llmsh authors
// See LICENSE for licensing information

package interp

// llmsh: the command bash execs without a fork as the last thing a shell
// it forked does (NoForkExec; LLMSH.md, session 23).

import "github.com/llmsh/llmsh/third_party/sh/syntax"

// noForkRedirs says when bash execs a command with redirections of its
// own without a fork: never in a $( … ), a -c string or a function
// (parse_and_execute's should_suppress_fork); in a ( … ) when it is the
// subshell's only command; in a <( … ) always (llmsh).
type noForkRedirs uint8

const (
	redirsNever noForkRedirs = iota
	redirsAlone
	redirsAlways
)

// setNoForkTail marks the last simple command of stmts as the one that
// bash would exec without a fork (noForkTail): the last statement, or,
// when it is the only one, the last of its && and || lists.
func (r *Runner) setNoForkTail(stmts []*syntax.Stmt, ppid int, shlvl bool, redirs noForkRedirs) {
	r.noForkTail = nil
	if len(stmts) == 0 {
		return
	}
	st := stmts[len(stmts)-1]
	alone := len(stmts) == 1
	for st != nil && !st.Negated && !st.Background && !st.Disown && !st.Coprocess {
		if len(st.Redirs) > 0 && !(redirs == redirsAlways || redirs == redirsAlone && alone) {
			return
		}
		switch cm := st.Cmd.(type) {
		case *syntax.CallExpr:
			if len(cm.Args) > 0 {
				r.noForkTail, r.noForkPpid, r.noForkShlvl = cm, ppid, shlvl
			}
			return
		case *syntax.BinaryCmd:
			if cm.Op != syntax.AndStmt && cm.Op != syntax.OrStmt || len(stmts) > 1 {
				// (bash looks into an && or || list only when it
				// is the whole text: echo a; true && cmd forks.)
				return
			}
			st, alone = cm.Y, false
		default:
			return
		}
	}
}

// funcNoForkTail makes the last simple command of body, the function
// that the noForkTail calls in a $( … ) or <( … ), the one bash execs
// without a fork in turn; it gives the noForkTail to put back.
func (r *Runner) funcNoForkTail(body *syntax.Stmt) *syntax.CallExpr {
	tail := r.noForkTail
	if tail == nil || !r.noForkFuncs || r.node != syntax.Node(tail) || r.callbackExit != "" || r.exitIgnored {
		return tail
	}
	if b, ok := body.Cmd.(*syntax.Block); ok {
		r.setNoForkTail(b.Stmts, r.noForkPpid, r.noForkShlvl, redirsNever)
	}
	return tail
}

// NoForkExec reports whether the command that the exec handler runs is
// one that bash would exec without forking, being the last thing its
// forked shell does (the last simple command of a ( … ), a $( … ), a
// -c string, a background job's or a pipeline's element), with no EXIT
// trap to run after it (not even an ignored one): a shell it starts
// then has ppid, the forked shell's parent, for its $PPID, and, when
// shlvl is set (not for a pipeline's element), bash lowers SHLVL by one
// first, as exec does; exec itself does both in the main shell.
func (hc HandlerContext) NoForkExec() (ppid int, shlvl, ok bool) {
	r := hc.runner
	if r == nil || hc.kind != handlerKindExec {
		return 0, false, false
	}
	if r.inExec {
		// exec replaces the shell: bash lowers SHLVL in the shell
		// itself, not in a subshell (where exec is no fork saved).
		if r.bashPid == r.llmsh.pid {
			return r.llmsh.ppid, true, true
		}
		// llmsh: in a subshell too, but for one of ( … ), which bash
		// counts as a level of its own (SUBSHELL_PAREN).
		return r.forkParent, !r.parenSub, true
	}
	if r.noForkTail == nil || hc.Node != syntax.Node(r.noForkTail) || r.callbackExit != "" || r.exitIgnored {
		return 0, false, false
	}
	return r.noForkPpid, r.noForkShlvl, true
}
