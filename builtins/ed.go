package builtins

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/posixre"
)

var _ = register(Builtin{Name: "ed", Summary: "line-oriented text editor", Run: edMain})

// edLine is one line of the buffer; marks point at lines, so that they
// follow a line as others are inserted or deleted before it.
type edLine struct{ s string }

// edErr is an ed error: the "?" ed prints, with the message that H and
// h show.
type edErr string

func (e edErr) Error() string { return string(e) }

var (
	errEdQuit     = errors.New("quit")
	errEdModified = edErr("Warning: buffer modified")
)

const (
	edInvalidAddr   = edErr("Invalid address")
	edInvalidSuffix = edErr("Invalid command suffix")
	edUnknownCmd    = edErr("Unknown command")
	edNoMatch       = edErr("No match")
	edNoPrevPattern = edErr("No previous pattern")
	edNoFilename    = edErr("No current filename")
	edUnexpAddr     = edErr("Unexpected address")
	edNoUndo        = edErr("Nothing to undo")
	edInvalidDest   = edErr("Invalid destination")
	edInvalidMark   = edErr("Invalid mark character")
	edInputFile     = edErr("Cannot open input file")
	edOutputFile    = edErr("Cannot open output file")
	edNestedGlobal  = edErr("Cannot nest global commands")
	edNoPrevSubst   = edErr("No previous substitution")
	edNoPrevCommand = edErr("No previous command")
	edMissingDelim  = edErr("Missing pattern delimiter")
	edNoShell       = edErr("Shell commands are not available here")
)

// edState is one editing session: the buffer and what the commands
// remember between them.
type edState struct {
	env      *Env
	w        *bufio.Writer
	in       *bufio.Reader
	buf      []*edLine
	cur      int // current line, 1-based; 0 when the buffer is empty
	marks    map[byte]*edLine
	modified bool
	fname    string
	silent   bool // -s: no byte counts
	quiet    bool // -q: no diagnostics on stderr
	verbose  bool
	ext      bool
	prompt   string
	promptOn bool
	re       *posixre.Regexp // the last regular expression, of any command
	subRe    *posixre.Regexp // the last substitution's
	repl     []sedRepl       // the last substitution's replacement
	replSrc  string
	haveRepl bool
	subGlob  bool
	subNth   int
	errmsg   string
	cut      []string
	undo     *edUndo
	inGlobal bool
	list     []string // the rest of a global command list, read by a, i, c
	lastCmd  string   // the last ! command
	size     int      // about what the buffer holds, at least (grow)
	over     bool     // the buffer passed its bound: the run is stopped
}

// edLineCost is what a line of the buffer holds besides its text: its
// edLine and the pointers to it in the buffer and the undo copy.
const edLineCost = 48

// grow reports whether n more bytes fit in the buffer, which is held
// whole as one value: past Env.MaxLine the run stops, as a held input
// does (session 33, red team: the file read was bounded, not what the
// commands made of it: 40 rounds of ",t$" doubled one line until the
// memory guard, at 207 MB of RSS under --max-memory 64M; "r" of a file
// repeated, "s/.*/&&/" repeated likewise). size only grows (a removal
// leaves it): past the bound it is counted again.
func (e *edState) grow(n int) bool {
	if e.env.MaxLine <= 0 {
		return true
	}
	if e.size+n > e.env.MaxLine {
		e.recount()
	}
	if e.size+n <= e.env.MaxLine {
		e.size += n
		return true
	}
	if !e.over {
		e.over = true
		e.env.lineTooLong()
	}
	return false
}

// recount sets size to what the buffer holds (an undo brings back a
// buffer that a substitution may have made smaller since).
func (e *edState) recount() {
	e.size = 0
	for _, l := range e.buf {
		e.size += len(l.s) + edLineCost
	}
}

type edUndo struct {
	buf      []*edLine
	cur      int
	modified bool
}

func edMain(env *Env) int {
	f := NewFlags(env, "GNU ed is a line-oriented text editor. It is used to create, display,\nmodify and otherwise manipulate text files, both interactively and via\nshell scripts. In llmsh it edits files through vfsd, and `!` commands\nrun llmsh's own commands.", "[OPTION]... [FILE]")
	e := &edState{env: env, marks: map[byte]*edLine{}, subNth: 1}
	f.BoolVar(&e.ext, 'E', "extended-regexp", "use extended regular expressions")
	f.Bool('G', "traditional", "run in compatibility mode")
	loose := f.Bool('l', "loose-exit-status", "exit with 0 status even if a command fails")
	f.Func('p', "prompt", RequiredArg, "STRING", "use STRING as an interactive prompt", func(v string, _ bool) error {
		e.prompt, e.promptOn = v, true
		return nil
	})
	f.BoolVar(&e.quiet, 'q', "quiet", "suppress diagnostics written to stderr")
	f.Synonym("silent", "quiet")
	f.Bool('r', "restricted", "run in restricted mode")
	f.BoolVar(&e.silent, 's', "script", "suppress byte counts and '!' prompt")
	f.BoolVar(&e.verbose, 'v', "verbose", "be verbose; equivalent to the 'H' command")
	version := shortHelpVersion(f, 'h', 'V')
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if len(operands) > 1 {
		return f.Fail(&UsageError{"too many arguments"}, 1)
	}
	e.w = stdoutWriter(env)
	defer e.w.Flush()
	e.in = bufio.NewReader(env.Stdin)
	status := 0
	if len(operands) == 1 && operands[0] != "" {
		name := operands[0]
		if strings.HasPrefix(name, "!") {
			n, err := e.readCommand(name[1:], 0)
			if err != nil {
				status = 1
			} else {
				e.printCount(n)
			}
		} else {
			// A file that cannot be read leaves the buffer empty,
			// named for a later w, and is no error of ed's status.
			e.fname = name
			if n, err := e.readFile(name, 0); err == nil {
				e.printCount(n)
			}
		}
		e.undo = nil
		e.modified = false
	}
	prevModified := false
	for {
		if env.Ctx.Err() != nil || e.over {
			return 1
		}
		if e.promptOn {
			e.w.WriteString(e.prompt)
		}
		e.w.Flush()
		line, ok := e.readInput()
		var err error
		if !ok {
			if !e.modified || prevModified {
				return status
			}
			err = errEdModified
			if !*loose {
				status = 2
			}
		} else {
			err = e.command(line, prevModified)
			if e.over {
				return 1 // the buffer passed its bound (grow)
			}
		}
		prevModified = false
		if err == nil {
			continue
		}
		if err == errEdQuit {
			return status
		}
		e.w.WriteString("?\n")
		if !*loose && status == 0 {
			status = 1
		}
		e.errmsg = err.Error()
		if err == errEdModified {
			prevModified = true
		}
		if e.verbose {
			e.w.WriteString(e.errmsg + "\n")
		}
	}
}

