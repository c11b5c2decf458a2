package builtins

import (
	"bufio"
	"fmt"
	"strings"
)

// sort --debug, after GNU sort 9.1: the warnings about questionable keys
// and options (key_warnings) and, under each output line, a line that
// marks with underscores the part of the line each key used (debug_line).
// llmsh sorts in the C locale, so the ordering is always "simple byte
// comparison".

// sortDebugWarnings prints GNU's --debug diagnostics to stderr. g is the key
// of the global options, gkeyOnly whether it is the only key (no -k).
func (s *sortSorter) sortDebugWarnings(env *Env, g *sortKey, gkeyOnly bool) {
	env.Errorf("text ordering performed using simple byte comparison")
	ug := *g
	var basicNum, generalNum, basicSpan, generalSpan bool
	for i, k := range s.keys {
		n := i + 1
		numeric := k.numeric || k.general || k.human
		if numeric {
			if k.general {
				generalNum = true
			} else {
				basicNum = true
			}
		}
		zeroWidth := !gkeyOnly && k.eword >= 0 && k.eword < k.sword
		if zeroWidth {
			env.Errorf("key %d has zero width and will be ignored", n)
		}
		implicitSkip := numeric || k.month
		lineOffset := k.eword == 0 && k.echar != 0
		if !zeroWidth && !gkeyOnly && s.tab < 0 && !lineOffset &&
			(!k.skipSB && !implicitSkip || !k.skipSB && k.schar != 0 || !k.skipEB && k.echar != 0) {
			env.Errorf("leading blanks are significant in key %d; consider also specifying 'b'", n)
		}
		if !gkeyOnly && numeric && (k.eword < 0 || k.sword < k.eword) {
			env.Errorf("key %d is numeric and spans multiple fields", n)
			if k.general {
				generalSpan = true
			} else {
				basicSpan = true
			}
		}
		// Global options that no key copied or specified.
		if ug.ignore != nil && ug.ignore == k.ignore {
			ug.ignore = nil
		}
		if ug.translate != nil && ug.translate == k.translate {
			ug.translate = nil
		}
		ug.skipSB = ug.skipSB && !k.skipSB
		ug.skipEB = ug.skipEB && !k.skipEB
		ug.month = ug.month && !k.month
		ug.numeric = ug.numeric && !k.numeric
		ug.general = ug.general && !k.general
		ug.human = ug.human && !k.human
		ug.random = ug.random && !k.random
		ug.version = ug.version && !k.version
		ug.reverse = ug.reverse && !k.reverse
	}
	localeWarned := false
	if basicSpan || generalSpan {
		switch {
		case s.tab == '.':
			env.Errorf("field separator '.' is treated as a decimal point in numbers")
			localeWarned = true
		case s.tab == '-':
			env.Errorf("field separator '-' is treated as a minus sign in numbers")
		case generalSpan && s.tab == '+':
			env.Errorf("field separator '+' is treated as a plus sign in numbers")
		}
	}
	if (basicNum || generalNum) && !localeWarned {
		note := "note "
		if s.tab == '.' {
			note = ""
		}
		env.Errorf("%snumbers use '.' as a decimal point in this locale", note)
	}
	su := s.stable || s.unique
	keylist := len(s.keys) > 0
	if !ug.isDefault() || ug.reverse && su && keylist {
		rev := ug.reverse
		if !su {
			ug.reverse = false
		}
		if o := ug.opts(); len(o) == 1 {
			env.Errorf("option '-%s' is ignored", o)
		} else {
			env.Errorf("options '-%s' are ignored", o)
		}
		ug.reverse = rev
	}
	if ug.reverse && !su && keylist {
		env.Errorf("option '-r' only applies to last-resort comparison")
	}
}

// sortDebugWrite writes line as GNU sort --debug does (tabs as '>', the
// delimiter as a newline) followed by the key annotations.
func (s *sortSorter) sortDebugWrite(w *bufio.Writer, line []byte, gkeyOnly bool) error {
	for _, c := range line {
		if c == '\t' {
			c = '>'
		}
		w.WriteByte(c)
	}
	w.WriteByte('\n')
	for i, k := range s.keys {
		s.sortDebugKey(w, line, k, i == 0 && gkeyOnly)
	}
	if len(s.keys) == 0 || !(s.unique || s.stable) {
		s.sortDebugKey(w, line, nil, false)
	}
	_, err := w.Write(nil) // the writer's sticky error
	return err
}

