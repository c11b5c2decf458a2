package builtins

import (
	"bytes"
	"context"
	"math"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// This file holds the line comparison behind diff. It follows the design of
// GNU diffutils (analyze.c, io.c) and gnulib's diffseq.h step by step, so
// that for the same input diff prints the same hunks as GNU diff:
//
//  1. the identical prefix and suffix are set aside (less horizon lines,
//     which stay in play so that changes can be shifted);
//  2. lines of the middle are put in equivalence classes (with -i -b -w -Z
//     deciding equality);
//  3. lines that match nothing in the other file are discarded up front,
//     and so are runs of lines that match too much (discard_confusing_lines);
//  4. Myers' O(ND) divide and conquer on the rest (with the cost limit that
//     makes GNU give up on a minimal diff for huge inputs);
//  5. runs of changes are slid down to merge them and to end on a
//     line that is followed by context (shift_boundaries).

// diffFile is one side of a comparison, split into lines.
type diffFile struct {
	data           []byte   // the content
	lines          [][]byte // each line without its newline
	missingNewline bool     // the last line has no newline
}

// splitDiffLines splits data into lines.
func splitDiffLines(data []byte) *diffFile {
	f, _ := splitDiffLinesCtx(context.Background(), data)
	return f
}

// splitDiffLinesCtx is splitDiffLines that stops with gnu.ErrCancelled
// once ctx is done: the 20 million lines of a 169 MB file took seconds
// (session 23, red team: diff of two such files in a library Session.Run
// with a 1 s limit answered after 3.7 s, its stacks in this loop).
func splitDiffLinesCtx(ctx context.Context, data []byte) (*diffFile, error) {
	// One allocation: appending to millions of lines copied for seconds
	// (a time limit waited for it).
	f := &diffFile{data: data, lines: make([][]byte, 0, bytes.Count(data, []byte{'\n'})+1)}
	for len(data) > 0 {
		if len(f.lines)&0xffff == 0xffff && ctx.Err() != nil {
			return nil, gnu.ErrCancelled
		}
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			f.lines = append(f.lines, data)
			f.missingNewline = true
			break
		}
		f.lines = append(f.lines, data[:i])
		data = data[i+1:]
	}
	return f, nil
}

// whiteMode says how white space counts when lines are compared.
type whiteMode int

const (
	whiteExact    whiteMode = iota
	whiteTrailing           // -Z: ignore white space at line end
	whiteChange             // -b: ignore changes in the amount of white space
	whiteAll                // -w: ignore all white space
)

// diffOpts are the options that change which lines are equal.
type diffOpts struct {
	ignoreCase bool
	white      whiteMode
	tabExpand  bool // -E: ignore changes due to tab expansion
	tabsize    int  // --tabsize, for -E
	minimal    bool // -d: no discards, no cost limit
	horizon    int  // lines of identical prefix/suffix kept in play
}

// diffChange is one hunk of an edit script: deleted lines of file 0 from
// line0 and inserted lines of file 1 from line1 (0-based; when deleted is
// 0, line0 is the line before which the insertion happens, and so on).
type diffChange struct {
	line0, line1      int
	deleted, inserted int
	ignore            bool // the change is only blank lines (-B)
}

func isDiffSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// lineKey is the canonical form of a line under o: two lines are equal
// exactly when their keys are.
func (o *diffOpts) lineKey(line []byte, incomplete bool) string {
	var b []byte
	if o.tabExpand && o.white < whiteChange && bytes.IndexByte(line, '\t') >= 0 {
		line = expandDiffTabs(line, o.tabsize)
	}
	switch o.white {
	case whiteExact:
		b = line
	case whiteTrailing:
		end := len(line)
		for end > 0 && isDiffSpace(line[end-1]) {
			end--
		}
		b = line[:end]
	case whiteChange:
		b = make([]byte, 0, len(line))
		for i := 0; i < len(line); {
			if isDiffSpace(line[i]) {
				for i < len(line) && isDiffSpace(line[i]) {
					i++
				}
				if i < len(line) {
					b = append(b, ' ')
				}
				continue
			}
			b = append(b, line[i])
			i++
		}
	case whiteAll:
		b = make([]byte, 0, len(line))
		for _, c := range line {
			if !isDiffSpace(c) {
				b = append(b, c)
			}
		}
	}
	if o.ignoreCase {
		b = bytes.ToLower(b)
	}
	// An incomplete last line can only equal the other file's incomplete
	// last line, unless trailing white space (the newline) is ignored.
	if incomplete && o.white < whiteTrailing {
		return "\x00" + string(b)
	}
	return "\x01" + string(b)
}

