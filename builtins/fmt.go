package builtins

import (
	"bufio"
	"errors"
	"io"
	"math"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "fmt", Summary: "simple optimal text formatter", Run: fmtCmd})

// The line-breaking costs of GNU fmt 9.1: squared departures from the
// goal width, times 100, with bonuses for breaks at sentence ends, after
// punctuation and before parentheses.
const (
	fmtMaxWords = 1000 // words held before a long paragraph is flushed
	fmtMaxChars = 5000 // characters held likewise
	fmtTab      = 8
)

func fmtEquiv(n int64) int64    { return n * n }
func fmtShortCost(n int) int64  { return fmtEquiv(int64(n) * 10) }
func fmtRaggedCost(n int) int64 { return fmtShortCost(n) / 2 }
func fmtWidowCost(n int) int64  { return fmtEquiv(200) / int64(n+2) }
func fmtOrphanCost(n int) int64 { return fmtEquiv(150) / int64(n+2) }
func fmtIsOpen(c byte) bool     { return strings.IndexByte("(['`\"", c) >= 0 }
func fmtIsClose(c byte) bool    { return strings.IndexByte(")]'\"", c) >= 0 }
func fmtIsPeriod(c byte) bool   { return strings.IndexByte(".?!", c) >= 0 }
func fmtIsPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !(c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z')
}
func fmtIsSpace(c int) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// fmtWord is one word of the paragraph being filled.
type fmtWord struct {
	start, length, space        int // text at buf[start:start+length], space after
	paren, period, punct, final bool
	lineLen                     int   // length of the best line starting here
	best                        int64 // cost of the best paragraph from here
	next                        int   // the word the best line breaks before
}

// fmtState is one fmt call: options, the input being read, and the
// paragraph held.
type fmtState struct {
	crown, tagged, split, uniform                 bool
	prefix                                        string // trimmed of spaces
	prefixLead, prefixFull                        int    // leading spaces; length with trailing ones
	maxWidth, goal                                int
	in                                            *bufio.Reader
	readErr                                       error // the input's read failed (not its end)
	w                                             *bufio.Writer
	inCol, outCol, nextPrefixIndent, prefixIndent int
	firstIndent, otherIndent, lastLineLen         int
	tabs                                          bool
	buf                                           []byte
	words                                         []fmtWord
}

func fmtCmd(env *Env) int {
	f := NewFlags(env, "Reformat each paragraph in the FILE(s), writing to standard output.\nThe option -WIDTH is an abbreviated form of --width=DIGITS.", "[-WIDTH] [OPTION]... [FILE]...")
	s := &fmtState{maxWidth: 75}
	f.BoolVar(&s.crown, 'c', "crown-margin", "preserve indentation of first two lines")
	prefix, _ := f.String('p', "prefix", "STRING", "reformat only lines beginning with STRING,\n                              reattaching the prefix to reformatted lines")
	f.BoolVar(&s.split, 's', "split-only", "split long lines, but do not refill")
	f.BoolVar(&s.tagged, 't', "tagged-paragraph", "indentation of first line different from second")
	f.BoolVar(&s.uniform, 'u', "uniform-spacing", "one space between words, two after sentences")
	width, widthSet := f.String('w', "width", "WIDTH", "maximum line width (default of 75 columns)")
	goal, goalSet := f.String('g', "goal", "WIDTH", "goal width (default of 93% of width)")
	for d := '0'; d <= '9'; d++ {
		d := d
		f.Func(d, "", NoArg, "", "", func(string, bool) error {
			return &UsageError{"invalid option -- " + string(d) + "; -WIDTH is recognized only when it is the first\noption; use -w N instead"}
		})
	}
	version := versionOption(f)
	f.Epilog = "With no FILE, or when FILE is -, read standard input."
	args := env.Args[1:]
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0][1] >= '0' && args[0][1] <= '9' {
		*width, *widthSet = args[0][1:], true
		args = args[1:]
	}
	files, err := f.Parse(args)
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	parseWidth := func(v string, limit int) (int, bool) {
		n, e := gnu.ParseSize(v, 10, "")
		if e != gnu.SizeOK || n > uint64(limit) {
			msg := "invalid width: " + env.Quote(v)
			if e&^gnu.SizeOverflow == 0 {
				msg += ": Numerical result out of range"
			}
			env.Errorf("%s", msg)
			return 0, false
		}
		return int(n), true
	}
	if *widthSet {
		n, ok := parseWidth(*width, fmtMaxChars/2)
		if !ok {
			return 1
		}
		s.maxWidth = n
	}
	if *goalSet {
		n, ok := parseWidth(*goal, s.maxWidth)
		if !ok {
			return 1
		}
		s.goal = n
		if !*widthSet {
			s.maxWidth = n + 10
		}
	} else {
		s.goal = s.maxWidth * (2*(100-7) + 1) / 200
	}
	p := *prefix
	for strings.HasPrefix(p, " ") {
		s.prefixLead++
		p = p[1:]
	}
	s.prefixFull = len(p)
	s.prefix = strings.TrimRight(p, " ")

	s.w = stdoutWriter(env)
	cannotOpen := func(name string, err error) {
		if errors.Is(err, syscall.EISDIR) {
			// GNU opens a directory; reading it fails, and fmt says only
			// that (errno is gone by then).
			env.Errorf("read error")
			return
		}
		env.Errorf("cannot open %s for reading: %s", env.QuoteAF(name), ErrText(err))
	}
	readFailed := func(string, error) { env.Errorf("read error") } // GNU says no more
	words := fileWords{openFailed: cannotOpen, readFailed: readFailed, closedIn: "closing standard input"}
	done := env.eachFile(s.w, files, words, func(_ string, r io.Reader) error {
		s.in, s.readErr = bufio.NewReaderSize(&ctxReader{env, r}, ioBufSize), nil
		s.file()
		if _, err := s.w.Write(nil); err != nil {
			return gnu.WriteError{Err: err}
		}
		if env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		return s.readErr
	})
	return done.finish(env, s.w)
}

