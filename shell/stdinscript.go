package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"strings"
	"time"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// RunInput runs the script that in holds as bash runs a script it reads
// on its standard input: a complete command (its whole lines) at a time,
// each read just before it runs, so that what the commands read from the
// same input are the script's next lines (`read x` reads the line after
// its own, `cat` the rest of the script), and a syntax error ends the
// script only once the commands before it have run. bash reads an input
// it cannot seek a byte at a time, and seeks one it can back to the end
// of the lines it has taken; so does RunInput. name is as Run's.
func (s *Shell) RunInput(ctx context.Context, in io.Reader, name string) int {
	if in == nil {
		in = strings.NewReader("")
	}
	src := &scriptInput{runner: s.runner, max: s.opts.Limits.MaxScriptSize}
	lr := src.reader(in)
	src.orig, src.origIn = lr, s.runner.Stdin()
	src.cur = src.origIn
	defer src.close()
	defer lr.stopOn(ctx)()
	// The script's jobs live from one command to the next (RunFile's
	// own context ends with each): they start from jobCtx, which the
	// script's end hangs up.
	jobCtx, endJobs := context.WithCancel(ctx)
	defer endJobs()
	outerHold, outerInput := s.holdEnd, s.inputRun
	s.holdEnd, s.inputRun = true, true
	s.runner.HoldExitTrap(true)
	s.runner.SetJobContext(jobCtx)
	defer func() {
		s.holdEnd, s.inputRun = outerHold, outerInput
		s.runner.HoldExitTrap(false)
		//lint:ignore SA1012 nil is SetJobContext's "none": a Run's own context again
		s.runner.SetJobContext(nil)
		s.lineOffset = 0
	}()
	if !s.isNested {
		s.endedRun = false
	}
	c := &chunker{lr: lr, max: s.opts.Limits.MaxScriptSize, limits: s.opts.Limits, name: name, incomplete: func(text string) (bool, bool) {
		inc, expanded := s.runner.AliasIncomplete(ctx, text)
		if expanded {
			inc = s.InputIncomplete(ctx, text)
		}
		return inc, expanded
	}}
	defer c.close()
	// bash sets the offset of a file it reads back to the end of the
	// lines it has run only before it forks and for reads of its
	// descriptor 0 (lineReader.sync); the commands called are those of
	// this goroutine's runner.
	oldSync := s.runner.SetInputSync(func() { c.lr.sync() })
	defer func() { s.runner.SetInputSync(oldSync) }()
	status, ran, ended := 0, false, false
	line := 0 // the lines of the script before chunk
	for !ended {
		var chunk string
		var file *syntax.File
		chunk, file, ended = c.chunk()
		if err := c.err; err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, errTooLong) {
			if ctx.Err() == nil {
				// bash's words and status (`bash 0</`: "bash: error
				// reading input file: Is a directory", 2); llmsh said
				// "llmsh: llmsh: reading the script: …", 1.
				fmt.Fprintf(s.opts.Stderr, "%s: error reading input file: %s\n", name, builtins.ErrText(err))
				status = 2
			}
			chunk, file = "", nil
		}
		if !blankText(chunk) {
			s.lineOffset, s.syntaxEnded = line, false
			if file != nil {
				status, _ = s.runFilePart(ctx, file, chunk, name)
			} else {
				status, _ = s.runPart(ctx, chunk, chunk, name)
			}
			ran = true
			ended = ended || s.syntaxEnded || len(chunk) > s.opts.Limits.MaxScriptSize || !s.running(ctx)
			if src.follow(c, s.runner.Stdin()) && !s.syntaxEnded && s.running(ctx) {
				ended = c.err != nil
			}
		}
		line += strings.Count(chunk, "\n")
	}
	s.exited = ran && s.runner.Exited()
	if s.running(ctx) {
		// The script read to its end (or to a syntax error): the EXIT
		// trap runs now, once (an exit ran it already).
		status = s.runner.RunExitTrap(ctx, status)
	}
	if !outerHold && !s.isNested && !s.endedRun {
		s.endScript(endJobs)
	}
	return status
}