// sortDebugKey marks the part of line that key k uses (nil: the whole line,
// the last-resort comparison); global is true for the key made of the
// global options, which has no field position (GNU's sword == SIZE_MAX).
func (s *sortSorter) sortDebugKey(w *bufio.Writer, line []byte, k *sortKey, global bool) {
	beg, lim := 0, len(line)
	if k != nil {
		if !global {
			beg = s.begfield(line, k)
			lim = s.limfield(line, k)
		}
		if k.skipSB && global || k.month || k.numeric || k.general || k.human {
			// GNU ends the key with a NUL there; the blank skip is not
			// bounded by lim when lim is before beg.
			end := lim
			if lim < beg {
				end = len(line)
			}
			for beg < end && sortBlank[line[beg]] {
				beg++
			}
			tight := beg
			switch {
			case lim < beg:
				tight = lim
			case k.month:
				if sortMonth(line[beg:lim]) != 0 {
					tight = beg + 3
				}
			case k.general:
				tight = beg + sortStrtodLen(line[beg:lim])
			case k.numeric || k.human:
				p := beg
				if p < lim && line[p] == '-' {
					p++
				}
				e, digits := sortRawNumberEnd(line[:lim], p)
				if digits {
					tight = e
					if k.human && e < lim && strings.IndexByte("kKMGTPEZYRQ", line[e]) >= 0 {
						tight++
					}
				}
			default:
				tight = lim
			}
			lim = tight
		}
	}
	lim = max(lim, beg)
	for n := sortDebugWidth(line[:beg]); n > 0; n-- {
		w.WriteByte(' ')
	}
	n := sortDebugWidth(line[beg:lim])
	if n == 0 {
		w.WriteString("^ no match for key\n")
		return
	}
	for ; n > 0; n-- {
		w.WriteByte('_')
	}
	w.WriteByte('\n')
}

// sortDebugWidth is GNU's debug_width in the C locale: mbsnwidth (printable
// and non-ASCII bytes count 1, control characters 0) plus one per tab.
func sortDebugWidth(b []byte) int {
	n := 0
	for _, c := range b {
		if c >= 0x20 && c != 0x7f || c == '\t' {
			n++
		}
	}
	return n
}

// sortRawNumberEnd is GNU's traverse_raw_number: the end of the digits (and
// a decimal point followed by digits) from p, and whether any digit was
// seen. b ends where the key ends.
func sortRawNumberEnd(b []byte, p int) (int, bool) {
	digits := false
	for p < len(b) && isDigit(b[p]) {
		p++
		digits = true
	}
	if p < len(b) && b[p] == '.' {
		p++
		for p < len(b) && isDigit(b[p]) {
			p++
			digits = true
		}
	}
	return p, digits
}

// sortStrtodLen is the length of the prefix of b that C's strtold converts
// (0 when it converts nothing), in the C locale.
func sortStrtodLen(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] >= '\t' && b[i] <= '\r') {
		i++
	}
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	hasFold := func(p string) bool {
		if len(b)-i < len(p) {
			return false
		}
		for j := 0; j < len(p); j++ {
			if b[i+j]|0x20 != p[j] {
				return false
			}
		}
		return true
	}
	switch {
	case hasFold("infinity"):
		return i + 8
	case hasFold("inf"):
		return i + 3
	case hasFold("nan"):
		i += 3
		if i < len(b) && b[i] == '(' {
			j := i + 1
			for j < len(b) && (isAlpha(b[j]) || isDigit(b[j]) || b[j] == '_') {
				j++
			}
			if j < len(b) && b[j] == ')' {
				i = j + 1
			}
		}
		return i
	}
	run := func(ok func(byte) bool) int {
		n := 0
		for i < len(b) && ok(b[i]) {
			i++
			n++
		}
		return n
	}
	exponent := func(marker byte) {
		if i < len(b) && b[i]|0x20 == marker {
			j := i
			i++
			if i < len(b) && (b[i] == '+' || b[i] == '-') {
				i++
			}
			if run(isDigit) == 0 {
				i = j
			}
		}
	}
	if len(b)-i >= 2 && b[i] == '0' && b[i+1]|0x20 == 'x' {
		zero := i + 1
		i += 2
		n := run(isHexDigit)
		if i < len(b) && b[i] == '.' {
			i++
			n += run(isHexDigit)
		}
		if n == 0 {
			return zero // "0x" with no hex digit converts the 0
		}
		exponent('p')
		return i
	}
	n := run(isDigit)
	if i < len(b) && b[i] == '.' {
		i++
		n += run(isDigit)
	}
	if n == 0 {
		return 0
	}
	exponent('e')
	return i
}

// sortDebugConflict is the message of --debug with -c, -C or -o.
func sortDebugConflict(check, quiet bool) string {
	c := "o"
	if check {
		c = "c"
		if quiet {
			c = "C"
		}
	}
	return fmt.Sprintf("options '-%s --debug' are incompatible", c)
}
