package builtins

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// PCRE2 10.42 (GNU grep 3.8's -P on Debian 12) compiles a lookbehind only
// when each of its top-level branches matches strings of one length:
// (?<=ab|c) is taken, (?<=a+), (?<=\s*), (?<=a(b|cd)) are refused with
// "lookbehind assertion is not fixed length", and a \K inside any
// look-around is refused too. regexp2 takes them all (.NET's lookbehind
// has no such limit), so the pattern is checked first, as PCRE2 would.

const (
	grepLBNotFixed = "lookbehind assertion is not fixed length"
	grepLBBackslK  = "\\K is not allowed in lookarounds (but see PCRE2_EXTRA_ALLOW_LOOKAROUND_BSK)"
)

// grepLBVar is the length of what matches strings of several lengths.
const grepLBVar = -1

// grepLookbehindCheck returns PCRE2's compile error for expr's
// look-arounds, or "".
func grepLookbehindCheck(expr string) string {
	p := &grepLBParser{s: expr}
	p.alt(0, false)
	return p.err
}

type grepLBParser struct {
	s      string
	i      int
	err    string
	inLook bool // inside a look-around, where \K is refused
}

// alt parses branches up to the closing parenthesis of a group (or the
// end) and returns their common length, grepLBVar when they differ. In a
// lookbehind (behind), each branch must be of fixed length on its own.
func (p *grepLBParser) alt(depth int, behind bool) int {
	common, first := 0, true
	for {
		n := p.seq(depth)
		if behind && n == grepLBVar && p.err == "" {
			p.err = grepLBNotFixed
		}
		if first {
			common, first = n, false
		} else if n != common {
			common = grepLBVar
		}
		if p.i < len(p.s) && p.s[p.i] == '|' {
			p.i++
			continue
		}
		return common
	}
}

// seq parses a branch: atoms and their quantifiers up to | or ) or the
// end, and returns its length.
func (p *grepLBParser) seq(depth int) int {
	total := 0
	for p.i < len(p.s) && p.err == "" {
		c := p.s[p.i]
		if c == '|' || c == ')' && depth > 0 {
			break
		}
		if c == ')' { // unbalanced: regexp2 reports it
			p.i++
			continue
		}
		n := p.atom(depth)
		n = p.quant(n)
		if n == grepLBVar || total == grepLBVar {
			total = grepLBVar
		} else {
			total += n
		}
	}
	return total
}

// atom parses one item and returns its length.
func (p *grepLBParser) atom(depth int) int {
	c := p.s[p.i]
	switch c {
	case '(':
		p.i++
		return p.group(depth)
	case '[':
		p.class()
		return 1
	case '\\':
		return p.escape(depth)
	case '^', '$':
		p.i++
		return 0
	}
	_, size := utf8.DecodeRuneInString(p.s[p.i:])
	p.i += size
	return 1
}

// group parses a group after its "(", to its ")".
func (p *grepLBParser) group(depth int) int {
	look, behind := false, false
	zero := false
	if p.i < len(p.s) && p.s[p.i] == '?' {
		rest := p.s[p.i+1:]
		switch {
		case hasAnyPrefix(rest, "<=", "<!"):
			look, behind, zero = true, true, true
			p.i += 3
		case hasAnyPrefix(rest, "=", "!"):
			look, zero = true, true
			p.i += 2
		case hasAnyPrefix(rest, "#"):
			for p.i < len(p.s) && p.s[p.i] != ')' {
				p.i++
			}
			p.i++
			return 0
		default:
			p.groupPrefix()
		}
	}
	saved := p.inLook
	p.inLook = p.inLook || look
	n := p.alt(depth+1, behind)
	p.inLook = saved
	if p.i < len(p.s) && p.s[p.i] == ')' {
		p.i++
	}
	if zero {
		return 0
	}
	return n
}

