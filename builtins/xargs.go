package builtins

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

var _ = register(Builtin{Name: "xargs", Summary: "build and execute command lines from standard input", Run: xargs})

// xargsDefaultSize is GNU xargs' default command buffer size (bytes of the
// arguments, each counted with its terminating NUL).
const xargsDefaultSize = 131072

// xargsArgMax is the ARG_MAX llmsh's xargs works under, Linux's usual
// (a quarter of an 8 MiB stack); xargsHeadroom is what GNU xargs keeps
// free of it. The largest -s is xargsArgMax less the headroom and the
// size of the environment (xargsMaxSize).
const (
	xargsArgMax   = 2 << 20
	xargsHeadroom = 2048
)

// xargsMaxSize is the largest -s accepted, as GNU xargs computes it from
// ARG_MAX and the environment (each variable and its NUL); larger values
// are clamped with a warning.
func xargsMaxSize(env *Env) int {
	n := xargsArgMax - xargsHeadroom
	for _, kv := range env.Environ {
		n -= len(kv) + 1
	}
	return n
}

// xargsShowLimits writes --show-limits' report, in GNU's words, with
// llmsh's values.
func xargsShowLimits(env *Env, size int) {
	envSize := xargsArgMax - xargsHeadroom - xargsMaxSize(env)
	fmt.Fprintf(env.Stderr, "Your environment variables take up %d bytes\n", envSize)
	fmt.Fprintf(env.Stderr, "POSIX upper limit on argument length (this system): %d\n", xargsMaxSize(env))
	fmt.Fprintf(env.Stderr, "POSIX smallest allowable upper limit on argument length (all systems): %d\n", 4096)
	fmt.Fprintf(env.Stderr, "Maximum length of command we could actually use: %d\n", xargsMaxSize(env)-envSize)
	fmt.Fprintf(env.Stderr, "Size of command buffer we are actually using: %d\n", size)
	fmt.Fprintf(env.Stderr, "Maximum parallelism (--max-procs must be no greater): %d\n", math.MaxInt32)
}

// errXaQuote is an unmatched quote in the default input mode.
type errXaQuote struct{ quote byte }

func (e errXaQuote) Error() string {
	q := "single"
	if e.quote == '"' {
		q = "double"
	}
	return "unmatched " + q + " quote; by default quotes are special to xargs unless you use the -0 option"
}

// errXaLong is an input item longer than the command line may be.
var errXaLong = errors.New("argument line too long")

// xargsReader splits xargs' input into arguments as GNU xargs does.
type xargsReader struct {
	br      *bufio.Reader
	delim   int  // the -0/-d byte, or -1 for the default quoting mode
	replace bool // -I: a whole line is one argument
	eofStr  string
	eofSet  bool
	eof     bool
	lines   int // completed input lines (for -L)
	max     int // the longest item accepted (-s)
	ctx     context.Context
}

// line reads up to the end of the next input line (default mode) or the
// next delimited item and returns the arguments found; done reports that
// the input (or the -E string) has ended.
func (r *xargsReader) line() (args []string, err error) {
	if r.eof {
		return nil, nil
	}
	if r.delim >= 0 {
		return r.item()
	}
	const (
		space = iota
		norm
		quote
		backslash
	)
	state := space
	var quotc byte
	var prev byte
	var buf []byte
	for n := 0; ; n++ {
		if n&0xfff == 0 && r.ctx.Err() != nil {
			return nil, r.ctx.Err()
		}
		c, rerr := r.br.ReadByte()
		if rerr != nil {
			r.eof = true
			if rerr != io.EOF {
				return args, rerr
			}
			if len(buf) == 0 {
				return args, nil
			}
			if state == quote {
				return args, errXaQuote{quotc}
			}
			if r.eofSet && string(buf) == r.eofStr {
				return args, nil
			}
			return append(args, string(buf)), nil
		}
		switch state {
		case space:
			if xargsSpace(c) {
				prev = c
				continue
			}
			state = norm
			fallthrough
		case norm:
			if c == '\n' {
				if !xargsBlank(prev) {
					r.lines++
				}
				if buf == nil {
					state = space
					prev = c
					continue
				}
				if r.eofSet && string(buf) == r.eofStr {
					r.eof = true
					return args, nil
				}
				return append(args, string(buf)), nil
			}
			if !r.replace && xargsSpace(c) {
				if r.eofSet && string(buf) == r.eofStr {
					r.eof = true
					return args, nil
				}
				args = append(args, string(buf))
				buf = nil
				state = space
				prev = c
				continue
			}
			switch c {
			case '\\':
				state = backslash
				prev = c
				continue
			case '\'', '"':
				state, quotc = quote, c
				if buf == nil {
					buf = []byte{}
				}
				prev = c
				continue
			}
		case quote:
			if c == '\n' {
				r.eof = true
				return args, errXaQuote{quotc}
			}
			if c == quotc {
				state = norm
				prev = c
				continue
			}
		case backslash:
			state = norm
		}
		if len(buf) >= r.max {
			r.eof = true
			return args, errXaLong
		}
		buf = append(buf, c)
		prev = c
	}
}

