package builtins

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/llmsh/llmsh/posixre"
)

// sedError is a script error, printed as GNU sed prints it.
type sedError struct{ msg string }

func (e *sedError) Error() string { return e.msg }

// Address kinds.
const (
	sedAddrLine  = iota + 1 // N
	sedAddrLast             // $
	sedAddrRE               // /re/
	sedAddrStep             // first~step
	sedAddrZero             // 0 (only as 0,/re/)
	sedAddrPlus             // addr1,+N
	sedAddrTilde            // addr1,~N
)

type sedAddr struct {
	kind    int
	n, step int64
	re      *sedRegex
}

// sedRegex is a compiled regex of the script; re is nil for the empty
// regex, which stands for the last one used.
type sedRegex struct {
	re *posixre.Regexp
	// src and the I and M flags are the regex as written, for --debug.
	src          string
	icase, lines bool
}

// sedRepl is one piece of an s replacement.
type sedRepl struct {
	lit   []byte
	group int  // -1: literal
	cas   byte // 'L' 'U' 'l' 'u' 'E' case conversion, 0 none
}

type sedCmd struct {
	a1, a2 *sedAddr
	neg    bool
	name   byte
	// range state
	active  bool
	begun   bool // the range has started once (a numeric start cannot again)
	endLine int64

	text   string // a i c; label for b t T; file for r R w W; command for e
	bare   bool   // a i c: "a\\" ended the script, the text is empty and has no newline
	num    int64  // q Q exit code, l width (-1: default)
	target int    // b t T: command index; {: index of the matching }
	// s
	re     *sedRegex
	repl   []sedRepl
	global bool
	nth    int
	nthSet bool // the number was given (--debug shows it)
	print  int
	eval   bool // s///e: run the pattern space as a command
	preP   bool // s///pe: print before the command runs (GNU)
	wout   *sedOutput
	// y
	ymap map[rune]rune
	// cloc: the C locale, where y and s's \U \L see bytes (session 23).
	cloc bool
}

// sedParser reads one script piece (an -e expression or a -f file).
type sedParser struct {
	src    string
	i      int
	where  string // "-e expression #1" or "file F"
	isFile bool
	ext    bool
	// posix is --posix: GNU's extensions are errors or literal text
	// (sed 4.9's POSIXLY_BASIC), as sedPosixOnly says.
	posix bool
	prog  *sedProg
	// cloc: the C locale (LC_ALL=C), where each byte is a character.
	cloc bool
	// ctx, when set, stops the parse (errSedStopped): a script of many
	// commands compiles a regexp each (session 24, red team: 300000
	// s/// commands took 18 s past a timeout of 1 s).
	ctx context.Context
	// badCtrl notes a "\c\X" (X not a backslash) that delimited met in
	// a regex: GNU reports it once the command's text is read.
	badCtrl bool
}

// errSedRecursiveC is GNU's message for "\c" followed by a backslash
// that does not start "\\".
const errSedRecursiveC = "recursive escaping after \\c not allowed"

// ctrlFail is p.fail for a "\c\X" that delimited met, if any.
func (p *sedParser) ctrlFail() error {
	if p.badCtrl {
		p.badCtrl = false
		return p.fail(errSedRecursiveC)
	}
	return nil
}

// errSedStopped is a parse that ctx stopped.
var errSedStopped = errors.New("sed: stopped")

// sedCheckEvery is how many commands are parsed between two looks at
// the context.
const sedCheckEvery = 256

// sedProg is a parsed script.
type sedProg struct {
	cmds   []*sedCmd
	blocks []int // indexes of open '{'
	open   func(name string) (*sedOutput, error)
	// noExec: no command can run (no Env.Exec), so e and s///e are
	// refused; sandbox: --sandbox refuses e, r and w (GNU).
	noExec, sandbox bool
	// pending is an a, i or c whose "a\\" ended its -e piece: its text is
	// the start of the next piece (GNU).
	pending *sedCmd
}

