package shell

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// PIPESTATUS, which interp does not set. When a script mentions it, the
// pre-pass turns each pipeline  A | B | C  into
//
//	{ { A; } | { B; \x00psrec ID 1 "$?"; } | ...; \x00psset ID 3 "$?"; }
//
// (each element records its status, the last statement assigns the array
// and keeps the pipeline's status). An element that holds an exit, or any
// element when the script may turn on set -e, runs as ( A ), so that its
// status is recorded however it ends; an element that did not get to
// record counts as failed, the last one as the pipeline's status.
//
// bash also sets PIPESTATUS to (N) after each simple command (an
// assignment, [[ ]], (( )), ( … ), a function call), but not after a
// compound command (if, while, { … }: their last command set it). The
// pre-pass follows each such statement S in a list with
//
//	\x00ps1 "$?" && (( 1 ))
//
// which sets the array and keeps S's status (an && list: set -e and the ERR
// trap ignore it); an operand of && or || becomes { S; \x00ps1 "$?" && (( 1 )); },
// and ! S becomes ! { S; … }, so that the array holds S's own status; a
// list of simple commands is followed by the record of its last instead
// (see psListTail).

const (
	psRecCmd = "\x00psrec"
	psSetCmd = "\x00psset"
	psOneCmd = "\x00ps1"
)

// setShellVar assigns name in the runner that runs the command of ctx
// (its subshell's or its function's scope as an assignment would), through
// the fork's Runner.WriteEnv (TestSetShellVar). It reports whether it could.
func setShellVar(ctx context.Context, name string, vr expand.Variable) bool {
	r := currentRunner(ctx)
	if r == nil {
		return false
	}
	return setRunnerVar(r, name, vr)
}

// setRunnerVar assigns name in the runner r (see setShellVar).
func setRunnerVar(r *interp.Runner, name string, vr expand.Variable) bool {
	env := r.WriteEnv()
	return env != nil && env.Set(name, vr) == nil
}

// pipeStatuses holds the statuses recorded by running pipelines.
type pipeStatuses struct {
	mu sync.Mutex
	m  map[string]map[int]int
}

func (p *pipeStatuses) record(id string, i, st int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]map[int]int{}
	}
	if p.m[id] == nil {
		p.m[id] = map[int]int{}
	}
	p.m[id][i] = st
}

func (p *pipeStatuses) take(id string) map[int]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := p.m[id]
	delete(p.m, id)
	return m
}

// pipeCall answers \x00psrec ID I STATUS, \x00psset ID N STATUS and
// \x00ps1 STATUS.
func (s *Shell) pipeCall(ctx context.Context, args []string) []string {
	if args[0] == psOneCmd && len(args) == 2 {
		st, _ := strconv.Atoi(args[1])
		if setShellVar(ctx, "PIPESTATUS", expand.Variable{Set: true, Kind: expand.Indexed, List: []string{args[1]}}) {
			return s.statusCmd(ctx, st)
		}
		src := "PIPESTATUS=(" + strconv.Itoa(st) + ")"
		if st != 0 {
			src += "; (exit " + strconv.Itoa(st) + ")"
		}
		return []string{"eval", src}
	}
	if len(args) != 4 {
		return statusArgs(2)
	}
	n, _ := strconv.Atoi(args[2])
	st, _ := strconv.Atoi(args[3])
	if args[0] == psRecCmd {
		s.pipes.record(args[1], n, st)
		return statusArgs(st)
	}
	got := s.pipes.take(args[1])
	list := make([]string, n)
	for i := range list {
		v, ok := got[i]
		switch {
		case ok:
		case i == n-1:
			v = st
		default:
			v = 1
		}
		list[i] = strconv.Itoa(v)
	}
	if setShellVar(ctx, "PIPESTATUS", expand.Variable{Set: true, Kind: expand.Indexed, List: list}) {
		return statusArgs(st)
	}
	src := "PIPESTATUS=(" + strings.Join(list, " ") + ")"
	if st != 0 {
		src += "; (exit " + strconv.Itoa(st) + ")"
	}
	return []string{"eval", src}
}

// pipeElems lists the statements of a pipeline.
func pipeElems(st *syntax.Stmt) []*syntax.Stmt {
	if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok && !st.Negated && len(st.Redirs) == 0 && !st.Background &&
		(bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) {
		return append(pipeElems(bc.X), pipeElems(bc.Y)...)
	}
	return []*syntax.Stmt{st}
}