// scriptInput is where a script read on stdin is read from: as bash reads
// its script from its descriptor 0 whatever that is, the lines after an
// `exec 0<FILE` come from FILE, none after `exec 0<&-` or `exec
// </dev/null`, and the first input's again after `exec 0<&3` of a copy
// of it.
type scriptInput struct {
	runner *interp.Runner
	orig   *lineReader // the script's own input's
	origIn io.Reader   // the shell's stdin as the script started
	cur    io.Reader   // the shell's stdin the chunker reads now
	more   []*lineReader
	max    int
}

// reader returns a lineReader of in. When in is a pipe and the shell's
// stdin, the lineReader's look-ahead (a scriptPipe) becomes the shell's
// stdin until the script ends, for its commands to read on from the
// lines it took.
func (si *scriptInput) reader(in io.Reader) *lineReader {
	lr := newLineReader(in, si.max, sameReader(in, si.runner.Stdin()))
	if lr.pipe != nil {
		if err := si.runner.SetStdin(lr.pipe); err != nil {
			lr.close()
			lr.pipe = nil // read a byte at a time
		} else {
			si.cur = lr.pipe
		}
	}
	return lr
}

// follow points c at in, the shell's stdin after a command, when that
// command made it another (exec); it reports whether it did so.
func (si *scriptInput) follow(c *chunker, in io.Reader) bool {
	if sameReader(in, si.cur) {
		return false
	}
	si.cur = in
	switch {
	case in == nil:
		// Closed: the script has ended.
		c.lr, c.err = newLineReader(strings.NewReader(""), si.max, false), io.EOF
		return true
	case sameReader(in, si.origIn):
		c.lr = si.orig
	default:
		c.lr = si.reader(in)
		si.more = append(si.more, c.lr)
	}
	c.close() // a new parser reads the new input
	c.err = nil
	return true
}

// close releases the line readers: the bytes that a pipe's look-ahead
// gave are taken out of the pipe, and the shell's stdin that is such a
// look-ahead is the pipe again.
func (si *scriptInput) close() {
	for _, lr := range append(si.more, si.orig) {
		if lr.pipe != nil {
			lr.pipe.release()
			if sameReader(si.runner.Stdin(), lr.pipe) {
				si.runner.SetStdin(lr.r)
			}
		}
		lr.close()
	}
}

// sameReader reports whether a and b are the same reader (readers of a
// type that cannot be compared are not).
func sameReader(a, b io.Reader) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// errTooLong ends a command's text longer than the script size limit
// (which runPart then refuses).
var errTooLong = errors.New("script too long")

// chunker cuts a script read a line at a time into the whole lines of
// each complete command, as bash's parser takes them. A command of one
// line (the most common) is parsed once, with the blank lines and
// comments before it: the parse says that it is whole, and its result
// is what runs. A command that the parse finds unfinished is read on by
// a parser in interactive mode, which reads its lines (Read) again and
// says when the statements read are complete, before it asks for another
// line; the command's text is then parsed again to run it.
type chunker struct {
	lr      *lineReader
	max     int
	limits  Limits
	name    string          // the script's name, for the parse
	lp      *syntax.Parser  // lineChunk's
	pending strings.Builder // the lines read since the last chunk
	rest    string          // of the last line, what the parser has not read yet
	replay  string          // the lines read before the parser started, for it to read
	err     error           // the input's end, or a read error
	// incomplete reports whether text ends inside a command once the
	// aliases defined are expanded in it, and whether any were.
	incomplete func(text string) (inc, expanded bool)
	p          *syntax.Parser
	next       func() ([]*syntax.Stmt, error, bool)
	stop       func()
}

// Read gives the parser the next line.
func (c *chunker) Read(b []byte) (int, error) {
	if c.rest == "" && c.replay != "" {
		// A line at a time, so that the parser holds no more than the
		// lines of the command it completes.
		i := strings.IndexByte(c.replay, '\n') + 1
		if i == 0 {
			i = len(c.replay)
		}
		c.rest, c.replay = c.replay[:i], c.replay[i:]
	}
	if c.rest == "" {
		if c.err != nil {
			return 0, c.err
		}
		if c.pending.Len() > c.max {
			c.err = errTooLong
			return 0, c.err
		}
		c.rest, c.err = c.lr.line()
		c.pending.WriteString(c.rest)
		if c.rest == "" {
			return 0, c.err
		}
	}
	n := copy(b, c.rest)
	c.rest = c.rest[n:]
	return n, nil
}

