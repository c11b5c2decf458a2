package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "bc", Summary: "an arbitrary precision calculator language", Run: bc})

// ---- lexer ----

type bcTok struct {
	kind string // "num", "name", "str", "op", "nl", "eof", or a keyword
	text string
	line int
}

var bcKeywords = map[string]bool{"if": true, "else": true, "while": true, "for": true, "break": true,
	"continue": true, "quit": true, "halt": true, "return": true, "define": true, "auto": true,
	"print": true, "length": true, "sqrt": true, "scale": true, "ibase": true, "obase": true,
	"last": true, "limits": true, "void": true, "read": true, "warranty": true}

type bcLexer struct {
	src  string
	pos  int
	line int
	// more, when set, reads the next line of input (standard input, read
	// as it comes: `coproc bc` answers each line at once, as GNU's); false
	// at the end of it.
	more func() (string, bool)
	// noHash (-s): '#' starts no comment, it is an illegal character.
	noHash bool
}

// fill appends the next line of input to src when the lexer reads as it
// goes; it reports whether there was more. src keeps what was read, so
// that the parser's saved lexers (restore) stay valid.
func (l *bcLexer) fill() bool {
	if l.more == nil {
		return false
	}
	line, ok := l.more()
	if !ok {
		l.more = nil
		return false
	}
	l.src += line
	return true
}

// restore goes back to the lexer saved, keeping what has been read
// since (a look ahead may have read a line).
func (l *bcLexer) restore(saved bcLexer) {
	src, more := l.src, l.more
	*l = saved
	l.src, l.more = src, more
}

// errBcEOFComment is reported without a file and line, as GNU bc does.
var errBcEOFComment = errors.New("EOF encountered in a comment.")

func (l *bcLexer) next() (bcTok, error) {
	for {
		if l.pos >= len(l.src) {
			if l.fill() {
				continue
			}
			return bcTok{kind: "eof", line: l.line}, nil
		}
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
			continue
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n':
			l.pos += 2
			l.line++
			continue
		case c == '#' && l.noHash:
			l.pos++
			return bcTok{}, errors.New("illegal character: #")
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
			continue
		case c == '/' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '*':
			end := strings.Index(l.src[l.pos+2:], "*/")
			if end < 0 && l.fill() {
				continue
			}
			if end < 0 {
				l.pos = len(l.src)
				return bcTok{}, errBcEOFComment
			}
			l.line += strings.Count(l.src[l.pos:l.pos+2+end], "\n")
			l.pos += end + 4
			continue
		}
		break
	}
	c := l.src[l.pos]
	start := l.pos
	switch {
	case c == '\n':
		l.pos++
		l.line++
		return bcTok{kind: "nl", text: "\n", line: l.line}, nil
	case c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c == '.' && l.pos+1 < len(l.src) && (l.src[l.pos+1] >= '0' && l.src[l.pos+1] <= '9' || l.src[l.pos+1] >= 'A' && l.src[l.pos+1] <= 'Z'):
		var b strings.Builder
		dot := false
		for l.pos < len(l.src) {
			c := l.src[l.pos]
			if c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' {
				b.WriteByte(c)
			} else if c == '.' && !dot {
				dot = true
				b.WriteByte(c)
			} else if c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n' {
				l.pos++
				l.line++
			} else {
				break
			}
			l.pos++
		}
		return bcTok{kind: "num", text: b.String(), line: l.line}, nil
	case c >= 'a' && c <= 'z':
		for l.pos < len(l.src) && (l.src[l.pos] >= 'a' && l.src[l.pos] <= 'z' || l.src[l.pos] >= '0' && l.src[l.pos] <= '9' || l.src[l.pos] == '_') {
			l.pos++
		}
		w := l.src[start:l.pos]
		if bcKeywords[w] {
			return bcTok{kind: w, text: w, line: l.line}, nil
		}
		return bcTok{kind: "name", text: w, line: l.line}, nil
	case c == '"':
		end := strings.IndexByte(l.src[l.pos+1:], '"')
		for end < 0 && l.fill() {
			end = strings.IndexByte(l.src[l.pos+1:], '"')
		}
		if end < 0 {
			l.pos = len(l.src)
			return bcTok{}, errors.New("illegal character: \"")
		}
		s := l.src[l.pos+1 : l.pos+1+end]
		l.line += strings.Count(s, "\n")
		l.pos += end + 2
		return bcTok{kind: "str", text: s, line: l.line}, nil
	}
	for _, op := range []string{"^=", "*=", "/=", "%=", "+=", "-=", "==", "<=", ">=", "!=", "&&", "||", "++", "--"} {
		if strings.HasPrefix(l.src[l.pos:], op) {
			l.pos += 2
			return bcTok{kind: "op", text: op, line: l.line}, nil
		}
	}
	if strings.IndexByte("+-*/%^=<>!(){}[],;.", c) >= 0 {
		l.pos++
		return bcTok{kind: "op", text: string(c), line: l.line}, nil
	}
	l.pos++
	return bcTok{}, fmt.Errorf("illegal character: %c", c)
}

