package gnu

import (
	"math"
	"strings"
)

// SizeErr is the outcome of ParseSize, as gnulib's strtol_error: a number
// may overflow and also be followed by an invalid suffix.
type SizeErr int

const (
	SizeOK            SizeErr = 0
	SizeOverflow      SizeErr = 1 // the value saturated at 2^64-1
	SizeInvalidSuffix SizeErr = 2 // a character after the number is not a valid suffix
	SizeInvalid       SizeErr = 4 // no number (or a '-')
)

// ParseSize is gnulib's xstrtoumax as GNU coreutils 9.1 has it, the one
// parser of the numbers with multiplier suffixes that head, tail, split,
// od, cmp, dd and others take. s may start with blanks and a '+'; base 0
// reads 0x hex and 0 octal as strtoumax does. suffixes lists the suffix
// letters the caller accepts ("" none): b 512, B 1024, c 1, w 2, and k K
// M m G g T t P E Z Y, powers of 1024; a '0' in suffixes lets a second
// suffix follow the letter, B or D for powers of 1000 (KB, MD), iB for
// 1024 (KiB). A valid suffix without digits counts one unit ("K" is 1024).
// On overflow the value is 2^64-1.
func ParseSize(s string, base int, suffixes string) (uint64, SizeErr) {
	p := strings.TrimLeft(s, " \t\n\v\f\r")
	if strings.HasPrefix(p, "-") {
		return 0, SizeInvalid
	}
	p = strings.TrimPrefix(p, "+")
	b := base
	if (b == 0 || b == 16) && len(p) > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && DigitValue(p[2]) < 16 {
		b, p = 16, p[2:]
	} else if b == 0 {
		b = 10
		if p != "" && p[0] == '0' {
			b = 8
		}
	}
	var v uint64
	err := SizeOK
	i := 0
	for ; i < len(p) && DigitValue(p[i]) < b; i++ {
		d := uint64(DigitValue(p[i]))
		if err == SizeOK && v > (math.MaxUint64-d)/uint64(b) {
			err = SizeOverflow
		}
		if err == SizeOK {
			v = v*uint64(b) + d
		}
	}
	if err == SizeOverflow {
		v = math.MaxUint64
	}
	if i == 0 {
		// strtoumax read nothing: a valid suffix must be the very first
		// character of s.
		if s == "" || !strings.ContainsRune(suffixes, rune(s[0])) {
			return 0, SizeInvalid
		}
		v = 1
	}
	rest := p[i:]
	if rest == "" {
		return v, err
	}
	if !strings.ContainsRune(suffixes, rune(rest[0])) {
		return v, err | SizeInvalidSuffix
	}
	unit, n := uint64(1024), 1
	if strings.ContainsRune(suffixes, '0') && len(rest) > 1 {
		switch rest[1] {
		case 'i':
			if len(rest) > 2 && rest[2] == 'B' {
				n += 2
			}
		case 'B', 'D':
			unit = 1000
			n++
		}
	}
	scale := func(f uint64, pow int) {
		for range pow {
			if v > math.MaxUint64/f {
				v = math.MaxUint64
				err |= SizeOverflow
				return
			}
			v *= f
		}
	}
	switch rest[0] {
	case 'b':
		scale(512, 1)
	case 'B':
		scale(1024, 1)
	case 'c':
	case 'w':
		scale(2, 1)
	case 'k', 'K':
		scale(unit, 1)
	case 'M', 'm':
		scale(unit, 2)
	case 'G', 'g':
		scale(unit, 3)
	case 'T', 't':
		scale(unit, 4)
	case 'P':
		scale(unit, 5)
	case 'E':
		scale(unit, 6)
	case 'Z':
		scale(unit, 7)
	case 'Y':
		scale(unit, 8)
	default:
		return v, err | SizeInvalidSuffix
	}
	if rest[n:] != "" {
		err |= SizeInvalidSuffix
	}
	return v, err
}

// SizeMessage is gnulib's xnumtoumax report of a ParseSize outcome for a
// value that must lie in [min, max]: "WHAT: 'ARG'", followed by ": Value
// too large for defined data type" for an overflow or a value out of range
// above 2^30, ": Numerical result out of range" for one below. ok is false
// when the value is good.
func SizeMessage(what, arg string, v uint64, e SizeErr, min, max uint64) (msg string, ok bool) {
	errno := ""
	switch {
	case e == SizeOK && (v < min || v > max):
		errno = ": Numerical result out of range"
		if v > math.MaxInt32/2 {
			errno = ": Value too large for defined data type"
		}
	case e == SizeOK:
		return "", false
	case e == SizeOverflow:
		errno = ": Value too large for defined data type"
	}
	return what + ": " + Quote(arg) + errno, true
}