// ctxReader stops reading once the call is cancelled.
type ctxReader struct {
	env *Env
	r   interface{ Read([]byte) (int, error) }
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if c.env.Ctx.Err() != nil {
		return 0, gnu.ErrCancelled
	}
	return c.r.Read(p)
}

// getc returns the next byte of the input, or -1 at its end.
func (s *fmtState) getc() int {
	c, err := s.in.ReadByte()
	if err != nil {
		if err != io.EOF && s.readErr == nil {
			s.readErr = err
		}
		return -1
	}
	return int(c)
}

func (s *fmtState) file() {
	s.tabs, s.otherIndent = false, 0
	c := s.readPrefix()
	for {
		var ok bool
		if c, ok = s.paragraph(c); !ok {
			return
		}
		s.fill()
		s.putParagraph(len(s.words) - 1)
	}
}

// blanks reads spaces and tabs from c on, counting columns.
func (s *fmtState) blanks(c int) int {
	for {
		switch c {
		case ' ':
			s.inCol++
		case '\t':
			s.tabs = true
			s.inCol = (s.inCol/fmtTab + 1) * fmtTab
		default:
			return c
		}
		c = s.getc()
	}
}

// readPrefix reads a line's indentation and prefix; it returns the first
// character that does not match the prefix, or the first one after it
// and its following blanks.
func (s *fmtState) readPrefix() int {
	s.inCol = 0
	c := s.blanks(s.getc())
	if s.prefix == "" {
		s.nextPrefixIndent = min(s.prefixLead, s.inCol)
		return c
	}
	s.nextPrefixIndent = s.inCol
	for i := 0; i < len(s.prefix); i++ {
		if c != int(s.prefix[i]) {
			return c
		}
		s.inCol++
		c = s.getc()
	}
	return s.blanks(c)
}

// sameParagraph reports whether the line whose first character after the
// prefix is c continues the paragraph.
func (s *fmtState) sameParagraph(c int) bool {
	return s.nextPrefixIndent == s.prefixIndent && s.inCol >= s.nextPrefixIndent+s.prefixFull && c != '\n' && c != -1
}

func (s *fmtState) setOtherIndent(same bool) {
	switch {
	case s.split:
		s.otherIndent = s.firstIndent
	case s.crown:
		s.otherIndent = s.firstIndent
		if same {
			s.otherIndent = s.inCol
		}
	case s.tagged:
		if same && s.inCol != s.firstIndent {
			s.otherIndent = s.inCol
		} else if s.otherIndent == s.firstIndent {
			s.otherIndent = 0
			if s.firstIndent == 0 {
				s.otherIndent = 3
			}
		}
	default:
		s.otherIndent = s.firstIndent
	}
}