// ---- syntax tree ----

type bcExpr interface{}

type (
	bcNumLit struct{ text string }
	bcVar    struct {
		name  string
		index bcExpr // nil for a scalar
	}
	bcSpecial struct{ name string } // scale, ibase, obase, last
	bcBinary  struct {
		op   string
		l, r bcExpr
	}
	bcUnary struct {
		op string
		x  bcExpr
	}
	bcAssign struct {
		op    string // "=", "+=", ...
		lhs   bcExpr
		rhs   bcExpr
		paren bool
	}
	bcIncDec struct {
		op     string // "++" or "--"
		prefix bool
		x      bcExpr
	}
	bcCall struct {
		name string
		args []bcExpr // an array argument is *bcArrayArg
	}
	bcArrayArg    struct{ name string }
	bcBuiltinCall struct {
		name string // length, sqrt, scale
		x    bcExpr
	}
)

type bcStmt interface{}

type (
	bcExprStmt struct{ x bcExpr }
	bcStrStmt  struct{ s string }
	bcPrint    struct{ items []bcExpr } // string items are bcStrStmt
	bcBlock    struct{ list []bcStmt }
	bcIf       struct {
		cond      bcExpr
		then, els bcStmt
	}
	bcWhile struct {
		cond bcExpr
		body bcStmt
	}
	bcFor struct {
		init, cond, post bcExpr
		body             bcStmt
	}
	bcBreak    struct{}
	bcContinue struct{}
	bcHalt     struct{}
	bcReturn   struct{ x bcExpr }
	bcLimits   struct{}
)

type bcFunc struct {
	params []string // array parameters end in "[]"
	autos  []string
	body   []bcStmt
	void   bool
}

// ---- parser ----

type bcParser struct {
	lx     *bcLexer
	tok    bcTok
	peeked bool
	quit   bool
	inFunc bool
	depth  int
	nest   int
	loops  int
	// -s and -w (bc_std.go): std is 's', 'w' or 0; warn says a
	// construct POSIX does not have; hadError (-s) drops the line.
	std      byte
	warn     func(line int, msg string)
	hadError bool
}

type bcSyntaxError struct {
	line int
	msg  string
}

func (e *bcSyntaxError) Error() string { return e.msg }

func (p *bcParser) peek() bcTok {
	if !p.peeked {
		t, err := p.lx.next()
		if err != nil {
			panic(&bcSyntaxError{p.lx.line, err.Error()})
		}
		p.tok, p.peeked = t, true
	}
	return p.tok
}

func (p *bcParser) advance() bcTok {
	t := p.peek()
	p.peeked = false
	return t
}

func (p *bcParser) fail() {
	panic(&bcSyntaxError{p.peek().line, "syntax error"})
}

func (p *bcParser) isOp(s string) bool {
	t := p.peek()
	return t.kind == "op" && t.text == s
}

func (p *bcParser) expectOp(s string) {
	if !p.isOp(s) {
		p.fail()
	}
	p.advance()
}

func (p *bcParser) skipNewlines() {
	for p.peek().kind == "nl" {
		p.advance()
	}
}

