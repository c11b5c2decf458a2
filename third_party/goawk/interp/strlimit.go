package interp

import "strings"

// llmsh: awk builds no string longer than MaxString bytes. A string that
// doubles in a loop (s = s s) reaches gigabytes in a few dozen
// instructions, before the context is looked at again (every
// checkContextOps instructions), and one such concatenation is a single
// allocation that no memory guard can stop: the process ran out of memory
// and crashed.

// MaxString is the most bytes of one string that a concatenation, an
// array subscript, a record rebuilt from its fields, or sub/gsub may make:
// llmsh's bound on a shell value (256 MiB). Tests lower it (export_test.go)
// to check the bound without building strings of that size.
var MaxString = 256 << 20

// errStringTooLong is the fatal error of a string that would pass MaxString.
func errStringTooLong() error {
	return newError("string too long (more than %d bytes)", MaxString)
}

// joinLen is the length of strings.Join(parts, sep), saturating past MaxString.
func joinLen(parts []string, sep string) int {
	n := 0
	for i, s := range parts {
		if i > 0 {
			n += len(sep)
		}
		n += len(s)
		if n > MaxString {
			return n
		}
	}
	return n
}

// checkJoin fails when strings.Join(parts, sep) would pass MaxString.
func checkJoin(parts []string, sep string) error {
	if joinLen(parts, sep) > MaxString {
		return errStringTooLong()
	}
	return nil
}

// subRepl is sub's and gsub's replacement, read once per call (llmsh):
// its literal pieces, between which the matched text goes (each
// unescaped &; \& is a literal &, \\ a backslash, a backslash before
// anything else is kept). A match then costs its pieces, not a walk of
// the replacement byte by byte, twice: gsub(/ /, m, s) with m of 1 MiB
// walked and appended it a byte at a time for each match.
type subRepl struct {
	pieces []string // len(pieces)-1 matches, one between each two
	fixed  int      // the pieces' bytes
}

func newSubRepl(repl string) subRepl {
	var r subRepl
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		if j := strings.IndexAny(repl[i:], `&\`); j != 0 {
			if j < 0 {
				j = len(repl) - i
			}
			b.WriteString(repl[i : i+j]) // the text up to the next & or \, at once
			i += j - 1
			continue
		}
		switch repl[i] {
		case '&':
			r.pieces = append(r.pieces, b.String())
			b.Reset()
		case '\\':
			i++
			if i < len(repl) && repl[i] != '&' && repl[i] != '\\' {
				b.WriteByte('\\') // the backslash is kept
			}
			if i < len(repl) {
				b.WriteByte(repl[i])
			} else {
				b.WriteByte('\\')
			}
		}
	}
	r.pieces = append(r.pieces, b.String())
	for _, p := range r.pieces {
		r.fixed += len(p)
	}
	return r
}

// len is the length of the replacement of a match of n bytes.
func (r subRepl) len(n int) int { return r.fixed + (len(r.pieces)-1)*n }

// expand is the replacement of the matched text s.
func (r subRepl) expand(s string) string {
	if len(r.pieces) == 1 {
		return r.pieces[0]
	}
	var b strings.Builder
	b.Grow(r.len(len(s)))
	b.WriteString(r.pieces[0])
	for _, p := range r.pieces[1:] {
		b.WriteString(s)
		b.WriteString(p)
	}
	return b.String()
}