// paragraph copies blank lines and lines without the prefix, then reads
// one paragraph into s.words (with a sentinel word at the end). It
// returns the character that follows, and false at the end of input.
func (s *fmtState) paragraph(c int) (int, bool) {
	s.lastLineLen = 0
	for c == '\n' || c == -1 || s.nextPrefixIndent < s.prefixLead || s.inCol < s.nextPrefixIndent+s.prefixFull {
		if c = s.copyRest(c); c == -1 {
			return c, false
		}
		s.w.WriteByte('\n')
		c = s.readPrefix()
	}
	s.prefixIndent = s.nextPrefixIndent
	s.firstIndent = s.inCol
	s.buf = s.buf[:0]
	s.words = s.words[:0]
	c = s.line(c)
	s.setOtherIndent(s.sameParagraph(c))
	switch {
	case s.split:
	case s.crown, s.tagged:
		if s.sameParagraph(c) && (s.crown || s.inCol != s.firstIndent) {
			for {
				c = s.line(c)
				if !s.sameParagraph(c) || s.inCol != s.otherIndent {
					break
				}
			}
		}
	default:
		for s.sameParagraph(c) && s.inCol == s.otherIndent {
			c = s.line(c)
		}
	}
	last := &s.words[len(s.words)-1]
	last.period, last.final = true, true
	s.words = append(s.words, fmtWord{start: len(s.buf)}) // the sentinel
	return c, true
}

// copyRest copies a line that is not formatted (no prefix, or blank after
// it) and returns the \n or end of input that ends it.
func (s *fmtState) copyRest(c int) int {
	s.outCol = 0
	if s.inCol > s.nextPrefixIndent || c != '\n' && c != -1 {
		s.putSpace(s.nextPrefixIndent)
		for i := 0; s.outCol != s.inCol && i < len(s.prefix); i++ {
			s.w.WriteByte(s.prefix[i])
			s.outCol++
		}
		if c != -1 && c != '\n' {
			s.putSpace(s.inCol - s.outCol)
		}
		if c == -1 && s.inCol >= s.nextPrefixIndent+len(s.prefix) {
			s.w.WriteByte('\n')
		}
	}
	for c != '\n' && c != -1 {
		s.w.WriteByte(byte(c))
		c = s.getc()
	}
	return c
}

// line reads the words of one line, c its first character, and returns
// the first character of the next line after its prefix.
func (s *fmtState) line(c int) int {
	for {
		w := fmtWord{start: len(s.buf)}
		for {
			if len(s.buf) == fmtMaxChars {
				s.setOtherIndent(true)
				if shift := s.flush(false); len(s.buf) == 0 {
					w.start = 0 // the word in progress was written out
				} else {
					w.start -= shift
				}
			}
			s.buf = append(s.buf, byte(c))
			c = s.getc()
			if c == -1 || fmtIsSpace(c) {
				break
			}
		}
		w.length = len(s.buf) - w.start
		s.inCol += w.length
		text := s.buf[w.start:]
		w.paren = fmtIsOpen(text[0])
		w.punct = fmtIsPunct(text[len(text)-1])
		end := len(text) - 1
		for end > 0 && fmtIsClose(text[end]) {
			end--
		}
		w.period = fmtIsPeriod(text[end])
		start := s.inCol
		c = s.blanks(c)
		w.space = s.inCol - start
		w.final = c == -1 || w.period && (c == '\n' || w.space > 1)
		if c == '\n' || c == -1 || s.uniform {
			w.space = 1
			if w.final {
				w.space = 2
			}
		}
		s.words = append(s.words, w)
		if len(s.words) == fmtMaxWords-1 {
			s.setOtherIndent(true)
			s.flush(true)
		}
		if c == '\n' || c == -1 {
			break
		}
	}
	return s.readPrefix()
}