// pipeStatusStmt rewrites st if it is a pipeline (see above).
func (r *rewriter) pipeStatusStmt(st *syntax.Stmt) {
	bc, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || (bc.Op != syntax.Pipe && bc.Op != syntax.PipeAll) || r.piped[bc] {
		return
	}
	if r.piped == nil {
		r.piped = map[*syntax.BinaryCmd]bool{}
	}
	r.piped[bc] = true
	elems := append(pipeElems(bc.X), pipeElems(bc.Y)...)
	id := r.st.next()
	status := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}
	errexit := r.facts == nil || r.facts.dynamic || r.facts.errexit
	errTrap := r.facts == nil || r.facts.errTrap
	for i, e := range elems {
		inner := &syntax.Stmt{Position: e.Position, Cmd: e.Cmd, Redirs: e.Redirs, Negated: e.Negated}
		if errexit || callsExit(e) {
			inner = &syntax.Stmt{Position: e.Position, Cmd: &syntax.Subshell{Lparen: e.Position, Rparen: e.End(), Stmts: []*syntax.Stmt{inner}}}
		}
		r.markInternal(inner)
		rec := &syntax.Stmt{Position: e.Position, Cmd: &syntax.CallExpr{Args: []*syntax.Word{
			litWord(psRecCmd), litWord(id), litWord(strconv.Itoa(i)), status}}}
		e.Cmd, e.Redirs, e.Negated = &syntax.Block{Lbrace: e.Position, Rbrace: e.End(), Stmts: []*syntax.Stmt{inner, rec}}, nil, false
	}
	r.markInternal(st)
	pipe := &syntax.Stmt{Position: st.Position, Cmd: bc}
	set := &syntax.Stmt{Position: st.Position, Cmd: &syntax.CallExpr{Args: []*syntax.Word{
		litWord(psSetCmd), litWord(id), litWord(strconv.Itoa(len(elems))), status}}}
	st.Cmd = &syntax.Block{Lbrace: st.Position, Rbrace: st.End(), Stmts: []*syntax.Stmt{pipe, set}}
	if errTrap {
		// { { PIPE; SET; } && (( 1 )); }: interp would run the ERR trap
		// for the last element's record, the pipeline, the record of
		// PIPESTATUS and the group; it runs it once, for the outer
		// group, which also ends the shell under set -e. The elements
		// run in subshells (pipeErrTrap), where the && does not reach.
		grp := &syntax.Stmt{Position: st.Position, Cmd: st.Cmd}
		r.markInternal(grp)
		and := &syntax.Stmt{Position: st.Position, Cmd: &syntax.BinaryCmd{OpPos: st.Position, Op: syntax.AndStmt, X: grp, Y: trueStmt(st.Position)}}
		r.markInternal(and)
		st.Cmd = &syntax.Block{Lbrace: st.Position, Rbrace: st.End(), Stmts: []*syntax.Stmt{and}}
	}
}

// exitLastElem runs the last element of the pipeline st as ( … ) when it
// holds exit or return: interp runs that element in the shell itself, so
// that `true | exit 3` ended the script (and `true | return 3` returned
// from the function); in bash it ends the element only.
func exitLastElem(st *syntax.Stmt) {
	bc, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || (bc.Op != syntax.Pipe && bc.Op != syntax.PipeAll) || !callsExit(bc.Y) {
		return
	}
	y := bc.Y
	inner := &syntax.Stmt{Position: y.Position, Cmd: y.Cmd, Redirs: y.Redirs, Negated: y.Negated}
	y.Cmd, y.Redirs, y.Negated = &syntax.Subshell{Lparen: y.Position, Rparen: y.End(), Stmts: []*syntax.Stmt{inner}}, nil, false
}

// callsExit reports whether st runs exit or return outside a subshell of
// its own.
func callsExit(st *syntax.Stmt) bool {
	found := false
	syntax.Walk(st, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
			return false
		case *syntax.CallExpr:
			if len(n.Args) > 0 && (n.Args[0].Lit() == "exit" || n.Args[0].Lit() == "return") {
				found = true
			}
		}
		return !found
	})
	return found
}

func (r *rewriter) markInternal(st *syntax.Stmt) {
	if r.internal == nil {
		r.internal = map[*syntax.Stmt]bool{}
	}
	r.internal[st] = true
}

