package shell

import (
	"context"
	"strconv"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// Compound status under set -e. bash does not end the shell (nor run the
// ERR trap) when a compound command other than a subshell ends with a
// failure that set -e ignored: the last command of { …; }, of a branch of
// if, or of a case item was an && or || list, a negated command, or a
// loop. interp acts on any statement that ends with a failure, so that
//
//	set -e; if true; then [ -f x ] && echo y; fi; echo ok
//
// ended the shell. And interp ran the ERR trap twice for `{ false; }`,
// once for false and once for the group; bash runs it once.
//
// When the text may turn on set -e or set an ERR trap, the pre-pass
// rewrites such a compound C that stands in a list (when it may set an
// ERR trap: any if, case or group) into
//
//	[S=0 C=$?; \x00status "$C" && (( 1 ))]   (case only, see below)
//	C'   (each branch ends with S=$?; an if without else gets else S=0)
//	\x00loopst "$?" "$S" && (( 1 ))
//
// as the loops are (see loopStatus): C' ends with an assignment, so it
// succeeds (or fails only when a redirection of its own fails, and then
// set -e acts as in bash), and the status comes from an && list, which
// set -e and the ERR trap ignore. A failure inside C that set -e does not
// ignore still ends the shell where it happens. A case statement that
// matches no item has status 0: S is set to 0 before it, and $? is then
// given back (the case word, a pattern or an item may read it).
//
// Limits: only a compound that stands in a list is rewritten; one that is
// an element of a pipeline already ends the shell in bash too, but one in
// a function's body is not rewritten (the call is a simple command: bash
// also ends the shell). S is one variable per compound of the text (see
// the limits of loopStatus on recursion).

// compoundEndsIgnored reports whether the compound st may end with a
// failure that set -e ignored.
func compoundEndsIgnored(st *syntax.Stmt) bool {
	switch cm := st.Cmd.(type) {
	case *syntax.Block:
		return listEndsIgnored(cm.Stmts)
	case *syntax.IfClause:
		for c := cm; c != nil; c = c.Else {
			if listEndsIgnored(c.Then) {
				return true
			}
		}
	case *syntax.CaseClause:
		for _, it := range cm.Items {
			if listEndsIgnored(it.Stmts) {
				return true
			}
		}
	}
	return false
}

// listEndsIgnored reports whether the last statement of stmts may fail
// where set -e is ignored.
func listEndsIgnored(stmts []*syntax.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	st := stmts[len(stmts)-1]
	if st.Negated {
		return true
	}
	switch cm := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		return cm.Op == syntax.AndStmt || cm.Op == syntax.OrStmt
	case *syntax.WhileClause, *syntax.ForClause:
		return true // the loop rewrite ends with an && list
	case *syntax.Block, *syntax.IfClause, *syntax.CaseClause:
		return compoundEndsIgnored(st)
	}
	return false
}

// compoundStmt reports whether the pre-pass may rewrite st (see above).
func (r *rewriter) compoundStmt(st *syntax.Stmt) bool {
	if f := r.facts; f != nil && !f.dynamic && !f.errexit {
		return false
	}
	if st.Negated || st.Background || st.Coprocess || st.Disown || r.loops[st.Cmd] {
		return false
	}
	if f := r.facts; f == nil || f.dynamic || f.errTrap {
		switch st.Cmd.(type) {
		case *syntax.Block, *syntax.IfClause, *syntax.CaseClause:
			return true // interp runs the ERR trap again for the compound
		}
	}
	return compoundEndsIgnored(st)
}

// andOrCompound returns the last command of the && or || list st when it
// is a compound (an if, case, { }, while or for) that the pre-pass may
// rewrite (see andOrStatus), else nil.
func (r *rewriter) andOrCompound(st *syntax.Stmt) *syntax.Stmt {
	if f := r.facts; f != nil && !f.dynamic && !f.errexit {
		return nil
	}
	if st.Negated || st.Background || st.Coprocess || st.Disown {
		return nil
	}
	b, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || b.Op != syntax.AndStmt && b.Op != syntax.OrStmt {
		return nil
	}
	y := b.Y
	if y == nil || y.Negated || y.Background || y.Coprocess || y.Disown || r.loops[y.Cmd] {
		return nil
	}
	switch y.Cmd.(type) {
	case *syntax.Block, *syntax.IfClause, *syntax.CaseClause:
	case *syntax.WhileClause, *syntax.ForClause:
		if !loopStmt(y) {
			return nil
		}
	default:
		return nil
	}
	if f := r.facts; f == nil || f.dynamic || f.errTrap || listEndsIgnored([]*syntax.Stmt{y}) {
		return y
	}
	return nil
}