// statement parses one statement (without its terminator).
func (p *bcParser) statement() bcStmt {
	p.nest++
	defer func() { p.nest-- }()
	if p.nest > bcMaxNest {
		panic(&bcSyntaxError{p.peek().line, "statement nesting too deep"})
	}
	t := p.peek()
	switch t.kind {
	case "nl", "eof":
		return nil
	case "op":
		switch t.text {
		case ";":
			return nil
		case "{":
			p.advance()
			b := &bcBlock{}
			b.list = p.stmtList("}")
			p.expectOp("}")
			return b
		}
	case "str":
		p.advance()
		return &bcStrStmt{t.text}
	case "print":
		p.nonStd(t.line, "print statement")
		return p.printStmt()
	case "if":
		return p.ifStmt()
	case "while":
		p.advance()
		p.expectOp("(")
		s := &bcWhile{cond: p.expr()}
		p.expectOp(")")
		s.body = p.loopBody()
		return s
	case "for":
		return p.forStmt()
	case "break":
		p.advance()
		if p.loops == 0 {
			panic(&bcSyntaxError{t.line, "Break outside a for/while"})
		}
		return &bcBreak{}
	case "continue":
		p.advance()
		p.nonStd(t.line, "Continue statement")
		if p.loops == 0 {
			panic(&bcSyntaxError{t.line, "Continue outside a for"})
		}
		return &bcContinue{}
	case "quit":
		p.advance()
		p.quit = true
		return nil
	case "halt":
		p.advance()
		return &bcHalt{}
	case "limits":
		p.advance()
		return &bcLimits{}
	case "return":
		p.advance()
		if !p.inFunc {
			panic(&bcSyntaxError{t.line, "Return outside of a function."})
		}
		r := &bcReturn{}
		nt := p.peek()
		if !(nt.kind == "nl" || nt.kind == "eof" || nt.kind == "op" && (nt.text == ";" || nt.text == "}")) {
			r.x = p.expr()
			if !bcParenthesized(r.x) {
				p.nonStd(p.lookLine(), "return expression requires parenthesis")
			}
		}
		return r
	}
	x := p.expr()
	if p.std != 0 && bcHasComparison(x) {
		p.nonStd(p.lookLine(), "comparison in expression")
	}
	return &bcExprStmt{x}
}

// printStmt parses a print statement: strings and expressions separated by commas.
func (p *bcParser) printStmt() *bcPrint {
	p.advance()
	pr := &bcPrint{}
	for {
		if p.peek().kind == "str" {
			pr.items = append(pr.items, &bcStrStmt{p.advance().text})
		} else {
			pr.items = append(pr.items, p.expr())
		}
		if !p.isOp(",") {
			break
		}
		p.advance()
	}
	return pr
}

// ifStmt parses an if statement with its optional else.
func (p *bcParser) ifStmt() *bcIf {
	p.advance()
	p.expectOp("(")
	s := &bcIf{cond: p.expr()}
	p.expectOp(")")
	p.skipNewlines()
	s.then = p.statement()
	// "else" may follow on the same line, after a ';', or on the next line.
	save := *p.lx
	saveTok, savePeeked := p.tok, p.peeked
	if p.isOp(";") {
		p.advance()
	}
	if p.peek().kind == "nl" && p.inBlockOrFunc() {
		p.skipNewlines()
	}
	if p.peek().kind == "else" {
		p.nonStd(p.advance().line, "else clause in if statement")
		p.skipNewlines()
		s.els = p.statement()
	} else {
		p.lx.restore(save)
		p.tok, p.peeked = saveTok, savePeeked
	}
	return s
}

// forStmt parses a for statement.
func (p *bcParser) forStmt() *bcFor {
	p.advance()
	p.expectOp("(")
	s := &bcFor{}
	if !p.isOp(";") {
		s.init = p.expr()
	} else {
		p.nonStd(p.peek().line, "Missing expression in for statement")
	}
	p.expectOp(";")
	if !p.isOp(";") {
		s.cond = p.expr()
	} else {
		p.nonStd(p.peek().line, "Missing expression in for statement")
	}
	p.expectOp(";")
	if !p.isOp(")") {
		s.post = p.expr()
	} else {
		p.nonStd(p.peek().line, "Missing expression in for statement")
	}
	p.expectOp(")")
	s.body = p.loopBody()
	return s
}