// psLists follows the simple commands of n's lists with \x00ps1 (see
// above).
func (r *rewriter) psLists(n syntax.Node) {
	if r.pipeStatus {
		mapStmtLists(n, r.psList)
	}
}

// psRecord makes \x00ps1 "$?" && (( 1 )) at pos.
func (r *rewriter) psRecord(pos syntax.Pos) *syntax.Stmt {
	status := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}
	st := &syntax.Stmt{Position: pos, Cmd: &syntax.BinaryCmd{OpPos: pos, Op: syntax.AndStmt,
		X: &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(psOneCmd), status}}},
		Y: trueStmt(pos)}}
	r.markInternal(st)
	return st
}

// psSimple reports whether st is a simple command after which bash sets
// PIPESTATUS, and not one of the pre-pass's own.
func (r *rewriter) psSimple(st *syntax.Stmt) bool {
	if r.internal[st] || st.Background || st.Coprocess || st.Disown {
		return false
	}
	switch cm := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(cm.Args) > 0 {
			name := cm.Args[0].Lit()
			return !strings.HasPrefix(name, "\x00") && name != "break" && name != "continue" && name != "return" && name != "exit"
		}
		for _, a := range cm.Assigns {
			if strings.HasPrefix(a.Name.Value, "_llmsh_") {
				return false
			}
		}
		return true
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.Subshell, *syntax.DeclClause, *syntax.LetClause:
		return true
	}
	return false
}

// psGroup turns st into { st; \x00ps1 "$?" && (( 1 )); } (negation kept outside).
func (r *rewriter) psGroup(st *syntax.Stmt) {
	inner := &syntax.Stmt{Position: st.Position, Cmd: st.Cmd, Redirs: st.Redirs}
	r.markInternal(inner)
	blk := &syntax.Block{Lbrace: st.Position, Rbrace: st.End(), Stmts: []*syntax.Stmt{inner, r.psRecord(st.Position)}}
	st.Cmd, st.Redirs = blk, nil
	r.markInternal(st)
}

// psOperands records the simple operands of an && or || list.
func (r *rewriter) psOperands(st *syntax.Stmt) {
	bc, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || (bc.Op != syntax.AndStmt && bc.Op != syntax.OrStmt) || r.internal[st] {
		return
	}
	for _, op := range []*syntax.Stmt{bc.X, bc.Y} {
		if r.psSimple(op) {
			r.psGroup(op)
		} else {
			r.psOperands(op)
		}
	}
}

// psListTail records the operands of the && or || list st but its last,
// and reports whether st ends with a simple command whose record is to
// follow st instead: the list's status is then that command's, or that
// of the operand that stopped it (all operands are simple commands). A group { S; … }
// after && or || would make interp run the ERR trap twice when S fails,
// once for S and once for the group; the operands before it run where
// set -e and the ERR trap are ignored.
func (r *rewriter) psListTail(st *syntax.Stmt) bool {
	bc, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || (bc.Op != syntax.AndStmt && bc.Op != syntax.OrStmt) || r.internal[st] || st.Negated || st.Background || st.Coprocess || st.Disown {
		return false
	}
	if !r.psSimple(bc.Y) || bc.Y.Negated || !r.psAllSimple(bc.X) {
		return false
	}
	if r.psSimple(bc.X) {
		r.psGroup(bc.X)
	} else {
		r.psOperands(bc.X)
	}
	return true
}

// psAllSimple reports whether each operand of the && and || lists in st
// is a simple command, not negated (its status is then what it records).
func (r *rewriter) psAllSimple(st *syntax.Stmt) bool {
	if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.AndStmt || bc.Op == syntax.OrStmt) && !st.Negated {
		return r.psAllSimple(bc.X) && r.psAllSimple(bc.Y)
	}
	return r.psSimple(st) && !st.Negated
}

// psList returns stmts with each simple command followed by a record.
func (r *rewriter) psList(stmts []*syntax.Stmt) []*syntax.Stmt {
	var out []*syntax.Stmt
	for _, st := range stmts {
		switch {
		case r.psSimple(st) && st.Negated:
			r.psGroup(st)
			out = append(out, st)
		case r.psSimple(st):
			out = append(out, st, r.psRecord(st.Position))
		case r.psListTail(st):
			out = append(out, st, r.psRecord(st.Position))
		default:
			r.psOperands(st)
			out = append(out, st)
		}
	}
	return out
}