// readInput reads a line of standard input without its newline; false
// at the end of the input (and for a last line without a newline).
func (e *edState) readInput() (string, bool) {
	e.w.Flush()
	s, err := e.in.ReadString('\n')
	if err != nil {
		// GNU ed drops a last line that has no newline, unread.
		return "", false
	}
	return strings.TrimSuffix(s, "\n"), true
}

// readText reads the next line of text for a, i, c and a continued
// command: from the global command list when in one, else from the input.
func (e *edState) readText() (string, bool) {
	if e.inGlobal {
		if len(e.list) == 0 {
			return "", false
		}
		s := e.list[0]
		e.list = e.list[1:]
		return s, true
	}
	return e.readInput()
}

// diagnose reports a file's error on stderr, unless -q.
func (e *edState) diagnose(name string, err error) {
	if e.quiet {
		return
	}
	e.w.Flush()
	fmt.Fprintf(e.env.Stderr, "%s: %s\n", name, ErrText(err))
}

func (e *edState) printCount(n int) {
	if !e.silent {
		fmt.Fprintf(e.w, "%d\n", n)
	}
}

// readFile inserts the lines of name after line at and returns the
// number of bytes read.
func (e *edState) readFile(name string, at int) (int, error) {
	r, err := e.env.Open(name)
	if err != nil {
		e.diagnose(name, err)
		return 0, edInputFile
	}
	data, err := readHeld(e.env, r) // the buffer is held whole: one value
	r.Close()
	if err != nil {
		if !quietStop(err) {
			e.diagnose(name, err)
		}
		return 0, edInputFile
	}
	e.insertText(data, at)
	return len(data), nil
}

// readCommand inserts the output of the shell command cmd after line at.
func (e *edState) readCommand(cmd string, at int) (int, error) {
	var out bytes.Buffer
	if err := e.shell(cmd, &out); err != nil {
		return 0, err
	}
	e.insertText(out.Bytes(), at)
	return out.Len(), nil
}

func (e *edState) insertText(data []byte, at int) {
	if len(data) == 0 {
		return
	}
	text := strings.TrimSuffix(string(data), "\n")
	lines := strings.Split(text, "\n")
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) && !e.silent {
		e.w.WriteString("Newline appended\n")
	}
	e.insertLines(at, lines)
}

// insertLines puts lines after line at and makes the last one current.
func (e *edState) insertLines(at int, lines []string) {
	n := 0
	for _, s := range lines {
		n += len(s) + edLineCost
	}
	if !e.grow(n) {
		return
	}
	nl := make([]*edLine, len(lines))
	for i, s := range lines {
		nl[i] = &edLine{s}
	}
	e.buf = append(e.buf[:at], append(nl, e.buf[at:]...)...)
	e.cur = at + len(lines)
	if len(lines) > 0 {
		e.modified = true
	}
}

func (e *edState) deleteLines(a1, a2 int) {
	e.cut = e.cut[:0]
	for _, l := range e.buf[a1-1 : a2] {
		e.cut = append(e.cut, l.s)
	}
	e.buf = append(e.buf[:a1-1], e.buf[a2:]...)
	e.modified = true
}

func (e *edState) last() int { return len(e.buf) }

// saveUndo records the buffer before a change (once for a whole global
// command).
func (e *edState) saveUndo() {
	if e.inGlobal {
		return
	}
	e.undo = &edUndo{buf: append([]*edLine(nil), e.buf...), cur: e.cur, modified: e.modified}
}

func (e *edState) shell(cmd string, out io.Writer) error {
	if e.env.Exec == nil {
		return edNoShell
	}
	e.w.Flush()
	e.env.Exec(e.env.Ctx, []string{"sh", "-c", cmd}, bytes.NewReader(nil), out, e.env.Stderr)
	return nil
}

// edParser reads one command line.
type edParser struct {
	s string
	i int
}

func (p *edParser) eof() bool  { return p.i >= len(p.s) }
func (p *edParser) peek() byte { return p.at(0) }
func (p *edParser) at(k int) byte {
	if p.i+k < len(p.s) {
		return p.s[p.i+k]
	}
	return 0
}
func (p *edParser) skipBlanks() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}
func (p *edParser) number() int {
	j := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	n, err := strconv.Atoi(p.s[j:p.i])
	if err != nil {
		return 1 << 30
	}
	return n
}