// item reads one -0/-d item.
func (r *xargsReader) item() ([]string, error) {
	var buf []byte
	for n := 0; ; n++ {
		if n&0xfff == 0 && r.ctx.Err() != nil {
			return nil, r.ctx.Err()
		}
		c, err := r.br.ReadByte()
		if err != nil {
			r.eof = true
			if err != io.EOF {
				return nil, err
			}
			if buf == nil {
				return nil, nil
			}
			r.lines++
			return []string{string(buf)}, nil
		}
		if int(c) == r.delim {
			r.lines++
			return []string{string(buf)}, nil
		}
		if len(buf) >= r.max {
			r.eof = true
			return nil, errXaLong
		}
		if buf == nil {
			buf = []byte{}
		}
		buf = append(buf, c)
	}
}

func xargsSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
func xargsBlank(c byte) bool { return c == ' ' || c == '\t' }

// xargsDelim parses -d's argument: one character or a C escape.
func xargsDelim(s string) (int, bool) {
	if len(s) == 1 {
		return int(s[0]), true
	}
	if len(s) < 2 || s[0] != '\\' {
		return 0, false
	}
	switch s[1] {
	case 'a':
		return '\a', len(s) == 2
	case 'b':
		return '\b', len(s) == 2
	case 'f':
		return '\f', len(s) == 2
	case 'n':
		return '\n', len(s) == 2
	case 'r':
		return '\r', len(s) == 2
	case 't':
		return '\t', len(s) == 2
	case 'v':
		return '\v', len(s) == 2
	case '\\':
		return '\\', len(s) == 2
	case 'x':
		v, err := strconv.ParseUint(s[2:], 16, 8)
		return int(v), err == nil
	case '0':
		v, err := strconv.ParseUint(s[1:], 8, 8)
		return int(v), err == nil
	}
	return 0, false
}

// xargsLineWriter passes whole lines to a shared writer, so that the output
// of commands run in parallel never interleaves within a line. A partial
// line is held until its newline, the command's end, or 64 KiB.
type xargsLineWriter struct {
	mu  *sync.Mutex
	w   io.Writer
	buf []byte
}

func (l *xargsLineWriter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	i := bytes.LastIndexByte(l.buf, '\n')
	if i < 0 && len(l.buf) < 64<<10 {
		return len(p), nil
	}
	if i < 0 {
		i = len(l.buf) - 1
	}
	if err := l.emit(l.buf[:i+1]); err != nil {
		return 0, err
	}
	l.buf = append(l.buf[:0], l.buf[i+1:]...)
	return len(p), nil
}

func (l *xargsLineWriter) emit(p []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := l.w.Write(p)
	return err
}

func (l *xargsLineWriter) flush() {
	if len(l.buf) > 0 {
		l.emit(l.buf)
		l.buf = nil
	}
}

// xargsPipeWatch notes a broken pipe on the output.
type xargsPipeWatch struct {
	w      io.Writer
	mu     sync.Mutex
	broken bool
}

func (p *xargsPipeWatch) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if err != nil && IsBrokenPipe(err) {
		p.mu.Lock()
		p.broken = true
		p.mu.Unlock()
	}
	return n, err
}

// Unwrap is the output watched: the shell looks through it to charge the
// command xargs runs with a failed write to a redirection.
func (p *xargsPipeWatch) Unwrap() io.Writer { return p.w }

