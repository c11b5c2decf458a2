package builtins

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "wc", Summary: "print newline, word, and byte counts for each file", Run: wc})

// wcCounts are the counts of one input.
type wcCounts struct{ lines, words, chars, bytes, maxLen int64 }

// wcWhat says which counts are wanted.
type wcWhat struct{ lines, words, chars, bytes, maxLen bool }

func wc(env *Env) int {
	f := NewFlags(env, "Print newline, word, and byte counts for each FILE, and a total line if\nmore than one FILE is specified.  A word is a non-zero-length sequence of\nprintable characters delimited by white space.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION]... [FILE]...")
	var what wcWhat
	f.BoolVar(&what.bytes, 'c', "bytes", "print the byte counts")
	f.BoolVar(&what.chars, 'm', "chars", "print the character counts")
	f.BoolVar(&what.lines, 'l', "lines", "print the newline counts")
	f.BoolVar(&what.maxLen, 'L', "max-line-length", "print the maximum display width")
	f.BoolVar(&what.words, 'w', "words", "print the word counts")
	var files0 string
	var files0Set bool
	f.Func(0, "files0-from", RequiredArg, "F", "read input from the files specified by\n                            NUL-terminated names in file F;\n                            If F is - then read names from standard input", func(v string, _ bool) error {
		files0, files0Set = v, true
		return nil
	})
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if what == (wcWhat{}) {
		what = wcWhat{lines: true, words: true, bytes: true}
	}
	if files0Set {
		if len(files) > 0 {
			return f.Fail(&UsageError{fmt.Sprintf("extra operand %s\nfile operands cannot be combined with --files0-from", env.QuoteAF(files[0]))}, 1)
		}
		return wcFiles0(env, what, files0)
	}
	named := len(files) > 0
	if !named {
		files = []string{"-"}
	}
	return wcRun(env, what, files, named, wcWidth(env, what, files))
}

// wcWidth is the column width, as GNU computes it: the digits of the total
// size of the regular files (standard input included), at least 7 if any input is not a regular file,
// and 1 when a single input has a single count.
func wcWidth(env *Env, what wcWhat, files []string) int {
	nwhat := 0
	for _, b := range []bool{what.lines, what.words, what.chars, what.bytes, what.maxLen} {
		if b {
			nwhat++
		}
	}
	width := 1
	if !(len(files) == 1 && nwhat == 1) {
		minWidth := 1
		var total int64
		for _, name := range files {
			var fi fs.FileInfo
			var err error
			if abs := env.Abs(name); name == "-" && env.StdinClosed {
				continue // GNU's fstat fails
			} else if name == "-" || abs == "/dev/stdin" || abs == "/dev/fd/0" {
				// GNU fstats standard input (and stats /dev/stdin, its
				// link): a file redirected to it counts by its size
				// (llmsh's is a vfsd file).
				st, ok := env.Stdin.(interface{ Stat() (fs.FileInfo, error) })
				if ok {
					fi, err = st.Stat()
				}
				if !ok || err != nil {
					minWidth = 7 // a pipe or a terminal
					continue
				}
			} else {
				fi, err = env.FS.Stat(env.Abs(name))
			}
			if err != nil {
				continue
			}
			if fi.Mode().IsRegular() {
				total += fi.Size()
			} else {
				minWidth = 7
			}
		}
		for ; total >= 10; total /= 10 {
			width++
		}
		if width < minWidth {
			width = minWidth
		}
	}
	return width
}

