// Copyright (c) 2026, llmsh authors
// See LICENSE for licensing information

package interp

// llmsh: the command bash execs without a fork as the last thing a shell
// it forked does (NoForkExec; LLMSH.md, session 23).

import "github.com/llmsh/llmsh/third_party/sh/syntax"

// setNoForkTail marks the last simple command of stmts as the one that
// bash would exec without a fork (noForkTail): the last statement, or
// the last of its && and || lists.
func (r *Runner) setNoForkTail(stmts []*syntax.Stmt, ppid int, shlvl bool) {
	r.noForkTail = nil
	if len(stmts) == 0 {
		return
	}
	st := stmts[len(stmts)-1]
	for st != nil && !st.Negated && !st.Background && !st.Disown && !st.Coprocess {
		switch cm := st.Cmd.(type) {
		case *syntax.CallExpr:
			if len(cm.Args) > 0 {
				r.noForkTail, r.noForkPpid, r.noForkShlvl = cm, ppid, shlvl
			}
			return
		case *syntax.BinaryCmd:
			if cm.Op != syntax.AndStmt && cm.Op != syntax.OrStmt {
				return
			}
			st = cm.Y
		default:
			return
		}
	}
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
		return 0, false, false
	}
	if r.noForkTail == nil || hc.Node != syntax.Node(r.noForkTail) || r.callbackExit != "" || r.exitIgnored {
		return 0, false, false
	}
	return r.noForkPpid, r.noForkShlvl, true
}
