// Package parser is an AWK parser and abstract syntax tree.
//
// Use the ParseProgram function to parse an AWK program, and then give the
// result to interp.Exec, interp.ExecProgram, or interp.New to execute it.
package parser

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/third_party/goawk/internal/ast"
	"github.com/llmsh/llmsh/third_party/goawk/internal/compiler"
	"github.com/llmsh/llmsh/third_party/goawk/internal/resolver"
	. "github.com/llmsh/llmsh/third_party/goawk/lexer"
)

// ParseError (actually *ParseError) is the type of error returned by
// ParseProgram.
type ParseError struct {
	// Source line/column position where the error occurred.
	Position Position
	// Error message.
	Message string
	// Prior (llmsh) are errors found before this one that the parse
	// went on past (as mawk does), in the order found.
	Prior []*ParseError
}

// Error returns a formatted version of the error, including the line
// and column numbers.
func (e *ParseError) Error() string {
	return fmt.Sprintf("parse error at %d:%d: %s", e.Position.Line, e.Position.Column, e.Message)
}

// ParserConfig lets you specify configuration for the parsing
// process (for example printing type information for debugging).
type ParserConfig struct {
	// Enable printing of type information
	DebugTypes bool

	// io.Writer to print type information on (for example, os.Stderr)
	DebugWriter io.Writer

	// Map of named Go functions to allow calling from AWK. See docs
	// on interp.Config.Funcs for details.
	Funcs map[string]interface{}

	// Bytes (llmsh): regular expressions are mawk's, over bytes
	// (compiler.MawkRegex), for an interpreter without Config.Chars.
	Bytes bool

	// Stop (llmsh), when set, is called every stopEvery tokens: once it
	// says true the parse ends with ErrStopped (a program of megabytes
	// takes seconds to parse; the run's time limit looks at it).
	Stop func() bool

	// FuncArgs (llmsh) are the fewest and most arguments of some of
	// Funcs: a call outside them is "wrong number of arguments in call
	// to NAME", as a builtin's in mawk.
	FuncArgs map[string][2]int

	// NoNamedFields (llmsh): @ is mawk's unexpected character, not
	// goawk's @"field" (nor gawk's @include).
	NoNamedFields bool
}

// ErrStopped (llmsh) is the message of the ParseError of a parse that
// ParserConfig.Stop stopped.
const ErrStopped = "parse stopped"

// stopEvery (llmsh) is how many tokens are read between two calls of
// ParserConfig.Stop.
const stopEvery = 4096

func (c *ParserConfig) toResolverConfig() *resolver.Config {
	if c == nil {
		return nil
	}
	return &resolver.Config{
		DebugTypes:  c.DebugTypes,
		DebugWriter: c.DebugWriter,
		Funcs:       c.Funcs,
		FuncArgs:    c.FuncArgs,
	}
}

// ParseProgram parses an entire AWK program, returning the *Program
// abstract syntax tree or a *ParseError on error. "config" describes
// the parser configuration (and is allowed to be nil).
func ParseProgram(src []byte, config *ParserConfig) (prog *Program, err error) {
	var p parser
	defer func() {
		// The parser and resolver use panic with an *ast.PositionError to signal parsing
		// errors internally, and they're caught here. This significantly simplifies
		// the recursive descent calls as we don't have to check errors everywhere.
		if r := recover(); r != nil {
			// Convert to PositionError or re-panic
			posError := r.(*ast.PositionError)
			if len(p.softErrs) > 0 {
				posError.Prior = p.softErrs // a syntax error ends them
			}
			err = parseError(posError)
		}
	}()
	lexer := NewLexer(src)
	p = parser{lexer: lexer}
	p.bytes = config != nil && config.Bytes
	p.noAt = config != nil && config.NoNamedFields
	if config != nil {
		p.stop = config.Stop
	}
	p.multiExprs = make(map[*ast.MultiExpr]Position, 3)

	p.next() // initialize p.tok

	// Parse into abstract syntax tree
	astProg := p.program()
	if n := len(p.softErrs); n > 0 {
		last := p.softErrs[n-1]
		last.Prior = p.softErrs[:n-1]
		p.softErrs = nil
		panic(last)
	}

	// Resolve variable scopes and types
	prog = &Program{}
	prog.ResolvedProgram = *resolver.Resolve(astProg, config.toResolverConfig())

	// Compile to virtual machine code
	prog.Compiled, err = compiler.Compile(&prog.ResolvedProgram, p.bytes)
	return prog, err
}

// parseError (llmsh) is e as a *ParseError, with the errors before it.
func parseError(e *ast.PositionError) *ParseError {
	pe := &ParseError{Position: e.Position, Message: e.Message}
	for _, prior := range e.Prior {
		pe.Prior = append(pe.Prior, parseError(prior))
	}
	return pe
}

// Program is the parsed and compiled representation of an entire AWK program.
type Program struct {
	// These fields aren't intended to be used or modified directly,
	// but are exported for the interpreter (Program itself needs to
	// be exported in package "parser", otherwise these could live in
	// "internal/ast".)
	resolver.ResolvedProgram
	Compiled *compiler.Program
}

// String returns an indented, pretty-printed version of the parsed
// program.
func (p *Program) String() string {
	return p.ResolvedProgram.Program.String()
}

// Disassemble writes a human-readable form of the program's virtual machine
// instructions to writer.
func (p *Program) Disassemble(writer io.Writer) error {
	return p.Compiled.Disassemble(writer)
}