func (p *xargsPipeWatch) isBroken() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.broken
}

// xargsConfig is what xargs's options select.
type xargsConfig struct {
	argFile            string // -a FILE
	argFileSet         bool
	delim              int // -d, -0: the item delimiter; -1 for blanks and quotes
	eofStr             string
	eofSet             bool
	repl               string // -I R
	replSet            bool
	maxLines, maxArgs  int
	procs              int
	size               int // -s
	noEmpty, trace     bool
	exitX, interactive bool
	null               bool
	showLimits         bool   // --show-limits
	openTTY            bool   // -o
	slotVar            string // --process-slot-var
}

func xargs(env *Env) int {
	c := &xargsConfig{delim: -1, procs: 1, size: xargsDefaultSize}
	f := c.flags(env)
	cmd, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if c.openTTY {
		// GNU's child fails to open the terminal; llmsh has none.
		env.Errorf("%s: %s", env.Quote("/dev/tty"), "No such device or address")
		return 1
	}
	if c.showLimits {
		xargsShowLimits(env, c.size)
	}
	if c.null {
		c.delim = 0
	}
	if c.eofSet && c.delim >= 0 {
		// GNU: items that -0 or -d split are never the end string
		env.Errorf("warning: the -E option has no effect if -0 or -d is used.\n")
		c.eofSet = false
	}
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	if c.replSet {
		c.maxLines, c.maxArgs = 1, 0
		c.exitX = true
	}
	if env.Exec == nil {
		env.Errorf("cannot run commands here")
		return 126
	}
	return c.run(env, cmd)
}

// xaNum is the setter of a numeric option opt whose least value is min.
func xaNum(opt string, min int, p *int) func(string, bool) error {
	return func(v string, _ bool) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			var ne *strconv.NumError
			if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
				n = 1 << 31
			} else {
				return &UsageError{fmt.Sprintf("invalid number \"%s\" for %s option", v, opt)}
			}
		}
		if n < int64(min) {
			return &UsageError{fmt.Sprintf("value %s for %s option should be >= %d", v, opt, min)}
		}
		if opt == "-P" && n > math.MaxInt32 {
			return &UsageError{fmt.Sprintf("value %s for %s option should be <= %d", v, opt, math.MaxInt32)}
		}
		*p = int(min64(n, 1<<31))
		return nil
	}
}

// xaExclusive is GNU's warning when option later, given after option
// earlier, drops earlier's value: -n, -L (-l) and -I (-i) exclude one
// another, and the last given wins.
func xaExclusive(env *Env, earlier, later string) {
	env.Errorf("warning: options %s and %s are mutually exclusive, ignoring previous %s value", earlier, later, earlier)
}

// setReplace is -I R (-i): it drops an earlier -n or -L.
func (c *xargsConfig) setReplace(env *Env, r string) {
	if c.maxArgs > 0 {
		xaExclusive(env, "--max-args", "--replace/-I/-i")
		c.maxArgs = 0
	}
	if c.maxLines > 0 {
		xaExclusive(env, "--max-lines", "--replace/-I/-i")
		c.maxLines = 0
	}
	c.repl, c.replSet = r, true
}

// setLines is -L N or -l[N] (opt): it drops an earlier -n or -I.
func (c *xargsConfig) setLines(env *Env, opt, v string) error {
	if err := xaNum(opt, 1, &c.maxLines)(v, true); err != nil {
		return err
	}
	name := "-L"
	if opt == "-l" {
		name = "--max-lines/-l"
	}
	if c.maxArgs > 0 {
		xaExclusive(env, "--max-args", name)
		c.maxArgs = 0
	}
	if c.replSet {
		xaExclusive(env, "--replace", name)
		c.replSet = false
	}
	return nil
}