// loopBody parses the body of a while or for loop, where break and
// continue may be.
func (p *bcParser) loopBody() bcStmt {
	p.skipNewlines()
	p.loops++
	body := p.statement()
	p.loops--
	return body
}

func (p *bcParser) inBlockOrFunc() bool { return p.inFunc || p.depth > 0 }

// stmtList parses statements up to the closing token (not consumed).
func (p *bcParser) stmtList(end string) []bcStmt {
	p.depth++
	defer func() { p.depth-- }()
	var list []bcStmt
	for {
		p.skipTerminators()
		if p.isOp(end) || p.peek().kind == "eof" {
			return list
		}
		if s := p.statement(); s != nil {
			list = append(list, s)
		}
		if p.quit {
			return list
		}
		t := p.peek()
		if !(t.kind == "nl" || t.kind == "op" && (t.text == ";" || t.text == end)) {
			p.fail()
		}
	}
}

func (p *bcParser) skipTerminators() {
	for {
		t := p.peek()
		if t.kind == "nl" || t.kind == "op" && t.text == ";" {
			p.advance()
			continue
		}
		return
	}
}

func (p *bcParser) define(funcs map[string]*bcFunc) {
	p.advance() // define
	f := &bcFunc{}
	if p.peek().kind == "void" {
		p.nonStd(p.advance().line, "void functions")
		f.void = true
	}
	nt := p.advance()
	if nt.kind != "name" {
		p.fail()
	}
	p.expectOp("(")
	for !p.isOp(")") {
		if p.isOp("*") {
			p.advance()
		}
		f.params = append(f.params, p.paramName())
		if !p.isOp(",") {
			break
		}
		p.advance()
	}
	p.expectOp(")")
	p.skipNewlines()
	p.expectOp("{")
	if t := p.peek(); t.kind != "nl" {
		p.nonStd(t.line, "End of line required")
	}
	p.skipNewlines()
	p.nonStdName(nt.text) // GNU's lookup after the header's end of line
	if p.peek().kind == "auto" {
		p.advance()
		for {
			f.autos = append(f.autos, p.paramName())
			if !p.isOp(",") {
				break
			}
			p.advance()
		}
		t := p.peek()
		if !(t.kind == "nl" || t.kind == "op" && t.text == ";") {
			p.fail()
		}
	}
	p.inFunc = true
	f.body = p.stmtList("}")
	p.inFunc = false
	p.expectOp("}")
	funcs[nt.text] = f
}

// paramName reads the name of a parameter or auto variable of a define:
// NAME, or NAME[] for an array (returned with its "[]").
func (p *bcParser) paramName() string {
	a := p.advance()
	if a.kind != "name" {
		p.fail()
	}
	name := a.text
	if p.isOp("[") {
		p.advance()
		p.expectOp("]")
		name += "[]"
	}
	return name
}

// bcMaxNest bounds the nesting of expressions and statements, so that no
// input can exhaust the Go stack.
const bcMaxNest = 5000

func (p *bcParser) expr() bcExpr {
	p.nest++
	defer func() { p.nest-- }()
	if p.nest > bcMaxNest {
		panic(&bcSyntaxError{p.peek().line, "expression nesting too deep"})
	}
	return p.orExpr()
}

func (p *bcParser) orExpr() bcExpr {
	x := p.andExpr()
	for p.isOp("||") {
		p.nonStd(p.advance().line, "|| operator")
		x = &bcBinary{"||", x, p.andExpr()}
	}
	return x
}

func (p *bcParser) andExpr() bcExpr {
	x := p.notExpr()
	for p.isOp("&&") {
		p.nonStd(p.advance().line, "&& operator")
		x = &bcBinary{"&&", x, p.notExpr()}
	}
	return x
}

func (p *bcParser) notExpr() bcExpr {
	if p.isOp("!") {
		p.advance()
		x := &bcUnary{"!", p.notExpr()}
		p.nonStd(p.lookLine(), "! operator")
		return x
	}
	return p.relExpr()
}

