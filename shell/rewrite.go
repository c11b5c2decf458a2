package shell

import (
	"strconv"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// This file holds the pre-pass rewrites of the syntax tree that make
// interp v3.14.1 behave as bash where it does not by itself. Each works on
// one statement and is applied by refuse's walk before the script runs.

var loopSeq atomic.Int64

// cstyleLoop rewrites `for ((I; C; P)); do BODY; done`, which interp ends
// as soon as an iteration's last command fails, into the equivalent
//
//	{ : $((I)); F=1; while ((F ? (F = 0) : (P), C)); do BODY; done; }
//
// F marks the first test, before which P is not evaluated; continue still
// evaluates P, as it goes to the loop's test. The status is that of the
// last command of the body, or 0, as in bash.
func cstyleLoop(st *syntax.Stmt) {
	fc, ok := st.Cmd.(*syntax.ForClause)
	if !ok {
		return
	}
	cl, ok := fc.Loop.(*syntax.CStyleLoop)
	if !ok {
		return
	}
	f := "_llmsh_for" + strconv.FormatInt(loopSeq.Add(1), 10)
	var post, cond syntax.ArithmExpr = arithLit("0"), arithLit("1")
	if cl.Post != nil {
		post = cl.Post
	}
	if cl.Cond != nil {
		cond = cl.Cond
	}
	test := &syntax.BinaryArithm{Op: syntax.Comma,
		X: &syntax.BinaryArithm{Op: syntax.TernQuest, X: arithLit(f),
			Y: &syntax.BinaryArithm{Op: syntax.TernColon,
				X: &syntax.ParenArithm{X: &syntax.BinaryArithm{Op: syntax.Assgn, X: arithLit(f), Y: arithLit("0")}},
				Y: &syntax.ParenArithm{X: post}}},
		Y: cond}
	pos := st.Position
	var stmts []*syntax.Stmt
	if cl.Init != nil {
		stmts = append(stmts, &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: []*syntax.Word{
			litWord(":"), {Parts: []syntax.WordPart{&syntax.ArithmExp{X: cl.Init}}}}}})
	}
	stmts = append(stmts,
		&syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Assigns: []*syntax.Assign{{Name: &syntax.Lit{Value: f}, Value: litWord("1")}}}},
		&syntax.Stmt{Position: pos, Cmd: &syntax.WhileClause{WhilePos: fc.ForPos, DoPos: fc.DoPos, DonePos: fc.DonePos,
			Cond: []*syntax.Stmt{{Position: pos, Cmd: &syntax.ArithmCmd{Left: pos, X: test}}},
			Do:   fc.Do, DoLast: fc.DoLast}})
	st.Cmd = &syntax.Block{Lbrace: pos, Rbrace: fc.DonePos, Stmts: stmts}
}

func arithLit(s string) *syntax.Word { return litWord(s) }
