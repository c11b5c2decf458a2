package builtins

import (
	"fmt"
	"strconv"
)

// The edit-script and merged formats of diff: -e (ed), -n (RCS), -D NAME
// (ifdef) and -y (side by side), after GNU diffutils' ed.c, ifdef.c and
// side.c in the C locale.

// ed prints an ed script: the changes last to first, each "Rd", "Ra" or
// "Rc" with the new lines ended by ".". A new line that is a lone "." is
// written as ".." and fixed by "s/.//" (GNU's trick).
func (p *diffPrinter) ed(script []diffChange) {
	w := p.d.out
	for k := len(script) - 1; k >= 0; k-- {
		c := script[k]
		if c.ignore {
			continue
		}
		if p.d.env.Ctx.Err() != nil {
			return
		}
		op := "c"
		switch {
		case c.inserted == 0:
			op = "d"
		case c.deleted == 0:
			op = "a"
		}
		w.WriteString(rangeNormal(c.line0, c.line0+c.deleted) + op + "\n")
		if c.inserted == 0 {
			continue
		}
		insert := true
		for i := c.line1; i < c.line1+c.inserted; i++ {
			if !insert {
				w.WriteString("a\n")
				insert = true
			}
			line := p.f[1].lines[i]
			if len(line) == 1 && line[0] == '.' {
				w.WriteString("..\n.\ns/.//\n")
				insert = false
				continue
			}
			w.Write(line)
			w.WriteByte('\n')
		}
		if insert {
			w.WriteString(".\n")
		}
	}
}

// rcs prints an RCS script: "dL N" deletes N lines from line L, "aL N"
// adds the N lines that follow after line L of the old file. An
// incomplete last line is written without its newline.
func (p *diffPrinter) rcs(script []diffChange) {
	w := p.d.out
	for _, c := range script {
		if c.ignore {
			continue
		}
		if p.d.env.Ctx.Err() != nil {
			return
		}
		if c.deleted > 0 {
			fmt.Fprintf(w, "d%d %d\n", c.line0+1, c.deleted)
		}
		if c.inserted > 0 {
			fmt.Fprintf(w, "a%d %d\n", c.line0+c.deleted, c.inserted)
			f := p.f[1]
			for i := c.line1; i < c.line1+c.inserted; i++ {
				w.Write(f.lines[i])
				if i < len(f.lines)-1 || !f.missingNewline {
					w.WriteByte('\n')
				}
			}
		}
	}
}

// sideBySide prints the two files in two columns (-y): common lines
// with no mark (or "(" with --left-column), "|" for changed pairs, "<"
// and ">" for lines of one file only.
func (p *diffPrinter) sideBySide(script []diffChange) {
	d := p.d
	t := 8
	if d.expandTabs {
		t = 1
	}
	off := (d.width + t + 3) / (2 * t) * t
	half := max(0, min(off-3, d.width-off))
	col2 := d.width
	if half > 0 {
		col2 = off
	}
	s := &sdiff{p: p, half: half, col2: col2}
	next0, next1 := 0, 0
	common := func(limit0, limit1 int) {
		i0, i1 := next0, next1
		if !d.suppressCommon {
			for ; i0 < limit0 && i1 < limit1; i0, i1 = i0+1, i1+1 {
				if d.leftColumn {
					s.line(i0, '(', -1)
				} else {
					s.line(i0, ' ', i1)
				}
			}
			for ; i1 < limit1; i1++ {
				s.line(-1, ')', i1)
			}
			for ; i0 < limit0; i0++ {
				s.line(i0, '(', -1)
			}
		}
		next0, next1 = limit0, limit1
	}
	for _, c := range script {
		if c.ignore {
			continue
		}
		if d.env.Ctx.Err() != nil {
			return
		}
		common(c.line0, c.line1)
		i, j := c.line0, c.line1
		for ; i < c.line0+c.deleted && j < c.line1+c.inserted; i, j = i+1, j+1 {
			s.line(i, '|', j)
		}
		for ; j < c.line1+c.inserted; j++ {
			s.line(-1, '>', j)
		}
		for ; i < c.line0+c.deleted; i++ {
			s.line(i, '<', -1)
		}
		next0, next1 = i, j
	}
	common(len(p.f[0].lines), len(p.f[1].lines))
}

// sdiff writes the lines of a side-by-side diff.
type sdiff struct {
	p          *diffPrinter
	half, col2 int // column width and where the right column starts
}

// hasNewline reports whether line i of file f ends with a newline.
func (s *sdiff) hasNewline(f, i int) bool {
	file := s.p.f[f]
	return i < len(file.lines)-1 || !file.missingNewline
}

// line prints line l of the old file (-1: none), the separator sep and
// line r of the new file (-1: none), as GNU's print_1sdiff_line.
func (s *sdiff) line(l int, sep byte, r int) {
	w := s.p.d.out
	col := 0
	newline := false
	if l >= 0 {
		newline = s.hasNewline(0, l)
		col = s.half1(s.p.f[0].lines[l], 0, s.half)
	}
	if sep != ' ' {
		col = s.tabTo(col, (s.half+s.col2-1)/2) + 1
		if sep == '|' && newline != s.hasNewline(1, r) {
			if newline {
				sep = '/'
			} else {
				sep = '\\'
			}
		}
		w.WriteByte(sep)
	}
	if r >= 0 {
		newline = newline || s.hasNewline(1, r)
		if text := s.p.f[1].lines[r]; len(text) > 0 {
			col = s.tabTo(col, s.col2)
			s.half1(text, col, s.half)
		}
	}
	if newline {
		w.WriteByte('\n')
	}
}

// tabTo pads from column from to column to with tabs (unless -t) and
// spaces, and returns to.
func (s *sdiff) tabTo(from, to int) int {
	w := s.p.d.out
	if !s.p.d.expandTabs {
		for tab := from + 8 - from%8; tab <= to; tab += 8 {
			w.WriteByte('\t')
			from = tab
		}
	}
	for ; from < to; from++ {
		w.WriteByte(' ')
	}
	return to
}

// half1 prints as much of text as fits in bound columns (GNU's
// print_half_line, C locale) and returns the output column reached.
func (s *sdiff) half1(text []byte, indent, bound int) int {
	w := s.p.d.out
	in, out := 0, 0
	for _, c := range text {
		switch {
		case c == '\t':
			spaces := 8 - in%8
			if in == out {
				stop := out + spaces
				if s.p.d.expandTabs {
					stop = min(stop, bound)
					for ; out < stop; out++ {
						w.WriteByte(' ')
					}
				} else if stop < bound {
					out = stop
					w.WriteByte(c)
				}
			}
			in += spaces
		case c == '\r':
			w.WriteByte(c)
			s.tabTo(0, indent)
			in, out = 0, 0
		case c == '\b':
			if in != 0 {
				in--
				if in < bound {
					if out <= in {
						for ; out < in; out++ {
							w.WriteByte(' ')
						}
					} else {
						out = in
						w.WriteByte(c)
					}
				}
			}
		case c >= 0x20 && c < 0x7f:
			if in < bound {
				out = in + 1
				w.WriteByte(c)
			}
			in++
		default: // other control and non-ASCII bytes: zero width
			if in < bound {
				w.WriteByte(c)
			}
		}
	}
	return out
}

// parseDiffWidth checks a -W value.
func parseDiffWidth(v string) (int, bool) {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}
