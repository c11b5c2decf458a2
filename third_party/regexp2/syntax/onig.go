package syntax

// llmsh: Oniguruma's look-behind rules, for jq (the Oniguruma option).
// See LLMSH.md.

import "math"

// ErrOnigLookbehind is Oniguruma's error for a look-behind it cannot run.
const ErrOnigLookbehind ErrorCode = "invalid pattern in look-behind"

// onigLook is what the parser gathers about the branches of a look-behind
// under the Oniguruma option, told when the group closes (onigClose).
type onigLook struct {
	bad      bool  // a construct Oniguruma refuses in a look-behind
	min      int   // the least length of the branches so far
	unsure   bool  // an anchor, a group or a reference makes min unsure
	lens     []int // the branches' lengths, leading counts reduced
	branches int
}

// onigBranch notes the branch br of the look-behind g (its children in
// the order written).
func (p *parser) onigBranch(g, br *RegexNode) {
	if p.pcre.onig == nil {
		p.pcre.onig = map[*RegexNode]*onigLook{}
	}
	st := p.pcre.onig[g]
	if st == nil {
		st = &onigLook{}
		p.pcre.onig[g] = st
	}
	if onigForbidden(br, g.T == NtNegLook) {
		st.bad = true
	}
	min, sure := onigMin(br)
	if st.branches == 0 || min < st.min {
		st.min = min
	}
	st.unsure = st.unsure || !sure
	st.branches++
	st.lens = p.onigLens(br, false, st.lens)
}

// onigClose checks the look-behind g as it closes: Oniguruma 6.9.9 (jq
// 1.7.1's, Perl_NT syntax) refuses a look-ahead, a $, \z or \Z inside,
// a negative look-behind in a positive one and a capture in a negative
// one; one that may match nothing (and holds no anchor, group or
// reference) always holds (a* or a|); otherwise every branch must match
// strings of one length, all the same ((?<=ab|cd), not (?<=ab|c)), but
// that a count first in a branch counts as its least ((?<=a{1,2}b) is
// (?<=ab), (?<=\d+) is (?<=\d)) when what it repeats has one length and no
// group or alternation, and its most is bounded, it is lazy or it is all
// the branch. These rules are found from jq 1.7.1's answers.
func (p *parser) onigClose(g *RegexNode) {
	st := p.pcre.onig[g]
	if st == nil {
		return
	}
	delete(p.pcre.onig, g)
	if st.bad {
		p.pcre2Defer(ErrOnigLookbehind)
		return
	}
	if st.min == 0 && !st.unsure {
		return
	}
	for _, l := range st.lens {
		if l == lengthVaries || l != st.lens[0] {
			p.pcre2Defer(ErrOnigLookbehind)
			return
		}
	}
}

// onigForbidden reports whether n holds what Oniguruma refuses in a
// look-behind (neg: a negative one).
func onigForbidden(n *RegexNode, neg bool) bool {
	switch n.T {
	case NtEol, NtEndZ, NtEnd:
		return true
	case NtPosLook, NtNegLook:
		if n.Options&RightToLeft == 0 || n.T == NtNegLook && !neg {
			return true
		}
	case NtCapture:
		if neg {
			return true
		}
	}
	for _, c := range n.Children {
		if onigForbidden(c, neg) {
			return true
		}
	}
	return false
}

// onigMin is the least length of what n matches, and whether that is
// sure: no anchor, group, reference or look-around is in n.
func onigMin(n *RegexNode) (int, bool) {
	switch n.T {
	case NtOne, NtNotone, NtSet:
		return 1, true
	case NtMulti:
		return len(n.Str), true
	case NtOneloop, NtNotoneloop, NtSetloop, NtOnelazy, NtNotonelazy, NtSetlazy,
		NtOneloopatomic, NtNotoneloopatomic, NtSetloopatomic:
		return n.M, true
	case NtEmpty, NtNothing:
		return 0, true
	case NtConcatenate:
		total, sure := 0, true
		for _, c := range n.Children {
			l, s := onigMin(c)
			total = min(total+l, math.MaxInt32)
			sure = sure && s
		}
		return total, sure
	case NtAlternate:
		least, sure := 0, true
		for i, c := range n.Children {
			l, s := onigMin(c)
			if i == 0 || l < least {
				least = l
			}
			sure = sure && s
		}
		return least, sure
	case NtLoop, NtLazyloop:
		l, s := onigMin(n.Children[0])
		return min(l*n.M, math.MaxInt32), s
	case NtGroup, NtAtomic:
		return onigMin(n.Children[0])
	case NtCapture:
		l, _ := onigMin(n.Children[0])
		return l, false
	}
	return 0, false
}

// onigLens appends to lens the length of the branch br, its leading count
// reduced (lengthVaries when it varies still); a branch that is one
// non-capturing group or alternation gives its branches' lengths. reversed: br's children
// are in matching order, right to left (a closed group's).
func (p *parser) onigLens(br *RegexNode, reversed bool, lens []int) []int {
	kids := []*RegexNode{br}
	if br.T == NtConcatenate {
		kids = br.Children
	}
	if len(kids) == 1 && (kids[0].T == NtGroup || kids[0].T == NtAlternate) {
		in := kids[0]
		if in.T == NtGroup {
			in = in.Children[0]
		}
		if in.T == NtAlternate {
			for _, c := range in.Children {
				lens = p.onigLens(c, true, lens)
			}
			return lens
		}
		return p.onigLens(in, true, lens)
	}
	if len(kids) == 0 {
		return append(lens, 0)
	}
	head := 0
	if reversed && br.Options&RightToLeft != 0 {
		head = len(kids) - 1
	}
	total := 0
	for i, c := range kids {
		l := lengthVaries
		if i == head {
			l = p.onigHead(c, len(kids) == 1)
		}
		if l == lengthVaries {
			l = p.fixedLength(c)
		}
		if l == lengthVaries || total > math.MaxInt32-l {
			return append(lens, lengthVaries)
		}
		total += l
	}
	return append(lens, total)
}

// onigHead is the length of n, a branch's first element, when it is a
// count that Oniguruma reduces to its least (alone: all the branch), else
// lengthVaries.
func (p *parser) onigHead(n *RegexNode, alone bool) int {
	lazy := false
	body := 1
	switch n.T {
	case NtOnelazy, NtNotonelazy, NtSetlazy:
		lazy = true
	case NtOneloop, NtNotoneloop, NtSetloop:
	case NtLazyloop, NtLoop:
		lazy = n.T == NtLazyloop
		if onigHasGroup(n.Children[0]) {
			return lengthVaries
		}
		body = p.fixedLength(n.Children[0])
		if body == lengthVaries {
			return lengthVaries
		}
	default:
		return lengthVaries
	}
	if n.N == math.MaxInt32 && !lazy && !alone {
		return lengthVaries
	}
	if body > 0 && n.M > math.MaxInt32/body {
		return lengthVaries
	}
	return body * n.M
}

// onigHasGroup reports whether n holds a capture or an alternation.
func onigHasGroup(n *RegexNode) bool {
	if n.T == NtCapture || n.T == NtAlternate && len(n.Children) > 1 {
		return true
	}
	for _, c := range n.Children {
		if onigHasGroup(c) {
			return true
		}
	}
	return false
}
