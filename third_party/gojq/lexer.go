package gojq

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

type lexer struct {
	source     string
	offset     int
	result     *Query
	token      string
	tokenType  int
	inString   bool
	err        *ParseError // the first syntax error
	errs       []ParseNote // every error jq's parser reports, in order
	start      int         // where the token last read starts
	lexeme     int         // where the last token, white space run or comment starts
	brackets   []byte      // the brackets open, as jq's lexer keeps them
	patterns   []bool      // whether each open bracket opens a destructuring pattern
	firsts     []int       // where the first token inside each open bracket starts; -1 until read
	pairs      []int       // where the first token after each open bracket's last comma starts
	closed     int         // firsts of the bracket the token last read closed
	closedPair int         // and its pairs
	errStart   int         // where the token of the last syntax error reported starts
	errFirst   bool        // whether it came first in its bracket or after a comma
	errPair    int         // where the object's pair it came in starts, or -1
	textStart  int         // where the text of a string with no end starts
	badClose   bool        // the token last read closes no open bracket
	interpEnd  bool        // the token last read closes a string's \(
	prevType   int         // the token read before the last one
	tokens     int         // llmsh: tokens read (see MaxTokens)
	tooBig     string      // llmsh: why the program is refused, once it is
	escapes    int         // where the bad escapes reported end (a string is scanned again)
}

func newLexer(src string) *lexer {
	return &lexer{source: src}
}

const eof = -1

// keyword is the token of a keyword, a switch rather than a map: a map
// literal is code in the package's init, run at every start of llmsh.
func keyword(s string) (int, bool) {
	switch s {
	case "or":
		return tokOrOp, true
	case "and":
		return tokAndOp, true
	case "module":
		return tokModule, true
	case "import":
		return tokImport, true
	case "include":
		return tokInclude, true
	case "def":
		return tokDef, true
	case "as":
		return tokAs, true
	case "label":
		return tokLabel, true
	case "break":
		return tokBreak, true
	case "null":
		return tokNull, true
	case "true":
		return tokTrue, true
	case "false":
		return tokFalse, true
	case "if":
		return tokIf, true
	case "then":
		return tokThen, true
	case "elif":
		return tokElif, true
	case "else":
		return tokElse, true
	case "end":
		return tokEnd, true
	case "try":
		return tokTry, true
	case "catch":
		return tokCatch, true
	case "reduce":
		return tokReduce, true
	case "foreach":
		return tokForeach, true
	}
	return 0, false
}

