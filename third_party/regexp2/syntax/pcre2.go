package syntax

// llmsh: PCRE2 10.42's rules and spellings, for GNU grep -P
// (ParseOptions.PCRE2). See LLMSH.md.

import (
	"math"
	"strconv"
	"strings"
	"unicode"
)

// KeepName is the name of the empty capture group that stands for PCRE2's
// \K ("keep what was matched so far out of the match") when
// ParseOptions.PCRE2 is set: the engine has no such instruction, so the
// caller starts the match where this group matched. No group written in
// a pattern can have this name.
const KeepName = `\K`

// PCRE2's errors for what regexp2 alone would take, in PCRE2's words.
const (
	ErrLookbehindNotFixed  ErrorCode = "lookbehind assertion is not fixed length"
	ErrKeepInLookaround    ErrorCode = "\\K is not allowed in lookarounds (but see PCRE2_EXTRA_ALLOW_LOOKAROUND_BSK)"
	ErrBadGReference       ErrorCode = "\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number"
	ErrQuantifierTooBig    ErrorCode = "number too big in {} quantifier"
	ErrDuplicateName       ErrorCode = "two named subpatterns have the same name (PCRE2_DUPNAMES not set)"
	ErrNameStartsWithDigit ErrorCode = "subpattern name must start with a non-digit"
	ErrUnsupportedEscape   ErrorCode = "PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u"
	ErrUnknownPOSIXClass   ErrorCode = "unknown POSIX class name"
	ErrEscapeInClass       ErrorCode = "escape sequence is invalid in character class"
	ErrNInClass            ErrorCode = "\\N is not supported in a class"
	ErrMissingOctalBrace   ErrorCode = "missing closing brace in \\o{...}"
)

// pcre2MaxRepeat is the largest count of a {n,m} quantifier in PCRE2.
const pcre2MaxRepeat = 65535

// pcre2SkipVerbs drops the option settings that may start a PCRE2
// pattern, (*UTF), (*UCP), (*CR), (*LIMIT_MATCH=10) and the like: grep
// reads UTF-8 already, splits the lines itself and bounds a match by time.
func pcre2SkipVerbs(re string) string {
	for strings.HasPrefix(re, "(*") {
		end := strings.IndexByte(re, ')')
		if end < 0 {
			return re
		}
		for _, c := range re[2:end] {
			if !(c >= 'A' && c <= 'Z' || c == '_' || c == '=' || c >= '0' && c <= '9') {
				return re
			}
		}
		re = re[end+1:]
	}
	return re
}

// pcre2State is what the parser keeps for the PCRE2 rules.
type pcre2State struct {
	on      bool
	err     error               // the first PCRE2 rule broken, told after the parse
	looks   int                 // look-arounds open, where \K is refused
	opened  int                 // capture groups opened so far, for \g{-N}
	sawKeep bool                // countCaptures met a \K
	groups  map[int]*RegexNode  // closed capture groups; nil while open
	lengths map[*RegexNode]int  // fixed lengths computed for groups
	walking map[*RegexNode]bool // groups whose length is being computed
	// onigOn: the Oniguruma option, whose look-behind rules replace
	// PCRE2's (onig.go); onig, the look-behinds open.
	onigOn bool
	onig   map[*RegexNode]*onigLook
}

// lengthVaries is the length of what matches strings of several lengths.
const lengthVaries = -1

// pcre2Defer notes err as the pattern's error unless one came before; it
// is told once the parse succeeds, as PCRE2 checks these rules after its
// syntax.
func (p *parser) pcre2Defer(code ErrorCode) {
	if p.pcre.err == nil {
		p.pcre.err = p.getErr(code)
	}
}

// pcre2OpenGroup notes a group just opened.
func (p *parser) pcre2OpenGroup(g *RegexNode) {
	switch g.T {
	case NtPosLook, NtNegLook:
		p.pcre.looks++
	case NtCapture:
		p.pcre.opened++
		if p.pcre.groups == nil {
			p.pcre.groups = map[int]*RegexNode{}
		}
		p.pcre.groups[g.M] = nil
	}
}

// pcre2Branch checks, when the group being closed or continued is a
// lookbehind, that the branch just finished (p.concatenation) has a fixed
// length: PCRE2 takes branches of different lengths (?<=a|bc), but
// nothing whose length varies inside a branch (?<=a(b|cd)). It runs before
// the branch joins the alternation, whose reduction may fold branches
// together (ab|abcd into ab(?:|cd)).
func (p *parser) pcre2Branch() {
	g := p.group
	if !p.pcre.on || g.T != NtPosLook && g.T != NtNegLook || g.Options&RightToLeft == 0 {
		return
	}
	if p.pcre.onigOn {
		p.onigBranch(g, p.concatenation) // Oniguruma's rules instead
		return
	}
	if p.fixedLength(p.concatenation) == lengthVaries {
		p.pcre2Defer(ErrLookbehindNotFixed)
	}
}

