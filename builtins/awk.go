package builtins

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/itchyny/timefmt-go"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/llmsh/llmsh/internal/zones"
	"github.com/llmsh/llmsh/third_party/goawk/interp"
	"github.com/llmsh/llmsh/third_party/goawk/lexer"
	"github.com/llmsh/llmsh/third_party/goawk/parser"
)

var _ = register(Builtin{Name: "awk", Summary: "pattern scanning and processing language (GoAWK-based)", Run: awk})

// awkVersion is printed by --version.
const awkVersion = `awk (llmsh) based on GoAWK v1.29.1 by Ben Hoyt (BSD licence)
Files are read and written through llmsh's file service only; system(),
"cmd" | getline and print | "cmd" run llmsh's own commands (sh -c).
`

// awkVarName is a legal AWK variable name for -v.
var awkVarName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// awkSource is one piece of program text: a -f file, a -e text, or the
// program operand.
type awkSource struct {
	name string // for messages: "cmd. line" or the -f file as given
	file bool   // a -f file, read before parsing
	text string
}

// awkErr is an open error whose text is GNU's wording (ErrText) while
// errors.Is still sees the original.
type awkErr struct{ err error }

func (e awkErr) Error() string { return ErrText(e.err) }
func (e awkErr) Unwrap() error { return e.err }

// awkConfig is what awk's command line asks for.
type awkConfig struct {
	fieldSep    string
	fieldSepSet bool
	vars        []string // -v: name, value, name, value...
	sources     []awkSource
	badVar      error
	operands    []string
}

func awk(env *Env) int {
	c, status := awkParse(env)
	if c == nil {
		return status
	}
	return c.run(env)
}

// awkParse reads awk's options into an awkConfig; on nil it returns the
// exit status.
func awkParse(env *Env) (*awkConfig, int) {
	f := NewFlags(env, "Scan each FILE (standard input when there is none, or for -) for the\n"+
		"patterns of the AWK program and run their actions. Operands of the form\n"+
		"VAR=VALUE assign VAR when they are reached. Based on GoAWK; files go through\n"+
		"llmsh's file service, and system(), \"cmd\" | getline and print | \"cmd\" run\n"+
		"the command line with llmsh's own commands (sh -c), never a program.",
		"[-F fs] [-v var=val]... [--] 'program' [file|var=val]...",
		"[-F fs] [-v var=val]... -f progfile... [--] [file|var=val]...")
	f.StopAtOperand = true
	f.Epilog = "Besides POSIX awk: gawk's strtonum(), systime(), strftime() and mktime() (in\n" +
		"the zone of the script's TZ, UTC by default); the special files -, /dev/stdin,\n" +
		"/dev/stdout, /dev/stderr, /dev/fd/0-2 and /dev/null. Exit status: the\n" +
		"program's, 2 for a usage, syntax or fatal error (as mawk); x/0 is inf."
	c := &awkConfig{}
	f.Func('F', "field-separator", RequiredArg, "FS", "use FS for the input field separator (the FS variable)", func(v string, _ bool) error {
		c.fieldSep, c.fieldSepSet = v, true
		return nil
	})
	f.Func('v', "assign", RequiredArg, "VAR=VAL", "assign VAL to the variable VAR before the program starts", func(v string, _ bool) error {
		name, val, ok := strings.Cut(v, "=")
		if (!ok || !awkVarName().MatchString(name)) && c.badVar == nil {
			c.badVar = fmt.Errorf("improper assignment: -v %s", v) // mawk's words
		}
		// As in gawk, -v values have their escape sequences processed.
		if u, err := lexer.Unescape(val); err == nil {
			val = u
		}
		c.vars = append(c.vars, name, val)
		return nil
	})
	f.Func('f', "file", RequiredArg, "PROGFILE", "read the program from PROGFILE (- for standard input); may be repeated", func(v string, _ bool) error {
		c.sources = append(c.sources, awkSource{name: v, file: true})
		return nil
	})
	f.Func('e', "source", RequiredArg, "PROGRAM", "use PROGRAM as program text; may be repeated and mixed with -f", func(v string, _ bool) error {
		c.sources = append(c.sources, awkSource{name: "cmd. line", text: v})
		return nil
	})
	version := f.Bool('V', "version", "print version information and exit")
	args, status, done := awkMawkArgs(env, f, c)
	if done {
		return nil, status
	}
	operands, err := f.Parse(args)
	c.operands = operands
	if err != nil {
		if msg, ok := usageMessage(err); ok && !errors.Is(err, ErrHelp) {
			env.Errorf("%s", msg)
			f.PrintHelp(env.Stderr)
			return nil, 2
		}
		return nil, f.Fail(err, 2)
	}
	if *version {
		fmt.Fprint(env.Stdout, awkVersion)
		return nil, 0
	}
	if c.badVar != nil {
		env.Errorf("%s", c.badVar)
		return nil, 2
	}
	if len(c.sources) == 0 {
		if len(c.operands) == 0 {
			f.PrintHelp(env.Stderr) // mawk prints its usage so, status 0
			return nil, 0
		}
		c.sources = append(c.sources, awkSource{name: "cmd. line", text: c.operands[0]})
		c.operands = c.operands[1:]
	}
	return c, 0
}