// wcFiles0 is wc --files0-from=F: the inputs are the NUL-terminated names
// in F (the last terminator may be missing). As GNU, names read from
// standard input (or any F that is not a regular file) are counted as they
// come, in columns of width 1; the names of a regular F are read first,
// for the column width.
func wcFiles0(env *Env, what wcWhat, from string) int {
	r, fi, err := openOperand(env, from)
	if errors.Is(err, syscall.EISDIR) {
		env.Errorf("%s: read error: %s", env.QuoteF(from), ErrText(err))
		return 1
	}
	if err != nil {
		env.Errorf("cannot open %s for reading: %s", env.QuoteAF(from), ErrText(err))
		return 1
	}
	defer r.Close()
	br := bufio.NewReader(r)
	next := func() (string, bool, error) {
		name, err := br.ReadString(0)
		if err == io.EOF {
			return name, name != "", nil
		}
		if err != nil {
			return "", false, err
		}
		return name[:len(name)-1], true, nil
	}
	status := 0
	var names []string
	stream := fi == nil || !fi.Mode().IsRegular()
	width := 1
	if !stream {
		for {
			name, ok, err := next()
			if err != nil {
				env.Errorf("%s: read error: %s", env.QuoteF(from), ErrText(err))
				return 1
			}
			if !ok {
				break
			}
			names = append(names, name)
		}
		var valid []string
		for _, n := range names {
			if n != "" {
				valid = append(valid, n)
			}
		}
		if len(valid) > 0 {
			width = wcWidth(env, what, valid)
		}
	}
	c := newWcCounter(env, what, width, true)
	count := 0
	for i := 0; ; i++ {
		var name string
		if stream {
			n, ok, err := next()
			if err != nil {
				env.Errorf("%s: read error: %s", env.QuoteF(from), ErrText(err))
				status = 1
				break
			}
			if !ok {
				break
			}
			name = n
		} else {
			if i == len(names) {
				break
			}
			name = names[i]
		}
		count++
		switch {
		case name == "":
			c.w.Flush()
			env.Errorf("%s:%d: invalid zero-length file name", env.QuoteF(from), i+1)
			status = 1
			continue
		case name == "-" && from == "-":
			c.w.Flush()
			env.Errorf("when reading file names from stdin, no file name of %s allowed", env.QuoteAF("-"))
			status = 1
			continue
		}
		if stop, st := c.one(name); stop {
			return st
		} else if st != 0 {
			status = 1
		}
	}
	return c.finish(count > 1, status)
}

// wcRun counts each of files and prints their counts, and a total if
// there are several.
func wcRun(env *Env, what wcWhat, files []string, named bool, width int) int {
	c := newWcCounter(env, what, width, named)
	status := 0
	for _, name := range files {
		if name == "" {
			env.Errorf("invalid zero-length file name")
			status = 1
			continue
		}
		if stop, st := c.one(name); stop {
			return st
		} else if st != 0 {
			status = 1
		}
	}
	return c.finish(len(files) > 1, status)
}

// wcCounter counts inputs one by one and keeps their total.
type wcCounter struct {
	env   *Env
	what  wcWhat
	width int
	named bool
	w     *bufio.Writer
	buf   []byte
	line  []byte
	tot   wcCounts
}

func newWcCounter(env *Env, what wcWhat, width int, named bool) *wcCounter {
	return &wcCounter{env: env, what: what, width: width, named: named,
		w: stdoutWriter(env), buf: make([]byte, ioBufSize+utf8.UTFMax)}
}

// print writes one line of counts.
func (k *wcCounter) print(c wcCounts, name string, withName bool) error {
	line := k.line[:0]
	what := k.what
	for _, v := range []struct {
		on bool
		n  int64
	}{{what.lines, c.lines}, {what.words, c.words}, {what.chars, c.chars}, {what.bytes, c.bytes}, {what.maxLen, c.maxLen}} {
		if !v.on {
			continue
		}
		if len(line) > 0 {
			line = append(line, ' ')
		}
		var num [20]byte
		d := strconv.AppendInt(num[:0], v.n, 10)
		for pad := k.width - len(d); pad > 0; pad-- {
			line = append(line, ' ')
		}
		line = append(line, d...)
	}
	if withName {
		line = append(line, ' ')
		if strings.IndexByte(name, '\n') >= 0 {
			// GNU's wc 9.1 quotes a name only when it holds a newline.
			name = k.env.QuoteF(name)
		}
		line = append(line, name...)
	}
	line = append(line, '\n')
	k.line = line
	_, err := k.w.Write(line)
	return err
}

