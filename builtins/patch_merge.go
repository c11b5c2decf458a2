package builtins

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// This file is patch's --merge (GNU patch 2.7.6's merge.c, its behaviour
// rewritten here): a hunk that does not apply exactly is laid over the
// place where its old lines match best, and where the file changed the
// same lines the hunk changes, both versions are written between
// conflict markers.

// mergeStyle is --merge's STYLE: 0 without --merge.
const (
	mergeNone = iota
	mergeMerge
	mergeDiff3
)

// mergeLines is one hunk's two sides as GNU patch walks them: the old
// lines (context and deleted) and the new ones (context and added).
type mergeLines struct {
	old, new []patchLine
}

func (m *mergeLines) oldKind(i int) byte {
	if i < len(m.old) {
		return m.old[i].kind
	}
	return '='
}

func (m *mergeLines) newKind(i int) byte {
	if i < len(m.new) {
		return m.new[i].kind
	}
	return '^'
}

func newMergeLines(h *patchHunk) *mergeLines {
	m := &mergeLines{}
	for _, l := range h.lines {
		if l.kind != '+' {
			m.old = append(m.old, l)
		}
		if l.kind != '-' {
			m.new = append(m.new, l)
		}
	}
	return m
}

// inMatches tells whether patch line l is input line w (1-based), its
// newline included.
func (a *hunkApplier) inMatches(l patchLine, w int) bool {
	if w < 1 || w > len(a.in.lines) {
		return false
	}
	noEOL := w == len(a.in.lines) && a.in.missingNewline
	return noEOL == l.noEOL && bytes.Equal(a.in.lines[w-1], l.text)
}

// mergeBestMatch is the least number of deletions and insertions (at
// most maxC) that turns all of old into the input's lines from guess on
// (1-based), and the input line after the last one used; maxC+1 when
// there is none. The lines used are at least minC (GNU's bestmatch,
// which checks the matched lines' count with the offset of the two
// sequences' starts where their sum belongs; kept, as it decides which
// places are tried).
func (a *hunkApplier) mergeBestMatch(old []patchLine, guess, minC, maxC int) (int, int) {
	xoff, xlim := 1, len(old)+1
	yoff, ylim := guess, len(a.in.lines)+1
	eq := func(x, y int) bool { return a.inMatches(old[x-1], y) }
	dmin, dmax, fmid := xoff-ylim, xlim-yoff, xoff-yoff
	least := 0
	if minC > 0 {
		least = fmid + 2*minC
		minC += yoff
		if minC > ylim {
			return maxC + 1, -1
		}
	}
	x, y := xoff, yoff
	for x < xlim && y < ylim && eq(x, y) {
		x++
		y++
	}
	if x == xlim && y >= minC && x+y >= least {
		return 0, y
	}
	fd := make([]int, 2*maxC+3)
	at := func(d int) *int { return &fd[d-fmid+maxC+1] }
	*at(fmid) = x
	fmin, fmax, ymax := fmid, fmid, -1
	for c := 1; c <= maxC; c++ {
		if fmin > dmin {
			fmin--
			*at(fmin - 1) = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			*at(fmax + 1) = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			x := *at(d - 1) + 1
			if *at(d - 1) < *at(d + 1) {
				x = *at(d + 1)
			}
			y := x - d
			for x < xlim && y < ylim && eq(x, y) {
				x++
				y++
			}
			*at(d) = x
			if x == xlim && y >= minC && x+y-c >= least {
				ymax = max(ymax, y)
				if y == ylim {
					return c, ymax
				}
			}
		}
		if ymax != -1 {
			return c, ymax
		}
	}
	return maxC + 1, -1
}