// expandDiffTabs expands the tabs of line to spaces as GNU's -E sees
// them: a backspace steps back a column and a carriage return goes to
// column 0.
func expandDiffTabs(line []byte, tabsize int) []byte {
	b := make([]byte, 0, len(line)+8)
	col := 0
	for _, c := range line {
		switch c {
		case '\b':
			col -= min(col, 1)
		case '\t':
			n := tabsize - col%tabsize
			b = append(b, bytes.Repeat([]byte{' '}, n)...)
			col += n
			continue
		case '\r':
			col = 0
		default:
			col++
		}
		b = append(b, c)
	}
	return b
}

// diffLines compares a and b and returns the edit script in order of
// increasing line numbers.
func diffLines(ctx context.Context, a, b *diffFile, o *diffOpts) ([]diffChange, error) {
	// 1. The identical prefix and suffix, in whole lines.
	n0, n1 := len(a.lines), len(b.lines)
	prefix := 0
	for prefix < n0 && prefix < n1 && bytes.Equal(a.lines[prefix], b.lines[prefix]) &&
		(prefix < n0-1 || !a.missingNewline) == (prefix < n1-1 || !b.missingNewline) {
		prefix++
	}
	prefix = max(prefix-o.horizon, 0)
	suffix := 0
	if a.missingNewline == b.missingNewline {
		// GNU compares bytes backwards, stopping where either file's
		// unmatched part would run into the prefix; it keeps a partly
		// matching line in the middle, and horizon lines more.
		lim := min(n0, n1) - prefix
		for suffix < lim && bytes.Equal(a.lines[n0-1-suffix], b.lines[n1-1-suffix]) {
			suffix++
		}
		suffix = max(suffix-o.horizon, 0)
	}
	m0, m1 := n0-prefix-suffix, n1-prefix-suffix

	// 2. Equivalence classes of the middle lines.
	classes := map[string]int{}
	eq := [2][]int{make([]int, m0), make([]int, m1)}
	for f, df := range [2]*diffFile{a, b} {
		n := len(df.lines)
		for i := range eq[f] {
			if i&0xffff == 0 && ctx.Err() != nil {
				return nil, gnu.ErrCancelled // millions of lines: seconds
			}
			ln := prefix + i
			k := o.lineKey(df.lines[ln], ln == n-1 && df.missingNewline)
			c, ok := classes[k]
			if !ok {
				c = len(classes) + 1
				classes[k] = c
			}
			eq[f][i] = c
		}
	}
	// changed[f] has a sentinel 0 at each end: index i+1 is line i.
	changed := [2][]bool{make([]bool, m0+2), make([]bool, m1+2)}

	// 3. Discards.
	undiscarded, realindex := discardConfusing(eq, changed, len(classes)+1, o.minimal)

	// 4. Myers.
	s := &diffSeq{xv: undiscarded[0], yv: undiscarded[1], ctx: ctx}
	nx, ny := len(s.xv), len(s.yv)
	diags := nx + ny + 3
	s.fd = make([]int, diags)
	s.bd = make([]int, diags)
	s.off = ny + 1
	tooExpensive := 1
	for d := diags; d != 0; d >>= 2 {
		tooExpensive <<= 1
	}
	s.tooExpensive = max(4096, tooExpensive)
	if o.minimal {
		s.tooExpensive = math.MaxInt
	}
	s.noteDelete = func(x int) { changed[0][realindex[0][x]+1] = true }
	s.noteInsert = func(y int) { changed[1][realindex[1][y]+1] = true }
	if s.compareseq(0, nx, 0, ny, o.minimal) {
		return nil, gnu.ErrCancelled
	}

	// 5. Shift boundaries.
	shiftBoundaries(eq, changed)

	// The script, in full-file line numbers.
	var script []diffChange
	c0, c1 := changed[0], changed[1]
	i0, i1 := 0, 0
	for i0 < m0 || i1 < m1 {
		if c0[i0+1] || c1[i1+1] {
			l0, l1 := i0, i1
			for c0[i0+1] {
				i0++
			}
			for c1[i1+1] {
				i1++
			}
			script = append(script, diffChange{line0: l0 + prefix, line1: l1 + prefix, deleted: i0 - l0, inserted: i1 - l1})
		}
		i0++
		i1++
	}
	return script, nil
}

