package builtins

import (
	"bufio"
	"fmt"
	"strings"
)

// The kinds of groups and lines of diff's --GTYPE-group-format and
// --LTYPE-line-format (GNU's -D output generalised).
const (
	diffGroupUnchanged = iota
	diffGroupOld
	diffGroupNew
	diffGroupChanged
)

// diffFormats holds the group and line formats; "" unset.
type diffFormats struct {
	group [4]string
	line  [3]string // old, new, unchanged (the group constants minus one)
	// the option that set each, for GNU's conflict message
	groupSet [4]bool
	lineSet  [3]bool
	conflict string // the first conflicting option value
}

var diffGroupNames = [4]string{"unchanged", "old", "new", "changed"}

// setGroup sets group format i as option opt does; a second, different
// value conflicts as in GNU.
func (m *diffFormats) setGroup(i int, v, opt string) {
	if m.groupSet[i] && m.group[i] != v {
		if m.conflict == "" {
			m.conflict = fmt.Sprintf("conflicting %s option value '%s'", opt, v)
		}
		return
	}
	m.group[i], m.groupSet[i] = v, true
}

func (m *diffFormats) setLine(i int, v, opt string) {
	if m.lineSet[i] && m.line[i] != v {
		if m.conflict == "" {
			m.conflict = fmt.Sprintf("conflicting %s option value '%s'", opt, v)
		}
		return
	}
	m.line[i], m.lineSet[i] = v, true
}

// ifdefName sets the group formats of -D NAME.
func (m *diffFormats) ifdefName(name string) {
	m.setGroup(diffGroupUnchanged, "%=", "-D")
	m.setGroup(diffGroupOld, "#ifndef "+name+"\n%<#endif /* ! "+name+" */\n", "-D")
	m.setGroup(diffGroupNew, "#ifdef "+name+"\n%>#endif /* "+name+" */\n", "-D")
	m.setGroup(diffGroupChanged, "#ifndef "+name+"\n%<#else /* "+name+" */\n%>#endif /* "+name+" */\n", "-D")
}

// defaults fills the unset formats as GNU diff does.
func (m *diffFormats) defaults() {
	for i := range m.line {
		if !m.lineSet[i] {
			m.line[i] = "%l\n"
		}
	}
	if !m.groupSet[diffGroupOld] {
		m.group[diffGroupOld] = "%<"
		if m.groupSet[diffGroupChanged] {
			m.group[diffGroupOld] = m.group[diffGroupChanged]
		}
	}
	if !m.groupSet[diffGroupNew] {
		m.group[diffGroupNew] = "%>"
		if m.groupSet[diffGroupChanged] {
			m.group[diffGroupNew] = m.group[diffGroupChanged]
		}
	}
	if !m.groupSet[diffGroupUnchanged] {
		m.group[diffGroupUnchanged] = "%="
	}
	if !m.groupSet[diffGroupChanged] {
		m.group[diffGroupChanged] = m.group[diffGroupOld] + m.group[diffGroupNew]
	}
}

// formatFlags adds the group and line format options to f.
func (p *diffCmdLine) formatFlags(f *Flags) {
	m := &p.d.formats
	for i, name := range diffGroupNames {
		opt := "--" + name + "-group-format"
		f.Func(0, name+"-group-format", RequiredArg, "GFMT", "format "+name+" input groups with GFMT", func(v string, _ bool) error {
			p.setStyle(diffIfdef)
			m.setGroup(i, v, opt)
			return nil
		})
	}
	f.Func(0, "line-format", RequiredArg, "LFMT", "format all input lines with LFMT", func(v string, _ bool) error {
		p.setStyle(diffIfdef)
		for i := range m.line {
			m.setLine(i, v, "--line-format")
		}
		return nil
	})
	for i, name := range diffGroupNames[1:3:3] {
		opt := "--" + name + "-line-format"
		f.Func(0, name+"-line-format", RequiredArg, "LFMT", "format "+name+" input lines with LFMT", func(v string, _ bool) error {
			p.setStyle(diffIfdef)
			m.setLine(i, v, opt)
			return nil
		})
	}
	f.Func(0, "unchanged-line-format", RequiredArg, "LFMT", "format unchanged input lines with LFMT", func(v string, _ bool) error {
		p.setStyle(diffIfdef)
		m.setLine(2, v, "--unchanged-line-format")
		return nil
	})
}