// locateMerge is where (1-based) a hunk that does not apply is merged,
// and how many input lines its old lines are laid over: the place that
// uses the most lines with the fewest changes, nearest the line the diff
// names (GNU's locate_merge).
func (a *hunkApplier) locateMerge(h *patchHunk, old []patchLine) (where, matched int) {
	p := a.p
	firstGuess := p.first(h) + a.lastOffset
	patLines := len(old)
	context := 0
	for _, l := range old {
		if l.kind == ' ' {
			context++
		}
	}
	maxWhere := len(a.in.lines) - patLines + context + 1
	minWhere := a.inPos + 1
	maxPos, maxNeg := maxWhere-firstGuess, firstGuess-minWhere
	maxOffset := max(maxPos, maxNeg)
	where = firstGuess
	if context > 0 {
		maxC, minC := 2*context, patLines-context
		prefix, suffix := h.contextLens()
		if suffix > prefix && p.first(h) <= 1 {
			maxPos = 0
		}
		untilEOF := suffix < prefix
		if firstGuess <= maxNeg {
			maxNeg = firstGuess - 1
		}
		try := func(guess int) bool {
			m := minC
			if untilEOF {
				m = len(a.in.lines) - guess + 1
			}
			changes, last := a.mergeBestMatch(old, guess, m, maxC)
			if changes <= maxC && matched < last-guess {
				matched, where = last-guess, guess
				if changes == 0 {
					return true
				}
				minC, maxC = last-guess, changes-1
			}
			return false
		}
		for offset := 0; offset <= maxOffset; offset++ {
			if offset <= maxPos && try(firstGuess+offset) {
				break
			}
			if 0 < offset && offset <= maxNeg && try(firstGuess-offset) {
				break
			}
		}
	}
	return max(where, minWhere), matched
}

// mergeMarks compares old with the matched input lines from where: a
// '-' for each old line the input lacks, a '+' for each input line the
// old lines lack, ' ' for the rest, and a sentinel after each ('=', '^').
func (a *hunkApplier) mergeMarks(old []patchLine, where, matched int) (oldMark, inMark []byte) {
	classes := map[string]int{}
	class := func(text []byte, noEOL bool) int {
		k := string(text)
		if noEOL {
			k += "\x00noeol"
		}
		c, ok := classes[k]
		if !ok {
			c = len(classes) + 1
			classes[k] = c
		}
		return c
	}
	xv := make([]int, len(old))
	for i, l := range old {
		xv[i] = class(l.text, l.noEOL)
	}
	yv := make([]int, matched)
	for i := range yv {
		w := where + i
		if w > len(a.in.lines) {
			// Where a merge was moved below the hunks before it, its
			// lines may run past the input's end: as GNU's, they
			// match nothing.
			yv[i] = -1 - i
			continue
		}
		yv[i] = class(a.in.lines[w-1], w == len(a.in.lines) && a.in.missingNewline)
	}
	oldMark = append(bytes.Repeat([]byte{' '}, len(xv)), '=')
	inMark = append(bytes.Repeat([]byte{' '}, len(yv)), '^')
	diags := len(xv) + len(yv) + 3
	s := &diffSeq{xv: xv, yv: yv, fd: make([]int, diags), bd: make([]int, diags), off: len(yv) + 1,
		tooExpensive: math.MaxInt, ctx: a.p.env.Ctx,
		noteDelete: func(x int) { oldMark[x] = '-' },
		noteInsert: func(y int) { inMark[y] = '+' }}
	s.compareseq(0, len(xv), 0, len(yv), true)
	return oldMark, inMark
}

// mergeReport is the line that says how a hunk merged: "Hunk #2 merged
// at 10,14, NOT MERGED at 20-26." (GNU's merge_result). A range of the
// kind the line started with joins the list after a comma, any other
// kind is named again ("NOT MERGED at 5-10, merged at 14, merged at
// 16"), as GNU's does.
type mergeReport struct {
	b     strings.Builder
	first string
}

