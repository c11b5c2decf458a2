// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// This file holds bash's read and mapfile (readarray), written for llmsh
// (see LLMSH.md, "read, getopts, test, mapfile as bash"). Both take their
// input one byte at a time, so that nothing past what they use is taken
// from an input that other commands share (a loop's stdin, a descriptor
// opened by exec).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// shellName is the name that llmsh's own builtin messages start with.
const shellName = "llmsh"

// shErrf prints a builtin's message as bash does, with the shell's name
// and line in front ("llmsh: line 1: read: -x: invalid option").
func (r *Runner) shErrf(format string, a ...any) {
	r.errf(r.errPrefix()+format, a...)
}

const readUsage = "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n"

// errReadTimeout ends a read whose -t timeout passed.
var errReadTimeout = errors.New("read timed out")

// readTimeout converts read -t's (and TMOUT's) number as bash's uconvert:
// an optional sign, digits, then after a '.' up to six digits of
// microseconds (the seventh rounds, the rest is not looked at), so "",
// "." and "-0" are 0, "+1" is 1 and "-0.5" 0.5; ok is false for anything
// else and for negative seconds.
func readTimeout(s string) (secs float64, ok bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	var ipart, upart int64
	i := 0
	for ; i < len(s) && s[i] != '.'; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		if ipart < math.MaxInt64/100 {
			ipart = ipart*10 + int64(s[i]-'0')
		}
	}
	if i < len(s) {
		frac := s[i+1:]
		n := 0
		for ; n < 6 && n < len(frac); n++ {
			if frac[n] < '0' || frac[n] > '9' {
				return 0, false
			}
			upart = upart*10 + int64(frac[n]-'0')
		}
		for k := n; k < 6; k++ {
			upart *= 10
		}
		if n == 6 && len(frac) > 6 && frac[6] >= '5' && frac[6] <= '9' {
			upart++
		}
	}
	if neg && ipart != 0 {
		return 0, false // bash's sign is the seconds' only: -0.5 is 0.5
	}
	return float64(ipart) + float64(upart)/1e6, true
}