// delimited reads up to the next unescaped delim (not inside a bracket
// expression), which it consumes; closed is false when the line ended
// first.
func (p *edParser) delimited(delim byte) (s string, closed bool) {
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == delim:
			p.i++
			return b.String(), true
		case c == '\\' && p.i+1 < len(p.s):
			if p.s[p.i+1] == delim && delim != '\\' {
				b.WriteByte(delim)
			} else {
				b.WriteByte(c)
				b.WriteByte(p.s[p.i+1])
			}
			p.i += 2
			continue
		case c == '[':
			j := p.i + 1
			if j < len(p.s) && p.s[j] == '^' {
				j++
			}
			if j < len(p.s) && p.s[j] == ']' {
				j++
			}
			for j < len(p.s) && p.s[j] != ']' {
				if p.s[j] == '[' && j+1 < len(p.s) && strings.IndexByte(".:=", p.s[j+1]) >= 0 {
					if k := strings.Index(p.s[j+2:], string(p.s[j+1])+"]"); k >= 0 {
						j += k + 4
						continue
					}
				}
				j++
			}
			if j < len(p.s) {
				b.WriteString(p.s[p.i : j+1])
				p.i = j + 1
				continue
			}
		}
		b.WriteByte(c)
		p.i++
	}
	return b.String(), false
}

// regex compiles pat, or gives the last one for an empty pat.
func (e *edState) regex(pat string) (*posixre.Regexp, error) {
	if pat == "" {
		if e.re == nil {
			return nil, edNoPrevPattern
		}
		return e.re, nil
	}
	fl := posixre.Flags(0)
	if e.ext {
		fl |= posixre.ERE
	}
	re, err := posixre.Compile(pat, fl)
	if err != nil {
		return nil, edErr(edRegexMessage(err))
	}
	e.re = re
	return re, nil
}

// edRegexMessage turns a regex error into glibc's regerror text, which
// ed shows.
func edRegexMessage(err error) string {
	msg := err.Error()
	for _, m := range []string{"Unmatched ( or \\(", "Unmatched [, [^, [:, [., or [=", "Unmatched \\{", "Invalid preceding regular expression", "Invalid back reference", "Invalid range end", "Invalid character class name", "Trailing backslash", "Invalid content of \\{\\}", "Unmatched ) or \\)", "Regular expression too big"} {
		if strings.Contains(msg, m) {
			return m
		}
	}
	return msg
}

func (e *edState) matches(re *posixre.Regexp, s string) bool {
	ok, err := re.MatchContext(e.env.Ctx, []byte(s))
	return err == nil && ok
}

// search finds the next line (backward: the previous one) that matches
// the pattern read up to delim, wrapping around the buffer.
func (e *edState) search(p *edParser, delim byte) (int, error) {
	pat, _ := p.delimited(delim)
	re, err := e.regex(pat)
	if err != nil {
		return -1, err
	}
	n := e.last()
	for k := 1; k <= n; k++ {
		var i int
		if delim == '/' {
			i = (e.cur+k-1)%n + 1
		} else {
			i = ((e.cur-k-1)%n+n)%n + 1
		}
		if e.matches(re, e.buf[i-1].s) {
			return i, nil
		}
	}
	return -1, edNoMatch
}

func (e *edState) markAddr(c byte) (int, error) {
	if c < 'a' || c > 'z' {
		return -1, edInvalidMark
	}
	l := e.marks[c]
	for i, x := range e.buf {
		if l != nil && x == l {
			return i + 1, nil
		}
	}
	return -1, edInvalidAddr
}

// addresses reads the addresses before a command, as GNU ed's
// extract_addresses does, and returns how many were given (0, 1 or 2)
// and the two (both the current line when none).
func (e *edState) addresses(p *edParser) (cnt, a1, a2 int, err error) {
	first := true
	a1, a2 = -1, -1
	p.skipBlanks()
	for {
		c := p.peek()
		switch {
		case c >= '0' && c <= '9':
			n := p.number()
			if first {
				first = false
				a2 = n
			} else {
				a2 += n
			}
		case c == ' ' || c == '\t':
			p.skipBlanks()
		case c == '+' || c == '-' || c == '^':
			if first {
				first = false
				a2 = e.cur
			}
			p.i++
			n := 1
			if d := p.peek(); d >= '0' && d <= '9' {
				n = p.number()
			}
			if c != '+' {
				n = -n
			}
			a2 += n
		case c == '.' || c == '$':
			if !first {
				return 0, 0, 0, edInvalidAddr
			}
			first = false
			p.i++
			a2 = e.cur
			if c == '$' {
				a2 = e.last()
			}
		case c == '/' || c == '?':
			if !first {
				return 0, 0, 0, edInvalidAddr
			}
			p.i++
			n, err := e.search(p, c)
			if err != nil {
				return 0, 0, 0, err
			}
			a2, first = n, false
		case c == '\'':
			if !first {
				return 0, 0, 0, edInvalidAddr
			}
			p.i++
			m := p.peek()
			p.i++
			n, err := e.markAddr(m)
			if err != nil {
				return 0, 0, 0, err
			}
			a2, first = n, false
		case c == ',' || c == ';' || c == '%':
			if first {
				if a1 < 0 {
					a1, a2 = 1, e.last()
					if c == ';' {
						a1 = e.cur
					}
				} else {
					a1 = a2
				}
			} else {
				if a2 < 0 || a2 > e.last() {
					return 0, 0, 0, edInvalidAddr
				}
				if c == ';' {
					e.cur = a2
				}
				a1, first = a2, true
			}
			p.i++
		default:
			if !first && (a2 < 0 || a2 > e.last()) {
				return 0, 0, 0, edInvalidAddr
			}
			if a2 >= 0 {
				cnt = 1
				if a1 >= 0 {
					cnt = 2
				}
			}
			if cnt == 0 {
				a2 = e.cur
			}
			if cnt <= 1 {
				a1 = a2
			}
			return cnt, a1, a2, nil
		}
	}
}

