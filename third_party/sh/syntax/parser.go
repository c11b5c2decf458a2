// Copyright (c) 2016, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package syntax

import (
	"bytes"
	"fmt"
	"io"
	"iter"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParserOption is a function which can be passed to NewParser
// to alter its behavior. To apply option to existing Parser
// call it directly, for example KeepComments(true)(parser).
type ParserOption func(*Parser)

// KeepComments makes the parser parse comments and attach them to
// nodes, as opposed to discarding them.
func KeepComments(enabled bool) ParserOption {
	return func(p *Parser) { p.keepComments = enabled }
}

// LangVariant describes a shell language variant to use when tokenizing and
// parsing shell code. The zero value is [LangBash].
//
// This type implements [flag.Value] so that it can be used as a CLI flag.
type LangVariant int

// TODO(v4): the zero value should be left as an unset and invalid value.
// TODO(v4): the type should be uint32 now that we use this as a bitset;
// an unsigned integer is clearer, and being agnostic to uint size avoids issues.

const (
	// LangBash corresponds to the GNU Bash language, as described in its
	// manual at https://www.gnu.org/software/bash/manual/bash.html.
	//
	// We currently follow Bash version 5.2.
	//
	// Its string representation is "bash".
	LangBash LangVariant = 1 << iota

	// LangPOSIX corresponds to the POSIX Shell language, as described at
	// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/V3_chap02.html.
	//
	// Its string representation is "posix" or "sh".
	LangPOSIX

	// LangMirBSDKorn corresponds to the MirBSD Korn Shell, also known as
	// mksh, as described at http://www.mirbsd.org/htman/i386/man1/mksh.htm.
	// Note that it shares some features with Bash, due to the shared
	// ancestry that is ksh.
	//
	// We currently follow mksh version 59.
	//
	// Its string representation is "mksh".
	LangMirBSDKorn

	// LangBats corresponds to the Bash Automated Testing System language,
	// as described at https://github.com/bats-core/bats-core. Note that
	// it's just a small extension of the Bash language.
	//
	// Its string representation is "bats".
	LangBats

	// LangZsh corresponds to the Z shell, as described at https://www.zsh.org/.
	//
	// Note that its support in the syntax package is experimental and
	// incomplete for now. See https://github.com/mvdan/sh/issues/120.
	//
	// We currently follow Zsh version 5.9.
	//
	// Its string representation is "zsh".
	LangZsh

	// langResolvedVariantsCount is the number of variants declared above,
	// that is, langResolvedVariants.count() as a constant.
	langResolvedVariantsCount = iota

	// LangAuto corresponds to automatic language detection,
	// commonly used by end-user applications like shfmt,
	// which can guess a file's language variant given its filename or shebang.
	//
	// At this time, [Variant] does not support LangAuto.
	LangAuto LangVariant = 1 << langResolvedVariantsCount

	// langBashLegacy is what [LangBash] used to be, when it was zero.
	// We still support it for the sake of backwards compatibility.
	langBashLegacy LangVariant = 0

	// langResolvedVariants contains all known variants except [LangAuto],
	// which is meant to resolve to another variant.
	langResolvedVariants = LangBash | LangPOSIX | LangMirBSDKorn | LangBats | LangZsh

	// langBashLike contains Bash plus all variants which are extensions of it.
	langBashLike = LangBash | LangBats
)

// Variant changes the shell language variant that the parser will
// accept.
//
// The passed language variant must be one of the constant values defined in
// this package.
func Variant(l LangVariant) ParserOption {
	switch l {
	case langBashLegacy:
		l = LangBash
	case LangBash, LangPOSIX, LangMirBSDKorn, LangBats, LangZsh:
	case LangAuto:
		panic("LangAuto is not supported by the parser at this time")
	default:
		panic(fmt.Sprintf("unknown shell language variant: %#b", l))
	}
	return func(p *Parser) { p.lang = l }
}

func (l LangVariant) String() string {
	switch l {
	case langBashLegacy, LangBash:
		return "bash"
	case LangPOSIX:
		return "posix"
	case LangMirBSDKorn:
		return "mksh"
	case LangBats:
		return "bats"
	case LangZsh:
		return "zsh"
	case LangAuto:
		return "auto"
	}
	return "unknown shell language variant"
}

func (l *LangVariant) Set(s string) error {
	switch s {
	case "bash":
		*l = LangBash
	case "posix", "sh", "dash":
		*l = LangPOSIX
	case "mksh":
		*l = LangMirBSDKorn
	case "bats":
		*l = LangBats
	case "zsh":
		*l = LangZsh
	case "auto":
		*l = LangAuto
	default:
		return fmt.Errorf("unknown shell language variant: %q", s)
	}
	return nil
}

func (l LangVariant) in(l2 LangVariant) bool {
	return l&l2 == l
}

func (l LangVariant) count() int {
	return bits.OnesCount32(uint32(l))
}

func (l LangVariant) index() int {
	return bits.TrailingZeros32(uint32(l))
}

func (l LangVariant) bits() iter.Seq[LangVariant] {
	return func(yield func(LangVariant) bool) {
		for n := LangVariant(1); n < langResolvedVariants; n <<= 1 {
			if l&n == 0 {
				continue
			}
			if !yield(n) {
				return
			}
		}
	}
}

// StopAt configures the lexer to stop at an arbitrary word, treating it
// as if it were the end of the input. It can contain any characters
// except whitespace, and cannot be over four bytes in size.
//
// This can be useful to embed shell code within another language, as
// one can use a special word to mark the delimiters between the two.
//
// As a word, it will only apply when following whitespace or a
// separating token. For example, StopAt("$$") will act on the inputs
// "foo $$" and "foo;$$", but not on "foo '$$'".
//
// The match is done by prefix, so the example above will also act on
// "foo $$bar".
func StopAt(word string) ParserOption {
	if len(word) > 4 {
		panic("stop word can't be over four bytes in size")
	}
	if strings.ContainsAny(word, " \t\n\r") {
		panic("stop word can't contain whitespace characters")
	}
	return func(p *Parser) { p.stopAt = []byte(word) }
}

// StopWhen makes the parser ask stop before each chunk of input it reads
// (1 KiB), and fail with its error once it returns one, so that the parse
// of a long text can end with the run that asked for it (llmsh).
func StopWhen(stop func() error) ParserOption {
	return func(p *Parser) { p.stop = stop }
}

// RecoverErrors allows the parser to skip up to a maximum number of
// errors in the given input on a best-effort basis.
// This can be useful to tab-complete an interactive shell prompt,
// or when providing diagnostics on slightly incomplete shell source.
//
// Currently, this only helps with mandatory tokens from the shell grammar
// which are not present in the input. They result in position fields
// or nodes whose position report [Pos.IsRecovered] as true.
//
// For example, given the input
//
//	(foo |
//
// the result will contain two recovered positions; first, the pipe requires
// a statement to follow, and as [Stmt.Pos] reports, the entire node is recovered.
// Second, the subshell needs to be closed, so [Subshell.Rparen] is recovered.
func RecoverErrors(maximum int) ParserOption {
	return func(p *Parser) { p.recoverErrorsMax = maximum }
}

// NewParser allocates a new [Parser] and applies any number of options.
func NewParser(options ...ParserOption) *Parser {
	p := &Parser{
		lang: LangBash,
	}
	for _, opt := range options {
		opt(p)
	}
	return p
}

// Parse reads and parses a shell program with an optional name. It
// returns the parsed program if no issues were encountered. Otherwise,
// an error is returned. Reads from r are buffered.
//
// Parse can be called more than once, but not concurrently. That is, a
// Parser can be reused once it is done working.
func (p *Parser) Parse(r io.Reader, name string) (*File, error) {
	return p.parseArithRepair(r, name) // llmsh: see llmsh_arith.go
}

// parse is upstream's Parse.
func (p *Parser) parse(r io.Reader, name string) (*File, error) {
	p.reset()
	p.f = &File{Name: name}
	p.src = r
	p.rune()
	p.next()
	p.f.Stmts, p.f.Last = p.stmtList()
	if p.err == nil {
		// EOF immediately after heredoc word so no newline to
		// trigger the parsing error.
		p.doHeredocs()
	}
	return p.f, p.err
}

// Stmts is a pre-iterators API which now wraps [Parser.StmtsSeq].
//
// Deprecated: use [Parser.StmtsSeq].
func (p *Parser) Stmts(r io.Reader, fn func(*Stmt) bool) error {
	for stmt, err := range p.StmtsSeq(r) {
		if err != nil {
			return err
		}
		if !fn(stmt) {
			break
		}
	}
	return nil
}

// StmtsSeq reads and parses statements one at a time via an iterator.
func (p *Parser) StmtsSeq(r io.Reader) iter.Seq2[*Stmt, error] {
	p.reset()
	p.f = &File{}
	p.src = r
	return func(yield func(*Stmt, error) bool) {
		p.rune()
		p.next()
		p.stmts(yield)
		if p.err == nil {
			// EOF immediately after heredoc word so no newline to
			// trigger the parsing error.
			p.doHeredocs()
		}
		if p.err != nil {
			// Yield any final error from the parser.
			yield(nil, p.err)
		}
	}
}

type wrappedReader struct {
	p  *Parser
	rd io.Reader

	lastLine    int64
	accumulated []*Stmt
	yield       func([]*Stmt, error) bool
}

func (w *wrappedReader) Read(p []byte) (n int, err error) {
	// If we lexed a newline for the first time, we just finished a line, so
	// we may need to give a callback for the edge cases below not covered
	// by [Parser.Stmts].
	if (w.p.r == '\n' || w.p.r == escNewl) && w.p.line > w.lastLine {
		if w.p.Incomplete() {
			// Incomplete statement; call back to print "> ".
			if !w.yield(w.accumulated, w.p.err) {
				return 0, io.EOF
			}
		} else if len(w.accumulated) == 0 {
			// Nothing was parsed; call back to print another "$ ".
			if !w.yield(nil, w.p.err) {
				return 0, io.EOF
			}
		}
		w.lastLine = w.p.line
	}
	return w.rd.Read(p)
}

// Interactive is a pre-iterators API which now wraps [Parser.InteractiveSeq].
//
// Deprecated: use [Parser.InteractiveSeq].
func (p *Parser) Interactive(r io.Reader, fn func([]*Stmt) bool) error {
	for stmts, err := range p.InteractiveSeq(r) {
		if err != nil {
			return err
		}
		if !fn(stmts) {
			break
		}
	}
	return nil
}

// InteractiveSeq implements what is necessary to parse statements in an
// interactive shell. The parser will call the given function under two
// circumstances outlined below.
//
// If a line containing any number of statements is parsed, the function will be
// called with said statements.
//
// If a line ending in an incomplete statement is parsed, the function will be
// called with any fully parsed statements, and [Parser.Incomplete] will return true.
//
// One can imagine a simple interactive shell implementation as follows:
//
//	fmt.Fprintf(os.Stdout, "$ ")
//	parser.Interactive(os.Stdin, func(stmts []*syntax.Stmt) bool {
//		if parser.Incomplete() {
//			fmt.Fprintf(os.Stdout, "> ")
//			return true
//		}
//		run(stmts)
//		fmt.Fprintf(os.Stdout, "$ ")
//		return true
//	}
//
// If the callback function returns false, parsing is stopped and the function
// is not called again.
func (p *Parser) InteractiveSeq(r io.Reader) iter.Seq2[[]*Stmt, error] {
	return func(yield func([]*Stmt, error) bool) {
		w := wrappedReader{p: p, rd: r, yield: yield}
		for stmts, err := range p.StmtsSeq(&w) {
			w.accumulated = append(w.accumulated, stmts)
			if err != nil {
				if !yield(w.accumulated, err) {
					break
				}
				// If the caller wishes, they can continue in the presence of parse errors.
				// TODO: does this even work? Write tests for it. This only came up
				continue
			}
			// We finished parsing a statement and we're at a newline token,
			// so we finished fully parsing a number of statements. Call
			// back to run the statements and print "$ ".
			if p.tok == _Newl {
				if !yield(w.accumulated, nil) {
					break
				}
				w.accumulated = w.accumulated[:0]
				// The callback above would already print "$ ", so we
				// don't want the subsequent wrappedReader.Read to cause
				// another "$ " print thinking that nothing was parsed.
				w.lastLine = w.p.line + 1
			}
		}
	}
}

// Words is a pre-iterators API which now wraps [Parser.WordsSeq].
//
// Deprecated: use [Parser.WordsSeq].
func (p *Parser) Words(r io.Reader, fn func(*Word) bool) error {
	for w, err := range p.WordsSeq(r) {
		if err != nil {
			return err
		}
		if !fn(w) {
			break
		}
	}
	return nil
}

// WordsSeq reads and parses a sequence of words alongside any error encountered.
//
// Newlines are skipped, meaning that multi-line input will work fine. If the
// parser encounters a token that isn't a word, such as a semicolon, an error
// will be returned.
//
// Note that the lexer doesn't currently tokenize spaces, so it may need to read
// a non-space byte such as a newline or a letter before finishing the parsing
// of a word. This will be fixed in the future.
func (p *Parser) WordsSeq(r io.Reader) iter.Seq2[*Word, error] {
	p.reset()
	p.f = &File{}
	p.src = r
	return func(yield func(*Word, error) bool) {
		p.rune()
		p.next()
		for {
			p.got(_Newl)
			w := p.getWord()
			if w == nil {
				if p.tok != _EOF {
					p.curErr("%#q is not a valid word", p.tok)
				}
				if p.err != nil {
					yield(nil, p.err)
				}
				return
			}
			if !yield(w, nil) {
				return
			}
		}
	}
}

// Document parses a single here-document word. That is, it parses the input as
// if they were lines following a <<EOF redirection.
//
// In practice, this is the same as parsing the input as if it were within
// double quotes, but without having to escape all double quote characters.
// Similarly, the here-document word parsed here cannot be ended by any
// delimiter other than reaching the end of the input.
func (p *Parser) Document(r io.Reader) (*Word, error) {
	p.reset()
	if sr, ok := r.(*strings.Reader); ok {
		// llmsh: the text, for the blanks of ${m[ ]} (blankIndex).
		src, _ := readSource(sr)
		p.fullSrc, r = src, bytes.NewReader(src)
		defer func() { p.fullSrc = nil }()
	}
	p.f = &File{}
	p.src = r
	p.rune()
	p.quote = hdocBody
	p.hdocStops = [][]byte{[]byte("MVDAN_CC_SH_SYNTAX_EOF")}
	p.parsingDoc = true
	p.next()
	w := p.getWord()
	return w, p.err
}

// Arithmetic parses a single arithmetic expression. That is, as if the input
// were within the $(( and )) tokens.
func (p *Parser) Arithmetic(r io.Reader) (ArithmExpr, error) {
	p.reset()
	p.f = &File{}
	p.src = r
	p.rune()
	p.quote = arithmExpr
	p.next()
	expr := p.arithmExpr(false)
	return expr, p.err
}

// Parser holds the internal state of the parsing mechanism of a
// program.
type Parser struct {
	src io.Reader
	bs  []byte // current chunk of read bytes
	bsp uint   // offset within [Parser.bs] for the rune after [Parser.r]
	r   rune   // next rune; [runeEOF] when it went past EOF, or we stopped
	w   int    // width of [Parser.r]

	stop func() error // llmsh: StopWhen

	f *File

	spaced bool // whether [Parser.tok] has whitespace on its left

	// casePattern is set while the tokens read are a case item's
	// patterns: @() there is the empty pattern list, as in bash (llmsh).
	casePattern bool

	err     error // lexer/parser error
	readErr error // got a read error, but bytes left
	readEOF bool  // [Parser.src] already gave us an [io.EOF] error

	tok token  // current token
	val string // current value (valid if tok is _Lit*)

	// position of [Parser.r], to be converted to [Parser.pos] later
	offs, line, col int64

	pos Pos // position of tok

	quote   quoteState // current lexer state
	eqlOffs int        // position of '=' in [Parser.val] when [Parser.tok].isLit is true

	keepComments bool
	lang         LangVariant

	stopAt []byte

	recoveredErrors  int
	recoverErrorsMax int

	forbidNested bool

	// list of pending heredoc bodies
	buriedHdocs int
	heredocs    []*Redirect

	hdocStops [][]byte // stack of end words for open heredocs
	// llmsh: hdocBody is the unquoted here-document whose body is
	// being read, for an error inside a $( ) of it (llmsh_hdoc.go).
	hdocBody *hdocPlace
	crMode   int // llmsh: a carriage return's mode (lexer.go, keepCR)

	// llmsh: the lexer of a here-document's body comes back to it
	// within a line (after an expansion or an escaped newline): no
	// tabs are stripped there, and the line is not its start.
	hdocMidLine bool
	// hdocJoin is the text of a here-document's line up to an escaped
	// newline, when it holds no expansion: bash joins the lines before
	// it compares them with the delimiter (EO\⏎F ends <<EOF), and
	// hdocTrim how much of it the body then loses: hdocLine, the
	// line's length, <<-'s tabs too (llmsh).
	hdocJoin           []byte
	hdocLine, hdocTrim int

	parsingDoc bool // true if using [Parser.Document]

	// openNodes tracks how many entire statements or words we're currently parsing.
	// A non-zero number means that we require certain tokens or words before
	// reaching EOF, used for [Parser.Incomplete].
	openNodes int
	// openBquotes is how many levels of backquotes are open at the moment.
	openBquotes int
	// openBquoteDbls is how many of those backquote levels began inside
	// double quotes, where backslashes also escape double quotes.
	openBquoteDbls int

	// lastBquoteEsc is how many times the last backquote token was escaped
	lastBquoteEsc int
	// llmsh: bqBsOdd says the last rune was a backslash that escapes
	// the next one in a backquote's text; bqDouble that rune gives one
	// more backslash (lexer.go).
	bqBsOdd, bqDouble bool
	// llmsh: inside two or more levels of backquotes, bqRaw is how many
	// backslashes of the run being read are still to be given as they
	// are (bquoteRun), and bqEsc+1 the value of lastBquoteEsc for the
	// backquote after them (0: none set).
	bqRaw, bqEsc int
	// llmsh: emptyIndex allows an assignment's empty subscript (a[]=v).
	emptyIndex bool
	// llmsh: dollParenSub holds the offsets of the "$((" that bash reads
	// as "$(" and a subshell (llmsh_arith.go, dblParenComsubs).
	dollParenSub map[int]bool
	// llmsh: comsubDepth counts the $( … ), <( … ) and >( … ) being
	// parsed: bash's status for a conditional command's error inside one
	// is 1 (condErr).
	comsubDepth int
	// llmsh: fullSrc is the whole text being parsed, when the parser
	// has it (parseArithRepair): the blanks of a subscript come from it.
	fullSrc []byte

	rxOpenParens int
	rxFirstPart  bool

	accComs []Comment
	curComs *[]Comment

	litBatch  []Lit
	wordBatch []wordAlloc

	readBuf [bufSize]byte
	litBuf  [bufSize]byte
	litBs   []byte

	// llmsh: a malformed ${…} (llmsh_badsubst.go). badSubst is set
	// while an error is one in the current ${…}'s own structure;
	// rawBs holds the input from offset rawBase that fill discarded
	// while rawDepth ${…} are open.
	badSubst bool
	// replLead (llmsh): the next rune starts the pattern of ${x/…} or
	// ${x//…}, where a slash is the pattern's own (bash: ${x////:}
	// replaces each / by :).
	replLead bool
	badArith byte // 'i' in a ${…}'s subscript, 's' in its slice
	rawDepth int
	rawBase  int64
	rawBs    []byte
	unread   []byte // input to read again (unreadAfter)
}

// Incomplete reports whether the parser needs more input bytes
// to finish properly parsing a statement or word.
//
// It is only safe to call while the parser is blocked on a read. For an example
// use case, see [Parser.Interactive].
func (p *Parser) Incomplete() bool {
	// If there are any open nodes, we need to finish them.
	// If we're constructing a literal, we need to finish it.
	return p.openNodes > 0 || len(p.litBs) > 0
}

const bufSize = 1 << 10

func (p *Parser) reset() {
	p.hdocBody = nil // llmsh
	p.tok, p.val = illegalTok, ""
	p.comsubDepth = 0
	p.crMode = crByState
	p.eqlOffs = 0
	p.bs, p.bsp = nil, 0
	p.offs, p.line, p.col = 0, 1, 1
	p.r, p.w = 0, 0
	p.err, p.readErr, p.readEOF = nil, nil, false
	p.quote, p.forbidNested = noState, false
	p.casePattern = false
	p.openNodes = 0
	p.recoveredErrors = 0
	p.heredocs, p.buriedHdocs = p.heredocs[:0], 0
	p.hdocStops = nil
	p.parsingDoc = false
	p.openBquotes = 0
	p.bqBsOdd, p.bqDouble, p.emptyIndex = false, false, false
	p.bqRaw, p.bqEsc = 0, 0
	p.openBquoteDbls = 0
	p.accComs = nil
	p.accComs, p.curComs = nil, &p.accComs
	// llmsh: litBatch and wordBatch are kept from one parse to the next:
	// their elements are each handed out once, and a script read a
	// command at a time (RunInput) parses a line at a time, which made
	// two new batches of 32 a line.
	p.litBs = nil
	p.badSubst, p.badArith, p.rawDepth, p.rawBs, p.unread = false, 0, 0, p.rawBs[:0], nil
}

// nextPos returns the position of the next rune, [Parser.r].
func (p *Parser) nextPos() Pos {
	// Basic protection against offset overflow;
	// note that an offset of 0 is valid, so we leave the maximum.
	offset := min(p.offs+int64(p.bsp)-int64(p.w), offsetMax)
	var line, col uint
	if p.line <= lineMax {
		line = uint(p.line)
	}
	if p.col <= colMax {
		col = uint(p.col)
	}
	return NewPos(uint(offset), line, col)
}

func (p *Parser) lit(pos Pos, val string) *Lit {
	if len(p.litBatch) == 0 {
		p.litBatch = make([]Lit, 32)
	}
	l := &p.litBatch[0]
	p.litBatch = p.litBatch[1:]
	l.ValuePos = pos
	l.ValueEnd = p.nextPos()
	l.Value = val
	return l
}

type wordAlloc struct {
	word  Word
	parts [1]WordPart
}

func (p *Parser) wordAnyNumber() *Word {
	if len(p.wordBatch) == 0 {
		p.wordBatch = make([]wordAlloc, 32)
	}
	alloc := &p.wordBatch[0]
	p.wordBatch = p.wordBatch[1:]
	w := &alloc.word
	w.Parts = p.wordParts(alloc.parts[:0])
	return w
}

func (p *Parser) wordOne(part WordPart) *Word {
	if len(p.wordBatch) == 0 {
		p.wordBatch = make([]wordAlloc, 32)
	}
	alloc := &p.wordBatch[0]
	p.wordBatch = p.wordBatch[1:]
	w := &alloc.word
	w.Parts = alloc.parts[:1]
	w.Parts[0] = part
	return w
}

func (p *Parser) call(w *Word) *CallExpr {
	var alloc struct {
		ce CallExpr
		ws [4]*Word
	}
	ce := &alloc.ce
	ce.Args = alloc.ws[:1]
	ce.Args[0] = w
	return ce
}

type quoteState uint32

const (
	// The initial state of the parser.
	noState quoteState = 1 << iota

	// Used when parsing parameter expansions; use with [Parser.rune],
	// [Parser.next] always returns [illegalTok].
	runeByRune

	// unquotedWordCont exists purely so that the '#' in $foo#bar does not
	// get parsed as a comment; it's a tiny variation on [noState].
	unquotedWordCont

	subCmd
	subCmdBckquo
	// subCmdBraces is like subCmd, but for `${ stmts;}` and `${|stmts;}`,
	// whose bodies end at a word beginning with `}`.
	subCmdBraces
	dblQuotes
	hdocWord
	hdocBody
	hdocBodyTabs
	arithmExpr
	arithmExprLet
	arithmExprCmd
	testExpr
	testExprRegexp
	switchCase
	// paramExpArithm is a subscript like ${a[i]}, which can be a string key
	// rather than an arithmetic expression when the array is associative.
	paramExpArithm
	// paramExpSlice is a slice like ${a:i:j}, which is always arithmetic.
	paramExpSlice
	paramExpRepl
	paramExpExp
	arrayElems

	allKeepSpaces = runeByRune | paramExpRepl | dblQuotes | hdocBody |
		hdocBodyTabs | paramExpRepl | paramExpExp
	allRegTokens = noState | unquotedWordCont | subCmd | subCmdBckquo | subCmdBraces |
		hdocWord | switchCase | arrayElems | testExpr
	allArithmExpr = arithmExpr | arithmExprLet | arithmExprCmd |
		paramExpArithm | paramExpSlice
	allParamExp = paramExpArithm | paramExpSlice | paramExpRepl | paramExpExp
)

type saveState struct {
	quote       quoteState
	buriedHdocs int
	badSubst    bool
}

func (p *Parser) preNested(quote quoteState) (s saveState) {
	s.quote, s.buriedHdocs, s.badSubst = p.quote, p.buriedHdocs, p.badSubst
	p.buriedHdocs, p.quote = len(p.heredocs), quote
	p.badSubst = false // llmsh: errors in $( ) stay parse errors
	return s
}

func (p *Parser) postNested(s saveState) {
	p.quote, p.buriedHdocs, p.badSubst = s.quote, s.buriedHdocs, s.badSubst
}

// literalHdocWord turns the expansions in the parts of a here-document's
// delimiter into their text, as bash reads the delimiter (llmsh).
func literalHdocWord(parts []WordPart) {
	for i, wp := range parts {
		switch wp := wp.(type) {
		case *DblQuoted:
			literalHdocWord(wp.Parts)
		case *ParamExp, *CmdSubst, *ArithmExp:
			var sb strings.Builder
			if NewPrinter().Print(&sb, wp) == nil {
				text := sb.String()
				if cs, ok := wp.(*CmdSubst); ok && cs.Backquotes && strings.HasPrefix(text, "$(") && strings.HasSuffix(text, ")") {
					text = "`" + text[2:len(text)-1] + "`" // as written: <<`x` wants `x`
				}
				parts[i] = &Lit{ValuePos: wp.Pos(), ValueEnd: wp.End(), Value: text}
			}
		}
	}
}

// HeredocDelim is the delimiter word w of a here-document with its quotes
// removed, and whether any part of it was quoted (then the document's
// body is not expanded) (llmsh).
func HeredocDelim(w *Word) (string, bool) {
	b, quoted := (*Parser)(nil).unquotedWordBytes(w)
	return string(b), quoted
}

func (p *Parser) unquotedWordBytes(w *Word) ([]byte, bool) {
	buf := make([]byte, 0, 4)
	didUnquote := false
	for _, wp := range w.Parts {
		var quoted bool
		buf, quoted = p.unquotedWordPart(buf, wp, false)
		// llmsh: any quoted part quotes the delimiter (E"O"F), as bash;
		// the last part alone decided.
		didUnquote = didUnquote || quoted
	}
	return buf, didUnquote
}

func (p *Parser) unquotedWordPart(buf []byte, wp WordPart, quotes bool) (_ []byte, quoted bool) {
	switch wp := wp.(type) {
	case *Lit:
		for i := 0; i < len(wp.Value); i++ {
			if b := wp.Value[i]; b == '\\' && !quotes {
				if i++; i < len(wp.Value) {
					buf = append(buf, wp.Value[i])
				}
				quoted = true
			} else {
				buf = append(buf, b)
			}
		}
	case *SglQuoted:
		buf = append(buf, []byte(wp.Value)...)
		quoted = true
	case *DblQuoted:
		for _, wp2 := range wp.Parts {
			buf, _ = p.unquotedWordPart(buf, wp2, true)
		}
		quoted = true
	}
	return buf, quoted
}

func (p *Parser) doHeredocs() {
	hdocs := p.heredocs[p.buriedHdocs:]
	if len(hdocs) == 0 {
		// Nothing do do; don't even issue a read.
		return
	}
	p.rune() // consume '\n', since we know p.tok == _Newl
	old, oldMid := p.quote, p.hdocMidLine
	defer func() { p.hdocMidLine = oldMid }() // a body read inside $( ) of another
	p.heredocs = p.heredocs[:p.buriedHdocs]
	for i, r := range hdocs {
		if p.err != nil {
			break
		}
		p.quote = hdocBody
		if r.Op == DashHdoc {
			p.quote = hdocBodyTabs
		}
		stop, quoted := p.unquotedWordBytes(r.Word)
		p.hdocStops = append(p.hdocStops, stop)
		p.hdocMidLine = false
		if i > 0 && p.r == '\n' {
			p.rune()
		}
		if quoted {
			r.Hdoc = p.quotedHdocWord()
		} else {
			p.hdocJoin, p.hdocTrim = nil, 0
			oldBody := p.hdocBody
			p.hdocBody = &hdocPlace{start: int(p.nextPos().Offset()), stop: string(stop), tabs: r.Op == DashHdoc}
			p.next()
			r.Hdoc = p.getWord()
			p.hdocBody = oldBody
			if p.hdocTrim > 0 && r.Hdoc != nil {
				trimHdocTail(r.Hdoc, p.hdocTrim) // llmsh: see hdocJoin
			}
			p.hdocJoin, p.hdocTrim = nil, 0
		}
		if stop := p.hdocStops[len(p.hdocStops)-1]; stop != nil {
			// llmsh: bash reads it to the end of the input and
			// warns (see File.UnclosedHdocs).
			p.f.UnclosedHdocs = append(p.f.UnclosedHdocs, UnclosedHdoc{Pos: r.OpPos, Stop: string(stop)})
		}
		p.hdocStops = p.hdocStops[:len(p.hdocStops)-1]
	}
	p.quote = old
}

func (p *Parser) got(tok token) bool {
	if p.tok == tok {
		p.next()
		return true
	}
	return false
}

func (p *Parser) gotRsrv(val string) (Pos, bool) {
	pos := p.pos
	if p.tok == _LitWord && p.val == val {
		p.next()
		return pos, true
	}
	return pos, false
}

func (p *Parser) recoverError() bool {
	if p.recoveredErrors < p.recoverErrorsMax {
		p.recoveredErrors++
		return true
	}
	return false
}

type noQuote string

func (s noQuote) Format(f fmt.State, verb rune) {
	f.Write([]byte(s))
}

func (t token) Format(f fmt.State, verb rune) {
	if t < _realTokenBoundary && verb == 'q' {
		// EOF, Lit and the others should not be quoted in error messages
		// as they are not real shell syntax like `if` or `{`.
		f.Write([]byte(t.String()))
	} else {
		fmt.Fprintf(f, fmt.FormatString(f, verb), t.String())
	}
}

func (p *Parser) followErr(pos Pos, left, right any) {
	p.posErr(pos, "%#q must be followed by %#q", left, right)
}

func (p *Parser) followErrExp(pos Pos, left any) {
	p.followErr(pos, left, noQuote("an expression"))
}

func (p *Parser) follow(lpos Pos, left string, tok token) {
	if !p.got(tok) {
		p.followErr(lpos, left, tok)
	}
}

func (p *Parser) followRsrv(lpos Pos, left, val string) Pos {
	pos, ok := p.gotRsrv(val)
	if !ok {
		if p.recoverError() {
			return recoveredPos
		}
		p.followErr(lpos, left, val)
	}
	return pos
}

func (p *Parser) followStmts(left string, lpos Pos, stops ...string) ([]*Stmt, []Comment) {
	// Language variants disallowing empty command lists:
	// * [LangPOSIX]: "A list is a sequence of one or more AND-OR lists...".
	// * [LangBash]: "A list is a sequence of one or more pipelines..."
	//
	// Language variants allowing empty command lists:
	// * [LangZsh]: "A list is a sequence of zero or more sublists...".
	// * [LangMirBSDKorn]: "Lists of commands can be created by separating pipelines...";
	//   note that the man page is not explicit, but the shell clearly allows e.g. `{ }`.
	if p.got(semicolon) {
		if p.lang.in(LangZsh | LangMirBSDKorn) {
			return nil, nil // allow an empty list
		}
		p.followErr(lpos, left, noQuote("a statement list"))
		return nil, nil
	}
	stmts, last := p.stmtList(stops...)
	if len(stmts) < 1 {
		if p.lang.in(LangZsh | LangMirBSDKorn) {
			return nil, nil // allow an empty list
		}
		if p.recoverError() {
			return []*Stmt{{Position: recoveredPos}}, nil
		}
		p.followErr(lpos, left, noQuote("a statement list"))
	}
	return stmts, last
}

func (p *Parser) followWordTok(tok token, pos Pos) *Word {
	w := p.getWord()
	if w == nil {
		if p.recoverError() {
			return p.wordOne(&Lit{ValuePos: recoveredPos})
		}
		p.followErr(pos, tok, noQuote("a word"))
	}
	return w
}

func (p *Parser) stmtEnd(n Node, start, end string) Pos {
	pos, ok := p.gotRsrv(end)
	if !ok {
		if p.recoverError() {
			return recoveredPos
		}
		p.posErr(n.Pos(), "%#q statement must end with %#q", start, end)
	}
	return pos
}

func (p *Parser) quoteErr(lpos Pos, quote token) {
	p.posErr(lpos, "reached %#q without closing quote %#q", p.tok, quote)
}

func (p *Parser) matchingErr(lpos Pos, left, right token) {
	p.posErr(lpos, "reached %#q without matching %#q with %#q", p.tok, left, right)
}

func (p *Parser) matched(lpos Pos, left, right token) Pos {
	pos := p.pos
	if !p.got(right) {
		if p.recoverError() {
			return recoveredPos
		}
		p.matchingErr(lpos, left, right)
	}
	return pos
}

func (p *Parser) errPass(err error) {
	if p.badSubst && p.err == nil {
		panic(badSubstErr{err}) // llmsh: caught by paramExp
	}
	if p.err == nil {
		if pe, ok := err.(ParseError); ok && p.comsubDepth > 0 {
			// llmsh
			pe.InSubst, pe.SubstEOF = !pe.Incomplete, pe.Incomplete
			err = pe
		}
		if le, ok := err.(LangError); ok && p.comsubDepth > 0 {
			le.InSubst = true // llmsh: as a ParseError's
			err = le
		}
		if pe, ok := err.(ParseError); ok && p.hdocBody != nil {
			pe.hdoc = p.hdocBody // llmsh_hdoc.go
			err = pe
		}
		if pe, ok := err.(ParseError); ok && p.f != nil && len(p.f.UnclosedHdocs) > 0 {
			pe.Hdocs = slices.Clone(p.f.UnclosedHdocs) // llmsh
			err = pe
		}
		p.err = err
		p.bsp = uint(len(p.bs)) + 1
		p.r = runeEOF
		p.w = 1
		p.tok = _EOF
	}
}

// IsIncomplete reports whether a Parser error could have been avoided with
// extra input bytes. For example, if an [io.EOF] was encountered while there was
// an unclosed quote or parenthesis.
func IsIncomplete(err error) bool {
	perr, ok := err.(ParseError)
	return ok && perr.Incomplete
}

// TODO: probably redo with a [LangVariant] argument.
// Perhaps offer an iterator version as well.

// IsKeyword returns true if the given word is a language keyword
// in POSIX Shell or Bash.
func IsKeyword(word string) bool {
	// This list has been copied from the bash 5.1 source code, file y.tab.c +4460
	// TODO: should we include entries for zsh here? e.g. "{}", "repeat", "always", ...
	switch word {
	case
		"!",
		"[[", // only if COND_COMMAND is defined
		"]]", // only if COND_COMMAND is defined
		"case",
		"coproc", // only if COPROCESS_SUPPORT is defined
		"do",
		"done",
		"elif", // llmsh: missing upstream (bash has it)
		"else",
		"esac",
		"fi",
		"for",
		"function",
		"if",
		"in",
		"select", // only if SELECT_COMMAND is defined
		"then",
		"time", // only if COMMAND_TIMING is defined
		"until",
		"while",
		"{",
		"}":
		return true
	}
	return false
}

// ParseError represents an error found when parsing a source file, from which
// the parser cannot recover.
type ParseError struct {
	Filename string
	Pos      Pos
	Text     string

	Incomplete bool

	// Cond is set for an error in a conditional command ([[ … ]]) that
	// bash's own parser words apart (llmsh): Text is bash's message
	// ("unexpected argument `]]' to conditional binary operator"), or
	// empty where bash prints none (`[[ ]]`), and bash then ends the
	// shell with the status of the last command, not 2.
	Cond bool
	// Status, when not 0, is the status bash ends the script with for
	// this error in place of 2 (llmsh): 1 for an array literal the end of
	// the text leaves open.
	Status uint8
	// Resume is set for an error that bash's parser recovers from
	// (llmsh): a token that is no word in an array literal (`a=(1 ;)`).
	// bash prints it, the status is 1, and it reads on from the line
	// after the error's (see interp.ResumeText).
	Resume bool
	// InSubst is set for an error inside a $( … ), <( … ) or >( … ) that
	// is not at the end of the text (llmsh): bash -c ends with status 127
	// for it, a script file with 2.
	InSubst bool
	// SubstEOF is set for an error at the end of the text inside a
	// $( … ) (llmsh): where the command list is cut short, bash's
	// parse_comsub says "unexpected EOF while looking for matching `)'".
	SubstEOF bool
	// hdoc is the here-document whose body holds the $( … ) (llmsh).
	hdoc *hdocPlace
	// Hdocs are the here-documents that the end of the input ended
	// before the error (llmsh): bash warns of each before the error.
	Hdocs []UnclosedHdoc
	// Quiet is set where bash's lexer gives its parser an error token
	// that ends the input with no message (llmsh): a `for ((` whose first
	// `)` at its depth is not followed by another. A script ends there
	// with the status of its last command; eval and source give 2.
	Quiet bool
	// At is where the token the parser was at began (llmsh): the token
	// bash names as unexpected when Pos is that of the construct left
	// incomplete ("`for foo` must be followed by `do`").
	At Pos
}

func (e ParseError) Error() string {
	if e.Filename == "" {
		return fmt.Sprintf("%s: %s", e.Pos, e.Text)
	}
	return fmt.Sprintf("%s:%s: %s", e.Filename, e.Pos, e.Text)
}

// LangError is returned when the parser encounters code that is only valid in
// other shell language variants. The error includes what feature is not present
// in the current language variant, and what languages support it.
type LangError struct {
	Filename string
	Pos      Pos

	// TODO(v4): replace the Langs slice with a single LangVariant bitset,
	// which is what the parser uses internally already.

	// Feature briefly describes which language feature caused the error.
	Feature string
	// Langs lists some of the language variants which support the feature.
	Langs []LangVariant
	// LangUsed is the language variant used which led to the error.
	LangUsed LangVariant
	// InSubst is ParseError's: the error is inside a $( … ), <( … ) or
	// >( … ) (llmsh).
	InSubst bool
}

func (e LangError) Error() string {
	var sb strings.Builder
	if e.Filename != "" {
		sb.WriteString(e.Filename)
		sb.WriteString(":")
	}
	sb.WriteString(e.Pos.String())
	sb.WriteString(": ")
	sb.WriteString(e.Feature)
	if strings.HasSuffix(e.Feature, "s") {
		sb.WriteString(" are a ")
	} else {
		sb.WriteString(" is a ")
	}
	for i, lang := range e.Langs {
		if i > 0 {
			sb.WriteString("/")
		}
		sb.WriteString(lang.String())
	}
	sb.WriteString(" feature; tried parsing as ")
	sb.WriteString(e.LangUsed.String())
	return sb.String()
}

func (p *Parser) posErr(pos Pos, format string, args ...any) {
	// for i, arg := range args {
	// 	if arg, ok := arg.(fmt.Stringer); ok && arg != _EOF {
	// 		args[i] = quotedToken(arg)
	// 	}
	// }
	p.errPass(ParseError{
		Filename:   p.f.Name,
		Pos:        pos,
		Text:       fmt.Sprintf(format, args...),
		Incomplete: p.tok == _EOF && p.Incomplete(),
		At:         p.pos,
	})
}

// condErr is an error in a conditional command worded as bash words it
// (ParseError.Cond); msg may be empty (llmsh).
func (p *Parser) condErr(msg string) {
	perr := ParseError{Filename: p.f.Name, Pos: p.pos, Text: msg, Cond: true}
	if p.comsubDepth > 0 {
		perr.Status = 1 // `x=$([[ a b ]])`: bash's status is 1
	}
	p.errPass(perr)
}

// condErrAt is [Parser.condErr] for a message that bash says on the line
// of at, the [[ or ( that the error leaves open (llmsh).
func (p *Parser) condErrAt(at Pos, msg string) {
	p.condErr(condLineMark(ParseError{Pos: p.pos}, at) + msg)
}

// condEOFErr is bash's error for the end of the text where a conditional
// command wants an operand (`[[ a &&`, `[[ !`, `[[ (`), when no error came
// before it; it is Incomplete as any error at the end of the text
// (llmsh).
func (p *Parser) condEOFErr() {
	if p.err != nil || p.tok != _EOF {
		return
	}
	p.errPass(ParseError{Filename: p.f.Name, Pos: p.pos, Text: "unexpected token `EOF' in conditional command",
		Cond: true, Incomplete: p.Incomplete(), At: p.pos})
}

// condLineMark starts a line of a conditional command's error text that
// bash says on the line of at rather than the error's own: the marker of
// interp's lineMark, which interp.MsgLine reads (llmsh).
func condLineMark(err ParseError, at Pos) string {
	if d := int(at.Line()) - int(err.Pos.Line()); d != 0 {
		return "\x00" + strconv.Itoa(d) + "\x00"
	}
	return ""
}

// atDblRightBrack reports whether the current token is the `]]` that
// ends a conditional command.
func (p *Parser) atDblRightBrack() bool { return p.tok == _LitWord && p.val == "]]" }

func (p *Parser) curErr(format string, args ...any) {
	p.posErr(p.pos, format, args...)
}

func (p *Parser) checkLang(pos Pos, langSet LangVariant, format string, a ...any) {
	if p.lang.in(langSet) {
		return
	}
	if langBashLike.in(langSet) {
		// If we're reporting an error because a feature is for bash-like funcs,
		// just mention "bash" rather than "bash/bats" for the sake of clarity.
		langSet &^= LangBats
	}
	p.errPass(LangError{
		Filename: p.f.Name,
		Pos:      pos,
		Feature:  fmt.Sprintf(format, a...),
		Langs:    slices.Collect(langSet.bits()),
		LangUsed: p.lang,
	})
}

func (p *Parser) stmts(yield func(*Stmt, error) bool, stops ...string) {
	gotEnd := true
loop:
	for p.tok != _EOF {
		newLine := p.got(_Newl)
		switch p.tok {
		case _LitWord:
			for _, stop := range stops {
				if p.val == stop {
					break loop
				}
			}
			if p.val == "}" {
				p.curErr(`%#q can only be used to close a block`, rightBrace)
			}
		case rightParen:
			if p.quote == subCmd {
				break loop
			}
		case bckQuote:
			if p.backquoteEnd() {
				break loop
			}
		case dblSemicolon, semiAnd, dblSemiAnd, semiOr:
			if p.quote == switchCase {
				break loop
			}
			p.curErr("%#q can only be used in a case clause", p.tok)
		}
		if !newLine && !gotEnd {
			p.curErr("statements must be separated by &, ; or a newline")
		}
		if p.tok == _EOF {
			break
		}
		p.openNodes++
		s := p.getStmt(true, false, false)
		p.openNodes--
		if s == nil {
			p.invalidStmtStart()
			break
		}
		gotEnd = s.Semicolon.IsValid()
		if !yield(s, p.err) {
			break
		}
	}
}

func (p *Parser) stmtList(stops ...string) ([]*Stmt, []Comment) {
	var stmts []*Stmt
	var last []Comment
	fn := func(s *Stmt, err error) bool {
		stmts = append(stmts, s)
		return true
	}
	p.stmts(fn, stops...)
	split := len(p.accComs)
	if p.tok == _LitWord && (p.val == "elif" || p.val == "else" || p.val == "fi") {
		// Split the comments, so that any aligned with an opening token
		// get attached to it. For example:
		//
		//     if foo; then
		//         # inside the body
		//     # document the else
		//     else
		//     fi
		// TODO(mvdan): look into deduplicating this with similar logic
		// in caseItems.
		for i, c := range slices.Backward(p.accComs) {
			if c.Pos().Col() != p.pos.Col() {
				break
			}
			split = i
		}
	}
	if split > 0 { // keep last nil if empty
		last = p.accComs[:split]
	}
	p.accComs = p.accComs[split:]
	return stmts, last
}

func (p *Parser) invalidStmtStart() {
	switch p.tok {
	case semicolon, and, or, andAnd, orOr, andPipe, andBang:
		p.curErr("%#q can only immediately follow a statement", p.tok)
	case rightParen:
		p.curErr("%#q can only be used to close a subshell", p.tok)
	default:
		p.curErr("%#q is not a valid start for a statement", p.tok)
	}
}

func (p *Parser) getWord() *Word {
	if w := p.wordAnyNumber(); len(w.Parts) > 0 && p.err == nil {
		return w
	}
	return nil
}

func (p *Parser) getLit() *Lit {
	if p.tok.isLit() {
		l := p.lit(p.pos, p.val)
		p.next()
		return l
	}
	return nil
}

func (p *Parser) wordParts(wps []WordPart) []WordPart {
	if p.quote == noState {
		p.quote = unquotedWordCont
		defer func() { p.quote = noState }()
	}
	for {
		p.openNodes++
		n := p.wordPart()
		p.openNodes--
		if n == nil {
			if len(wps) == 0 {
				return nil // normalize empty lists into nil
			}
			return wps
		}
		wps = append(wps, n)
		if p.spaced {
			return wps
		}
	}
}

func (p *Parser) ensureNoNested(pos Pos) {
	if p.forbidNested {
		p.posErr(pos, "expansions not allowed in heredoc words")
	}
}

func (p *Parser) wordPart() WordPart {
	switch p.tok {
	case _Lit, _LitWord, _LitRedir:
		l := p.lit(p.pos, p.val)
		p.next()
		return l
	case dollBrace:
		p.ensureNoNested(p.pos)
		if p.lang.in(langBashLike) {
			// llmsh: bash 5.2 has no ${ stmts;} nor ${|stmts;}
			// (5.3 does): a bad substitution (llmsh_badsubst.go).
			return p.paramExp()
		}
		switch p.r {
		case '|':
			p.checkLang(p.pos, langBashLike|LangMirBSDKorn, "`${|stmts;}`")
			fallthrough
		case ' ', '\t', '\n':
			p.checkLang(p.pos, langBashLike|LangMirBSDKorn, "`${ stmts;}`")
			cs := &CmdSubst{
				Left:     p.pos,
				TempFile: p.r != '|',
				ReplyVar: p.r == '|',
			}
			old := p.preNested(subCmdBraces)
			p.rune() // don't tokenize '|'
			p.next()
			cs.Stmts, cs.Last = p.stmtList("}")
			p.postNested(old)
			pos, ok := p.gotRsrv("}")
			if !ok {
				p.matchingErr(cs.Left, dollBrace, rightBrace)
			}
			cs.Right = pos
			return cs
		default:
			return p.paramExp()
		}
	case dollDblParen, dollBrack:
		p.ensureNoNested(p.pos)
		left := p.tok
		ar := &ArithmExp{Left: p.pos, Bracket: left == dollBrack}
		old := p.preNested(arithmExpr)
		p.next()
		if p.got(hash) {
			p.checkLang(ar.Pos(), LangMirBSDKorn, "unsigned expressions")
			ar.Unsigned = true
		}
		if p.lang.in(langBashLike) && (ar.Bracket && p.tok == rightBrack || !ar.Bracket && p.peekArithmEnd()) {
			// llmsh: $(()) and $[] are 0, as bash.
			ar.X, ar.Raw = &Word{Parts: []WordPart{&Lit{ValuePos: p.pos, ValueEnd: p.pos}}}, true
		} else {
			ar.X = p.followArithm(left, ar.Left)
		}
		if ar.Bracket {
			if p.tok != rightBrack {
				if p.recoverError() {
					ar.Right = recoveredPos
					return ar
				}
				p.arithmMatchingErr(ar.Left, dollBrack, rightBrack)
			}
			p.postNested(old)
			ar.Right = p.pos
			p.next()
		} else {
			ar.Right = p.arithmEnd(dollDblParen, ar.Left, old)
		}
		return ar
	case dollParen:
		p.ensureNoNested(p.pos)
		return p.cmdSubst()
	case dollar:
		pe := p.paramExp()
		if pe == nil { // was not actually a parameter expansion, like: "foo$"
			l := p.lit(p.pos, "$")
			p.next()
			return l
		}
		p.ensureNoNested(pe.Dollar)
		return pe
	case assgnParen:
		p.checkLang(p.pos, LangZsh, `%#q process substitutions`, p.tok)
		fallthrough
	case cmdIn, cmdOut:
		p.ensureNoNested(p.pos)
		ps := &ProcSubst{Op: ProcOperator(p.tok), OpPos: p.pos}
		old := p.preNested(subCmd)
		p.next()
		p.comsubDepth++ // llmsh: condErr
		ps.Stmts, ps.Last = p.stmtList()
		p.comsubDepth--
		p.postNested(old)
		ps.Rparen = p.matched(ps.OpPos, token(ps.Op), rightParen)
		return ps
	case sglQuote, dollSglQuote:
		sq := &SglQuoted{Left: p.pos, Dollar: p.tok == dollSglQuote}
		r := p.r
		for p.newLit(r); ; r = p.rune() {
			switch r {
			case '\\':
				if sq.Dollar {
					p.rune()
				}
			case '\'':
				sq.Right = p.nextPos()
				sq.Value = p.endLit()

				p.crMode = crDrop
				p.rune()
				p.crMode = crByState
				p.next()
				return sq
			case escNewl:
				p.litBs = append(p.litBs, '\\', '\n')
			case runeEOF:
				p.crMode = crByState
				p.tok = _EOF
				if p.recoverError() {
					sq.Right = recoveredPos
					return sq
				}
				p.quoteErr(sq.Pos(), sglQuote)
				return nil
			}
		}
	case dblQuote, dollDblQuote:
		if p.quote == dblQuotes {
			// p.tok == dblQuote, as "foo$" puts $ in the lit
			return nil
		}
		return p.dblQuoted()
	case bckQuote:
		if p.backquoteEnd() {
			return nil
		}
		p.ensureNoNested(p.pos)
		cs := &CmdSubst{Left: p.pos, Backquotes: true}
		old := p.preNested(subCmdBckquo)
		p.openBquotes++
		if old.quote == dblQuotes {
			p.openBquoteDbls++
		}

		// The lexer didn't call p.rune for us, so that it could have
		// the right p.openBquotes to properly handle backslashes.
		p.rune()

		p.next()
		cs.Stmts, cs.Last = p.stmtList()
		if p.tok == bckQuote && p.lastBquoteEsc < p.openBquotes-1 {
			// e.g. found ` before the nested backquote \` was closed.
			p.tok = _EOF
			p.quoteErr(cs.Pos(), bckQuote)
		}
		p.postNested(old)
		p.openBquotes--
		if old.quote == dblQuotes {
			p.openBquoteDbls--
		}
		cs.Right = p.pos

		// Like above, the lexer didn't call p.rune for us.
		p.rune()
		if !p.got(bckQuote) {
			if p.recoverError() {
				cs.Right = recoveredPos
			} else {
				p.quoteErr(cs.Pos(), bckQuote)
			}
		}
		return cs
	case leftParen:
		if p.lang.in(LangZsh) && p.r != ')' {
			// Zsh glob qualifier like *(N) or .(:a); the only case where
			// ( immediately after a word is not a glob qualifier is ()
			// for a function declaration, which the parser handles earlier.
			pos := p.pos
			p.pos = p.nextPos()
			for p.newLit(p.r); p.r != runeEOF && p.r != ')'; p.rune() {
			}
			if p.r != ')' {
				p.tok = _EOF // we can only get here due to EOF
				p.matchingErr(pos, leftParen, rightParen)
			}
			p.rune()
			p.val = p.endLit()
			l := p.lit(pos, "("+p.val)
			p.next()
			return l
		}
		return nil
	case globQuest, globStar, globPlus, globAt, globExcl:
		p.checkLang(p.pos, langBashLike|LangMirBSDKorn, "extended globs")
		eg := &ExtGlob{Op: GlobOperator(p.tok), OpPos: p.pos}
		lparens := 1
		r := p.r
	globLoop:
		for p.newLit(r); ; r = p.rune() {
			switch r {
			case runeEOF:
				break globLoop
			case '\\':
				// llmsh: an escaped character (@(a\)), @(a\|b)) or a
				// quoted string (@("a)"|b)) is part of the pattern, as
				// bash reads it.
				if r = p.rune(); r == runeEOF {
					break globLoop
				}
			case '\'', '"':
				if r = p.extGlobQuoted(r); r == runeEOF {
					break globLoop
				}
			case '(':
				lparens++
			case ')':
				if lparens--; lparens == 0 {
					break globLoop
				}
			}
		}
		eg.Pattern = p.lit(posAddCol(eg.OpPos, 2), p.endLit())
		p.rune()
		p.next()
		if lparens != 0 {
			p.matchingErr(eg.OpPos, token(eg.Op), rightParen)
		}
		return eg
	default:
		return nil
	}
}

// extGlobQuoted reads the rest of a string quoted by q within an extended
// pattern, a double-quoted one's escapes included, and returns its last
// rune: q, or runeEOF (llmsh).
func (p *Parser) extGlobQuoted(q rune) rune {
	for {
		r := p.rune()
		switch {
		case r == runeEOF || r == q:
			return r
		case r == '\\' && q == '"':
			if p.rune() == runeEOF {
				return runeEOF
			}
		}
	}
}

func (p *Parser) cmdSubst() *CmdSubst {
	cs := &CmdSubst{Left: p.pos}
	old := p.preNested(subCmd)
	p.next()
	p.comsubDepth++
	cs.Stmts, cs.Last = p.stmtList()
	p.comsubDepth--
	p.postNested(old)
	cs.Right = p.matched(cs.Left, dollParen, rightParen)
	return cs
}

func (p *Parser) dblQuoted() *DblQuoted {
	alloc := &struct {
		quoted DblQuoted
		parts  [1]WordPart
	}{
		quoted: DblQuoted{Left: p.pos, Dollar: p.tok == dollDblQuote},
	}
	q := &alloc.quoted
	old := p.quote
	p.quote = dblQuotes
	p.next()
	q.Parts = p.wordParts(alloc.parts[:0])
	p.quote = old
	q.Right = p.pos
	if !p.got(dblQuote) {
		if p.recoverError() {
			q.Right = recoveredPos
		} else {
			p.quoteErr(q.Pos(), dblQuote)
		}
	}
	return q
}

// paramExp parses a short or full parameter expansion, depending on whether
// [Parser.tok] is [dollar] or [dollBrace]. It returns nil if a [dollar] token
// does not form a valid parameter expansion, in which case it should be parsed
// as a literal.
func (p *Parser) paramExpParse() *ParamExp {
	old := p.quote
	p.quote = runeByRune
	// [ParamExp.Short] means we are parsing $exp rather than ${exp}.
	pe := &ParamExp{
		Dollar: p.pos,
		Short:  p.tok == dollar,
	}
	if !pe.Short && p.r == '(' {
		p.checkLang(pe.Pos(), LangZsh, `parameter expansion flags`)
		// For now, for simplicity, we parse flags as just a literal.
		// In the future, parsing as a word is better for cases like
		// `${(ps.$sep.)val}`.
		lparen := p.nextPos()
		p.rune()
		p.pos = p.nextPos()
		for p.newLit(p.r); p.r != runeEOF && p.r != ')'; p.rune() {
		}
		p.val = p.endLit()
		if p.r != ')' {
			p.tok = _EOF // we can only get here due to EOF
			p.matchingErr(lparen, leftParen, rightParen)
		}
		pe.Flags = p.lit(p.pos, p.val)
		p.rune()
	}
	// Zsh-only prefixes that change how the parameter is expanded.
	// They may appear in any combination, like ${=^name}.
	// Doubling the rune (${==a}, ${~~a}, ${^^a}) forces the option off.
zshPrefixLoop:
	for p.lang.in(LangZsh) {
		var field *OptState
		switch p.r {
		case '=':
			field = &pe.Split
		case '~':
			field = &pe.GlobSubst
		case '^':
			field = &pe.RcExpand
		default:
			break zshPrefixLoop
		}
		next, after := p.peekTwo()
		state := OptOn
		check := next
		if rune(next) == p.r {
			state = OptOff
			check = after
		}
		if check == utf8.RuneSelf || check == '}' {
			break zshPrefixLoop
		}
		// For the short form, only treat as a prefix if followed by something
		// that could start a parameter name or another zsh prefix.
		if pe.Short && check != '=' && check != '~' && check != '^' &&
			!paramNameStartRune(check) {
			break zshPrefixLoop
		}
		if state == OptOff {
			p.rune() // consume the first of the doubled pair
		}
		p.rune()
		*field = state
	}
	if !pe.Short || p.lang.in(LangZsh) {
		// Prefixes, like ${#name} to get the length of a variable.
		// Note that zsh allows the short forms $#name and $+name too,
		// but not $%name nor $!name.
		switch p.r {
		case '#':
			if next, after := p.peekTwo(); !pe.Short && strings.IndexByte("#@*?-$!", next) >= 0 && after != '}' {
				// llmsh: ${##x}, ${###}, ${#@Q} are $# and an operator
				// (bash); ${##}, ${#@} are the length of $#, $@.
				break
			}
			if p.paramNameStart(pe) {
				pe.Length = true
			}
		case '%':
			if !pe.Short && p.paramNameStart(pe) {
				p.checkLang(pe.Pos(), LangMirBSDKorn, "`${%%foo}`")
				pe.Width = true
			}
		case '!':
			// llmsh: bash takes ${!-W} as $! and the - operator, not
			// as an indirection through $-.
			if !pe.Short && p.peek() != '-' && p.paramNameStart(pe) {
				p.checkLang(pe.Pos(), langBashLike|LangMirBSDKorn, "`${!foo}`")
				pe.Excl = true
			}
		case '+':
			if p.paramNameStart(pe) {
				p.checkLang(pe.Pos(), LangZsh, "`${+foo}`")
				pe.IsSet = true
			}
		}
	}
	if pe = p.paramExpParameter(pe); pe == nil {
		p.quote = old
		return nil // just "$"
	}
	// In short mode, any indexing or suffixes is not allowed, and we don't require '}'.
	// Zsh is an exception: $foo[1] and $foo[1,3] are valid. Note that $1[x] does not qualify.
	if pe.Short {
		if p.lang.in(LangZsh) && p.r == '[' && (len(p.val) != 1 || !positionalRuneParam(p.val[0])) {
			p.pos = p.nextPos()
			p.rune()
			pe.Index = p.eitherIndex()
		}
		p.quote = old
		p.next()
		return pe
	}
	// Index expressions like ${foo[1]}. Note that expansion suffixes can be combined,
	// like ${foo[@]//replace/with}.
	if p.r == '[' {
		p.checkLang(p.nextPos(), langBashLike|LangMirBSDKorn|LangZsh, "arrays")
		// In zsh some of these like ${@[-1]} or ${*[1,3]} work,
		// so we don't do this sort of check at all.
		if !p.lang.in(LangZsh) && pe.Param != nil && !ValidName(pe.Param.Value) {
			p.posErr(p.nextPos(), "cannot index a special parameter name")
		}
		p.pos = p.nextPos()
		p.rune()
		p.badArith = 'i' // llmsh: see llmsh_badsubst.go
		pe.Index = p.eitherIndex()
		p.badArith = 0
	}
	tokRune := p.r
	p.pos = p.nextPos()
	p.tok = p.paramToken(p.r)
	if p.tok == rightBrace {
		pe.Rbrace = p.pos
		p.quote = old
		p.badSubst = false // llmsh: what follows is not this ${…}
		p.next()
		return pe
	}
	if p.tok != _EOF && (pe.Length || pe.Width || pe.IsSet) {
		p.curErr("cannot combine multiple parameter expansion operators")
	}
	switch p.tok {
	case slash, dblSlash: // pattern search and replace
		p.checkLang(p.pos, langBashLike|LangMirBSDKorn|LangZsh, "search and replace")
		pe.Repl = &Replace{All: p.tok == dblSlash}
		p.quote = paramExpRepl
		p.replLead = p.r == '/'
		p.next()
		p.replLead = false
		pe.Repl.Orig = p.getWord()
		p.quote = paramExpExp
		if p.got(slash) {
			pe.Repl.With = p.getWord()
		}
	case colon: // slicing
		if p.lang.in(LangZsh) && (p.r == '&' || asciiLetter(p.r)) {
			pos := p.pos
		loop:
			for p.newLit(p.r); ; p.rune() {
				switch p.r {
				case runeEOF:
					p.tok = _EOF
					p.matchingErr(pe.Dollar, dollBrace, rightBrace)
					break loop
				case '}':
					pe.Modifiers = append(pe.Modifiers, p.lit(pos, p.endLit()))
					pe.Rbrace = p.nextPos()
					p.rune()
					break loop
				case ':':
					pe.Modifiers = append(pe.Modifiers, p.lit(pos, p.endLit()))
					p.rune()
					pos = p.nextPos()
					p.newLit(p.r)
				}
			}
			p.quote = old
			p.next()
			return pe
		}
		p.checkLang(p.pos, langBashLike|LangMirBSDKorn|LangZsh, "slicing")
		pe.Slice = &Slice{}
		colonPos := p.pos
		p.quote = paramExpSlice
		p.badArith = 's' // llmsh: see llmsh_badsubst.go
		if p.next(); p.tok == rightBrace && p.lang.in(langBashLike) && p.pos.Offset() > colonPos.Offset()+1 {
			// llmsh: ${s: } has an offset of blanks, which is 0 in
			// bash (${s:} is a bad substitution).
			pe.Slice.Offset = &Word{Parts: []WordPart{&Lit{ValuePos: p.pos, ValueEnd: p.pos, Value: " "}}}
		} else if p.tok != colon {
			pe.Slice.Offset = p.followArithm(colon, colonPos)
			if w := p.arithmRest(pe.Slice.Offset, colon, rightBrace); w != nil {
				pe.Slice.Offset = w // llmsh: ${x:1 2} fails when it runs
			}
		}
		colonPos = p.pos
		if p.got(colon) {
			if p.tok == rightBrace && p.lang.in(langBashLike) {
				// llmsh: ${s:1:} has an empty length, which is 0 in bash.
				pe.Slice.Length = &Word{Parts: []WordPart{&Lit{ValuePos: p.pos, ValueEnd: p.pos, Value: "0"}}}
			} else {
				pe.Slice.Length = p.followArithm(colon, colonPos)
				if w := p.arithmRest(pe.Slice.Length, rightBrace); w != nil {
					pe.Slice.Length = w // llmsh: ${x:1:2:3} fails when it runs
				}
				pe.Slice.LengthText = p.sliceText(colonPos)
			}
		}
		// Need to use a different matched style so arithm errors
		// get reported correctly
		p.quote = old
		pe.Rbrace = p.pos
		p.badArith = 0
		if p.tok == rightBrace {
			p.badSubst = false // llmsh: what follows is not this ${…}
		}
		p.matchedArithm(pe.Dollar, dollBrace, rightBrace)
		return pe
	case caret, dblCaret, comma, dblComma, tilde, dblTilde: // upper/lower case; llmsh: toggle
		p.checkLang(p.pos, langBashLike, "this expansion operator")
		if pe.Param != nil && !pe.Excl && p.lang.in(langBashLike) {
			switch pe.Param.Value {
			case "-", "?", "#":
				// llmsh: bash reads ${-^}, ${?,,}, ${#~} as the
				// name "-^" (its second scan of a special name
				// stops at none of ^ , ~): a bad substitution.
				p.curErr("not a valid parameter expansion operator: %#q", p.tok)
			}
		}
		pe.Exp = p.paramExpExp()
	case at, star:
		switch {
		case p.tok == star && (!pe.Excl || p.r != '}'):
			// llmsh: ${!a*:1}, ${!a*#x}: bash's bad substitution.
			p.curErr("not a valid parameter expansion operator: %#q", p.tok)
		case pe.Excl && p.r == '}':
			p.checkLang(pe.Pos(), langBashLike, "`${!foo%s}`", p.tok)
			pe.Names = ParNamesOperator(p.tok)
			p.next()
		case p.tok == at:
			p.checkLang(p.pos, langBashLike|LangMirBSDKorn, "this expansion operator")
			fallthrough
		default:
			pe.Exp = p.paramExpExp()
		}
	case plus, colPlus, minus, colMinus, quest, colQuest, assgn, colAssgn,
		perc, dblPerc, hash, dblHash, colHash, colPipe, colStar:
		pe.Exp = p.paramExpExp()
	case _EOF:
	default:
		if paramNameRune(tokRune) {
			if pe.Param != nil {
				p.curErr("%#q cannot be followed by a word", pe.Param.Value)
			} else {
				p.curErr("nested parameter expansion cannot be followed by a word")
			}
		} else {
			p.curErr("not a valid parameter expansion operator: %#q", string(tokRune))
		}
	}
	if p.tok != _EOF && p.tok != rightBrace {
		p.tok = p.paramToken(p.r)
	}
	p.quote = old
	if p.tok == rightBrace {
		p.badSubst = false // llmsh: what follows is not this ${…}
	}
	pe.Rbrace = p.matched(pe.Dollar, dollBrace, rightBrace)
	return pe
}

// paramNameStart reports whether a parameter name can begin after a prefix rune
// such as the '#' in ${#foo}, consuming the prefix rune if so.
// Only the long form allows a quoted nested expansion like ${#"$(foo)"} or EOF;
// in the short form the prefix rune is the parameter itself, as in "$#" or $#"$foo".
func (p *Parser) paramNameStart(pe *ParamExp) bool {
	r := p.peek()
	if paramNameStartRune(r) || (!pe.Short && (r == '"' || r == utf8.RuneSelf)) {
		p.rune()
		return true
	}
	return false
}

func (p *Parser) nestedParameterStart(pe *ParamExp) (left token, quotePos Pos) {
	if pe.Short {
		return illegalTok, Pos{}
	}
	if p.r == '"' {
		quotePos = p.nextPos()
		p.rune()
	}
	if p.r != '$' {
		if quotePos.IsValid() {
			return dollar, quotePos
		}
		return illegalTok, Pos{}
	}
	switch p1 := p.peek(); p1 {
	case '{', '(':
		p.pos = p.nextPos()
		p.checkLang(p.pos, LangZsh, "nested parameter expansions")
		if p.err != nil {
			return illegalTok, Pos{} // xxx given that we overwrite p.tok below
		}
		p.rune()
		p.rune()
		if p1 == '{' {
			left = dollBrace
		} else { // '('
			left = dollParen
		}
	}
	return left, quotePos
}

func (p *Parser) paramExpParameter(pe *ParamExp) *ParamExp {
	// Check for Zsh nested parameter expressions like ${(f)"$(foo)"}.
	if left, quotePos := p.nestedParameterStart(pe); left != illegalTok {
		var wp WordPart
		switch p.tok = left; p.tok {
		case dollBrace: // ${#${nested parameter}}
			p.tok = dollBrace
			wp = p.paramExp()
		case dollParen: // ${#$(nested command)}
			wp = p.cmdSubst()
		default: // dollar
			p.posErr(pe.Pos(), "invalid nested parameter expansion")
		}
		if quotePos.IsValid() {
			if p.r != '"' {
				p.tok = p.paramToken(p.r)
				if p.tok == illegalTok {
					p.posErr(pe.Pos(), "invalid nested parameter expansion")
				} else {
					p.quoteErr(quotePos, dblQuote)
				}
			}
			pe.NestedParam = &DblQuoted{
				Left:  quotePos,
				Right: p.nextPos(),
				Parts: []WordPart{wp},
			}
			p.rune()
		} else {
			pe.NestedParam = wp
		}
		return pe
	}
	// The parameter name itself, like $foo or $?.
	switch p.r {
	case '?', '-':
		if pe.Length && p.peek() != '}' {
			// actually ${#-default}, not ${#-}; fix the ambiguity
			pe.Length = false
			pos := p.nextPos()
			pe.Param = p.lit(posAddCol(pos, -1), "#")
			pe.Param.ValueEnd = pos
			break
		}
		fallthrough
	case '@', '*', '#', '!', '$':
		r, pos := p.r, p.nextPos()
		p.rune()
		pe.Param = p.lit(pos, string(r))
	default:
		// Note that $1a is equivalent to ${1}a, but ${1a} is not.
		// POSIX Shell says the latter is unspecified behavior, so match Bash's behavior.
		pos := p.nextPos()
		if pe.Short && singleRuneParam(p.r) {
			p.val = string(p.r)
			p.rune()
		} else {
			for p.newLit(p.r); p.r != runeEOF; p.rune() {
				if !paramNameRune(p.r) && p.r != escNewl {
					break
				}
			}
			p.val = p.endLit()
			if !numberLiteral(p.val) && !ValidName(p.val) {
				if pe.Short {
					return nil // just "$"
				}
				if p.lang.in(LangZsh) && p.val == "" {
					// Zsh allows omitting the parameter name, e.g. ${:-word}.
					return pe
				}
				p.posErr(pos, "invalid parameter name")
			}
		}
		pe.Param = p.lit(pos, p.val)
	}
	return pe
}

func (p *Parser) paramExpExp() *Expansion {
	op := ParExpOperator(p.tok)
	switch op {
	case MatchEmpty, ArrayExclude, ArrayIntersect:
		p.checkLang(p.pos, LangZsh, "${name%sarg}", op)
	}
	p.quote = paramExpExp
	p.next()
	if op == OtherParamOps {
		// llmsh: bash reads ${x@} as an unknown operator (below).
		if !p.tok.isLit() && (p.tok != rightBrace || !p.lang.in(langBashLike)) {
			p.curErr("@ expansion operator requires a literal")
		}
		switch p.val {
		case "a", "k", "u", "A", "E", "K", "L", "P", "U":
			p.checkLang(p.pos, langBashLike, "this expansion operator")
		case "#":
			p.checkLang(p.pos, LangMirBSDKorn, "this expansion operator")
		case "Q":
		default:
			// llmsh: bash says "bad substitution" when it expands
			// a set variable so (expand/param.go).
			if !p.lang.in(langBashLike) {
				p.curErr("invalid @ expansion operator %#q", p.val)
			}
		}
	}
	return &Expansion{Op: op, Word: p.getWord()}
}

func (p *Parser) eitherIndex() ArithmExpr {
	old := p.quote
	lpos := p.pos
	p.quote = paramExpArithm
	p.next()
	if p.tok == star || p.tok == at {
		p.tok, p.val = _LitWord, p.tok.String()
	}
	var expr ArithmExpr
	if w := p.blankIndex(lpos); w != nil {
		expr = w // llmsh: ${m[ ]}, m[ ]=v: the key is the blanks
	} else if p.tok == rightBrack && p.emptyIndex && p.lang.in(langBashLike) {
		// llmsh: a[]=v is bash's run-time "a[]: bad array subscript".
		expr = &Word{Parts: []WordPart{&Lit{ValuePos: p.pos, ValueEnd: p.pos}}}
	} else {
		expr = p.followArithm(leftBrack, lpos)
		if w := p.arithmRest(expr, rightBrack); w != nil {
			expr = w // llmsh: m[a b], ${m[k 1]}, ([x y]=v)
		}
		if w, ok := expr.(*Word); ok && p.tok == rightBrack && p.lang.in(langBashLike) {
			expr = p.blankedIndex(w, p.pos) // llmsh: m[ k ]
		}
	}
	p.quote = old
	p.matchedArithm(lpos, leftBrack, rightBrack)
	return expr
}

func (p *Parser) zshSubFlags() *FlagsArithm {
	zf := &FlagsArithm{}
	// Lex flags as raw text, like paramExp does for ${(flags)...}.
	lparen := p.pos
	old := p.quote
	p.quote = runeByRune
	p.pos = p.nextPos()
	for p.newLit(p.r); p.r != runeEOF && p.r != ')'; p.rune() {
	}
	p.val = p.endLit()
	if p.r != ')' {
		p.tok = _EOF
		p.matchingErr(lparen, leftParen, rightParen)
	}
	zf.Flags = p.lit(p.pos, p.val)
	p.rune()
	// Lex the argument as a raw pattern, stopping at ',' or ']',
	// since zsh treats it as a pattern rather than an arithmetic expression.
	argPos := p.nextPos()
	for p.newLit(p.r); p.r != runeEOF && p.r != ',' && p.r != ']'; p.rune() {
	}
	if val := p.endLit(); val != "" {
		zf.X = p.wordOne(p.lit(argPos, val))
	}
	p.quote = old
	p.next()
	return zf
}

func (p *Parser) stopToken() bool {
	switch p.tok {
	case _EOF, _Newl, semicolon, and, or, andAnd, orOr, orAnd, andPipe, andBang,
		dblSemicolon, semiAnd, dblSemiAnd, semiOr, rightParen:
		return true
	case bckQuote:
		return p.backquoteEnd()
	}
	return false
}

func (p *Parser) backquoteEnd() bool {
	return p.lastBquoteEsc < p.openBquotes
}

// ValidName returns whether val is a valid name as per the POSIX spec.
func ValidName(val string) bool {
	if val == "" {
		return false
	}
	for i, r := range val {
		switch {
		case asciiLetter(r), r == '_':
		case i > 0 && asciiDigit(r):
		default:
			return false
		}
	}
	return true
}

func numberLiteral[T string | []byte](val T) bool {
	if len(val) == 0 {
		return false
	}
	for _, r := range string(val) {
		if !asciiDigit(r) {
			return false
		}
	}
	return true
}

func (p *Parser) hasValidIdent() bool {
	if !p.tok.isLit() {
		return false
	}
	if end := p.eqlOffs; end > 0 {
		if p.val[end-1] == '+' && p.lang.in(langBashLike|LangMirBSDKorn|LangZsh) {
			end-- // a+=x
		}
		if ValidName(p.val[:end]) {
			return true
		}
	} else if !ValidName(p.val) {
		return false // *[i]=x
	}
	return p.r == '[' // a[i]=x
}

// assignStart reports whether the current word starts an assignment of
// a simple command: as hasValidIdent, and for NAME[…] (llmsh) only when
// "=" or "+=" follows the "]" that closes it, as bash's parser decides
// (`a[1=2]` and `a[1]x` are command names). Without the source
// (fullSrc), NAME[ is taken as an assignment, as upstream did.
func (p *Parser) assignStart() bool {
	if !p.hasValidIdent() || p.eqlOffs > 0 || !p.lang.in(langBashLike) {
		return p.hasValidIdent()
	}
	src := p.fullSrc
	i := int(p.pos.Offset()) + len(p.val) // the "["
	if i >= len(src) || src[i] != '[' || string(src[p.pos.Offset():i]) != p.val {
		return true
	}
	j, ok := closeOf(src, i+1, '[', ']')
	if !ok || bytes.IndexByte(src[i:j], '\n') >= 0 {
		return true // bash's "unexpected EOF while looking for matching `]'"
	}
	rest := src[j+1:]
	return bytes.HasPrefix(rest, []byte("=")) || bytes.HasPrefix(rest, []byte("+="))
}

// declAssignStart reports whether the current word, which hasValidIdent,
// is an assignment of a declaration builtin (llmsh): NAME[ is one only
// when its ] closes it in the same word, as bash reads the arguments as
// words (`declare x[=3` and `declare x[a b]=1` name no variable: "not a
// valid identifier", not a syntax error). A subscript with an expansion
// or a quote is taken as an assignment, as before.
func (p *Parser) declAssignStart() bool {
	if p.eqlOffs > 0 || !p.lang.in(langBashLike) {
		return true
	}
	src := p.fullSrc
	i := int(p.pos.Offset()) + len(p.val) // the "["
	if i >= len(src) || src[i] != '[' || string(src[p.pos.Offset():i]) != p.val {
		return true
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '$', '`', '\\', '\'', '"':
			return true
		case ']':
			// llmsh: and "=", "+=" or the word's end follows the "]"
			// that closes it: `declare a[1]x=1` and `a[1]"x"` are
			// words ("not a valid identifier"), as bash's.
			k, ok := closeOf(src, i+1, '[', ']')
			if !ok {
				return true
			}
			rest := src[k+1:]
			return len(rest) == 0 || bytes.HasPrefix(rest, []byte("=")) || bytes.HasPrefix(rest, []byte("+=")) ||
				bytes.IndexByte([]byte(" \t\n;&|<>()"), rest[0]) >= 0
		case ' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')':
			return false
		}
	}
	return false
}