func (r *mergeReport) add(hunk int, what string, from, to int) {
	switch {
	case r.first == "":
		fmt.Fprintf(&r.b, "Hunk #%d %s at ", hunk, what)
		r.first = what
	case r.first == what:
		r.b.WriteString(",")
	default:
		fmt.Fprintf(&r.b, ", %s at ", what)
	}
	r.b.WriteString(strconv.Itoa(from))
	if to > from {
		fmt.Fprintf(&r.b, "-%d", to)
	}
}

// mergeState walks one hunk: o, n index the old and new lines, k the
// matched input lines (their marks), where is the next input line
// (1-based) the walk has not passed.
type mergeState struct {
	*mergeLines
	oldMark, inMark []byte
	o, n, k, where  int
}

// copyTill copies the input up to line last (1-based), as GNU's
// copy_till; false when the input has already gone past it.
func (a *hunkApplier) copyTill(last int) bool {
	if a.inPos > last {
		return false
	}
	for ; a.inPos < last; a.inPos++ {
		a.emit(a.inPos)
	}
	return true
}

func (a *hunkApplier) writeLines(ls []patchLine) {
	for _, l := range ls {
		a.result = append(a.result, l.text)
		a.resultNoEOL = l.noEOL
	}
}

func (a *hunkApplier) writeMarker(m string) {
	a.result = append(a.result, []byte(m))
	a.resultNoEOL = false
}

// mergeHunk merges hunk number hi (0-based), found at where (0-based) or
// not (-1), into the output; false when the hunk cannot be placed after
// the ones before it.
func (a *hunkApplier) mergeHunk(hi int, h *patchHunk, where int) bool {
	p := a.p
	s := &mergeState{mergeLines: newMergeLines(h)}
	cleanly := where >= 0
	matched := len(s.old)
	if cleanly {
		s.where = where + 1
	} else {
		s.where, matched = a.locateMerge(h, s.old)
	}
	s.oldMark, s.inMark = a.mergeMarks(s.old, s.where, matched)
	if !a.copyTill(s.where - 1) {
		return false
	}
	var r mergeReport
	showMerged := p.verbose || !p.silent && !cleanly
	for {
		fo, fn, fk := s.o, s.n, s.k
		conflict, done := a.mergeStep(s, hi, &r, showMerged, cleanly)
		if done {
			break
		}
		if !conflict {
			continue
		}
		if !a.mergeConflict(s, hi, &r, fo, fn, fk) {
			return false
		}
	}
	if r.first != "" {
		// Said even under -s, but for "merged" (which -s leaves out).
		p.out.Flush()
		fmt.Fprintf(p.summary, "%s.\n", r.b.String())
	}
	return true
}

// mergeStep takes the next run of lines: a change of the hunk's that the
// input allows, context, lines only the input has; or it finds a
// conflict starting there.
func (a *hunkApplier) mergeStep(s *mergeState, hi int, r *mergeReport, showMerged, cleanly bool) (conflict, done bool) {
	fo, fn, fk := s.o, s.n, s.k
	switch {
	case s.oldKind(s.o) == '-' || s.newKind(s.n) == '+':
		for s.oldKind(s.o) == '-' {
			if s.oldMark[s.o] == '-' || s.inMark[s.k] == '+' {
				return true, false
			}
			s.k++
			s.o++
		}
		if s.oldMark[s.o] == '-' || s.inMark[s.k] == '+' {
			return true, false
		}
		for s.newKind(s.n) == '+' {
			s.n++
		}
		if showMerged {
			r.add(hi+1, "merged", s.where+a.netAdded, s.where+s.n-fn-1+a.netAdded)
		}
		a.inPos += s.o - fo
		s.where += s.o - fo
		a.netAdded += s.n - fn
		a.writeLines(s.new[fn:s.n])
	case s.oldKind(s.o) == ' ':
		switch {
		case s.oldMark[s.o] == '-':
			// Context the input lacks.
			for s.oldKind(s.o) == ' ' && s.oldMark[s.o] == '-' {
				if s.newKind(s.n) == '+' {
					return true, false
				}
				s.o++
				s.n++
			}
			if s.oldKind(s.o) == '-' || s.newKind(s.n) == '+' {
				return true, false
			}
		case s.inMark[s.k] == '+':
			for s.inMark[s.k] == '+' {
				s.k++
			}
			s.where += s.k - fk
			if !a.copyTill(s.where - 1) {
				return false, true
			}
		default:
			for s.oldKind(s.o) == ' ' && s.oldMark[s.o] == ' ' && s.newKind(s.n) == ' ' && s.inMark[s.k] == ' ' {
				s.o++
				s.n++
				s.k++
			}
			s.where += s.k - fk
			if !a.copyTill(s.where - 1) {
				return false, true
			}
		}
	default:
		return false, true
	}
	return false, false
}

