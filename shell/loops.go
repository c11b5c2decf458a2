package shell

import (
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// Loop status. bash gives a while or until loop the status of the last
// command its body ran (0 after break or continue, which succeed), or 0 if
// the body never ran; interp clears it after the last test, so the loop
// always ends with 0. And bash's set -e never ends the shell for a loop's
// own status (the body's last command failed where set -e was ignored, in
// an && list say), while interp ends it for any compound command that
// ends with a failure (a for loop whose body ends with [ -n "$x" ] && …).
//
// The pre-pass rewrites a loop L that stands in a list of statements into
//
//	S=0 [C=$?]
//	while [\x00status "$C";] COND; do S=0 [C=0]; BODY; S=$? [C=$?]; done
//	\x00loopst "$?" "$S" && (( 1 ))
//
// so that the loop itself ends with 0 (its body ends with an assignment),
// or 1 if a redirection of its own failed (then it is that status), and
// the status comes from the last statement, which is part of an &&
// list: set -e and the ERR trap ignore it, as bash ignores a loop's. The
// body's first assignment gives break and continue their status 0. C, and
// the \x00status that gives the test the $? it sees in bash (the status
// before the loop, then the body's), are there only when the test may read
// $? (see readsStatus). A for loop over words gets S the same way (interp
// gives it the right status, but set -e); a C-style for loop is first
// rewritten to a while (see cstyleLoop). A loop that is not in a list (an
// element of a pipeline, after && or ||, negated, in the background)
// becomes a group { … } of the three: its status is right, and set -e
// acts on the group as it does on any group in interp.
//
// Limits: S is one variable per loop of the text, so a function that runs
// its own loop again from the body (recursion) and then breaks out of the
// outer run gives that run the inner run's status; the first command of an
// until loop's body sees $? 0 (bash: the test's status), as interp clears
// it before the body.

// loopStatusCmd ST S is the status of a rewritten loop: ST (the loop
// statement's, not 0 only if a redirection failed), else S.
const loopStatusCmd = "\x00loopst"

// loopStatusArgs answers \x00loopst.
func loopStatusArgs(args []string) []string {
	if len(args) != 3 {
		return statusArgs(2)
	}
	if args[1] != "0" {
		return statusArgs(atoiStatus(args[1]))
	}
	return statusArgs(atoiStatus(args[2]))
}

func atoiStatus(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// loopLists rewrites the loops that stand in n's lists of statements.
func (r *rewriter) loopLists(n syntax.Node) { mapStmtLists(n, r.loopList) }

// mapStmtLists replaces each list of statements that n holds directly
// (a file's, a block's, a subshell's, a command substitution's, an if's
// test and body, a loop's test and body, a case item's) by f of it.
func mapStmtLists(n syntax.Node, f func([]*syntax.Stmt) []*syntax.Stmt) {
	switch n := n.(type) {
	case *syntax.File:
		n.Stmts = f(n.Stmts)
	case *syntax.Block:
		n.Stmts = f(n.Stmts)
	case *syntax.Subshell:
		n.Stmts = f(n.Stmts)
	case *syntax.CmdSubst:
		n.Stmts = f(n.Stmts)
	case *syntax.IfClause:
		n.Cond = f(n.Cond)
		n.Then = f(n.Then)
	case *syntax.WhileClause:
		n.Cond = f(n.Cond)
		n.Do = f(n.Do)
	case *syntax.ForClause:
		n.Do = f(n.Do)
	case *syntax.CaseItem:
		n.Stmts = f(n.Stmts)
	}
}

func (r *rewriter) loopList(stmts []*syntax.Stmt) []*syntax.Stmt {
	var out []*syntax.Stmt
	for i, st := range stmts {
		if y := r.andOrCompound(st); y != nil {
			if out == nil {
				out = append(make([]*syntax.Stmt, 0, len(stmts)+2), stmts[:i]...)
			}
			out = append(out, r.andOrStatus(st, y)...)
			continue
		}
		if r.compoundStmt(st) {
			if out == nil {
				out = append(make([]*syntax.Stmt, 0, len(stmts)+2), stmts[:i]...)
			}
			out = append(out, r.compoundStatus(st)...)
			continue
		}
		if !loopStmt(st) || r.loops[st.Cmd] {
			if out != nil {
				out = append(out, st)
			}
			continue
		}
		if out == nil {
			out = append(make([]*syntax.Stmt, 0, len(stmts)+2), stmts[:i]...)
		}
		if st.Negated || st.Background || st.Coprocess || st.Disown {
			r.loopGroup(st)
			out = append(out, st)
			continue
		}
		if fc, ok := st.Cmd.(*syntax.ForClause); ok {
			if _, cstyle := fc.Loop.(*syntax.CStyleLoop); cstyle {
				r.cstyleLoop(st)
				if len(st.Redirs) > 0 {
					// The group keeps the redirections; its list is
					// rewritten when the walk reaches it.
					out = append(out, st)
					continue
				}
				blk := st.Cmd.(*syntax.Block)
				out = append(out, blk.Stmts[:len(blk.Stmts)-1]...)
				st = blk.Stmts[len(blk.Stmts)-1]
			}
		}
		var next *syntax.Stmt
		if i+1 < len(stmts) {
			next = stmts[i+1]
		}
		if r.loopLeftAlone(st, next) {
			r.markLoop(st)
			out = append(out, st)
			continue
		}
		out = append(out, r.loopStatus(st)...)
	}
	if out == nil {
		return stmts
	}
	return out
}

// loopLeftAlone reports whether interp's own run of the loop st, followed
// in its list by next (nil if st is last), cannot be told from bash's: for
// a while loop, when its status is never read (next reads no $?) and its
// test reads no $?; for a for loop over words (whose status interp gets
// right), when set -e and an ERR trap cannot be on.
func (r *rewriter) loopLeftAlone(st, next *syntax.Stmt) bool {
	f := r.facts
	if f == nil || f.dynamic {
		return false
	}
	switch cm := st.Cmd.(type) {
	case *syntax.WhileClause:
		return next != nil && !f.readsStatus([]*syntax.Stmt{next}) && !f.readsStatus(cm.Cond)
	case *syntax.ForClause:
		return !f.errexit
	}
	return false
}

// loopStmt reports whether st is a loop whose status the pre-pass sets.
func loopStmt(st *syntax.Stmt) bool {
	switch cm := st.Cmd.(type) {
	case *syntax.WhileClause:
		return true
	case *syntax.ForClause:
		return !cm.Select
	}
	return false
}

// loopGroup rewrites a loop that is not in a list into a group holding
// it, whose list is rewritten when the walk reaches it.
func (r *rewriter) loopGroup(st *syntax.Stmt) {
	if !loopStmt(st) || r.loops[st.Cmd] {
		return
	}
	inner := &syntax.Stmt{Position: st.Position, Cmd: st.Cmd}
	st.Cmd = &syntax.Block{Lbrace: st.Position, Rbrace: st.End(), Stmts: []*syntax.Stmt{inner}}
}

func (r *rewriter) markLoop(st *syntax.Stmt) {
	if r.loops == nil {
		r.loops = map[syntax.Command]bool{}
	}
	r.loops[st.Cmd] = true
}

// assignStmt is an internal statement at pos assigning each name of
// pairs (name, value, name, value, ...) its literal value.
func (r *rewriter) assignStmt(pos syntax.Pos, pairs ...string) *syntax.Stmt {
	ce := &syntax.CallExpr{}
	for i := 0; i < len(pairs); i += 2 {
		ce.Assigns = append(ce.Assigns, &syntax.Assign{Name: &syntax.Lit{Value: pairs[i]}, Value: wordOf(pairs[i+1])})
	}
	st := &syntax.Stmt{Position: pos, Cmd: ce}
	r.markInternal(st)
	return st
}

// loopStatus returns the statements that replace the loop st.
func (r *rewriter) loopStatus(st *syntax.Stmt) []*syntax.Stmt {
	r.markLoop(st)
	id := r.st.next()
	s, c := "_llmsh_st"+id, ""
	pos := st.Position
	assign := func(pairs ...string) *syntax.Stmt { return r.assignStmt(pos, pairs...) }
	call := func(args ...*syntax.Word) *syntax.Stmt {
		st := &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: args}}
		r.markInternal(st)
		return st
	}
	var do *[]*syntax.Stmt
	switch cm := st.Cmd.(type) {
	case *syntax.WhileClause:
		if r.facts.readsStatus(cm.Cond) {
			c = "_llmsh_cd" + id
			cm.Cond = append([]*syntax.Stmt{call(litWord(statusCmd), quotedParam(c))}, cm.Cond...)
		}
		do = &cm.Do
	case *syntax.ForClause:
		do = &cm.Do
	}
	pre, start, end := []string{s, "0"}, []string{s, "0"}, []string{s, "$?"}
	if c != "" {
		pre = append(pre, c, "$?")
		start = append(start, c, "0")
		end = append(end, c, "$?")
	}
	body := make([]*syntax.Stmt, 0, len(*do)+2)
	if r.facts == nil || r.facts.dynamic || breaks(*do) {
		// break and continue succeed: the status after them is 0.
		body = append(body, assign(start...))
	}
	*do = append(append(body, *do...), assign(end...))
	post := &syntax.Stmt{Position: pos, Cmd: &syntax.BinaryCmd{OpPos: pos, Op: syntax.AndStmt,
		X: call(litWord(loopStatusCmd), &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}, quotedParam(s)),
		Y: trueStmt(pos)}}
	r.markInternal(post)
	return []*syntax.Stmt{assign(pre...), st, post}
}