func (l *lexer) Lex(lval *yySymType) (tokenType int) {
	defer func() {
		l.prevType, l.tokenType = l.tokenType, tokenType
	}()
	if len(l.source) == l.offset && !l.inString || l.tooBig != "" {
		l.token = ""
		l.start = l.lexeme
		return eof
	}
	switch l.tokens++; {
	case l.tokens > MaxTokens:
		l.tooBig = "program too long (more than " + strconv.Itoa(MaxTokens) + " tokens)"
	case len(l.brackets) >= MaxNesting:
		l.tooBig = "program nested too deeply (more than " + strconv.Itoa(MaxNesting) + " brackets)"
	}
	if l.tooBig != "" {
		l.token = ""
		l.start = l.offset
		return eof
	}
	if l.inString {
		tok, str := l.scanString(l.offset)
		lval.token = str
		if tok == tokStringQuery { // jq's lexer keeps \( as an open bracket
			l.patterns = append(l.patterns, false)
			l.brackets = append(l.brackets, interpBracket)
			l.firsts, l.pairs = append(l.firsts, -1), append(l.pairs, -1)
		}
		return tok
	}
	ch, iseof := l.next()
	if iseof {
		l.token = ""
		l.start = l.lexeme
		return eof
	}
	l.start = l.offset - 1
	lval.offset = l.start
	l.badClose, l.interpEnd = false, false
	if n := len(l.firsts); n > 0 && l.firsts[n-1] < 0 {
		l.firsts[n-1] = l.start
	}
	if n := len(l.pairs); n > 0 && l.pairs[n-1] < 0 {
		l.pairs[n-1] = l.start
	}
	switch ch {
	case '(', '[', '{':
		l.patterns = append(l.patterns, l.opensPattern(ch))
		l.brackets = append(l.brackets, ch)
		l.firsts, l.pairs = append(l.firsts, -1), append(l.pairs, -1)
	case ')', ']', '}':
		if n := len(l.brackets); n > 0 && (l.brackets[n-1] == openerOf(ch) || ch == ')' && l.brackets[n-1] == interpBracket) {
			l.interpEnd = l.brackets[n-1] == interpBracket
			l.closed, l.closedPair = l.firsts[n-1], l.pairs[n-1]
			l.brackets, l.patterns, l.firsts, l.pairs = l.brackets[:n-1], l.patterns[:n-1], l.firsts[:n-1], l.pairs[:n-1]
		} else {
			l.badClose = true
		}
	case ',':
		if n := len(l.brackets); n > 0 {
			l.pairs[n-1] = -1
		}
	}
	switch {
	case isIdent(ch, false):
		i := l.offset - 1
		j, isModule := l.scanIdentOrModule()
		l.token = l.source[i:j]
		lval.token = l.token
		if isModule {
			return tokModuleIdent
		}
		if tok, ok := keyword(l.token); ok {
			return tok
		}
		return tokIdent
	case isNumber(ch):
		i := l.offset - 1
		j := l.scanNumber(false)
		l.token = l.source[i:j]
		lval.token = l.token
		return tokNumber
	}
	switch ch {
	case '.':
		ch := l.peek()
		switch {
		case ch == '.':
			l.offset++
			l.token = ".."
			return tokRecurse
		case isIdent(ch, false):
			l.token = l.source[l.offset-1 : l.scanIdent()]
			lval.token = l.token[1:]
			return tokIndex
		case isNumber(ch):
			i := l.offset - 1
			j := l.scanNumber(true)
			l.token = l.source[i:j]
			lval.token = l.token
			return tokNumber
		default:
			return '.'
		}
	case '?':
		if strings.HasPrefix(l.source[l.offset:], "//") {
			// jq's lexer reads ?// as one token, wherever it is
			l.offset += 2
			l.token = "?//"
			return tokDestAlt
		}
	case '$':
		if isIdent(l.peek(), false) {
			i := l.offset - 1
			j, isModule := l.scanIdentOrModule()
			l.token = l.source[i:j]
			lval.token = l.token
			if isModule {
				return tokModuleVariable
			}
			if l.token == "$__loc__" {
				return tokLoc // a token of its own in jq's lexer
			}
			return tokVariable
		}
	case '|':
		if l.peek() == '=' {
			l.offset++
			l.token = "|="
			lval.operator = OpModify
			return tokUpdateOp
		}
	case '+':
		if l.peek() == '=' {
			l.offset++
			l.token = "+="
			lval.operator = OpUpdateAdd
			return tokUpdateOp
		}
	case '-':
		if l.peek() == '=' {
			l.offset++
			l.token = "-="
			lval.operator = OpUpdateSub
			return tokUpdateOp
		}
	case '*':
		if l.peek() == '=' {
			l.offset++
			l.token = "*="
			lval.operator = OpUpdateMul
			return tokUpdateOp
		}
	case '/':
		switch l.peek() {
		case '=':
			l.offset++
			l.token = "/="
			lval.operator = OpUpdateDiv
			return tokUpdateOp
		case '/':
			l.offset++
			if l.peek() == '=' {
				l.offset++
				l.token = "//="
				lval.operator = OpUpdateAlt
				return tokUpdateOp
			}
			l.token = "//"
			lval.operator = OpAlt
			return tokAltOp
		}
	case '%':
		if l.peek() == '=' {
			l.offset++
			l.token = "%="
			lval.operator = OpUpdateMod
			return tokUpdateOp
		}
	case '=':
		if l.peek() == '=' {
			l.offset++
			l.token = "=="
			lval.operator = OpEq
			return tokCompareOp
		}
		l.token = "="
		lval.operator = OpAssign
		return tokUpdateOp
	case '!':
		if l.peek() == '=' {
			l.offset++
			l.token = "!="
			lval.operator = OpNe
			return tokCompareOp
		}
	case '>':
		if l.peek() == '=' {
			l.offset++
			l.token = ">="
			lval.operator = OpGe
			return tokCompareOp
		}
		l.token = ">"
		lval.operator = OpGt
		return tokCompareOp
	case '<':
		if l.peek() == '=' {
			l.offset++
			l.token = "<="
			lval.operator = OpLe
			return tokCompareOp
		}
		l.token = "<"
		lval.operator = OpLt
		return tokCompareOp
	case '@':
		if isIdent(l.peek(), true) {
			l.token = l.source[l.offset-1 : l.scanIdent()]
			lval.token = l.token
			return tokFormat
		}
	case '"':
		tok, str := l.scanString(l.offset - 1)
		lval.token = str
		return tok
	default:
		if ch >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(l.source[l.offset-1:])
			// -1 to adjust for first byte consumed by next()
			l.offset += size - 1
			l.token = string(r)
		}
	}
	return int(ch)
}