// suffix reads the print suffix (any of l, n, p) that may end a
// command, and the end of the line.
func suffix(p *edParser) (byte, error) {
	var mode byte
	for !p.eof() {
		switch c := p.peek(); c {
		case 'p', 'l', 'n':
			if mode == 0 || c != 'p' {
				mode = c
			}
			p.i++
		default:
			return 0, edInvalidSuffix
		}
	}
	return mode, nil
}

// fileName reads the file name operand of e, E, f, r, w and W.
func fileName(p *edParser) (string, error) {
	if p.eof() {
		return "", nil
	}
	if c := p.peek(); c != ' ' && c != '\t' {
		return "", edInvalidSuffix
	}
	p.skipBlanks()
	name := p.s[p.i:]
	p.i = len(p.s)
	return name, nil
}

func (e *edState) printLines(a1, a2 int, mode byte) {
	for i := a1; i <= a2; i++ {
		s := e.buf[i-1].s
		switch mode {
		case 'n':
			fmt.Fprintf(e.w, "%d\t%s\n", i, s)
		case 'l':
			e.w.WriteString(edListLine(s))
		default:
			e.w.WriteString(s + "\n")
		}
	}
	e.cur = a2
}

// edListLine is a line as the l command shows it: escapes for what is
// not printable, "$" at its end, and long lines folded with "\".
func edListLine(s string) string {
	var b strings.Builder
	col := 0
	put := func(t string) {
		if col+len(t) > 72 {
			b.WriteString("\\\n")
			col = 0
		}
		b.WriteString(t)
		col += len(t)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			put("\\\\")
		case c == '\a':
			put("\\a")
		case c == '\b':
			put("\\b")
		case c == '\f':
			put("\\f")
		case c == '\r':
			put("\\r")
		case c == '\t':
			put("\\t")
		case c == '\v':
			put("\\v")
		case c < 32 || c >= 127:
			put(fmt.Sprintf("\\%03o", c))
		default:
			put(string(c))
		}
	}
	b.WriteString("$\n")
	return b.String()
}

// command runs one command line. prevModified says the previous command
// was refused with "buffer modified", which lets q and e go on.
func (e *edState) command(line string, prevModified bool) error {
	p := &edParser{s: line}
	cnt, a1, a2, err := e.addresses(p)
	if err != nil {
		return err
	}
	p.skipBlanks()
	if p.eof() {
		// A bare address prints its line; an empty line the next one.
		if cnt == 0 {
			a2 = e.cur + 1
		}
		if a2 < 1 || a2 > e.last() {
			return edInvalidAddr
		}
		e.printLines(a2, a2, 0)
		return nil
	}
	x := &edCmd{p: p, c: p.peek(), cnt: cnt, a1: a1, a2: a2, prevModified: prevModified}
	p.i++
	var mode byte
	switch x.c {
	case 'a', 'i', 'c':
		mode, err = e.cmdText(x)
	case 'd':
		mode, err = e.cmdDelete(x)
	case 'e', 'E':
		mode, err = e.cmdEdit(x)
	case 'f':
		mode, err = e.cmdFileName(x)
	case 'h', 'H':
		mode, err = e.cmdHelp(x)
	case 'j':
		mode, err = e.cmdJoin(x)
	case 'k':
		mode, err = e.cmdMark(x)
	case 'l', 'n', 'p':
		mode, err = e.cmdPrint(x)
	case 'm', 't':
		mode, err = e.cmdMove(x)
	case 'P':
		mode, err = e.cmdPrompt(x)
	case 'q', 'Q':
		mode, err = e.cmdQuit(x)
	case 'r':
		mode, err = e.cmdRead(x)
	case 'u':
		mode, err = e.cmdUndo(x)
	case 'w', 'W':
		mode, err = e.cmdWrite(x)
	case 'x':
		mode, err = e.cmdPut(x)
	case 'y':
		mode, err = e.cmdYank(x)
	case 'z':
		mode, err = e.cmdScroll(x)
	case '=':
		mode, err = e.cmdLineNumber(x)
	case '#':
		mode, err = e.cmdComment(x)
	case '!':
		mode, err = e.cmdShell(x)
	case 'g', 'v', 'G', 'V':
		return e.global(p, x.c, cnt, a1, a2)
	case 's':
		return e.substitute(p, a1, a2)
	default:
		return edUnknownCmd
	}
	if err != nil {
		return err
	}
	if mode != 0 && e.cur >= 1 && e.cur <= e.last() {
		e.printLines(e.cur, e.cur, mode)
	}
	return nil
}

// edCmd is a command being run: its letter, the rest of its line and
// the addresses before it.
type edCmd struct {
	p            *edParser
	c            byte
	cnt, a1, a2  int
	prevModified bool
}

// edValid checks that the lines a1 to a2 exist.
func edValid(e *edState, a1, a2 int) error {
	if a1 < 1 || a2 > e.last() || a1 > a2 {
		return edInvalidAddr
	}
	return nil
}

// noAddr refuses an address for the commands that take none.
func (x *edCmd) noAddr() error {
	if x.cnt > 0 {
		return edUnexpAddr
	}
	return nil
}

// cmdText is a, i and c: text read up to a "." line.
func (e *edState) cmdText(x *edCmd) (byte, error) {
	p, c, a1, a2 := x.p, x.c, x.a1, x.a2
	mode, err := suffix(p)
	if err != nil {
		return 0, err
	}
	if c == 'c' {
		if err := edValid(e, a1, a2); err != nil {
			return 0, err
		}
	} else if a2 < 0 || a2 > e.last() {
		return 0, edInvalidAddr
	}
	var text []string
	for {
		s, ok := e.readText()
		if !ok || s == "." {
			break
		}
		text = append(text, s)
	}
	e.saveUndo()
	at := a2
	switch c {
	case 'i':
		at = max(a2-1, 0)
	case 'c':
		e.deleteLines(a1, a2)
		at = a1 - 1
	}
	e.insertLines(at, text)
	if len(text) == 0 {
		e.cur = at
		if c == 'c' && a1 <= e.last() {
			e.cur = a1
		}
		if e.cur == 0 && e.last() > 0 {
			e.cur = 1
		}
	}
	return mode, nil
}