// awkMawkArgs reads the options as mawk 1.3.4 does before the option
// parser sees them, for what mawk says of a bad command line (one line,
// no usage, status 2): an unknown option is "not an option: ARG" (gawk's
// --lint, --lint-old, --posix, --re-interval and --traditional only warn
// so); -f, -v, -F or -W last lacks its argument. mawk's -W options are
// taken here: -W version and -W usage (or help) print and end the run
// (done), -W exec FILE reads the program from FILE and ends the options,
// dump, interactive, posix_space, random= and sprintf= are accepted, any
// other "vacuous". llmsh's own -e, -V and long options go on to f.
func awkMawkArgs(env *Env, f *Flags, c *awkConfig) (args []string, status int, done bool) {
	in := env.Args[1:]
	for i := 0; i < len(in); i++ {
		a := in[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return append(args, in[i:]...), 0, false
		}
		switch a[1] {
		case 'f', 'v', 'F', 'W', 'e':
			val := a[2:]
			if val == "" {
				if i+1 >= len(in) {
					env.Errorf("option %s lacks argument", a[:2])
					return nil, 2, true
				}
				i++
				val = in[i]
			}
			if a[1] != 'W' {
				args = append(args, a[:2], val)
				continue
			}
			switch w := awkWOption(val); w {
			case "version":
				fmt.Fprint(env.Stdout, awkVersion)
				return nil, 0, true
			case "usage", "help":
				f.PrintHelp(env.Stdout)
				return nil, 0, true
			case "exec":
				if i+1 >= len(in) {
					env.Errorf("option -W exec lacks argument")
					return nil, 2, true
				}
				c.sources = append(c.sources, awkSource{name: in[i+1], file: true})
				return append(append(args, "--"), in[i+2:]...), 0, false
			case "":
				env.Errorf("vacuous option: -W %s", val)
			}
		case 'V':
			args = append(args, a)
		case '-':
			name, _, _ := strings.Cut(a, "=")
			switch name {
			case "--help", "--version", "--field-separator", "--assign", "--file", "--source":
				args = append(args, a)
				if !strings.Contains(a, "=") && name != "--help" && name != "--version" && i+1 < len(in) {
					i++
					args = append(args, in[i])
				}
			case "--lint", "--lint-old", "--posix", "--re-interval", "--traditional":
				env.Errorf("not an option: %s", a)
			default:
				env.Errorf("not an option: %s", a)
				return nil, 2, true
			}
		default:
			env.Errorf("not an option: %s", a)
			return nil, 2, true
		}
	}
	return args, 0, false
}

// awkWOption is the mawk -W option that val names or abbreviates
// ("v", "ver" for version; "random=5" for random), or "".
func awkWOption(val string) string {
	name, _, hasValue := strings.Cut(val, "=")
	if name == "" {
		return ""
	}
	for _, o := range []string{"version", "dump", "help", "interactive", "exec", "random", "sprintf", "posix_space", "usage"} {
		if strings.HasPrefix(o, name) && hasValue == (o == "random" || o == "sprintf") {
			return o
		}
	}
	return ""
}

// parseFailed reports why the program did not parse, as mawk does, and
// returns awk's status.
// mawk's parser goes on after an error (awkErrorRepair says where):
// parse is called again on the program with what it skips blanked, until
// it parses, another error ends it, or mawk's five errors are said.
func (c *awkConfig) parseFailed(env *Env, err error, src string, starts []int, parse func(string) error) int {
	var pe *parser.ParseError
	if !errors.As(err, &pe) {
		env.Errorf("%s", err)
		return 1
	}
	if pe.Message == parser.ErrStopped {
		return 2 // the run's limit says why
	}
	// mawk stops at its fifth compile error (MAX_COMPILE_ERRORS)
	left, phantom, at := 5, 0, -1
	say := func(format string, args ...any) {
		if left > 0 {
			env.Errorf(format, args...)
		}
		left--
	}
	for left > 0 {
		for _, prior := range pe.Prior {
			c.parseMessage(env, say, prior, src, starts)
		}
		switch {
		case left <= 0:
		case left < 5 && (awkMisplacedWord[pe.Message] == "break" || awkMisplacedWord[pe.Message] == "continue"):
			// mawk checks them only while nothing else failed
		case awkPhantomBrace(pe, src, &phantom):
			where, line := c.sourceLine(pe.Position.Line, starts)
			say("%sline %d: syntax error at or near }", where, line)
		default:
			c.parseMessage(env, say, pe, src, starts)
		}
		repaired, ok := awkErrorRepair(pe, src, &phantom)
		if !ok || len(pe.Prior) > 0 {
			break
		}
		src, at = repaired, awkErrorOffset(pe, src)
		if !errors.As(parse(src), &pe) || pe.Message == parser.ErrStopped ||
			strings.HasPrefix(pe.Message, "undefined function ") || awkErrorOffset(pe, src) <= at {
			break // mawk checks the calls only when the rest compiled
		}
	}
	return 2 // mawk's status (gawk's is 1)
}

// awkErrorRepair returns src with what mawk 1.3.4's parser skips after
// pe's error blanked (newlines kept, so that later errors keep their
// lines), for the next parse to find the error after it; false when
// mawk's parser stops there (the end of the program) or pe is no token.
// An extra ')' is dropped by mawk's scanner. In a block, its parser
// drops the statement and the tokens after the error up to a ';', a
// newline or the '}' that closes the block (its "error" productions);
// a '{' dropped so still counts for the scanner's "extra '}'", which
// phantom counts (awkPhantomBrace). Outside blocks, it drops the item
// and the tokens up to the next '{', whose block it reads.
func awkErrorRepair(pe *parser.ParseError, src string, phantom *int) (string, bool) {
	end := awkErrorOffset(pe, src)
	if kw, ok := awkMisplacedWord[pe.Message]; ok && strings.HasPrefix(src[end:], kw) {
		// an error of mawk's grammar actions, after which it reads on
		return src[:end] + awkBlank(kw) + src[end+len(kw):], true
	}
	tok, ok := awkErrorToken(pe.Message, src, end)
	if !ok || tok == "EOF" {
		return "", false
	}
	braces, parens, stmt := awkOpenDepth(src, end)
	switch {
	case parens <= 0 && tok == ")" && end < len(src) && src[end] == ')':
		return src[:end] + " " + src[end+1:], true
	case braces > 0:
		sync, opens := awkSkipToSync(src, end, false)
		*phantom += opens
		return src[:stmt] + awkBlank(src[stmt:sync]) + src[sync:], true
	case tok == "}" && end < len(src) && src[end] == '}' && awkExtraBraceAlone(src, end):
		// an extra '}' that mawk's scanner drops, with a ';' after it
		cut := end + 1 + len(src[end+1:]) - len(strings.TrimLeft(src[end+1:], " \t"))
		if cut < len(src) && src[cut] == ';' {
			cut++
		}
		return src[:end] + awkBlank(src[end:cut]) + src[cut:], true
	}
	sync, _ := awkSkipToSync(src, end, true)
	return src[:stmt] + awkBlank(src[stmt:sync]) + src[sync:], true
}