// mergeConflict finds the end of a conflict that starts at fo, fn, fk
// and writes it: nothing when the input already has the hunk's new
// lines, else the input's lines and the hunk's between markers.
func (a *hunkApplier) mergeConflict(s *mergeState, hi int, r *mergeReport, fo, fn, fk int) bool {
	for {
		switch {
		case s.oldKind(s.o) == '-':
			for s.inMark[s.k] == '+' {
				s.k++
			}
			if s.oldMark[s.o] == ' ' {
				s.k++
			}
			s.o++
		case s.oldMark[s.o] == '-':
			for s.newKind(s.n) == '+' {
				s.n++
			}
			if s.oldKind(s.o) == ' ' {
				s.n++
			}
			s.o++
		case s.newKind(s.n) == '+':
			for s.newKind(s.n) == '+' {
				s.n++
			}
		case s.inMark[s.k] == '+':
			for s.inMark[s.k] == '+' {
				s.k++
			}
		default:
			return a.writeConflict(s, hi, r, fo, fn, fk)
		}
	}
}

func (a *hunkApplier) writeConflict(s *mergeState, hi int, r *mergeReport, fo, fn, fk int) bool {
	diff3 := a.p.merge == mergeDiff3
	// The lines at the start that the input has as the hunk has them.
	last := s.where
	for fk < s.k && fn < s.n && a.inMatches(s.new[fn], last) {
		fk++
		fn++
		last++
	}
	already := fk == s.k && fn == s.n
	if already {
		r.add(hi+1, "already applied", s.where+a.netAdded, last-1+a.netAdded)
	}
	if diff3 {
		common := last - s.where
		fk -= common
		fn -= common
		last -= common
	}
	if s.where != last {
		s.where = last
		if !a.copyTill(s.where - 1) {
			return false
		}
	}
	if already {
		return true
	}
	suffix := 0
	if !diff3 {
		for last = s.where + s.k - fk; fk < s.k && fn < s.n && a.inMatches(s.new[s.n-1], last-1); last-- {
			s.k--
			s.n--
			suffix++
		}
	}
	lines := 3 + s.k - fk + s.n - fn
	if diff3 {
		lines += 1 + s.o - fo
	}
	r.add(hi+1, "NOT MERGED", s.where+a.netAdded, s.where+lines-1+a.netAdded)
	a.netAdded += lines - (s.k - fk)
	a.writeMarker("<<<<<<<")
	if fk < s.k {
		s.where += s.k - fk
		if !a.copyTill(s.where - 1) {
			return false
		}
	}
	if diff3 {
		a.writeMarker("|||||||")
		a.writeLines(s.old[fo:s.o])
	}
	a.writeMarker("=======")
	a.writeLines(s.new[fn:s.n])
	a.writeMarker(">>>>>>>")
	if suffix > 0 {
		s.where += suffix
		if !a.copyTill(s.where - 1) {
			return false
		}
		s.k += suffix
		s.n += suffix
	}
	a.conflicts = true
	return true
}

// mergeStatus is 1 when --merge left conflict markers, else 0.
func (a *hunkApplier) mergeStatus() int {
	if a.conflicts {
		return 1
	}
	return 0
}