// validArrayRef matches NAME[SUBSCRIPT], which read and mapfile assign to.
func validArrayRef() *regexp.Regexp {
	return validArrayRefOnce.get(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\[.+\]$`) })
}

var validArrayRefOnce lazy[*regexp.Regexp]

// legalNumber parses an integer as bash's legal_number: strtoimax's
// leading white space (isspace) and sign, then only blanks (space, tab)
// after the digits; out of range is not a number.
func legalNumber(s string) (int64, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	t = strings.TrimRight(t, " \t")
	if t == "" || t == "+" || t == "-" {
		return 0, false
	}
	if (t[0] == '+' || t[0] == '-') && (t[1] == '+' || t[1] == '-') {
		return 0, false // ParseInt takes one sign, as strtoimax
	}
	n, err := strconv.ParseInt(t, 10, 64)
	return n, err == nil
}

// byteInput is where read and mapfile take their bytes from.
type byteInput struct {
	f     *os.File  // the runner's stdin (deadlines work on it), or nil
	rd    io.Reader // a descriptor opened through the open handler
	close func()
	timed bool // a deadline is set on f
	// file: the input is a file a redirection opened, which always has
	// input (or its end) for read -t 0, as bash's regular file.
	file bool

	// deadline, for an f that takes none (a terminal): each byte is
	// waited for with select(2) until then.
	deadline time.Time

	// buf holds bytes read ahead from a regular file f, from pos on
	// (llmsh): read(2) of one byte per call made `while read` cost a
	// system call per byte. release seeks f back over what was not
	// used, as bash's read does on a seekable descriptor.
	buf []byte
	pos int

	// gate, in a job, is passed before each read from the input, so
	// that a stopped job reads nothing more (llmsh; jobstop.go); done
	// ends a wait there.
	gate *jobGate
	done <-chan struct{}
	// reads counts the reads of rd, whose readers no deadline ends: every
	// 4096th looks at done, so that a read of an endless input without
	// its delimiter (`read x < /dev/zero`, whose NULs it drops) ends with
	// the run (llmsh).
	reads int
}

// regularFile reports whether f is a regular file, which can be read
// ahead and seeked back (llmsh). The last answer is kept: a loop of reads
// asks about the same file each time.
func (r *Runner) regularFile(f *os.File) bool {
	if f != r.regFile {
		fi, err := f.Stat()
		r.regFile, r.regFileOK = f, err == nil && fi.Mode().IsRegular()
	}
	return r.regFileOK
}

// readAhead makes in read a regular file in blocks (llmsh), into the
// runner's buffer; release gives back what was read past the record.
func (r *Runner) readAhead(in *byteInput) {
	if in.f == nil || !in.deadline.IsZero() || in.timed || !r.regularFile(in.f) {
		return
	}
	if r.readBuf == nil {
		r.readBuf = make([]byte, 4096)
	}
	in.buf, in.pos = r.readBuf[:0], 0
}

// release seeks a read-ahead file back to just past the last byte used,
// then closes in.
func (in *byteInput) release() {
	if n := len(in.buf) - in.pos; n > 0 {
		in.f.Seek(int64(-n), io.SeekCurrent)
	}
	in.buf, in.pos = nil, 0
	in.close()
}

// uFdClosed says whether -u FD names a descriptor that is not open, which
// bash's read and mapfile check as they parse -u, before the names and the
// other options (and inputFd again, as it opens it).
func (r *Runner) uFdClosed(fd int) bool {
	if fd == 0 {
		return r.stdin == nil && !r.stdinWO
	}
	return r.fds[fd] == nil
}

// inputFd opens descriptor fd for reading: 0 is the runner's stdin, any
// other one of its table (fds.go); uSet says -u named it. The messages
// are bash's. A descriptor that is open but not for reading is one
// mapfile reads no line from, as bash's (status 0).
func (r *Runner) inputFd(ctx context.Context, name string, fd int, uSet bool) (in *byteInput, ok bool) {
	defer func() {
		if in != nil {
			in.gate, in.done = r.gate, ctx.Done()
		}
	}()
	unreadable := func() (*byteInput, bool) {
		if name != "read" {
			return &byteInput{rd: strings.NewReader(""), close: func() {}}, true
		}
		r.shErrf("%s: read error: %d: Bad file descriptor\n", name, fd)
		return nil, false
	}
	if uSet && r.uFdClosed(fd) {
		// -u checks that the descriptor is open (closed: <&-); any
		// other descriptor than 0 comes from -u.
		r.shErrf("%s: %d: invalid file descriptor: Bad file descriptor\n", name, fd)
		return nil, false
	}
	if fd == 0 {
		if r.stdin == nil {
			return unreadable()
		}
		if r.stdinSrc != nil {
			return &byteInput{rd: r.stdinSrc, close: func() {}, file: true}, true
		}
		return &byteInput{f: r.stdin, close: func() {}, file: r.stdin == r.fileStdin}, true
	}
	o := r.fds[fd]
	if o == nil || o.r == nil {
		return unreadable()
	}
	if f, ok := o.r.(*os.File); ok {
		return &byteInput{f: f, close: func() {}, file: o.kind == "file"}, true
	}
	return &byteInput{rd: o.r, close: func() {}}, true
}

// next reads one byte.
func (in *byteInput) next() (byte, error) {
	if in.buf != nil {
		if in.pos == len(in.buf) {
			in.gate.pass(in.done)
			n, err := in.f.Read(in.buf[:cap(in.buf)])
			if n <= 0 {
				in.buf, in.pos = in.buf[:0], 0
				if err == nil {
					err = io.EOF
				}
				return 0, err
			}
			in.buf, in.pos = in.buf[:n], 0
		}
		in.pos++
		return in.buf[in.pos-1], nil
	}
	var b [1]byte
	for {
		var n int
		var err error
		in.gate.pass(in.done)
		if in.f != nil {
			if !in.deadline.IsZero() && !inputWait(in.f, time.Until(in.deadline)) {
				return 0, errReadTimeout
			}
			n, err = in.f.Read(b[:])
		} else {
			if in.reads++; in.reads&4095 == 0 && in.done != nil {
				select {
				case <-in.done:
					return 0, context.Canceled
				default:
				}
			}
			if in.reads&4095 == 0 && !in.deadline.IsZero() && time.Now().After(in.deadline) {
				return 0, errReadTimeout // llmsh: input that never stops
			}
			if fr, ok := in.rd.(*fdReader); ok && !in.deadline.IsZero() {
				return fr.readByteBefore(in.deadline, in.done) // llmsh
			}
			if pi, ok := in.rd.(PipeInput); ok && !in.deadline.IsZero() && pi.Buffered() == 0 && !inputWait(pi.Pipe(), time.Until(in.deadline)) {
				return 0, errReadTimeout // llmsh
			}
			n, err = in.rd.Read(b[:])
		}
		if n == 1 {
			return b[0], nil
		}
		if err != nil {
			if in.timed && errors.Is(err, os.ErrDeadlineExceeded) {
				return 0, errReadTimeout
			}
			return 0, err
		}
	}
}

// watch makes a read of in end when ctx is cancelled, or at deadline
// when it is not zero; the returned function undoes it.
func (in *byteInput) watch(ctx context.Context, deadline time.Time) func() {
	if in.f == nil {
		// llmsh: a reader that is no file (llmsh's /dev/zero) is
		// timed between its reads (next).
		in.deadline = deadline
		return func() { in.deadline = time.Time{} }
	}
	if !deadline.IsZero() {
		if in.f.SetReadDeadline(deadline) == nil {
			in.timed = true
		} else {
			in.deadline = deadline
		}
	}
	stopc := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		in.f.SetReadDeadline(time.Now())
		close(stopc)
	})
	return func() {
		if !stop() {
			<-stopc
		}
		if in.timed || ctx.Err() != nil {
			in.f.SetReadDeadline(time.Time{})
		}
		in.deadline = time.Time{}
	}
}

// readRecord reads up to delim (delim < 0: no delimiter), or nchars
// characters when nchars >= 0. Without raw a backslash escapes the next
// character (esc marks it: it is no IFS delimiter) and backslash-newline
// is removed. NUL bytes are dropped unless NUL is the delimiter. err is
// io.EOF when input ended before the delimiter, errReadTimeout on a
// timeout, or a read error. With mb, nchars counts UTF-8 characters,
// each read whole (llmsh: bash's read_mbchar), else bytes.
func readRecord(next func() (byte, error), raw bool, delim int, nchars int, mb bool) (line []byte, esc []bool, err error) {
	backslash := false
	for n := 0; nchars < 0 || n < nchars; {
		c, err := next()
		if err != nil {
			if backslash && err == io.EOF {
				// llmsh: bash keeps the CTLESC of a backslash that
				// ends the input: no IFS character before it is
				// stripped, and alone it is a field (readTail).
				line, esc = append(line, ctlEsc), append(esc, true)
			}
			return line, esc, err
		}
		switch {
		case c == 0 && delim != 0:
			continue
		case backslash:
			backslash = false
			if c == '\n' {
				continue
			}
			line, esc = append(line, c), append(esc, true)
		case c == '\\' && !raw:
			backslash = true
			continue
		case int(c) == delim:
			return line, esc, nil
		default:
			line, esc = append(line, c), append(esc, false)
		}
		n++
		if mb && utf8Len(c) > 1 {
			// The rest of a multibyte character, up to a byte that
			// cannot continue it (kept, as bash keeps it).
			for more := utf8Len(c) - 1; more > 0; more-- {
				c2, err := next()
				if err == io.EOF && n == nchars {
					// llmsh: the bytes the input ended in are
					// the last character, as in bash (status 0).
					return line, esc, nil
				} else if err != nil {
					return line, esc, err
				}
				line, esc = append(line, c2), append(esc, esc[len(esc)-1])
				if c2&0xC0 != 0x80 {
					break
				}
			}
		}
	}
	return line, esc, nil
}

// boundNext is next failing with ValueTooLargeError once it has given
// more than max bytes other than NUL, which read drops (llmsh, session 30): read kept a line of a 256 MiB virtual
// file whatever the run's value limit, as a slice of bytes and one of
// flags, both doubling as they grew (a run under --max-memory 128M
// reached 305 MB of RSS). max <= 0 bounds nothing.
func boundNext(next func() (byte, error), max int) func() (byte, error) {
	if max <= 0 {
		return next
	}
	n := 0
	return func() (byte, error) {
		c, err := next()
		if c != 0 && err == nil {
			if n++; n > max {
				return 0, expand.ValueTooLargeError{Limit: max}
			}
		}
		return c, err
	}
}

// ctlEsc is bash's CTLESC, which its read leaves at the end of the line
// when the input ends with a backslash.
const ctlEsc = 0x01

// readTail undoes the CTLESC that readRecord left at the end of a line
// whose input ended with a backslash (tail), in vals, the values the line
// gave (llmsh): the last one that is not empty ends with it, which is
// removed unless it is all of that value, as bash's dequote_string keeps
// a CTLESC with nothing after it ("a b \\" read into three names gives
// the third $'\001').
func readTail(vals []string, tail bool) {
	if !tail {
		return
	}
	for i := len(vals) - 1; i >= 0; i-- {
		if v := vals[i]; v != "" {
			if len(v) > 1 && v[len(v)-1] == ctlEsc {
				vals[i] = v[:len(v)-1]
			}
			return
		}
	}
}

// utf8Len is the length of the UTF-8 sequence that lead byte c starts,
// as glibc's decoder reads one: 0xC0, 0xC1, 0xFE and 0xFF start none
// (mbrtowc says invalid at once, so bash's read counts the byte alone),
// 0xF8-0xFB and 0xFC-0xFD start the old sequences of five and six bytes
// (llmsh).
func utf8Len(c byte) int {
	switch {
	case c < 0xC2 || c >= 0xFE:
		return 1
	case c >= 0xFC:
		return 6
	case c >= 0xF8:
		return 5
	case c >= 0xF0:
		return 4
	case c >= 0xE0:
		return 3
	case c >= 0xC0:
		return 2
	}
	return 1
}

// ifsSplitter splits a line by IFS as bash's read does.
type ifsSplitter struct {
	line  []byte
	esc   []bool
	ifs   string
	pos   int
	bytes bool // the C locale: each byte a character
}

func (p *ifsSplitter) isIFS(i int) bool { return p.ifsLen(i) > 0 }

// ifsLen is the length of the IFS character at i, 0 if there is none
// (llmsh: an IFS of multibyte characters splits at each whole one, as
// bash's read does in a UTF-8 locale).
func (p *ifsSplitter) ifsLen(i int) int {
	if p.esc[i] {
		return 0
	}
	c := p.line[i]
	if c < utf8.RuneSelf || p.bytes {
		if strings.IndexByte(p.ifs, c) >= 0 {
			return 1
		}
		return 0
	}
	r, size := utf8.DecodeRune(p.line[i:])
	if r != utf8.RuneError && strings.ContainsRune(p.ifs, r) {
		return size
	}
	return 0
}

func (p *ifsSplitter) isWS(i int) bool {
	c := p.line[i]
	return (c == ' ' || c == '\t' || c == '\n') && p.isIFS(i)
}

func (p *ifsSplitter) skipWS() {
	for p.pos < len(p.line) && p.isWS(p.pos) {
		p.pos++
	}
}

// field takes one field and the delimiter after it.
func (p *ifsSplitter) field() string {
	start := p.pos
	for p.pos < len(p.line) && !p.isIFS(p.pos) {
		p.pos++
	}
	f := string(p.line[start:p.pos])
	p.skipWS()
	if p.pos < len(p.line) && p.isIFS(p.pos) && !p.isWS(p.pos) {
		p.pos += p.ifsLen(p.pos)
		p.skipWS()
	}
	return f
}

// rest is what remains, its trailing IFS whitespace removed, escaped
// or not, as bash's strip_trailing_ifs_whitespace (llmsh: `a \ ` is a;
// `a\ ` keeps its space, being one field, which splitVars takes whole).
func (p *ifsSplitter) rest() string {
	end := len(p.line)
	for end > p.pos {
		c := p.line[end-1]
		if (c != ' ' && c != '\t' && c != '\n') || strings.IndexByte(p.ifs, c) < 0 {
			break
		}
		end--
	}
	return string(p.line[p.pos:end])
}

// splitVars gives n values: a field for each name but the last, which
// gets the rest of the line (or its one remaining field, without the
// delimiter after it).
func splitVars(line []byte, esc []bool, ifs string, n int, bytes bool) []string {
	p := &ifsSplitter{line: line, esc: esc, ifs: ifs, bytes: bytes}
	p.skipWS()
	vals := make([]string, n)
	for i := 0; i < n-1 && p.pos < len(line); i++ {
		vals[i] = p.field()
	}
	if p.pos < len(line) {
		save := p.pos
		f := p.field()
		if p.pos >= len(line) {
			vals[n-1] = f
		} else {
			p.pos = save
			vals[n-1] = p.rest()
		}
	}
	return vals
}

// splitAll gives every field (read -a): no field after a final delimiter.
func splitAll(line []byte, esc []bool, ifs string, bytes bool) []string {
	if ifs == "" {
		if len(line) == 0 {
			return nil
		}
		return []string{string(line)}
	}
	p := &ifsSplitter{line: line, esc: esc, ifs: ifs, bytes: bytes}
	p.skipWS()
	var out []string
	for p.pos < len(line) {
		out = append(out, p.field())
	}
	return out
}

// ifs is $IFS, or its default when unset.
func (r *Runner) ifs() string {
	if v := r.lookupVar("IFS"); v.IsSet() {
		return v.String()
	}
	return " \t\n"
}

// validReadName reports whether read or mapfile may assign to name: a
// variable name, or an array element NAME[SUBSCRIPT].
func validReadName(name string) bool {
	if syntax.ValidName(name) {
		return true
	}
	if !validArrayRef().MatchString(name) {
		return false
	}
	// llmsh: the subscript ends at the last ], as bash's
	// valid_array_reference (m[c]d] is no element).
	_, _, ok := expand.ParseRef(name)
	return ok
}

// pipeSettle is how long read -t 0 in a pipeline's element that reads
// the pipe waits for the element before it (llmsh): bash forks that
// element after the writer started, so `echo x | { read -t 0; }` finds
// the data there; llmsh's elements start together.
const pipeSettle = 50 * time.Millisecond

// readInt evaluates s for an integer variable; an arithmetic error is
// bash's "CMD: EXPR: …", which abandons the command and ends a script.
func (r *Runner) readInt(cmd, s string) (string, bool) {
	n, err := r.ecfg.ArithmText(s)
	if ae, ok := errors.AsType[*expand.ArithmError](err); ok {
		r.arithErr(cmd, ae)
		r.exit.code = 1
		r.exit.exiting, r.exit.abandon = true, !r.cString
		r.exit.discard = r.exit.abandon // through eval, as expandErr's
		r.keepStatus()
		return "", false
	} else if err != nil {
		r.expandErr(err)
		return "", false
	}
	return strconv.FormatInt(n, 10), true
}

// assignName assigns value to name, which may be NAME[SUBSCRIPT], for
// the builtin cmd (the name its errors give).
func (r *Runner) assignName(cmd, name, value string) {
	vr := expand.Variable{Set: true, Kind: expand.String, Str: value}
	if syntax.ValidName(name) {
		prev := r.lookupVar(name)
		if n, t := prev.Resolve(r.writeEnv); n != "" && (syntax.ValidName(n) || t.Declared()) {
			name, prev = n, t // llmsh: through a nameref (to declRefElem's "a[0]" too)
		} else if n != "" && n != name && validArrayRef().MatchString(n) {
			r.assignName(cmd, n, value) // a nameref to an element
			return
		}
		if prev.Kind == expand.NameRef && prev.Str == "" {
			r.assignEmptyRef(cmd, name, prev, value)
			return
		}
		if r.noAssign(name) {
			r.exit.code = 1 // llmsh: read FUNCNAME fails, silently (bash)
			return
		}
		if prev.Integer {
			// llmsh: read into an integer variable evaluates, as bash.
			var ok bool
			if vr.Str, ok = r.readInt(cmd, value); !ok {
				return
			}
			if prev.Kind == expand.String || prev.Kind == expand.Unknown {
				vr.Integer, vr.Local, vr.Exported = true, prev.Local, prev.Exported
			}
		}
		if prev.HasCase() && (prev.Kind == expand.String || prev.Kind == expand.Unknown) {
			r.setVarString(name, vr.Str) // declare -l, -u
			return
		}
		keepAttrs(prev, &vr)
		r.setVarWithIndex(prev, name, nil, vr)
		return
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(name+"=''"), "")
	if err != nil || len(f.Stmts) != 1 {
		r.shErrf("`%s': not a valid identifier\n", name)
		r.exit.code = 1
		return
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) != 1 || ce.Assigns[0].Index == nil {
		r.shErrf("`%s': not a valid identifier\n", name)
		r.exit.code = 1
		return
	}
	base := ce.Assigns[0].Name.Value
	prev := r.lookupVar(base)
	if n, t := prev.Resolve(r.writeEnv); n != "" && syntax.ValidName(n) {
		base, prev = n, t // llmsh: printf -v 'r[1]' through a nameref r
	}
	if index := ce.Assigns[0].Index; prev.Kind != expand.Associative && allSubscript(index) {
		// llmsh: read 'a[@]': bash's error, status 1, and the
		// line goes on.
		r.errf("%s%s[%s]: bad array subscript\n", r.errPrefix(), base, subscriptText(index))
		r.exit.code = 1
		return
	}
	r.builtinAssign = true
	r.setVarWithIndex(prev, base, ce.Assigns[0].Index, vr)
	r.builtinAssign = false
}