// awkExtraBraceAlone tells whether the extra '}' at src[end] is all
// that mawk reports there: more text follows it on its line (its parser
// errs at the end of the line that follows it, or of the program).
func awkExtraBraceAlone(src string, end int) bool {
	rest := strings.TrimLeft(src[end+1:], " \t")
	return rest != "" && rest[0] != '\n' && rest[0] != '#'
}

// awkMisplacedWord is the keyword of each GoAWK error of a statement
// out of its place (mawk's "return outside function body" and the
// like), which the parse error is at.
var awkMisplacedWord = map[string]string{
	"return must be inside a function":      "return",
	"next can't be inside BEGIN or END":     "next",
	"nextfile can't be inside BEGIN or END": "nextfile",
	"break must be inside a loop body":      "break",
	"continue must be inside a loop body":   "continue",
}

// awkPhantomBrace tells whether pe is an error at a '}' outside every
// block that mawk's scanner does not take for an extra '}' (a '{' that
// its parser dropped after an earlier error was counted, *phantom), and
// uses one up: mawk's parser reports "syntax error at or near }".
func awkPhantomBrace(pe *parser.ParseError, src string, phantom *int) bool {
	end := awkErrorOffset(pe, src)
	if *phantom <= 0 || end >= len(src) || src[end] != '}' {
		return false
	}
	if tok, ok := awkErrorToken(pe.Message, src, end); !ok || tok != "}" {
		return false
	}
	if braces, _, _ := awkOpenDepth(src, end); braces > 0 {
		return false
	}
	*phantom--
	return true
}

// awkSkipToSync is where mawk's parser takes input again after an error
// at src[off]: the first ';', newline (but one that follows ',', '{',
// "&&", "||", "do" or "else", which its scanner drops) or '}' from off,
// or the first '{' when top; len(src) when there is none. opens counts
// the '{' skipped on the way.
func awkSkipToSync(src string, off int, top bool) (sync, opens int) {
	t := awkTokensAt(src, off, 1)
	prev := lexer.ILLEGAL
	lines := strings.SplitAfter(src[off:], "\n")
	for {
		tok, _, _ := t.next()
		at := off + t.pos.Column - 1
		for k := 0; k < t.pos.Line-1 && k < len(lines); k++ {
			at += len(lines[k])
		}
		at = min(at, len(src))
		switch {
		case tok == lexer.EOF:
			return len(src), opens
		case tok == lexer.LBRACE && top:
			return at, opens
		case tok == lexer.LBRACE:
			opens++
		case top:
		case tok == lexer.SEMICOLON || tok == lexer.RBRACE:
			return at, opens
		case tok == lexer.NEWLINE && !awkEatsNewline(prev):
			return at, opens
		}
		prev = tok
	}
}

// awkEatsNewline tells whether a newline after tok is no token for
// mawk's parser.
func awkEatsNewline(tok lexer.Token) bool {
	switch tok {
	case lexer.COMMA, lexer.LBRACE, lexer.AND, lexer.OR, lexer.DO, lexer.ELSE:
		return true
	}
	return false
}

// awkBlank is s with every character but newlines made a space.
func awkBlank(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' {
			return r
		}
		return ' '
	}, s)
}

// awkErrorToken is the token named by a parse error "expected X instead
// of TOKEN" or "expected expression, not TOKEN", or the one at src[end]
// where a statement should have ended or an lvalue started.
func awkErrorToken(msg, src string, end int) (string, bool) {
	if msg == "expected ; or newline between statements" || strings.HasPrefix(msg, "expected lvalue after ") {
		// the token at the error, as written
		switch {
		case end >= len(src):
			return "EOF", true
		case src[end] == '\n':
			return "<newline>", true
		case src[end] == '"':
			_, text, _ := awkTokensAt(src, end, 1).next()
			return text, true
		case awkNameByte(src[end]):
			j := end
			for j < len(src) && awkNameByte(src[j]) {
				j++
			}
			return src[end:j], true
		}
		return src[end : end+1], true
	}
	if i := strings.LastIndex(msg, " instead of "); i >= 0 {
		return msg[i+len(" instead of "):], true
	}
	return strings.CutPrefix(msg, "expected expression, not ")
}

// awkErrorOffset is the offset in src of pe's position.
func awkErrorOffset(pe *parser.ParseError, src string) int {
	lines := strings.SplitAfter(src, "\n")
	end := 0
	for k := 0; k < pe.Position.Line-1 && k < len(lines); k++ {
		end += len(lines[k])
	}
	return min(end+max(pe.Position.Column-1, 0), len(src))
}