// discardConfusing marks lines that match nothing in the other file as
// changed and leaves them out of the comparison, and likewise runs of lines
// that match very many; it returns the lines left and their indexes.
func discardConfusing(eq [2][]int, changed [2][]bool, nclasses int, minimal bool) (und [2][]int, real [2][]int) {
	var count [2][]int
	for f := range 2 {
		count[f] = make([]int, nclasses)
		for _, c := range eq[f] {
			count[f][c]++
		}
	}
	var discards [2][]byte
	for f := range 2 {
		end := len(eq[f])
		discards[f] = make([]byte, end)
		counts := count[1-f]
		many := 5
		for tem := end >> 6; ; {
			tem >>= 2
			if tem <= 0 {
				break
			}
			many *= 2
		}
		for i, c := range eq[f] {
			switch n := counts[c]; {
			case n == 0:
				discards[f][i] = 1
			case n > many:
				discards[f][i] = 2
			}
		}
	}
	for f := range 2 {
		refineDiscards(discards[f])
	}
	for f := range 2 {
		for i, c := range eq[f] {
			if minimal || discards[f][i] == 0 {
				und[f] = append(und[f], c)
				real[f] = append(real[f], i)
			} else {
				changed[f][i+1] = true
			}
		}
	}
	return und, real
}

// refineDiscards settles one file's discards as GNU diff's
// discard_confusing_lines does: 1 (matches nothing) stays discarded, 2
// (matches very many) is provisional and stays discarded only within a
// run of discards, not at its ends, nor where 2s make up a quarter of it.
func refineDiscards(d []byte) {
	end := len(d)
	for i := 0; i < end; i++ {
		if d[i] == 2 {
			d[i] = 0
		} else if d[i] != 0 {
			provisional := 0
			j := i
			for ; j < end; j++ {
				if d[j] == 0 {
					break
				}
				if d[j] == 2 {
					provisional++
				}
			}
			for j > i && d[j-1] == 2 {
				j--
				d[j] = 0
				provisional--
			}
			length := j - i
			if provisional*4 > length {
				for j > i {
					j--
					if d[j] == 2 {
						d[j] = 0
					}
				}
			} else {
				minimum := 1
				for tem := length >> 2; ; {
					tem >>= 2
					if tem <= 0 {
						break
					}
					minimum <<= 1
				}
				minimum++
				consec := 0
				for j = 0; j < length; j++ {
					if d[i+j] != 2 {
						consec = 0
					} else {
						consec++
						if minimum == consec {
							j -= consec
						} else if minimum < consec {
							d[i+j] = 0
						}
					}
				}
				consec = 0
				for j = 0; j < length; j++ {
					if j >= 8 && d[i+j] == 1 {
						break
					}
					if d[i+j] == 2 {
						consec = 0
						d[i+j] = 0
					} else if d[i+j] == 0 {
						consec = 0
					} else {
						consec++
					}
					if consec == 3 {
						break
					}
				}
				i += length - 1
				consec = 0
				for j = 0; j < length; j++ {
					if j >= 8 && d[i-j] == 1 {
						break
					}
					if d[i-j] == 2 {
						consec = 0
						d[i-j] = 0
					} else if d[i-j] == 0 {
						consec = 0
					} else {
						consec++
					}
					if consec == 3 {
						break
					}
				}
			}
		}
	}
}

// diffSeq is the state of Myers' algorithm (gnulib diffseq.h).
type diffSeq struct {
	xv, yv       []int
	fd, bd       []int // indexed by diagonal + off
	off          int
	tooExpensive int
	noteDelete   func(x int)
	noteInsert   func(y int)
	ctx          context.Context
	steps        int
}

type diffPartition struct {
	xmid, ymid           int
	loMinimal, hiMinimal bool
}

