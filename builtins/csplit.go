package builtins

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
	"github.com/llmsh/llmsh/posixre"
)

var _ = register(Builtin{Name: "csplit", Summary: "split a file into sections determined by context lines", Run: csplitCmd})

// csplitControl is one pattern operand of csplit: a line number, or a
// regular expression with its offset (ignore: %RE%, whose section is
// skipped), and its repeat count.
type csplitControl struct {
	argnum   int // the operand's index in the operands, for messages
	re       *posixre.Regexp
	ignore   bool
	offset   int64
	lines    int64 // the line number of a line-number pattern
	repeat   int64
	forever  bool // {*}
	isRegexp bool
}

// csplitRun is the state of one csplit: the input's lines, the first
// line not yet written (head, 1-based, as GNU's first_available) and
// GNU's current_line, and the output file being written.
type csplitRun struct {
	env      *Env
	steps    int // lines looked at, for stopped
	operands []string
	lines    [][]byte
	head     int64
	current  int64
	prefix   string
	suffix   string // a printf format of one integer ("" : %0*d of digits)
	digits   int
	quiet    bool
	elide    bool
	keep     bool
	suppress bool
	created  int64 // files created (and not elided)
	out      File
	outName  string
	written  int64
	stdout   *bufio.Writer
}

// errCsplitFatal ends a csplit whose message was printed: the files are
// removed (unless -k) and the status is 1.
var errCsplitFatal = errors.New("csplit: fatal")

// errCsplitDone ends a csplit whose {*} ran out of input: status 0.
var errCsplitDone = errors.New("csplit: done")

// errCsplitDie ends a csplit at once, leaving its files as they are
// (GNU's die: "input disappeared").
var errCsplitDie = errors.New("csplit: die")

// csplitCmd is coreutils 9.1's csplit: the sections of a file, cut at
// line numbers and at lines matching basic regular expressions, go to
// files xx00, xx01...; their sizes are printed.
func csplitCmd(env *Env) int {
	f := NewFlags(env, "Output pieces of FILE separated by PATTERN(s) to files 'xx00', 'xx01', ...,\n"+
		"and output byte counts of each piece to standard output.\n\nRead standard input if FILE is -",
		"[OPTION]... FILE PATTERN...")
	c := &csplitRun{env: env, prefix: "xx", digits: 2}
	suffix, suffixSet := f.String('b', "suffix-format", "FORMAT", "use sprintf FORMAT instead of %02d")
	f.StringVar(&c.prefix, 'f', "prefix", "PREFIX", "use PREFIX instead of 'xx'")
	f.BoolVar(&c.keep, 'k', "keep-files", "do not remove output files on errors")
	f.BoolVar(&c.suppress, 0, "suppress-matched", "suppress the lines matching PATTERN")
	var digitsErr error
	f.Func('n', "digits", RequiredArg, "DIGITS", "use specified number of digits instead of 2", func(v string, _ bool) error {
		n, err := strconv.ParseInt(strings.TrimLeft(v, " \t"), 10, 32)
		switch {
		case errors.Is(err, strconv.ErrRange):
			digitsErr = fmt.Errorf("invalid number: %s: Value too large for defined data type", env.Quote(v))
			return nil
		case err != nil:
			digitsErr = fmt.Errorf("invalid number: %s", env.Quote(v))
			return nil
		case n < 0:
			digitsErr = fmt.Errorf("invalid number: %s: Numerical result out of range", env.Quote(v))
			return nil
		}
		c.digits = int(n)
		return nil
	})
	f.BoolVar(&c.quiet, 's', "quiet", "do not print counts of output file sizes")
	f.Synonym("silent", "quiet")
	f.BoolVar(&c.quiet, 'q', "", "")
	f.BoolVar(&c.elide, 'z', "elide-empty-files", "remove empty output files")
	f.Epilog = "Each PATTERN may be:\n" +
		"  INTEGER            copy up to but not including specified line number\n" +
		"  /REGEXP/[OFFSET]   copy up to but not including a matching line\n" +
		"  %REGEXP%[OFFSET]   skip to, but not including a matching line\n" +
		"  {INTEGER}          repeat the previous pattern specified number of times\n" +
		"  {*}                repeat the previous pattern as many times as possible\n\n" +
		"A line OFFSET is an integer optionally preceded by '+' or '-'"
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if digitsErr != nil {
		env.Errorf("%s", digitsErr)
		return 1
	}
	if len(args) < 2 {
		if len(args) == 0 {
			return f.Fail(&UsageError{"missing operand"}, 1)
		}
		return f.Fail(&UsageError{"missing operand after " + env.Quote(args[len(args)-1])}, 1)
	}
	if *suffixSet {
		format, msg := csplitSuffix(*suffix)
		if msg != "" {
			env.Errorf("%s", msg)
			return 1
		}
		c.suffix = format
	}
	c.operands = args
	in, err := env.Open(args[0])
	if err != nil {
		env.Errorf("cannot open %s for reading: %s", env.QuoteAF(args[0]), ErrText(err))
		return 1
	}
	controls, ok := c.parse(args[1:])
	if !ok {
		in.Close()
		return 1
	}
	data, err := readHeld(env, in)
	in.Close()
	if err != nil {
		if st, stop := stopError(env, err); stop {
			return st
		}
		return c.readFailed(controls, err)
	}
	if c.lines, err = splitLinesKeep(env.Ctx, data); err != nil {
		return writeFailed(env, err)
	}
	c.head = 1
	c.stdout = stdoutWriter(env)
	err = c.split(controls)
	switch err {
	case nil, errCsplitDone:
		return finishOutput(env, c.stdout, 0)
	case errCsplitDie:
		c.abandon()
		return finishOutput(env, c.stdout, 1)
	}
	if st, stop := stopError(env, err); stop {
		c.abandon()
		return st
	}
	c.cleanup()
	return finishOutput(env, c.stdout, 1)
}