// sourceLine is where line of the joined program text is: "NAME: " for
// a line of a -f file ("" for program text), and its line there.
func (c *awkConfig) sourceLine(line int, starts []int) (string, int) {
	idx := 0
	for i := range starts {
		if line >= starts[i] {
			idx = i
		}
	}
	if c.sources[idx].file {
		return c.sources[idx].name + ": ", line - starts[idx] + 1
	}
	return "", line - starts[idx] + 1
}

// parseMessage reports one of the errors that ended a parse, as mawk
// words it.
func (c *awkConfig) parseMessage(env *Env, say func(string, ...any), pe *parser.ParseError, src string, starts []int) {
	if name, ok := strings.CutPrefix(pe.Message, "undefined function "); ok {
		// mawk finds these at the end of the program, the line
		// after its last.
		idx, line := awkEndLine(c.sources)
		where := ""
		if c.sources[idx].file {
			where = c.sources[idx].name + ": "
		}
		say("%sline %d: function %s never defined", where, line, strings.Trim(name, `"`))
		return
	}
	if strings.HasPrefix(pe.Message, "unexpected char") {
		// mawk's scanner: "awk: LINE: unexpected character 'C'", the
		// line of the source it is in, which is not named.
		idx := 0
		for i := range starts {
			if pe.Position.Line >= starts[i] {
				idx = i
			}
		}
		say("%d: unexpected character '%c'", pe.Position.Line-starts[idx]+1, awkCharAt(src, pe))
		return
	}
	if awkEmptyPrintf(pe, src) {
		pe = &parser.ParseError{Position: pe.Position, Message: "expected printf args, got none"}
	}
	if text, ok := awkMawkResolve(pe.Message); ok {
		idx := 0
		for i := range starts {
			if pe.Position.Line >= starts[i] {
				idx = i
			}
		}
		where := ""
		if c.sources[idx].file {
			where = c.sources[idx].name + ": "
		}
		say("%sline %d: %s", where, pe.Position.Line-starts[idx]+1, text)
		return
	}
	if tok, line, ok := awkMawkNearToken(pe, src); ok {
		idx := 0
		for i := range starts {
			if line >= starts[i] {
				idx = i
			}
		}
		where := ""
		if c.sources[idx].file {
			where = c.sources[idx].name + ": "
		}
		say("%sline %d: syntax error at or near %s", where, line-starts[idx]+1, tok)
		return
	}
	if msgs := awkMawkSyntax(pe, src); msgs != nil {
		for _, m := range msgs {
			// a line of the source it is in: a -f file's named
			idx := 0
			for i := range starts {
				if m.line >= starts[i] {
					idx = i
				}
			}
			line := m.line - starts[idx] + 1
			if m.line < 0 {
				idx, line = awkEndLine(c.sources)
			}
			where := ""
			if c.sources[idx].file {
				where = c.sources[idx].name + ": "
			}
			say("%sline %d: %s", where, line, m.text)
		}
		return
	}
	awkSyntaxError(env, pe, src, starts, c.sources)
}

// awkFuncArgs are the fewest and most arguments of the functions of
// awkGawkFuncs that mawk 1.3.4 has as builtins.
var awkFuncArgs = map[string][2]int{"systime": {0, 0}, "strftime": {0, 3}, "mktime": {1, 1}}

// run reads and parses the program and runs it on the operands.
func (c *awkConfig) run(env *Env) int {
	if !c.readSources(env) {
		return 2
	}
	src, starts := awkJoinSources(c.sources)
	funcs := awkGawkFuncs(env)
	stop := func() bool { return env.Ctx != nil && env.Ctx.Err() != nil }
	pconfig := &parser.ParserConfig{Funcs: funcs, Bytes: true, Stop: stop, NoNamedFields: true, FuncArgs: awkFuncArgs}
	prog, err := parser.ParseProgram([]byte(src), pconfig)
	if err != nil {
		reparse := func(src string) error {
			_, err := parser.ParseProgram([]byte(src), pconfig)
			return err
		}
		return c.parseFailed(env, err, src, starts, reparse)
	}

	// Commands of print | "cmd" run beside awk and write to its output
	// and error streams as awk does: through locks.
	stdout := NewLockedWriter(env.Stdout)
	stderr := &awkStderr{LockedWriter: LockedWriter{w: env.Stderr}}
	var out io.Writer = stdout
	var bw *bufio.Writer
	if !env.Terminal {
		bw = bufio.NewWriterSize(stdout, 64<<10)
		out = bw
	}
	config := c.interpConfig(env, out, stderr, funcs)
	if env.Exec != nil {
		// The commands of print | "cmd" and "cmd" | getline (a reader or
		// a writer given) run on goroutines of their own: their context
		// carries the depth of awk's stack (Env.GoCtx), so that a
		// recursion through them meets the call-depth limit; system()
		// runs on awk's own.
		gctx := env.Ctx
		if env.GoCtx != nil {
			gctx = env.GoCtx(gctx)
		}
		config.Exec = func(cmd string, stdin io.Reader, w io.Writer) int {
			ctx := gctx
			if stdin == nil && w == nil {
				ctx = env.Ctx
			}
			if stdin == nil {
				stdin = env.Stdin
			}
			if w == nil {
				w = stdout
			}
			ctx, killed := WithKillReport(ctx)
			st := env.Exec(ctx, []string{"sh", "-c", cmd}, stdin, w, stderr)
			if sig := killed.Sig(); sig != 0 && st == 128+sig {
				// mawk decodes the wait status: a command that a
				// signal ended gives 256+sig (system("kill -9 $$")
				// is 265), in system() and in close() alike.
				return 256 + sig
			}
			return st
		}
	}
	it, err := interp.New(prog)
	if err != nil {
		env.Errorf("fatal: %s", err)
		return 2
	}
	status, err := it.ExecuteContext(env.Ctx, config)
	if errors.Is(err, interp.ErrSigpipe) && env.Ctx.Err() == nil {
		// mawk is killed by SIGPIPE writing to a command that has
		// ended: what it had not written yet is lost, its status
		// 128+13, silently.
		return 141
	}
	fatal := err != nil && env.Ctx.Err() == nil && !IsBrokenPipe(err)
	if fatal && !stderr.isClosed() {
		// After close("/dev/stderr") the message is lost, as mawk's
		// goes to its closed descriptor 2.
		// mawk complains before its buffered output is flushed at exit:
		// `awk '{print} NR==2 {print > "/x/y"}' 2>&1` shows the message
		// first.
		var ie *interp.Error
		if errors.As(err, &ie) && ie.Plain() {
			env.Errorf("%s", err) // mawk's "cannot open" and "run time error"
		} else {
			env.Errorf("fatal: %s", err)
		}
	}
	var flushErr error
	if bw != nil {
		flushErr = bw.Flush()
	}
	switch {
	case env.Ctx.Err() != nil:
		return 1
	case fatal:
		return 2
	case err != nil, flushErr != nil && IsBrokenPipe(flushErr):
		return 1 // err is a broken pipe
	case flushErr != nil:
		if stderr.isClosed() {
			return 2
		}
		env.Errorf("fatal: print to \"standard output\" failed (%s)", ErrText(flushErr))
		return 2
	}
	return status
}