// flags is xargs's option table.
func (c *xargsConfig) flags(env *Env) *Flags {
	f := NewFlags(env, "Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.\n\nCOMMAND (default echo) runs inside llmsh: a builtin or a shell function, never a host program.", "[OPTION]... COMMAND [INITIAL-ARGS]...")
	f.StopAtOperand = true
	f.BoolVar(&c.null, '0', "null", "items are separated by a null, not whitespace; disables quote and backslash processing")
	f.Func('a', "arg-file", RequiredArg, "FILE", "read arguments from FILE, not standard input", func(v string, _ bool) error {
		c.argFile, c.argFileSet = v, true
		return nil
	})
	f.Func('d', "delimiter", RequiredArg, "CHARACTER", "items in input stream are separated by CHARACTER, not by whitespace; disables quote and backslash processing", func(v string, _ bool) error {
		d, ok := xargsDelim(v)
		if !ok {
			return fmt.Errorf("Invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.", v)
		}
		c.delim = d
		return nil
	})
	f.Func('E', "", RequiredArg, "END", "set logical EOF string; if END occurs as a line of input, the rest of the input is ignored", func(v string, _ bool) error {
		c.eofStr, c.eofSet = v, v != ""
		return nil
	})
	f.Func('e', "eof", OptionalArg, "END", "equivalent to -E END if END is specified; otherwise, there is no end-of-file string", func(v string, present bool) error {
		c.eofStr, c.eofSet = v, present && v != ""
		return nil
	})
	f.Func('I', "", RequiredArg, "R", "same as --replace=R", func(v string, _ bool) error {
		c.setReplace(env, v)
		return nil
	})
	f.Func('i', "replace", OptionalArg, "R", "replace R in INITIAL-ARGS with names read from standard input, split at newlines; if R is unspecified, assume {}", func(v string, present bool) error {
		c.setReplace(env, v)
		if !present {
			c.repl = "{}"
		}
		return nil
	})
	// GNU's --help names --max-lines beside -L, but its getopt table
	// makes it -l's long form, with an optional argument.
	f.Row("-L, --max-lines=MAX-LINES", "use at most MAX-LINES non-blank input lines per command line")
	f.Func('L', "", RequiredArg, "MAX-LINES", "", func(v string, _ bool) error {
		return c.setLines(env, "-L", v)
	})
	lines := func(v string, present bool) error {
		if !present {
			v = "1"
		}
		return c.setLines(env, "-l", v)
	}
	f.Func('l', "", OptionalArg, "MAX-LINES", "similar to -L but defaults to at most one non-\nblank input line if MAX-LINES is not specified", lines)
	f.Func(0, "max-lines", OptionalArg, "MAX-LINES", "", lines)
	f.Func('n', "max-args", RequiredArg, "MAX-ARGS", "use at most MAX-ARGS arguments per command line", func(v string, present bool) error {
		n := 0
		if err := xaNum("-n", 1, &n)(v, present); err != nil {
			return err
		}
		if c.maxLines > 0 {
			xaExclusive(env, "--max-lines", "--max-args/-n")
			c.maxLines = 0
		}
		if c.replSet {
			if n == 1 { // what -I implies already
				return nil
			}
			xaExclusive(env, "--replace", "--max-args/-n")
			c.replSet = false
		}
		c.maxArgs = n
		return nil
	})
	f.Func('P', "max-procs", RequiredArg, "MAX-PROCS", "run at most MAX-PROCS commands at a time (0: no limit)", xaNum("-P", 0, &c.procs))
	f.Func('s', "max-chars", RequiredArg, "MAX-CHARS", "limit length of command line to MAX-CHARS", func(v string, present bool) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return &UsageError{fmt.Sprintf("invalid number \"%s\" for -s option", v)}
		}
		if n < 1 {
			env.Errorf("value %s for -s option should be >= 1", v)
			n = 1
		}
		if m := int64(xargsMaxSize(env)); n > m {
			env.Errorf("value %s for -s option should be <= %d", v, m)
			n = m
		}
		c.size = int(n)
		return nil
	})
	f.BoolVar(&c.noEmpty, 'r', "no-run-if-empty", "if there are no arguments, then do not run COMMAND")
	f.BoolVar(&c.trace, 't', "verbose", "print commands before executing them")
	f.BoolVar(&c.exitX, 'x', "exit", "exit if the size (see -s) is exceeded")
	f.BoolVar(&c.interactive, 'p', "interactive", "prompt before running commands (llmsh has no terminal: fails as GNU without one)")
	f.BoolVar(&c.openTTY, 'o', "open-tty", "Reopen stdin as /dev/tty in the child process\n(refused: llmsh has no terminal)")
	f.Func(0, "process-slot-var", RequiredArg, "VAR", "set environment variable VAR in child processes", func(v string, _ bool) error {
		if strings.Contains(v, "=") {
			return errors.New("option --process-slot-var may not be set to a value which includes `='")
		}
		c.slotVar = v
		return nil
	})
	f.BoolVar(&c.showLimits, 0, "show-limits", "show limits on command-line length")
	f.Epilog = "Exit status: 0 on success; 123 if any command exited with status 1-125;\n124 if a command exited with 255; 126 or 127 if a command could not be run or\nwas not found (one that ran and exited 126 or 127 itself counts as 123);\n1 on a usage or input error.\nWith -P, each command's output reaches standard output a whole line at a time."
	return f
}

