package builtins

import (
	"bufio"
	"strings"
	"unicode/utf8"
)

// The table output of column -t, laid out as util-linux's libsmartcols
// does for column: every column as wide as its widest cell (and its
// header), then, when the table is wider than the output width (-c,
// COLUMNS, else 80), the columns marked -E (by default the last one)
// ignore their extreme cells, and the columns marked -T or -W give up a
// cell of width each in turn until the table fits or they are as narrow
// as their header. A -T cell is cut to its column's width, a -W cell
// goes on in the same column on the lines below; any other cell wider
// than its column is printed whole, and the next column starts on a new
// line under its place.

// countWidth sets c's width from its cells, as libsmartcols'
// count_column_width: the first time it also decides whether c has
// extreme cells (wider than twice the average), which a second count
// leaves out.
func (ctl *columnCtl) countWidth(c *columnCol) {
	noHeader := !c.named
	c.width = 0
	if c.widthMin == 0 {
		if c.named {
			// The header counts even under -d, as in util-linux.
			c.widthMin = columnWidth(c.name)
		}
		if c.widthMin == 0 {
			c.widthMin = 1
		}
	}
	sum, count := 0, 0
	for _, n := range ctl.rowOrder {
		l := columnWidth(ctl.cell(n, c))
		c.widthMax = max(c.widthMax, l)
		if c.extreme && c.widthAvg > 0 && l > 2*c.widthAvg {
			continue
		}
		if c.noextreme {
			sum += l
			count++
		}
		c.width = max(c.width, l)
	}
	if count > 0 && c.widthAvg == 0 {
		c.widthAvg = sum / count
		if c.widthAvg > 0 && c.widthMax > 2*c.widthAvg {
			c.extreme = true
		}
	}
	c.width = max(c.width, c.widthMin)
	if c.widthMax == 0 && noHeader && c.widthMin == 1 && c.width <= 1 {
		c.width, c.widthMin = 0, 0
	}
}

// layout gives each visible column its width (libsmartcols'
// __scols_calculate, for a table forced to the output width).
func (ctl *columnCtl) layout(vis []*columnCol) {
	tw := ctl.termwidth
	sep := columnWidth(ctl.outSep)
	width, extremes := 0, 0
	for k, c := range vis {
		ctl.countWidth(c)
		width += c.width
		if k < len(vis)-1 {
			width += sep
		}
		if c.extreme {
			extremes++
		}
	}
	if width > tw && extremes > 0 {
		for _, c := range vis {
			if !c.extreme {
				continue
			}
			org := c.width
			ctl.countWidth(c)
			if org > c.width {
				width -= org - c.width
			} else {
				extremes--
			}
		}
	}
	if width < tw {
		if extremes > 0 {
			// The first extreme column takes back what is left.
			for _, c := range vis {
				if !c.extreme {
					continue
				}
				add := tw - width
				if add > 0 && c.width+add > c.widthMax {
					add = c.widthMax - c.width
				}
				c.width += add
				width += add
				if width == tw {
					break
				}
			}
		}
		if last := ctl.cols[len(ctl.cols)-1]; width < tw && !last.right {
			last.width += tw - width
			width = tw
		}
	}
	// Column gives no relative width hints, so of libsmartcols' three
	// stages only the second does anything: every -T and -W column in
	// turn gives up one cell until the table fits.
	for width > tw {
		org := width
		for _, c := range vis {
			if width <= tw {
				break
			}
			if c.width == c.widthMin || c.width == 0 || !(c.trunc || c.wrap) {
				continue
			}
			c.width--
			width--
		}
		if org == width {
			break
		}
	}
}

// columnCut splits s after the most characters that fit in width
// display cells.
func columnCut(s string, width int) (head, tail string) {
	w := 0
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		n := columnWidth(s[i : i+size])
		if w+n > width {
			return s[:i], s[i:]
		}
		w += n
		i += size
	}
	return s, ""
}

func (ctl *columnCtl) printTable(w *bufio.Writer) {
	var vis []*columnCol
	for _, c := range ctl.cols {
		if !c.hidden {
			vis = append(vis, c)
		}
	}
	ctl.layout(vis)
	rest := make([]string, len(vis))
	row := func(cell func(c *columnCol) string) {
		for k, c := range vis {
			rest[k] = cell(c)
		}
		// The lines below a wrapped cell go on with its text, never
		// right-aligned.
		for line, more := 0, true; more; line++ {
			more = false
			for k, c := range vis {
				last := k == len(vis)-1
				s := rest[k]
				rest[k] = ""
				if s == "" {
					// An empty cell (or one whose wrapped text ended).
					if !last {
						w.WriteString(strings.Repeat(" ", c.width))
						w.WriteString(ctl.outSep)
					}
					continue
				}
				width, l := c.width, columnWidth(s)
				right := c.right && line == 0
				if last && l < width && !right {
					width = l
				}
				if l > width && (c.trunc || c.wrap) {
					s, rest[k] = columnCut(s, width)
					l = columnWidth(s)
					if c.trunc {
						rest[k] = ""
					}
					more = more || rest[k] != ""
				}
				if right {
					// A right-aligned cell never pushes the next column
					// down, however wide.
					w.WriteString(strings.Repeat(" ", max(0, width-l)))
					l = width
				}
				w.WriteString(s)
				if l < width {
					w.WriteString(strings.Repeat(" ", width-l))
				}
				switch {
				case last:
				case l > width && !c.trunc:
					// The next column starts on a new line, under its
					// place: libsmartcols pads there for the table's
					// columns up to this one, hidden ones too.
					w.WriteByte('\n')
					for _, p := range ctl.cols {
						if p == vis[len(vis)-1] {
							continue
						}
						if !p.hidden {
							w.WriteString(strings.Repeat(" ", p.width))
						}
						w.WriteString(ctl.outSep)
						if p == c {
							break
						}
					}
				default:
					w.WriteString(ctl.outSep)
				}
			}
			w.WriteByte('\n')
		}
	}
	if ctl.names != nil && !ctl.noHeadings {
		row(func(c *columnCol) string { return c.name })
	}
	for _, n := range ctl.rowOrder {
		row(func(c *columnCol) string { return ctl.cell(n, c) })
	}
}