func (p *Parser) getAssign(needEqual bool) *Assign {
	as := &Assign{}
	if p.eqlOffs > 0 { // foo=bar
		nameEnd := p.eqlOffs
		if p.lang.in(langBashLike|LangMirBSDKorn|LangZsh) && p.val[p.eqlOffs-1] == '+' {
			// a+=b
			as.Append = true
			nameEnd--
		}
		as.Name = p.lit(p.pos, p.val[:nameEnd])
		// since we're not using the entire p.val
		as.Name.ValueEnd = posAddCol(as.Name.ValuePos, nameEnd)
		left := p.lit(posAddCol(p.pos, 1), p.val[p.eqlOffs+1:])
		if left.Value != "" {
			left.ValuePos = posAddCol(left.ValuePos, p.eqlOffs)
			as.Value = p.wordOne(left)
		}
		p.next()
	} else { // foo[x]=bar
		as.Name = p.lit(p.pos, p.val)
		// hasValidIdent already checks p.r is '['
		p.rune()
		p.pos = posAddCol(p.pos, 1)
		p.emptyIndex = true
		as.Index = p.eitherIndex()
		p.emptyIndex = false
		if p.spaced || p.stopToken() || !needEqual && p.peekRedir() {
			// llmsh: a redirection right after a declaration's
			// a[1] (declare a[1]>f), as bash.
			if needEqual {
				p.followErr(as.Pos(), "a[b]", assgn)
			} else {
				as.Naked = true
				return as
			}
		}
		if p.tok == assgnParen {
			if !p.lang.in(LangZsh | langBashLike) {
				p.curErr("arrays cannot be nested")
				return nil
			}
			// zsh allows a[i]=(values...). llmsh: bash parses it, and
			// refuses it when it runs ("cannot assign list to array
			// member").
			// assgnParen consumed both '=' and '(',
			// so rewrite as leftParen for array parsing below.
			p.tok = leftParen
			p.pos = posAddCol(p.pos, 1)
		} else {
			if len(p.val) > 0 && p.val[0] == '+' {
				as.Append = true
				p.val = p.val[1:]
				p.pos = posAddCol(p.pos, 1)
			}
			if len(p.val) < 1 || p.val[0] != '=' {
				if as.Append {
					p.followErr(as.Pos(), "a[b]+", assgn)
				} else {
					p.followErr(as.Pos(), "a[b]", assgn)
				}
				return nil
			}
			p.pos = posAddCol(p.pos, 1)
			p.val = p.val[1:]
			if p.val == "" {
				p.next()
			}
		}
	}
	if p.spaced || p.stopToken() {
		return as
	}
	if as.Value == nil && p.tok == leftParen {
		p.checkLang(p.pos, langBashLike|LangMirBSDKorn|LangZsh, "arrays")
		as.Array = &ArrayExpr{Lparen: p.pos}
		newQuote := p.quote
		if p.lang.in(langBashLike | LangZsh) {
			newQuote = arrayElems
		}
		old := p.preNested(newQuote)
		p.next()
		p.got(_Newl)
		for p.tok != _EOF && p.tok != rightParen {
			ae := &ArrayElem{}
			ae.Comments, p.accComs = p.accComs, nil
			if p.tok == leftBrack {
				left := p.pos
				// llmsh: ([]=v) is bash's run-time "bad array
				// subscript".
				p.emptyIndex = true
				ae.Index = p.eitherIndex()
				p.emptyIndex = false
				if p.tok == assgnParen {
					p.curErr("arrays cannot be nested")
					return nil
				}
				if p.tok == addAssgn {
					ae.Append = true // llmsh: ([i]+=v)
					p.next()
				} else {
					p.follow(left, `[x]`, assgn)
				}
			}
			// llmsh: ([k]= v) is an empty element, then v (bash).
			spacedEmpty := ae.Index != nil && p.spaced
			if !spacedEmpty {
				ae.Value = p.getWord()
			}
			if ae.Value == nil && !spacedEmpty {
				switch p.tok {
				case _Newl, rightParen, leftBrack:
					// TODO: support [index]=[
				default:
					p.curErr("array element values must be words")
					if pe, ok := p.err.(ParseError); ok {
						pe.Resume, pe.Status = true, 1 // llmsh
						p.err = pe
					}
					return nil
				}
			}
			if len(p.accComs) > 0 {
				c := p.accComs[0]
				if c.Pos().Line() == ae.End().Line() {
					ae.Comments = append(ae.Comments, c)
					p.accComs = p.accComs[1:]
				}
			}
			as.Array.Elems = append(as.Array.Elems, ae)
			p.got(_Newl)
		}
		as.Array.Last, p.accComs = p.accComs, nil
		p.postNested(old)
		eof := p.tok == _EOF && p.err == nil
		as.Array.Rparen = p.matched(as.Array.Lparen, leftParen, rightParen)
		if pe, ok := p.err.(ParseError); ok && eof {
			pe.Status = 1 // llmsh: bash's status for `a=(x` at the end
			p.err = pe
		}
		if !p.spaced && p.err == nil && p.lang.in(langBashLike) && !p.stopToken() && !p.peekRedir() && p.tok != leftParen {
			// llmsh: text glued after the ")" (a=(x)=y, a=(1 2)z)
			// makes the word a plain assignment of the text, as
			// bash's: "(x)=y", the elements joined by spaces.
			if w := p.getWord(); w != nil {
				as.Value = p.compoundText(as.Array, w)
				as.Array = nil
			}
		}
	} else if w := p.getWord(); w != nil {
		if as.Value == nil {
			as.Value = w
		} else {
			as.Value.Parts = append(as.Value.Parts, w.Parts...)
		}
	}
	return as
}