func (p *sedParser) fail(msg string) error {
	if p.isFile {
		line := 1 + strings.Count(p.src[:min(p.i, len(p.src))], "\n")
		if p.i > 0 && p.i <= len(p.src) && p.src[p.i-1] == '\n' {
			line--
		}
		return &sedError{"file " + p.where + " line " + strconv.Itoa(line) + ": " + msg}
	}
	return &sedError{"-e expression #" + p.where + ", char " + strconv.Itoa(p.i) + ": " + msg}
}

func (p *sedParser) eof() bool { return p.i >= len(p.src) }

func (p *sedParser) peek() byte {
	if p.i < len(p.src) {
		return p.src[p.i]
	}
	return 0
}

func (p *sedParser) next() byte {
	c := p.peek()
	p.i++
	return c
}

func (p *sedParser) skipSpace() {
	for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t') {
		p.i++
	}
}

func sedIsSpace(c byte) bool { return c == ' ' || c == '\t' }

// parse appends the piece's commands to the program.
func (p *sedParser) parse() error {
	if c := p.prog.pending; c != nil {
		p.prog.pending = nil
		t, more := p.textBody()
		c.text += t
		c.bare = false
		if more {
			c.text += "\n"
			p.prog.pending = c
		}
	}
	for {
		if p.ctx != nil && len(p.prog.cmds)%sedCheckEvery == 0 && p.ctx.Err() != nil {
			return errSedStopped
		}
		for !p.eof() && (sedIsSpace(p.peek()) || p.peek() == '\n' || p.peek() == ';') {
			p.i++
		}
		if p.eof() {
			return nil
		}
		if p.peek() == '#' {
			for !p.eof() && p.peek() != '\n' {
				p.i++
			}
			continue
		}
		cmd := &sedCmd{num: -1}
		a1, err := p.addr(false)
		if err != nil {
			return err
		}
		cmd.a1 = a1
		if a1 != nil {
			p.skipSpace()
			if p.peek() == ',' {
				p.i++
				p.skipSpace()
				a2, err := p.addr(true)
				if err != nil {
					return err
				}
				if a2 == nil {
					p.i++
					return p.fail("unexpected `,'")
				}
				cmd.a2 = a2
			}
		}
		p.skipSpace()
		if p.peek() == '!' {
			p.i++
			cmd.neg = true
			p.skipSpace()
			if p.peek() == '!' {
				p.i++
				return p.fail("multiple `!'s")
			}
		}
		if p.eof() {
			return p.fail("missing command")
		}
		cmd.name = p.next()
		if a1 != nil && a1.kind == sedAddrZero && (p.posix || cmd.a2 == nil || cmd.a2.kind != sedAddrRE) {
			return p.fail("invalid usage of line address 0")
		}
		if cmd.a2 != nil && (cmd.name == 'q' || cmd.name == 'Q' || p.posix && strings.IndexByte("=airl", cmd.name) >= 0) {
			return p.fail("command only uses one address")
		}
		if p.posix && strings.IndexByte(sedGNUCommands, cmd.name) >= 0 {
			return p.fail("unknown command: `" + string(cmd.name) + "'")
		}
		if err := p.command(cmd); err != nil {
			return err
		}
	}
}