// suffixValid reads the print suffix of a command that takes a range,
// then checks the range (as d and y do, in GNU ed's order).
func (e *edState) suffixValid(x *edCmd) (byte, error) {
	mode, err := suffix(x.p)
	if err != nil {
		return 0, err
	}
	return mode, edValid(e, x.a1, x.a2)
}

// cmdDelete is d.
func (e *edState) cmdDelete(x *edCmd) (byte, error) {
	a1, a2 := x.a1, x.a2
	mode, err := e.suffixValid(x)
	if err != nil {
		return 0, err
	}
	e.saveUndo()
	e.deleteLines(a1, a2)
	e.cur = min(a1, e.last())
	if a1 > e.last() {
		e.cur = e.last()
	}
	return mode, nil
}

// cmdEdit is e and E: edit another file.
func (e *edState) cmdEdit(x *edCmd) (byte, error) {
	p, c, prevModified := x.p, x.c, x.prevModified
	if err := x.noAddr(); err != nil {
		return 0, err
	}
	name, err := fileName(p)
	if err != nil {
		return 0, err
	}
	if c == 'e' && e.modified && !prevModified {
		return 0, errEdModified
	}
	if name == "" {
		name = e.fname
	}
	if name == "" {
		return 0, edNoFilename
	}
	e.buf, e.cur, e.marks = nil, 0, map[byte]*edLine{}
	var n int
	if strings.HasPrefix(name, "!") {
		n, err = e.readCommand(name[1:], 0)
	} else {
		e.fname = name
		n, err = e.readFile(name, 0)
	}
	e.undo, e.modified = nil, false
	if err != nil {
		return 0, err
	}
	e.printCount(n)
	return 0, nil
}

// cmdFileName is f: show or set the file name.
func (e *edState) cmdFileName(x *edCmd) (byte, error) {
	p := x.p
	if err := x.noAddr(); err != nil {
		return 0, err
	}
	name, err := fileName(p)
	if err != nil {
		return 0, err
	}
	if name != "" {
		e.fname = name
	}
	if e.fname == "" {
		return 0, edNoFilename
	}
	e.w.WriteString(e.fname + "\n")
	return 0, nil
}

// cmdHelp is h and H: the last error's message.
func (e *edState) cmdHelp(x *edCmd) (byte, error) {
	p, c := x.p, x.c
	if err := x.noAddr(); err != nil {
		return 0, err
	}
	if !p.eof() {
		return 0, edInvalidSuffix
	}
	if c == 'H' {
		e.verbose = !e.verbose
		if !e.verbose {
			return 0, nil
		}
	}
	if e.errmsg != "" {
		e.w.WriteString(e.errmsg + "\n")
	}
	return 0, nil
}

// cmdJoin is j: join lines.
func (e *edState) cmdJoin(x *edCmd) (byte, error) {
	p, cnt, a1, a2 := x.p, x.cnt, x.a1, x.a2
	mode, err := suffix(p)
	if err != nil {
		return 0, err
	}
	if cnt == 0 {
		a1, a2 = a2, a2+1
	}
	if err := edValid(e, a1, a2); err != nil {
		return 0, err
	}
	if a1 < a2 {
		e.saveUndo()
		var b strings.Builder
		for i := a1; i <= a2; i++ {
			b.WriteString(e.buf[i-1].s)
		}
		e.buf[a1-1] = &edLine{b.String()}
		e.buf = append(e.buf[:a1], e.buf[a2:]...)
		e.modified = true
		e.cur = a1
	}
	return mode, nil
}

// cmdMark is k: mark a line.
func (e *edState) cmdMark(x *edCmd) (byte, error) {
	p, a2 := x.p, x.a2
	if p.eof() {
		return 0, edInvalidSuffix
	}
	m := p.peek()
	p.i++
	if m < 'a' || m > 'z' {
		return 0, edInvalidMark
	}
	mode, err := suffix(p)
	if err != nil {
		return 0, err
	}
	if a2 < 1 || a2 > e.last() {
		return 0, edInvalidAddr
	}
	e.marks[m] = e.buf[a2-1]
	return mode, nil
}

// cmdPrint is l, n and p.
func (e *edState) cmdPrint(x *edCmd) (byte, error) {
	p, a1, a2 := x.p, x.a1, x.a2
	p.i--
	mode, err := suffix(p)
	if err != nil {
		return 0, err
	}
	if err := edValid(e, a1, a2); err != nil {
		return 0, err
	}
	e.printLines(a1, a2, mode)
	return 0, nil
}

// cmdMove is m and t: move or copy lines.
func (e *edState) cmdMove(x *edCmd) (byte, error) {
	p, c, a1, a2 := x.p, x.c, x.a1, x.a2
	_, _, dest, err := e.addresses(p)
	if err != nil {
		return 0, err
	}
	if dest < 0 || dest > e.last() {
		return 0, edInvalidDest
	}
	mode, err := suffix(p)
	if err != nil {
		return 0, err
	}
	if err := edValid(e, a1, a2); err != nil {
		return 0, err
	}
	if c == 'm' && dest >= a1 && dest < a2 {
		return 0, edInvalidDest
	}
	e.saveUndo()
	moved := make([]string, 0, a2-a1+1)
	for i := a1; i <= a2; i++ {
		moved = append(moved, e.buf[i-1].s)
	}
	if c == 't' {
		e.insertLines(dest, moved)
		return mode, nil
	}
	lines := append([]*edLine(nil), e.buf[a1-1:a2]...)
	rest := append(append([]*edLine(nil), e.buf[:a1-1]...), e.buf[a2:]...)
	if dest >= a2 {
		dest -= a2 - a1 + 1
	}
	e.buf = append(rest[:dest], append(lines, rest[dest:]...)...)
	e.cur = dest + len(lines)
	e.modified = true
	return mode, nil
}