// assignEmptyRef stores value, which read, printf -v, getopts or select
// assign to name, a nameref with no target yet, as the name it refers to,
// as bash's bind_variable: a value that names no variable or element is
// refused (status 1) and the nameref keeps no target (llmsh).
func (r *Runner) assignEmptyRef(cmd, name string, ref expand.Variable, value string) {
	if ref.Integer {
		var ok bool
		if value, ok = r.readInt(cmd, value); !ok {
			return
		}
	} else if !syntax.ValidName(value) && !validArrayRef().MatchString(value) {
		r.shErrf("%s: `%s': not a valid identifier\n", cmd, value)
		r.exit.code = 1
		return
	}
	ref.Str, ref.Set = value, true
	r.setVar(name, ref)
}

// readBuiltin is bash's read.
func (r *Runner) readBuiltin(ctx context.Context, args []string) exitStatus {
	var exit exitStatus
	fail := func(code uint8, format string, a ...any) exitStatus {
		r.shErrf(format, a...)
		exit.code = code
		return exit
	}
	var (
		raw, silent, edit, exact bool
		array                    string
		arrayOpt                 bool // llmsh: -a given (-a '' is refused)
		prompt                   *string
		delim                    = int('\n')
		nchars                   = -1
		timeout                  = -1.0
		fd                       = 0
		uSet                     = false
	)
	i := 0
opts:
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch c {
			case 'r':
				raw = true
				continue
			case 's':
				silent = true
				continue
			case 'e':
				edit = true
				continue
			case 'a', 'd', 'i', 'n', 'N', 'p', 't', 'u':
			default:
				r.shErrf("read: -%c: invalid option\n", c)
				r.errf(readUsage)
				exit.code = 2
				return exit
			}
			val := a[j+1:]
			if val == "" {
				if i+1 >= len(args) {
					r.shErrf("read: -%c: option requires an argument\n", c)
					r.errf(readUsage)
					exit.code = 2
					return exit
				}
				i++
				val = args[i]
			}
			switch c {
			case 'a':
				array, arrayOpt = val, true
			case 'd':
				delim = 0
				if val != "" {
					delim = int(val[0])
				}
			case 'i':
				// Only for readline (-e), which llmsh does not have.
			case 'n', 'N':
				n, ok := legalNumber(val)
				if !ok || n < 0 || n > math.MaxInt32 {
					// bash: intval != (int)intval is invalid too.
					return fail(1, "read: %s: %s\n", val, invalidNum(val))
				}
				nchars, exact = int(n), c == 'N'
			case 'p':
				prompt = &val
			case 't':
				t, ok := readTimeout(val)
				if !ok {
					return fail(1, "read: %s: invalid timeout specification\n", val)
				}
				timeout = t
			case 'u':
				n, ok := legalNumber(val)
				if !ok || n < 0 || n > 1<<20 {
					return fail(1, "read: %s: invalid file descriptor specification\n", val)
				}
				fd, uSet = int(n), true
				if r.uFdClosed(fd) {
					return fail(1, "read: %d: invalid file descriptor: Bad file descriptor\n", fd)
				}
			}
			continue opts
		}
	}
	names := args[i:]
	// As bash, only the first name is checked before reading: -a's
	// array and the other names when they are assigned (readAssign), so
	// read x 1y consumes its line and assigns x.
	if len(names) > 0 && !validReadName(names[0]) {
		return fail(1, "read: `%s': not a valid identifier\n", names[0])
	}
	if array != "" || arrayOpt {
		names = nil
	}
	if timeout < 0 {
		// As bash, $TMOUT is the default timeout.
		if v, ok := readTimeout(r.envGet("TMOUT")); ok && v > 0 {
			timeout = v
		}
	}
	if nchars == 0 {
		// bash reads nothing, and assigns the empty value.
		if timeout == 0 {
			return exit
		}
		if !r.readAssign(names, array, arrayOpt, nil, nil, exact) {
			exit.code = 1
		}
		return exit
	}

	if fd == 0 {
		r.syncInput() // llmsh: as bash's read of its input's descriptor
	}
	in, ok := r.inputFd(ctx, "read", fd, uSet)
	if !ok {
		exit.code = 1
		return exit
	}
	defer in.release()
	terminal, feed := false, (*ttyFeed)(nil)
	if in.f != nil && !r.regularFile(in.f) { // llmsh: no fstat per line of a file
		_, terminal = stdinTerminal(in.f)
		if feed = r.ttyFeed(in.f); !terminal && feed != nil {
			terminal = true // llmsh: TerminalStdin
		}
	}
	if edit && terminal {
		return fail(2, "read: -e: line editing is not available in llmsh\n")
	}
	if timeout == 0 {
		// Whether input is ready, without reading it.
		if in.f != nil && !in.file && !inputReady(in.f) && !(r.readsPipe && inputWait(in.f, pipeSettle)) {
			exit.code = 1
		}
		if pi, ok := in.rd.(PipeInput); ok && pi.Buffered() == 0 && !inputReady(pi.Pipe()) {
			exit.code = 1 // llmsh: a piped script's pipe
		}
		return exit
	}
	if silent && feed != nil && feed.quiet != nil {
		// llmsh: the terminal echoes nothing while read -s reads its
		// feed, from before its prompt (bash).
		defer feed.quiet()()
	}
	if prompt != nil && terminal {
		fmt.Fprint(r.stderr, *prompt)
	}

	var deadline time.Time
	if timeout > 0 {
		// llmsh: a timeout past time.Duration's range (about 292 years)
		// overflowed into the past, so the read timed out at once.
		d := time.Duration(math.MaxInt64)
		if timeout < float64(d)/float64(time.Second) {
			d = time.Duration(timeout * float64(time.Second))
		}
		deadline = time.Now().Add(d)
	}
	var (
		line []byte
		esc  []bool
		err  error
	)
	if silent && terminal && feed == nil && delim == '\n' && nchars < 0 {
		// Only a terminal echoes what it reads.
		fdn, _ := stdinTerminal(in.f)
		line, err = term.ReadPassword(fdn)
		esc = make([]bool, len(line))
	} else {
		undo := in.watch(ctx, deadline)
		r.readAhead(in)
		d := delim
		if exact {
			d = -1
		}
		mb := nchars > 0 && !expand.ByteLocale(r.writeEnv)
		line, esc, err = readRecord(boundNext(in.next, r.llmsh.maxValue), raw, d, nchars, mb)
		undo()
	}
	if _, ok := errors.AsType[expand.ValueTooLargeError](err); ok {
		r.expandErr(err) // llmsh: a line past the value limit stops the run
		return r.exit
	}
	if err != nil && ctx.Err() != nil {
		exit.code = 1
		return exit
	}
	assigned := r.readAssign(names, array, arrayOpt, line, esc, exact)
	switch {
	case !assigned:
		exit.code = 1
	case err == nil:
	case errors.Is(err, errReadTimeout):
		exit.code = 142 // 128 + SIGALRM, as bash
	case err == io.EOF:
		exit.code = 1
	default:
		r.shErrf("read: read error: %d: %s\n", fd, errText(err))
		exit.code = 1
	}
	if r.exit.exiting { // an integer variable's arithmetic error
		exit.exiting, exit.abandon, exit.discard = true, r.exit.abandon, r.exit.discard
	}
	if r.exit.code != 0 && exit.code == 0 {
		exit.code = r.exit.code // a readonly variable
	}
	return exit
}