func (l *lexer) next() (byte, bool) {
	white := false
	for {
		ch := l.source[l.offset]
		l.offset++
		if ch == '#' {
			l.lexeme, white = l.offset-1, false
			if l.skipComment() {
				return 0, true
			}
		} else if !isWhite(ch) {
			l.lexeme = l.offset - 1
			return ch, false
		} else {
			if !white {
				l.lexeme, white = l.offset-1, true
			}
			if len(l.source) == l.offset {
				return 0, true
			}
		}
	}
}

// skipComment skips a comment to the end of its line, as jq 1.7.1's lexer
// does ("#"[^\n]*: a backslash before the newline does not carry it on,
// as it does in gojq and jq 1.8).
func (l *lexer) skipComment() bool {
	for {
		switch l.peek() {
		case 0:
			return true
		case '\n':
			return false
		default:
			l.offset++
		}
	}
}

func (l *lexer) peek() byte {
	if len(l.source) == l.offset {
		return 0
	}
	return l.source[l.offset]
}

func (l *lexer) scanIdent() int {
	for isIdent(l.peek(), true) {
		l.offset++
	}
	return l.offset
}

func (l *lexer) scanIdentOrModule() (int, bool) {
	index := l.scanIdent()
	var isModule bool
	if l.peek() == ':' {
		l.offset++
		if l.peek() == ':' {
			l.offset++
			if isIdent(l.peek(), false) {
				l.offset++
				index = l.scanIdent()
				isModule = true
			} else {
				l.offset -= 2
			}
		} else {
			l.offset--
		}
	}
	return index, isModule
}

func (l *lexer) validVarName() bool {
	if l.peek() != '$' {
		return false
	}
	l.offset++
	return isIdent(l.peek(), false) && l.scanIdent() == len(l.source)
}

// scanNumber reads a number as jq 1.7's lexer does,
// ([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?, from its first digit
// (or the point before it) already read, and returns where it ends:
// what follows, a second point or a letter, is the next token.
func (l *lexer) scanNumber(afterPoint bool) int {
	digits := func() {
		for isNumber(l.peek()) {
			l.offset++
		}
	}
	digits()
	if !afterPoint && l.peek() == '.' {
		l.offset++
		digits()
	}
	if ch := l.peek(); ch == 'e' || ch == 'E' {
		i := l.offset + 1
		if i < len(l.source) && (l.source[i] == '+' || l.source[i] == '-') {
			i++
		}
		if i < len(l.source) && isNumber(l.source[i]) {
			l.offset = i
			digits()
		}
	}
	return l.offset
}

