package builtins

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"
)

func init() {
	Register(Builtin{Name: "wc", Summary: "print newline, word, and byte counts for each file", Run: wc})
}

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
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if what == (wcWhat{}) {
		what = wcWhat{lines: true, words: true, bytes: true}
	}
	named := len(files) > 0
	if !named {
		files = []string{"-"}
	}
	nwhat := 0
	for _, b := range []bool{what.lines, what.words, what.chars, what.bytes, what.maxLen} {
		if b {
			nwhat++
		}
	}
	// Column width, as GNU computes it: the digits of the total size of
	// the regular files, at least 7 if any input is not a regular file,
	// and 1 when a single input has a single count.
	width := 1
	if !(len(files) == 1 && nwhat == 1) {
		minWidth := 1
		var total int64
		for _, name := range files {
			if name == "-" {
				minWidth = 7
				continue
			}
			fi, err := env.FS.Stat(env.Abs(name))
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

	w := laWriter(env)
	status := 0
	var tot wcCounts
	buf := make([]byte, laBufSize+utf8.UTFMax)
	line := make([]byte, 0, 64)
	print := func(c wcCounts, name string, withName bool) error {
		line = line[:0]
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
			for pad := width - len(d); pad > 0; pad-- {
				line = append(line, ' ')
			}
			line = append(line, d...)
		}
		if withName {
			line = append(line, ' ')
			line = append(line, name...)
		}
		line = append(line, '\n')
		_, err := w.Write(line)
		return err
	}
	for _, name := range files {
		if env.Ctx.Err() != nil {
			w.Flush()
			return 1
		}
		r, fi, err := laOpen(env, name)
		if err != nil {
			w.Flush()
			env.PathError(name, err)
			status = 1
			continue
		}
		var c wcCounts
		switch {
		case fi != nil && fi.IsDir():
			err = errLaIsDir
		case fi != nil && fi.Mode().IsRegular() && fi.Size() > 0 && what == (wcWhat{bytes: true}):
			c.bytes = fi.Size()
		default:
			c, err = wcCount(env, r, what, buf)
		}
		r.Close()
		if err != nil {
			if laReadError(env, name, err) {
				w.Flush()
				return 1
			}
			w.Flush()
			status = 1
		}
		tot.lines += c.lines
		tot.words += c.words
		tot.chars += c.chars
		tot.bytes += c.bytes
		tot.maxLen = max(tot.maxLen, c.maxLen)
		if err := print(c, name, named); err != nil {
			return laWriteFailed(env, err)
		}
	}
	if len(files) > 1 {
		if err := print(tot, "total", true); err != nil {
			return laWriteFailed(env, err)
		}
	}
	return laFinish(env, w, status)
}

// wcLineCounter is the io.Writer that wc -l and wc -c hand to a reader
// with WriteTo: it counts bytes and, if lines, newlines, and stops the
// copy with errLaCancelled once ctx is done.
type wcLineCounter struct {
	ctx     context.Context
	lines   bool
	n, size int64
}

func (c *wcLineCounter) Write(p []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, errLaCancelled
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

// wcCount counts r as GNU wc does in a UTF-8 locale: a character is a
// valid UTF-8 sequence (invalid bytes count as bytes only), a word is a
// run of printable non-space characters, and -L measures display width
// with tabs to multiples of 8.
func wcCount(env *Env, r io.Reader, what wcWhat, buf []byte) (wcCounts, error) {
	var c wcCounts
	if !what.words && !what.chars && !what.maxLen {
		if wt, ok := r.(io.WriterTo); ok {
			// The reader's own buffers, counted as they come: no copy
			// into buf (a vfsd file hands over its read_bulk answers).
			lc := &wcLineCounter{ctx: env.Ctx, lines: what.lines}
			_, err := wt.WriteTo(lc)
			return wcCounts{lines: lc.n, bytes: lc.size}, err
		}
		for {
			if env.Ctx.Err() != nil {
				return c, errLaCancelled
			}
			n, err := r.Read(buf[:laBufSize])
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
	var lines, words, chars, linePos, maxLen int64
	inWord := false
	carry := 0
	for {
		if env.Ctx.Err() != nil {
			return c, errLaCancelled
		}
		n, err := r.Read(buf[carry:laBufSize])
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
				linePos += int64(laRuneWidth(ru))
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