// Parser state
type parser struct {
	// Lexer instance and current token values
	lexer   *Lexer
	pos     Position    // position of last token (tok)
	tok     Token       // last lexed token
	prevTok Token       // previously lexed token
	val     string      // string value of last token (or "")
	bytes   bool        // llmsh: ParserConfig.Bytes
	noAt    bool        // llmsh: ParserConfig.NoNamedFields
	stop    func() bool // llmsh: ParserConfig.Stop
	tokens  int         // llmsh: tokens read, for stop

	// Parsing state
	inAction  bool            // true if parsing an action (false in BEGIN or END)
	funcName  string          // function name if parsing a func, else ""
	funcsSeen map[string]bool // llmsh: functions defined so far
	// llmsh: names used as variables so far (varsSeen) and the
	// parameters of the function being parsed (params): in mawk such a
	// name followed by "(" is the variable, not a call
	varsSeen           map[string]bool
	params             map[string]bool
	loopDepth          int                  // current loop depth (0 if not in any loops)
	pendingGetlineLeft ast.Expr             // saved expression to the left of |
	depth              int                  // llmsh: nesting of the tree being built (see deeper)
	softErrs           []*ast.PositionError // llmsh: errors gone on past (builtinArgs)

	// Variable tracking and resolving
	multiExprs map[*ast.MultiExpr]Position // tracks comma-separated expressions
}

// Parse an entire AWK program.
func (p *parser) program() *ast.Program {
	prog := &ast.Program{}

	// Terminator "(SEMICOLON|NEWLINE) NEWLINE*" is required after each item
	// with two exceptions where it is optional:
	//
	// 1. after the last item, or
	// 2. when the previous item ended with a closing brace.
	//
	// NOTE: The second exception does not seem to be correct according to
	// the POSIX grammar definition, but it is the common behaviour for the
	// major AWK implementations.
	needsTerminator := false

	for p.tok != EOF {
		if needsTerminator {
			if !p.matches(NEWLINE, SEMICOLON) {
				panic(p.errorf("expected ; or newline between items"))
			}
			p.next()
			needsTerminator = false
		}
		p.optionalNewlines()
		switch p.tok {
		case EOF:
			// End of file
		case BEGIN:
			p.next()
			prog.Begin = append(prog.Begin, p.stmtsBrace())
		case END:
			p.next()
			prog.End = append(prog.End, p.stmtsBrace())
		case FUNCTION:
			function := p.function()
			prog.Functions = append(prog.Functions, function)
		default:
			p.inAction = true
			// Allow empty pattern, normal pattern, or range pattern
			pattern := []ast.Expr{}
			if !p.matches(LBRACE, EOF) {
				pattern = append(pattern, p.expr())
			}
			if !p.matches(LBRACE, EOF, NEWLINE, SEMICOLON) {
				p.commaNewlines()
				pattern = append(pattern, p.expr())
			}
			// Or an empty action (equivalent to { print $0 })
			action := &ast.Action{Pattern: pattern, Stmts: nil}
			if p.tok == LBRACE {
				action.Stmts = p.stmtsBrace()
			} else {
				needsTerminator = true
			}
			prog.Actions = append(prog.Actions, action)
			p.inAction = false
		}
	}

	p.checkMultiExprs()

	return prog
}

// Parse a list of statements.
func (p *parser) stmts() ast.Stmts {
	switch p.tok {
	case SEMICOLON:
		// This is so things like this parse correctly:
		// BEGIN { for (i=0; i<10; i++); print "x" }
		p.next()
		return nil
	case LBRACE:
		return p.stmtsBrace()
	case RBRACE:
		// llmsh: mawk's scanner ends a statement before a "}", so an
		// empty body may come right before one: for (;;) }, if (x) }
		return nil
	default:
		return []ast.Stmt{p.stmt()}
	}
}

// Parse a list of statements surrounded in {...} braces.
func (p *parser) stmtsBrace() ast.Stmts {
	p.expect(LBRACE)
	p.optionalNewlines()
	ss := []ast.Stmt{}
	for p.tok != RBRACE && p.tok != EOF {
		if p.matches(SEMICOLON, NEWLINE) {
			p.next()
			continue
		}
		ss = append(ss, p.stmt())
	}
	p.expect(RBRACE)
	if p.tok == SEMICOLON {
		p.next()
	}
	return ss
}

// Parse a "simple" statement (eg: allowed in a for loop init clause).
func (p *parser) simpleStmt() ast.Stmt {
	startPos := p.pos
	switch p.tok {
	case PRINT, PRINTF:
		op := p.tok
		p.next()
		args := p.exprList(p.printExpr)
		if len(args) == 1 {
			// This allows parens around all the print args
			if m, ok := args[0].(*ast.MultiExpr); ok {
				args = m.Exprs
				p.useMultiExpr(m)
			}
		}
		if p.tok == GTE {
			// llmsh: as in mawk, print's > (a redirection) even
			// before =, which is then the syntax error
			panic(ast.PosErrorf(Position{Line: p.pos.Line, Column: p.pos.Column + 1}, "expected statement end instead of ="))
		}
		redirect := ILLEGAL
		var dest ast.Expr
		if p.matches(GREATER, APPEND, PIPE) {
			redirect = p.tok
			p.next()
			dest = p.expr()
		}
		if op == PRINT {
			return &ast.PrintStmt{Args: args, Redirect: redirect, Dest: dest, Start: startPos, End: p.pos}
		} else {
			if len(args) == 0 {
				panic(p.errorf("expected printf args, got none"))
			}
			return &ast.PrintfStmt{Args: args, Redirect: redirect, Dest: dest, Start: startPos, End: p.pos}
		}
	case DELETE:
		p.next()
		p.rejectFuncName()
		name, namePos := p.expectName()
		var index []ast.Expr
		if p.tok == LBRACKET {
			p.next()
			index = p.exprList(p.expr)
			if len(index) == 0 {
				panic(p.errorf("expected expression instead of %s", p.tok))
			}
			p.expect(RBRACKET)
		}
		return &ast.DeleteStmt{Array: name, ArrayPos: namePos, Index: index, Start: startPos, End: p.pos}
	case IF, FOR, WHILE, DO, BREAK, CONTINUE, NEXT, NEXTFILE, EXIT, RETURN:
		panic(p.errorf("expected print/printf, delete, or expression"))
	default:
		return &ast.ExprStmt{Expr: p.expr(), Start: startPos, End: p.pos}
	}
}

