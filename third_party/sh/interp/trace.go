package interp

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// tracer prints expressions like a shell would do if its
// options '-o' is set to either 'xtrace' or its shorthand, '-x'.
type tracer struct {
	buf       bytes.Buffer
	printer   *syntax.Printer
	output    io.Writer
	needsPlus bool
	// llmsh: $PS4 expanded as each line starts (prefixFn), as bash
	prefix   string
	prefixFn func() (string, bool)
	toFd     bool // llmsh: output is $BASH_XTRACEFD's, not stderr
	bytes    bool // llmsh: the C locale, where no byte from 0x80 prints

	wait, done []*traceGate // llmsh: the runner's traceWait, traceDone
	// hold keeps the done gates shut while a command's own assignments
	// are traced: bash's element writes them and the command's line
	// before the next element's first (llmsh).
	hold bool
}

// traceGate opens when a pipeline element has written its first set -x
// line or has ended (llmsh). Bash forks the elements left to right, so
// the first's trace comes before the second's; here the last element
// runs first, and the elements at once.
type traceGate struct {
	ch   chan struct{}
	once sync.Once
	stop <-chan struct{} // the pipeline's context: no wait past its end
}

func newTraceGate(stop <-chan struct{}) *traceGate {
	return &traceGate{ch: make(chan struct{}), stop: stop}
}

func (g *traceGate) open() { g.once.Do(func() { close(g.ch) }) }

func (g *traceGate) wait() {
	select {
	case <-g.ch:
	case <-g.stop:
	}
}

func (r *Runner) tracer() *tracer {
	if !r.opts[optXTrace] {
		return nil
	}

	out, toFd := r.traceOutput()
	return &tracer{
		printer:   syntax.NewPrinter(),
		output:    out,
		toFd:      toFd,
		bytes:     expand.ByteLocale(r.writeEnv),
		needsPlus: true,
		prefixFn:  r.tracePrefixFn(),
		wait:      r.traceWait,
		done:      r.traceDone,
	}
}

// traceOutput is where set -x writes: the descriptor that BASH_XTRACEFD
// chose when it was assigned (toFd; what that descriptor is now, nothing
// when a command of its own closed it), else stderr, as bash (llmsh).
func (r *Runner) traceOutput() (w io.Writer, toFd bool) {
	if !r.xtraceSet {
		if r.pipeAllErr != nil {
			return r.pipeAllErr, false
		}
		return r.stderr, false
	}
	switch n := r.xtraceFd; n {
	case 0:
		return io.Discard, true
	case 1:
		return r.stdout, true
	case 2:
		return r.stderr, false
	default:
		if o := r.fds[n]; o != nil && o.w != nil {
			return o.writer(), true
		}
		return io.Discard, true
	}
}

// setXtraceFd is bash's sv_xtracefd, run when BASH_XTRACEFD is assigned
// (set) or unset: a number naming an open descriptor is where set -x
// writes from now on; any other value is an error that changes nothing;
// an empty value or unset closes the descriptor chosen before (even 1 or
// 2) and the trace goes to stderr again.
func (r *Runner) setXtraceFd(value string, set bool) {
	if !set || value == "" {
		if r.xtraceSet {
			r.closeFd(&redirSaves{}, r.xtraceFd)
		}
		return
	}
	n, err := strconv.Atoi(strings.TrimLeft(value, " \t\n\v\f\r"))
	open := err == nil && n >= 0
	if open && n > 2 {
		open = r.fds[n] != nil
	}
	if !open {
		r.errf("%sBASH_XTRACEFD: %s: invalid value for trace file descriptor\n", r.errPrefix(), value)
		return
	}
	r.xtraceFd, r.xtraceSet = n, true
}

// writePrefix writes $PS4 expanded as a line starts: bash expands it for
// each line, a command's own assignments' too (PS4='+$x '; x=7;
// x=2 y=$x true traces +2 x=2, +2 y=2, +7 true).
func (t *tracer) writePrefix() {
	if t.prefixFn != nil {
		var ended bool
		t.prefix, ended = t.prefixFn()
		if ended {
			t.prefixFn = nil
			// set -e ended the shell at an error in PS4: bash
			// traces nothing more.
			t.output = io.Discard
		}
	}
	t.buf.WriteString(t.prefix)
}

// tracePrefixFn returns what expands $PS4 for a tracer made now: as bash,
// it is expanded when the trace's line starts, after the words traced on
// it (`+5 echo 5` for `echo $((x=5))` with PS4='+$x '), and an error in
// it is reported then, for each line; $LINENO is the line of the command
// traced.
func (r *Runner) tracePrefixFn() func() (string, bool) {
	line := r.line
	return func() (string, bool) {
		p := r.tracePrefix(line)
		return p, r.errExited && r.exit.exiting
	}
}

