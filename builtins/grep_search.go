package builtins

import (
	"bytes"
	"io"
	"io/fs"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// grepBufSize is the initial read buffer; it grows only to hold a line
// longer than itself (plus -B context).
const grepBufSize = 256 << 10

// grepFile is the state of the search of one input.
type grepFile struct {
	g          *grepRun
	name       string
	showName   bool
	base       int64 // input offset of buf[0]
	lineno     int64 // number of the line at the scan position (counted with -n)
	lastOut    int64 // input offset just after the last line output, -1: none
	count      int64 // selected lines
	afterLeft  int
	done       bool
	maxed      bool  // -m reached: trailing context only
	read       int64 // bytes read from the input
	maxEnd     int64 // -m reached: the input offset just past the last selected line
	binary     bool
	binMatched bool
	num        []byte
	width      int // -T: minimum width of line numbers and byte offsets
}

// search runs the matcher over one input and prints what grep prints for
// it.
func (g *grepRun) search(name string, r io.Reader, showName bool) {
	if g.inputIsOutput(name, r) {
		g.fail(name, errInputIsOutput)
		return
	}
	s := &grepFile{g: g, name: name, showName: showName, lastOut: -1, lineno: 1}
	o := g.o
	if o.initialTab {
		s.width = grepOffsetWidth(r, o.lineNum)
	}
	if g.buf == nil {
		g.buf = make([]byte, grepBufSize)
	}
	buf := g.buf
	eol := g.eol
	n, pos := 0, 0
	eof := false
	for !s.done && !g.stop {
		if g.env.Ctx.Err() != nil {
			g.stop, g.cancelled = true, true
			return
		}
		if n == len(buf) {
			keep := s.keepFrom(buf, pos)
			if keep > 0 {
				copy(buf, buf[keep:n])
				n -= keep
				pos -= keep
				s.base += int64(keep)
			} else {
				if m := g.env.MaxLine; m > 0 && n > m {
					// A line (with its -B context) past the bound on
					// one value stops the run (Env.gatherLine).
					if err := g.env.lineTooLong(); err != gnu.ErrCancelled {
						g.fail(name, err)
					}
					g.stop, g.cancelled = true, true
					return
				}
				nb := make([]byte, 2*len(buf))
				copy(nb, buf[:n])
				buf = nb
				g.buf = nb
			}
		}
		k, err := r.Read(buf[n:])
		s.read += int64(k)
		if k > 0 {
			if !s.binary && o.binMode != "text" && !o.nullData && bytes.IndexByte(buf[n:n+k], 0) >= 0 {
				s.binary = true
				if o.binMode == "without-match" {
					s.done = true
					break
				}
			}
			if s.binary && o.binMode == "binary" {
				// GNU grep zaps the NULs of a binary file into line
				// ends: -c and -v count NUL-separated records, and no
				// match spans a NUL.
				grepZapNULs(buf[n:n+k], eol)
			}
			n += k
		}
		if err == io.EOF {
			eof = true
		} else if err != nil && g.env.Ctx.Err() != nil {
			// The run ended while grep waited for input (a coprocess
			// hung up at the script's end): no message.
			g.stop, g.cancelled = true, true
			return
		} else if err != nil {
			// GNU reports a read error (a directory on standard input),
			// then ends the file as at its end: -c's count, -L's name.
			g.fail(name, err)
			s.finish()
			return
		}
		end := n
		if !eof {
			i := bytes.LastIndexByte(buf[pos:n], eol)
			if i < 0 {
				continue
			}
			end = pos + i + 1
		} else if n > pos && buf[n-1] != eol {
			if n == len(buf) {
				nb := make([]byte, len(buf)+1)
				copy(nb, buf[:n])
				buf = nb
			}
			buf[n] = eol
			n++
			end = n
		}
		pos = s.region(buf, pos, end)
		if o.lineBuffered {
			// GNU flushes each line: a coprocess's reader gets it.
			g.w.Flush()
		}
		if _, err := g.w.Write(nil); err != nil {
			g.werr, g.stop = err, true
			return
		}
		if eof {
			break
		}
	}
	if s.maxed {
		unread(r, s.read-s.maxEnd) // GNU: just past the last selected line
	}
	s.finish()
}

// keepFrom returns where the bytes worth keeping start when the buffer is
// compacted: the lines that -B may still print.
func (s *grepFile) keepFrom(buf []byte, pos int) int {
	b := s.g.o.before
	j := pos
	for k := 0; k < b && j > 0; k++ {
		j = bytes.LastIndexByte(buf[:j-1], s.g.eol) + 1
	}
	if lo := s.lastOut - s.base; lo > int64(j) && lo <= int64(pos) {
		j = int(lo)
	}
	return j
}

// region handles the complete lines of buf[pos:end] and returns end.
func (s *grepFile) region(buf []byte, pos, end int) int {
	o, m, eol := s.g.o, s.g.m, s.g.eol
	for pos < end && !s.done {
		if s.maxed {
			if s.afterLeft == 0 {
				s.done = true
				break
			}
			le := bytes.IndexByte(buf[pos:end], eol) + pos
			s.context(buf, pos, le)
			pos = le + 1
			continue
		}
		ms, me, err := m.next(buf, pos, end)
		if err != nil {
			s.matchErr(err)
			return end
		}
		if !o.invert {
			if ms < 0 {
				s.skip(buf, pos, end)
				return end
			}
			s.skip(buf, pos, ms)
			s.selected(buf, ms, me)
			pos = me + 1
			s.lineno++
			continue
		}
		stop := ms
		if ms < 0 {
			stop = end
		}
		for pos < stop && !s.done && !s.maxed {
			le := bytes.IndexByte(buf[pos:stop], eol) + pos
			s.selected(buf, pos, le)
			pos = le + 1
			s.lineno++
		}
		if s.done || s.maxed || ms < 0 {
			continue
		}
		s.skip(buf, ms, me+1)
		pos = me + 1
	}
	return end
}

func (s *grepFile) matchErr(err error) {
	if s.g.env.Ctx.Err() != nil {
		// A search the run's stop ended (grepMatcher.ctx): no message.
		s.done = true
		return
	}
	s.g.w.Flush()
	s.g.env.Errorf("%s: %s", s.name, err)
	s.g.o.hadError = true
	s.done = true
}

// skip passes over the unselected lines of buf[from:to], printing those
// that are trailing context.
func (s *grepFile) skip(buf []byte, from, to int) {
	for from < to && s.afterLeft > 0 {
		le := bytes.IndexByte(buf[from:to], s.g.eol) + from
		s.context(buf, from, le)
		from = le + 1
	}
	if from < to && s.g.o.lineNum {
		s.lineno += int64(bytes.Count(buf[from:to], []byte{s.g.eol}))
	}
}

// context prints an unselected line as trailing context and moves past it.
func (s *grepFile) context(buf []byte, ls, le int) {
	s.afterLeft--
	s.emit(buf, ls, le, '-', s.lineno)
	s.lineno++
}

// selected handles a selected line.
func (s *grepFile) selected(buf []byte, ls, le int) {
	o := s.g.o
	o.anySelected = true
	s.count++
	switch {
	case o.quiet:
		s.g.stop, s.done = true, true
		return
	case o.listMatch || o.listNon:
		s.done = true
		return
	case o.count:
		if o.maxCount > 0 && s.count >= o.maxCount {
			s.done = true
		}
		return
	case s.binary && o.binMode == "binary":
		s.binMatched, s.done = true, true
		return
	}
	if o.before > 0 {
		low := 0
		if lo := s.lastOut - s.base; lo > 0 && lo <= int64(ls) {
			low = int(lo)
		}
		start, k := ls, 0
		for k < o.before && start > low {
			start = bytes.LastIndexByte(buf[low:start-1], s.g.eol) + 1 + low
			k++
		}
		for p := start; p < ls; k-- {
			e := bytes.IndexByte(buf[p:ls], s.g.eol) + p
			s.emit(buf, p, e, '-', s.lineno-int64(k))
			p = e + 1
		}
	}
	s.emit(buf, ls, le, ':', s.lineno)
	s.afterLeft = o.after
	if o.maxCount > 0 && s.count >= o.maxCount {
		s.maxed = true
		s.maxEnd = min(s.base+int64(le)+1, s.read)
	}
}

// emit prints one line (sep ':' selected, '-' context) with its prefix.
func (s *grepFile) emit(buf []byte, ls, le int, sep byte, lineno int64) {
	g, o, w := s.g, s.g.o, s.g.w
	abs := s.base + int64(ls)
	if o.ctxGiven && !o.noGroupSep && o.anyOut && abs != s.lastOut {
		if o.color {
			o.col.put(w, o.col.se, []byte(o.groupSep))
		} else {
			w.WriteString(o.groupSep)
		}
		w.WriteByte('\n')
	}
	o.anyOut = true
	s.lastOut = s.base + int64(le) + 1
	line := buf[ls:le]
	if o.only {
		if sep != ':' || o.invert {
			return
		}
		err := g.m.eachMatch(line, func(ms, me int) {
			if s.encodingError(line[ms:me]) {
				return
			}
			s.prefix(':', lineno, abs+int64(ms), me-ms)
			if o.color {
				o.col.put(w, o.col.ms, line[ms:me])
			} else {
				w.Write(line[ms:me])
			}
			w.WriteByte(g.eol)
		})
		if err != nil {
			s.matchErr(err)
		}
		return
	}
	if s.encodingError(line) {
		return
	}
	s.prefix(sep, lineno, abs, len(line))
	if o.color {
		s.colorLine(line, sep)
	} else {
		w.Write(line)
	}
	w.WriteByte(g.eol)
}

// colorLine writes a line (no eol) of an output with --color, as grep's
// print_line does: the matches of a line that matches in the match
// colour (ms on selected lines, mc on context lines), the rest in the
// line colour (sl or cx, swapped for -v by rv), which ends before a
// '\r' that ends the line.
func (s *grepFile) colorLine(line []byte, sep byte) {
	g, o, w := s.g, s.g.o, s.g.w
	col := o.col
	lineCol, matchCol := col.cx, col.mc
	if (sep == ':') != (o.invert && col.rv) {
		lineCol = col.sl
	}
	if sep == ':' {
		matchCol = col.ms
	}
	p := 0
	if (sep == ':') != o.invert && matchCol != "" {
		err := g.m.eachMatch(line, func(ms, me int) {
			col.begin(w, lineCol)
			w.Write(line[p:ms])
			col.put(w, matchCol, line[ms:me])
			p = me
		})
		if err != nil {
			s.matchErr(err)
		}
	}
	end := len(line)
	if end > p && line[end-1] == '\r' {
		end--
	}
	if lineCol != "" && end > p {
		col.put(w, lineCol, line[p:end])
		p = end
	}
	w.Write(line[p:])
}

// encodingError reports whether b, about to be output, is not UTF-8
// where that makes it binary (grepRun.encErr); it then notes the
// binary-file notice.
func (s *grepFile) encodingError(b []byte) bool {
	if !s.g.encErr || utf8.Valid(b) {
		return false
	}
	if s.g.o.binMode == "binary" {
		s.binMatched = true
	}
	return true
}

func (s *grepFile) sep(c byte) {
	w := s.g.w
	if s.g.o.color {
		s.g.o.col.put(w, s.g.o.col.se, []byte{c})
	} else {
		w.WriteByte(c)
	}
}

func (s *grepFile) writeName() {
	w := s.g.w
	if s.g.o.color {
		s.g.o.col.put(w, s.g.o.col.fn, []byte(s.name))
	} else {
		w.WriteString(s.name)
	}
}

func (s *grepFile) number(n int64, cap string) {
	w := s.g.w
	s.num = s.num[:0]
	for d := grepDigits(n); d < s.width; d++ {
		s.num = append(s.num, ' ')
	}
	s.num = strconv.AppendInt(s.num, n, 10)
	if s.g.o.color {
		s.g.o.col.put(w, cap, s.num)
	} else {
		w.Write(s.num)
	}
}

// prefix prints the file name, line number and byte offset that come
// before an output line of n bytes, as asked for, and -T's tab.
func (s *grepFile) prefix(sep byte, lineno, off int64, n int) {
	o := s.g.o
	var lnCol, bnCol string
	if o.col != nil {
		lnCol, bnCol = o.col.ln, o.col.bn
	}
	if s.showName {
		s.writeName()
		if o.null {
			s.g.w.WriteByte(0)
		} else {
			s.sep(sep)
		}
	}
	if o.lineNum {
		s.number(lineno, lnCol)
		s.sep(sep)
	}
	if o.byteOff {
		s.number(off, bnCol)
		s.sep(sep)
	}
	if o.initialTab && (s.showName || o.lineNum || o.byteOff) && n != 0 {
		s.g.w.WriteByte('\t')
	}
}

// grepOffsetWidth is GNU grep's width for -T's numbers: the digits of the
// input's size (plus one with -n) when it is a regular file, of the
// largest int64 otherwise.
func grepOffsetWidth(r io.Reader, lineNum bool) int {
	if n, ok := r.(nopReadCloser); ok {
		r = n.Reader
	}
	num := int64(math.MaxInt64)
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			num = fi.Size()
			if lineNum {
				num++
			}
		}
	}
	return grepDigits(num)
}

// grepDigits is the number of decimal digits of n >= 0.
func grepDigits(n int64) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

// finish prints what grep prints after an input: the count, the name for
// -l/-L, the binary-file notice.
func (s *grepFile) finish() {
	o, w := s.g.o, s.g.w
	switch {
	case o.quiet:
	case o.listMatch || o.listNon:
		if (s.count > 0) == o.listMatch {
			s.writeName()
			if o.null {
				w.WriteByte(0)
			} else {
				w.WriteByte('\n')
			}
		}
	case o.count:
		if s.showName {
			s.writeName()
			if o.null {
				w.WriteByte(0)
			} else {
				s.sep(':')
			}
		}
		s.num = strconv.AppendInt(s.num[:0], s.count, 10)
		w.Write(s.num)
		w.WriteByte('\n')
	}
	if s.binMatched {
		if err := w.Flush(); err != nil {
			return
		}
		io.WriteString(s.g.env.Stderr, "grep: "+s.name+": binary file matches\n")
	}
}

// grepZapNULs turns every NUL of p into eol.
func grepZapNULs(p []byte, eol byte) {
	for i := bytes.IndexByte(p, 0); i >= 0; i = bytes.IndexByte(p, 0) {
		p[i] = eol
		p = p[i+1:]
	}
}
