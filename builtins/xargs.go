package builtins

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

func init() {
	Register(Builtin{Name: "xargs", Summary: "build and execute command lines from standard input", Run: xargs})
}

// xargsDefaultSize is GNU xargs' default command buffer size (bytes of the
// arguments, each counted with its terminating NUL).
const xargsDefaultSize = 131072

// xargsMaxSize is the largest -s accepted (larger values are clamped).
const xargsMaxSize = 2 << 20

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

func xargs(env *Env) int {
	f := NewFlags(env, "Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.\n\nCOMMAND (default echo) runs inside llmsh: a builtin or a shell function, never a host program.", "[OPTION]... COMMAND [INITIAL-ARGS]...")
	f.StopAtOperand = true
	null := f.Bool('0', "null", "items are separated by a null, not whitespace; disables quote and backslash processing")
	var argFile string
	var argFileSet bool
	f.Func('a', "arg-file", RequiredArg, "FILE", "read arguments from FILE, not standard input", func(v string, _ bool) error {
		argFile, argFileSet = v, true
		return nil
	})
	delim := -1
	f.Func('d', "delimiter", RequiredArg, "CHARACTER", "items in input stream are separated by CHARACTER, not by whitespace; disables quote and backslash processing", func(v string, _ bool) error {
		d, ok := xargsDelim(v)
		if !ok {
			return fmt.Errorf("Invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.", v)
		}
		delim = d
		return nil
	})
	var eofStr string
	var eofSet bool
	f.Func('E', "", RequiredArg, "END", "set logical EOF string; if END occurs as a line of input, the rest of the input is ignored", func(v string, _ bool) error {
		eofStr, eofSet = v, v != ""
		return nil
	})
	f.Func('e', "eof", OptionalArg, "END", "equivalent to -E END if END is specified; otherwise, there is no end-of-file string", func(v string, present bool) error {
		eofStr, eofSet = v, present && v != ""
		return nil
	})
	var repl string
	var replSet bool
	f.Func('I', "", RequiredArg, "R", "same as --replace=R", func(v string, _ bool) error {
		repl, replSet = v, true
		return nil
	})
	f.Func('i', "replace", OptionalArg, "R", "replace R in INITIAL-ARGS with names read from standard input, split at newlines; if R is unspecified, assume {}", func(v string, present bool) error {
		repl, replSet = v, true
		if !present {
			repl = "{}"
		}
		return nil
	})
	num := func(opt string, min int, p *int) func(string, bool) error {
		return func(v string, _ bool) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				var ne *strconv.NumError
				if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
					n = 1 << 31
				} else {
					return &UsageError{fmt.Sprintf("invalid number %q for %s option", v, opt)}
				}
			}
			if n < int64(min) {
				return &UsageError{fmt.Sprintf("value %s for %s option should be >= %d", v, opt, min)}
			}
			*p = int(min64(n, 1<<31))
			return nil
		}
	}
	maxLines, maxArgs := 0, 0
	f.Func('L', "max-lines", RequiredArg, "MAX-LINES", "use at most MAX-LINES non-blank input lines per command line", func(v string, present bool) error {
		if err := num("-L", 1, &maxLines)(v, present); err != nil {
			return err
		}
		maxArgs = 0
		return nil
	})
	f.Func('n', "max-args", RequiredArg, "MAX-ARGS", "use at most MAX-ARGS arguments per command line", func(v string, present bool) error {
		if err := num("-n", 1, &maxArgs)(v, present); err != nil {
			return err
		}
		maxLines = 0
		return nil
	})
	procs := 1
	f.Func('P', "max-procs", RequiredArg, "MAX-PROCS", "run at most MAX-PROCS commands at a time (0: no limit)", func(v string, present bool) error {
		return num("-P", 0, &procs)(v, present)
	})
	size := xargsDefaultSize
	f.Func('s', "max-chars", RequiredArg, "MAX-CHARS", "limit length of command line to MAX-CHARS", func(v string, present bool) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return &UsageError{fmt.Sprintf("invalid number %q for -s option", v)}
		}
		if n < 1 {
			env.Errorf("value %s for -s option should be >= 1", v)
			n = 1
		}
		size = int(min64(n, xargsMaxSize))
		return nil
	})
	noEmpty := f.Bool('r', "no-run-if-empty", "if there are no arguments, then do not run COMMAND")
	trace := f.Bool('t', "verbose", "print commands before executing them")
	exitX := f.Bool('x', "exit", "exit if the size (see -s) is exceeded")
	interactive := f.Bool('p', "interactive", "prompt before running commands (refused: llmsh has no terminal to ask)")
	f.Epilog = "Exit status: 0 on success; 123 if any command exited with status 1-125;\n124 if a command exited with 255; 126 or 127 if a command could not be run or\nwas not found (a command that itself exits 126 or 127 counts as that too);\n1 on a usage or input error.\nWith -P, each command's output reaches standard output a whole line at a time."
	cmd, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *interactive {
		env.Errorf("-p: interactive prompting is not supported (no terminal)")
		return 1
	}
	if *null {
		delim = 0
	}
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	if replSet {
		maxLines, maxArgs = 1, 0
		*exitX = true
	}
	if env.Exec == nil {
		env.Errorf("cannot run commands here")
		return 126
	}

	in := env.Stdin
	if argFileSet {
		rc, err := env.Open(argFile)
		if err != nil {
			env.Errorf("Cannot open input file %s: %s", gnu.Quote(argFile), ErrText(err))
			return 1
		}
		defer rc.Close()
		in = rc
	}
	base := 0
	for _, a := range cmd {
		base += len(a) + 1
	}
	if base > size {
		env.Errorf("cannot fit single argument within argument list size limit")
		return 1
	}

	r := &xargsReader{br: bufio.NewReaderSize(in, 64<<10), delim: delim, replace: replSet, eofStr: eofStr, eofSet: eofSet, ctx: env.Ctx, max: size}
	out := &xargsPipeWatch{w: env.Stdout}
	var outMu sync.Mutex
	var wg sync.WaitGroup
	var sem chan struct{}
	if procs > 0 {
		sem = make(chan struct{}, procs)
	}
	var stMu sync.Mutex
	status := 0 // 123 once a command failed
	fatal := 0  // 124, 126, 127: stop launching
	launched := 0

	run := func(args []string) {
		if *trace {
			q := make([]string, len(args))
			for i, a := range args {
				q[i] = gnu.QuoteF(a)
			}
			outMu.Lock()
			fmt.Fprintln(env.Stderr, strings.Join(q, " "))
			outMu.Unlock()
		}
		launched++
		exec := func(stdout, stderr io.Writer) {
			st := env.Exec(env.Ctx, args, strings.NewReader(""), stdout, stderr)
			stMu.Lock()
			defer stMu.Unlock()
			switch {
			case st == 0:
			case st == 255:
				if fatal == 0 {
					outMu.Lock()
					env.Errorf("%s: exited with status 255; aborting", args[0])
					outMu.Unlock()
					fatal = 124
				}
			case st == 126 || st == 127:
				if fatal == 0 {
					fatal = st
				}
			default:
				status = 123
			}
		}
		if procs == 1 {
			exec(out, env.Stderr)
			return
		}
		if sem != nil {
			sem <- struct{}{}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if sem != nil {
				defer func() { <-sem }()
			}
			ow := &xargsLineWriter{mu: &outMu, w: out}
			ew := &xargsLineWriter{mu: &outMu, w: env.Stderr}
			exec(ow, ew)
			ow.flush()
			ew.flush()
		}()
	}
	stopped := func() bool {
		stMu.Lock()
		defer stMu.Unlock()
		return fatal != 0 || out.isBroken() || env.Ctx.Err() != nil
	}

	var pending []string
	pendingSize := base
	startLines := 0
	var readErr error
	tooLong := false
	listTooLong := false // -x: an -n or -L group does not fit
	flush := func() {
		if len(pending) == 0 && (*noEmpty || launched > 0) {
			return
		}
		args := append(append([]string(nil), cmd...), pending...)
		pending, pendingSize = nil, base
		startLines = r.lines
		run(args)
	}
	for !stopped() {
		items, err := r.line()
		if err != nil {
			readErr = err
		}
		if replSet {
			for _, it := range items {
				if env.Ctx.Err() != nil || stopped() {
					break
				}
				args := make([]string, len(cmd))
				total := 0
				for i, a := range cmd {
					args[i] = strings.ReplaceAll(a, repl, it)
					total += len(args[i]) + 1
				}
				if total > size {
					tooLong = true
					break
				}
				run(args)
			}
		} else {
			for _, it := range items {
				need := len(it) + 1
				if pendingSize+need > size {
					if len(pending) == 0 {
						tooLong = true
						break
					}
					if *exitX && (maxArgs > 0 || maxLines > 0) {
						tooLong, listTooLong = true, true
						break
					}
					flush()
				}
				pending = append(pending, it)
				pendingSize += need
				if maxArgs > 0 && len(pending) >= maxArgs {
					flush()
				}
			}
			if !tooLong && maxLines > 0 && r.lines-startLines >= maxLines && len(pending) > 0 {
				flush()
			}
		}
		if tooLong || readErr != nil || r.eof {
			break
		}
	}
	if !tooLong && !replSet && !stopped() {
		flush() // after an unmatched quote too, as GNU does
	}
	wg.Wait()
	var qe errXaQuote
	if errors.As(readErr, &qe) {
		env.Errorf("%s", qe.Error())
	}
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
	case readErr != nil:
		if !errors.As(readErr, &qe) && !errors.Is(readErr, context.Canceled) && !errors.Is(readErr, context.DeadlineExceeded) {
			env.Errorf("%s", ErrText(readErr))
		}
		return 1
	case fatal != 0:
		return fatal
	case out.isBroken():
		return 125
	case env.Ctx.Err() != nil:
		return 1
	}
	return status
}

func min64(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}