// readSources reads the -f files through the FS.
func (c *awkConfig) readSources(env *Env) bool {
	for i := range c.sources {
		s := &c.sources[i]
		if !s.file {
			continue
		}
		r, err := awkOpen(env, s.name)
		if err != nil {
			env.Errorf("cannot open %s (%s)", s.name, pathReason(err)) // mawk's words
			return false
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			env.Errorf("fatal: error reading source file `%s': %s", s.name, ErrText(err))
			return false
		}
		s.text = string(b)
	}
	return true
}

// awkJoinSources joins the sources, each ending in a newline, and returns
// where each starts (its first line, 1-based) so that errors name the
// right file and line.
func awkJoinSources(sources []awkSource) (string, []int) {
	var src strings.Builder
	starts := make([]int, len(sources)) // first line (1-based) of each source
	line := 1
	for i, s := range sources {
		starts[i] = line
		src.WriteString(s.text)
		if !strings.HasSuffix(s.text, "\n") {
			src.WriteByte('\n')
		}
		line += strings.Count(s.text, "\n")
		if !strings.HasSuffix(s.text, "\n") {
			line++
		}
	}
	return src.String(), starts
}

// awkSyntaxError reports a syntax error as gawk does: the line, and a
// caret under the place.
func awkSyntaxError(env *Env, pe *parser.ParseError, src string, starts []int, sources []awkSource) {
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	lineNo, col := pe.Position.Line, max(pe.Position.Column-1, 0)
	if lineNo > len(lines) {
		// At the end of the program: point past its last character,
		// as gawk does ("unexpected newline or end of string").
		lineNo = len(lines)
		col = len(lines[lineNo-1])
	}
	idx := 0
	for i := range starts {
		if lineNo >= starts[i] {
			idx = i
		}
	}
	where := fmt.Sprintf("%s:%d:", sources[idx].name, lineNo-starts[idx]+1)
	text := lines[lineNo-1]
	fmt.Fprintf(env.Stderr, "%s: %s %s\n%s: %s %s^ %s\n", env.Name(), where, text,
		env.Name(), where, strings.Repeat(" ", col), pe.Message)
}

// awkCharAt is the byte of src at pe's position ('&' for "unexpected
// char after '&'", which the lexer reports after it).
func awkCharAt(src string, pe *parser.ParseError) byte {
	if strings.Contains(pe.Message, "'&'") {
		return '&'
	}
	lines := strings.SplitAfter(src, "\n")
	if l := pe.Position.Line - 1; l >= 0 && l < len(lines) {
		if c := pe.Position.Column - 1; c >= 0 && c < len(lines[l]) {
			return lines[l][c]
		}
	}
	return '?'
}

// awkMawkResolve is mawk 1.3.4's message for msg, one of GoAWK's type
// and call errors, which it finds after parsing.
func awkMawkResolve(msg string) (string, bool) {
	quoted := func(prefix, suffix string) (string, bool) {
		rest, ok := strings.CutPrefix(msg, prefix)
		if !ok {
			return "", false
		}
		name, ok := strings.CutSuffix(rest, suffix)
		return strings.Trim(name, `"`), ok
	}
	if name, ok := quoted(`can't use local array `, ` as scalar`); ok {
		return "illegal reference to local array " + name, true
	}
	if name, ok := quoted(`can't use local scalar `, ` as array`); ok {
		return "illegal reference to local variable " + name, true
	}
	if name, ok := quoted(`can't use array `, ` as scalar`); ok {
		return "illegal reference to array " + name, true
	}
	if name, ok := quoted(`can't use scalar `, ` as array`); ok {
		return "illegal reference to variable " + name, true
	}
	if name, ok := quoted(``, ` called with more arguments than declared`); ok {
		return "too many arguments in call to " + name, true
	}
	if strings.HasPrefix(msg, "wrong number of arguments in call to ") ||
		strings.HasPrefix(msg, "syntax error at or near ") || // the parser's, as mawk's
		strings.HasSuffix(msg, " : decimal overflow") || strings.HasSuffix(msg, " : decimal underflow") {
		return msg, true
	}
	switch msg {
	case "return must be inside a function":
		return "return outside function body", true
	case "next can't be inside BEGIN or END":
		return "improper use of next", true
	case "nextfile can't be inside BEGIN or END":
		return "improper use of nextfile", true
	case "break must be inside a loop body":
		return "break statement outside of loop", true
	case "continue must be inside a loop body":
		return "continue statement outside of loop", true
	case "expected printf args, got none":
		return "no arguments in call to printf", true
	}
	if name, ok := quoted(`duplicate parameter name `, ``); ok {
		return name + " is duplicated in argument list", true
	}
	if name, ok := quoted(`global var `, ` can't also be a function`); ok {
		return "illegal reference to variable " + name, true
	}
	if name, ok := quoted(`global array `, ` can't also be a function`); ok {
		return "illegal reference to array " + name, true
	}
	if name, ok := quoted(`function `, ` already defined`); ok {
		return "redefinition of " + name, true
	}
	if strings.HasPrefix(msg, "can't pass ") {
		// "... param (arg N in call to F)", as the fork words it
		if _, call, ok := strings.Cut(msg, " param (arg "); ok {
			n, f, _ := strings.Cut(strings.TrimSuffix(call, ")"), " in call to ")
			return "type error in arg(" + n + ") in call to " + f, true
		}
	}
	return "", false
}

