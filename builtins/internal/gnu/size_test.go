package gnu_test

import (
	"math"
	"testing"

	. "github.com/llmsh/llmsh/builtins/internal/gnu"
)

// ParseSize against gnulib's xstrtoumax as coreutils 9.1 has it; the
// values were checked through GNU head -c, split -b, od -j, cmp -i and dd
// (which call it with these suffix lists) on Debian 12.
func TestParseSize(t *testing.T) {
	const head = "bkKmMGTPEZY0"
	const max = uint64(math.MaxUint64)
	for _, c := range []struct {
		s        string
		base     int
		suffixes string
		v        uint64
		e        SizeErr
	}{
		{"0", 10, head, 0, SizeOK},
		{"17", 10, head, 17, SizeOK},
		{" \t+17", 10, head, 17, SizeOK},
		{"-1", 10, head, 0, SizeInvalid},
		{" -1", 10, head, 0, SizeInvalid},
		{"", 10, head, 0, SizeInvalid},
		{"x", 10, head, 0, SizeInvalid},
		{"+", 10, head, 0, SizeInvalid},
		{"1b", 10, head, 512, SizeOK},
		{"1k", 10, head, 1024, SizeOK},
		{"1K", 10, head, 1024, SizeOK},
		{"1KiB", 10, head, 1024, SizeOK},
		{"1kiB", 10, head, 1024, SizeOK},
		{"1KB", 10, head, 1000, SizeOK},
		{"1kB", 10, head, 1000, SizeOK},
		{"1KD", 10, head, 1000, SizeOK},
		{"2m", 10, head, 2 << 20, SizeOK},
		{"1MB", 10, head, 1000000, SizeOK},
		{"1G", 10, head, 1 << 30, SizeOK},
		{"1T", 10, head, 1 << 40, SizeOK},
		{"1P", 10, head, 1 << 50, SizeOK},
		{"1E", 10, head, 1 << 60, SizeOK},
		{"15E", 10, head, 15 << 60, SizeOK},
		{"16E", 10, head, max, SizeOverflow},
		{"1Z", 10, head, max, SizeOverflow},
		{"1Y", 10, head, max, SizeOverflow},
		{"18446744073709551615", 10, head, max, SizeOK},
		{"18446744073709551616", 10, head, max, SizeOverflow},
		{"99999999999999999999", 10, head, max, SizeOverflow},
		{"99999999999999999999x", 10, head, max, SizeOverflow | SizeInvalidSuffix},
		// A bare suffix is one unit; it must come first.
		{"K", 10, head, 1024, SizeOK},
		{"b", 10, head, 512, SizeOK},
		{" K", 10, head, 0, SizeInvalid},
		{"+K", 10, head, 0, SizeInvalid},
		// Letters outside the caller's list, and junk after a suffix.
		{"1w", 10, head, 1, SizeInvalidSuffix},
		{"1c", 10, head, 1, SizeInvalidSuffix},
		{"1R", 10, head, 1, SizeInvalidSuffix},
		{"1Q", 10, head, 1, SizeInvalidSuffix},
		{"1x", 10, head, 1, SizeInvalidSuffix},
		{"1.5", 10, head, 1, SizeInvalidSuffix},
		{"1Ki", 10, head, 1024, SizeInvalidSuffix},
		{"1KBB", 10, head, 1000, SizeInvalidSuffix},
		{"1Mi", 10, head, 1 << 20, SizeInvalidSuffix},
		{"1MB", 10, "", 1, SizeInvalidSuffix},
		// Without '0' in the list no second suffix is read.
		{"1KB", 10, "kKMGTPEZY", 1024, SizeInvalidSuffix},
		{"1w", 10, "bcw", 2, SizeOK},
		{"3c", 10, "bcw", 3, SizeOK},
		{"1B", 10, "B", 1024, SizeOK},
		// Base 0: hex and octal as strtoumax; base 10 reads "0x10" as 0
		// followed by the suffix "x10".
		{"0x10", 0, "kK0", 16, SizeOK},
		{"010", 0, "kK0", 8, SizeOK},
		{"0x", 0, "kK0", 0, SizeInvalidSuffix},
		{"0x10", 10, head, 0, SizeInvalidSuffix},
		{"010", 10, head, 10, SizeOK},
		{"ff", 16, "", 255, SizeOK},
	} {
		v, e := ParseSize(c.s, c.base, c.suffixes)
		if e != c.e || (e&SizeInvalid == 0 && v != c.v) {
			t.Errorf("ParseSize(%q, %d, %q) = %d, %d; want %d, %d", c.s, c.base, c.suffixes, v, e, c.v, c.e)
		}
	}
}

// TestSizeMessage's wording is GNU split's and head's (coreutils 9.1):
// split -l 0, split -l 99999999999999999999, head -n "a'b".
func TestSizeMessage(t *testing.T) {
	const max = uint64(math.MaxUint64)
	for _, c := range []struct {
		arg, want string
		min       uint64
	}{
		{"0", "invalid number of lines: '0': Numerical result out of range", 1},
		{"99999999999999999999", "invalid number of lines: '99999999999999999999': Value too large for defined data type", 1},
		{"a'b", `invalid number of lines: 'a\'b'`, 0},
		{"5", "", 1},
	} {
		v, e := ParseSize(c.arg, 10, "bkKmMGTPEZY0")
		msg, bad := SizeMessage("invalid number of lines", c.arg, v, e, c.min, max)
		if msg != c.want || bad != (c.want != "") {
			t.Errorf("%q: got %q, %v; want %q", c.arg, msg, bad, c.want)
		}
	}
}
