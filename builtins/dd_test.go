package builtins

import (
	"strings"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 dd (LC_ALL=C); the
// transfer line carries a time, so the cases use status=noxfer or none.
func TestDd(t *testing.T) {
	grepRunCases(t, nil, []grepCase{
		{"abcdefghij", []string{"dd", "bs=3", "count=2", "status=noxfer"}, "abcdef", "2+0 records in\n2+0 records out\n", 0},
		{"abcdefghij", []string{"dd", "bs=3", "skip=1", "status=noxfer"}, "defghij", "2+1 records in\n2+1 records out\n", 0},
		{"abcdef", []string{"dd", "ibs=4", "obs=2", "status=noxfer"}, "abcdef", "1+1 records in\n3+0 records out\n", 0},
		{"", []string{"dd", "status=noxfer"}, "", "0+0 records in\n0+0 records out\n", 0},
		{"abc", []string{"dd", "conv=ucase", "status=none"}, "ABC", "", 0},
		{"ABC", []string{"dd", "conv=lcase", "status=none"}, "abc", "", 0},
		{"abcdefgh", []string{"dd", "bs=2x2", "count=1", "status=none"}, "abcd", "", 0},
		{"ab", []string{"dd", "bs=4", "conv=sync", "status=none"}, "ab\x00\x00", "", 0},
		{"", []string{"dd", "if=/dev/zero", "bs=1k", "count=2", "status=none"}, strings.Repeat("\x00", 2048), "", 0},
		{"", []string{"dd", "if=/dev/zero", "bs=1kB", "count=1", "status=none"}, strings.Repeat("\x00", 1000), "", 0},
		{"", []string{"dd", "foo=1"}, "", "dd: unrecognized operand 'foo=1'\nTry 'dd --help' for more information.\n", 1},
		{"", []string{"dd", "bs=x"}, "", "dd: invalid number: 'x'\n", 1},
		{"", []string{"dd", "bs=1m"}, "", "dd: invalid number: '1m'\n", 1},
		{"", []string{"dd", "status=loud"}, "", "dd: invalid status level: 'loud'\nTry 'dd --help' for more information.\n", 1},
		{"", []string{"dd", "conv=ucase,lcase"}, "", "dd: cannot combine lcase and ucase\n", 1},
	})
}

func TestDdFiles(t *testing.T) {
	in := map[string]string{"o": "hello", "f": "abcdefgh"}
	skRunFiles(t, []skFileCase{
		{in, []string{"dd", "if=f", "bs=2", "skip=2", "count=3", "status=none"}, "efgh", "", 0, "", ""},
		{in, []string{"dd", "if=f", "of=o", "bs=1", "seek=1", "count=2", "status=none"}, "", "", 0, "o", "hab"},
		{in, []string{"dd", "if=f", "of=o", "bs=1", "seek=1", "count=2", "conv=notrunc", "status=none"}, "", "", 0, "o", "hablo"},
		{in, []string{"dd", "if=f", "of=o", "bs=1", "seek=7", "count=1", "status=none"}, "", "", 0, "o", "hello\x00\x00a"},
		{in, []string{"dd", "if=f", "of=new", "status=none"}, "", "", 0, "new", "abcdefgh"},
		{in, []string{"dd", "if=nosuch"}, "", "dd: failed to open 'nosuch': No such file or directory\n", 1, "", ""},
	})
}