// groupPrefix skips what follows "(?" in a group that is no look-around:
// ":", ">", "|", a name (<n> 'n' P<n>) or options (i-s: or i-s)).
func (p *grepLBParser) groupPrefix() {
	p.i++ // the ?
	if p.i >= len(p.s) {
		return
	}
	switch p.s[p.i] {
	case ':', '>', '|':
		p.i++
		return
	case 'P':
		p.i++
	}
	if p.i < len(p.s) && (p.s[p.i] == '<' || p.s[p.i] == '\'') {
		end := byte('>')
		if p.s[p.i] == '\'' {
			end = '\''
		}
		for p.i < len(p.s) && p.s[p.i] != end {
			p.i++
		}
		p.i++
		return
	}
	for p.i < len(p.s) && p.s[p.i] != ':' && p.s[p.i] != ')' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == ':' {
		p.i++
	}
}

// class skips a bracket expression.
func (p *grepLBParser) class() {
	p.i++
	if p.i < len(p.s) && p.s[p.i] == '^' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
	}
	for p.i < len(p.s) && p.s[p.i] != ']' {
		switch {
		case p.s[p.i] == '\\':
			p.i++
		case hasAnyPrefix(p.s[p.i:], "[:", "[=", "[."):
			for p.i+1 < len(p.s) && p.s[p.i+1] != ']' {
				p.i++
			}
			p.i++
		}
		p.i++
	}
	p.i++
}

// escape parses a backslash escape and returns its length.
func (p *grepLBParser) escape(depth int) int {
	p.i++
	if p.i >= len(p.s) {
		return 0
	}
	c := p.s[p.i]
	p.i++
	switch c {
	case 'b', 'B', 'A', 'z', 'Z', 'G':
		return 0
	case 'K':
		if p.inLook && p.err == "" {
			p.err = grepLBBackslK
		}
		return 0
	case 'R', 'X':
		return grepLBVar
	case 'Q':
		n := 0
		for p.i < len(p.s) && !hasAnyPrefix(p.s[p.i:], `\E`) {
			_, size := utf8.DecodeRuneInString(p.s[p.i:])
			p.i += size
			n++
		}
		p.i += 2
		return n
	case 'E':
		return 0
	case 'x', 'p', 'P', 'o', 'N', 'g', 'k':
		if p.i < len(p.s) && (p.s[p.i] == '{' || p.s[p.i] == '<' || p.s[p.i] == '\'') {
			for p.i < len(p.s) && p.s[p.i] != '}' && p.s[p.i] != '>' && (p.s[p.i] != '\'' || p.s[p.i-1] == 'k' || p.s[p.i-1] == 'g') {
				p.i++
			}
			p.i++
		} else if c == 'x' {
			for k := 0; k < 2 && p.i < len(p.s) && isHexDigit(p.s[p.i]); k++ {
				p.i++
			}
		} else if c == 'p' || c == 'P' {
			p.i++
		}
		return 1 // a backreference is taken as its group's fixed length
	}
	for c >= '1' && c <= '9' && p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++ // a backreference \12
	}
	return 1
}

// quant applies a quantifier after an atom of length n.
func (p *grepLBParser) quant(n int) int {
	if p.i >= len(p.s) {
		return n
	}
	out := n
	switch p.s[p.i] {
	case '*', '+', '?':
		p.i++
		if n != 0 {
			out = grepLBVar
		}
	case '{':
		lo, hi, size, ok := grepLBBraces(p.s[p.i:])
		if !ok {
			return n // a literal {
		}
		p.i += size
		switch {
		case n == grepLBVar:
		case lo == hi:
			out = lo * n
		case n != 0:
			out = grepLBVar
		}
	default:
		return n
	}
	if p.i < len(p.s) && (p.s[p.i] == '?' || p.s[p.i] == '+') {
		p.i++ // lazy or possessive
	}
	return out
}