const diffFormatEpilog = `The --GTYPE-group-format and --LTYPE-line-format options provide
fine-grained control over the output of diff, generalizing -D/--ifdef.
LTYPE is 'old', 'new', or 'unchanged'.  GTYPE is LTYPE or 'changed'.
GFMT (only) may contain:
  %<  lines from FILE1
  %>  lines from FILE2
  %=  lines common to FILE1 and FILE2
  %[-][WIDTH][.[PREC]]{doxX}LETTER  printf-style spec for LETTER
    LETTERs are as follows for new group, lower case for old group:
      F  first line number
      L  last line number
      N  number of lines = L-F+1
      E  F-1
      M  L+1
  %(A=B?T:E)  if A equals B then T else E
LFMT (only) may contain:
  %L  contents of line
  %l  contents of line, excluding any trailing newline
  %[-][WIDTH][.[PREC]]{doxX}n  printf-style spec for input line number
Both GFMT and LFMT may contain:
  %%  %
  %c'C'  the single character C
  %c'\OOO'  the character with octal code OOO
  C    the character C (other characters represent themselves)`

// diffGroup is a run of lines [from, to) of one file.
type diffGroup struct {
	f        *diffFile
	from, to int
}

// letter returns the value of a group format's LETTER, or -1.
func diffGroupLetter(g *[2]diffGroup, c byte) int {
	k := 0
	if c >= 'A' && c <= 'Z' {
		k, c = 1, c+'a'-'A'
	}
	from, to := g[k].from, g[k].to
	switch c {
	case 'e':
		return from
	case 'f':
		return from + 1
	case 'l':
		return to
	case 'm':
		return to + 1
	case 'n':
		return to - from
	}
	return -1
}

// formatGroup writes format (up to end or its end) for the groups g to
// w, or only skips it when w is nil; it returns the index where it
// stopped.
func (p *diffPrinter) formatGroup(w *bufio.Writer, format string, end byte, g *[2]diffGroup) int {
	i := 0
	for i < len(format) && format[i] != end {
		c := format[i]
		i++
		if c != '%' || i >= len(format) {
			if w != nil {
				w.WriteByte(c)
			}
			continue
		}
		switch format[i] {
		case '%':
			i++
		case '<', '=', '>':
			k, lf := 0, p.d.formats.line[0]
			if format[i] == '=' {
				lf = p.d.formats.line[2]
			} else if format[i] == '>' {
				k, lf = 1, p.d.formats.line[1]
			}
			i++
			if w != nil {
				p.formatLines(w, lf, g[k])
			}
			continue
		case '(':
			if n, ok := p.formatCond(w, format[i+1:], g); ok {
				i += 1 + n
				continue
			}
		default:
			if n, ok := diffPrintfSpec(w, format[i:], g, nil, 0); ok {
				i += n
				continue
			}
		}
		if w != nil {
			w.WriteByte('%')
		}
	}
	return i
}

// formatCond writes the "A=B?T:E)" of a %(A=B?T:E) at the start of s,
// returning its length; false when it is malformed.
func (p *diffPrinter) formatCond(w *bufio.Writer, s string, g *[2]diffGroup) (int, bool) {
	var val [2]int
	i := 0
	for k := range 2 {
		if i >= len(s) {
			return 0, false
		}
		if isDigit(s[i]) {
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			n, ok := parseDecimal(s[i:j])
			if !ok {
				return 0, false
			}
			val[k], i = n, j
		} else {
			val[k] = diffGroupLetter(g, s[i])
			if val[k] < 0 {
				return 0, false
			}
			i++
		}
		if i >= len(s) || s[i] != "=?"[k] {
			return 0, false
		}
		i++
	}
	then, els := w, (*bufio.Writer)(nil)
	if val[0] != val[1] {
		then, els = nil, w
	}
	i += p.formatGroup(then, s[i:], ':', g)
	if i < len(s) {
		i++
		i += p.formatGroup(els, s[i:], ')', g)
		if i < len(s) {
			i++
		}
	}
	return i, true
}