// xargsRun is one run of xargs: the commands launched and their statuses.
type xargsRun struct {
	*xargsConfig
	env    *Env
	cmd    []string
	base   int // the size of cmd on a command line
	r      *xargsReader
	out    *xargsPipeWatch
	outMu  sync.Mutex
	wg     sync.WaitGroup
	sem    chan struct{}
	stMu   sync.Mutex
	status int // 123 once a command failed
	fatal  int // 124, 126, 127: stop launching

	launched    int
	slotMu      sync.Mutex
	slots       []bool // --process-slot-var: the slots of running commands
	pending     []string
	pendingSize int
	startLines  int
}

// run reads the items and runs cmd with them.
func (c *xargsConfig) run(env *Env, cmd []string) int {
	in := env.Stdin
	if c.argFileSet {
		rc, err := env.Open(c.argFile)
		if errors.Is(err, syscall.EISDIR) {
			// GNU opens a directory; its getc takes the failed read
			// for the end, and it does not check the file's close.
			rc, err = nopReadCloser{eofReader{}}, nil
		}
		if err != nil {
			env.Errorf("Cannot open input file %s: %s", env.Quote(c.argFile), ErrText(err))
			return 1
		}
		defer rc.Close()
		in = rc
	}
	x := &xargsRun{xargsConfig: c, env: env, cmd: cmd}
	for _, a := range cmd {
		x.base += len(a) + 1
	}
	if x.base > c.size {
		env.Errorf("cannot fit single argument within argument list size limit")
		return 1
	}
	x.r = &xargsReader{br: bufio.NewReaderSize(in, 64<<10), delim: c.delim, replace: c.replSet, eofStr: c.eofStr, eofSet: c.eofSet, ctx: env.Ctx, max: c.size}
	x.out = &xargsPipeWatch{w: env.Stdout}
	if c.procs > 0 {
		x.sem = make(chan struct{}, c.procs)
	}
	x.pendingSize = x.base
	tooLong, listTooLong, readErr := x.loop()
	var quoteErr errXaQuote
	badQuote := errors.As(readErr, &quoteErr)
	if !tooLong && !c.replSet && !x.stopped() && (!badQuote || len(x.pending) > 0) && (len(x.pending) > 0 || !errors.Is(readErr, errXaLong)) {
		// After an unmatched quote GNU runs what it has gathered, and
		// nothing when that is no argument at all.
		x.flush()
	}
	if badQuote {
		// GNU's read_line calls exec_if_possible, then error(): the
		// -t trace of what it ran comes before the message.
		x.outMu.Lock()
		env.Errorf("%s", quoteErr.Error())
		x.outMu.Unlock()
	}
	x.wg.Wait()
	return x.finish(readErr, tooLong, listTooLong)
}