// readFailed ends a csplit whose input cannot be read: GNU has created
// the first section's file (unless it is a %RE%'s) before its first
// read, which cleanup_fatal closes (printing its size 0) and removes.
func (c *csplitRun) readFailed(controls []*csplitControl, err error) int {
	c.env.Errorf("read error: %s", ErrText(err))
	c.stdout = stdoutWriter(c.env)
	if len(controls) > 0 && !controls[0].ignore && c.create() != nil {
		return finishOutput(c.env, c.stdout, 1)
	}
	c.cleanup()
	return finishOutput(c.env, c.stdout, 1)
}

// splitLinesKeep cuts data into lines, each with its newline (the last
// one may have none).
func splitLinesKeep(ctx context.Context, data []byte) ([][]byte, error) {
	lines := make([][]byte, 0, bytes.Count(data, []byte{'\n'})+1)
	for len(data) > 0 {
		if len(lines)&0xffff == 0 && ctx.Err() != nil {
			return nil, gnu.ErrCancelled // millions of lines: seconds
		}
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, data)
			break
		}
		lines = append(lines, data[:i+1])
		data = data[i+1:]
	}
	return lines, nil
}

// csplitSuffix checks a -b format as GNU's max_out does and returns it in
// Go's fmt form, or GNU's message.
func csplitSuffix(s string) (string, string) {
	var out strings.Builder
	seen := false
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			out.WriteByte(s[i])
			continue
		}
		i++
		if i < len(s) && s[i] == '%' {
			out.WriteString("%%")
			continue
		}
		if seen {
			return "", "too many % conversion specifications in suffix"
		}
		seen = true
		out.WriteByte('%')
		thousands, alt := false, false
		for ; i < len(s) && strings.IndexByte("'-+ #0", s[i]) >= 0; i++ {
			switch s[i] {
			case '\'':
				thousands = true // no grouping in the C locale
				continue
			case '#':
				alt = true
			}
			out.WriteByte(s[i])
		}
		for ; i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.'); i++ {
			out.WriteByte(s[i])
		}
		if i == len(s) {
			return "", "missing conversion specifier in suffix"
		}
		ch := s[i]
		switch ch {
		case 'd', 'i', 'u':
			if alt {
				return "", fmt.Sprintf("invalid flags in conversion specification: %%#%c", ch)
			}
			out.WriteByte('d')
		case 'o', 'x', 'X':
			if thousands {
				return "", fmt.Sprintf("invalid flags in conversion specification: %%'%c", ch)
			}
			out.WriteByte(ch)
		default:
			if ch >= 0x20 && ch < 0x7f {
				return "", fmt.Sprintf("invalid conversion specifier in suffix: %c", ch)
			}
			return "", fmt.Sprintf("invalid conversion specifier in suffix: \\%.3o", ch)
		}
	}
	if !seen {
		return "", "missing % conversion specification in suffix"
	}
	return out.String(), ""
}