// parseDecimal parses a run of decimal digits that fits an int.
func parseDecimal(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if n > (1<<62)/10 {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// diffPrintfSpec writes the %[-'0]*[0-9]*(.[0-9]*)?[cdoxX]LETTER spec
// that starts s (after its '%'): a group letter when g is not nil, else
// the line number n of a line format. It returns the spec's length.
func diffPrintfSpec(w *bufio.Writer, s string, g *[2]diffGroup, line *diffGroup, n int) (int, bool) {
	i := 0
	var flags strings.Builder
	for i < len(s) && (s[i] == '-' || s[i] == '\'' || s[i] == '0') {
		if s[i] != '\'' {
			flags.WriteByte(s[i])
		}
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	width := s[start:i]
	if i+1 >= len(s) {
		return 0, false
	}
	conv, letter := s[i], s[i+1]
	i += 2
	switch conv {
	case 'c':
		if letter != '\'' {
			return 0, false
		}
		v, k, ok := diffCharLiteral(s[i:])
		if !ok {
			return 0, false
		}
		if w != nil {
			w.WriteByte(v)
		}
		return i + k, true
	case 'd', 'o', 'x', 'X':
		var v int
		if g == nil {
			if letter != 'n' {
				return 0, false
			}
			v = n + 1
		} else if v = diffGroupLetter(g, letter); v < 0 {
			return 0, false
		}
		if w != nil {
			fmt.Fprintf(w, "%"+flags.String()+width+string(conv), v)
		}
		return i, true
	}
	return 0, false
}

// diffCharLiteral reads the C' or \OOO' of a %c'C' spec.
func diffCharLiteral(s string) (byte, int, bool) {
	if s == "" || s[0] == '\'' {
		return 0, 0, false
	}
	if s[0] != '\\' {
		if len(s) < 2 || s[1] != '\'' {
			return 0, 0, false
		}
		return s[0], 2, true
	}
	var v byte
	i := 1
	for ; i < len(s) && s[i] != '\''; i++ {
		if s[i] < '0' || s[i] > '7' {
			return 0, 0, false
		}
		v = v*8 + s[i] - '0'
	}
	if i >= len(s) || i-1 < 1 || i-1 > 3 {
		return 0, 0, false
	}
	return v, i + 1, true
}

// formatLines writes each line of group g in line format lf.
func (p *diffPrinter) formatLines(w *bufio.Writer, lf string, g diffGroup) {
	for n := g.from; n < g.to; n++ {
		line := g.f.lines[n]
		nl := n < len(g.f.lines)-1 || !g.f.missingNewline
		if lf == "%l\n" {
			// GNU's fast path ends every line with a newline.
			w.Write(line)
			w.WriteByte('\n')
			continue
		}
		for i := 0; i < len(lf); {
			c := lf[i]
			i++
			if c != '%' || i >= len(lf) {
				w.WriteByte(c)
				continue
			}
			switch lf[i] {
			case '%':
				i++
			case 'l', 'L':
				w.Write(line)
				if lf[i] == 'L' && nl {
					w.WriteByte('\n')
				}
				i++
				continue
			default:
				if k, ok := diffPrintfSpec(w, lf[i:], nil, &g, n); ok {
					i += k
					continue
				}
			}
			w.WriteByte('%')
		}
	}
}

// formatted prints the files through the group formats: GNU's -D and
// --GTYPE-group-format output. Ignored changes (-B, -I) are printed
// as unchanged lines.
func (p *diffPrinter) formatted(script []diffChange) {
	w := p.d.out
	f0, f1 := p.f[0], p.f[1]
	next0, next1 := 0, 0
	group := func(kind, to0, to1 int) {
		g := [2]diffGroup{{f0, next0, to0}, {f1, next1, to1}}
		p.formatGroup(w, p.d.formats.group[kind], 0, &g)
		next0, next1 = to0, to1
	}
	for _, c := range script {
		if c.ignore {
			continue
		}
		if p.d.env.Ctx.Err() != nil {
			return
		}
		if next0 < c.line0 || next1 < c.line1 {
			group(diffGroupUnchanged, c.line0, c.line1)
		}
		kind := diffGroupChanged
		if c.inserted == 0 {
			kind = diffGroupOld
		} else if c.deleted == 0 {
			kind = diffGroupNew
		}
		group(kind, c.line0+c.deleted, c.line1+c.inserted)
	}
	if next0 < len(f0.lines) || next1 < len(f1.lines) {
		group(diffGroupUnchanged, len(f0.lines), len(f1.lines))
	}
}