// chunk returns the next command's lines (with the blank lines and
// comments before it; a syntax error's lines as one), the command parsed
// when that parse is the one to run (nil: the caller parses the text),
// and whether the input has ended with it.
func (c *chunker) chunk() (text string, file *syntax.File, end bool) {
	defer c.pending.Reset()
	if c.next == nil && c.replay == "" {
		var whole bool
		if text, file, end, whole = c.lineChunk(); whole {
			return text, file, end
		}
		c.replay = c.pending.String() // the parser below reads them again
	}
	text, end = c.parsedChunk()
	if c.rest == "" && c.replay == "" {
		c.close() // the parser has read no further: the next command starts afresh
	}
	return text, nil, end
}

// lineChunk reads the blank lines and comments before a command and the
// command's first line, and parses them. whole is false when the command
// goes on past that line (or a final backslash may join the next one):
// the lines read are then pending for the interactive parser.
func (c *chunker) lineChunk() (text string, file *syntax.File, end, whole bool) {
	for {
		if c.pending.Len() > c.max {
			c.err = errTooLong
			return c.pending.String(), nil, true, true
		}
		var l string
		l, c.err = c.lr.line()
		c.pending.WriteString(l)
		if c.err != nil {
			// The input's end: what is pending is the last chunk.
			return c.pending.String(), nil, true, true
		}
		if !blankText(l) {
			break
		}
	}
	text = c.pending.String()
	if precheck(text, c.limits) != nil {
		return text, nil, false, true // the caller refuses it
	}
	if c.lp == nil {
		c.lp = syntax.NewParser()
	}
	f, err := c.lp.Parse(strings.NewReader(text), c.name)
	switch {
	case err != nil && syntax.IsIncomplete(err), err == nil && len(f.UnclosedHdocs) > 0, strings.HasSuffix(text, "\\\n"):
		return "", nil, false, false
	case err != nil:
		return text, nil, false, true // the caller says it as bash
	}
	if text, expanded := c.aliasReadOn(text); expanded {
		return text, nil, c.err != nil, true
	}
	return text, f, false, true
}

// parsedChunk is chunk's text and end for a command that the interactive
// parser reads.
func (c *chunker) parsedChunk() (text string, end bool) {
	for {
		if c.next == nil {
			c.p = syntax.NewParser()
			c.next, c.stop = iter.Pull2(c.p.InteractiveSeq(c))
		}
		stmts, err, ok := c.next()
		text = c.pending.String()
		switch {
		case !ok:
			c.close()
			return text, true
		case err != nil:
			// runPart says it as bash; a new parser reads what follows
			// (after an error that bash reads on after).
			c.close()
			return text, c.err != nil
		case c.p.Incomplete(), len(stmts) == 0:
			// (A here-document's body; blank lines and comments go
			// with the command after them, which set -v shows them
			// before.)
			continue
		}
		text, _ = c.aliasReadOn(text)
		return text, c.err != nil
	}
}

// aliasReadOn reads on the lines of a command that an alias makes longer
// than the parser sees (text is its lines so far), and returns them all;
// expanded is false when no alias applies to text.
func (c *chunker) aliasReadOn(text string) (string, bool) {
	inc, expanded := c.incomplete(text)
	if !expanded {
		return text, false
	}
	// A new parser goes on after the lines read here.
	c.close()
	for inc && c.err == nil {
		var l string
		l, c.err = c.lr.line()
		c.pending.WriteString(l)
		text = c.pending.String()
		inc, _ = c.incomplete(text)
		inc = inc && len(text) <= c.max
	}
	return text, true
}

// close ends the parser (the next chunk starts a new one).
func (c *chunker) close() {
	if c.stop != nil {
		c.stop()
	}
	c.next, c.stop, c.rest = nil, nil, ""
}

// lineReader reads a script a line at a time as bash reads it: from a
// pipe without taking more of its input than the lines it returns,
// through a scriptPipe's look-ahead that the commands read too; from a
// file it can seek, a block at a time, the offset set back to the end of
// the lines taken only when bash's would be (sync); from anything else,
// a byte at a time.
type lineReader struct {
	r    io.Reader
	file seekFile    // r, when it is a file that can seek
	pipe *scriptPipe // r's look-ahead, when it is a pipe
	max  int         // a line is cut past max bytes (the caller refuses it)
	buf  []byte

	// A file's block, as bash's buffered input: block is its size (the
	// file's, at most 8 KiB), held what is read and not returned yet.
	block int
	held  []byte
	hold  []byte // held's array
}