// compoundText is the value bash gives an assignment whose compound
// array arr has the word rest glued after its ")": "(", the elements'
// words joined by single spaces, ")", then rest; an element's
// subscript is its source text (llmsh: getAssign).
func (p *Parser) compoundText(arr *ArrayExpr, rest *Word) *Word {
	lit := func(pos Pos, s string) *Lit { return &Lit{ValuePos: pos, ValueEnd: pos, Value: s} }
	w := &Word{Parts: []WordPart{lit(arr.Lparen, "(")}}
	for i, ae := range arr.Elems {
		if i > 0 {
			w.Parts = append(w.Parts, lit(ae.Pos(), " "))
		}
		if ae.Index != nil {
			text := ""
			if src, i := p.fullSrc, int(ae.Index.Pos().Offset()); src != nil && i > 0 && int(ae.Index.End().Offset()) <= len(src) {
				text = string(src[i-1 : ae.Index.End().Offset()])
			}
			op := "]="
			if ae.Append {
				op = "]+="
			}
			w.Parts = append(w.Parts, lit(ae.Pos(), text+op))
		}
		if ae.Value != nil {
			w.Parts = append(w.Parts, ae.Value.Parts...)
		}
	}
	w.Parts = append(w.Parts, lit(arr.Rparen, ")"))
	w.Parts = append(w.Parts, rest.Parts...)
	return w
}