// addr parses an address, or returns nil if there is none.
func (p *sedParser) addr(second bool) (*sedAddr, error) {
	c := p.peek()
	switch {
	case c >= '0' && c <= '9':
		n := p.number()
		if p.peek() == '~' && !p.posix {
			p.i++
			step := p.number()
			switch {
			case step > 0:
				// a second address too: the range ends at the first
				// line it matches, the range's first line included
				return &sedAddr{kind: sedAddrStep, n: n, step: step}, nil
			case n == 0 && !second:
				// GNU: 0~0 is line 0, valid only before /re/
				return &sedAddr{kind: sedAddrZero}, nil
			}
			return &sedAddr{kind: sedAddrLine, n: n}, nil
		}
		if n == 0 && !second {
			return &sedAddr{kind: sedAddrZero}, nil
		}
		return &sedAddr{kind: sedAddrLine, n: n}, nil
	case (c == '+' || c == '~') && second && !p.posix:
		p.i++
		if !(p.peek() >= '0' && p.peek() <= '9') {
			return nil, p.fail("expected newer version of sed")
		}
		n := p.number()
		if c == '+' {
			return &sedAddr{kind: sedAddrPlus, n: n}, nil
		}
		return &sedAddr{kind: sedAddrTilde, n: n}, nil
	case c == '$':
		p.i++
		return &sedAddr{kind: sedAddrLast}, nil
	case c == '/' || c == '\\':
		p.i++
		delim := byte('/')
		if c == '\\' {
			if p.eof() {
				return nil, p.fail("unterminated address regex") // GNU says so of a lone backslash
			}
			delim = p.next()
		}
		pat, ok := p.delimited(delim, true)
		if !ok {
			return nil, p.fail("unterminated address regex")
		}
		if err := p.ctrlFail(); err != nil {
			return nil, err
		}
		var flags posixre.Flags
		for !p.posix {
			if p.peek() == 'I' {
				flags |= posixre.IgnoreCase
			} else if p.peek() == 'M' {
				flags |= posixre.Lines
			} else {
				break
			}
			p.i++
		}
		re, err := p.regex(pat, flags)
		if err != nil {
			return nil, err
		}
		return &sedAddr{kind: sedAddrRE, re: re}, nil
	}
	return nil, nil
}

func (p *sedParser) number() int64 {
	var n int64
	for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
		if n < 1<<50 {
			n = n*10 + int64(p.peek()-'0')
		}
		p.i++
	}
	return n
}

