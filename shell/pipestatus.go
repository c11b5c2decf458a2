package shell

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// PIPESTATUS, which interp does not set. When a script mentions it, the
// pre-pass turns each pipeline  A | B | C  into
//
//	{ { A; } | { B; \x00psrec ID 1 "$?"; } | ...; \x00psset ID 3 "$?"; }
//
// (each element records its status, the last statement assigns the array
// and keeps the pipeline's status). An element that did not get to record
// (set -e ended it) counts as failed, the last one as the pipeline's
// status.

const (
	psRecCmd = "\x00psrec"
	psSetCmd = "\x00psset"
)

var pipeSeq atomic.Int64

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

// pipeCall answers \x00psrec ID I STATUS and \x00psset ID N STATUS.
func (s *Shell) pipeCall(_ context.Context, args []string) []string {
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
	id := strconv.FormatInt(pipeSeq.Add(1), 10)
	status := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}
	for i, e := range elems {
		inner := &syntax.Stmt{Position: e.Position, Cmd: e.Cmd, Redirs: e.Redirs, Negated: e.Negated}
		rec := &syntax.Stmt{Position: e.Position, Cmd: &syntax.CallExpr{Args: []*syntax.Word{
			litWord(psRecCmd), litWord(id), litWord(strconv.Itoa(i)), status}}}
		e.Cmd, e.Redirs, e.Negated = &syntax.Block{Lbrace: e.Position, Rbrace: e.End(), Stmts: []*syntax.Stmt{inner, rec}}, nil, false
	}
	pipe := &syntax.Stmt{Position: st.Position, Cmd: bc}
	set := &syntax.Stmt{Position: st.Position, Cmd: &syntax.CallExpr{Args: []*syntax.Word{
		litWord(psSetCmd), litWord(id), litWord(strconv.Itoa(len(elems))), status}}}
	st.Cmd = &syntax.Block{Lbrace: st.Position, Rbrace: st.End(), Stmts: []*syntax.Stmt{pipe, set}}
}