// Parse any top-level statement.
// maxNesting bounds how deep the syntax tree of a program nests (llmsh):
// the parser, the resolver, the compiler and the interpreter each recurse
// once per level, and a program of a million ( or a chain of millions of
// + built with "$@" overflowed Go's stack, a fatal error. Yacc-built awks
// stop at their parser stack's 10000 levels too (gawk: memory exhausted).
const maxNesting = 10000

// deeper adds n levels to the tree being built, failing past maxNesting;
// a negative n ends them.
func (p *parser) deeper(n int) {
	if p.depth += n; n > 0 && p.depth > maxNesting {
		panic(p.errorf("program nested too deeply"))
	}
}

func (p *parser) stmt() ast.Stmt {
	p.deeper(1)
	defer p.deeper(-1)
	var s ast.Stmt
	startPos := p.pos
	switch p.tok {
	case IF:
		p.next()
		p.expect(LPAREN)
		cond := p.expr()
		p.expect(RPAREN)
		p.optionalNewlines()
		bodyStart := p.pos
		body := p.stmts()
		p.optionalNewlines()
		var elseBody ast.Stmts
		if p.tok == ELSE {
			p.next()
			p.optionalNewlines()
			elseBody = p.stmts()
		}
		s = &ast.IfStmt{Cond: cond, BodyStart: bodyStart, Body: body, Else: elseBody, Start: startPos, End: p.pos}
	case FOR:
		// Parse for statement, either "for in" or C-like for loop.
		//
		//     FOR LPAREN NAME IN NAME RPAREN NEWLINE* stmts |
		//     FOR LPAREN [simpleStmt] SEMICOLON NEWLINE*
		//                [expr] SEMICOLON NEWLINE*
		//                [simpleStmt] RPAREN NEWLINE* stmts
		//
		p.next()
		p.expect(LPAREN)
		var pre ast.Stmt
		if p.tok != SEMICOLON {
			pre = p.simpleStmt()
		}
		if pre != nil && p.tok == RPAREN {
			// Match: for (var in array) body
			p.next()
			p.optionalNewlines()
			exprStmt, ok := pre.(*ast.ExprStmt)
			if !ok {
				panic(p.errorf("expected 'for (var in array) ...'"))
			}
			inExpr, ok := exprStmt.Expr.(*ast.InExpr)
			if !ok {
				panic(p.errorf("expected 'for (var in array) ...'"))
			}
			if len(inExpr.Index) != 1 {
				panic(p.errorf("expected 'for (var in array) ...'"))
			}
			varExpr, ok := inExpr.Index[0].(*ast.VarExpr)
			if !ok {
				panic(p.errorf("expected 'for (var in array) ...'"))
			}
			bodyStart := p.pos
			body := p.loopStmts()
			s = &ast.ForInStmt{
				Var:       varExpr.Name,
				VarPos:    varExpr.Pos,
				Array:     inExpr.Array,
				ArrayPos:  inExpr.ArrayPos,
				BodyStart: bodyStart,
				Body:      body,
				Start:     startPos,
				End:       p.pos,
			}
		} else {
			// Match: for ([pre]; [cond]; [post]) body
			p.expect(SEMICOLON)
			p.optionalNewlines()
			var cond ast.Expr
			if p.tok != SEMICOLON {
				cond = p.expr()
			}
			p.expect(SEMICOLON)
			p.optionalNewlines()
			var post ast.Stmt
			if p.tok != RPAREN {
				post = p.simpleStmt()
			}
			p.expect(RPAREN)
			p.optionalNewlines()
			bodyStart := p.pos
			body := p.loopStmts()
			s = &ast.ForStmt{Pre: pre, Cond: cond, Post: post, BodyStart: bodyStart, Body: body, Start: startPos, End: p.pos}
		}
	case WHILE:
		p.next()
		p.expect(LPAREN)
		cond := p.expr()
		p.expect(RPAREN)
		p.optionalNewlines()
		bodyStart := p.pos
		body := p.loopStmts()
		s = &ast.WhileStmt{Cond: cond, BodyStart: bodyStart, Body: body, Start: startPos, End: p.pos}
	case DO:
		p.next()
		p.optionalNewlines()
		body := p.loopStmts()
		p.optionalNewlines()
		p.expect(WHILE)
		p.expect(LPAREN)
		cond := p.expr()
		p.expect(RPAREN)
		s = &ast.DoWhileStmt{Body: body, Cond: cond, Start: startPos, End: p.pos}
	case BREAK:
		if p.loopDepth == 0 {
			panic(p.errorf("break must be inside a loop body"))
		}
		p.next()
		s = &ast.BreakStmt{Start: startPos, End: p.pos}
	case CONTINUE:
		if p.loopDepth == 0 {
			panic(p.errorf("continue must be inside a loop body"))
		}
		p.next()
		s = &ast.ContinueStmt{Start: startPos, End: p.pos}
	case NEXT:
		// llmsh: mawk refuses it in a function too, called or not
		if !p.inAction || p.funcName != "" {
			panic(p.errorf("next can't be inside BEGIN or END"))
		}
		p.next()
		s = &ast.NextStmt{Start: startPos, End: p.pos}
	case NEXTFILE:
		// llmsh: mawk refuses it in a function too, called or not
		if !p.inAction || p.funcName != "" {
			panic(p.errorf("nextfile can't be inside BEGIN or END"))
		}
		p.next()
		s = &ast.NextfileStmt{Start: startPos, End: p.pos}
	case EXIT:
		p.next()
		var status ast.Expr
		if !p.matches(NEWLINE, SEMICOLON, RBRACE) {
			status = p.expr()
		}
		s = &ast.ExitStmt{Status: status, Start: startPos, End: p.pos}
	case RETURN:
		if p.funcName == "" {
			panic(p.errorf("return must be inside a function"))
		}
		p.next()
		var value ast.Expr
		if !p.matches(NEWLINE, SEMICOLON, RBRACE) {
			value = p.expr()
		}
		s = &ast.ReturnStmt{Value: value, Start: startPos, End: p.pos}
	case LBRACE:
		body := p.stmtsBrace()
		s = &ast.BlockStmt{Body: body, Start: startPos, End: p.pos}
	default:
		s = p.simpleStmt()
	}

	// Ensure statements are separated by ; or newline
	if !p.matches(NEWLINE, SEMICOLON, RBRACE) && p.prevTok != NEWLINE && p.prevTok != SEMICOLON && p.prevTok != RBRACE {
		panic(p.errorf("expected ; or newline between statements"))
	}
	for p.matches(NEWLINE, SEMICOLON) {
		p.next()
	}
	return s
}