// cmdPrompt is P: the prompt on or off.
func (e *edState) cmdPrompt(x *edCmd) (byte, error) {
	p := x.p
	if err := x.noAddr(); err != nil {
		return 0, err
	}
	if _, err := suffix(p); err != nil {
		return 0, err
	}
	if e.prompt == "" {
		e.prompt = "*"
	}
	e.promptOn = !e.promptOn
	return 0, nil
}

// cmdQuit is q and Q.
func (e *edState) cmdQuit(x *edCmd) (byte, error) {
	p, c, prevModified := x.p, x.c, x.prevModified
	if err := x.noAddr(); err != nil {
		return 0, err
	}
	if !p.eof() {
		return 0, edInvalidSuffix
	}
	if c == 'q' && e.modified && !prevModified {
		return 0, errEdModified
	}
	return 0, errEdQuit
}

// cmdRead is r: read a file after a line.
func (e *edState) cmdRead(x *edCmd) (byte, error) {
	p, cnt, a2 := x.p, x.cnt, x.a2
	name, err := fileName(p)
	if err != nil {
		return 0, err
	}
	if cnt == 0 {
		a2 = e.last()
	}
	if a2 < 0 || a2 > e.last() {
		return 0, edInvalidAddr
	}
	if name == "" {
		name = e.fname
	}
	if name == "" {
		return 0, edNoFilename
	}
	prevUndo := e.undo
	e.saveUndo()
	var n int
	if strings.HasPrefix(name, "!") {
		n, err = e.readCommand(name[1:], a2)
	} else {
		if e.fname == "" {
			e.fname = name
		}
		n, err = e.readFile(name, a2)
	}
	if err != nil {
		e.undo = prevUndo
		return 0, err
	}
	e.printCount(n)
	return 0, nil
}

// cmdUndo is u: undo the last change.
func (e *edState) cmdUndo(x *edCmd) (byte, error) {
	p := x.p
	if err := x.noAddr(); err != nil {
		return 0, err
	}
	mode, err := suffix(p)
	if err != nil {
		return 0, err
	}
	if e.undo == nil {
		return 0, edNoUndo
	}
	u := &edUndo{buf: e.buf, cur: e.cur, modified: e.modified}
	e.buf, e.cur, e.modified = e.undo.buf, e.undo.cur, e.undo.modified
	e.undo = u
	e.recount()
	e.modified = true
	return mode, nil
}

// cmdWrite is w, W and wq.
func (e *edState) cmdWrite(x *edCmd) (byte, error) {
	p, c, cnt, a1, a2, prevModified := x.p, x.c, x.cnt, x.a1, x.a2, x.prevModified
	quit := false
	if p.peek() == 'q' {
		quit = true
		p.i++
	}
	name, err := fileName(p)
	if err != nil {
		return 0, err
	}
	if cnt == 0 {
		a1, a2 = 1, e.last()
		if e.last() == 0 {
			a1 = 0
		}
	} else if err := edValid(e, a1, a2); err != nil {
		return 0, err
	}
	if name == "" {
		name = e.fname
	}
	if name == "" {
		return 0, edNoFilename
	}
	if strings.HasPrefix(name, "!") {
		var b strings.Builder
		for i := max(a1, 1); i <= a2; i++ {
			b.WriteString(e.buf[i-1].s + "\n")
		}
		e.w.Flush()
		if e.env.Exec == nil {
			return 0, edNoShell
		}
		e.env.Exec(e.env.Ctx, []string{"sh", "-c", name[1:]}, strings.NewReader(b.String()), e.env.Stdout, e.env.Stderr)
		e.printCount(b.Len())
	} else {
		if e.fname == "" {
			e.fname = name
		}
		n, err := e.writeFile(name, a1, a2, c == 'W')
		if err != nil {
			return 0, err
		}
		if a1 <= 1 && a2 == e.last() {
			e.modified = false
		}
		e.printCount(n)
	}
	if quit {
		if e.modified && !prevModified {
			return 0, errEdModified
		}
		return 0, errEdQuit
	}
	return 0, nil
}

// cmdPut is x: put the cut buffer.
func (e *edState) cmdPut(x *edCmd) (byte, error) {
	p, a2 := x.p, x.a2
	mode, err := suffix(p)
	if err != nil {
		return 0, err
	}
	if a2 < 0 || a2 > e.last() {
		return 0, edInvalidAddr
	}
	if len(e.cut) == 0 {
		return 0, edErr("Nothing to put")
	}
	e.saveUndo()
	e.insertLines(a2, append([]string(nil), e.cut...))
	return mode, nil
}

// cmdYank is y: copy lines to the cut buffer.
func (e *edState) cmdYank(x *edCmd) (byte, error) {
	a1, a2 := x.a1, x.a2
	mode, err := e.suffixValid(x)
	if err != nil {
		return 0, err
	}
	e.cut = nil
	for i := a1; i <= a2; i++ {
		e.cut = append(e.cut, e.buf[i-1].s)
	}
	return mode, nil
}

