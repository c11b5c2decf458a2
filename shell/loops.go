package shell

import (
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// The loops' own status, PIPESTATUS and C-style for loops are the
// fork's (third_party/sh/interp/pipeline.go). What remains here serves the
// compound-status pass of errexit.go (andOrCompound, compoundStmt,
// keepStatus) and funcname.go, which still give a status through
// \x00loopst, and goes with them.

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

// loopLists rewrites the compounds that stand in n's lists of statements
// (see errexit.go).
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
		if out != nil {
			out = append(out, st)
		}
	}
	if out == nil {
		return stmts
	}
	return out
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