// Same as stmts(), but tracks that we're in a loop (as break and
// continue can only occur inside a loop).
func (p *parser) loopStmts() ast.Stmts {
	p.loopDepth++
	ss := p.stmts()
	p.loopDepth--
	return ss
}

// Parse a function definition and body. As it goes, this resolves
// the local variable indexes and tracks which parameters are array
// parameters.
// mawkFieldVar (llmsh) reports whether mawk 1.3.4 keeps the special
// variable name among its fields (FS, NF, RS, CONVFMT, OFMT): its scanner
// gives the token it names "$", so such a name cannot name a function or
// a parameter ("syntax error at or near $").
func mawkFieldVar(name string) bool {
	switch name {
	case "FS", "NF", "RS", "CONVFMT", "OFMT":
		return true
	}
	return false
}

func (p *parser) function() *ast.Function {
	if p.funcName != "" {
		// Should never actually get here (FUNCTION token is only
		// handled at the top level), but just in case.
		panic(p.errorf("can't nest functions"))
	}
	p.next()
	name, funcNamePos := p.expectName()
	if mawkFieldVar(name) {
		panic(ast.PosErrorf(funcNamePos, "syntax error at or near $"))
	}
	if ast.SpecialVarIndex(name) > 0 {
		// llmsh: mawk's scanner knows NR and the rest as variables
		// ("illegal reference to variable NR", builtins/awk.go)
		panic(ast.PosErrorf(funcNamePos, "global var %q can't also be a function", name))
	}
	if name == "ENVIRON" || name == "ARGV" {
		panic(ast.PosErrorf(funcNamePos, "global array %q can't also be a function", name))
	}
	if p.funcsSeen == nil {
		p.funcsSeen = make(map[string]bool)
	}
	p.funcsSeen[name] = true
	p.expect(LPAREN)
	first := true
	params := make([]string, 0, 7) // pre-allocate some to reduce allocations
	locals := make(map[string]bool, 7)
	for p.tok != RPAREN {
		if !first {
			p.commaNewlines()
		}
		first = false
		p.rejectFuncName()
		param := p.val
		if p.tok == NAME && mawkFieldVar(param) {
			panic(p.errorf("syntax error at or near $"))
		}
		if param == name {
			panic(p.errorf("can't use function name as parameter name"))
		}
		if locals[param] {
			panic(p.errorf("duplicate parameter name %q", param))
		}
		p.expect(NAME)
		params = append(params, param)
		locals[param] = true
	}
	p.expect(RPAREN)
	p.optionalNewlines()

	// Parse the body
	p.funcName = name
	p.params = locals

	body := p.stmtsBrace()

	p.funcName = ""
	p.params = nil

	return &ast.Function{Name: name, Params: params, Body: body, Pos: funcNamePos}
}

// Parse expressions separated by commas: args to print[f] or user
// function call, or multi-dimensional index.
func (p *parser) exprList(parse func() ast.Expr) []ast.Expr {
	exprs := []ast.Expr{}
	first := true
	for !p.matches(NEWLINE, SEMICOLON, RBRACE, RBRACKET, RPAREN, GREATER, PIPE, APPEND, GTE) { // llmsh: GTE (print's >)
		if !first {
			p.commaNewlines()
		}
		first = false
		exprs = append(exprs, parse())
	}
	return exprs
}

// Here's where things get slightly interesting: only certain
// expression types are allowed in print/printf statements,
// presumably so `print a, b > "file"` is a file redirect instead of
// a greater-than comparison. So we kind of have two ways to recurse
// down here: expr(), which parses all expressions, and printExpr(),
// which skips PIPE GETLINE and GREATER expressions.

// Parse a single expression.
func (p *parser) expr() ast.Expr      { return p._assign(p.getline) }
func (p *parser) printExpr() ast.Expr { return p._assign(p.printCond) }

// Parse an "expr | getline [lvalue]" expression:
//
//	assign [PIPE GETLINE [lvalue]]
func (p *parser) getline() ast.Expr {
	// NOTE: getline is special, see https://github.com/benhoyt/goawk/pull/216
	p.pendingGetlineLeft = nil
	left := p.cond()
	if p.tok == PIPE {
		p.pendingGetlineLeft = left
		return p.cond()
	}
	return left
}

// Parse an = assignment expression:
//
//	lvalue [assign_op assign]
//
// An lvalue is a variable name, an array[expr] index expression, or
// an $expr field expression.
func (p *parser) _assign(higher func() ast.Expr) ast.Expr {
	p.deeper(1)
	defer p.deeper(-1)
	expr := higher()
	if p.matches(ASSIGN, ADD_ASSIGN, DIV_ASSIGN, MOD_ASSIGN, MUL_ASSIGN, POW_ASSIGN, SUB_ASSIGN) {
		_, isNamedField := expr.(*ast.NamedFieldExpr)
		if isNamedField {
			panic(p.errorf("assigning @ expression not supported"))
		}
		op, opPos := p.tok, p.pos
		p.next()
		right := p._assign(higher)
		if !ast.IsLValue(expr) {
			// Partial backtracking to allow expressions like "1 && x=1",
			// which isn't really valid, as assignments are lower-precedence
			// than binary operators, but onetrueawk, Gawk, and mawk all
			// support this for logical, match and comparison operators. See
			// issue #166.
			binary, isBinary := expr.(*ast.BinaryExpr)
			if isBinary && ast.IsLValue(binary.Right) {
				switch binary.Op {
				case AND, OR, MATCH, NOT_MATCH, EQUALS, NOT_EQUALS, LESS, LTE, GTE, GREATER:
					assign := makeAssign(binary.Right, op, right)
					return &ast.BinaryExpr{Left: binary.Left, Op: binary.Op, Right: assign}
				}
			}
			panic(ast.PosErrorf(opPos, "expected lvalue before %s", op)) // llmsh: at op, as mawk
		}
		return makeAssign(expr, op, right)
	}
	return expr
}