// andOrStatus returns the statements that replace the && or || list st
// whose last command is the compound y (from andOrCompound). bash does
// not end the shell when such a compound ends with a failure that set -e
// ignored (false || { [ -f x ] && echo y; }), where interp acts on the
// compound as on any command after && or ||. The list becomes
//
//	S=0 [C=$?; \x00status "$C" && (( 1 ))]
//	X && Y' (or X || Y')
//	\x00loopst "$?" "$S" && (( 1 ))
//
// where Y' is the compound rewritten as compoundStatus does (each branch
// ends with S=$?; a loop is first put in a group): Y' ends with an
// assignment, and the status of the list comes from the last && list,
// which set -e and the ERR trap ignore. When Y does not run, S stays 0
// and the list's status is X's (not 0 only after &&, and then it is the
// status that \x00loopst gives). C gives X the $? from before the list
// when X may read it.
func (r *rewriter) andOrStatus(st, y *syntax.Stmt) []*syntax.Stmt {
	if loopStmt(y) {
		r.loopGroup(y)
	}
	x := st.Cmd.(*syntax.BinaryCmd).X
	return r.keepStatus(y, st, r.facts.readsStatus([]*syntax.Stmt{x}))
}

// compoundStatus returns the statements that replace the compound st.
func (r *rewriter) compoundStatus(st *syntax.Stmt) []*syntax.Stmt {
	return r.keepStatus(st, st, false)
}

// keepStatus rewrites the compound cst so that each of its branches ends
// with S=$? and returns the statements that replace st, the statement
// that holds cst (cst itself, or an && or || list that ends with it): S
// is set to 0 before st (keeping $? when keepPrev), and its status is given
// after it.
func (r *rewriter) keepStatus(cst, st *syntax.Stmt, keepPrev bool) []*syntax.Stmt {
	r.markLoop(cst)
	id := r.st.next()
	s := "_llmsh_cs" + id
	pos := st.Position
	assign := func(pairs ...string) *syntax.Stmt { return r.assignStmt(pos, pairs...) }
	keep := func(stmts []*syntax.Stmt) []*syntax.Stmt {
		if len(stmts) == 0 {
			return append(stmts, assign(s, "0"))
		}
		return append(stmts, assign(s, "$?"))
	}
	// andTrue makes X && (( 1 )), whose status is X's and which set -e
	// and the ERR trap ignore.
	andTrue := func(args ...*syntax.Word) *syntax.Stmt {
		x := &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: args}}
		r.markInternal(x)
		st := &syntax.Stmt{Position: pos, Cmd: &syntax.BinaryCmd{OpPos: pos, Op: syntax.AndStmt, X: x, Y: trueStmt(pos)}}
		r.markInternal(st)
		return st
	}
	var pre []*syntax.Stmt
	if keepPrev {
		c := "_llmsh_cc" + id
		pre = []*syntax.Stmt{assign(s, "0", c, "$?"), andTrue(litWord(statusCmd), quotedParam(c))}
	} else if cst != st {
		pre = []*syntax.Stmt{assign(s, "0")}
	}
	switch cm := cst.Cmd.(type) {
	case *syntax.Block:
		cm.Stmts = keep(cm.Stmts)
	case *syntax.IfClause:
		c := cm
		for {
			c.Then = keep(c.Then)
			if c.Else == nil {
				break
			}
			c = c.Else
		}
		if len(c.Cond) > 0 {
			c.Else = &syntax.IfClause{Position: pos, ThenPos: pos, FiPos: pos, Then: []*syntax.Stmt{assign(s, "0")}}
		}
	case *syntax.CaseClause:
		for _, it := range cm.Items {
			it.Stmts = keep(it.Stmts)
		}
		if pre != nil {
			// S=0 is already set before st.
		} else if r.caseReadsStatus(cm) {
			c := "_llmsh_cc" + id
			pre = []*syntax.Stmt{assign(s, "0", c, "$?"), andTrue(litWord(statusCmd), quotedParam(c))}
		} else {
			pre = []*syntax.Stmt{assign(s, "0")}
		}
	}
	post := andTrue(litWord(loopStatusCmd), &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}, quotedParam(s))
	return append(append(pre, st), post)
}

// caseReadsStatus reports whether the word, the patterns or the items of
// cm may read the $? from before the case statement.
func (r *rewriter) caseReadsStatus(cm *syntax.CaseClause) bool {
	reads := false
	check := func(n syntax.Node) {
		syntax.Walk(n, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.ParamExp:
				if n.Param != nil && n.Param.Value == "?" {
					reads = true
				}
			case *syntax.CmdSubst, *syntax.ProcSubst:
				reads = true
			}
			return !reads
		})
	}
	check(cm.Word)
	for _, it := range cm.Items {
		for _, p := range it.Patterns {
			check(p)
		}
		if !reads && r.facts.readsStatus(it.Stmts) {
			reads = true
		}
	}
	return reads
}

