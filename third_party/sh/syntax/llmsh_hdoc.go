package syntax

import "strings"

// llmsh: bash parses a $( … ) of an unquoted here-document's body when it
// expands the body, as it does a backquoted substitution: a syntax error
// there fails the command that the here-document is for ("command
// substitution: line N: …", status 1) and the script goes on. The parser
// reads such a body with the rest of the script, so parseArithRepair
// sets the substitution aside as it does a backquoted one: the text from
// its $( to the body's last line is blanked into an empty backquoted
// substitution, and the CmdSubst gets the text after the $( as Bad, with
// Backquotes false.

// hdocPlace is an unquoted here-document whose body is being read.
type hdocPlace struct {
	start int    // the offset where the body starts
	stop  string // the delimiter
	tabs  bool   // <<-: leading tabs of the delimiter's line are dropped
}

// hdocSubstSpan finds, for a parse error perr inside a $( … ) of a
// here-document's body in src, the offset d of that $( and the offset
// last where the body's last line ends (before its newline); past is
// set when the error is after the body (the $( is left open in it).
func hdocSubstSpan(src string, perr ParseError) (d, last int, past, ok bool) {
	h := perr.hdoc
	off := int(perr.Pos.Offset())
	if h == nil || h.start > off || off > len(src) {
		return 0, 0, false, false
	}
	end := len(src)
	for i := h.start; i < len(src); {
		j := strings.IndexByte(src[i:], '\n')
		line := src[i:]
		if j >= 0 {
			line = src[i : i+j]
		}
		if h.tabs {
			line = strings.TrimLeft(line, "\t")
		}
		if line == h.stop {
			end = i
			break
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	d = -1
	for i := h.start; i <= off && i+1 < end; i++ {
		switch {
		case src[i] == '\\':
			i++
		case src[i] == '$' && src[i+1] == '(' && (i+2 >= len(src) || src[i+2] != '('):
			d = i
		}
	}
	last = end
	if last > 0 && src[last-1] == '\n' {
		last--
	}
	if d < 0 || last < d+2 {
		return 0, 0, false, false
	}
	return d, last, off >= end, true
}