func makeAssign(left ast.Expr, op Token, right ast.Expr) ast.Expr {
	switch op {
	case ASSIGN:
		return &ast.AssignExpr{Left: left, Right: right}
	case ADD_ASSIGN:
		op = ADD
	case DIV_ASSIGN:
		op = DIV
	case MOD_ASSIGN:
		op = MOD
	case MUL_ASSIGN:
		op = MUL
	case POW_ASSIGN:
		op = POW
	case SUB_ASSIGN:
		op = SUB
	}
	return &ast.AugAssignExpr{Left: left, Op: op, Right: right}
}

// Parse a ?: conditional expression:
//
//	or [QUESTION NEWLINE* cond COLON NEWLINE* cond]
func (p *parser) cond() ast.Expr      { return p._cond(p.or) }
func (p *parser) printCond() ast.Expr { return p._cond(p.printOr) }

func (p *parser) _cond(higher func() ast.Expr) ast.Expr {
	expr := higher()
	if p.tok == QUESTION {
		p.next()
		p.optionalNewlines()
		t := p.expr()
		p.expect(COLON)
		p.optionalNewlines()
		f := p.expr()
		return &ast.CondExpr{Cond: expr, True: t, False: f}
	}
	return expr
}

// Parse an || or expression:
//
//	and [OR NEWLINE* and] [OR NEWLINE* and] ...
func (p *parser) or() ast.Expr      { return p.binaryLeft(p.and, true, OR) }
func (p *parser) printOr() ast.Expr { return p.binaryLeft(p.printAnd, true, OR) }

// Parse an && and expression:
//
//	in [AND NEWLINE* in] [AND NEWLINE* in] ...
func (p *parser) and() ast.Expr      { return p.binaryLeft(p.in, true, AND) }
func (p *parser) printAnd() ast.Expr { return p.binaryLeft(p.printIn, true, AND) }

// Parse an "in" expression:
//
//	match [IN NAME] [IN NAME] ...
func (p *parser) in() ast.Expr      { return p._in(p.match) }
func (p *parser) printIn() ast.Expr { return p._in(p.printMatch) }

func (p *parser) _in(higher func() ast.Expr) ast.Expr {
	expr := higher()
	for p.tok == IN {
		p.next()
		p.rejectFuncName()
		name, namePos := p.expectName()
		expr = &ast.InExpr{Index: []ast.Expr{expr}, Array: name, ArrayPos: namePos}
	}
	return expr
}

// Parse a ~ match expression:
//
//	compare [MATCH|NOT_MATCH compare]
func (p *parser) match() ast.Expr      { return p._match(p.compare) }
func (p *parser) printMatch() ast.Expr { return p._match(p.printCompare) }

func (p *parser) _match(higher func() ast.Expr) ast.Expr {
	expr := higher()
	if p.matches(MATCH, NOT_MATCH) {
		op := p.tok
		p.next()
		right := p.regexStr(higher) // Not match() as these aren't associative
		return &ast.BinaryExpr{Left: expr, Op: op, Right: right}
	}
	return expr
}

// Parse a comparison expression:
//
//	concat [EQUALS|NOT_EQUALS|LESS|LTE|GREATER|GTE concat]
func (p *parser) compare() ast.Expr      { return p._compare(EQUALS, NOT_EQUALS, LESS, LTE, GTE, GREATER) }
func (p *parser) printCompare() ast.Expr { return p._compare(EQUALS, NOT_EQUALS, LESS, LTE) }

func (p *parser) _compare(ops ...Token) ast.Expr {
	expr := p.concat()
	if p.matches(ops...) {
		op := p.tok
		p.next()
		right := p.concat() // Not compare() as these aren't associative
		return &ast.BinaryExpr{Left: expr, Op: op, Right: right}
	}
	return expr
}

func (p *parser) concat() ast.Expr {
	expr := p.add()
	levels := 0
	defer func() { p.deeper(-levels) }()
	for p.matches(DOLLAR, AT, NOT, NAME, NUMBER, STRING, LPAREN, INCR, DECR) ||
		p.tok >= FIRST_FUNC && p.tok <= LAST_FUNC {
		levels++
		p.deeper(1)
		right := p.add()
		expr = &ast.BinaryExpr{Left: expr, Op: CONCAT, Right: right}
	}
	return expr
}

func (p *parser) add() ast.Expr {
	return p.binaryLeft(p.mul, false, ADD, SUB)
}

func (p *parser) mul() ast.Expr {
	return p.binaryLeft(p.pow, false, MUL, DIV, MOD)
}

func (p *parser) pow() ast.Expr {
	p.deeper(1)
	defer p.deeper(-1)
	// Note that pow (expr ^ expr) is right-associative
	expr := p.postIncr()
	if p.tok == POW {
		p.next()
		right := p.pow()
		return &ast.BinaryExpr{Left: expr, Op: POW, Right: right}
	}
	return expr
}

func (p *parser) postIncr() ast.Expr {
	expr := p.primary()
	if (p.tok == INCR || p.tok == DECR) && ast.IsLValue(expr) {
		op := p.tok
		p.next()
		return &ast.IncrExpr{Expr: expr, Op: op, Pre: false}
	}
	return expr
}