// newLineReader returns a lineReader of r; withPipe says that when r is a
// pipe it is read through a scriptPipe, which the caller makes the
// shell's stdin.
func newLineReader(r io.Reader, limit int, withPipe bool) *lineReader {
	lr := &lineReader{r: r, max: limit}
	if sf, ok := r.(seekFile); ok {
		if _, err := sf.Seek(0, io.SeekCurrent); err == nil {
			// (A redirection's file of vfsd, for a nested shell, too.)
			lr.file, lr.block = sf, bashBlock
			if fi, err := sf.Stat(); err == nil {
				// bash's fd_to_buffered_stream: the file's size, at
				// most the most, at least 1.
				lr.block = max(int(min(fi.Size(), bashBlock)), 1)
			}
			return lr
		}
	}
	f, ok := r.(*os.File)
	if !ok {
		return lr
	}
	if fi, err := f.Stat(); withPipe && err == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
		lr.pipe = newScriptPipe(f)
	}
	return lr
}

// close releases the look-ahead's pipe.
func (lr *lineReader) close() {
	if lr.pipe != nil {
		lr.pipe.close()
	}
}

// stopOn makes a read that waits for input return when ctx ends (a time
// limit), for an input that has deadlines (a pipe); the function it
// returns undoes it.
func (lr *lineReader) stopOn(ctx context.Context) func() {
	f, ok := lr.r.(*os.File)
	if !ok || f.SetReadDeadline(time.Time{}) != nil {
		return func() {}
	}
	stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Unix(1, 0)) })
	return func() {
		if !stop() {
			f.SetReadDeadline(time.Time{})
		}
	}
}

// line returns the next line, with its newline; the error is io.EOF at
// the end of the input (the line is then what was left, maybe "").
func (lr *lineReader) line() (string, error) {
	switch {
	case lr.file != nil:
		return lr.seekLine()
	case lr.pipe != nil:
		return lr.pipe.line(lr.max)
	}
	var b []byte
	var one [1]byte
	for len(b) <= lr.max {
		n, err := lr.r.Read(one[:])
		if n == 1 {
			b = append(b, one[0])
			if one[0] == '\n' {
				return string(b), nil
			}
			continue
		}
		if err != nil {
			return string(b), err
		}
	}
	return string(b), nil
}

// seekFile is a file that may seek: an *os.File, or a file of vfsd that a
// redirection opened.
type seekFile interface {
	io.ReadSeeker
	Stat() (fs.FileInfo, error)
}

// bashBlock is the most bash reads of its script from a file at once
// (input.c's MAX_INPUT_BUFFER_SIZE); a smaller file is read whole.
const bashBlock = 8192

// seekLine is line for a file that can seek: a line of the block held,
// the next block read from the file's offset (where bash's buffer and
// the commands left it) when it holds no more whole line.
func (lr *lineReader) seekLine() (string, error) {
	if lr.buf == nil {
		lr.buf = make([]byte, lr.block)
	}
	for {
		if i := bytes.IndexByte(lr.held, '\n'); i >= 0 {
			l := string(lr.held[:i+1])
			lr.held = lr.held[i+1:]
			return l, nil
		}
		if len(lr.held) > lr.max {
			l := string(lr.held)
			lr.held = lr.held[:0]
			return l, nil
		}
		n, err := lr.file.Read(lr.buf)
		// (What is held moves to the front of its array: append
		// copies as memmove.)
		lr.held = append(append(lr.hold[:0], lr.held...), lr.buf[:n]...)
		lr.hold = lr.held[:0]
		if n == 0 || err != nil {
			if err == nil {
				err = io.EOF
			}
			l := string(lr.held)
			lr.held = lr.held[:0]
			return l, err
		}
	}
}

// sync sets a file's offset back to the end of the lines returned (and
// forgets the block), as bash's sync_buffered_stream before a process it
// forks, a read of descriptor 0 or a redirection of it: those read the
// script's next lines, mapfile and `read -u N` after the block.
func (lr *lineReader) sync() {
	if lr.file == nil || len(lr.held) == 0 {
		return
	}
	if _, err := lr.file.Seek(-int64(len(lr.held)), io.SeekCurrent); err == nil {
		lr.held = lr.held[:0]
	}
}
