package builtins

import (
	"bufio"
	"strings"
)

// grepColors are GNU grep 3.8's colours (--color): the SGR parameters
// of each part of the output, from GREP_COLORS over the defaults.
type grepColors struct {
	ms, mc, sl, cx, fn, ln, bn, se string
	// rv swaps sl and cx for the lines of -v.
	rv bool
	// ne leaves out the \x1b[K (erase to the end of the line) after
	// each sequence.
	ne bool
}

// grepDefaultColors is what grep colours with no GREP_COLORS.
var grepDefaultColors = grepColors{ms: "01;31", mc: "01;31", fn: "35", ln: "32", bn: "32", se: "36"}

// grepColorsFrom reads the script's GREP_COLORS (and the deprecated
// GREP_COLOR) as grep 3.8's main and parse_grep_colors do; warn is the
// deprecation warning grep prints when GREP_COLOR is what colours
// matches.
func grepColorsFrom(environ []string) (c *grepColors, warn string) {
	col := grepDefaultColors
	c = &col
	legacy, _ := envLookup(environ, "GREP_COLOR")
	if legacy == "" || strings.Trim(legacy, "0123456789;") != "" {
		legacy = ""
	} else {
		c.ms, c.mc = legacy, legacy
	}
	msSet, mcSet := false, false
	if v, ok := envLookup(environ, "GREP_COLORS"); ok && v != "" {
		msSet, mcSet = c.parse(v)
	}
	if legacy != "" && (!msSet || !mcSet) {
		warn = "warning: GREP_COLOR='" + legacy + "' is deprecated; use GREP_COLORS='mt=" + legacy + "'"
	}
	return c, warn
}

// parse applies a GREP_COLORS value: "name=val" and boolean "name"
// capabilities separated by ':'. As grep's, a capability takes effect
// when its ':' (or the end) is reached, an unknown name is skipped, and
// the first malformed byte (an '=' with no name or a second one, a value
// byte other than a digit or ';') stops the parse, keeping what came
// before. msSet and mcSet report that ms and mc were given a value.
func (c *grepColors) parse(s string) (msSet, mcSet bool) {
	vars := map[string]*string{"ms": &c.ms, "mc": &c.mc, "sl": &c.sl, "cx": &c.cx, "fn": &c.fn, "ln": &c.ln, "bn": &c.bn, "se": &c.se}
	for {
		item, rest, more := strings.Cut(s, ":")
		name, val, hasVal := strings.Cut(item, "=")
		if name == "" && hasVal || strings.Contains(val, "=") || strings.Trim(val, "0123456789;") != "" {
			return msSet, mcSet
		}
		switch {
		case name == "mt":
			if hasVal {
				c.ms, msSet = val, true
			}
			c.mc, mcSet = c.ms, msSet
		case name == "rv":
			c.rv = true
		case name == "ne":
			c.ne = true
		case vars[name] != nil && hasVal:
			*vars[name] = val
			msSet = msSet || name == "ms"
			mcSet = mcSet || name == "mc"
		}
		if !more {
			return msSet, mcSet
		}
		s = rest
	}
}

// put writes text in the colour cap (none when cap is empty).
func (c *grepColors) put(w *bufio.Writer, cap string, text []byte) {
	c.begin(w, cap)
	w.Write(text)
	c.finish(w, cap)
}

// begin starts colour cap, if any (grep's pr_sgr_start).
func (c *grepColors) begin(w *bufio.Writer, cap string) {
	if cap == "" {
		return
	}
	w.WriteString("\x1b[")
	w.WriteString(cap)
	w.WriteByte('m')
	if !c.ne {
		w.WriteString("\x1b[K")
	}
}

// finish ends colour cap, if any (grep's pr_sgr_end).
func (c *grepColors) finish(w *bufio.Writer, cap string) {
	if cap == "" {
		return
	}
	w.WriteString("\x1b[m")
	if !c.ne {
		w.WriteString("\x1b[K")
	}
}