// one counts the input name and prints its line. It returns stop and the
// exit status when wc must end now (cancelled, output failed), else the
// status of this input (1 when it could not be read).
func (k *wcCounter) one(name string) (stop bool, status int) {
	env := k.env
	w := k.w
	if env.Ctx.Err() != nil {
		w.Flush()
		return true, 1
	}
	r, fi, err := openOperand(env, name)
	if err != nil {
		w.Flush()
		env.PathError(name, err)
		if !errors.Is(err, syscall.EISDIR) {
			return false, 1
		}
		// GNU opens a directory, fails to read it and prints its zero
		// counts all the same.
		if err := k.print(wcCounts{}, name, k.named); err != nil {
			return true, outputFailed(env, err, wroteFlushed, "", 1)
		}
		return false, 1
	}
	var c wcCounts
	what := k.what
	switch {
	case fi != nil && fi.IsDir():
		err = errReadDir
	case fi != nil && fi.Mode().IsRegular() && fi.Size() > 0 && what == (wcWhat{bytes: true}):
		c.bytes = fi.Size()
	default:
		c, err = wcCount(env, r, what, k.buf)
	}
	r.Close()
	if err != nil {
		if readFailed(env, name, err) {
			w.Flush()
			return true, 1
		}
		w.Flush()
		status = 1
	}
	k.tot.lines += c.lines
	k.tot.words += c.words
	k.tot.chars += c.chars
	k.tot.bytes += c.bytes
	k.tot.maxLen = max(k.tot.maxLen, c.maxLen)
	if err := k.print(c, name, k.named); err != nil {
		return true, outputFailed(env, err, wroteFlushed, "", 1)
	}
	if name == "-" && env.StdinClosed {
		// GNU closes the standard input it read: a closed one (<&-)
		// fails again.
		w.Flush()
		env.Errorf("-: %s", gnu.Strerror(syscall.EBADF))
		status = 1
	}
	return false, status
}

// finish prints the total line if wanted and flushes the output.
func (k *wcCounter) finish(total bool, status int) int {
	if total {
		if err := k.print(k.tot, "total", true); err != nil {
			return outputFailed(k.env, err, wroteFlushed, "", 1)
		}
	}
	return finishOutputAs(k.env, k.w, status, wroteFlushed) // GNU wc flushes as it goes
}

// wcLineCounter is the io.Writer that wc -l and wc -c hand to a reader
// with WriteTo: it counts bytes and, if lines, newlines, and stops the
// copy with gnu.ErrCancelled once ctx is done.
type wcLineCounter struct {
	ctx     context.Context
	lines   bool
	n, size int64
}

func (c *wcLineCounter) Write(p []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, gnu.ErrCancelled
	}
	c.size += int64(len(p))
	if c.lines {
		c.n += int64(bytes.Count(p, []byte{'\n'}))
	}
	return len(p), nil
}

// Byte classes for the counting loop.
const (
	wcWord    = iota // printable, not a space: starts or continues a word
	wcNewline        // '\n'
	wcCR             // '\r' and '\f': back to column 0
	wcTab
	wcSpace
	wcVT    // '\v': separates words, no width
	wcCtl   // other control bytes: no effect
	wcMulti // 0x80 and above: decode a UTF-8 sequence
)

var wcClass = func() (t [256]uint8) {
	for i := range t {
		switch {
		case i == '\n':
			t[i] = wcNewline
		case i == '\r' || i == '\f':
			t[i] = wcCR
		case i == '\t':
			t[i] = wcTab
		case i == ' ':
			t[i] = wcSpace
		case i == '\v':
			t[i] = wcVT
		case i < 0x20 || i == 0x7f:
			t[i] = wcCtl
		case i >= 0x80:
			t[i] = wcMulti
		default:
			t[i] = wcWord
		}
	}
	return t
}()