// negatedStmt: bash ignores set -e (and the ERR trap) for every command
// that ! X runs, X's own and those of a function or group it calls;
// interp ignores only X's status, and ended the shell at a failure inside
// (set -e; ! { false; echo in; }). When the text may turn on set -e or
// set an ERR trap, the pre-pass makes ! X into ! X && (( 1 )): X then
// runs as the first part of an && list, where interp ignores both, and
// the list has the status of ! X. (A subshell that X runs has set -e
// again: interp's subshells start without that state.)
func (r *rewriter) negatedStmt(st *syntax.Stmt) {
	if !st.Negated || r.internal[st] || st.Background || st.Coprocess || st.Disown {
		return
	}
	if f := r.facts; f != nil && !f.dynamic && !f.errexit {
		return
	}
	inner := &syntax.Stmt{Position: st.Position, Cmd: st.Cmd, Redirs: st.Redirs, Negated: true}
	r.markInternal(inner)
	st.Cmd = &syntax.BinaryCmd{OpPos: st.Position, Op: syntax.AndStmt, X: inner, Y: trueStmt(st.Position)}
	st.Redirs, st.Negated = nil, false
	r.markInternal(st)
}

// Subshells and set -e. bash's command substitutions do not inherit set -e
// (outside posix mode, without shopt inherit_errexit; the fork clears it
// natively), and a ( … ) run
// where set -e is ignored (an if or while test, before && or ||, after !)
// ignores it inside too; interp's subshells keep set -e in both, so that
// set -e; x=$(false; echo in) ended the script. When the text may turn on
// set -e, the pre-pass starts each ( … ) in such a place with
// \x01noerrexit ignore "$?", which marks set -e as ignored there.

const noErrExitCmd = "\x01noerrexit"

// noErrExitSub starts the statements of the subshell or command
// substitution n with \x01noerrexit MODE.
func (r *rewriter) noErrExitSub(n syntax.Node, mode string) {
	if f := r.facts; f != nil && !f.dynamic && !f.errexit {
		return
	}
	stmts := subshellStmts(n)
	if stmts == nil {
		return
	}
	if len(*stmts) == 0 || (*stmts)[0].Cmd == nil || isNoErrExit((*stmts)[0]) {
		return
	}
	pos := n.Pos()
	status := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}
	st := &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(noErrExitCmd), litWord(mode), status}}}
	if mode != "ignore" {
		// An && list, which set -e and the ERR trap ignore. For
		// "ignore", a plain statement: interp restores noErrExit after
		// the first part of an && list, and the call has set it before
		// interp looks at its status.
		r.markInternal(st)
		st = &syntax.Stmt{Position: pos, Cmd: &syntax.BinaryCmd{OpPos: pos, Op: syntax.AndStmt, X: st, Y: trueStmt(pos)}}
	}
	r.markInternal(st)
	*stmts = append([]*syntax.Stmt{st}, *stmts...)
}

// isNoErrExit reports whether st is a \x01noerrexit statement.
func isNoErrExit(st *syntax.Stmt) bool {
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.AndStmt {
		st = b.X
	}
	return isCall(st, noErrExitCmd)
}

// ignoredSubshells starts each ( … ) that the statements run where set -e
// is ignored (see above).
func (r *rewriter) ignoredSubshells(stmts ...*syntax.Stmt) {
	for _, st := range stmts {
		if st == nil {
			continue
		}
		switch cm := st.Cmd.(type) {
		case *syntax.Subshell:
			r.noErrExitSub(cm, "ignore")
		case *syntax.BinaryCmd:
			if cm.Op == syntax.AndStmt || cm.Op == syntax.OrStmt {
				r.ignoredSubshells(cm.X, cm.Y)
			}
		case *syntax.Block:
			r.ignoredSubshells(cm.Stmts...)
		}
	}
}

// noErrExitCall answers \x01noerrexit MODE STATUS in a subshell: it sets
// fields of the subshell's runner (TestRunnerFieldsForErrTrap guards
// them) and returns STATUS.
func (s *Shell) noErrExitCall(ctx context.Context, args []string) []string {
	if len(args) != 3 {
		return statusArgs(2)
	}
	st, _ := strconv.Atoi(args[2])
	r := currentRunner(ctx)
	if r == nil || r == s.runner {
		return statusArgs(st)
	}
	if args[1] == "ignore" {
		r.SetNoErrExit()
	}
	return statusArgs(st)
}

// isCall reports whether st is a call of the command name.
func isCall(st *syntax.Stmt, name string) bool {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0 && ce.Args[0].Lit() == name
}

// subshellStmts returns the statements of n when it is a ( … ) or a
// $( … ), for the rewrites that put a statement in front of them; nil
// for anything else.
func subshellStmts(n syntax.Node) *[]*syntax.Stmt {
	switch n := n.(type) {
	case *syntax.Subshell:
		return &n.Stmts
	case *syntax.CmdSubst:
		return &n.Stmts
	}
	return nil
}
