package builtins_test

import "testing"

// Each command keeps its own GNU message for the same parser's outcomes
// (GNU coreutils 9.1, diffutils 3.8).
func TestSizeMessages(t *testing.T) {
	t.Parallel()
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