// csplitNumber parses an unsigned decimal as xstrtoumax does (leading
// blanks and a '+' allowed, no '-').
func csplitNumber(s string) (int64, bool) {
	t := strings.TrimPrefix(strings.TrimLeft(s, " \t\n\v\f\r"), "+")
	if t == "" || strings.Trim(t, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(t, 10, 64)
	return n, err == nil
}

// parse reads the pattern operands as GNU's parse_patterns.
func (c *csplitRun) parse(pats []string) ([]*csplitControl, bool) {
	var controls []*csplitControl
	var last int64
	for i := 0; i < len(pats); i++ {
		arg := pats[i]
		p := &csplitControl{argnum: i + 1}
		if arg != "" && (arg[0] == '/' || arg[0] == '%') {
			if !c.parseRegexp(p, arg) {
				return nil, false
			}
		} else {
			val, ok := csplitNumber(arg)
			if !ok {
				c.env.Errorf("%s: invalid pattern", c.env.Quote(arg))
				return nil, false
			}
			if val == 0 {
				c.env.Errorf("%s: line number must be greater than zero", arg)
				return nil, false
			}
			if val < last {
				c.env.Errorf("line number %s is smaller than preceding line number, %d", c.env.Quote(arg), last)
				return nil, false
			}
			if val == last {
				c.env.Errorf("warning: line number %s is the same as preceding line number", c.env.Quote(arg))
			}
			last = val
			p.lines = val
		}
		if i+1 < len(pats) && strings.HasPrefix(pats[i+1], "{") {
			i++
			if !c.parseRepeat(p, pats[i]) {
				return nil, false
			}
		}
		controls = append(controls, p)
	}
	return controls, true
}

func (c *csplitRun) parseRegexp(p *csplitControl, arg string) bool {
	delim := arg[0]
	end := strings.LastIndexByte(arg[1:], delim)
	if end < 0 {
		c.env.Errorf("%s: closing delimiter '%c' missing", arg, delim)
		return false
	}
	end++
	p.isRegexp, p.ignore = true, delim == '%'
	re, err := posixre.Compile(arg[1:end], posixre.EmptyRanges) // GNU: [b-a] is empty
	if err != nil {
		c.env.Errorf("%s: invalid regular expression: %s", c.env.Quote(arg), err)
		return false
	}
	p.re = re
	if rest := arg[end+1:]; rest != "" {
		off, err := strconv.ParseInt(strings.TrimLeft(rest, " \t\n\v\f\r"), 10, 64)
		if err != nil {
			c.env.Errorf("%s: integer expected after delimiter", c.env.Quote(arg))
			return false
		}
		p.offset = off
	}
	return true
}

func (c *csplitRun) parseRepeat(p *csplitControl, arg string) bool {
	if !strings.HasSuffix(arg, "}") || len(arg) < 2 {
		c.env.Errorf("%s: '}' is required in repeat count", c.env.Quote(arg))
		return false
	}
	body := arg[1 : len(arg)-1]
	if body == "*" {
		p.forever = true
		return true
	}
	n, ok := csplitNumber(body)
	if !ok {
		c.env.Errorf("%s}: integer required between '{' and '}'", c.env.Quote(arg[:len(arg)-1]))
		return false
	}
	p.repeat = n
	return true
}

// split runs the controls, then writes the rest of the input to a last
// file, as GNU's split_file.
func (c *csplitRun) split(controls []*csplitControl) error {
	for _, p := range controls {
		for j := int64(0); p.forever || j <= p.repeat; j++ {
			if err := c.env.Ctx.Err(); err != nil {
				return gnu.ErrCancelled
			}
			var err error
			if p.isRegexp {
				err = c.processRegexp(p, j)
			} else {
				err = c.processLineCount(p, j)
			}
			if err != nil {
				return err
			}
		}
	}
	if err := c.create(); err != nil {
		return err
	}
	if err := c.dumpRest(); err != nil {
		return err
	}
	return c.closeOutput()
}

func (c *csplitRun) findLine(n int64) []byte {
	if n < 1 || n > int64(len(c.lines)) {
		return nil
	}
	return c.lines[n-1]
}

func (c *csplitRun) removeLine() []byte {
	if c.head > int64(len(c.lines)) {
		return nil
	}
	if c.current < c.head {
		c.current = c.head
	}
	line := c.lines[c.head-1]
	c.head++
	return line
}

func (c *csplitRun) noMoreLines() bool { return c.findLine(c.current+1) == nil }

func (c *csplitRun) processLineCount(p *csplitControl, rep int64) error {
	last := p.lines * (rep + 1)
	if err := c.create(); err != nil {
		return err
	}
	if c.suppress && c.noMoreLines() {
		return c.lineError(p, rep)
	}
	if c.head > int64(len(c.lines)) {
		c.env.Errorf("input disappeared")
		return errCsplitDie
	}
	for n := c.head; n < last; n++ {
		line := c.removeLine()
		if line == nil {
			return c.lineError(p, rep)
		}
		if err := c.save(line); err != nil {
			return err
		}
	}
	if err := c.closeOutput(); err != nil {
		return err
	}
	if c.suppress {
		c.removeLine()
	}
	if !c.suppress && c.noMoreLines() {
		return c.lineError(p, rep)
	}
	return nil
}

func (c *csplitRun) lineError(p *csplitControl, rep int64) error {
	msg := fmt.Sprintf("%s: line number out of range", c.env.Quote(strconv.FormatInt(p.lines, 10)))
	if rep > 0 {
		msg += fmt.Sprintf(" on repetition %d", rep)
	}
	c.env.Errorf("%s", msg)
	return errCsplitFatal
}

func (c *csplitRun) processRegexp(p *csplitControl, rep int64) error {
	if !p.ignore {
		if err := c.create(); err != nil {
			return err
		}
	}
	for {
		if err := c.stopped(); err != nil {
			return err
		}
		c.current++
		line := c.findLine(c.current)
		if line == nil {
			if p.forever {
				if !p.ignore {
					if err := c.dumpRest(); err != nil {
						return err
					}
					if err := c.closeOutput(); err != nil {
						return err
					}
				}
				return errCsplitDone
			}
			return c.regexpError(p, rep)
		}
		matched, err := p.re.Match(bytes.TrimSuffix(line, []byte("\n")))
		if err != nil {
			c.env.Errorf("error in regular expression search")
			return errCsplitFatal
		}
		if matched {
			break
		}
		if p.offset >= 0 {
			// No buffering is needed: the line goes out now.
			line = c.removeLine()
			if !p.ignore {
				if err := c.save(line); err != nil {
					return err
				}
			}
		}
	}
	breakLine := c.current + p.offset
	if err := c.writeTo(breakLine, p); err != nil {
		return err
	}
	if !p.ignore {
		if err := c.closeOutput(); err != nil {
			return err
		}
	}
	if p.offset > 0 {
		c.current = breakLine
	}
	if c.suppress {
		c.removeLine()
	}
	return nil
}

func (c *csplitRun) regexpError(p *csplitControl, rep int64) error {
	msg := fmt.Sprintf("%s: match not found", c.env.Quote(c.operands[p.argnum]))
	if rep > 0 {
		msg += fmt.Sprintf(" on repetition %d", rep)
	}
	c.env.Errorf("%s", msg)
	if !p.ignore {
		if err := c.dumpRest(); err != nil {
			return err
		}
		if err := c.closeOutput(); err != nil {
			return err
		}
	}
	return errCsplitFatal
}

// writeTo writes the lines before last (GNU's write_to_file).
func (c *csplitRun) writeTo(last int64, p *csplitControl) error {
	if c.head > int64(len(c.lines)) {
		c.env.Errorf("input disappeared")
		return errCsplitDie
	}
	if c.head > last {
		c.env.Errorf("%s: line number out of range", c.env.Quote(c.operands[p.argnum]))
		return errCsplitFatal
	}
	for n := last - c.head; n > 0; n-- {
		line := c.removeLine()
		if line == nil {
			c.env.Errorf("%s: line number out of range", c.env.Quote(c.operands[p.argnum]))
			return errCsplitFatal
		}
		if err := c.stopped(); err != nil {
			return err
		}
		if !p.ignore {
			if err := c.save(line); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *csplitRun) dumpRest() error {
	for line := c.removeLine(); line != nil; line = c.removeLine() {
		if err := c.save(line); err != nil {
			return err
		}
	}
	return nil
}

// name is the name of output file n.
func (c *csplitRun) name(n int64) string {
	if c.suffix != "" {
		return c.prefix + fmt.Sprintf(c.suffix, n)
	}
	num := strconv.FormatInt(n, 10)
	if pad := c.digits - len(num); pad > 0 {
		// fmt's widths stop at 10^6 (%!(BADWIDTH)); GNU pads to any
		// width and the name is then too long to create.
		num = strings.Repeat("0", pad) + num
	}
	return c.prefix + num
}

func (c *csplitRun) create() error {
	if c.suffix == "" && c.digits > linuxPathMax {
		// No system creates a name longer than PATH_MAX: say so as GNU
		// does, the zeros written out rather than held in memory.
		num := strconv.FormatInt(c.created, 10)
		w := bufio.NewWriter(c.env.Stderr)
		fmt.Fprintf(w, "%s: %s", c.env.Name(), c.env.QuoteF(c.prefix))
		zeros := bytes.Repeat([]byte{'0'}, 64<<10)
		for pad := c.digits - len(num); pad > 0; pad -= len(zeros) {
			if err := c.stopped(); err != nil {
				return err
			}
			w.Write(zeros[:min(pad, len(zeros))])
		}
		fmt.Fprintf(w, "%s: %s\n", num, ErrText(syscall.ENAMETOOLONG))
		w.Flush()
		return errCsplitFatal
	}
	c.outName = c.name(c.created)
	out, err := c.env.Create(c.outName)
	if err != nil {
		c.env.Errorf("%s: %s", c.env.QuoteF(c.outName), ErrText(err))
		return errCsplitFatal
	}
	c.out, c.written = out, 0
	c.created++
	return nil
}

func (c *csplitRun) save(line []byte) error {
	if err := c.stopped(); err != nil {
		return err
	}
	if c.out == nil {
		return nil
	}
	if _, err := c.out.Write(line); err != nil {
		c.env.Errorf("write error for %s: %s", c.env.QuoteAF(c.outName), ErrText(err))
		c.out.Close()
		c.out = nil
		return errCsplitFatal
	}
	c.written += int64(len(line))
	return nil
}

// closeOutput closes the output file and prints its size, or removes it
// when it is empty under -z.
func (c *csplitRun) closeOutput() error {
	if c.out == nil {
		return nil
	}
	err := c.out.Close()
	c.out = nil
	if err != nil {
		c.env.Errorf("%s: %s", c.env.QuoteF(c.outName), ErrText(err))
		return errCsplitFatal
	}
	if c.written == 0 && c.elide {
		c.created--
		if err := c.env.FS.Remove(c.env.Abs(c.outName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			c.env.Errorf("%s: %s", c.env.QuoteF(c.outName), ErrText(err))
		}
		return nil
	}
	if !c.quiet {
		if _, err := fmt.Fprintf(c.stdout, "%d\n", c.written); err != nil {
			return gnu.WriteError{Err: err}
		}
	}
	return nil
}

// cleanup is GNU's cleanup_fatal: the open file is closed (its size
// printed), then every file made is removed unless -k.
func (c *csplitRun) cleanup() {
	c.closeOutput()
	if c.keep {
		return
	}
	for i := int64(0); i < c.created; i++ {
		name := c.name(i)
		if err := c.env.FS.Remove(c.env.Abs(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			c.env.Errorf("%s: %s", c.env.QuoteF(name), ErrText(err))
		}
	}
}

// abandon closes the open file without a word (a command that stops).
func (c *csplitRun) abandon() {
	if c.out != nil {
		c.out.Close()
		c.out = nil
	}
}

// stopped is gnu.ErrCancelled once the run has stopped, looked at every
// 65536 lines: a search or a copy of millions of lines takes seconds.
func (c *csplitRun) stopped() error {
	if c.steps++; c.steps&0xffff == 0 && c.env.Ctx.Err() != nil {
		return gnu.ErrCancelled
	}
	return nil
}