func (p *bcParser) relExpr() bcExpr {
	x := p.assignExpr()
	for {
		t := p.peek()
		if t.kind == "op" && (t.text == "<" || t.text == ">" || t.text == "<=" || t.text == ">=" || t.text == "==" || t.text == "!=") {
			p.advance()
			x = &bcBinary{t.text, x, p.assignExpr()}
			continue
		}
		return x
	}
}

func bcIsLvalue(x bcExpr) bool {
	switch x.(type) {
	case *bcVar, *bcSpecial:
		return true
	}
	return false
}

func (p *bcParser) assignExpr() bcExpr {
	x := p.addExpr()
	t := p.peek()
	if t.kind == "op" && (t.text == "=" || t.text == "+=" || t.text == "-=" || t.text == "*=" || t.text == "/=" || t.text == "%=" || t.text == "^=") {
		if !bcIsLvalue(x) {
			p.fail()
		}
		p.advance()
		return &bcAssign{op: t.text, lhs: x, rhs: p.assignExpr()}
	}
	return x
}

func (p *bcParser) addExpr() bcExpr {
	x := p.mulExpr()
	for p.isOp("+") || p.isOp("-") {
		op := p.advance().text
		x = &bcBinary{op, x, p.mulExpr()}
	}
	return x
}

func (p *bcParser) mulExpr() bcExpr {
	x := p.powExpr()
	for p.isOp("*") || p.isOp("/") || p.isOp("%") {
		op := p.advance().text
		x = &bcBinary{op, x, p.powExpr()}
	}
	return x
}

func (p *bcParser) powExpr() bcExpr {
	x := p.unaryExpr()
	if p.isOp("^") {
		p.advance()
		return &bcBinary{"^", x, p.powExpr()}
	}
	return x
}

func (p *bcParser) unaryExpr() bcExpr {
	if p.isOp("-") {
		p.advance()
		p.nest++
		defer func() { p.nest-- }()
		if p.nest > bcMaxNest {
			panic(&bcSyntaxError{p.peek().line, "expression nesting too deep"})
		}
		return &bcUnary{"-", p.unaryExpr()}
	}
	if p.isOp("++") || p.isOp("--") {
		op := p.advance().text
		x := p.primary()
		if !bcIsLvalue(x) {
			p.fail()
		}
		return &bcIncDec{op, true, x}
	}
	x := p.primary()
	if (p.isOp("++") || p.isOp("--")) && bcIsLvalue(x) {
		return &bcIncDec{p.advance().text, false, x}
	}
	return x
}

func (p *bcParser) primary() bcExpr {
	t := p.advance()
	switch t.kind {
	case "num":
		return &bcNumLit{t.text}
	case "op":
		switch t.text {
		case "(":
			x := p.expr()
			p.expectOp(")")
			if a, ok := x.(*bcAssign); ok {
				b := *a
				b.paren = true
				return &b
			}
			return &bcUnary{"()", x}
		case ".":
			p.nonStd(t.line, "Last variable")
			return &bcSpecial{"last"}
		}
	case "scale":
		if p.isOp("(") {
			p.advance()
			x := p.expr()
			p.expectOp(")")
			return &bcBuiltinCall{"scale", x}
		}
		return &bcSpecial{"scale"}
	case "ibase", "obase", "last":
		if t.kind == "last" {
			p.nonStd(t.line, "Last variable")
		}
		return &bcSpecial{t.kind}
	case "length", "sqrt":
		p.expectOp("(")
		x := p.expr()
		p.expectOp(")")
		return &bcBuiltinCall{t.kind, x}
	case "name":
		if p.isOp("[") {
			p.nonStdName(t.text) // GNU's lookup as it reads the '['
			p.advance()
			idx := p.expr()
			p.expectOp("]")
			return &bcVar{t.text, idx}
		}
		if p.isOp("(") {
			p.advance()
			c := &bcCall{name: t.text}
			for !p.isOp(")") {
				// An array argument: NAME[]
				if p.peek().kind == "name" {
					save := *p.lx
					saveTok := p.tok
					n := p.advance()
					if p.isOp("[") {
						p.advance()
						if p.isOp("]") {
							p.advance()
							c.args = append(c.args, &bcArrayArg{n.text})
							goto next
						}
					}
					p.lx.restore(save)
					p.tok, p.peeked = saveTok, true
				}
				c.args = append(c.args, p.expr())
			next:
				if !p.isOp(",") {
					break
				}
				p.advance()
			}
			if p.std != 0 && len(t.text) > 1 {
				// reduced at the ')', with no look past it
				p.nonStd(p.peek().line, "multiple letter name - "+t.text)
			}
			p.expectOp(")")
			return c
		}
		p.nonStdName(t.text)
		return &bcVar{t.text, nil}
	}
	p.peeked = true
	p.tok = t
	p.fail()
	return nil
}

