package builtins

import (
	"math"
	"testing"
)

// parseSize against gnulib's xstrtoumax as coreutils 9.1 has it; the
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
		e        sizeErr
	}{
		{"0", 10, head, 0, sizeOK},
		{"17", 10, head, 17, sizeOK},
		{" \t+17", 10, head, 17, sizeOK},
		{"-1", 10, head, 0, sizeInvalid},
		{" -1", 10, head, 0, sizeInvalid},
		{"", 10, head, 0, sizeInvalid},
		{"x", 10, head, 0, sizeInvalid},
		{"+", 10, head, 0, sizeInvalid},
		{"1b", 10, head, 512, sizeOK},
		{"1k", 10, head, 1024, sizeOK},
		{"1K", 10, head, 1024, sizeOK},
		{"1KiB", 10, head, 1024, sizeOK},
		{"1kiB", 10, head, 1024, sizeOK},
		{"1KB", 10, head, 1000, sizeOK},
		{"1kB", 10, head, 1000, sizeOK},
		{"1KD", 10, head, 1000, sizeOK},
		{"2m", 10, head, 2 << 20, sizeOK},
		{"1MB", 10, head, 1000000, sizeOK},
		{"1G", 10, head, 1 << 30, sizeOK},
		{"1T", 10, head, 1 << 40, sizeOK},
		{"1P", 10, head, 1 << 50, sizeOK},
		{"1E", 10, head, 1 << 60, sizeOK},
		{"15E", 10, head, 15 << 60, sizeOK},
		{"16E", 10, head, max, sizeOverflow},
		{"1Z", 10, head, max, sizeOverflow},
		{"1Y", 10, head, max, sizeOverflow},
		{"18446744073709551615", 10, head, max, sizeOK},
		{"18446744073709551616", 10, head, max, sizeOverflow},
		{"99999999999999999999", 10, head, max, sizeOverflow},
		{"99999999999999999999x", 10, head, max, sizeOverflow | sizeInvalidSuffix},
		// A bare suffix is one unit; it must come first.
		{"K", 10, head, 1024, sizeOK},
		{"b", 10, head, 512, sizeOK},
		{" K", 10, head, 0, sizeInvalid},
		{"+K", 10, head, 0, sizeInvalid},
		// Letters outside the caller's list, and junk after a suffix.
		{"1w", 10, head, 1, sizeInvalidSuffix},
		{"1c", 10, head, 1, sizeInvalidSuffix},
		{"1R", 10, head, 1, sizeInvalidSuffix},
		{"1Q", 10, head, 1, sizeInvalidSuffix},
		{"1x", 10, head, 1, sizeInvalidSuffix},
		{"1.5", 10, head, 1, sizeInvalidSuffix},
		{"1Ki", 10, head, 1024, sizeInvalidSuffix},
		{"1KBB", 10, head, 1000, sizeInvalidSuffix},
		{"1Mi", 10, head, 1 << 20, sizeInvalidSuffix},
		{"1MB", 10, "", 1, sizeInvalidSuffix},
		// Without '0' in the list no second suffix is read.
		{"1KB", 10, "kKMGTPEZY", 1024, sizeInvalidSuffix},
		{"1w", 10, "bcw", 2, sizeOK},
		{"3c", 10, "bcw", 3, sizeOK},
		{"1B", 10, "B", 1024, sizeOK},
		// Base 0: hex and octal as strtoumax; base 10 reads "0x10" as 0
		// followed by the suffix "x10".
		{"0x10", 0, "kK0", 16, sizeOK},
		{"010", 0, "kK0", 8, sizeOK},
		{"0x", 0, "kK0", 0, sizeInvalidSuffix},
		{"0x10", 10, head, 0, sizeInvalidSuffix},
		{"010", 10, head, 10, sizeOK},
		{"ff", 16, "", 255, sizeOK},
	} {
		v, e := parseSize(c.s, c.base, c.suffixes)
		if e != c.e || (e&sizeInvalid == 0 && v != c.v) {
			t.Errorf("parseSize(%q, %d, %q) = %d, %d; want %d, %d", c.s, c.base, c.suffixes, v, e, c.v, c.e)
		}
	}
}

// Each command keeps its own GNU message for the same parser's outcomes
// (GNU coreutils 9.1, diffutils 3.8).
func TestSizeMessages(t *testing.T) {
	files := map[string]string{"f": "0123456789\n"}
	grepRunCases(t, files, []grepCase{
		{"", []string{"head", "-c", "1KD", "f"}, "0123456789\n", "", 0},
		{"", []string{"head", "-c", "1w", "f"}, "", "head: invalid number of bytes: '1w'\n", 1},
		{"", []string{"head", "-n", "1R", "f"}, "", "head: invalid number of lines: '1R'\n", 1},
		{"", []string{"head", "-c", "1Z", "f"}, "", "head: invalid number of bytes: '1Z': Value too large for defined data type\n", 1},
		{"", []string{"tail", "-c", "2Q", "f"}, "", "tail: invalid number of bytes: '2Q'\n", 1},
		{"", []string{"tail", "-c", "b", "f"}, "0123456789\n", "", 0},
		{"", []string{"split", "-b", "8E", "f"}, "", "split: invalid number of bytes: '8E': Value too large for defined data type\n", 1},
		{"", []string{"split", "-l", "1K", "f"}, "", "split: invalid number of lines: '1K'\n", 1},
		{"", []string{"split", "-l", "0", "f"}, "", "split: invalid number of lines: '0': Numerical result out of range\n", 1},
		{"", []string{"split", "-l", "99999999999999999999", "f"}, "", "split: invalid number of lines: '99999999999999999999': Value too large for defined data type\n", 1},
		{"", []string{"od", "-j", "1R", "f"}, "", "od: invalid suffix in -j argument '1R'\n", 1},
		{"", []string{"od", "-N", "1Z", "f"}, "", "od: -N argument '1Z' too large\n", 1},
		{"", []string{"od", "-An", "-c", "-j", "0x8", "f"}, "   8   9  \\n\n", "", 0},
		{"", []string{"cmp", "-i", "8E", "f", "f"}, "", "cmp: invalid --ignore-initial value '8E'\ncmp: Try 'cmp --help' for more information.\n", 2},
		{"", []string{"cmp", "-n", "+5", "f", "f"}, "", "", 0},
		{"", []string{"dd", "if=f", "status=none", "count=1", "bs=Kx2"}, "0123456789\n", "", 0},
		{"", []string{"dd", "if=f", "status=none", "bs=3x3x3"}, "", "dd: invalid number: '3x3x3'\n", 1},
		{"", []string{"dd", "if=f", "status=none", "bs=9223372036854775808"}, "", "dd: invalid number: '9223372036854775808': Value too large for defined data type\n", 1},
		{"", []string{"dd", "if=f", "status=none", "count=0x1"}, "", "dd: warning: '0x' is a zero multiplier; use '00x' if that is intended\n", 0},
		{"", []string{"dd", "if=f", "status=none", "bs=0x10"}, "", "dd: warning: '0x' is a zero multiplier; use '00x' if that is intended\ndd: invalid number: '0x10'\n", 1},
		{"", []string{"dd", "if=f", "status=none", "bs=1E"}, "", "dd: memory exhausted by input buffer of size 1152921504606846976 bytes (1.0 EiB)\n", 1},
	})
}