func (l *lexer) scanString(start int) (int, string) {
	var decode, bad bool
	var controls int
	run := -1 // where the run of escapes the scan is in starts
	unquote := func(src string, quote bool) (string, error) {
		if bad {
			return "", nil // the program fails with the error recorded
		}
		if !decode {
			if quote {
				return src, nil
			}
			return src[1 : len(src)-1], nil
		}
		var buf []byte
		if !quote && controls == 0 {
			buf = []byte(src)
		} else {
			buf = quoteAndEscape(src, quote, controls)
		}
		if err := json.Unmarshal(buf, &src); err != nil {
			return "", err
		}
		return src, nil
	}
	for i := l.offset; i < len(l.source); i++ {
		ch := l.source[i]
		if ch != '\\' {
			run = -1
		} else if run < 0 {
			run = i
		}
		switch ch {
		case '\\':
			if i++; i >= len(l.source) {
				break
			}
			switch l.source[i] {
			case 'u':
				if !isHex4(l.source[i+1:]) {
					i, bad = l.badEscape(run), true
					continue
				}
				if c, _ := strconv.ParseUint(l.source[i+1:i+5], 16, 16); 0xd800 <= c && c < 0xe000 {
					// a surrogate: jq's JSON parser checks the pair
					if end := l.escapeRun(run); l.validEscapes(run, end) {
						i, decode = end-1, true
					} else {
						i, bad = end-1, true
					}
					continue
				}
				i += 4
				fallthrough
			case '"', '/', '\\', 'b', 'f', 'n', 'r', 't':
				decode = true
			case '(':
				if !l.inString {
					l.inString = true
					return tokStringStart, ""
				}
				if i == l.offset+1 {
					l.lexeme = l.offset // jq's last token: the \( here
					l.offset += 2
					l.inString = false
					return tokStringQuery, ""
				}
				l.offset = i - 1
				l.token = l.source[start:l.offset]
				str, err := unquote(l.token, true)
				if err != nil {
					return tokInvalid, ""
				}
				return tokString, str
			default:
				i, bad = l.badEscape(run), true
			}
		case '"':
			if !l.inString {
				l.offset = i + 1
				l.lexeme = i // jq's last token: the closing quote
				l.token = l.source[start:l.offset]
				str, err := unquote(l.token, false)
				if err != nil {
					return tokInvalid, ""
				}
				return tokString, str
			}
			if i > l.offset {
				l.offset = i
				l.token = l.source[start:l.offset]
				str, err := unquote(l.token, true)
				if err != nil {
					return tokInvalid, ""
				}
				return tokString, str
			}
			l.inString = false
			l.offset = i + 1
			l.lexeme = i
			return tokStringEnd, ""
		default:
			if !decode {
				decode = ch > '~'
			}
			if ch < ' ' { // ref: unquoteBytes in encoding/json
				controls++
			}
		}
	}
	if !l.inString {
		// jq's lexer gives the opening quote as a token of its own, which
		// the parser may refuse before the end of the string is sought
		l.inString = true
		l.offset = start + 1
		return tokStringStart, ""
	}
	l.offset = len(l.source)
	l.token = ""
	l.textStart = start
	l.inString = false // the end of file comes next
	return tokUnterminatedString, ""
}

// lastTextToken is where the last of the tokens jq's lexer makes of the
// text of a string from i starts: runs of escapes and runs of other
// characters are tokens of their own.
func lastTextToken(s string, i int) int {
	last, esc := i, false
	for i < len(s) {
		if s[i] == '\\' && i+1 < len(s) {
			if !esc {
				last, esc = i, true
			}
			if i += 2; s[i-1] == 'u' {
				for k := 0; k < 4 && i < len(s) && isIdent(s[i], true) && s[i] != '_'; k++ {
					i++
				}
			}
			continue
		}
		if esc || i == last {
			last, esc = i, false
		}
		i++
	}
	return last
}

// badEscape records the error jq reports for a run of escapes in a
// string starting at run, one of which is not JSON's: jq's lexer gives
// the run (backslash and a character, or \u and up to four letters or
// digits, repeated) to its JSON parser in quotes, which says what is
// wrong. It returns where the run's last character is.
func (l *lexer) badEscape(run int) int {
	end := l.escapeRun(run)
	l.validEscapes(run, end)
	return end - 1
}