// diag finds the midpoint of the shortest edit script for
// xv[xoff:xlim] and yv[yoff:ylim].
func (s *diffSeq) diag(xoff, xlim, yoff, ylim int, findMinimal bool) diffPartition {
	fd, bd, xv, yv, o := s.fd, s.bd, s.xv, s.yv, s.off
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	odd := (fmid-bmid)&1 != 0
	fd[fmid+o] = xoff
	bd[bmid+o] = xlim
	for c := 1; ; c++ {
		if fmin > dmin {
			fmin--
			fd[fmin-1+o] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[fmax+1+o] = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			tlo, thi := fd[d-1+o], fd[d+1+o]
			x0 := tlo + 1
			if tlo < thi {
				x0 = thi
			}
			x, y := x0, x0-d
			for x < xlim && y < ylim && xv[x] == yv[y] {
				x++
				y++
			}
			fd[d+o] = x
			if odd && bmin <= d && d <= bmax && bd[d+o] <= x {
				return diffPartition{x, y, true, true}
			}
		}
		if bmin > dmin {
			bmin--
			bd[bmin-1+o] = math.MaxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[bmax+1+o] = math.MaxInt
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			tlo, thi := bd[d-1+o], bd[d+1+o]
			x0 := thi - 1
			if tlo < thi {
				x0 = tlo
			}
			x, y := x0, x0-d
			for xoff < x && yoff < y && xv[x-1] == yv[y-1] {
				x--
				y--
			}
			bd[d+o] = x
			if !odd && fmin <= d && d <= fmax && x <= fd[d+o] {
				return diffPartition{x, y, true, true}
			}
		}
		if findMinimal {
			continue
		}
		if c >= s.tooExpensive {
			// Give up: report halfway between the best results so far.
			fxybest, fxbest := -1, 0
			for d := fmax; d >= fmin; d -= 2 {
				x := min(fd[d+o], xlim)
				y := x - d
				if ylim < y {
					x, y = ylim+d, ylim
				}
				if fxybest < x+y {
					fxybest, fxbest = x+y, x
				}
			}
			bxybest, bxbest := math.MaxInt, 0
			for d := bmax; d >= bmin; d -= 2 {
				x := max(xoff, bd[d+o])
				y := x - d
				if y < yoff {
					x, y = yoff+d, yoff
				}
				if x+y < bxybest {
					bxybest, bxbest = x+y, x
				}
			}
			if (xlim+ylim)-bxybest < fxybest-(xoff+yoff) {
				return diffPartition{fxbest, fxybest - fxbest, true, false}
			}
			return diffPartition{bxbest, bxybest - bxbest, false, true}
		}
	}
}

// compareseq compares xv[xoff:xlim] with yv[yoff:ylim], noting deletions
// and insertions. It returns true if the comparison was cancelled.
func (s *diffSeq) compareseq(xoff, xlim, yoff, ylim int, findMinimal bool) bool {
	if s.steps++; s.steps&0xff == 0 && s.ctx.Err() != nil {
		return true
	}
	xv, yv := s.xv, s.yv
	for xoff < xlim && yoff < ylim && xv[xoff] == yv[yoff] {
		xoff++
		yoff++
	}
	for xoff < xlim && yoff < ylim && xv[xlim-1] == yv[ylim-1] {
		xlim--
		ylim--
	}
	switch {
	case xoff == xlim:
		for yoff < ylim {
			s.noteInsert(yoff)
			yoff++
		}
	case yoff == ylim:
		for xoff < xlim {
			s.noteDelete(xoff)
			xoff++
		}
	default:
		p := s.diag(xoff, xlim, yoff, ylim, findMinimal)
		if s.compareseq(xoff, p.xmid, yoff, p.ymid, p.loMinimal) {
			return true
		}
		if s.compareseq(p.xmid, xlim, p.ymid, ylim, p.hiMinimal) {
			return true
		}
	}
	return false
}

// shiftBoundaries slides runs of changes so that they merge with other
// runs and, failing that, sit as far down as they can (GNU's
// shift_boundaries). changed[f][i+1] is line i; both ends are sentinels.
func shiftBoundaries(eq [2][]int, changed [2][]bool) {
	for f := range 2 {
		chf, ochf := changed[f], changed[1-f]
		get := func(i int) bool { return chf[i+1] }
		set := func(i int, v bool) { chf[i+1] = v }
		oget := func(j int) bool { return ochf[j+1] }
		equivs := eq[f]
		iEnd := len(equivs)
		i, j := 0, 0
		for {
			for i < iEnd && !get(i) {
				for oget(j) {
					j++
				}
				j++
				i++
			}
			if i == iEnd {
				break
			}
			start := i
			i++
			for get(i) {
				i++
			}
			for oget(j) {
				j++
			}
			var runlength, corresponding int
			for {
				runlength = i - start
				for start > 0 && equivs[start-1] == equivs[i-1] {
					start--
					set(start, true)
					i--
					set(i, false)
					for get(start - 1) {
						start--
					}
					j--
					for oget(j) {
						j--
					}
				}
				if oget(j - 1) {
					corresponding = i
				} else {
					corresponding = iEnd
				}
				for i != iEnd && equivs[start] == equivs[i] {
					set(start, false)
					start++
					set(i, true)
					i++
					for get(i) {
						i++
					}
					j++
					for oget(j) {
						j++
						corresponding = i
					}
				}
				if runlength == i-start {
					break
				}
			}
			for corresponding < i {
				start--
				set(start, true)
				i--
				set(i, false)
				j--
				for oget(j) {
					j--
				}
			}
		}
	}
}