// trueStmt makes (( 1 )), which succeeds and, unlike : or true, no
// function of the script can replace. The pre-pass ends its status-keeping
// lists X && (( 1 )) with it.
func trueStmt(pos syntax.Pos) *syntax.Stmt {
	return &syntax.Stmt{Position: pos, Cmd: &syntax.ArithmCmd{Left: pos, Right: pos, X: litWord("1")}}
}

// wordOf makes the word for "0" or "$?".
func wordOf(v string) *syntax.Word {
	if v == "$?" {
		return &syntax.Word{Parts: []syntax.WordPart{paramExp("?")}}
	}
	return litWord(v)
}

// loopFacts is what the pre-pass knows of a script's text for its loops.
// A nil *loopFacts (at the prompt, where an earlier line may have set
// anything) knows nothing.
type loopFacts struct {
	funcs    map[string]bool // functions the text defines
	dynamic  bool            // the text runs code it does not show (eval, source, $cmd)
	errexit  bool            // the text may turn on set -e or set an ERR trap
	errTrap  bool            // the text may set an ERR trap
	errtrace bool            // the text may turn on set -E (errtrace)
}

// codeRunners run code or commands that the text does not show.
var codeRunners = map[string]bool{"eval": true, "source": true, ".": true, "command": true, "builtin": true,
	"exec": true, "xargs": true, "env": true, "timeout": true, "find": true, "time": true, "nohup": true, "nice": true}