// escapeRun is where the run of escapes at run ends.
func (l *lexer) escapeRun(run int) int {
	j := run
	for j+1 < len(l.source) && l.source[j] == '\\' && l.source[j+1] != '(' {
		if j += 2; l.source[j-1] == 'u' {
			for k := 0; k < 4 && j < len(l.source) && isIdent(l.source[j], true) && l.source[j] != '_'; k++ {
				j++
			}
		}
	}
	return j
}

// validEscapes parses the run of escapes from run to end as jq does,
// and records its error if it has one.
func (l *lexer) validEscapes(run, end int) bool {
	_, err := parseJSON(`"` + l.source[run:end] + `"`)
	if err != nil && run >= l.escapes { // else reported when the string was first scanned
		l.escapes = end
		l.errs = append(l.errs, ParseNote{err.Error(), run})
	}
	return err == nil
}

func quoteAndEscape(src string, quote bool, controls int) []byte {
	size := len(src) + controls*5
	if quote {
		size += 2
	}
	buf := make([]byte, size)
	var j int
	if quote {
		buf[0] = '"'
		buf[len(buf)-1] = '"'
		j++
	}
	for i := range len(src) {
		if ch := src[i]; ch < ' ' {
			const hex = "0123456789abcdef"
			copy(buf[j:], `\u00`)
			buf[j+4] = hex[ch>>4]
			buf[j+5] = hex[ch&0xF]
			j += 6
		} else {
			buf[j] = ch
			j++
		}
	}
	return buf
}

// ParseError represents a description of a query parsing error: the
// first syntax error, and every error jq's parser reports for the program.
// A program whose only errors are jq's checks while parsing (a constant
// key that is not a string) has an empty Unexpected.
type ParseError struct {
	Offset    int    // the error occurred after reading Offset bytes
	Token     string // the Token that caused the error (may be empty)
	tokenType int
	// Start is where jq places the error: the start of the token, or at
	// the end the start of the last token, white space run or comment.
	Start int
	// Unexpected names the token as jq's parser does ("end of file",
	// "IDENT", "'{'").
	Unexpected string
	// Expecting are the tokens jq's parser says it expected, where it
	// names them ("BINDING", "'['"); nil where it does not.
	Expecting []string
	// Errors are every error jq's parser reports, in its order and words:
	// syntax errors (this one among them), the errors it adds recovering
	// ("Possibly unterminated 'if' statement", "May need parentheses
	// around object key expression") and its checks ("Cannot use number
	// (1) as object key").
	Errors []ParseNote
}

func (err *ParseError) Error() string {
	if err.Unexpected == "" && len(err.Errors) > 0 {
		return err.Errors[0].Msg
	}
	switch err.tokenType {
	case eof:
		return "unexpected EOF"
	case tokInvalid:
		return "invalid token " + jsonMarshal(err.Token)
	case tokInvalidEscapeSequence:
		return `invalid escape sequence "` + err.Token + `" in string literal`
	case tokUnterminatedString:
		return "unterminated string literal"
	default:
		return "unexpected token " + jsonMarshal(err.Token)
	}
}

// importPath is the path of an import or include, which jq's parser
// requires to be a constant string; at is where it starts.
func (l *lexer) importPath(s *String, at int) string {
	if s.Queries != nil {
		l.note("Import path must be constant", at)
		return ""
	}
	return s.Str
}

// metadata is the metadata of a module or an import, q, which jq's parser
// requires to be a constant object; at is where the module or import
// starts.
func (l *lexer) metadata(q *Query, at int) *ConstObject {
	if q == nil {
		return nil
	}
	v, ok := constValue(q)
	var msg string
	switch _, obj := v.(*OrderedMap); {
	case !ok:
		msg = "Module metadata must be constant"
	case !obj:
		msg = "Module metadata must be an object"
	default:
		return constTermOf(v).Object
	}
	l.note(msg, at)
	return nil
}