func (p *Parser) peekRedir() bool {
	switch p.tok {
	case _LitRedir, rdrOut, appOut, rdrIn, rdrInOut, dplIn, dplOut,
		rdrClob, appClob, hdoc, dashHdoc, wordHdoc,
		rdrAll, rdrAllClob, appAll, appAllClob:
		return true
	}
	return false
}

func (p *Parser) doRedirect(s *Stmt) {
	var r *Redirect
	if s.Redirs == nil {
		var alloc struct {
			redirs [4]*Redirect
			redir  Redirect
		}
		s.Redirs = alloc.redirs[:0]
		r = &alloc.redir
		s.Redirs = append(s.Redirs, r)
	} else {
		r = &Redirect{}
		s.Redirs = append(s.Redirs, r)
	}
	r.N = p.getLit()
	if r.N != nil && r.N.Value[0] == '{' {
		p.checkLang(r.N.Pos(), langBashLike|LangZsh, "`{varname}` redirects")
	}
	r.Op, r.OpPos = RedirOperator(p.tok), p.pos
	switch r.Op {
	case RdrAll, AppAll:
		p.checkLang(p.pos, langBashLike|LangMirBSDKorn|LangZsh, "%#q redirects", r.Op)
	case AppClob, RdrAllClob, AppAllClob:
		p.checkLang(p.pos, LangZsh, "%#q redirects", r.Op)
	}
	if (r.Op == DplIn || r.Op == DplOut) && p.r == '-' && p.lang.in(langBashLike) {
		if p1 := p.peek(); p1 != ' ' && p1 != '\t' && p1 != '\n' && p1 != ';' && p1 != '&' && p1 != '|' && p1 != ')' && p1 != '<' && p1 != '>' && p1 != utf8.RuneSelf {
			// llmsh: bash's lexer takes a '-' after >& or <& as a
			// token of its own: `>&-1` closes the descriptor and
			// 1 is the next word.
			pos := p.nextPos()
			p.rune()
			r.Word = p.wordOne(p.lit(pos, "-"))
			p.next()
			return
		}
	}
	p.next()
	switch r.Op {
	case Hdoc, DashHdoc:
		old := p.quote
		// llmsh: bash takes $x, ${x}, $(cmd) in the delimiter as the
		// text they are written as (literalHdocWord).
		bash := p.lang.in(langBashLike)
		p.quote, p.forbidNested = hdocWord, !bash
		p.heredocs = append(p.heredocs, r)
		r.Word = p.followWordTok(token(r.Op), r.OpPos)
		p.quote, p.forbidNested = old, false
		if bash && r.Word != nil {
			literalHdocWord(r.Word.Parts)
		}
		if p.tok == _Newl {
			if len(p.accComs) > 0 {
				c := p.accComs[0]
				if c.Pos().Line() == s.End().Line() {
					s.Comments = append(s.Comments, c)
					p.accComs = p.accComs[1:]
				}
			}
			p.doHeredocs()
		}
	case WordHdoc:
		p.checkLang(r.OpPos, langBashLike|LangMirBSDKorn|LangZsh, "herestrings")
		fallthrough
	default:
		r.Word = p.followWordTok(token(r.Op), r.OpPos)
	}
}