func (p *parser) primary() ast.Expr {
	p.deeper(1)
	defer p.deeper(-1)
	if p.pendingGetlineLeft != nil {
		p.expect(PIPE)
		p.expect(GETLINE)
		left := p.pendingGetlineLeft
		p.pendingGetlineLeft = nil
		target := p.optionalLValue()
		return &ast.GetlineExpr{Command: left, Target: target, File: nil}
	}
	switch p.tok {
	case NUMBER:
		// AWK allows forms like "1.5e", but ParseFloat doesn't
		s := strings.TrimRight(p.val, "eE")
		n, err := strconv.ParseFloat(s, 64)
		if flow := numberFlow(s, n, err); flow != "" {
			// llmsh: mawk 1.3.4's compile error, gone on past
			p.softErrs = append(p.softErrs, &ast.PositionError{Position: p.pos,
				Message: p.val + " : decimal " + flow + "flow"})
		}
		p.next()
		return &ast.NumExpr{Value: n}
	case STRING:
		s := p.val
		p.next()
		return &ast.StrExpr{Value: s}
	case DIV, DIV_ASSIGN:
		// If we get to DIV or DIV_ASSIGN as a primary expression,
		// it's actually a regex.
		regex := p.nextRegex()
		return &ast.RegExpr{Regex: regex}
	case DOLLAR:
		p.next()
		var expr ast.Expr = &ast.FieldExpr{Index: p.primary()}
		// Post-increment operators have lower precedence than primary
		// expressions by default, except for field expressions with
		// post-increments (e.g., $$1++ = $($1++), NOT $($1)++).
		if p.tok == INCR || p.tok == DECR {
			op := p.tok
			p.next()
			expr = &ast.IncrExpr{Expr: expr, Op: op, Pre: false}
		}
		return expr
	case AT:
		if p.noAt {
			panic(p.errorf("unexpected char"))
		}
		p.next()
		return &ast.NamedFieldExpr{Field: p.primary()}
	case NOT, ADD, SUB:
		op := p.tok
		p.next()
		return &ast.UnaryExpr{Op: op, Value: p.pow()}
	case INCR, DECR:
		op := p.tok
		p.next()
		exprPos := p.pos
		p.rejectFuncName()
		expr := p.optionalLValue()
		if expr == nil {
			panic(ast.PosErrorf(exprPos, "expected lvalue after %s", op))
		}
		return &ast.IncrExpr{Expr: expr, Op: op, Pre: true}
	case NAME:
		name, namePos := p.expectName()
		if p.funcsSeen[name] && p.tok != LPAREN {
			// llmsh: in mawk the name of a function defined above
			// is a call, nothing else.
			panic(p.errorf("expected ( instead of %s", p.tok))
		}
		if p.tok == LPAREN && !p.lexer.HadSpace() && (name == "ENVIRON" || name == "ARGV") && !p.params[name] {
			// llmsh: mawk's arrays (its "illegal reference to array")
			panic(ast.PosErrorf(namePos, "can't use array %q as scalar", name))
		}
		if p.tok == LPAREN && !p.lexer.HadSpace() && !p.funcsSeen[name] && (p.varsSeen[name] || p.params[name] || ast.SpecialVarIndex(name) > 0) {
			// llmsh: mawk's scanner knows the name as a variable,
			// so "a(" is the variable and a parenthesis: a = 1; a()
			// is a syntax error at ")", a(1) a concatenation; so are
			// the special variables (NR(1) is NR then 1).
			return &ast.VarExpr{Name: name, Pos: namePos}
		}
		if !p.params[name] && p.tok != LPAREN {
			if p.varsSeen == nil {
				p.varsSeen = make(map[string]bool)
			}
			p.varsSeen[name] = true
		}
		if p.tok == LBRACKET {
			// a[x] or a[x, y] array index expression
			p.next()
			index := p.exprList(p.expr)
			if len(index) == 0 {
				panic(p.errorf("expected expression instead of %s", p.tok))
			}
			p.expect(RBRACKET)
			return &ast.IndexExpr{Array: name, ArrayPos: namePos, Index: index}
		} else if p.tok == LPAREN && (!p.lexer.HadSpace() || p.funcsSeen[name]) {
			// Grammar requires no space between function name and
			// left paren for user function calls, hence the funky
			// lexer.HadSpace() method. llmsh: as in mawk, the name of
			// a function defined above is a call with a space too.
			return p.userCall(name, namePos)
		}
		return &ast.VarExpr{Name: name, Pos: namePos}
	case LPAREN:
		parenPos := p.pos
		afterPrint := p.prevTok == PRINT || p.prevTok == PRINTF
		p.next()
		exprs := p.exprList(p.expr)
		switch len(exprs) {
		case 0:
			if afterPrint && p.tok == RPAREN {
				// llmsh: print() prints $0, as in mawk (printf() is
				// its "no arguments in call to printf")
				p.next()
				if !p.matches(NEWLINE, SEMICOLON, RBRACE, GREATER, APPEND, PIPE, EOF) {
					panic(p.errorf("expected statement end instead of %s", p.tok))
				}
				return p.multiExpr(nil, parenPos)
			}
			panic(p.errorf("expected expression, not %s", p.tok))
		case 1:
			p.expect(RPAREN)
			return &ast.GroupingExpr{Expr: exprs[0]}
		default:
			// Multi-dimensional array "in" requires parens around index
			p.expect(RPAREN)
			if p.tok == IN {
				p.next()
				p.rejectFuncName()
				name, namePos := p.expectName()
				return &ast.InExpr{Index: exprs, Array: name, ArrayPos: namePos}
			}
			// MultiExpr is used as a pseudo-expression for print[f] parsing.
			return p.multiExpr(exprs, parenPos)
		}
	case GETLINE:
		p.next()
		target := p.optionalLValue()
		var file ast.Expr
		if p.tok == LESS {
			p.next()
			file = p.primary()
		}
		return &ast.GetlineExpr{Command: nil, Target: target, File: file}
	// Below is the parsing of all the builtin function calls. We
	// could unify these but several of them have special handling
	// (array/lvalue/regex params, optional arguments, and so on).
	// Doing it this way means we can check more at parse time.
	case F_SUB, F_GSUB:
		op := p.tok
		p.next()
		p.expect(LPAREN)
		regex := p.regexStr(p.expr)
		p.commaNewlines()
		repl := p.expr()
		args := []ast.Expr{regex, repl}
		if p.tok == COMMA {
			p.commaNewlines()
			inPos := p.pos
			p.rejectFuncName()
			in := p.expr()
			if !ast.IsLValue(in) {
				panic(ast.PosErrorf(inPos, "3rd arg to sub/gsub must be lvalue"))
			}
			args = append(args, in)
		}
		p.expect(RPAREN)
		return &ast.CallExpr{Func: op, Args: args}
	case F_SPLIT:
		p.next()
		p.expect(LPAREN)
		str := p.expr()
		p.commaNewlines()
		p.rejectFuncName()
		name, namePos := p.expectName()
		args := []ast.Expr{str, &ast.VarExpr{Name: name, Pos: namePos}}
		if p.tok == COMMA {
			p.commaNewlines()
			if p.matches(DIV, DIV_ASSIGN) {
				args = append(args, p.regexStr(p.expr))
			} else if sep := p.expr(); isSpace(sep) {
				args = append(args, sep) // " ": blanks
			} else {
				args = append(args, p.regexConst(sep, 1)) // one character: itself
			}
		}
		p.expect(RPAREN)
		return &ast.CallExpr{Func: F_SPLIT, Args: args}
	case F_MATCH:
		p.next()
		p.expect(LPAREN)
		str := p.expr()
		p.commaNewlines()
		regex := p.regexStr(p.expr)
		p.expect(RPAREN)
		return &ast.CallExpr{Func: F_MATCH, Args: []ast.Expr{str, regex}}
	case F_RAND, F_SRAND, F_LENGTH, F_SUBSTR, F_SPRINTF, F_FFLUSH, F_COS, F_SIN, F_EXP,
		F_LOG, F_SQRT, F_INT, F_TOLOWER, F_TOUPPER, F_SYSTEM, F_CLOSE, F_ATAN2, F_INDEX:
		op := p.tok
		p.next()
		if op == F_LENGTH && p.tok != LPAREN {
			// AWK quirk: "length" is allowed to be called without parens
			return &ast.CallExpr{Func: F_LENGTH}
		}
		return &ast.CallExpr{Func: op, Args: p.builtinArgs(op)}
	default:
		panic(p.errorf("expected expression instead of %s", p.tok))
	}
}