// tracePrefix is $PS4 expanded, its first character repeated once more
// for each command substitution the runner is in, as bash (llmsh;
// upstream always wrote "+ "); line is the command's.
func (r *Runner) tracePrefix(line int) string {
	ps4 := r.envGet("PS4")
	if ps4 == "" {
		return ""
	}
	if strings.ContainsAny(ps4, "$`\\") {
		// llmsh: $LINENO in PS4 is the traced command's line, for a
		// compound command too (for, [[, ((, case), not the line of
		// PS4's own text (1)
		if r.ecfg.CmdLine == 0 {
			r.ecfg.CmdLine = line
			defer func() { r.ecfg.CmdLine = 0 }()
		}
		// llmsh: a prompt string, its escapes decoded (\s, \D{…}), as
		// bash's PS4; expanded with set -x off, as bash does (a $( )
		// in it traced its own commands, each expanding PS4 again:
		// an endless recursion).
		// $? stays the traced command's (`$(exit 3)` in PS4).
		old, oldExit, oldLast := r.opts[optXTrace], r.exit, r.lastExit
		r.opts[optXTrace] = false
		s, err := expand.Prompt(r.ecfg, ps4)
		exited := r.errExited && r.exit.exiting // set -e and a bad substitution
		r.opts[optXTrace], r.exit, r.lastExit = old, oldExit, oldLast
		if exited {
			r.exit = exitStatus{code: 1, exiting: true}
		}
		if err == nil {
			// llmsh: an error in PS4 (set -u and an unset name, an
			// arithmetic error, a bad substitution) is reported,
			// and PS4 is its text (expand.Config.ReportError).
			ps4 = s
		}
	}
	if ps4 == "" || r.traceLevel == 0 {
		return ps4
	}
	_, size := utf8.DecodeRuneInString(ps4)
	return strings.Repeat(ps4[:size], r.traceLevel) + ps4
}

// traceWord quotes a traced word as bash's xtrace does: in single
// quotes when it holds a character special to the shell (a tab or a
// newline among them, kept as they are), else in $'…' when it holds a
// character that does not print (bytes: in the C locale, any byte from
// 0x80), else as it is.
func traceWord(s string, bytes bool) string {
	if s == "" {
		return "''"
	}
	if s == "'" {
		return `\'` // llmsh: bash's sh_single_quote of a lone quote
	}
	if shellMetas(s) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	for i, c := range s {
		if unprintable(c, bytes) {
			return ansicQuote(s[:i], s[i:], bytes)
		}
	}
	return s
}

// unprintable tells whether bash's ansic_shouldquote takes c, a
// character of text, for one that does not print: a control, a byte that
// is no UTF-8, a character glibc's iswprint refuses, or with bytes (the
// C locale) any that is not ASCII.
func unprintable(c rune, bytes bool) bool {
	return c == utf8.RuneError || c < utf8.RuneSelf && !unicode.IsPrint(c) ||
		c >= utf8.RuneSelf && (bytes || !expand.PrintableRune(c))
}

// unprintableQuote is s as bash's builtins quote a name in a message
// when ansic_shouldquote finds a character that does not print in it
// (cd's "cd: $'\E[31m': No such file or directory"): all of it in $'…';
// else s as it is (llmsh: an escape sequence in a directory name
// reached the terminal). bytes is the C locale's view (unprintable).
func unprintableQuote(s string, bytes bool) string {
	for _, c := range s {
		if unprintable(c, bytes) {
			return ansicQuote("", s, bytes)
		}
	}
	return s
}

// traceAssignValue quotes the value of a traced assignment as bash's
// xtrace_print_assignment does: as traceWord, except that an empty
// value prints as nothing: "x=", not x followed by two quotes.
func traceAssignValue(s string, bytes bool) string {
	if s == "" {
		return ""
	}
	return traceWord(s, bytes)
}

// shellMetas is bash's sh_contains_shell_metas: a blank, a newline, a
// quoting or operator character, a glob character, '#' first, '~'
// first or after '=' or ':'.
func shellMetas(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>',
			'!', '{', '}', '*', '[', '?', ']', '^', '$', '`':
			return true
		case '#':
			if i == 0 {
				return true
			}
		case '~':
			if i == 0 || s[i-1] == '=' || s[i-1] == ':' {
				return true
			}
		}
	}
	return false
}

