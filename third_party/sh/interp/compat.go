// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// llmsh: bash's compatibility level: the shopt options compat31 to
// compat44 and $BASH_COMPAT, kept in step as bash 5.2's
// set_compatibility_level and sv_shcompat keep them. Of the language
// changes the levels make, llmsh has compat31's (a quoted =~ operand is
// a regular expression); the others are about locales, posix mode or
// bash's older internals, or change nothing under LC_ALL=C. See LLMSH.md.

import "strconv"

// defaultCompatLevel is bash 5.2's level; minCompatLevel the oldest.
const (
	defaultCompatLevel = 52
	minCompatLevel     = 31
)

// compatOpts are the compatNN options, oldest first, and their levels.
var compatOpts = [...]struct {
	idx   int
	level int
}{
	{bashOptIndex("compat31"), 31},
	{bashOptIndex("compat32"), 32},
	{bashOptIndex("compat40"), 40},
	{bashOptIndex("compat41"), 41},
	{bashOptIndex("compat42"), 42},
	{bashOptIndex("compat43"), 43},
	{bashOptIndex("compat44"), 44},
}

// isCompatOpt reports whether the option at idx is a compatNN option.
func isCompatOpt(idx int) bool {
	for _, c := range &compatOpts {
		if c.idx == idx {
			return true
		}
	}
	return false
}

// setCompatOpt is shopt -s/-u compatNN: turning one on turns the others
// off; then the level is the oldest left on (bash's default when none
// is), and BASH_COMPAT is set to it.
func (r *Runner) setCompatOpt(idx int, on bool) {
	if on {
		for _, c := range &compatOpts {
			r.opts[c.idx] = false
		}
	}
	r.opts[idx] = on
	level := defaultCompatLevel
	for _, c := range &compatOpts {
		if r.opts[c.idx] {
			level = c.level
			break
		}
	}
	r.compatLevel = level
	r.setVarString("BASH_COMPAT", strconv.Itoa(level))
}

// assignCompat is bash's sv_shcompat, run when BASH_COMPAT is assigned
// or unset (set is false): "4.2" or "42" sets the level, from 31 to 52;
// unset or empty is the default level; anything else is bash's error and
// the default level.
func (r *Runner) assignCompat(value string, set bool) {
	level := defaultCompatLevel
	if set && value != "" {
		v := -1
		isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
		switch {
		case len(value) == 3 && isDigit(value[0]) && value[1] == '.' && isDigit(value[2]):
			v = int(value[0]-'0')*10 + int(value[2]-'0')
		case len(value) == 2 && isDigit(value[0]) && isDigit(value[1]):
			v = int(value[0]-'0')*10 + int(value[1]-'0')
		}
		if v < minCompatLevel || v > defaultCompatLevel {
			r.errf("%sBASH_COMPAT: %s: compatibility value out of range\n", r.errPrefix(), value)
		} else {
			level = v
		}
	}
	r.compatLevel = level
	for _, c := range &compatOpts {
		r.opts[c.idx] = c.level == level
	}
}

// compat reports whether the compatibility level is at or below level.
func (r *Runner) compat(level int) bool {
	return r.compatLevel != 0 && r.compatLevel <= level
}