// builtinArgs (llmsh) parses the parenthesised arguments of a call of
// builtin op, which mawk 1.3.4 reads as any list of expressions: a
// count outside op's range is "wrong number of arguments in call to
// op" at the closing parenthesis, recorded and gone on past as mawk
// does (the parse fails at its end).
func (p *parser) builtinArgs(op Token) []ast.Expr {
	p.expect(LPAREN)
	var args []ast.Expr
	if p.tok != RPAREN {
		args = append(args, p.expr())
		for p.tok == COMMA {
			p.commaNewlines()
			args = append(args, p.expr())
		}
	}
	end := p.pos
	p.expect(RPAREN)
	counts := builtinArgCounts[op]
	if len(args) < counts[0] || len(args) > counts[1] {
		p.softErrs = append(p.softErrs, &ast.PositionError{Position: end,
			Message: "wrong number of arguments in call to " + op.String()})
	}
	return args
}

// numberFlow (llmsh) is "over" or "under" for a number constant s (n as
// parsed, with err) that mawk 1.3.4 refuses: where C's strtod says
// ERANGE, "under" for a result of 0, else "over" (a subnormal too).
func numberFlow(s string, n float64, err error) string {
	mant, _, _ := strings.Cut(strings.ToLower(s), "e")
	switch {
	case err != nil:
		return "over"
	case n == 0 && strings.ContainsAny(mant, "123456789"):
		return "under"
	case n != 0 && math.Abs(n) < 0x1p-1022:
		return "over"
	}
	return ""
}

// builtinArgCounts (llmsh) are the fewest and most arguments of the
// builtins that builtinArgs parses (mawk 1.3.4's bi_funct table), by
// token: an array, which the linker lays out, where a map was built by
// the package's init at every start of llmsh (issue 21).
var builtinArgCounts = [LAST + 1][2]int{
	F_RAND: {0, 0}, F_SRAND: {0, 1}, F_LENGTH: {0, 1}, F_SUBSTR: {2, 3},
	F_SPRINTF: {1, 255}, F_FFLUSH: {0, 1}, F_ATAN2: {2, 2}, F_INDEX: {2, 2},
	F_COS: {1, 1}, F_SIN: {1, 1}, F_EXP: {1, 1}, F_LOG: {1, 1}, F_SQRT: {1, 1},
	F_INT: {1, 1}, F_TOLOWER: {1, 1}, F_TOUPPER: {1, 1}, F_SYSTEM: {1, 1},
	F_CLOSE: {1, 1},
}

// Parse an optional lvalue
func (p *parser) optionalLValue() ast.Expr {
	switch p.tok {
	case NAME:
		if p.lexer.PeekByte() == '(' {
			// User function call, e.g., foo() not lvalue.
			return nil
		}
		if p.funcsSeen[p.val] {
			// llmsh: mawk reads a call (getline f < x: at the <).
			p.next()
			if p.tok == LPAREN {
				panic(p.errorf("expected lvalue instead of ("))
			}
			panic(p.errorf("expected ( instead of %s", p.tok))
		}
		name, namePos := p.expectName()
		if p.tok == LBRACKET {
			// a[x] or a[x, y] array index expression
			p.next()
			index := p.exprList(p.expr)
			if len(index) == 0 {
				panic(p.errorf("expected expression instead of %s", p.tok))
			}
			p.expect(RBRACKET)
			return &ast.IndexExpr{Array: name, ArrayPos: namePos, Index: index}
		}
		return &ast.VarExpr{Name: name, Pos: namePos}
	case DOLLAR:
		p.next()
		return &ast.FieldExpr{Index: p.primary()}
	default:
		return nil
	}
}

