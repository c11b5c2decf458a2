package builtins

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// sed --debug, as GNU sed 4.9 prints it on standard output, in the
// stream of sed's own output (written past its rule for a missing last
// newline, and to standard output under -i too): the program in canonical form ("SED
// PROGRAM:"), then for each input line where it came from ("INPUT:"), the
// pattern space ("PATTERN:"), each command as it is reached ("COMMAND:",
// whether its address matches or not), the spaces a command changed
// ("PATTERN:", "HOLD:"), the registers of an s command's first match and
// "END-OF-CYCLE:" where a cycle ends normally or by d, c, n or N.

// sedDebugChar writes c as GNU's debug_print_char does: printable ASCII
// as itself, a backslash doubled, \a \f \r \t \v \n, and any other byte
// as \o and its octal value as a signed char (a byte from 0x80 up is
// \o377777777xx, as sed 4.9 prints it).
func sedDebugChar(b *strings.Builder, c byte) {
	if c >= 0x20 && c < 0x7f && c != '\\' {
		b.WriteByte(c)
		return
	}
	b.WriteByte('\\')
	switch c {
	case '\a':
		b.WriteByte('a')
	case '\f':
		b.WriteByte('f')
	case '\r':
		b.WriteByte('r')
	case '\t':
		b.WriteByte('t')
	case '\v':
		b.WriteByte('v')
	case '\n':
		b.WriteByte('n')
	case '\\':
		b.WriteByte('\\')
	default:
		fmt.Fprintf(b, "o%03o", uint32(int32(int8(c))))
	}
}

// sedDebugRegex writes a regex as /PATTERN/ with its slashes escaped, and
// its flags (I M for an address, i m for s).
func sedDebugRegex(b *strings.Builder, re *sedRegex, addr bool) {
	b.WriteByte('/')
	if re != nil {
		for i := 0; i < len(re.src); i++ {
			if re.src[i] == '/' {
				b.WriteString(`\/`)
			} else {
				sedDebugChar(b, re.src[i])
			}
		}
	}
	b.WriteByte('/')
	if addr {
		sedDebugRegexFlags(b, re, true) // s writes its own after the replacement
	}
}

func sedDebugRegexFlags(b *strings.Builder, re *sedRegex, addr bool) {
	if re == nil || re.src == "" {
		return
	}
	if re.icase {
		b.WriteByte("iI"[btoi(addr)])
	}
	if re.lines {
		b.WriteByte("mM"[btoi(addr)])
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sedDebugAddr(b *strings.Builder, a *sedAddr) {
	switch a.kind {
	case sedAddrLine:
		b.WriteString(strconv.FormatInt(a.n, 10))
	case sedAddrZero:
		b.WriteByte('0')
	case sedAddrLast:
		b.WriteByte('$')
	case sedAddrRE:
		sedDebugRegex(b, a.re, true)
	case sedAddrStep:
		fmt.Fprintf(b, "%d~%d", a.n, a.step)
	case sedAddrPlus:
		fmt.Fprintf(b, "+%d", a.n)
	case sedAddrTilde:
		fmt.Fprintf(b, "~%d", a.n)
	}
}

// debugCommand is the canonical text of c, indented by level, as GNU's
// debug_print_command writes it.
func (prog *sedProg) debugCommand(c *sedCmd, level int) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("  ", level))
	if c.a1 != nil {
		sedDebugAddr(&b, c.a1)
		if c.a2 != nil {
			b.WriteByte(',')
			sedDebugAddr(&b, c.a2)
		}
	}
	if c.neg {
		b.WriteByte('!')
	}
	if c.a1 != nil {
		b.WriteByte(' ')
	}
	b.WriteByte(c.name)
	switch c.name {
	case ':':
		b.WriteString(c.text)
	case 'a', 'i', 'c':
		b.WriteByte('\\')
		b.WriteString(c.textOut())
	case 'b', 't', 'T':
		if c.target < len(prog.cmds) {
			b.WriteString(" " + prog.cmds[c.target].text)
		}
	case 'e', 'r', 'R':
		b.WriteString(" " + c.text)
	case 'w', 'W':
		b.WriteString(c.text)
	case 'l', 'L', 'q', 'Q':
		if c.num >= 0 {
			b.WriteString(" " + strconv.FormatInt(c.num, 10))
		}
	case 's':
		prog.debugSubst(&b, c)
	case 'y':
		var from []rune
		for k, v := range c.ymap {
			if k != v {
				from = append(from, k)
			}
		}
		sort.Slice(from, func(i, j int) bool { return from[i] < from[j] })
		to := make([]rune, len(from))
		for i, k := range from {
			to[i] = c.ymap[k]
		}
		b.WriteByte('/')
		sedDebugRunes(&b, from, c.cloc)
		b.WriteByte('/')
		sedDebugRunes(&b, to, c.cloc)
		b.WriteByte('/')
	}
	return b.String()
}