// pcre2CloseGroup notes the group p.group, just closed.
func (p *parser) pcre2CloseGroup() {
	switch p.group.T {
	case NtPosLook, NtNegLook:
		p.pcre.looks--
		if p.pcre.onigOn {
			p.onigClose(p.group)
		}
	case NtCapture:
		if p.pcre.groups != nil {
			p.pcre.groups[p.group.M] = p.group
		}
	}
}

// fixedLength returns the length of every string n matches, or
// lengthVaries, as PCRE2 computes it for a lookbehind.
func (p *parser) fixedLength(n *RegexNode) int {
	switch n.T {
	case NtOne, NtNotone, NtSet:
		return 1
	case NtMulti:
		return len(n.Str)
	case NtOneloop, NtNotoneloop, NtSetloop, NtOnelazy, NtNotonelazy, NtSetlazy,
		NtOneloopatomic, NtNotoneloopatomic, NtSetloopatomic:
		if n.M == n.N {
			return n.M
		}
		return lengthVaries
	case NtRef:
		return p.refLength(n.M)
	case NtBol, NtEol, NtBoundary, NtNonboundary, NtBeginning, NtStart, NtEndZ, NtEnd,
		NtNothing, NtEmpty, NtPosLook, NtNegLook, NtECMABoundary, NtNonECMABoundary,
		NtUpdateBumpalong, NtResetCapture:
		return 0
	case NtConcatenate:
		total := 0
		for _, c := range n.Children {
			l := p.fixedLength(c)
			if l == lengthVaries || total > math.MaxInt32-l {
				return lengthVaries
			}
			total += l
		}
		return total
	case NtAlternate, NtBackRefCond, NtExprCond:
		return p.branchesLength(n)
	case NtLoop, NtLazyloop:
		l := p.fixedLength(n.Children[0])
		if l == lengthVaries || n.M != n.N || l > 0 && n.M > math.MaxInt32/l {
			return lengthVaries
		}
		return l * n.M
	case NtCapture, NtGroup, NtAtomic:
		return p.fixedLength(n.Children[0])
	}
	return lengthVaries // \X
}

// branchesLength is the length of the branches of an alternation or a
// conditional when they are all as long.
func (p *parser) branchesLength(n *RegexNode) int {
	branches := n.Children
	if n.T == NtExprCond {
		branches = branches[1:] // the condition
	}
	if n.T != NtAlternate && len(branches) < 2 {
		branches = append(branches[:len(branches):len(branches)], newRegexNode(NtEmpty, n.Options)) // (?(1)a): an empty "no"
	}
	common := 0
	for i, b := range branches {
		l := p.fixedLength(b)
		if l == lengthVaries || i > 0 && l != common {
			return lengthVaries
		}
		common = l
	}
	return common
}

// refLength is the length of a back-reference to group slot: its group's
// when that is fixed, varying when the group is still open (the reference
// is inside it), and 0 when the group comes later (PCRE2 takes it).
func (p *parser) refLength(slot int) int {
	g, seen := p.pcre.groups[slot]
	switch {
	case !seen:
		return 0
	case g == nil || p.pcre.walking[g]:
		return lengthVaries
	}
	if l, ok := p.pcre.lengths[g]; ok {
		return l
	}
	if p.pcre.walking == nil {
		p.pcre.walking = map[*RegexNode]bool{}
		p.pcre.lengths = map[*RegexNode]int{}
	}
	p.pcre.walking[g] = true
	l := p.fixedLength(g)
	delete(p.pcre.walking, g)
	p.pcre.lengths[g] = l
	return l
}

// scanPCRE2Escape reads the escapes PCRE2 has and regexp2 lacks, after the
// backslash: \K, \g's back-references (\gN \g-N \g{N} \g{-N} \g{name})
// and \k{name}. It returns handled false for any other escape.
func (p *parser) scanPCRE2Escape(scanOnly bool) (n *RegexNode, handled bool, err error) {
	switch p.rightChar(0) {
	case 'K':
		p.moveRight(1)
		if scanOnly {
			p.pcre.sawKeep = true
			return nil, true, nil
		}
		if p.pcre.looks > 0 {
			p.pcre2Defer(ErrKeepInLookaround)
		}
		keep := newRegexNodeMN(NtCapture, p.options, p.captureSlotFromName(KeepName), -1)
		keep.addChild(newRegexNode(NtEmpty, p.options))
		return keep, true, nil
	case 'g':
		n, err := p.scanGReference(scanOnly)
		return n, true, err
	case 'k':
		if p.charsRight() < 2 || p.rightChar(1) != '{' {
			return nil, false, nil
		}
		p.moveRight(2)
		n, err := p.scanBracedReference(scanOnly, false)
		return n, true, err
	case 'u', 'U', 'L', 'l', 'F':
		return nil, true, p.getErr(ErrUnsupportedEscape)
	case 'N':
		if p.charsRight() < 2 || p.rightChar(1) != '{' {
			return nil, false, nil
		}
		p.moveRight(2)
		n, err := p.scanNamedChar()
		return n, true, err
	case 'o':
		if p.charsRight() < 2 || p.rightChar(1) != '{' {
			return nil, false, nil
		}
		p.moveRight(2)
		n, err := p.scanOctalBraces()
		return n, true, err
	}
	return nil, false, nil
}