// ansicQuote is bash's ansic_quote of plain+rest, plain holding nothing
// to escape: $'…' with C escapes, \E for escape, octal for the other
// bytes that do not print.
func ansicQuote(plain, rest string, bytes bool) string {
	var sb strings.Builder
	sb.WriteString("$'")
	sb.WriteString(plain)
	for len(rest) > 0 {
		c, size := utf8.DecodeRuneInString(rest)
		switch {
		case c == utf8.RuneError && size <= 1, c >= utf8.RuneSelf && bytes:
			fmt.Fprintf(&sb, "\\%03o", rest[0])
			size = 1
		case c == '\a':
			sb.WriteString(`\a`)
		case c == '\n':
			sb.WriteString(`\n`)
		case c == '\t':
			sb.WriteString(`\t`)
		case c == '\b':
			sb.WriteString(`\b`)
		case c == '\f':
			sb.WriteString(`\f`)
		case c == '\r':
			sb.WriteString(`\r`)
		case c == '\v':
			sb.WriteString(`\v`)
		case c == 0x1b:
			sb.WriteString(`\E`)
		case c == '\'' || c == '\\':
			sb.WriteByte('\\') // llmsh: as bash's ansic_quote
			sb.WriteRune(c)
		case c < 0x80 && !unicode.IsPrint(c):
			fmt.Fprintf(&sb, "\\%03o", c)
		case c >= 0x80 && !expand.PrintableRune(c):
			for k := range size {
				fmt.Fprintf(&sb, "\\%03o", rest[k]) // llmsh: U+2028, a C1 control
			}
		default:
			sb.WriteString(rest[:size])
		}
		rest = rest[size:]
	}
	sb.WriteByte('\'')
	return sb.String()
}

// string writes s to tracer.buf if tracer is non-nil,
// prepending "+" if tracer.needsPlus is true.
func (t *tracer) string(s string) {
	if t == nil {
		return
	}

	if t.needsPlus {
		t.writePrefix()
	}
	t.needsPlus = false
	t.buf.WriteString(s)
}

func (t *tracer) stringf(f string, a ...any) {
	if t == nil {
		return
	}

	t.string(fmt.Sprintf(f, a...))
}

// expr prints x to tracer.buf if tracer is non-nil,
// prepending "+" if tracer.isFirstPrint is true.
func (t *tracer) expr(x syntax.Node) {
	if t == nil {
		return
	}

	if t.needsPlus {
		t.writePrefix()
	}
	t.needsPlus = false
	if err := t.printer.Print(&t.buf, x); err != nil {
		panic(err)
	}
}

// traceAssign traces the assignment as (not NAME=(…)) as bash does,
// once its value is expanded (r.assignText): NAME=VALUE with the name as
// written (not the variable a nameref led to), a[i]=v with its subscript
// as written, the word before an integer variable evaluates it or +=
// appends it (n+=n), an empty value as nothing (e=, k+=) (llmsh).
func (r *Runner) traceAssign(t *tracer, as *syntax.Assign) {
	op, val := "=", ""
	if as.Append {
		op = "+="
	}
	if as.Value != nil {
		val = traceAssignValue(r.assignText, t.bytes)
	}
	name := as.Name.Value
	if as.Index != nil {
		name += "[" + subscriptText(as.Index) + "]"
	}
	t.stringf("%s%s%s", name, op, val)
	t.newLineFlush()
}

// traceExportAssign traces an assignment that export or readonly makes,
// as they make it (bash): NAME=VALUE, NAME+=TEXT, with the value as
// declArgs expanded it; nothing for a name alone or an array (llmsh).
func (r *Runner) traceExportAssign(as *syntax.Assign) {
	t := r.tracer()
	if t == nil || as.Naked || as.Array != nil || as.Index != nil {
		return
	}
	op, val := "=", ""
	if as.Append {
		op = "+=" // the text appended (bash: export x+=d)
	}
	if as.Value != nil && len(as.Value.Parts) == 1 {
		if sq, ok := as.Value.Parts[0].(*syntax.SglQuoted); ok {
			val = sq.Value
		}
	}
	t.stringf("%s%s%s", as.Name.Value, op, traceAssignValue(val, t.bytes))
	t.newLineFlush()
}

