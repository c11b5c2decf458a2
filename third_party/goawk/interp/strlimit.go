package interp

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

// replLen is the length of sub's replacement repl for a match of n bytes
// (each unescaped & is the match; \& and \\ are one byte).
func replLen(repl string, n int) int {
	size := 0
	for i := 0; i < len(repl); i++ {
		switch repl[i] {
		case '&':
			size += n
		case '\\':
			i++
			if i < len(repl) && repl[i] != '&' && repl[i] != '\\' {
				size++ // the backslash is kept
			}
			size++
		default:
			size++
		}
	}
	return size
}