// launch runs one command line, in the background under -P.
func (x *xargsRun) launch(args []string) {
	env := x.env
	if x.interactive {
		// GNU xargs prints the command line and asks on /dev/tty, which
		// a script never has under llmsh: it fails as GNU's does when
		// there is no terminal, before running anything.
		q := make([]string, len(args))
		for i, a := range args {
			q[i] = env.QuoteF(a)
		}
		x.outMu.Lock()
		io.WriteString(env.Stderr, strings.Join(q, " "))
		env.Errorf("failed to open /dev/tty for reading: No such device or address")
		x.outMu.Unlock()
		x.stMu.Lock()
		if x.fatal == 0 {
			x.fatal = 1
		}
		x.stMu.Unlock()
		return
	}
	if x.trace {
		q := make([]string, len(args))
		for i, a := range args {
			q[i] = env.QuoteF(a)
		}
		x.outMu.Lock()
		_, err := fmt.Fprintln(env.Stderr, strings.Join(q, " "))
		x.outMu.Unlock()
		if errors.Is(err, syscall.EPIPE) {
			// GNU xargs dies of SIGPIPE writing the trace to a pipe
			// whose reader has gone (2>&1 | head): status 141.
			x.stMu.Lock()
			if x.fatal == 0 {
				x.fatal = 141
			}
			x.stMu.Unlock()
			return
		}
	}
	x.launched++
	if x.procs == 1 {
		x.exec(env.Ctx, args, 0, x.out, env.Stderr)
		return
	}
	if x.sem != nil {
		x.sem <- struct{}{}
	}
	ctx := env.Ctx
	if env.GoCtx != nil {
		ctx = env.GoCtx(ctx)
	}
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		if x.sem != nil {
			defer func() { <-x.sem }()
		}
		ow := &xargsLineWriter{mu: &x.outMu, w: x.out}
		ew := &xargsLineWriter{mu: &x.outMu, w: env.Stderr}
		slot := x.takeSlot()
		defer x.freeSlot(slot)
		x.exec(ctx, args, slot, ow, ew)
		ow.flush()
		ew.flush()
	}()
}

// takeSlot is the lowest slot no running command has, as GNU numbers
// the children for --process-slot-var.
func (x *xargsRun) takeSlot() int {
	x.slotMu.Lock()
	defer x.slotMu.Unlock()
	for i, used := range x.slots {
		if !used {
			x.slots[i] = true
			return i
		}
	}
	x.slots = append(x.slots, true)
	return len(x.slots) - 1
}

func (x *xargsRun) freeSlot(i int) {
	x.slotMu.Lock()
	x.slots[i] = false
	x.slotMu.Unlock()
}

// exec runs args and records its status. --process-slot-var's variable
// reaches the command through env, as llmsh's commands take variables.
func (x *xargsRun) exec(ctx context.Context, args []string, slot int, stdout, stderr io.Writer) {
	run := args
	if x.slotVar != "" {
		run = append([]string{"env", x.slotVar + "=" + strconv.Itoa(slot)}, args...)
	}
	var stdin io.Reader = strings.NewReader("")
	if x.argFileSet && x.argFile != "-" {
		// GNU: the arguments come from a file, so the commands keep
		// xargs's standard input (otherwise /dev/null).
		stdin = x.env.Stdin
	}
	ctx, killed := WithKillReport(ctx)
	notRun := new(ExecFailure)
	st := x.env.Exec(WithExecFailure(ctx, notRun), run, stdin, stdout, stderr)
	x.stMu.Lock()
	defer x.stMu.Unlock()
	switch {
	case st == 0:
	case killed.Sig() != 0 && st == 128+killed.Sig():
		// A signal ended the command (sh -c 'kill -9 $$'), as GNU's
		// waitpid tells it.
		if x.fatal == 0 {
			x.outMu.Lock()
			x.env.Errorf("%s: terminated by signal %d", args[0], killed.Sig())
			x.outMu.Unlock()
			x.fatal = 125
		}
	case st == 255:
		if x.fatal == 0 {
			x.outMu.Lock()
			x.env.Errorf("%s: exited with status 255; aborting", args[0])
			x.outMu.Unlock()
			x.fatal = 124
		}
	case (st == 126 || st == 127) && notRun.Failed():
		// GNU: the command could not be run; one that ran and exited
		// 126 or 127 itself is just a failure (123).
		if x.fatal == 0 {
			x.fatal = st
		}
	case st == 141 && x.out.isBroken():
		// The command was killed by SIGPIPE, as the shell reports a
		// command that wrote to a pipe whose reader had gone.
		if x.fatal == 0 {
			x.outMu.Lock()
			x.env.Errorf("%s: terminated by signal 13", args[0])
			x.outMu.Unlock()
			x.fatal = 125
		}
	default:
		x.status = 123
	}
}