func (p *Parser) getStmt(readEnd, binCmd, fnBody bool) *Stmt {
	pos, ok := p.gotRsrv("!")
	s := &Stmt{Position: pos}
	bare := false
	if ok {
		s.Negated = true
		p.moreNegations(s)
		if p.stopToken() {
			switch p.tok {
			case _EOF, _Newl, semicolon:
				// llmsh: as bash, `!` alone negates an empty
				// command: status 1.
				bare = true
			default:
				// llmsh: bash names the token after it (`! | x`).
				p.curErr(`%#q cannot form a statement alone`, exclMark)
			}
		}
	}
	if bare {
		// no command
	} else if s = p.gotStmtPipe(s, false); s == nil || p.err != nil {
		return nil
	}
	// instead of using recursion, iterate manually
	ops := 0
	for p.tok == andAnd || p.tok == orOr {
		if binCmd {
			// left associativity: in a list of BinaryCmds, the
			// right recursion should only read a single element
			return s
		}
		if ops++; ops > MaxListOps {
			p.listTooLong(p.pos)
			return nil
		}
		b := &BinaryCmd{
			OpPos: p.pos,
			Op:    BinCmdOperator(p.tok),
			X:     s,
		}
		p.next()
		p.got(_Newl)
		b.Y = p.getStmt(false, true, false)
		if b.Y == nil || p.err != nil {
			if p.recoverError() {
				b.Y = &Stmt{Position: recoveredPos}
			} else {
				p.followErr(b.OpPos, b.Op, noQuote("a statement"))
				return nil
			}
		}
		s = &Stmt{Position: s.Position}
		s.Cmd = b
		s.Comments, b.X.Comments = b.X.Comments, nil
	}
	if readEnd {
		switch p.tok {
		case semicolon:
			s.Semicolon = p.pos
			p.next()
		case and:
			s.Semicolon = p.pos
			p.next()
			s.Background = true
		case orAnd:
			s.Semicolon = p.pos
			p.next()
			s.Coprocess = true
		case andPipe, andBang:
			s.Semicolon = p.pos
			p.next()
			s.Disown = true
		}
	}
	if len(p.accComs) > 0 && !binCmd && !fnBody {
		c := p.accComs[0]
		if c.Pos().Line() == s.End().Line() {
			s.Comments = append(s.Comments, c)
			p.accComs = p.accComs[1:]
		}
	}
	return s
}