// errText is an error's text as bash prints it ("Bad file descriptor").
func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	s := err.Error()
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

// readAssign gives read's variables their values: REPLY the line as read
// when no name is given, -N's one variable the line unsplit, -a's array
// every field, and the names the fields by IFS, the last one the rest.
// It reports false when -a names an associative array or no valid name,
// or a name after the first is no valid one (bash checks those only
// here: the names before it keep their fields, arrayOpt says -a was
// given).
func (r *Runner) readAssign(names []string, array string, arrayOpt bool, line []byte, esc []bool, exact bool) bool {
	tail := len(line) > 0 && line[len(line)-1] == ctlEsc && esc[len(esc)-1]
	if tail && (exact || !arrayOpt && len(names) == 0) {
		if len(line) > 1 {
			line = line[:len(line)-1] // (alone, it stays: bash's $'\001')
		}
		esc, tail = esc[:len(line)], false
	}
	badName := func(name string) bool {
		if validReadName(name) {
			return false
		}
		r.shErrf("read: `%s': not a valid identifier\n", name)
		return true
	}
	switch {
	case arrayOpt && !syntax.ValidName(array):
		r.shErrf("read: `%s': not a valid identifier\n", array)
		return false
	case array != "":
		written := array
		if t, idx := r.refTarget(array, nil); idx == nil {
			array = t // llmsh: the array a nameref names
		}
		if r.lookupVar(array).Kind == expand.Associative {
			// llmsh: as bash, after the line is read, naming the
			// array as written (a nameref's own name).
			r.errf("%sread: %s: not an indexed array\n", r.errPrefix(), written)
			return false
		}
		var fields []string
		if exact {
			// llmsh: -N's line is one element, none when empty (bash).
			if len(line) > 0 {
				fields = []string{string(line)}
			}
		} else {
			fields = splitAll(line, esc, r.ifs(), expand.ByteLocale(r.writeEnv))
			readTail(fields, tail)
		}
		arr := expand.Variable{Set: true, Kind: expand.Indexed, List: fields}
		prev := r.lookupVar(array)
		arr.Lower, arr.Upper, arr.Capital = prev.Lower, prev.Upper, prev.Capital // llmsh: declare -u v; read -a v
		if prev.Integer {
			// llmsh: read -a into an integer array evaluates each field.
			for i, f := range fields {
				var ok bool
				if fields[i], ok = r.readInt("read", f); !ok {
					return true
				}
			}
			arr.Integer, arr.Local, arr.Exported = true, prev.Local, prev.Exported
		}
		keepAttrs(prev, &arr)
		if r.noAssign(array) {
			r.exit.code = 1 // llmsh: read -a FUNCNAME fails, silently
		}
		r.setVar(array, arr)
	case len(names) == 0:
		r.setVarString("REPLY", string(line))
	case exact:
		r.assignName("read", names[0], string(line))
		for _, name := range names[1:] {
			if r.exit.code != 0 || r.exit.exiting {
				break // a readonly name ends the assignments (bash)
			}
			if badName(name) {
				return false
			}
			r.assignName("read", name, "")
		}
	default:
		vals := splitVars(line, esc, r.ifs(), len(names), expand.ByteLocale(r.writeEnv))
		readTail(vals, tail)
		for i, name := range names {
			if badName(name) {
				return false
			}
			if r.assignName("read", name, vals[i]); r.exit.code != 0 || r.exit.exiting {
				break // as above
			}
		}
	}
	return true
}