// debugSubst writes an s command after its name: the regex, the
// replacement (its text raw, & and \N for the groups, \U \L \u \l \E
// where the case conversion changes) and the flags.
func (prog *sedProg) debugSubst(b *strings.Builder, c *sedCmd) {
	sedDebugRegex(b, c.re, false)
	last := byte('E')
	for _, p := range c.repl {
		switch {
		case p.cas != 0:
			if p.cas != last {
				b.WriteString(`\` + string(p.cas))
				last = p.cas
			}
		case p.group == 0:
			b.WriteByte('&')
		case p.group > 0:
			b.WriteString(`\` + strconv.Itoa(p.group))
		default:
			b.Write(p.lit)
		}
	}
	b.WriteByte('/')
	sedDebugRegexFlags(b, c.re, false)
	if c.global {
		b.WriteByte('g')
	}
	if c.eval {
		b.WriteByte('e')
	}
	if c.print > 0 || c.preP {
		b.WriteByte('p')
	}
	if c.nthSet {
		b.WriteString(strconv.Itoa(c.nth))
	}
	if c.wout != nil {
		b.WriteString("w" + c.text)
	}
}

// debugProgram writes "SED PROGRAM:" and the script, one command a line,
// a block's commands indented by two more spaces.
func (r *sedRun) debugProgram() {
	var b strings.Builder
	b.WriteString("SED PROGRAM:\n")
	level := 1
	for _, c := range r.prog.cmds {
		if c.name == '}' {
			level--
		}
		b.WriteString(r.prog.debugCommand(c, level))
		b.WriteByte('\n')
		if c.name == '{' {
			level++
		}
	}
	r.debugOut.WriteString(b.String())
}

// debugExec writes "COMMAND:" and c; the indentation level is kept from
// command to command and from cycle to cycle, as GNU's (a branch out of a
// block leaves it one deeper).
func (r *sedRun) debugExec(c *sedCmd) {
	if c.name == '}' {
		r.debugLevel--
	}
	r.debugOut.WriteString("COMMAND: " + r.prog.debugCommand(c, max(r.debugLevel, 0)) + "\n")
	if c.name == '{' {
		r.debugLevel++
	}
}

// debugSpace writes "PATTERN: " or "HOLD:    " and the space.
func (r *sedRun) debugSpace(hold bool) {
	var b strings.Builder
	s := r.ps
	if hold {
		b.WriteString("HOLD:    ")
		s = r.hs
	} else {
		b.WriteString("PATTERN: ")
	}
	for _, c := range s {
		sedDebugChar(&b, c)
	}
	b.WriteByte('\n')
	r.debugOut.WriteString(b.String())
}

// debugInput writes where the line just read came from and the pattern
// space.
func (r *sedRun) debugInput(in *sedInput) {
	name := in.name
	if name == "-" || name == "" {
		name = "STDIN"
	}
	r.debugOut.WriteString("INPUT:   '" + name + "' line " + strconv.FormatInt(r.lineno, 10) + "\n")
	r.debugSpace(false)
}

// debugPattern shows the pattern space under --debug.
func (r *sedRun) debugPattern() {
	if r.debug {
		r.debugSpace(false)
	}
}

func (r *sedRun) debugEnd() {
	if r.debug {
		r.debugOut.WriteString("END-OF-CYCLE:\n")
	}
}

// debugRegisters writes the registers of an s command's first match:
// the whole match and each group, stopping at one that did not take part.
func (r *sedRun) debugRegisters(ps []byte, loc []int) {
	var b strings.Builder
	b.WriteString("MATCHED REGEX REGISTERS\n")
	for i := 0; 2*i+1 < len(loc); i++ {
		s, e := loc[2*i], loc[2*i+1]
		if s < 0 {
			break
		}
		fmt.Fprintf(&b, "  regex[%d] = %d-%d '%s'\n", i, s, e, ps[s:e])
	}
	r.debugOut.WriteString(b.String())
}

// sedDebugRunes writes rs, each a byte in the C locale (cloc).
func sedDebugRunes(b *strings.Builder, rs []rune, cloc bool) {
	for _, r := range rs {
		if cloc {
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
	}
}