// constTermOf is the constant v as a ConstTerm.
func constTermOf(v any) *ConstTerm {
	switch v := v.(type) {
	case nil:
		return &ConstTerm{Null: true}
	case bool:
		return &ConstTerm{True: v, False: !v}
	case string:
		return &ConstTerm{Str: v}
	case []any:
		a := &ConstArray{}
		for _, x := range v {
			a.Elems = append(a.Elems, constTermOf(x))
		}
		return &ConstTerm{Array: a}
	case *OrderedMap:
		o := &ConstObject{}
		for k, x := range v.All() {
			o.KeyVals = append(o.KeyVals, &ConstObjectKeyVal{KeyString: k, Val: constTermOf(x)})
		}
		return &ConstTerm{Object: o}
	default:
		return &ConstTerm{Number: jsonMarshal(v)}
	}
}

// note records an error that jq's parser reports recovering from a
// syntax error in a construct that starts at at.
func (l *lexer) note(msg string, at int) {
	l.errs = append(l.errs, ParseNote{msg, at})
}

// ParseNote is an error jq's parser reports, and where it places it.
type ParseNote struct {
	Msg   string
	Start int
}

// opensPattern reports whether the bracket ch, being read, opens a
// destructuring pattern: after `as` or `?//`, or as an element or value
// inside one.
func (l *lexer) opensPattern(ch byte) bool {
	if ch == '(' {
		return false
	}
	switch l.tokenType {
	case tokAs:
		return true
	case tokDestAlt:
		return true
	case ':', ',', '[':
		n := len(l.patterns)
		return n > 0 && l.patterns[n-1]
	}
	return false
}