// wcCountBytes is wcCount when only bytes and lines are counted.
func wcCountBytes(env *Env, r io.Reader, what wcWhat, buf []byte) (wcCounts, error) {
	var c wcCounts
	if wt, ok := r.(io.WriterTo); ok {
		// The reader's own buffers, counted as they come: no copy
		// into buf (a vfsd file hands over its read_bulk answers).
		lc := &wcLineCounter{ctx: env.Ctx, lines: what.lines}
		_, err := wt.WriteTo(lc)
		return wcCounts{lines: lc.n, bytes: lc.size}, err
	}
	for {
		if env.Ctx.Err() != nil {
			return c, gnu.ErrCancelled
		}
		n, err := r.Read(buf[:ioBufSize])
		c.bytes += int64(n)
		if what.lines {
			c.lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
		}
		if err == io.EOF {
			return c, nil
		}
		if err != nil {
			return c, err
		}
	}
}

// wcCount counts r as GNU wc does in a UTF-8 locale (in the C locale, a
// byte is a character): a character is a
// valid UTF-8 sequence (invalid bytes count as bytes only), a word is a
// run of printable non-space characters, and -L measures display width
// with tabs to multiples of 8.
func wcCount(env *Env, r io.Reader, what wcWhat, buf []byte) (wcCounts, error) {
	var c wcCounts
	if !what.words && !what.chars && !what.maxLen {
		return wcCountBytes(env, r, what, buf)
	}
	var lines, words, chars, linePos, maxLen int64
	inWord := false
	carry := 0
	// In the C locale each byte is a character, and one of 0x80 or
	// more is neither printable nor a space (GNU's isprint, isspace).
	cBytes := byteLocale(env)
	for {
		if env.Ctx.Err() != nil {
			return c, gnu.ErrCancelled
		}
		n, err := r.Read(buf[carry:ioBufSize])
		c.bytes += int64(n)
		p := buf[:carry+n]
		eof := err == io.EOF
		carry = 0
		for i := 0; i < len(p); i++ {
			switch wcClass[p[i]] {
			case wcWord:
				chars++
				linePos++
				inWord = true
			case wcNewline:
				chars++
				lines++
				maxLen = max(maxLen, linePos)
				linePos = 0
				if inWord {
					words++
					inWord = false
				}
			case wcSpace:
				chars++
				linePos++
				if inWord {
					words++
					inWord = false
				}
			case wcTab:
				chars++
				linePos += 8 - linePos%8
				if inWord {
					words++
					inWord = false
				}
			case wcCR:
				chars++
				maxLen = max(maxLen, linePos)
				linePos = 0
				if inWord {
					words++
					inWord = false
				}
			case wcVT:
				chars++
				if inWord {
					words++
					inWord = false
				}
			case wcCtl:
				chars++
			case wcMulti:
				if cBytes {
					chars++
					continue
				}
				if !eof && !utf8.FullRune(p[i:]) {
					carry = copy(buf, p[i:])
					i = len(p)
					break
				}
				ru, size := utf8.DecodeRune(p[i:])
				if ru == utf8.RuneError && size == 1 {
					continue // an invalid byte: counted as a byte only
				}
				i += size - 1
				chars++
				if !wcPrintable(ru) {
					continue
				}
				linePos += int64(runeWidth(ru))
				if wcSpaceRune(ru) {
					if inWord {
						words++
						inWord = false
					}
				} else {
					inWord = true
				}
			}
		}
		if eof {
			break
		}
		if err != nil {
			return c, err
		}
	}
	maxLen = max(maxLen, linePos)
	if inWord {
		words++
	}
	c.lines, c.words, c.chars, c.maxLen = lines, words, chars, maxLen
	return c, nil
}

// wcPrintable is glibc's iswprint for a non-ASCII character: anything
// assigned but controls, surrogates and the line and paragraph separators.
func wcPrintable(r rune) bool {
	if r < 0xa0 || r == 0x2028 || r == 0x2029 {
		return false
	}
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs, unicode.Co, unicode.Cf)
}

// wcSpaceRune is glibc's iswspace for a non-ASCII character, plus the
// non-breaking spaces that GNU wc also takes as word separators.
func wcSpaceRune(r rune) bool {
	switch {
	case r == 0x1680, r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x205f, r == 0x3000,
		r == 0xa0, r == 0x202f, r == 0x2060:
		return true
	}
	return false
}