// flush writes out most of a paragraph too long to hold, breaking at a
// cheap place near its end, and keeps the rest as the paragraph's start.
// With lastIsEnd the last word held stands for the end of the paragraph
// (GNU's word limit); otherwise the end follows the words held. It
// returns how far the text held moved down.
func (s *fmtState) flush(lastIsEnd bool) int {
	if len(s.words) == 0 || lastIsEnd && len(s.words) == 1 {
		s.w.Write(s.buf)
		s.buf = s.buf[:0]
		return 0
	}
	if !lastIsEnd {
		s.words = append(s.words, fmtWord{start: len(s.buf)})
	}
	s.fill()
	limit := len(s.words) - 1
	split := limit
	best := int64(math.MaxInt64)
	const credit = 9 // a credit of 3 columns for breaking one line later
	for i := s.words[0].next; i != limit; i = s.words[i].next {
		if d := s.words[i].best - s.words[s.words[i].next].best; d < best {
			split, best = i, d
		}
		if best <= math.MaxInt64-credit {
			best += credit
		}
	}
	s.putParagraph(split)
	shift := s.words[split].start
	s.buf = append(s.buf[:0], s.buf[shift:]...)
	end := limit
	if lastIsEnd {
		end++
	}
	kept := append([]fmtWord(nil), s.words[split:end]...)
	for i := range kept {
		kept[i].start -= shift
	}
	s.words = kept
	return shift
}

// fill finds the cheapest breaks of s.words (the last one a sentinel).
func (s *fmtState) fill() {
	ws := s.words
	limit := len(ws) - 1
	ws[limit].best = 0
	saved := ws[limit].length
	ws[limit].length = s.maxWidth
	for start := limit - 1; start >= 0; start-- {
		best := int64(math.MaxInt64)
		n := s.otherIndent
		if start == 0 {
			n = s.firstIndent
		}
		n += ws[start].length
		for w := start + 1; ; w++ {
			cost := s.lineCost(w, n) + ws[w].best
			if start == 0 && s.lastLineLen > 0 {
				cost += fmtRaggedCost(n - s.lastLineLen)
			}
			if cost < best {
				best = cost
				ws[start].next, ws[start].lineLen = w, n
			}
			if w == limit {
				break
			}
			n += ws[w-1].space + ws[w].length
			if n >= s.maxWidth {
				break
			}
		}
		ws[start].best = best + s.baseCost(start)
	}
	ws[limit].length = saved
}

// baseCost is the cost of breaking before word i that does not depend
// on the line's length.
func (s *fmtState) baseCost(i int) int64 {
	ws := s.words
	cost := fmtEquiv(70)
	if i > 0 {
		switch prev := ws[i-1]; {
		case prev.period && prev.final:
			cost -= fmtEquiv(50)
		case prev.period:
			cost += fmtEquiv(600)
		case prev.punct:
			cost -= fmtEquiv(40)
		case i > 1 && ws[i-2].final:
			cost += fmtWidowCost(prev.length)
		}
	}
	if ws[i].paren {
		cost -= fmtEquiv(40)
	} else if ws[i].final {
		cost += fmtOrphanCost(ws[i].length)
	}
	return cost
}

// lineCost is the cost of a line of length n that ends before word next.
func (s *fmtState) lineCost(next, n int) int64 {
	limit := len(s.words) - 1
	if next == limit {
		return 0
	}
	cost := fmtShortCost(s.goal - n)
	if s.words[next].next != limit {
		cost += fmtRaggedCost(n - s.words[next].lineLen)
	}
	return cost
}

// putParagraph writes the lines of the paragraph up to word finish.
func (s *fmtState) putParagraph(finish int) {
	s.putLine(0, s.firstIndent)
	for i := s.words[0].next; i != finish; i = s.words[i].next {
		s.putLine(i, s.otherIndent)
	}
}

func (s *fmtState) putLine(i, indent int) {
	s.outCol = 0
	s.putSpace(s.prefixIndent)
	s.w.WriteString(s.prefix)
	s.outCol += len(s.prefix)
	s.putSpace(indent - s.outCol)
	end := s.words[i].next - 1
	for ; i <= end; i++ {
		w := s.words[i]
		s.w.Write(s.buf[w.start : w.start+w.length])
		s.outCol += w.length
		if i < end {
			s.putSpace(w.space)
		}
	}
	s.lastLineLen = s.outCol
	s.w.WriteByte('\n')
}

// putSpace writes n columns of blank, with tabs when the input had them.
func (s *fmtState) putSpace(n int) {
	target := s.outCol + n
	if s.tabs {
		tabTarget := target / fmtTab * fmtTab
		if s.outCol+1 < tabTarget {
			for s.outCol < tabTarget {
				s.w.WriteByte('\t')
				s.outCol = (s.outCol/fmtTab + 1) * fmtTab
			}
		}
	}
	for s.outCol < target {
		s.w.WriteByte(' ')
		s.outCol++
	}
}