// grepLBBraces reads a {n}, {n,} or {n,m} quantifier at the start of s.
func grepLBBraces(s string) (lo, hi, size int, ok bool) {
	end := 1
	for end < len(s) && s[end] != '}' {
		end++
	}
	if end >= len(s) {
		return 0, 0, 0, false
	}
	body := s[1:end]
	a, b, comma := body, body, false
	for k := 0; k < len(body); k++ {
		if body[k] == ',' {
			a, b, comma = body[:k], body[k+1:], true
			break
		}
	}
	lo, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, 0, false
	}
	hi = lo
	if comma {
		if b == "" {
			hi = -1
		} else if hi, err = strconv.Atoi(b); err != nil {
			return 0, 0, 0, false
		}
	}
	return lo, hi, end + 1, true
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, pre := range prefixes {
		if len(s) >= len(pre) && s[:len(pre)] == pre {
			return true
		}
	}
	return false
}

// grepPerlBackrefs writes PCRE's back-reference forms that regexp2 lacks
// in the ones it has: \gN, \g{N}, \g{-N} (relative: the Nth group opened
// before it), \g{name}, \k{name} and (?P=name) become (?:\N) and
// \k<name>, and (?P<name> is (?<name>. Bracket expressions and \Q...\E
// are copied as they are.
func grepPerlBackrefs(expr string) string {
	if !strings.Contains(expr, `\g`) && !strings.Contains(expr, `\k{`) && !strings.Contains(expr, `(?P`) {
		return expr
	}
	var b strings.Builder
	groups := 0
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case c == '[':
			p := &grepLBParser{s: expr, i: i}
			p.class()
			end := min(p.i, len(expr))
			b.WriteString(expr[i:end])
			i = end - 1
			continue
		case c == '(':
			rest := expr[i+1:]
			if !strings.HasPrefix(rest, "?") || hasAnyPrefix(rest, "?<", "?P<", "?'") && !hasAnyPrefix(rest, "?<=", "?<!") {
				groups++
			}
			if name, n, ok := grepPerlNamedRef(rest, "?P=", ')'); ok {
				b.WriteString(`\k<` + name + `>`)
				i += n
				continue
			}
			if strings.HasPrefix(rest, "?P<") {
				b.WriteString("(?<")
				i += 3
				continue
			}
		case c == '\\' && i+1 < len(expr):
			if expr[i+1] == 'Q' {
				end := strings.Index(expr[i:], `\E`)
				if end < 0 {
					end = len(expr) - i
				} else {
					end += 2
				}
				b.WriteString(expr[i : i+end])
				i += end - 1
				continue
			}
			if ref, n := grepPerlGRef(expr[i+1:], groups); n > 0 {
				b.WriteString(ref)
				i += n
				continue
			}
			b.WriteString(expr[i : i+2])
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// grepPerlGRef reads a \g or \k{ reference at the start of s (after the
// backslash), groups being the capturing groups opened before it; it
// returns regexp2's form and the bytes of s used (0 when s holds none).
func grepPerlGRef(s string, groups int) (string, int) {
	if name, n, ok := grepPerlNamedRef(s, "k{", '}'); ok {
		return `\k<` + name + `>`, n
	}
	if !strings.HasPrefix(s, "g") {
		return "", 0
	}
	body, n := "", 0
	if name, k, ok := grepPerlNamedRef(s, "g{", '}'); ok {
		body, n = name, k
	} else {
		k := 1
		if k < len(s) && s[k] == '-' {
			k++
		}
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		body, n = s[1:k], k
	}
	num, err := strconv.Atoi(body)
	switch {
	case body == "" || body == "-":
		return "", 0
	case err != nil:
		return `\k<` + body + `>`, n
	case num < 0:
		num = groups + num + 1
	}
	if num <= 0 {
		return "", 0
	}
	return `(?:\` + strconv.Itoa(num) + `)`, n
}

// grepPerlNamedRef reads prefix NAME end at the start of s: the name and
// the bytes used.
func grepPerlNamedRef(s, prefix string, end byte) (string, int, bool) {
	if !strings.HasPrefix(s, prefix) {
		return "", 0, false
	}
	k := strings.IndexByte(s[len(prefix):], end)
	if k <= 0 {
		return "", 0, false
	}
	return s[len(prefix) : len(prefix)+k], len(prefix) + k + 1, true
}