func (l *lexer) Error(msg string) {
	offset, token := l.offset, l.token
	if l.tokenType != eof && l.tokenType < utf8.RuneSelf {
		token = string(rune(l.tokenType))
	}
	inPattern := len(l.patterns) > 0 && l.patterns[len(l.patterns)-1]
	err := &ParseError{Offset: offset, Token: token, tokenType: l.tokenType, Start: l.start,
		Unexpected: l.jqTokenName(token), Expecting: jqExpecting(msg, inPattern, l.prevType == tokFormat)}
	if l.tokenType == tokUnterminatedString {
		// jq's lexer reads on to the end inside the string, and places
		// the error at its last token: the text, or what came before
		err.Unexpected, err.Start = "end of file", l.start
		if l.textStart < len(l.source) {
			err.Start = lastTextToken(l.source, l.textStart)
		}
		err.Expecting = []string{"QQSTRING_TEXT", "QQSTRING_INTERP_START", "QQSTRING_END"}
		if n := len(l.source) - len(strings.TrimRight(l.source, `\`)); n%2 == 1 {
			// a backslash that ends the program is no escape: a character
			// jq's lexer has no token for
			err.Unexpected, err.Start = "INVALID_CHARACTER", len(l.source)-1
		}
	}
	if len(err.Expecting) == 0 && l.tokenType != tokAs && l.tokenType != eof && afterReduceTerm(l.source, err.Start) {
		// jq's reduce and foreach take a term, which only a suffix or
		// `as` may follow; gojq's grammar has no such state of its own
		err.Expecting = []string{"FIELD", "as", "'.'", "'['"}
	}
	l.errs = append(l.errs, ParseNote{err.jqMessage(l.source), err.Start})
	l.errStart, l.errFirst = l.start, l.prevType == ',' || l.prevType == '{'
	// jq's parser, having reduced a whole pair before the error, pops
	// back to the object's first; within a pair, to the pair's start
	l.errPair = l.pairStart(len(err.Expecting) > 0 && !slices.Equal(err.Expecting, []string{"'}'"}))
	if l.err == nil {
		l.err = err
	}
}

// jqMessage is the syntax error as jq words it. At a token that cannot
// follow a whole program, jq's parser says it wanted the end of file.
func (err *ParseError) jqMessage(src string) string {
	msg := "syntax error, unexpected " + err.Unexpected
	if len(err.Expecting) > 0 {
		msg += ", expecting " + strings.Join(err.Expecting, " or ")
	} else if err.Unexpected != "end of file" && err.tokenType != tokUpdateOp && err.tokenType != tokCompareOp {
		// (after a whole program, an assignment or comparison is an error
		// only as a second one in a row, which jq's grammar refuses with
		// no list: the operators do not associate)
		if _, e := Parse(src[:err.Start]); e == nil {
			msg += ", expecting end of file"
		}
	}
	return msg + " (Unix shell quoting issues?)"
}

// checkObjectKey reports, as jq's parser does, a key in parentheses that
// is a constant other than a string; at is where the parenthesis is.
func (l *lexer) checkObjectKey(q *Query, at int) {
	if v, ok := constValue(q); ok {
		if _, ok := v.(string); !ok {
			l.errs = append(l.errs, ParseNote{"Cannot use " + typeErrorPreview(v) + " as object key", at})
		}
	}
}

// loc is jq's $__loc__ written at offset at: an object of the file,
// "<top-level>", and the line.
func (l *lexer) loc(at int) *Term {
	line := 1 + strings.Count(l.source[:at], "\n")
	return &Term{Type: TermTypeObject, Object: &Object{KeyVals: []*ObjectKeyVal{
		{Key: "file", Val: &Query{Term: &Term{Type: TermTypeString, Str: &String{Str: "<top-level>"}}}},
		{Key: "line", Val: &Query{Term: &Term{Type: TermTypeNumber, Number: strconv.Itoa(line)}}},
	}}}
}

// objectKeyRecovered reports a pair that jq's parser recovered from a
// syntax error in its key. jq places it where the error token is when it
// came first in the object or after a comma, else (jq's parser having
// reduced what came before it in the pair) where the pair starts.
func (l *lexer) objectKeyRecovered() {
	at := l.errPair
	if l.errFirst || at < 0 {
		at = l.errStart
	}
	l.errFirst = false
	l.errs = append(l.errs, ParseNote{"May need parentheses around object key expression", at})
}

// pairStart is where the pair (inPair) or the first pair of the
// innermost object open at the token last read starts, or -1.
func (l *lexer) pairStart(inPair bool) int {
	firsts := l.firsts
	if inPair {
		firsts = l.pairs
	}
	n := len(l.brackets)
	switch l.tokenType {
	case '}':
		if !l.badClose {
			if inPair {
				return l.closedPair
			}
			return l.closed
		}
	case '(', '[', '{':
		n-- // the token opened a bracket of its own
	}
	for n > 0 && l.brackets[n-1] != '{' {
		n-- // a bracket left open inside the pair
	}
	if n > 0 {
		return firsts[n-1]
	}
	return -1
}

// jqExpecting turns the tokens goyacc's verbose message says it expected
// (at most four, as bison lists) into the list jq's bison parser gives
// where the two grammars' states agree: token names as jq's, named
// tokens before characters. A state where an expression can go on (an
// operator, `as`, `end` or `;` would do) has more than four in jq's
// grammar, which then lists none; `?` (goyacc's half of `?//`) and the
// `,` after an object's pair (jq's pairs are right-recursive; not so a
// pattern's, inPattern) are not in jq's lists.
func jqExpecting(msg string, inPattern, afterFormat bool) []string {
	_, list, ok := strings.Cut(msg, ", expecting ")
	if !ok {
		return nil
	}
	if list == "tokAs" {
		return []string{"as"} // after an import's path
	}
	var named, chars []string
	for _, t := range strings.Split(list, " or ") {
		switch t {
		case "tokAs", "tokEnd", "';'":
			return nil
		case "'?'", "tokDestAlt":
		case "tokVariable":
			named = append(named, "BINDING")
		case "tokIdent":
			named = append(named, "IDENT")
		case "tokString", "tokStringStart":
			switch {
			case afterFormat: // jq's FORMAT QQSTRING_START
				if !slices.Contains(named, "QQSTRING_START") {
					named = append(named, "QQSTRING_START")
				}
			case !slices.Contains(named, "FORMAT"):
				named = append(named, "FORMAT", "QQSTRING_START")
			}
		default:
			if !strings.HasPrefix(t, "'") {
				return nil // a token jq's grammar has not as such
			}
			chars = append(chars, t)
		}
	}
	slices.Sort(chars)
	if slices.Equal(chars, []string{"','", "'}'"}) && len(named) == 0 && !inPattern {
		chars = chars[1:]
	}
	return append(named, chars...)
}

// jqTokenName is the name jq 1.7's parser gives the token last read.
func (l *lexer) jqTokenName(token string) string {
	switch t := l.tokenType; t {
	case eof:
		return "end of file"
	case tokIdent, tokModuleIdent:
		return "IDENT"
	case tokVariable, tokModuleVariable:
		return "BINDING"
	case tokLoc:
		return "$__loc__"
	case tokNumber:
		return "LITERAL"
	case tokString, tokStringStart, tokUnterminatedString, tokInvalidEscapeSequence:
		return "QQSTRING_START"
	case tokFormat:
		return "FORMAT"
	case tokDestAlt:
		return "?//"
	case tokIndex:
		return "FIELD"
	case tokInvalid:
		return "INVALID_CHARACTER"
	case tokCompareOp, tokUpdateOp:
		if token == "<" || token == ">" || token == "=" {
			return "'" + token + "'"
		}
		return token
	case ')', ']', '}':
		if l.badClose {
			return "INVALID_CHARACTER"
		}
		if l.interpEnd {
			return "QQSTRING_INTERP_END"
		}
		return "'" + string(rune(t)) + "'"
	default:
		if t < utf8.RuneSelf && !strings.ContainsRune(jqCharTokens, rune(t)) {
			return "INVALID_CHARACTER" // a character jq's lexer has no token for (@)
		}
		if t < utf8.RuneSelf {
			return "'" + string(rune(t)) + "'"
		}
		return token
	}
}

// jqCharTokens are the characters that are tokens of jq's grammar.
const jqCharTokens = "|,=<>+-*/%?;()$:.[]{}"

// interpBracket stands for a string's \( among the open brackets.
const interpBracket = 'q'

// openerOf is the bracket that c closes.
func openerOf(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

func isWhite(ch byte) bool {
	switch ch {
	case '\t', '\n', '\r', ' ':
		return true
	default:
		return false
	}
}

func isIdent(ch byte, tail bool) bool {
	return 'a' <= ch && ch <= 'z' ||
		'A' <= ch && ch <= 'Z' || ch == '_' ||
		tail && isNumber(ch)
}

// isHex4 reports whether s starts with four hexadecimal digits.
func isHex4(s string) bool {
	if len(s) < 4 {
		return false
	}
	for i := range 4 {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

func isHex(ch byte) bool {
	return 'a' <= ch && ch <= 'f' ||
		'A' <= ch && ch <= 'F' ||
		isNumber(ch)
}

func isNumber(ch byte) bool {
	return '0' <= ch && ch <= '9'
}

// afterReduceTerm reports whether the text before offset at ends in
// `reduce` or `foreach` and a whole term after it (not `.` alone).
func afterReduceTerm(src string, at int) bool {
	before := src[:at]
	kw := max(lastWord(before, "reduce"), lastWord(before, "foreach"))
	if kw < 0 {
		return false
	}
	mid := strings.TrimSpace(before[kw:])
	mid = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(mid, "reduce"), "foreach"))
	// (a term of its own keywords is not looked into: each check parses
	// once, a bounded text)
	if mid == "" || mid == "." || len(mid) > 4096 || lastWord(mid, "reduce") >= 0 || lastWord(mid, "foreach") >= 0 {
		return false
	}
	q, err := Parse(mid)
	return err == nil && q.Term != nil && q.Left == nil && q.Right == nil && len(q.FuncDefs) == 0
}

// lastWord is where the last occurrence of word as a whole word in s
// starts, or -1.
func lastWord(s, word string) int {
	for end := len(s); ; {
		i := strings.LastIndex(s[:end], word)
		if i < 0 {
			return -1
		}
		j := i + len(word)
		if (i == 0 || !isIdent(s[i-1], true) && s[i-1] != '$' && s[i-1] != '.') && (j == len(s) || !isIdent(s[j], true)) {
			return i
		}
		end = i
	}
}