// awkEmptyPrintf tells whether pe is the parse error of printf(), which
// mawk calls "no arguments in call to printf" as it does a bare printf.
func awkEmptyPrintf(pe *parser.ParseError, src string) bool {
	if pe.Message != "expected expression instead of )" && pe.Message != "expected expression, not )" {
		return false
	}
	lines := strings.SplitAfter(src, "\n")
	l, c := pe.Position.Line-1, pe.Position.Column-1
	if l < 0 || l >= len(lines) || c < 0 || c > len(lines[l]) {
		return false
	}
	before := strings.TrimRight(lines[l][:c], " \t")
	before, ok := strings.CutSuffix(before, "(")
	before = strings.TrimRight(before, " \t")
	if !ok || !strings.HasSuffix(before, "printf") {
		return false
	}
	before = strings.TrimSuffix(before, "printf")
	return before == "" || !awkNameByte(before[len(before)-1])
}

// awkNameByte tells whether b may be in a name.
func awkNameByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b|0x20 >= 'a' && b|0x20 <= 'z'
}

// awkMawkSyntax words a parse error of "expected X instead of TOKEN"
// as mawk 1.3.4 reports it: "line N: syntax error at or near TOKEN"
// (end of line for a newline), "line N: missing } near end of file"
// when the program ends inside braces (awkEndLine's N),
// "line N: extra '}'" for a closing brace that closes nothing (and
// the error mawk meets after it), "line N: missing ) near }" inside
// parentheses, "line N: runaway string constant "TEXT ..." for a string
// (or regular expression) that a newline ends. Where the grammars
// part (mawk's parser finds some errors a token later), the token is
// still the one GoAWK stopped at.
func awkMawkSyntax(pe *parser.ParseError, src string) []awkSyntaxMsg {
	msg := pe.Message
	line := pe.Position.Line
	end := awkErrorOffset(pe, src)
	tok, isTok := awkErrorToken(msg, src, end)
	var runaway byte
	switch msg {
	case "can't have newline in string", "didn't find end quote in string":
		runaway = '"'
	case "can't have newline in regex", "didn't find end slash in regex":
		runaway = '/'
	}
	switch {
	case strings.HasPrefix(msg, "regular expression compile failed"):
		return []awkSyntaxMsg{{pe.Position.Line, msg}}
	case runaway != 0:
	case !isTok:
		return nil
	}
	if runaway != 0 {
		return awkRunaway(src, end, line, runaway)
	}
	braces, parens, _ := awkOpenDepth(src, end)
	switch tok {
	case "EOF":
		if braces > 0 {
			return []awkSyntaxMsg{{-1, "missing } near end of file"}}
		}
		return []awkSyntaxMsg{{-1, "syntax error at or near end of file"}}
	case "<newline>":
		if parens > 0 {
			return []awkSyntaxMsg{{line, "missing ) near end of line"}}
		}
		tok = "end of line"
	case ";":
		if parens > 0 {
			return []awkSyntaxMsg{{line, "missing ) near ;"}}
		}
	case ")":
		if parens <= 0 {
			return []awkSyntaxMsg{{line, "extra ')'"}}
		}
	case "}":
		switch {
		case parens > 0:
			return []awkSyntaxMsg{{line, "missing ) near }"}}
		case braces <= 0 && awkExtraBraceAlone(src, end):
			// mawk's scanner drops it, and its parser reads on
			return []awkSyntaxMsg{{line, "extra '}'"}}
		case braces <= 0:
			// mawk goes on after it, and stops at the end of the line
			return []awkSyntaxMsg{{line, "extra '}'"}, {line, "syntax error at or near end of line"}}
		}
	case "string", "regex":
		// its text: a string's value, a regex between slashes
		if end < len(src) && (src[end] == '"' || src[end] == '/') {
			_, tok, _ = awkTokensAt(src, end, 1).next()
		}
	case "name", "number":
		// the token's text: a name or number as written
		rest := src[end:]
		j := 0
		for j < len(rest) && (rest[j] == '_' || rest[j] == '.' || rest[j] >= '0' && rest[j] <= '9' || rest[j]|0x20 >= 'a' && rest[j]|0x20 <= 'z') {
			j++
		}
		if j == 0 {
			return nil
		}
		tok = rest[:j]
	}
	return []awkSyntaxMsg{{line, "syntax error at or near " + tok}}
}