func (x *xargsRun) stopped() bool {
	x.stMu.Lock()
	defer x.stMu.Unlock()
	return x.fatal != 0 || x.out.isBroken() || x.env.Ctx.Err() != nil
}

// flush runs cmd with the pending items.
func (x *xargsRun) flush() {
	if len(x.pending) == 0 && (x.noEmpty || x.launched > 0) {
		return
	}
	args := append(append([]string(nil), x.cmd...), x.pending...)
	x.pending, x.pendingSize = nil, x.base
	x.startLines = x.r.lines
	x.launch(args)
}

// loop reads the input a line at a time and launches the commands it fills.
func (x *xargsRun) loop() (tooLong, listTooLong bool, readErr error) {
	for !x.stopped() {
		items, err := x.r.line()
		if err != nil {
			readErr = err
			var q errXaQuote
			if errors.As(err, &q) && x.maxLines > 0 {
				items = nil // -L: the line the quote left open is no line
			}
		}
		if x.replSet {
			tooLong = x.replace(items)
		} else {
			tooLong, listTooLong = x.add(items)
		}
		if tooLong || readErr != nil || x.r.eof {
			break
		}
	}
	return tooLong, listTooLong, readErr
}

// replace runs cmd once per item with -I's string replaced by it; it
// reports whether a command line was too long.
func (x *xargsRun) replace(items []string) (tooLong bool) {
	for _, it := range items {
		if x.env.Ctx.Err() != nil || x.stopped() {
			break
		}
		args := make([]string, len(x.cmd))
		total := 0
		for i, a := range x.cmd {
			args[i] = strings.ReplaceAll(a, x.repl, it)
			total += len(args[i]) + 1
		}
		if total > x.size {
			return true
		}
		x.launch(args)
	}
	return false
}

// add appends one input line's items to the pending command line, running
// it when it is full; listTooLong is -x's refusal of an -n or -L group
// that does not fit.
func (x *xargsRun) add(items []string) (tooLong, listTooLong bool) {
	for _, it := range items {
		need := len(it) + 1
		if x.pendingSize+need > x.size {
			if len(x.pending) == 0 {
				return true, false
			}
			if x.exitX && (x.maxArgs > 0 || x.maxLines > 0) {
				return true, true
			}
			if x.exitX && x.base+need > x.size {
				return true, false // -x: no room even alone, nothing run
			}
			x.flush()
			if x.pendingSize+need > x.size {
				return true, false // no room even alone: GNU stops
			}
		}
		x.pending = append(x.pending, it)
		x.pendingSize += need
		if x.maxArgs > 0 && len(x.pending) >= x.maxArgs {
			x.flush()
		}
	}
	if x.maxLines > 0 && x.r.lines-x.startLines >= x.maxLines && len(x.pending) > 0 {
		x.flush()
	}
	return false, false
}

// finish reports how the run ended and returns xargs's status.
func (x *xargsRun) finish(readErr error, tooLong, listTooLong bool) int {
	env := x.env
	var qe errXaQuote
	switch {
	case listTooLong:
		env.Errorf("argument list too long")
		return 1
	case tooLong:
		env.Errorf("argument line too long")
		return 1
	case errors.Is(readErr, errXaLong):
		env.Errorf("argument line too long")
		return 1
	case errors.Is(readErr, syscall.EBADF), errors.Is(readErr, syscall.EISDIR):
		// GNU's getc takes the failed read for the end of the input; its
		// close_stdin fails then, with EBADF for a closed stdin (errno
		// is gone for one open for writing only, or a directory).
		if env.StdinClosed && errors.Is(readErr, syscall.EBADF) {
			env.Errorf("error closing file: %s", ErrText(readErr))
		} else {
			env.Errorf("error closing file")
		}
		return 1
	case readErr != nil:
		if !errors.As(readErr, &qe) && !errors.Is(readErr, context.Canceled) && !errors.Is(readErr, context.DeadlineExceeded) {
			env.Errorf("%s", ErrText(readErr))
		}
		return 1
	case x.fatal != 0:
		return x.fatal
	case x.out.isBroken():
		return 125
	case env.Ctx.Err() != nil:
		return 1
	}
	return x.status
}

func min64(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}