// cmdScroll is z: print a screenful.
func (e *edState) cmdScroll(x *edCmd) (byte, error) {
	p, cnt, a2 := x.p, x.cnt, x.a2
	n := 22
	if d := p.peek(); d >= '0' && d <= '9' {
		n = p.number()
	}
	mode, err := suffix(p)
	if err != nil {
		return 0, err
	}
	if cnt == 0 {
		a2 = e.cur + 1
	}
	if a2 < 1 || a2 > e.last() {
		return 0, edInvalidAddr
	}
	e.printLines(a2, min(a2+n-1, e.last()), mode)
	return 0, nil
}

// cmdLineNumber is =: print a line number.
func (e *edState) cmdLineNumber(x *edCmd) (byte, error) {
	p, cnt, a2 := x.p, x.cnt, x.a2
	if _, err := suffix(p); err != nil {
		return 0, err
	}
	n := a2
	if cnt == 0 {
		n = e.last()
	}
	fmt.Fprintf(e.w, "%d\n", n)
	return 0, nil
}

// cmdComment is #: a comment.
func (e *edState) cmdComment(x *edCmd) (byte, error) {
	cnt, a2 := x.cnt, x.a2
	if cnt > 0 {
		if a2 < 0 || a2 > e.last() {
			return 0, edInvalidAddr
		}
		e.cur = a2
	}
	return 0, nil
}

// cmdShell is !: run a command.
func (e *edState) cmdShell(x *edCmd) (byte, error) {
	p := x.p
	if err := x.noAddr(); err != nil {
		return 0, err
	}
	cmd := p.s[p.i:]
	if strings.HasPrefix(cmd, "!") {
		if e.lastCmd == "" {
			return 0, edNoPrevCommand
		}
		cmd = e.lastCmd + cmd[1:]
	}
	e.lastCmd = cmd
	if err := e.shell(cmd, e.env.Stdout); err != nil {
		return 0, err
	}
	if !e.silent {
		e.w.WriteString("!\n")
	}
	return 0, nil
}

func (e *edState) writeFile(name string, a1, a2 int, appendTo bool) (int, error) {
	var b bytes.Buffer
	for i := max(a1, 1); i <= a2; i++ {
		b.WriteString(e.buf[i-1].s)
		b.WriteByte('\n')
	}
	open := e.env.Create
	if appendTo {
		open = e.env.Append
	}
	f, err := open(name)
	if err == nil {
		_, err = f.Write(b.Bytes())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		e.diagnose(name, err)
		return 0, edOutputFile
	}
	return b.Len(), nil
}