func (p *Parser) gotStmtPipe(s *Stmt, binCmd bool) *Stmt {
	s.Comments, p.accComs = p.accComs, nil
	for p.peekRedir() {
		p.doRedirect(s)
	}
	redirsStart := len(s.Redirs)
	switch p.tok {
	case _LitWord:
		switch p.val {
		case "{":
			p.block(s)
		case "{}":
			// Zsh treats closing braces in a special way, allowing this.
			if p.lang.in(LangZsh) {
				s.Cmd = &Block{Lbrace: p.pos, Rbrace: posAddCol(p.pos, 1)}
				p.next()
			}
		case "if":
			p.ifClause(s)
		case "while", "until":
			// TODO(zsh): "repeat"
			p.whileClause(s, p.val == "until")
		case "for":
			p.forClause(s)
		case "case":
			p.caseClause(s)
		// TODO(zsh): { try-list } "always" { always-list }
		case "}":
			p.curErr(`%#q can only be used to close a block`, rightBrace)
		case "then", "elif", "else":
			p.curErr("%#q can only be used in an `if`", p.val)
		case "fi":
			p.curErr("%#q can only be used to end an `if`", p.val)
		case "do":
			p.curErr(`%#q can only be used in a loop`, p.val)
		case "done":
			p.curErr(`%#q can only be used to end a loop`, p.val)
		case "esac":
			p.curErr("%#q can only be used to end a `case`", p.val)
		case "in":
			// llmsh: a reserved word of bash, a syntax error where a
			// command starts.
			p.curErr("%#q can only be used in a `for`, `select` or `case`", p.val)
		case "!":
			if !s.Negated {
				p.curErr(`%#q can only be used in full statements`, exclMark)
				break
			}
		case "[[":
			if p.lang.in(langBashLike | LangMirBSDKorn | LangZsh) {
				p.testClause(s)
			}
		case "]]":
			if p.lang.in(langBashLike | LangMirBSDKorn | LangZsh) {
				p.curErr(`%#q can only be used to close a test`, dblRightBrack)
			}
		case "let":
			if p.lang.in(langBashLike|LangMirBSDKorn|LangZsh) && !p.funcParenNext() {
				p.letClause(s)
			}
		case "function":
			if p.lang.in(langBashLike | LangMirBSDKorn | LangZsh) {
				p.bashFuncDecl(s)
			}
		case "declare":
			if p.lang.in(langBashLike|LangZsh) && !p.funcParenNext() { // Note that mksh lacks this one.
				p.declClause(s)
			}
		case "local", "export", "readonly", "typeset", "nameref":
			if p.lang.in(langBashLike|LangMirBSDKorn|LangZsh) && !p.funcParenNext() {
				p.declClause(s)
			}
		case "time":
			// llmsh: after | bash reads time as a command's name
			// (time_command_acceptable), and a compound command's
			// reserved word after it as an argument: `a | time for
			// …; do` is a syntax error at do. (A simple command after
			// it is still timed here: no program time runs it.)
			if p.lang.in(langBashLike|LangMirBSDKorn|LangZsh) && !(binCmd && p.lang.in(langBashLike) && p.compoundNext()) {
				p.timeClause(s)
			}
		case "coproc":
			if p.lang.in(langBashLike) { // Note that mksh lacks this one.
				p.coprocClause(s)
			}
		case "select":
			if p.lang.in(langBashLike | LangMirBSDKorn | LangZsh) {
				p.selectClause(s)
			}
		case "@test":
			if p.lang.in(LangBats) {
				p.testDecl(s)
			}
		}
		if s.Cmd != nil {
			break
		}
		if p.assignStart() {
			p.callExpr(s, nil, true)
			break
		}
		name := p.lit(p.pos, p.val)
		p.next()
		// In zsh, ( after a word is a glob qualifier unless followed
		// immediately by ), which is the func declaration syntax.
		if p.tok == leftParen && (!p.lang.in(LangZsh) || p.r == ')') {
			p.next()
			p.follow(name.ValuePos, "foo(", rightParen)
			if p.lang.in(LangPOSIX) && !ValidName(name.Value) {
				p.posErr(name.Pos(), "invalid func name")
			}
			p.funcDecl(s, name.ValuePos, false, true, name)
			if fd, ok := s.Cmd.(*FuncDecl); ok && p.lang.in(langBashLike) && strings.ContainsRune(name.Value, '\\') {
				fd.BadName = true // llmsh: f\g() is refused when it runs
			}
		} else {
			w := p.wordOne(name)
			if p.lang.in(LangZsh) && !p.spaced {
				w.Parts = append(w.Parts, p.wordParts(nil)...)
			}
			p.callExpr(s, w, false)
		}
	case bckQuote:
		if p.backquoteEnd() {
			break
		}
		fallthrough
	case _Lit, dollBrace, dollDblParen, dollParen, dollar, cmdIn, assgnParen, cmdOut,
		sglQuote, dollSglQuote, dblQuote, dollDblQuote, dollBrack,
		globQuest, globStar, globPlus, globAt, globExcl:
		if p.assignStart() {
			p.callExpr(s, nil, true)
			break
		}
		w := p.wordAnyNumber()
		if p.lang.in(langBashLike) && p.parenCloses() {
			p.badNameFuncDecl(s, w, false)
			break
		}
		if p.got(leftParen) {
			p.posErr(w.Pos(), "invalid func name")
		}
		p.callExpr(s, w, false)
	case leftParen:
		if p.r == ')' {
			p.rune()
			fpos := p.pos
			p.next()
			if p.tok == _LitWord && p.val == "{" {
				p.checkLang(fpos, LangZsh, "anonymous functions")
			}
			p.funcDecl(s, fpos, false, true)
			break
		}
		p.subshell(s)
	case dblLeftParen:
		p.arithmExpCmd(s)
	}
	if s.Cmd == nil && len(s.Redirs) == 0 {
		return nil // no statement found
	}
	if redirsStart > 0 && s.Cmd != nil {
		switch s.Cmd.(type) {
		case *CallExpr, *DeclClause: // llmsh: >f declare x
		default:
			p.checkLang(s.Pos(), LangZsh, "redirects before compound commands")
		}
	}
	for p.peekRedir() {
		p.doRedirect(s)
	}
	// instead of using recursion, iterate manually
	ops := 0
	for p.tok == or || p.tok == orAnd {
		if binCmd {
			// left associativity: in a list of BinaryCmds, the
			// right recursion should only read a single element
			return s
		}
		if ops++; ops > MaxListOps {
			p.listTooLong(p.pos)
			return nil
		}
		if p.tok == orAnd && p.lang.in(LangMirBSDKorn) {
			// No need to check for LangPOSIX, as on that language
			// we parse |& as two tokens.
			break
		}
		b := &BinaryCmd{OpPos: p.pos, Op: BinCmdOperator(p.tok), X: s}
		p.next()
		p.got(_Newl)
		if b.Y = p.gotStmtPipe(&Stmt{Position: p.pos}, true); b.Y == nil || p.err != nil {
			if p.recoverError() {
				b.Y = &Stmt{Position: recoveredPos}
			} else {
				p.followErr(b.OpPos, b.Op, noQuote("a statement"))
				break
			}
		}
		s = &Stmt{Position: s.Position}
		s.Cmd = b
		s.Comments, b.X.Comments = b.X.Comments, nil
		// in "! x | y", the bang applies to the entire pipeline
		s.Negated = b.X.Negated
		b.X.Negated = false
	}
	return s
}

func (p *Parser) subshell(s *Stmt) {
	sub := &Subshell{Lparen: p.pos}
	old := p.preNested(subCmd)
	p.next()
	sub.Stmts, sub.Last = p.followStmts("(", sub.Lparen)
	p.postNested(old)
	sub.Rparen = p.matched(sub.Lparen, leftParen, rightParen)
	s.Cmd = sub
}

func (p *Parser) arithmExpCmd(s *Stmt) {
	ar := &ArithmCmd{Left: p.pos}
	old := p.preNested(arithmExprCmd)
	p.next()
	if p.got(hash) {
		p.checkLang(ar.Pos(), LangMirBSDKorn, "unsigned expressions")
		ar.Unsigned = true
	}
	if p.lang.in(langBashLike) && p.peekArithmEnd() {
		// llmsh: (()) is 0 (status 1), as bash.
		ar.X, ar.Raw = &Word{Parts: []WordPart{&Lit{ValuePos: p.pos, ValueEnd: p.pos}}}, true
	} else {
		ar.X = p.followArithm(dblLeftParen, ar.Left)
	}
	ar.Right = p.arithmEnd(dblLeftParen, ar.Left, old)
	s.Cmd = ar
}

func (p *Parser) block(s *Stmt) {
	b := &Block{Lbrace: p.pos}
	p.next()
	b.Stmts, b.Last = p.followStmts("{", b.Lbrace, "}")
	if pos, ok := p.gotRsrv("}"); ok {
		b.Rbrace = pos
	} else if p.recoverError() {
		b.Rbrace = recoveredPos
	} else {
		p.matchingErr(b.Lbrace, leftBrace, rightBrace)
	}
	s.Cmd = b
}

func (p *Parser) ifClause(s *Stmt) {
	rootIf := &IfClause{Position: p.pos}
	p.next()
	rootIf.Cond, rootIf.CondLast = p.followStmts("if", rootIf.Position, "then")
	rootIf.ThenPos = p.followRsrv(rootIf.Position, "if <cond>", "then")
	rootIf.Then, rootIf.ThenLast = p.followStmts("then", rootIf.ThenPos, "fi", "elif", "else")
	curIf := rootIf
	for p.tok == _LitWord && p.val == "elif" {
		elf := &IfClause{Position: p.pos}
		curIf.Last = p.accComs
		p.accComs = nil
		p.next()
		elf.Cond, elf.CondLast = p.followStmts("elif", elf.Position, "then")
		elf.ThenPos = p.followRsrv(elf.Position, "elif <cond>", "then")
		elf.Then, elf.ThenLast = p.followStmts("then", elf.ThenPos, "fi", "elif", "else")
		curIf.Else = elf
		curIf = elf
	}
	if elsePos, ok := p.gotRsrv("else"); ok {
		curIf.Last = p.accComs
		p.accComs = nil
		els := &IfClause{Position: elsePos}
		els.Then, els.ThenLast = p.followStmts("else", els.Position, "fi")
		curIf.Else = els
		curIf = els
	}
	curIf.Last = p.accComs
	p.accComs = nil
	rootIf.FiPos = p.stmtEnd(rootIf, "if", "fi")
	for els := rootIf.Else; els != nil; els = els.Else {
		// All the nested IfClauses share the same FiPos.
		els.FiPos = rootIf.FiPos
	}
	s.Cmd = rootIf
}

func (p *Parser) whileClause(s *Stmt, until bool) {
	wc := &WhileClause{WhilePos: p.pos, Until: until}
	rsrv := "while"
	rsrvCond := "while <cond>"
	if wc.Until {
		rsrv = "until"
		rsrvCond = "until <cond>"
	}
	p.next()
	wc.Cond, wc.CondLast = p.followStmts(rsrv, wc.WhilePos, "do")
	wc.DoPos = p.followRsrv(wc.WhilePos, rsrvCond, "do")
	wc.Do, wc.DoLast = p.followStmts("do", wc.DoPos, "done")
	wc.DonePos = p.stmtEnd(wc, rsrv, "done")
	s.Cmd = wc
}

func (p *Parser) forClause(s *Stmt) {
	fc := &ForClause{ForPos: p.pos}
	p.next()
	fc.Loop = p.loop(fc.ForPos)

	start, end := "do", "done"
	if pos, ok := p.gotRsrv("{"); ok {
		p.checkLang(pos, langBashLike|LangMirBSDKorn, "for loops with braces")
		fc.DoPos = pos
		fc.Braces = true
		start, end = "{", "}"
	} else {
		fc.DoPos = p.followRsrv(fc.ForPos, "for foo [in words]", start)
	}

	s.Comments = append(s.Comments, p.accComs...)
	p.accComs = nil
	fc.Do, fc.DoLast = p.followStmts(start, fc.DoPos, end)
	fc.DonePos = p.stmtEnd(fc, "for", end)
	s.Cmd = fc
}

func (p *Parser) loop(fpos Pos) Loop {
	switch p.tok {
	case leftParen, dblLeftParen:
		p.checkLang(p.pos, langBashLike|LangZsh, "c-style fors")
	}
	if p.tok == dblLeftParen && p.fullSrc != nil && forParenCut(p.fullSrc, int(p.pos.Offset())+2) {
		// llmsh: bash's parse_arith_cmd gives up (yylex's -1).
		perr := ParseError{Filename: p.f.Name, Pos: fpos, Quiet: true, At: p.pos}
		if p.comsubDepth > 0 {
			perr.Status = 1 // x=$(for ((i=0) do …): bash's status is 1
		}
		p.errPass(perr)
		return &CStyleLoop{Lparen: p.pos}
	}
	if p.tok == dblLeftParen {
		cl := &CStyleLoop{Lparen: p.pos}
		old := p.preNested(arithmExprCmd)
		p.next()
		cl.Init = p.arithmExpr(false)
		if cl.Semi1 = p.pos; p.got(dblSemicolon) {
			cl.Semi2 = posAddCol(cl.Semi1, 1)
		} else {
			p.follow(p.pos, "expr", semicolon)
			cl.Cond = p.arithmExpr(false)
			cl.Semi2 = p.pos
			p.follow(p.pos, "expr", semicolon)
		}
		cl.Post = p.arithmExpr(false)
		cl.Rparen = p.arithmEnd(dblLeftParen, cl.Lparen, old)
		p.got(semicolon)
		p.got(_Newl)
		return cl
	}
	return p.wordIter("for", fpos)
}

func (p *Parser) wordIter(ftok string, fpos Pos) *WordIter {
	wi := &WordIter{}
	// llmsh: any one word is the name, as bash takes it (for x[1] in,
	// for "x" in, for $v in); the interpreter says the ones that are no
	// name are `not a valid identifier' when the loop runs.
	if w := p.getWord(); w == nil {
		p.followErr(fpos, ftok, noQuote("a literal"))
	} else if lit, ok := w.Parts[0].(*Lit); ok && len(w.Parts) == 1 {
		wi.Name = lit
	} else {
		var sb strings.Builder
		NewPrinter().Print(&sb, w)
		wi.Name = &Lit{ValuePos: w.Pos(), ValueEnd: w.End(), Value: sb.String()}
	}
	if p.got(semicolon) {
		p.got(_Newl)
		return wi
	}
	p.got(_Newl)
	if pos, ok := p.gotRsrv("in"); ok {
		wi.InPos = pos
		for !p.stopToken() {
			if w := p.getWord(); w == nil {
				p.curErr("word list can only contain words")
			} else {
				wi.Items = append(wi.Items, w)
			}
		}
		p.got(semicolon)
		p.got(_Newl)
	} else if p.tok == _LitWord && p.val == "do" {
	} else {
		p.followErr(fpos, ftok+" foo", noQuote("`in`, `do`, `;`, or a newline"))
	}
	return wi
}

func (p *Parser) selectClause(s *Stmt) {
	fc := &ForClause{ForPos: p.pos, Select: true}
	p.next()
	fc.Loop = p.wordIter("select", fc.ForPos)
	start, end := "do", "done"
	if pos, ok := p.gotRsrv("{"); ok && p.lang.in(langBashLike) {
		// llmsh: bash takes a group as select's body, as for's.
		fc.DoPos, fc.Braces = pos, true
		start, end = "{", "}"
	} else {
		fc.DoPos = p.followRsrv(fc.ForPos, "select foo [in words]", "do")
	}
	fc.Do, fc.DoLast = p.followStmts(start, fc.DoPos, end)
	fc.DonePos = p.stmtEnd(fc, "select", end)
	s.Cmd = fc
}

func (p *Parser) caseClause(s *Stmt) {
	cc := &CaseClause{Case: p.pos}
	p.next()
	cc.Word = p.getWord()
	if cc.Word == nil {
		p.followErr(cc.Case, "case", noQuote("a word"))
	}
	end := "esac"
	p.got(_Newl)
	if pos, ok := p.gotRsrv("{"); ok {
		cc.In = pos
		cc.Braces = true
		p.checkLang(cc.Pos(), LangMirBSDKorn, "`case i {`")
		end = "}"
	} else {
		p.casePattern = true // llmsh: the token after in is a pattern
		cc.In = p.followRsrv(cc.Case, "case x", "in")
	}
	cc.Items = p.caseItems(end)
	p.casePattern = false
	cc.Last, p.accComs = p.accComs, nil
	cc.Esac = p.stmtEnd(cc, "case", end)
	s.Cmd = cc
}