// scanPCRE2Hex reads the up to two hex digits after \x, none meaning NUL.
func (p *parser) scanPCRE2Hex() rune {
	var r rune
	for i := 0; i < 2 && p.charsRight() > 0; i++ {
		d := hexDigit(p.rightChar(0))
		if d < 0 {
			break
		}
		r = r*16 + rune(d)
		p.moveRight(1)
	}
	return r
}

// scanNamedChar reads the character of \N{U+hhhh} after the brace; PCRE2
// knows no other name.
func (p *parser) scanNamedChar() (*RegexNode, error) {
	if p.charsRight() < 3 || p.rightChar(0) != 'U' || p.rightChar(1) != '+' {
		return nil, p.getErr(ErrUnsupportedEscape)
	}
	p.moveRight(2)
	ch, err := p.scanHexUntilBrace()
	if err != nil {
		return nil, err
	}
	if p.useOptionI() {
		ch = unicode.ToLower(ch)
	}
	return newRegexNodeCh(NtOne, p.options, ch), nil
}

// scanOctalBraces reads the character of \o{...} after the brace.
func (p *parser) scanOctalBraces() (*RegexNode, error) {
	var ch rune
	digits := 0
	for p.charsRight() > 0 && p.rightChar(0) >= '0' && p.rightChar(0) <= '7' {
		ch = ch*8 + p.rightChar(0) - '0'
		if ch > unicode.MaxRune {
			return nil, p.getErr(ErrInvalidHex)
		}
		p.moveRight(1)
		digits++
	}
	if digits == 0 || p.charsRight() == 0 || p.rightChar(0) != '}' {
		return nil, p.getErr(ErrMissingOctalBrace)
	}
	p.moveRight(1)
	if p.useOptionI() {
		ch = unicode.ToLower(ch)
	}
	return newRegexNodeCh(NtOne, p.options, ch), nil
}

// scanGReference reads \g's back-reference after the backslash.
func (p *parser) scanGReference(scanOnly bool) (*RegexNode, error) {
	p.moveRight(1)
	if p.charsRight() > 0 && p.rightChar(0) == '{' {
		p.moveRight(1)
		return p.scanBracedReference(scanOnly, true)
	}
	start := p.textpos()
	if p.charsRight() > 0 && p.rightChar(0) == '-' {
		p.moveRight(1)
	}
	for p.charsRight() > 0 && p.rightChar(0) >= '0' && p.rightChar(0) <= '9' {
		p.moveRight(1)
	}
	text := string(p.pattern[start:p.textpos()])
	if text == "" || text == "-" {
		return nil, p.getErr(ErrBadGReference)
	}
	return p.numberedReference(scanOnly, text)
}

// scanBracedReference reads NAME} or, when numbers are taken (\g{),
// N} or -N}, after the brace.
func (p *parser) scanBracedReference(scanOnly, numbers bool) (*RegexNode, error) {
	start := p.textpos()
	for p.charsRight() > 0 && p.rightChar(0) != '}' {
		p.moveRight(1)
	}
	text := string(p.pattern[start:p.textpos()])
	if p.charsRight() == 0 || text == "" {
		if numbers {
			return nil, p.getErr(ErrBadGReference)
		}
		return nil, p.getErr(ErrMalformedNameRef)
	}
	p.moveRight(1) // }
	if numbers && (text[0] == '-' || text[0] >= '0' && text[0] <= '9') {
		return p.numberedReference(scanOnly, text)
	}
	if scanOnly {
		return nil, nil
	}
	if !p.isCaptureName(text) {
		return nil, p.getErr(ErrUndefinedNameRef, text)
	}
	return p.namedReference(text), nil
}

// numberedReference is the back-reference N or, for -N, to the Nth group
// opened before it.
func (p *parser) numberedReference(scanOnly bool, text string) (*RegexNode, error) {
	num, err := strconv.Atoi(text)
	if err != nil || num == 0 {
		return nil, p.getErr(ErrBadGReference)
	}
	if scanOnly {
		return nil, nil
	}
	if num < 0 {
		num += p.pcre.opened + 1
	}
	if num <= 0 || !p.isCaptureSlot(num) {
		return nil, p.getErr(ErrUndefinedBackRef, num)
	}
	return newRegexNodeM(NtRef, p.options, num), nil
}