// ---- driver ----

// bcUsage is what GNU bc 1.07.1 prints on standard output after a bad
// option.
const bcUsage = `usage: bc [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
`

func bc(env *Env) int {
	f := NewFlags(env, "An arbitrary precision calculator language: reads FILEs, then standard input.", "[options] [file ...]")
	mathlib := f.Bool('l', "mathlib", "use the predefined math routines (s c a l e j) and scale=20")
	f.Bool('q', "quiet", "don't print initial banner")
	f.Bool('i', "interactive", "force interactive mode")
	var std byte
	f.Func('s', "standard", NoArg, "", "non-standard bc constructs are errors", func(string, bool) error { std = 's'; return nil })
	f.Func('w', "warn", NoArg, "", "warn about non-standard bc constructs", func(string, bool) error {
		if std == 0 {
			std = 'w'
		}
		return nil
	})
	version := shortHelpVersion(f, 'h', 'v')
	files, err := f.Parse(env.Args[1:])
	if msg, ok := usageMessage(err); ok && !errors.Is(err, ErrHelp) {
		// GNU bc follows getopt's message with its usage on standard
		// output (no "Try" line), status 1.
		fmt.Fprintf(env.Stderr, "bc: %s\n", msg)
		io.WriteString(env.Stdout, bcUsage)
		return 1
	}
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	defer w.Flush()
	in := newBcInterp(env, w)
	in.std = std
	if *mathlib {
		in.mathlib = true
		in.scale = 20
	}
	// GNU bc stops at the first file it cannot read, and "-" is a file's
	// name to it, not standard input.
	for _, name := range files {
		var r io.ReadCloser
		if name == "-" {
			r, err = env.FS.OpenFile(env.Abs(name), os.O_RDONLY)
		} else {
			r, err = env.Open(name)
		}
		var data []byte
		opened := err == nil
		if opened {
			data, err = io.ReadAll(r)
			r.Close()
		}
		switch {
		case err == nil:
		case opened, errors.Is(err, syscall.EISDIR):
			// It opens a directory; flex's read of it fails.
			w.Flush()
			fmt.Fprintf(env.Stderr, "%s 1: read() in flex scanner failed\n", name)
			return 1
		default:
			w.Flush()
			fmt.Fprintf(env.Stderr, "File %s is unavailable.\n", name)
			return 1
		}
		if done, st := in.run(name, string(data), w); done {
			return st
		}
	}
	// Standard input is read a line at a time, each line's statements
	// run and their output flushed before the next is read: bc in a
	// coprocess or a pipe answers as it goes, as GNU's.
	br := bufio.NewReader(env.Stdin)
	more := func() (string, bool) {
		if w.Flush() != nil || env.Ctx.Err() != nil {
			return "", false
		}
		line, err := br.ReadString('\n')
		return line, line != "" && (err == nil || errors.Is(err, io.EOF))
	}
	_, st := in.runLexer("(standard_in)", &bcLexer{line: 1, more: more}, w)
	return st
}

// run parses and runs one source. Each line's statements run once the
// line is complete; a runtime error abandons the rest of that line, as in
// GNU bc. It reports whether bc must stop (quit, halt, cancellation).
func (in *bcInterp) run(name, src string, w *bufio.Writer) (done bool, status int) {
	return in.runLexer(name, &bcLexer{src: src, line: 1}, w)
}