func (p *Parser) caseItems(stop string) (items []*CaseItem) {
	p.got(_Newl)
	for p.tok != _EOF && (p.tok != _LitWord || p.val != stop) {
		ci := &CaseItem{}
		ci.Comments, p.accComs = p.accComs, nil
		p.got(leftParen)
		after := p.pos // llmsh: where the token before the pattern ends
		for p.tok != _EOF {
			if w := p.getWord(); w == nil {
				if p.tok == _Newl {
					// llmsh: `a|` then a newline: bash names the
					// newline (the error's position is past `|`).
					p.posErr(after, "case patterns must consist of words")
				}
				p.curErr("case patterns must consist of words")
			} else {
				ci.Patterns = append(ci.Patterns, w)
				if p.tok == _Newl || p.tok == _EOF {
					// llmsh: a pattern then a newline: bash names
					// the newline, past the word (and a comment).
					p.posErr(w.End(), "case patterns must be separated with %#q", or)
				}
			}
			if p.tok == rightParen {
				break
			}
			after = posAddCol(p.pos, 1)
			if !p.got(or) {
				p.curErr("case patterns must be separated with %#q", or)
			}
		}
		old := p.preNested(switchCase)
		p.casePattern = false
		p.next()
		ci.Stmts, ci.Last = p.stmtList(stop)
		p.postNested(old)
		switch p.tok {
		case dblSemicolon, semiAnd, dblSemiAnd, semiOr:
		default:
			ci.Op = Break
			items = append(items, ci)
			return items
		}
		ci.Last = append(ci.Last, p.accComs...)
		p.accComs = nil
		ci.OpPos = p.pos
		ci.Op = CaseOperator(p.tok)
		p.casePattern = true // llmsh: the next token is a pattern
		p.next()
		p.got(_Newl)

		// Split the comments:
		//
		// case x in
		// a)
		//   foo
		//   ;;
		//   # comment for a
		// # comment for b
		// b)
		//   [...]
		split := len(p.accComs)
		for i, c := range slices.Backward(p.accComs) {
			if c.Pos().Col() != p.pos.Col() {
				break
			}
			split = i
		}
		ci.Comments = append(ci.Comments, p.accComs[:split]...)
		p.accComs = p.accComs[split:]

		items = append(items, ci)
	}
	return items
}

func (p *Parser) testClause(s *Stmt) {
	tc := &TestClause{Left: p.pos}
	old := p.preNested(testExpr)
	p.next()
	if tc.X = p.testExprBinary(false); tc.X == nil {
		switch {
		case p.atDblRightBrack():
			p.condErr("") // `[[ ]]`: bash says nothing
		case p.tok == andAnd || p.tok == orOr:
			p.condErr(fmt.Sprintf("unexpected token `%s' in conditional command", p.tok))
		}
		p.followErrExp(tc.Left, dblLeftBrack)
	}
	tc.Right = p.pos
	// llmsh: bash says these on the line of the [[ (cond_error).
	switch {
	case p.tok == rightParen:
		p.condErrAt(tc.Left, "syntax error in conditional expression: unexpected token `)'")
	case p.condOpTok():
		// `[[ a == b ; ]]`, `[[ a =~ a\ ]];`, `[[ a < b < c ]]`
		p.condErrAt(tc.Left, fmt.Sprintf("syntax error in conditional expression: unexpected token `%s'", p.tok))
	case p.tok == _EOF, p.tok == _Newl:
	default:
		if _, ok := tc.X.(*Word); ok && !p.atDblRightBrack() {
			p.condOperatorErr(tc.X) // `[[ a $b ]]`
		} else if !p.atDblRightBrack() {
			p.condErrAt(tc.Left, "syntax error in conditional expression") // `[[ 1 == 2 3 ]]`
		}
	}
	if _, ok := p.gotRsrv("]]"); !ok {
		p.matchingErr(tc.Left, dblLeftBrack, dblRightBrack)
	}
	p.postNested(old)
	s.Cmd = tc
}

// testExprBinary parses a [[ ]] expression: terms joined by && and ||,
// && binding tighter and both grouping from the left, as in bash; with
// pastAndOr, one term (a comparison, a unary test, ! TERM, ( EXPR ) or a
// word). llmsh: upstream grouped && and || from the right with no
// precedence (`a && b || c` as `a && (b || c)`), and gave ! a whole list.
func (p *Parser) testExprBinary(pastAndOr bool) TestExpr {
	if !pastAndOr {
		return p.testExprList(OrTest)
	}
	p.got(_Newl)
	left := p.testExprUnary()
	if left == nil {
		return left
	}
	if _, ok := left.(*Word); ok && p.tok == _Newl {
		// bash wants an operator after a lone operand, on its line.
		p.condErr("unexpected token `newline', conditional binary operator expected")
	}
	p.got(_Newl)
	if _, ok := left.(*Word); !ok {
		// llmsh: after a whole expression (-n a, ! a, ( a )) bash's
		// term ends: what follows, && or || aside, is an error that the
		// enclosing ( or [[ words on its own line (`[[ ( -n a ; ) ]]`
		// is "unexpected token `;', expected `)'").
		return left
	}
	switch p.tok {
	case andAnd, orOr:
		return left
	case _LitWord:
		if p.val == "]]" {
			return left
		}
		if p.tok = token(testBinaryOp(p.val)); p.tok == illegalTok {
			p.condOperatorErr(left)
			p.curErr("not a valid test operator: %#q", p.val)
		}
	case rdrIn, rdrOut:
	case _EOF, rightParen:
		return left
	case _Lit:
		p.condOperatorErr(left)
		p.curErr("test operator words must consist of a single literal")
	default:
		if p.condOpTok() { // llmsh: `[[ a >> b ]]` too
			p.condErr(fmt.Sprintf("unexpected token `%s', conditional binary operator expected", p.tok))
		} else { // a word that starts with $, a quote, …
			p.condOperatorErr(left)
		}
		p.curErr("not a valid test operator: %#q", p.tok)
	}
	b := &BinaryTest{
		OpPos: p.pos,
		Op:    BinTestOperator(p.tok),
		X:     left,
	}
	switch b.Op {
	case TsReMatch:
		p.checkLang(p.pos, langBashLike|LangZsh, "regex tests")
		p.rxOpenParens = 0
		p.rxFirstPart = true
		// TODO(mvdan): Using nested states within a regex will break in
		// all sorts of ways. The better fix is likely to use a stop
		// token, like we do with heredocs.
		p.quote = testExprRegexp
		fallthrough
	default:
		p.next()
		switch {
		case p.atDblRightBrack():
			p.condErr("unexpected argument `]]' to conditional binary operator")
		case p.tok == _Newl:
			p.condErr("unexpected argument `newline' to conditional binary operator")
		case b.Op == TsReMatch && p.tok == andAnd:
			// llmsh: bash reads the regex as a word that ends where
			// `&&` starts, an empty one: `[[ a =~ && b ]]` is
			// `[[ a =~ '' && b ]]`.
			p.quote = testExpr
			b.Y = p.wordOne(&Lit{ValuePos: p.pos})
			return b
		case b.Op == TsReMatch && p.condOpTok() && p.tok != orOr:
			p.condTokenErr() // `[[ a =~ ; ]]`
		case b.Op != TsReMatch && p.condOpTok():
			p.condErr(fmt.Sprintf("unexpected argument `%s' to conditional binary operator", p.tok))
		case p.condNumber():
			p.condErr("unexpected argument to conditional binary operator") // `[[ a == 7>3 ]]`
		}
		b.Y = p.followWordTok(token(b.Op), b.OpPos)
	}
	return b
}

// testExprList parses terms joined by op, && (their terms) or || (the
// && lists), from the left.
func (p *Parser) testExprList(op BinTestOperator) TestExpr {
	operand := func() TestExpr {
		if op == OrTest {
			return p.testExprList(AndTest)
		}
		return p.testExprBinary(true)
	}
	p.got(_Newl)
	left := operand()
	for left != nil {
		p.got(_Newl)
		if p.tok != token(op) {
			break
		}
		b := &BinaryTest{OpPos: p.pos, Op: op, X: left}
		p.next()
		if b.Y = operand(); b.Y == nil {
			if p.atDblRightBrack() {
				p.condErr("") // `[[ a && ]]`: bash says nothing
			}
			p.condEOFErr()
			p.followErrExp(b.OpPos, b.Op)
		}
		left = b
	}
	return left
}

// condOpTok reports whether the current token is an operator that
// starts no word (a list or redirection operator, a parenthesis) where a
// conditional command wants an operand: bash's "unexpected argument"
// (llmsh).
func (p *Parser) condOpTok() bool {
	switch p.tok {
	case and, andAnd, orOr, or, orAnd, andPipe, andBang, leftParen, rightParen,
		semicolon, dblSemicolon, semiAnd, dblSemiAnd, semiOr:
		return true
	}
	return p.tok >= rdrOut && p.tok <= appAllClob
}

// condNumber reports whether the token is a word of digits that a < or
// > follows at once (`[[ 7>3 ]]`): bash's lexer reads it as the number
// of a redirection, no word (llmsh).
func (p *Parser) condNumber() bool {
	if p.tok != _LitWord && p.tok != _LitRedir || p.val == "" || p.r != '<' && p.r != '>' {
		return false
	}
	for i := 0; i < len(p.val); i++ {
		if p.val[i] < '0' || p.val[i] > '9' {
			return false
		}
	}
	return true
}

// condTokenErr is bash's error for an operator token (a list operator or
// a `(`) after a whole expression of a conditional command (llmsh).
func (p *Parser) condTokenErr() {
	p.condErr(fmt.Sprintf("syntax error in conditional expression: unexpected token `%s'", p.tok))
}

// condOperatorErr is bash's error for a word where a binary operator
// should follow left: after a lone operand, "conditional binary operator
// expected"; after a whole expression, "syntax error in conditional
// expression" (llmsh).
func (p *Parser) condOperatorErr(left TestExpr) {
	if _, ok := left.(*Word); ok {
		p.condErr("conditional binary operator expected")
		return
	}
	p.condErr("syntax error in conditional expression")
}

func (p *Parser) testExprUnary() TestExpr {
	if p.tok != leftParen && p.condOpTok() {
		// llmsh: `[[ ; ]]`, `[[ ( ) ]]`, `[[ a && | ]]`
		p.condErr(fmt.Sprintf("unexpected token `%s' in conditional command", p.tok))
	}
	if p.condNumber() {
		// llmsh: `[[ 7>3 ]]`: bash's lexer reads 7 as a redirection's
		// number, its token NUMBER (284 in bash 5.2's parser).
		p.condErr("unexpected token 284 in conditional command")
	}
	switch p.tok {
	case _EOF, rightParen:
		return nil
	case _LitWord:
		op := token(testUnaryOp(p.val))
		switch op {
		case illegalTok:
		case tsRefVar, tsModif: // not available in mksh
			if p.lang.in(langBashLike) {
				p.tok = op
			}
		default:
			p.tok = op
		}
	}
	switch p.tok {
	case exclMark:
		u := &UnaryTest{OpPos: p.pos, Op: TsNot}
		p.next()
		if u.X = p.testExprBinary(true); u.X == nil {
			if p.atDblRightBrack() {
				p.condErr("") // `[[ ! ]]`: bash says nothing
			}
			p.condEOFErr()
			p.followErrExp(u.OpPos, u.Op)
		}
		return u
	case tsExists, tsRegFile, tsDirect, tsCharSp, tsBlckSp, tsNmPipe,
		tsSocket, tsSmbLink, tsSticky, tsGIDSet, tsUIDSet, tsGrpOwn,
		tsUsrOwn, tsModif, tsRead, tsWrite, tsExec, tsNoEmpty,
		tsFdTerm, tsEmpStr, tsNempStr, tsOptSet, tsVarSet, tsRefVar:
		u := &UnaryTest{OpPos: p.pos, Op: UnTestOperator(p.tok)}
		p.next()
		switch {
		case p.atDblRightBrack():
			p.condErr("unexpected argument `]]' to conditional unary operator")
		case p.tok == _Newl:
			p.condErr("unexpected argument `newline' to conditional unary operator")
		case p.condOpTok():
			p.condErr(fmt.Sprintf("unexpected argument `%s' to conditional unary operator", p.tok))
		case p.condNumber():
			p.condErr("unexpected argument to conditional unary operator") // `[[ -n 7>3 ]]`
		}
		u.X = p.followWordTok(token(u.Op), u.OpPos)
		return u
	case leftParen:
		pe := &ParenTest{Lparen: p.pos}
		p.next()
		had := p.err != nil
		if pe.X = p.testExprBinary(false); pe.X == nil {
			p.condEOFErr() // `[[ (`
		}
		if cerr, ok := p.err.(ParseError); ok && !had && cerr.Cond && cerr.Text != "" {
			// llmsh: bash says a ( is left open after an error
			// inside it, on the line of the (.
			cerr.Text += "\n" + condLineMark(cerr, pe.Lparen) + "expected `)'"
			p.err = cerr
		}
		if pe.X == nil {
			if p.atDblRightBrack() {
				p.condErr("expected `)'")
			}
			p.followErrExp(pe.Lparen, leftParen)
		}
		// llmsh: bash says these on the line of the (.
		switch {
		case p.atDblRightBrack():
			p.condErrAt(pe.Lparen, "unexpected token `]]', expected `)'")
		case p.tok != rightParen && p.condOpTok():
			// llmsh: `[[ ( a == b ; ) ]]`
			p.condErrAt(pe.Lparen, fmt.Sprintf("unexpected token `%s', expected `)'", p.tok))
		case p.tok == _EOF && p.err == nil:
			// llmsh: `[[ ( a == b` at the end of the text
			p.errPass(ParseError{Filename: p.f.Name, Pos: p.pos, Text: "unexpected token `EOF', expected `)'",
				Cond: true, Incomplete: p.Incomplete(), At: p.pos})
		case p.tok != rightParen && p.tok != _EOF && p.tok != _Newl:
			p.condErrAt(pe.Lparen, "expected `)'") // `[[ ( a == b c ) ]]`
		}
		pe.Rparen = p.matched(pe.Lparen, leftParen, rightParen)
		return pe
	case _LitWord:
		if p.val == "]]" {
			return nil
		}
		fallthrough
	default:
		if w := p.getWord(); w != nil {
			return w
		}
		// otherwise we'd return a typed nil above
		return nil
	}
}

// declAfterAssigns reports whether the word after a command's own
// assignments is a declaration builtin whose arguments bash parses as
// assignments (x=1 local -a l=(…)), and not a function's name (llmsh).
func (p *Parser) declAfterAssigns() bool {
	switch p.val {
	case "declare", "local", "export", "readonly", "typeset":
		return p.lang.in(langBashLike) && !p.funcParenNext()
	}
	return false
}

func (p *Parser) declClause(s *Stmt) {
	ds := &DeclClause{Variant: p.lit(p.pos, p.val)}
	p.next()
	for !p.stopToken() {
		if p.peekRedir() {
			// llmsh: declare a=1 >f b=2, as bash.
			p.doRedirect(s)
			continue
		}
		if p.hasValidIdent() && p.declAssignStart() {
			ds.Args = append(ds.Args, p.getAssign(false))
		} else if p.tok == _LitWord && ValidName(p.val) {
			ds.Args = append(ds.Args, &Assign{
				Naked: true,
				Name:  p.getLit(),
			})
		} else if w := p.getWord(); w != nil {
			ds.Args = append(ds.Args, &Assign{
				Naked: true,
				Value: w,
			})
		} else {
			p.followErr(p.pos, ds.Variant.Value, noQuote("names or assignments"))
		}
	}
	s.Cmd = ds
}

// funcBodyStart reports whether a function body, a compound command,
// can start with tok (llmsh).
func funcBodyStart(tok token, val string) bool {
	switch tok {
	case leftParen, dblLeftParen:
		return true
	case _LitWord:
		switch val {
		case "{", "if", "while", "until", "for", "case", "[[", "select":
			return true
		}
	}
	return false
}

func isBashCompoundCommand(tok token, val string) bool {
	switch tok {
	case leftParen, dblLeftParen:
		return true
	case _LitWord:
		switch val {
		case "{", "if", "while", "until", "for", "case", "[[",
			"coproc", "let", "function", "declare", "local",
			"export", "readonly", "typeset", "nameref":
			return true
		}
	}
	return false
}

// moreNegations reads the further `!`s after a statement's first one: as
// bash, each one negates again (! ! true is true).
func (p *Parser) moreNegations(s *Stmt) {
	for {
		if _, ok := p.gotRsrv("!"); !ok {
			return
		}
		s.Negated = !s.Negated
	}
}

func (p *Parser) timeClause(s *Stmt) {
	tc := &TimeClause{Time: p.pos}
	p.next()
	if _, ok := p.gotRsrv("-p"); ok {
		tc.PosixFormat = true
	}
	if _, ok := p.gotRsrv("--"); ok {
		// llmsh: bash's TIMEIGN, which also asks for POSIX's format
		// (time -- CMD, time -p -- CMD).
		tc.PosixFormat = true
	}
	// llmsh: bash times a negated pipeline too: time ! false.
	st := &Stmt{Position: p.pos}
	if _, ok := p.gotRsrv("!"); ok {
		st.Negated = true
		p.moreNegations(st)
	}
	switch p.tok {
	case or, orAnd, andAnd, orOr:
		// llmsh: time times nothing then, which bash's grammar
		// refuses: `time | cat` names the `|`.
		p.curErr("%#q cannot time %#q", "time", p.tok)
		return
	}
	tc.Stmt = p.gotStmtPipe(st, false)
	s.Cmd = tc
}