// global runs g/RE/COMMANDS (v: the lines that do not match) over the
// addressed lines, 1,$ by default.
func (e *edState) global(p *edParser, c byte, cnt, a1, a2 int) error {
	if e.inGlobal {
		return edNestedGlobal
	}
	if c == 'G' || c == 'V' {
		return edUnknownCmd // interactive: not for scripts
	}
	if cnt == 0 {
		a1, a2 = 1, e.last()
		if e.last() == 0 {
			a1 = 0
		}
	} else if a1 < 1 || a2 > e.last() || a1 > a2 {
		return edInvalidAddr
	}
	delim := p.peek()
	if delim == 0 || delim == ' ' || delim == '\n' {
		return edMissingDelim
	}
	p.i++
	pat, closed := p.delimited(delim)
	if !closed {
		return edMissingDelim
	}
	re, err := e.regex(pat)
	if err != nil {
		return err
	}
	list := p.s[p.i:]
	for strings.HasSuffix(list, "\\") && !strings.HasSuffix(list, "\\\\") {
		next, ok := e.readInput()
		if !ok {
			break
		}
		list = list[:len(list)-1] + "\n" + next
	}
	if list == "" {
		list = "p"
	}
	var marked []*edLine
	for i := max(a1, 1); i <= a2; i++ {
		if e.matches(re, e.buf[i-1].s) == (c == 'g') {
			marked = append(marked, e.buf[i-1])
		}
	}
	e.saveUndo()
	if list == "d" && len(marked) > 0 {
		// g/RE/d, the common case, in one pass: as deleting each line in
		// turn, without moving the rest of the buffer once per line.
		kept, next := e.buf[:0:0], 0
		k := 0
		for _, l := range e.buf {
			if k < len(marked) && l == marked[k] {
				k++
				next = len(kept) + 1
				e.cut = []string{l.s}
				continue
			}
			kept = append(kept, l)
		}
		e.buf, e.modified = kept, true
		e.cur = min(next, e.last())
		return nil
	}
	e.inGlobal = true
	defer func() { e.inGlobal = false; e.list = nil }()
	prev := 0
	for _, l := range marked {
		if e.env.Ctx.Err() != nil || e.over {
			return edErr("Interrupt")
		}
		idx := e.find(l, prev)
		if idx < 0 {
			continue
		}
		prev = idx - 1
		e.cur = idx
		e.list = strings.Split(list, "\n")
		for len(e.list) > 0 {
			cmd := e.list[0]
			e.list = e.list[1:]
			if err := e.command(cmd, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// find returns the line number of l, looking from index from on first
// (where the global command's next line usually is), or -1 when l has
// been deleted.
func (e *edState) find(l *edLine, from int) int {
	from = min(max(from, 0), len(e.buf))
	for i := from; i < len(e.buf); i++ {
		if e.buf[i] == l {
			return i + 1
		}
	}
	for i := 0; i < from; i++ {
		if e.buf[i] == l {
			return i + 1
		}
	}
	return -1
}

// substitution reads what follows s: the expression, the replacement
// and the flags, or for s alone the last ones with new flags.
func (e *edState) substitution(p *edParser) (re *posixre.Regexp, glob bool, nth int, mode byte, err error) {
	nth = 1
	delim := p.peek()
	if delim == 0 || strings.IndexByte("gpnl0123456789r", delim) >= 0 {
		// s with flags only: the last substitution again.
		if !e.haveRepl {
			return nil, false, 0, 0, edNoPrevSubst
		}
		// r: the last search's expression instead of the last
		// substitution's.
		re, glob, nth = e.subRe, e.subGlob, e.subNth
		for !p.eof() {
			switch c := p.peek(); {
			case c == 'g':
				glob = !glob
				p.i++
			case c >= '0' && c <= '9':
				nth = p.number()
			case c == 'r':
				re = e.re
				p.i++
			case c == 'p' || c == 'l' || c == 'n':
				mode = c
				p.i++
			default:
				return nil, false, 0, 0, edInvalidSuffix
			}
		}
	} else {
		if delim == ' ' || delim == '\n' {
			return nil, false, 0, 0, edMissingDelim
		}
		p.i++
		pat, closed := p.delimited(delim)
		if !closed {
			return nil, false, 0, 0, edMissingDelim
		}
		if re, err = e.regex(pat); err != nil {
			return nil, false, 0, 0, err
		}
		rep, closed := e.replacementText(p, delim)
		if rep == "%" {
			if !e.haveRepl {
				return nil, false, 0, 0, edNoPrevSubst
			}
		} else {
			parts, err := edReplacement(rep, re.NumSubexp())
			if err != nil {
				return nil, false, 0, 0, err
			}
			e.repl, e.replSrc, e.haveRepl = parts, rep, true
		}
		if !closed {
			mode = 'p'
		}
		for !p.eof() {
			switch c := p.peek(); {
			case c == 'g':
				glob = true
				p.i++
			case c >= '0' && c <= '9':
				nth = p.number()
				if nth == 0 {
					return nil, false, 0, 0, edInvalidSuffix
				}
			case c == 'p' || c == 'l' || c == 'n':
				mode = c
				p.i++
			default:
				return nil, false, 0, 0, edInvalidSuffix
			}
		}
		e.subGlob, e.subNth, e.subRe = glob, nth, re
	}
	if re == nil {
		return nil, false, 0, 0, edNoPrevPattern
	}
	return re, glob, nth, mode, nil
}

// substitute runs s/RE/REPLACEMENT/FLAGS (or s alone: the last one again).
func (e *edState) substitute(p *edParser, a1, a2 int) error {
	re, glob, nth, mode, err := e.substitution(p)
	if err != nil {
		return err
	}
	if a1 < 1 || a2 > e.last() || a1 > a2 {
		return edInvalidAddr
	}
	prevUndo := e.undo
	e.saveUndo()
	changed := false
	for i := a1; i <= a2; i++ {
		l := e.buf[i-1]
		src := []byte(l.s)
		var out []byte
		pos, k, done := 0, 0, false
		n := -1 // without g, the nth match is the last one needed (sed's subst)
		if !glob {
			n = max(nth, 1)
		}
		err := re.FindAllContext(e.env.Ctx, src, n, func(loc []int) bool {
			k++
			if k < nth || done {
				return true
			}
			out = append(out, src[pos:loc[0]]...)
			out = sedAppendRepl(out, e.repl, src, loc, false)
			pos = loc[1]
			if !glob {
				done = true
				return false
			}
			return true
		})
		if err != nil || k < nth {
			continue
		}
		out = append(out, src[pos:]...)
		if !e.grow(len(out) - len(src)) {
			return edErr("Interrupt")
		}
		changed = true
		lines := strings.Split(string(out), "\n")
		e.buf[i-1] = &edLine{lines[0]}
		for m, x := range e.marks {
			if x == l {
				e.marks[m] = e.buf[i-1]
			}
		}
		if len(lines) > 1 {
			e.insertLines(i, lines[1:])
			a2 += len(lines) - 1
			i += len(lines) - 1
		}
		e.cur = i
	}
	if !changed {
		if e.inGlobal {
			return nil
		}
		e.undo = prevUndo
		return edNoMatch
	}
	e.modified = true
	if mode != 0 {
		e.printLines(e.cur, e.cur, mode)
	}
	return nil
}

// replacementText reads the replacement of s up to delim; a backslash
// at the end of the line continues it on the next line (a newline in
// the replacement).
func (e *edState) replacementText(p *edParser, delim byte) (string, bool) {
	var b strings.Builder
	for {
		for p.i < len(p.s) {
			c := p.s[p.i]
			if c == delim {
				p.i++
				return b.String(), true
			}
			if c == '\\' && p.i+1 < len(p.s) {
				b.WriteByte(c)
				b.WriteByte(p.s[p.i+1])
				p.i += 2
				continue
			}
			if c == '\\' {
				// escaped newline: the replacement goes on
				next, ok := e.readText()
				if !ok {
					return b.String(), false
				}
				b.WriteString("\\\n")
				p.s, p.i = next, 0
				continue
			}
			b.WriteByte(c)
			p.i++
		}
		return b.String(), false
	}
}

// edReplacement parses ed's replacement: & is the match, \1-\9 groups,
// \ before any other character (a newline too) that character.
func edReplacement(rep string, ngroups int) ([]sedRepl, error) {
	var b replBuilder
	for i := 0; i < len(rep); i++ {
		c := rep[i]
		switch {
		case c == '&':
			b.group(0)
		case c == '\\' && i+1 < len(rep):
			i++
			d := rep[i]
			if d >= '1' && d <= '9' {
				if int(d-'0') > ngroups {
					return nil, edErr("Invalid back reference")
				}
				b.group(int(d - '0'))
				continue
			}
			b.lit = append(b.lit, d)
		default:
			b.lit = append(b.lit, c)
		}
	}
	return b.done(), nil
}
