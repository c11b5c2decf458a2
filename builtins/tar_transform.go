package builtins

import (
	"strings"

	"github.com/llmsh/llmsh/posixre"
)

// tarTransform is one sed-style --transform expression: s/REGEX/REPL/FLAGS.
type tarTransform struct {
	re     *posixre.Regexp
	repl   string
	global bool
	nth    int  // replace only the Nth match (0: the first, or all with g)
	noLink bool // flag S: not applied to symbolic link targets
}

// parseTarTransforms parses a --transform argument: expressions
// s/REGEX/REPLACEMENT/[FLAGS] separated by ';', any delimiter after s,
// flags g (every match), i (ignore case), x (extended regex), a number N
// (the Nth match) and the scope flags r, R, s, S, h, H (s and S: whether
// it applies to symbolic link targets; llmsh archives no hard links). The message of an error is GNU tar's.
func parseTarTransforms(arg string) ([]tarTransform, string) {
	var out []tarTransform
	for p := 0; p < len(arg); {
		if arg[p] == ';' {
			p++
			continue
		}
		if arg[p] != 's' || p+1 >= len(arg) {
			return nil, "Invalid transform expression"
		}
		delim := arg[p+1]
		p += 2
		var parts [2]string
		for k := 0; k < 2; k++ {
			var b strings.Builder
			for {
				if p >= len(arg) {
					return nil, "Invalid transform expression"
				}
				c := arg[p]
				if c == '\\' && p+1 < len(arg) && arg[p+1] == delim {
					b.WriteByte(delim)
					p += 2
					continue
				}
				if c == '\\' && p+1 < len(arg) {
					b.WriteString(arg[p : p+2])
					p += 2
					continue
				}
				p++
				if c == delim {
					break
				}
				b.WriteByte(c)
			}
			parts[k] = b.String()
		}
		t := tarTransform{repl: parts[1]}
		var fl posixre.Flags
		for p < len(arg) && arg[p] != ';' {
			switch c := arg[p]; {
			case c == 'g':
				t.global = true
			case c == 'i':
				fl |= posixre.IgnoreCase
			case c == 'x':
				fl |= posixre.ERE
			case c == 'S':
				t.noLink = true
			case c == 's':
				t.noLink = false
			case strings.IndexByte("rRhH", c) >= 0:
			case c >= '0' && c <= '9':
				t.nth = t.nth*10 + int(c-'0')
			default:
				return nil, "Unknown flag in transform expression: " + string(c)
			}
			p++
		}
		re, err := posixre.Compile(parts[0], fl)
		if err != nil {
			return nil, "Invalid transform expression: " + err.Error()
		}
		for i := 0; i+1 < len(t.repl); i++ {
			if t.repl[i] == '\\' {
				if d := t.repl[i+1]; d >= '1' && d <= '9' && int(d-'0') > re.NumSubexp() {
					return nil, "Invalid transform replacement: back reference out of range"
				}
				i++
			}
		}
		t.re = re
		out = append(out, t)
	}
	return out, ""
}

// apply rewrites name with t.
func (t *tarTransform) apply(name string) string {
	b := []byte(name)
	var out strings.Builder
	last, count := 0, 0
	t.re.FindAll(b, -1, func(loc []int) bool {
		count++
		if t.nth > 0 && count < t.nth {
			return true
		}
		out.Write(b[last:loc[0]])
		for i := 0; i < len(t.repl); i++ {
			c := t.repl[i]
			switch {
			case c == '&':
				out.Write(b[loc[0]:loc[1]])
			case c == '\\' && i+1 < len(t.repl):
				i++
				d := t.repl[i]
				switch {
				case d >= '0' && d <= '9':
					if g := int(d - '0'); 2*g+1 < len(loc) && loc[2*g] >= 0 {
						out.Write(b[loc[2*g]:loc[2*g+1]])
					}
				case d == 'n':
					out.WriteByte('\n')
				default:
					out.WriteByte(d)
				}
			default:
				out.WriteByte(c)
			}
		}
		last = loc[1]
		return t.global
	})
	if count == 0 || (t.nth > 0 && count < t.nth) {
		return name
	}
	out.Write(b[last:])
	return out.String()
}

// transformName applies every --transform expression in order.
// transformLink applies the --transform expressions whose scope takes in
// symbolic link targets (all but those with the S flag) to target.
func (s *tarState) transformLink(target string) string {
	for i := range s.transforms {
		if !s.transforms[i].noLink {
			target = s.transforms[i].apply(target)
		}
	}
	return target
}

func (s *tarState) transformName(name string) string {
	for i := range s.transforms {
		name = s.transforms[i].apply(name)
	}
	return name
}