func (p *Parser) coprocClause(s *Stmt) {
	cc := &CoprocClause{Coproc: p.pos}
	if p.next(); isBashCompoundCommand(p.tok, p.val) {
		// has no name
		cc.Stmt = p.gotStmtPipe(&Stmt{Position: p.pos}, false)
		s.Cmd = cc
		return
	}
	cc.Name = p.getWord()
	cc.Stmt = p.gotStmtPipe(&Stmt{Position: p.pos}, false)
	if cc.Stmt == nil {
		if cc.Name == nil {
			p.posErr(cc.Coproc, "coproc clause requires a command")
			return
		}
		// name was in fact the stmt
		cc.Stmt = &Stmt{Position: cc.Name.Pos()}
		cc.Stmt.Cmd = p.call(cc.Name)
		cc.Name = nil
	} else if cc.Name != nil {
		if call, ok := cc.Stmt.Cmd.(*CallExpr); ok {
			// name was in fact the start of a call
			call.Args = append([]*Word{cc.Name}, call.Args...)
			cc.Name = nil
		} else if cc.Stmt.Cmd == nil {
			// llmsh: only redirections followed (coproc cat 2>&1):
			// the name was the command, as bash's grammar reads a
			// name only before a compound command.
			cc.Stmt.Position = cc.Name.Pos()
			cc.Stmt.Cmd = p.call(cc.Name)
			cc.Name = nil
		}
	}
	s.Cmd = cc
}

func (p *Parser) letClause(s *Stmt) {
	lc := &LetClause{Let: p.pos}
	old := p.preNested(arithmExprLet)
	p.next()
	if p.tok == subSub && (p.r == ' ' || p.r == '\t' || p.r == '\n' || p.r == ';' || p.r == ')' || p.r == utf8.RuneSelf) {
		// llmsh: a first argument `--` alone ends let's options, as
		// bash's builtin reads it (`let -- --x` decrements x).
		lc.Dashes = p.pos
		p.next()
	}
	for !p.stopToken() {
		if p.tok == _LitWord && p.spaced && numberLiteral(p.val) && (p.r == '>' || p.r == '<') {
			// llmsh: let x=1 2>/dev/null: as bash, a number glued
			// to > or < starting an argument is a redirection.
			p.tok = _LitRedir
		}
		if p.peekRedir() {
			// llmsh: a redirection among let's arguments, as
			// among a simple command's (let y=2 >f z=3), its word
			// read as any word.
			p.postNested(old)
			p.doRedirect(s)
			old = p.preNested(arithmExprLet)
			p.buriedHdocs = old.buriedHdocs // its here-document is read at the newline
			continue
		}
		if len(lc.Exprs) > 0 && !p.spaced && p.fullSrc != nil {
			// llmsh: text glued to the expression before it is
			// the rest of the same word of bash's let (a[0]=a[1]\*2,
			// 'a[1]'+=1): an error that parseArithRepair mends with
			// the whole word (letSpan).
			if _, _, ok := letSpan(string(p.fullSrc), int(p.pos.Offset())); ok {
				p.curErr("let: a word glued to an expression")
				break
			}
		}
		x := p.arithmExpr(true)
		if x == nil {
			break
		}
		lc.Exprs = append(lc.Exprs, x)
	}
	// llmsh: `let` alone is no syntax error in bash; it fails when it
	// runs ("let: expression expected").
	p.postNested(old)
	s.Cmd = lc
}

func (p *Parser) bashFuncDecl(s *Stmt) {
	fpos := p.pos
	p.next()
	names := make([]*Lit, 0, 1)
	if p.lang.in(langBashLike) && p.tok != _LitWord && p.tok != leftParen && p.wordStartTok() {
		p.badNameFuncDecl(s, p.wordAnyNumber(), true)
		return
	}
	for p.tok == _LitWord && p.val != "{" {
		names = append(names, p.lit(p.pos, p.val))
		p.next()
		if !p.lang.in(LangZsh) {
			break // llmsh: bash's one name; a word after it is the body (function m if …)
		}
	}
	// llmsh: in bash, a "(" not closed by ")" begins a subshell body
	// (function s ( echo sub )).
	hasParens := (len(names) != 1 || p.lang.in(LangZsh) || p.parenCloses()) && p.got(leftParen)
	switch len(names) {
	case 0:
		if !hasParens && p.tok == _LitWord && p.val == "{" && p.lang.in(langBashLike) {
			// llmsh: bash takes "{" as the name; what follows must be
			// a compound command (function { echo; } is "syntax error
			// near unexpected token `echo'").
			p.next()
			p.got(_Newl)
			p.curErr("a function body must be a compound command")
			return
		}
		if hasParens || (p.tok == _LitWord && p.val == "{") {
			p.checkLang(fpos, LangZsh, "anonymous functions")
		} else if !p.lang.in(LangZsh) {
			p.followErr(fpos, "function", noQuote("a name"))
		}
		names = nil // avoid non-nil zero-length slices
	case 1:
		// allowed in all variants
	default:
		p.checkLang(fpos, LangZsh, "multi-name functions")
	}
	if hasParens {
		p.follow(fpos, "function foo(", rightParen)
	}
	p.funcDecl(s, fpos, true, hasParens, names...)
	if fd, ok := s.Cmd.(*FuncDecl); ok && len(names) == 1 && p.lang.in(langBashLike) && strings.ContainsRune(names[0].Value, '\\') {
		fd.BadName = true // llmsh: function f\g is refused when it runs
	}
}

// parenCloses reports whether the "(" just read is followed by ")", with
// blanks between them at most (llmsh).
// wordStartTok reports whether the current token starts a word that is
// not a plain literal: a quote or an expansion (llmsh).
func (p *Parser) wordStartTok() bool {
	switch p.tok {
	case _Lit, dollBrace, dollDblParen, dollParen, dollar, sglQuote, dollSglQuote,
		dblQuote, dollDblQuote, bckQuote:
		return true
	}
	return false
}

// badNameFuncDecl parses a function definition whose name is a word bash
// refuses when the definition runs: quoted or holding an expansion
// (`'x y'() { :; }`, `function "f" { :; }`). bash's parser takes any word
// there; execute_intern_function then says the name, as written, is "not
// a valid identifier", with status 1, and the script goes on (llmsh).
func (p *Parser) badNameFuncDecl(s *Stmt, w *Word, long bool) {
	var sb strings.Builder
	NewPrinter().Print(&sb, w)
	name := &Lit{ValuePos: w.Pos(), ValueEnd: w.End(), Value: sb.String()}
	hasParens := !long || p.parenCloses()
	if hasParens {
		p.got(leftParen)
		p.follow(w.Pos(), "foo(", rightParen)
	}
	p.funcDecl(s, w.Pos(), long, hasParens, name)
	if fd, ok := s.Cmd.(*FuncDecl); ok {
		fd.BadName = true
	}
}

func (p *Parser) parenCloses() bool {
	if p.tok != leftParen || p.r == ')' {
		return p.tok == leftParen
	}
	if p.r != ' ' && p.r != '\t' {
		return false
	}
	for i := int(p.bsp); i < len(p.bs); i++ {
		switch p.bs[i] {
		case ' ', '\t':
			continue
		case ')':
			return true
		}
		return false
	}
	return false
}

func (p *Parser) testDecl(s *Stmt) {
	td := &TestDecl{Position: p.pos}
	p.next()
	if td.Description = p.getWord(); td.Description == nil {
		p.followErr(td.Position, "@test", noQuote("a description word"))
	}
	if td.Body = p.getStmt(false, false, true); td.Body == nil {
		p.followErr(td.Position, `@test "desc"`, noQuote("a statement"))
	}
	s.Cmd = td
}

func (p *Parser) unexpectedInCallExpr(ce *CallExpr) {
	// Note that we'll only keep the first error that happens.
	if len(ce.Args) > 0 {
		if cmd := ce.Args[0].Lit(); isBashCompoundCommand(_LitWord, cmd) {
			p.checkLang(p.pos, langBashLike, "the %#q builtin", cmd)
		}
	}
	p.curErr("a command can only contain words and redirects; encountered %#q", p.tok)
}

func (p *Parser) callExpr(s *Stmt, w *Word, assign bool) {
	ce := p.call(w)
	if w == nil {
		ce.Args = ce.Args[:0]
	}
	if assign {
		ce.Assigns = append(ce.Assigns, p.getAssign(true))
	}
loop:
	for {
		switch p.tok {
		case _EOF, _Newl, semicolon, and, or, andAnd, orOr, orAnd, andPipe, andBang,
			dblSemicolon, semiAnd, dblSemiAnd, semiOr:
			break loop
		case _LitWord:
			if len(ce.Args) == 0 && p.assignStart() {
				ce.Assigns = append(ce.Assigns, p.getAssign(true))
				break
			}
			if len(ce.Args) == 0 && w == nil && p.declAfterAssigns() {
				// llmsh: x=1 declare -a q=(a b) is a declaration
				// with the command's own assignments, as in bash.
				p.cmdAssigns(ce.Assigns)
				p.declClause(s)
				s.Cmd.(*DeclClause).Assigns = ce.Assigns
				return
			}
			if p.evalCompoundNext(ce) {
				// llmsh: eval a=(1 2), as bash.
				if w := p.evalCompound(); w != nil {
					ce.Args = append(ce.Args, w)
				}
				break
			}
			// Avoid failing later with the confusing "} can only be used to close a block".
			if p.val == "{" && w != nil && w.Lit() == "function" {
				p.checkLang(p.pos, langBashLike, `the "function" builtin`)
			}
			// Zsh does not require a semicolon to close a block.
			if p.lang.in(LangZsh) && p.val == "}" {
				break loop
			}
			w := p.wordOne(p.lit(p.pos, p.val))
			p.next()
			if p.lang.in(LangZsh) && !p.spaced {
				w.Parts = append(w.Parts, p.wordParts(nil)...)
			}
			ce.Args = append(ce.Args, w)
		case _Lit:
			if len(ce.Args) == 0 && p.assignStart() {
				ce.Assigns = append(ce.Assigns, p.getAssign(true))
				break
			}
			if p.evalCompoundNext(ce) {
				if w := p.evalCompound(); w != nil {
					ce.Args = append(ce.Args, w)
				}
				break
			}
			ce.Args = append(ce.Args, p.wordAnyNumber())
		case bckQuote:
			if p.backquoteEnd() {
				break loop
			}
			fallthrough
		case dollBrace, dollDblParen, dollParen, dollar, cmdIn, assgnParen, cmdOut,
			sglQuote, dollSglQuote, dblQuote, dollDblQuote, dollBrack,
			globQuest, globStar, globPlus, globAt, globExcl:
			ce.Args = append(ce.Args, p.wordAnyNumber())
		case dblLeftParen:
			p.curErr("%#q can only be used to open an arithmetic cmd", p.tok)
		case leftParen:
			if p.lang.in(LangZsh) && p.r != ')' {
				ce.Args = append(ce.Args, p.wordAnyNumber())
				break
			}
			p.unexpectedInCallExpr(ce)
		case rightParen:
			if p.quote == subCmd {
				break loop
			}
			p.unexpectedInCallExpr(ce)
		default:
			if p.peekRedir() {
				p.doRedirect(s)
				continue
			}
			p.unexpectedInCallExpr(ce)
		}
	}
	if len(ce.Args) == 0 {
		ce.Args = nil
	} else {
		p.cmdAssigns(ce.Assigns)
	}
	s.Cmd = ce
}

// evalCompoundNext reports whether the current word is NAME=( or
// NAME+=( in an argument of eval, which bash's parser reads as a
// compound assignment (it sets PST_ASSIGNOK after eval and let in a
// command's position; let's arguments are arithmetic here). (llmsh)
func (p *Parser) evalCompoundNext(ce *CallExpr) bool {
	if len(ce.Args) == 0 || ce.Args[0].Lit() != "eval" || !p.lang.in(langBashLike) {
		return false
	}
	return p.eqlOffs > 0 && p.eqlOffs == len(p.val)-1 && p.r == '(' && p.hasValidIdent()
}

// evalCompound reads an argument NAME=(…) of eval as the word of its
// text, "NAME=(a b)" with one space between the elements, whose parts
// expand as any word's, for eval to run (llmsh).
func (p *Parser) evalCompound() *Word {
	as := p.getAssign(true)
	if as == nil || as.Array == nil {
		return nil
	}
	w := arrayAsWord(as.Array)
	if w == nil {
		p.posErr(as.Pos(), "a compound assignment with comments cannot be an argument of eval")
		return nil
	}
	op := "="
	if as.Append {
		op = "+="
	}
	name := &Lit{ValuePos: as.Name.ValuePos, ValueEnd: as.Array.Lparen, Value: as.Name.Value + op}
	w.Parts = append([]WordPart{name}, w.Parts...)
	return w
}

// cmdAssigns checks the assignments before a command's name.
func (p *Parser) cmdAssigns(assigns []*Assign) {
	for _, asgn := range assigns {
		if asgn.Array != nil && asgn.Index == nil && p.lang.in(langBashLike) {
			if w := arrayAsWord(asgn.Array); w != nil {
				// llmsh: bash takes x=(a b) before a command
				// as the string "(a b)" in its environment.
				asgn.Value, asgn.Array = w, nil
				continue
			}
		}
		// llmsh: bash refuses a[i]=v before a command when it
		// runs (`a[i]': not a valid identifier) and runs the command.
		if asgn.Array != nil && (asgn.Index == nil || !p.lang.in(langBashLike)) || asgn.Index != nil && !p.lang.in(langBashLike) {
			p.posErr(asgn.Pos(), "inline variables cannot be arrays")
		}
	}
}

// arrayAsWord is the text of a compound assignment's list, "(a b)", as a
// word of its elements' parts, one space between them: bash gives a
// variable that value when x=(…) comes before a command's name (llmsh).
// A subscript is its text ("([1]=a)"); nil when an element has a comment.
func arrayAsWord(a *ArrayExpr) *Word {
	w := &Word{Parts: []WordPart{&Lit{ValuePos: a.Lparen, ValueEnd: posAddCol(a.Lparen, 1), Value: "("}}}
	for i, el := range a.Elems {
		if len(el.Comments) > 0 || el.Index == nil && el.Value == nil {
			return nil
		}
		pos := el.Pos()
		if i > 0 {
			w.Parts = append(w.Parts, &Lit{ValuePos: pos, ValueEnd: pos, Value: " "})
		}
		if el.Index != nil {
			var sb strings.Builder
			if NewPrinter().Print(&sb, el.Index) != nil {
				return nil
			}
			op := "]="
			if el.Append {
				op = "]+="
			}
			w.Parts = append(w.Parts, &Lit{ValuePos: pos, ValueEnd: pos, Value: "[" + sb.String() + op})
		}
		if el.Value != nil {
			w.Parts = append(w.Parts, el.Value.Parts...)
		}
	}
	if len(a.Last) > 0 {
		return nil
	}
	w.Parts = append(w.Parts, &Lit{ValuePos: a.Rparen, ValueEnd: posAddCol(a.Rparen, 1), Value: ")"})
	return w
}

// compoundNext reports whether the word after the current one, on the
// same line, starts a compound command (llmsh: see "time").
func (p *Parser) compoundNext() bool {
	if p.r != ' ' && p.r != '\t' {
		return false
	}
	rest := p.bs[p.bsp:]
	i := 0
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	j := i
	for j < len(rest) && bytes.IndexByte([]byte(" \t\n;&|<>()"), rest[j]) < 0 {
		j++
	}
	if j == i && i < len(rest) && rest[i] == '(' {
		return true // ( or ((
	}
	switch string(rest[i:j]) {
	case "for", "while", "until", "if", "case", "select", "{", "[[", "function", "coproc":
		return true
	}
	return false
}

// funcParenNext reports whether "(" follows the current word, after
// blanks: `declare () { …; }` defines a function named declare, as in
// bash, where the word would otherwise start a declaration. (llmsh)
func (p *Parser) funcParenNext() bool {
	if p.r == '(' {
		return true
	}
	if p.r != ' ' && p.r != '\t' {
		return false
	}
	for _, b := range p.bs[p.bsp:] {
		switch b {
		case ' ', '\t':
			continue
		case '(':
			return true
		}
		return false
	}
	return false
}

func (p *Parser) funcDecl(s *Stmt, pos Pos, long, withParens bool, names ...*Lit) {
	fd := &FuncDecl{
		Position: pos,
		RsrvWord: long,
		Parens:   withParens,
	}
	if len(names) == 1 {
		fd.Name = names[0]
	} else {
		fd.Names = names
	}
	p.got(_Newl)
	// TODO: reject any body which isn't a compound command, like a quoted word
	if p.lang.in(langBashLike) && !funcBodyStart(p.tok, p.val) && p.tok != _EOF {
		// llmsh: bash takes only a compound command (f() echo is
		// "syntax error near unexpected token `echo'").
		p.curErr("a function body must be a compound command")
		return
	}
	if p.lang.in(langBashLike) {
		// llmsh: the body is one compound command and its
		// redirections, as bash's function_body: `f() { :; } | cmd`
		// and `f() { :; } && cmd` pipe and chain the definition, not
		// the body (upstream read them into the body).
		fd.Body = p.gotStmtPipe(&Stmt{Position: p.pos}, true)
	} else {
		fd.Body = p.getStmt(false, false, true)
	}
	if fd.Body == nil {
		p.followErr(fd.Pos(), "foo()", noQuote("a statement"))
	}
	s.Cmd = fd
}

// MaxListOps bounds the operators of one && / || list and of one
// pipeline (llmsh). Each makes a tree as deep as the list is long, which
// every walk of the syntax tree (syntax.Walk, the printer, the runner)
// descends recursively: a list of 300000 commands made at run time and
// run by eval overflowed Go's stack (bash segfaults on 200000). No
// script a person or a program writes comes near it.
const MaxListOps = 50000

func (p *Parser) listTooLong(pos Pos) {
	p.posErr(pos, "list too long (more than %d && || or | operators in one list)", MaxListOps)
}