const mapfileUsage = "%s: usage: %s [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]\n"

// mapfileBuiltin is bash's mapfile and readarray.
func (r *Runner) mapfileBuiltin(ctx context.Context, name string, args []string) exitStatus {
	var exit exitStatus
	fail := func(code uint8, format string, a ...any) exitStatus {
		r.shErrf(format, a...)
		exit.code = code
		return exit
	}
	var (
		delim    = byte('\n')
		count    = int64(0)
		origin   = int64(0)
		hasOrig  bool
		skip     = int64(0)
		trim     bool
		fd       = 0
		uSet     = false
		callback string
		quantum  = int64(5000)
	)
	i := 0
opts:
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			if c == 't' {
				trim = true
				continue
			}
			if strings.IndexByte("dnOsuCc", c) < 0 {
				r.shErrf("%s: -%c: invalid option\n", name, c)
				r.errf(mapfileUsage, name, name)
				exit.code = 2
				return exit
			}
			val := a[j+1:]
			if val == "" {
				if i+1 >= len(args) {
					r.shErrf("%s: -%c: option requires an argument\n", name, c)
					r.errf(mapfileUsage, name, name)
					exit.code = 2
					return exit
				}
				i++
				val = args[i]
			}
			n, isNum := legalNumber(val)
			switch c {
			case 'd':
				delim = 0
				if val != "" {
					delim = val[0]
				}
			case 'n':
				if !isNum || n < 0 || n > math.MaxUint32 {
					return fail(1, "%s: %s: invalid line count\n", name, val)
				}
				count = n
			case 'O':
				if !isNum || n < 0 || n > math.MaxUint32 {
					return fail(1, "%s: %s: invalid array origin\n", name, val)
				}
				origin, hasOrig = n, true
			case 's':
				if !isNum || n < 0 || n > math.MaxUint32 {
					return fail(1, "%s: %s: invalid line count\n", name, val)
				}
				skip = n
			case 'u':
				if !isNum || n < 0 || n > 1<<20 {
					return fail(1, "%s: %s: invalid file descriptor specification\n", name, val)
				}
				fd, uSet = int(n), true
				if r.uFdClosed(fd) {
					return fail(1, "%s: %d: invalid file descriptor: Bad file descriptor\n", name, fd)
				}
			case 'C':
				callback = val
			case 'c':
				if !isNum || n <= 0 || n > math.MaxUint32 {
					// bash: intval != (unsigned int)intval.
					return fail(1, "%s: %s: invalid callback quantum\n", name, val)
				}
				quantum = n
			}
			continue opts
		}
	}
	rest := args[i:]
	arrayName := "MAPFILE"
	if len(rest) > 0 {
		arrayName = rest[0]
	}
	if arrayName == "" {
		return fail(2, "%s: empty array variable name\n", name) // llmsh: bash's
	}
	if !syntax.ValidName(arrayName) {
		return fail(1, "%s: `%s': not a valid identifier\n", name, arrayName)
	}
	written := arrayName
	if t, idx := r.refTarget(arrayName, nil); idx == nil {
		arrayName = t // llmsh: the array a nameref names
	}
	if vr := r.lookupVar(arrayName); vr.Kind == expand.Associative {
		return fail(1, "%s: %s: not an indexed array\n", name, written)
	} else if vr.ReadOnly {
		r.errf("%s%s: readonly variable\n", r.errPrefix(), arrayName)
		r.reportPending = true // llmsh: set -e ends the shell
		exit.code = 1
		return exit
	}
	in, ok := r.inputFd(ctx, name, fd, uSet)
	if !ok {
		exit.code = 1
		return exit
	}
	defer in.close()
	undo := in.watch(ctx, time.Time{})
	defer undo()

	prev := r.lookupVar(arrayName)
	integer := prev.Integer // llmsh: each line evaluated
	if !hasOrig || !prev.IsSet() || prev.Kind == expand.String {
		// llmsh: -O keeps the array's elements, but makes the array
		// when it is not set, and a string its element 0, as bash's
		// find_or_make_array_variable (mapfile -O 2 a < /dev/null
		// leaves a=()).
		arr := expand.Variable{Set: true, Kind: expand.Indexed, List: []string{}, Integer: integer}
		// llmsh: and its case (declare -u u; mapfile u), as bash.
		arr.Lower, arr.Upper, arr.Capital = prev.Lower, prev.Upper, prev.Capital
		if hasOrig && prev.IsSet() {
			arr.List = []string{prev.Str}
		}
		keepAttrs(prev, &arr)
		r.setVar(arrayName, arr)
	}
	if r.noAssign(arrayName) {
		exit.code = 1 // llmsh: mapfile FUNCNAME fails, silently (bash)
		return exit
	}
	index := origin
	var lines int64
	for count == 0 || lines < count {
		var rec []byte
		var err error
		for {
			var c byte
			c, err = in.next()
			if err != nil {
				break
			}
			rec = append(rec, c)
			if c == delim {
				break
			}
			if len(rec) > r.llmsh.maxValue && r.llmsh.maxValue > 0 {
				// llmsh: a line past the value limit stops the run.
				r.expandErr(expand.ValueTooLargeError{Limit: r.llmsh.maxValue})
				return r.exit
			}
		}
		if len(rec) == 0 {
			break
		}
		if skip > 0 {
			skip--
			continue
		}
		if trim && rec[len(rec)-1] == delim {
			rec = rec[:len(rec)-1]
		}
		// A NUL ends the line, as in bash (whose strings end there):
		// mapfile -d '' kept it in the element.
		line := expand.CutNUL(string(rec))
		if callback != "" && (index-origin+1)%quantum == 0 {
			src := callback + " " + strconv.FormatInt(index, 10) + " " + quoteSingle(line)
			if file, err := r.parseText(src, ""); err == nil {
				// llmsh: bash evaluates the callback as eval does:
				// set -x marks it one level deeper ("++ cb 0 'a'"),
				// its messages name mapfile's line, and an error
				// that abandons its text leaves mapfile going on.
				// llmsh: each call on mapfile's line, as bash: the
				// text of the one before (a line with its newline)
				// does not move it.
				oldText, oldEnd := r.text, r.lineEnd
				r.setText(textPlace{lineOffset: r.evalLine() - 1, src: src})
				r.traceLevel++
				r.readLines(ctx, file.Stmts, false, r.evalSyntaxError)
				r.traceLevel--
				r.setText(oldText)
				r.lineEnd = oldEnd
				if r.exit.exiting {
					return r.exit
				}
			}
		}
		val := line
		if integer {
			var ok bool
			if val, ok = r.readInt(name, val); !ok {
				exit = r.exit
				return exit
			}
		}
		r.setVarWithIndex(r.lookupVar(arrayName), arrayName, litWord(strconv.FormatInt(index, 10)),
			expand.Variable{Set: true, Kind: expand.String, Str: val})
		index++
		lines++
		if err != nil {
			break
		}
	}
	return exit
}

// litWord is a word of one literal.
func litWord(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

// quoteSingle quotes s for the shell in single quotes.
func quoteSingle(s string) string {
	if strings.IndexByte(s, '\r') >= 0 {
		// llmsh: the parser reads \r\n as \n even in quotes; $'…'
		// keeps a line's carriage return (mapfile -C).
		if q, err := syntax.Quote(s, syntax.LangBash); err == nil && strings.HasPrefix(q, "$'") {
			return q
		}
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// readLine reads one line of the runner's stdin (for select).
func (r *Runner) readLine(ctx context.Context, raw bool) ([]byte, error) {
	if r.stdin == nil {
		return nil, errors.New("interp: can't read, there's no stdin")
	}
	in := &byteInput{f: r.stdin}
	if r.stdinSrc != nil {
		in = &byteInput{rd: r.stdinSrc}
	}
	undo := in.watch(ctx, time.Time{})
	defer undo()
	line, esc, err := readRecord(in.next, raw, '\n', -1, false)
	if n := len(line); n > 1 && line[n-1] == ctlEsc && esc[n-1] {
		line = line[:n-1] // as read's REPLY (readAssign)
	}
	return line, err
}