// scriptLoopFacts reads the facts of the script's text root.
func scriptLoopFacts(root syntax.Node) *loopFacts {
	f := &loopFacts{funcs: map[string]bool{}}
	syntax.Walk(root, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name != nil {
				f.funcs[n.Name.Value] = true
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true
			}
			name := n.Args[0].Lit()
			switch {
			case name == "" || codeRunners[name]:
				f.dynamic = true
			case name == "set" || name == "trap" || name == "shopt":
				for _, a := range n.Args[1:] {
					v := a.Lit()
					if v == "" || v == "errexit" || v == "ERR" || len(v) > 1 && (v[0] == '-' || v[0] == '+') && strings.Contains(v, "e") {
						f.errexit = true
					}
					if name == "trap" && (v == "" || v == "ERR") {
						f.errTrap = true
					}
					if name == "set" && (v == "" || v == "errtrace" || len(v) > 1 && (v[0] == '-' || v[0] == '+') && strings.Contains(v, "E")) {
						f.errtrace = true
					}
				}
			}
		}
		return true
	})
	return f
}

// statusBlind names the commands that never read $?; a loop test made of
// them (and of [[ ]] and (( ))) without a $? needs no status restored.
var statusBlind = map[string]bool{"[": true, "test": true, "read": true, "true": true, "false": true, ":": true}

// readsStatus reports whether the statements may read $?: they mention
// it, or run a command that may (return, exit, a function, code that the
// text does not show). With no facts, any command but those of
// statusBlind may.
func (f *loopFacts) readsStatus(stmts []*syntax.Stmt) bool {
	reads := false
	for _, st := range stmts {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.ParamExp:
				if n.Param != nil && n.Param.Value == "?" {
					reads = true
				}
			case *syntax.CallExpr:
				if len(n.Args) > 0 {
					name := n.Args[0].Lit()
					switch {
					case statusBlind[name]:
					case f == nil || f.dynamic || name == "" || f.funcs[name] || codeRunners[name] || name == "return" || name == "exit":
						reads = true
					}
				}
			case *syntax.FuncDecl:
				return false // defining a function reads nothing
			}
			return !reads
		})
	}
	return reads
}

// breaks reports whether the statements hold a break or continue.
func breaks(stmts []*syntax.Stmt) bool {
	found := false
	for _, st := range stmts {
		syntax.Walk(st, func(n syntax.Node) bool {
			if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
				if name := ce.Args[0].Lit(); name == "break" || name == "continue" {
					found = true
				}
			}
			return !found
		})
	}
	return found
}