// awkOpenDepth counts the braces and parentheses open in src[:end],
// outside strings, regexes and comments (a '/' is taken for a regex
// only where an operand may start); stmt is where the last statement
// starts, after the last ';', newline or brace.
func awkOpenDepth(src string, end int) (braces, parens, stmt int) {
	var prev byte // the last significant character
	for k := 0; k < end; k++ {
		c := src[k]
		switch c {
		case '"':
			for k++; k < end && src[k] != '"' && src[k] != '\n'; k++ {
				if src[k] == '\\' {
					k++
				}
			}
		case '/':
			if prev == 0 || strings.IndexByte("(,{;!~&|=<>+-*%?:\n", prev) >= 0 {
				for k++; k < end && src[k] != '/' && src[k] != '\n'; k++ {
					if src[k] == '\\' {
						k++
					}
				}
			}
		case '#':
			for k < end && src[k] != '\n' {
				k++
			}
			if k < end && parens <= 0 {
				stmt = k + 1
			}
		case '{':
			braces++
			stmt = k + 1
		case '}':
			braces--
			stmt = k + 1
		case '(':
			parens++
		case ')':
			parens--
		case ';', '\n':
			if parens <= 0 {
				stmt = k + 1
			}
		}
		if k < end && src[k] != ' ' && src[k] != '\t' {
			prev = src[k]
		}
	}
	return braces, parens, stmt
}

// awkRunaway is mawk's message for a string (runaway '"') or regular
// expression ('/') that the end of the line at src[end] cuts: the first
// ten characters after the opening quote or slash.
func awkRunaway(src string, end, line int, runaway byte) []awkSyntaxMsg {
	// mawk names the first ten characters after the opening quote
	// or slash, the last on the line before the error.
	start := strings.LastIndexByte(src[:end], '\n') + 1
	open := strings.LastIndexByte(src[start:end], runaway)
	if runaway == '/' && end < len(src) && src[end] == '/' {
		// the lexer's error is at the opening slash; mawk quotes the
		// text after it with \/ read as /
		t, _, _ := strings.Cut(src[end+1:], "\n")
		t = strings.ReplaceAll(t, `\/`, "/")
		return []awkSyntaxMsg{{line, fmt.Sprintf("runaway regular expression /%s ...", t[:min(len(t), 10)])}}
	}
	if runaway == '"' {
		// the quote that opens a string, not one escaped in it
		open = -1
		for k := start; k < end; k++ {
			switch {
			case src[k] == '\\' && open >= 0:
				k++
			case src[k] == '"' && open >= 0:
				open = -1
			case src[k] == '"':
				open = k - start
			}
		}
	}
	if open < 0 {
		return nil
	}
	text := strings.TrimRight(src[start+open+1:end], "\n")
	if nl := strings.IndexByte(text, '\n'); nl >= 0 {
		text = text[:nl]
	}
	text = text[:min(len(text), 10)]
	what := "string constant"
	if runaway == '/' {
		what = "regular expression"
	}
	return []awkSyntaxMsg{{line, fmt.Sprintf("runaway %s %c%s ...", what, runaway, text)}}
}

// awkEndLine is the source and line where mawk reports what it finds at
// the end of the program (an unclosed brace, an undefined function): the
// last source, two lines after its last newline.
func awkEndLine(sources []awkSource) (int, int) {
	last := len(sources) - 1
	return last, strings.Count(sources[last].text, "\n") + 2
}

// awkSyntaxMsg is one of mawk's syntax error messages: the text and the
// line of the joined sources it is about (-1: the program's end).
type awkSyntaxMsg struct {
	line int
	text string
}

// interpConfig is the GoAWK configuration: llmsh's I/O, the variables
// and the operands.
func (c *awkConfig) interpConfig(env *Env, out, stderr io.Writer, funcs map[string]any) *interp.Config {
	environ := make([]string, 0, 2*len(env.Environ))
	for _, kv := range env.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			environ = append(environ, k, v)
		}
	}
	config := &interp.Config{
		Stdin:   env.Stdin,
		Output:  out,
		Error:   stderr,
		Argv0:   env.Name(),
		Args:    c.operands,
		Vars:    c.vars,
		Environ: environ,
		Funcs:   funcs,
		// As mawk 1.3.4: bytes, not characters, in every locale
		// (length, substr, index, match, printf widths, split on "").
		Chars: false,
		OpenFile: func(name string) (io.ReadCloser, error) {
			return awkOpen(env, name)
		},
		CreateFile: func(name string, appending bool) (io.WriteCloser, error) {
			if name == "/dev/null" {
				return awkDiscard{}, nil
			}
			if env.FS == nil {
				return nil, &fs.PathError{Op: "open", Path: name, Err: awkErr{syscall.EPERM}}
			}
			var (
				w   File
				err error
			)
			if appending {
				w, err = env.Append(name)
			} else {
				w, err = env.Create(name)
			}
			if err != nil {
				return nil, &fs.PathError{Op: "open", Path: name, Err: awkErr{err}}
			}
			return awkWriter{w, name}, nil
		},
	}
	if c.fieldSepSet {
		// Escapes are processed; -Ft is the letter t, as mawk reads it
		// (gawk takes it for a tab).
		fieldSep := c.fieldSep
		if u, err := lexer.Unescape(fieldSep); err == nil {
			fieldSep = u
		}
		config.Vars = append([]string{"FS", fieldSep}, config.Vars...)
	}
	return config
}