// delimited reads up to an unescaped delim. In a regex (re), "\delim"
// becomes delim and "\n" a newline; elsewhere escapes are kept for the
// caller. A newline in the text is an error (ok false) for regexes.
func (p *sedParser) delimited(delim byte, re bool) (string, bool) {
	var b strings.Builder
	for !p.eof() {
		c := p.next()
		switch {
		case c == delim:
			return b.String(), true
		case c == '\\':
			if p.eof() {
				return "", false
			}
			d := p.next()
			switch {
			case d == delim && d == '&' && !re:
				// GNU: \& with & as the delimiter is a literal &, not
				// the matched text.
				b.WriteString(`\&`)
			case d == delim:
				b.WriteByte(d)
			case d == 'n':
				if re {
					b.WriteByte('\n')
				} else {
					b.WriteString(`\n`)
				}
			case d == '\n':
				if re {
					b.WriteByte('\n')
				} else {
					b.WriteString("\\\n")
				}
			case d == 't' && re:
				b.WriteByte('\t')
			default:
				// GNU: \xHH \dNNN \oNNN \cX \a \f \v \r give a byte that
				// keeps any special meaning (s/\x2e/X/ is s/./X/).
				if re && d == 'c' {
					p.regexCtrl(&b, delim)
					continue
				}
				if re && strings.IndexByte("xdoafvr", d) >= 0 {
					if e, n, _ := sedCharEscape(p.src[p.i-1:]); n > 0 {
						p.i += n - 1
						b.WriteByte(e)
						continue
					}
				}
				b.WriteByte('\\')
				b.WriteByte(d)
			}
		case c == '\n' && re:
			return "", false
		case c == '[' && re:
			if !p.bracket(&b) {
				return "", false
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// bracket copies a bracket expression of a regex, its '[' already read:
// the delimiter does not end the regex inside it and a backslash is an
// ordinary character there, except in the escapes that give a byte ("\n",
// "\t", "\xHH" and the like; GNU sed 4.9: s/[/]// works, [\/] matches '\'
// and '/', [\n] a newline).
func (p *sedParser) bracket(b *strings.Builder) bool {
	b.WriteByte('[')
	if p.peek() == '^' {
		b.WriteByte(p.next())
	}
	if p.peek() == ']' {
		b.WriteByte(p.next())
	}
	for !p.eof() {
		c := p.next()
		switch {
		case c == ']':
			b.WriteByte(c)
			return true
		case c == '\n':
			return false
		case c == '[' && (p.peek() == ':' || p.peek() == '.' || p.peek() == '='):
			kind := p.next()
			b.WriteByte(c)
			b.WriteByte(kind)
			for !p.eof() {
				d := p.next()
				if d == '\n' {
					return false
				}
				b.WriteByte(d)
				if d == kind && p.peek() == ']' {
					b.WriteByte(p.next())
					break
				}
			}
		case c == '\\' && p.peek() != 0 && strings.IndexByte("ntxdocafvr", p.peek()) >= 0:
			if e, n, _ := sedCharEscape(p.src[p.i:]); n > 0 {
				p.i += n
				b.WriteByte(e)
			} else {
				b.WriteByte(c)
			}
		default:
			b.WriteByte(c)
		}
	}
	return false
}

func (p *sedParser) regex(pat string, flags posixre.Flags) (*sedRegex, error) {
	if pat == "" {
		return &sedRegex{}, nil
	}
	sr := &sedRegex{src: pat, icase: flags&posixre.IgnoreCase != 0, lines: flags&posixre.Lines != 0}
	if p.ext {
		// GNU sed compiles with glibc's re_compile (RE_SYNTAX_POSIX_EXTENDED):
		// a repetition with nothing to repeat, a '{' that starts no interval
		// and an unmatched ')' are errors, not literals as in grep.
		flags |= posixre.ERE | posixre.RegComp | posixre.CloseError
	} else {
		flags |= posixre.RegComp // RE_CONTEXT_INVALID_DUP
	}
	if p.posix {
		flags |= posixre.NoGNUOps
	}
	if p.cloc {
		flags |= posixre.Bytes
	}
	re, err := posixre.Compile(pat, flags)
	if err != nil {
		return nil, p.fail(err.Error())
	}
	sr.re = re
	return sr, nil
}

// endCommand accepts what may follow a command: spaces, then ';', a
// newline, '}', '#' or the end.
func (p *sedParser) endCommand() error {
	return p.endWith("extra characters after command")
}

// endWith is endCommand failing with msg (an s command's flags end so,
// with "unknown option to `s'").
func (p *sedParser) endWith(msg string) error {
	p.skipSpace()
	if p.eof() {
		return nil
	}
	switch p.peek() {
	case ';', '\n', '}', '#':
		return nil
	}
	p.i++
	return p.fail(msg)
}

// label reads a label: up to a newline, ';', '}' or a blank (GNU 4.9:
// "b end}" closes a block, ":a p" is the label a and the command p).
func (p *sedParser) label() string {
	p.skipSpace()
	s := p.i
	for !p.eof() && p.peek() != '\n' && p.peek() != ';' && p.peek() != '}' && !sedIsSpace(p.peek()) {
		p.i++
	}
	return p.src[s:p.i]
}

// filename reads the rest of the line.
func (p *sedParser) filename() string {
	p.skipSpace()
	s := p.i
	for !p.eof() && p.peek() != '\n' {
		p.i++
	}
	return p.src[s:p.i]
}

// text reads the text of a, i and c: the GNU one-line form or the classic
// form after a backslash and newline.
func (p *sedParser) text() (string, error) {
	p.skipSpace()
	if p.eof() {
		return "", p.fail("expected \\ after `a', `c' or `i'")
	}
	if p.peek() != '\\' && p.posix {
		p.i++
		return "", p.fail("expected \\ after `a', `c' or `i'")
	}
	if p.peek() == '\\' {
		p.i++
		if p.eof() && !p.isFile {
			if p.posix {
				return "", p.fail("incomplete command")
			}
			return "", errSedPending
		}
		if p.peek() == '\n' {
			p.i++
		}
	}
	t, more := p.textBody()
	if more {
		if p.posix {
			return "", p.fail("incomplete command")
		}
		return t + "\n", errSedMore
	}
	return t, nil
}

// sedGNUCommands are GNU's commands that --posix does not know.
const sedGNUCommands = "FzQeTvRWL"

// errSedPending marks an "a\\" at the end of an -e piece, errSedMore a
// text whose last line ends in a backslash there: GNU joins the -e pieces
// with newlines, so the text goes on in the next piece.
var (
	errSedPending = &sedError{"pending text"}
	errSedMore    = &sedError{"more text"}
)

// textBody reads text up to an unescaped newline; more reports a
// backslash that ends an -e piece (the text continues in the next one).
func (p *sedParser) textBody() (text string, more bool) {
	var b strings.Builder
	for !p.eof() {
		c := p.next()
		if c == '\n' {
			break
		}
		if c == '\\' {
			if p.eof() {
				return b.String(), !p.isFile
			}
			if e, n, bad := sedCharEscape(p.src[p.i:]); n > 0 {
				p.i += n
				b.WriteByte(e)
				continue
			} else if bad {
				p.badCtrl = true
			}
			c = p.next()
		}
		b.WriteByte(c)
	}
	return b.String(), false
}

// sedCharEscape decodes the GNU escape that s (the text after a
// backslash, up to the end of its command's text) starts with: \a \f \n
// \r \t \v, \cX (control-X), \dNNN (decimal), \oNNN (octal) and \xHH
// (hex); n is the bytes it used, 0 for no escape. As GNU's
// normalize_text: "\c\\" is control-backslash, "\c" at the end is a
// backslash, "\c\X" for another X is an error (bad).
func sedCharEscape(s string) (b byte, n int, bad bool) {
	if s == "" {
		return 0, 0, false
	}
	switch s[0] {
	case 'a':
		return '\a', 1, false
	case 'f':
		return '\f', 1, false
	case 'n':
		return '\n', 1, false
	case 'r':
		return '\r', 1, false
	case 't':
		return '\t', 1, false
	case 'v':
		return '\v', 1, false
	case 'c':
		switch {
		case len(s) < 2:
			return '\\', 1, false
		case s[1] != '\\':
			return sedCtrl(s[1]), 2, false
		case len(s) > 2 && s[2] == '\\':
			return sedCtrl('\\'), 3, false
		}
		return 0, 0, true
	case 'd', 'o', 'x':
		base, max := 10, 3
		if s[0] == 'o' {
			base = 8
		} else if s[0] == 'x' {
			base, max = 16, 2
		}
		v, i := 0, 1
		for ; i <= max && i < len(s); i++ {
			d := gnu.DigitValue(s[i])
			if d >= base {
				break
			}
			v = v*base + d
		}
		if i == 1 {
			return 0, 0, false
		}
		return byte(v), i, false
	}
	return 0, 0, false
}

// sedCtrl is \cX: X in upper case with bit 6 flipped.
func sedCtrl(x byte) byte {
	if x >= 'a' && x <= 'z' {
		x -= 'a' - 'A'
	}
	return x ^ 0x40
}

// regexCtrl reads the rest of a "\c" in a regex, whose text GNU cuts at
// the delimiter before it decodes: "\c" right before the delimiter is a
// lone backslash (a trailing backslash for regcomp), "\c\\" control-
// backslash, "\c\" and the delimiter (or n) control-delimiter (newline);
// "\c\" and anything else is noted for ctrlFail.
func (p *sedParser) regexCtrl(b *strings.Builder, delim byte) {
	switch {
	case p.eof() || p.peek() == delim:
		b.WriteByte('\\')
	case p.peek() != '\\':
		b.WriteByte(sedCtrl(p.next()))
	case p.i+1 < len(p.src) && (p.src[p.i+1] == '\\' || p.src[p.i+1] == delim):
		p.i++
		b.WriteByte(sedCtrl(p.next()))
	case p.i+1 < len(p.src) && p.src[p.i+1] == 'n':
		p.i += 2
		b.WriteByte(sedCtrl('\n'))
	default:
		p.badCtrl = true
		b.WriteString(`\c`)
	}
}

func (p *sedParser) command(cmd *sedCmd) error {
	prog := p.prog
	idx := len(prog.cmds)
	switch cmd.name {
	case '{':
		prog.blocks = append(prog.blocks, idx)
		prog.cmds = append(prog.cmds, cmd)
		return nil
	case '}':
		if cmd.a1 != nil {
			return p.fail("`}' doesn't want any addresses")
		}
		if len(prog.blocks) == 0 {
			return p.fail("unexpected `}'")
		}
		open := prog.blocks[len(prog.blocks)-1]
		prog.blocks = prog.blocks[:len(prog.blocks)-1]
		prog.cmds[open].target = idx
		prog.cmds = append(prog.cmds, cmd)
		return p.endCommand()
	case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		prog.cmds = append(prog.cmds, cmd)
		return p.endCommand()
	case 'a', 'i', 'c':
		t, err := p.text()
		switch err {
		case nil:
		case errSedPending:
			p.prog.pending = cmd
			cmd.bare = true
		case errSedMore:
			p.prog.pending = cmd
		default:
			return err
		}
		cmd.text = t
	case ':':
		if cmd.a1 != nil {
			return p.fail(": doesn't want any addresses")
		}
		l := p.label()
		if l == "" {
			return p.fail("\":\" lacks a label")
		}
		cmd.text = l
	case 'b', 't', 'T':
		cmd.text = p.label()
	case 'r', 'R', 'w', 'W':
		if p.prog.sandbox {
			return p.fail("e/r/w commands disabled in sandbox mode")
		}
		f := p.filename()
		if f == "" {
			return p.fail("missing filename in r/R/w/W commands")
		}
		cmd.text = f
		if cmd.name == 'w' || cmd.name == 'W' {
			out, err := prog.open(f)
			if err != nil {
				return &sedError{"couldn't open file " + f + ": " + ErrText(err)}
			}
			cmd.wout = out
		}
	case 'q', 'Q', 'l', 'L':
		if cmd.name == 'L' {
			break
		}
		p.skipSpace()
		if c := p.peek(); c >= '0' && c <= '9' && !p.posix {
			cmd.num = p.number()
		}
		prog.cmds = append(prog.cmds, cmd)
		return p.endCommand()
	case 's':
		cmd.cloc = p.cloc
		return p.subst(cmd)
	case 'y':
		cmd.cloc = p.cloc
		return p.yank(cmd)
	case 'e':
		if p.prog.sandbox {
			return p.fail("e/r/w commands disabled in sandbox mode")
		}
		if p.prog.noExec {
			return p.fail("e command not supported: no command can run here")
		}
		cmd.text = p.filename()
	case 'v':
		// GNU sed 4.9 refuses a script that asks for a later version.
		if v := p.label(); v != "" && sortVerCmp([]byte(v), []byte("4.9")) > 0 {
			return p.fail("expected newer version of sed")
		}
	case '#':
		if cmd.a1 != nil {
			return p.fail("comments don't accept any addresses")
		}
		for !p.eof() && p.peek() != '\n' {
			p.i++
		}
		return nil
	default:
		return p.fail("unknown command: `" + string(cmd.name) + "'")
	}
	if cmd.name == 'L' {
		return p.fail("unknown command: `L'")
	}
	if cmd.name != 'v' {
		prog.cmds = append(prog.cmds, cmd)
	}
	return nil
}

func (p *sedParser) subst(cmd *sedCmd) error {
	if p.eof() {
		return p.fail("unterminated `s' command")
	}
	delim := p.next()
	if delim == '\n' || delim == '\\' {
		return p.fail("unterminated `s' command")
	}
	pat, ok := p.delimited(delim, true)
	if !ok {
		return p.fail("unterminated `s' command")
	}
	rep, ok := p.delimited(delim, false)
	if !ok {
		return p.fail("unterminated `s' command")
	}
	if err := p.ctrlFail(); err != nil {
		return err
	}
	flags, err := p.substFlags(cmd)
	if err != nil {
		return err
	}
	re, err := p.regex(pat, flags)
	if err != nil {
		return err
	}
	cmd.re = re
	ngroups := 9
	if re.re != nil {
		ngroups = re.re.NumSubexp()
	}
	parts, err := p.replacement(rep, ngroups)
	if err != nil {
		return err
	}
	cmd.repl = parts
	if cmd.nth == 0 {
		cmd.nth = 1
	}
	p.prog.cmds = append(p.prog.cmds, cmd)
	if cmd.wout != nil {
		return nil
	}
	return p.endWith("unknown option to `s'")
}

// substFlags reads the flags after an s command's replacement (g p N i m
// e w FILE) into cmd, and returns the regexp's flags.
func (p *sedParser) substFlags(cmd *sedCmd) (posixre.Flags, error) {
	var flags posixre.Flags
	for done := false; !done; {
		c := p.peek()
		switch {
		case c == 'g':
			p.i++
			if cmd.global {
				return 0, p.fail("multiple `g' options to `s' command")
			}
			cmd.global = true
		case c == 'p':
			p.i++
			// GNU: p before e prints before the command runs.
			if cmd.print > 0 || cmd.preP {
				return 0, p.fail("multiple `p' options to `s' command")
			}
			cmd.print++
		case c == ' ' || c == '\t':
			p.i++ // GNU skips blanks between the flags: s/a/b/g p
		case p.posix && strings.IndexByte("iImMe", c) >= 0:
			done = true // GNU's flags: "unknown option to `s'"
		case c == 'i' || c == 'I':
			p.i++
			flags |= posixre.IgnoreCase
		case c == 'm' || c == 'M':
			p.i++
			flags |= posixre.Lines
		case c == 'e':
			p.i++
			if p.prog.sandbox {
				return 0, p.fail("e/r/w commands disabled in sandbox mode")
			}
			if p.prog.noExec {
				return 0, p.fail("s///e not supported: no command can run here")
			}
			if !cmd.eval && cmd.print > 0 {
				cmd.preP, cmd.print = true, 0
			}
			cmd.eval = true
		case c >= '0' && c <= '9':
			if cmd.nth != 0 {
				p.number()
				return 0, p.fail("multiple number options to `s' command")
			}
			n := p.number()
			if n == 0 {
				return 0, p.fail("number option to `s' command may not be zero")
			}
			cmd.nth = int(min(n, 1<<30))
			cmd.nthSet = true
		case c == 'w':
			p.i++
			if p.prog.sandbox {
				return 0, p.fail("e/r/w commands disabled in sandbox mode")
			}
			f := p.filename()
			if f == "" {
				return 0, p.fail("missing filename in r/R/w/W commands")
			}
			out, err := p.prog.open(f)
			if err != nil {
				return 0, &sedError{"couldn't open file " + f + ": " + ErrText(err)}
			}
			cmd.wout = out
			cmd.text = f
			done = true
		default:
			done = true
		}
	}
	return flags, nil
}

// replBuilder gathers the pieces of an s replacement (sed's and ed's):
// runs of literal bytes between the groups and case conversions.
type replBuilder struct {
	parts []sedRepl
	lit   []byte
}

func (b *replBuilder) flush() {
	if len(b.lit) > 0 {
		b.parts = append(b.parts, sedRepl{lit: b.lit, group: -1})
		b.lit = nil
	}
}

// group adds group g (0: the whole match).
func (b *replBuilder) group(g int) {
	b.flush()
	b.parts = append(b.parts, sedRepl{group: g})
}

// convert adds a case conversion (\L \U \l \u \E).
func (b *replBuilder) convert(c byte) {
	b.flush()
	b.parts = append(b.parts, sedRepl{group: -1, cas: c})
}

func (b *replBuilder) done() []sedRepl {
	b.flush()
	return b.parts
}

func (p *sedParser) replacement(rep string, ngroups int) ([]sedRepl, error) {
	var b replBuilder
	for i := 0; i < len(rep); i++ {
		c := rep[i]
		if c == '&' {
			b.group(0)
			continue
		}
		if c != '\\' || i+1 >= len(rep) {
			b.lit = append(b.lit, c)
			continue
		}
		i++
		d := rep[i]
		switch {
		case d >= '0' && d <= '9':
			g := int(d - '0')
			if g > ngroups {
				return nil, p.fail("invalid reference \\" + string(d) + " on `s' command's RHS")
			}
			b.group(g)
		case (d == 'L' || d == 'U' || d == 'l' || d == 'u' || d == 'E') && !p.posix:
			b.convert(d)
		case d == 'n':
			b.lit = append(b.lit, '\n')
		default:
			if e, n, bad := sedCharEscape(rep[i:]); n > 0 {
				b.lit = append(b.lit, e)
				i += n - 1
				continue
			} else if bad {
				return nil, p.fail(errSedRecursiveC)
			}
			b.lit = append(b.lit, d)
		}
	}
	return b.done(), nil
}

func (p *sedParser) yank(cmd *sedCmd) error {
	if p.eof() {
		return p.fail("unterminated `y' command")
	}
	delim := p.next()
	src, ok := p.delimited(delim, false)
	if !ok {
		return p.fail("unterminated `y' command")
	}
	dst, ok := p.delimited(delim, false)
	if !ok {
		return p.fail("unterminated `y' command")
	}
	var fail string
	unescape := func(s string) []rune {
		var out []rune
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && i+1 < len(s) {
				i++
				e, n, bad := sedCharEscape(s[i:])
				switch {
				case bad:
					fail = errSedRecursiveC
				case s[i] == 'c' && i+1 == len(s):
					// GNU: the backslash a final "\c" leaves is one
					// more than the other string has.
					fail = "strings for `y' command are different lengths"
				case n > 0:
					out = append(out, rune(e))
					i += n - 1
				case s[i] == 'n':
					out = append(out, '\n')
				default:
					out = append(out, rune(s[i])) // GNU: \\ is \, \q is q
				}
				continue
			}
			r := rune(s[i])
			if s[i] >= 0x80 && !p.cloc {
				rs := []rune(s[i:])
				if rs[0] != 0xFFFD {
					r = rs[0]
					i += len(string(r)) - 1
				}
			}
			out = append(out, r)
		}
		return out
	}
	a, b := unescape(src), unescape(dst)
	if fail != "" {
		return p.fail(fail)
	}
	if len(a) != len(b) {
		return p.fail("strings for `y' command are different lengths")
	}
	cmd.ymap = map[rune]rune{}
	for i := range a {
		cmd.ymap[a[i]] = b[i]
	}
	p.prog.cmds = append(p.prog.cmds, cmd)
	return p.endCommand()
}

// resolve checks blocks and jump labels once every piece is parsed.
func (prog *sedProg) resolve() error {
	if len(prog.blocks) > 0 {
		return &sedError{"-e expression #1, char 0: unmatched `{'"}
	}
	labels := map[string]int{}
	for i, c := range prog.cmds {
		if c.name == ':' {
			labels[c.text] = i
		}
	}
	for _, c := range prog.cmds {
		switch c.name {
		case 'b', 't', 'T':
			if c.text == "" {
				c.target = len(prog.cmds)
				continue
			}
			t, ok := labels[c.text]
			if !ok {
				return &sedError{"can't find label for jump to `" + c.text + "'"}
			}
			c.target = t
		}
	}
	return nil
}