// writtenArray is NAME=(ELEMS) as bash traces it: as written in the
// source (funcPrinter's arrayAssign: $((1+1)) as it is, $'…' decoded, a
// $( ) laid out as bash's parser does), when the runner has the text and
// it reads back as the same assignment; else as arrayAssign prints it
// from the nodes (llmsh).
func (r *Runner) writtenArray(as *syntax.Assign) string {
	if r.curSrc != "" {
		fp := &funcPrinter{src: r.curSrc, words: syntax.NewPrinter(syntax.SingleLine(true))}
		text := fp.arrayAssign(as)
		f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
		if err == nil && len(f.Stmts) == 1 {
			if call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(call.Args) == 0 && len(call.Assigns) == 1 {
				back := call.Assigns[0]
				if back.Array != nil && back.Name.Value == as.Name.Value && len(back.Array.Elems) == len(as.Array.Elems) {
					return text
				}
			}
		}
	}
	var sb strings.Builder
	t := &tracer{printer: syntax.NewPrinter()}
	t.arrayAssign(r.ecfg, as, &sb)
	return sb.String()
}

// arrayAssign prints NAME=(ELEMS) as bash traces it: the elements as
// written, one space between them, on one line (llmsh; the printer kept
// the line breaks of an array written over several lines), except that a
// $'…' part is shown as its text in single quotes and a $"…" part as
// "…": bash's parser turns them into those before the trace sees them.
func (t *tracer) arrayAssign(cfg *expand.Config, as *syntax.Assign, sb *strings.Builder) {
	sb.WriteString(as.Name.Value)
	if as.Append {
		sb.WriteString("+")
	}
	sb.WriteString("=(")
	for i, el := range as.Array.Elems {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if el.Index != nil {
			sb.WriteByte('[')
			if err := t.printer.Print(sb, el.Index); err != nil {
				panic(err)
			}
			sb.WriteString("]=")
		}
		if el.Value != nil {
			t.parsedWord(sb, cfg, el.Value)
		}
	}
	sb.WriteByte(')')
}

// parsedWord prints w as bash keeps it once parsed: its $'…' parts
// decoded and single-quoted, its $"…" parts as "…" (llmsh).
func (t *tracer) parsedWord(sb *strings.Builder, cfg *expand.Config, w *syntax.Word) {
	for _, part := range w.Parts {
		var node syntax.Node = part
		switch part := part.(type) {
		case *syntax.SglQuoted:
			if part.Dollar {
				v := expand.DollarSingle(cfg, part.Value)
				sb.WriteString("'" + strings.ReplaceAll(v, "'", `'\''`) + "'")
				continue
			}
		case *syntax.DblQuoted:
			if part.Dollar {
				plain := *part
				plain.Dollar = false
				node = &plain
			}
		}
		if err := t.printer.Print(sb, node); err != nil {
			panic(err)
		}
	}
}

// flush writes the contents of tracer.buf to the tracer.stdout.
func (t *tracer) flush() {
	if t == nil {
		return
	}

	for _, g := range t.wait {
		g.wait()
	}
	// A line longer than a pipe holds may block on a reader that is the
	// next element itself (|&): the next may go before it is written.
	big := t.buf.Len() > 32<<10
	for _, g := range t.done {
		if big {
			g.open()
		}
	}
	t.output.Write(t.buf.Bytes())
	t.buf.Reset()
	if t.hold {
		return
	}
	for _, g := range t.done {
		g.open()
	}
}

// newLineFlush is like flush, but with extra new line before tracer.buf gets flushed.
func (t *tracer) newLineFlush() {
	if t == nil || t.needsPlus && t.buf.Len() == 0 {
		return // llmsh: nothing was traced (an internal command)
	}

	t.buf.WriteString("\n")
	t.flush()
	// reset state
	t.needsPlus = true
}

// quoteBash quotes a string so that it can be traced as a single Bash word.
func quoteBash(s string) string {
	qs, err := syntax.Quote(s, syntax.LangBash)
	if err != nil { // should never happen
		panic(err)
	}
	return qs
}

// call prints a command and its arguments with varying formats depending on the cmd type,
// for example, built-in command's arguments are printed enclosed in single quotes,
// otherwise, call defaults to printing with double quotes.
func (t *tracer) call(cmd string, args ...string) {
	if t == nil {
		return
	}

	// llmsh: each word quoted as bash's xtrace quotes it (upstream
	// quoted a builtin's arguments as one word). The internal commands
	// of llmsh's rewrite layer (names starting with a control byte,
	// which no script can call) are not traced: bash has no such
	// commands.
	if cmd != "" && (cmd[0] == 0 || cmd[0] == 1) {
		return
	}
	var sb strings.Builder
	sb.WriteString(traceWord(cmd, t.bytes))
	for _, a := range args {
		sb.WriteByte(' ')
		sb.WriteString(traceWord(a, t.bytes))
	}
	t.string(sb.String())
}