// Parse /.../ regex or generic expression:
//
//	REGEX | expr
func (p *parser) regexStr(parse func() ast.Expr) ast.Expr {
	if p.matches(DIV, DIV_ASSIGN) {
		regex := p.nextRegex()
		return &ast.StrExpr{Value: regex, Regex: true}
	}
	return p.regexConst(parse(), 0)
}

// regexConst (llmsh): mawk compiles a string constant used as a regular
// expression (longer than min bytes) as it reads the program, so a bad one
// is its compile-time error ("line N: regular expression compile failed").
func (p *parser) regexConst(expr ast.Expr, min int) ast.Expr {
	if s, ok := expr.(*ast.StrExpr); ok && p.bytes && !s.Regex && len(s.Value) > min {
		if _, err := compiler.CompileRegex(s.Value, true); err != nil {
			panic(p.errorf("%v", err))
		}
	}
	return expr
}

// Parse left-associative binary operator. Allow newlines after
// operator if allowNewline is true.
//
//	parse [op parse] [op parse] ...
func (p *parser) binaryLeft(higher func() ast.Expr, allowNewline bool, ops ...Token) ast.Expr {
	expr := higher()
	levels := 0
	defer func() { p.deeper(-levels) }()
	for p.matches(ops...) {
		levels++
		p.deeper(1)
		op := p.tok
		p.next()
		if allowNewline {
			p.optionalNewlines()
		}
		right := higher()
		expr = &ast.BinaryExpr{Left: expr, Op: op, Right: right}
	}
	return expr
}

// Parse comma followed by optional newlines:
//
//	COMMA NEWLINE*
func (p *parser) commaNewlines() {
	p.expect(COMMA)
	p.optionalNewlines()
}

// Parse zero or more optional newlines:
//
//	[NEWLINE] [NEWLINE] ...
func (p *parser) optionalNewlines() {
	for p.tok == NEWLINE {
		p.next()
	}
}

// Parse next token into p.tok (and set p.pos and p.val).
func (p *parser) next() {
	if p.tokens++; p.stop != nil && p.tokens%stopEvery == 0 && p.stop() {
		panic(p.errorf("%s", ErrStopped))
	}
	p.prevTok = p.tok
	p.pos, p.tok, p.val = p.lexer.Scan()
	if p.tok == ILLEGAL {
		panic(p.errorf("%s", p.val))
	}
}

// Parse next regex and return it (must only be called after DIV or
// DIV_ASSIGN token).
func (p *parser) nextRegex() string {
	p.pos, p.tok, p.val = p.lexer.ScanRegex()
	if p.tok == ILLEGAL {
		panic(p.errorf("%s", p.val))
	}
	regex := p.val
	_, err := compiler.CompileRegex(regex, p.bytes)
	if err != nil {
		panic(p.errorf("%v", err))
	}
	p.next()
	return regex
}

// Ensure current token is tok, and parse next token into p.tok.
func (p *parser) expect(tok Token) {
	if p.tok != tok {
		panic(p.errorf("expected %s instead of %s", tok, p.tok))
	}
	p.next()
}

// Ensure current token is a name, parse it, and return name and position.
// rejectFuncName is mawk's syntax error at the name of a function
// defined above where an array or a variable must be named (llmsh).
func (p *parser) rejectFuncName() {
	if p.tok == NAME && p.funcsSeen[p.val] {
		panic(p.errorf("expected variable instead of name"))
	}
}

func (p *parser) expectName() (string, Position) {
	name, pos := p.val, p.pos
	p.expect(NAME)
	return name, pos
}

// Return true iff current token matches one of the given operators,
// but don't parse next token.
func (p *parser) matches(operators ...Token) bool {
	for _, operator := range operators {
		if p.tok == operator {
			return true
		}
	}
	return false
}

// Format given string and args with Sprintf and return *ParseError
// with that message and the current position.
func (p *parser) errorf(format string, args ...interface{}) error {
	return ast.PosErrorf(p.pos, format, args...)
}

// Parse call to a user-defined function (and record call site for
// resolving later).
func (p *parser) userCall(name string, pos Position) *ast.UserCallExpr {
	p.expect(LPAREN)
	args := []ast.Expr{}
	i := 0
	for !p.matches(NEWLINE, RPAREN) {
		if i > 0 {
			p.commaNewlines()
		}
		arg := p.expr()
		args = append(args, arg)
		i++
	}
	end := p.pos
	p.expect(RPAREN)
	return &ast.UserCallExpr{Name: name, Args: args, Pos: pos, End: end}
}

// Record a "multi expression" (comma-separated pseudo-expression
// used to allow commas around print/printf arguments).
func (p *parser) multiExpr(exprs []ast.Expr, pos Position) ast.Expr {
	expr := &ast.MultiExpr{Exprs: exprs}
	p.multiExprs[expr] = pos
	return expr
}

// Mark the multi expression as used (by a print/printf statement).
func (p *parser) useMultiExpr(expr *ast.MultiExpr) {
	delete(p.multiExprs, expr)
}

// Check that there are no unused multi expressions (syntax error).
func (p *parser) checkMultiExprs() {
	if len(p.multiExprs) == 0 {
		return
	}
	// Show error on first comma-separated expression
	min := Position{Line: 1000000000, Column: 1000000000}
	for _, pos := range p.multiExprs {
		if pos.Line < min.Line || pos.Line == min.Line && pos.Column < min.Column {
			min = pos
		}
	}
	panic(ast.PosErrorf(min, "unexpected comma-separated expression"))
}

// isSpace reports whether e is the string constant " " (llmsh).
func isSpace(e ast.Expr) bool {
	s, ok := e.(*ast.StrExpr)
	return ok && s.Value == " "
}