// runLexer is run over what lx reads.
func (in *bcInterp) runLexer(name string, lx *bcLexer, w *bufio.Writer) (done bool, status int) {
	p := &bcParser{lx: lx, std: in.std}
	lx.noHash = in.std == 's'
	p.warn = func(line int, msg string) {
		w.Flush()
		kind := "(Warning)"
		if in.std == 's' {
			kind = "Error:"
		}
		fmt.Fprintf(in.env.Stderr, "%s %d: %s %s\n", name, line, kind, msg)
	}
	var batch []bcStmt
	execBatch := func() bool {
		in.batch = batch
		for _, s := range batch {
			err := in.exec(s)
			if err == nil {
				continue
			}
			var re *bcRuntimeError
			switch {
			case errors.Is(err, errBcHalt):
				return true
			case errors.Is(err, gnu.ErrCancelled):
				status = 1
				if in.werr != nil && !IsBrokenPipe(in.werr) {
					fmt.Fprintf(in.env.Stderr, "bc: write error: %s\n", ErrText(in.werr))
				}
				return true
			case errors.As(err, &re):
				w.Flush()
				list := batch
				if re.body != nil {
					list = re.body
				}
				in.runtimeError(list, re)
				in.fname = ""
			}
			break
		}
		batch = batch[:0]
		return false
	}
	for {
		stop, eof := in.parseLine(p, name, &batch, w)
		if p.quit {
			return true, status
		}
		if stop {
			if in.env.Ctx.Err() != nil {
				status = 1
			}
			return true, status
		}
		if execBatch() {
			return true, status
		}
		if eof {
			return false, status
		}
	}
}

// parseLine parses the statements of one input line into batch; after a
// syntax error it reports it, drops the line and skips to the next one.
func (in *bcInterp) parseLine(p *bcParser, name string, batch *[]bcStmt, w *bufio.Writer) (stop, eof bool) {
	defer func() {
		if v := recover(); v != nil {
			se, ok := v.(*bcSyntaxError)
			if !ok {
				panic(v)
			}
			w.Flush()
			if se.msg == errBcEOFComment.Error() {
				fmt.Fprintf(in.env.Stderr, "%s\n", se.msg)
			} else {
				fmt.Fprintf(in.env.Stderr, "%s %d: %s\n", name, se.line, se.msg)
			}
			*batch = (*batch)[:0]
			p.inFunc, p.loops, p.depth, p.nest = false, 0, 0, 0
			// Skip the rest of the line: none is left when the
			// error was at its newline, as in "1+\n2\n" (2 is
			// still run, as GNU's yacc recovery does).
			for p.peeked && p.tok.kind == "nl" {
				p.peeked = false
				return
			}
			for {
				t, err := p.lx.next()
				if err != nil {
					continue
				}
				if t.kind == "nl" {
					break
				}
				if t.kind == "eof" {
					eof = true
					break
				}
			}
			p.peeked = false
		}
	}()
	lineUsed := false
	for {
		if in.env.Ctx.Err() != nil {
			return true, false
		}
		t := p.peek()
		if t.kind != "define" && t.kind != "nl" && !(t.kind == "op" && t.text == ";") {
			lineUsed = true
		}
		switch {
		case t.kind == "eof":
			p.dropIfError(batch)
			return false, true
		case t.kind == "nl":
			p.advance()
			p.dropIfError(batch)
			return false, false
		case t.kind == "op" && t.text == ";":
			p.advance()
			continue
		case t.kind == "define":
			// A definition must begin a line.
			if lineUsed {
				p.fail()
			}
			p.defineStd(in.funcs)
			// A definition is an input item of its own (GNU bc.y):
			// what follows it on the line begins the next one.
			lineUsed = false
			continue
		default:
			s := p.statement()
			if p.quit {
				return true, false
			}
			if s != nil {
				*batch = append(*batch, s)
			}
		}
		t = p.peek()
		if !(t.kind == "nl" || t.kind == "eof" || t.kind == "op" && t.text == ";") {
			p.fail()
		}
	}
}