// awkOpen opens a file for reading through the FS, as an *fs.PathError
// with GNU wording on failure; a directory is reported as EISDIR (gawk
// skips a directory operand and getline from one returns -1).
func awkOpen(env *Env, name string) (io.ReadCloser, error) {
	switch name {
	case "-", "/dev/stdin", "/dev/fd/0":
		return env.Open("-")
	case "/dev/null":
		return io.NopCloser(strings.NewReader("")), nil
	}
	if env.FS == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: awkErr{syscall.EPERM}}
	}
	r, err := env.FS.OpenFile(env.Abs(name), 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: awkErr{err}}
	}
	if st, err := r.Stat(); err == nil && st.IsDir() {
		r.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: awkErr{syscall.EISDIR}}
	}
	return r, nil
}

// awkWriter is an output file whose write and close errors carry GNU
// wording (the interpreter reports a failed close at exit).
type awkWriter struct {
	f    File
	name string
}

func (w awkWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		err = &fs.PathError{Op: "write", Path: w.name, Err: awkErr{err}}
	}
	return n, err
}

func (w awkWriter) Close() error {
	if err := w.f.Close(); err != nil {
		return &fs.PathError{Op: "close", Path: w.name, Err: awkErr{err}}
	}
	return nil
}

// awkStrtonum is gawk's strtonum(s): a string that starts with 0x is
// hexadecimal and one that starts with 0 octal (as far as their digits go;
// an 8 or 9 makes it decimal), anything else the number at the start of s
// (after blanks), 0 when there is none.
func awkStrtonum(s string) float64 {
	base, digits := 10, ""
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, digits = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, digits = 8, s[1:]
		for _, c := range []byte(digits) {
			if c < '0' || c > '9' {
				break
			}
			if c >= '8' {
				base = 10
				break
			}
		}
	}
	if base == 10 {
		t := strings.TrimLeft(s, " \t\n\v\f\r")
		neg := len(t) > 0 && t[0] == '-'
		if len(t) > 0 && (t[0] == '-' || t[0] == '+') {
			t = t[1:]
		}
		v, _ := strconv.ParseFloat(awkNumberPrefix(t), 64)
		if neg {
			v = -v
		}
		return v
	}
	v := 0.0
	for _, c := range []byte(digits) {
		d := gnu.DigitValue(c)
		if d >= base {
			break
		}
		v = v*float64(base) + float64(d)
	}
	return v
}

// awkNumberPrefix is the longest decimal number (with fraction and
// exponent) at the start of s.
func awkNumberPrefix(s string) string {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	n := digits()
	if i < len(s) && s[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return "0"
	}
	end := i
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() > 0 {
			end = i
		}
	}
	return s[:end]
}

// LockedWriter lets several goroutines write to one stream, a write at a
// time: awk and the commands it runs, llmsh's session and vfsd's stderr
// copier.
type LockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// NewLockedWriter returns a LockedWriter that writes to w.
func NewLockedWriter(w io.Writer) *LockedWriter { return &LockedWriter{w: w} }

func (l *LockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Unwrap is the stream written: the shell looks through it to charge a
// failed write to a redirection.
func (l *LockedWriter) Unwrap() io.Writer { return l.w }

// awkStderr is awk's standard error: close("/dev/stderr") closes it,
// as mawk closes its descriptor 2; awk and the commands it runs then
// write there no more (a write fails with EBADF), and awk's own messages
// are lost, as mawk's are.
type awkStderr struct {
	LockedWriter
	closed bool
}

func (e *awkStderr) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return 0, syscall.EBADF
	}
	return e.w.Write(p)
}

func (e *awkStderr) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	return nil
}

func (e *awkStderr) isClosed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closed
}

// awkDiscard is print > "/dev/null".
type awkDiscard struct{}

func (awkDiscard) Write(p []byte) (int, error) { return len(p), nil }
func (awkDiscard) Close() error                { return nil }

// pathReason is the GNU reason text of an awkOpen error.
func pathReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return ErrText(err)
}

// awkGawkFuncs are gawk's functions that GoAWK lacks: strtonum(s) and the
// time functions systime(), strftime([format [, timestamp [, utc]]]) and
// mktime("YYYY MM DD HH MM SS" [, utc]). Local time is the zone named by
// the script's TZ variable (UTC when it is unset or not a zoneinfo name);
// the host's is never used. A function the program defines itself takes
// precedence.
func awkGawkFuncs(env *Env) map[string]any {
	loc := time.UTC
	for _, kv := range env.Environ {
		if tz, ok := strings.CutPrefix(kv, "TZ="); ok {
			tz = strings.TrimPrefix(tz, ":")
			loc = time.UTC
			if tz != "" && tz != "Local" && !strings.HasPrefix(tz, "/") && !strings.Contains(tz, "..") {
				if l, err := zones.Load(tz); err == nil {
					loc = l
				}
			}
		}
	}
	gmt := time.FixedZone("GMT", 0) // gawk's zone name with the utc flag
	return map[string]any{
		"strtonum": awkStrtonum,
		"systime":  func() float64 { return float64(time.Now().Unix()) },
		"strftime": func(format string, rest ...float64) string {
			if format == "" {
				format = "%a %b %e %H:%M:%S %Z %Y" // gawk's PROCINFO["strftime"]
			}
			t := time.Now()
			if len(rest) > 0 {
				t = time.Unix(int64(rest[0]), 0)
			}
			if len(rest) > 1 && rest[1] != 0 {
				return timefmt.Format(t.In(gmt), format)
			}
			return timefmt.Format(t.In(loc), format)
		},
		"mktime": func(spec string, utc ...float64) float64 {
			f := strings.Fields(spec)
			if len(f) < 6 {
				return -1
			}
			var n [6]int
			for i := range n {
				v, err := strconv.Atoi(f[i])
				if err != nil {
					return -1
				}
				n[i] = v
			}
			l := loc
			if len(utc) > 0 && utc[0] != 0 {
				l = time.UTC
			}
			return float64(time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], 0, l).Unix())
		},
	}
}
