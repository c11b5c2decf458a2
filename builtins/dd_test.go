package builtins_test

import (
	"strings"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 dd (LC_ALL=C); the
// transfer line carries a time, so the cases use status=noxfer or none.
func TestDd(t *testing.T) {
	t.Parallel()
	grepRunCases(t, nil, []grepCase{
		{"abcdefghij", []string{"dd", "bs=3", "count=2", "status=noxfer"}, "abcdef", "2+0 records in\n2+0 records out\n", 0},
		{"abcdefghij", []string{"dd", "bs=3", "skip=1", "status=noxfer"}, "defghij", "2+1 records in\n2+1 records out\n", 0},
		{"abcdef", []string{"dd", "ibs=4", "obs=2", "status=noxfer"}, "abcdef", "1+1 records in\n3+0 records out\n", 0},
		{"", []string{"dd", "status=noxfer"}, "", "0+0 records in\n0+0 records out\n", 0},
		{"abc", []string{"dd", "conv=ucase", "status=none"}, "ABC", "", 0},
		{"abc\ndef\n", []string{"dd", "conv=swab", "ibs=3", "obs=2", "status=noxfer"}, "ba\nced\nf", "2+1 records in\n4+0 records out\n", 0},
		{"abcde", []string{"dd", "conv=swab", "bs=2", "status=noxfer"}, "badce", "2+1 records in\n2+1 records out\n", 0},
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
		// A 'B' after a count, skip or seek counts bytes (coreutils 9.1);
		// iseek= and oseek= are skip= and seek=.
		{"abcdefghij", []string{"dd", "skip=3B", "count=4B", "status=none"}, "defg", "", 0},
		{"abcdefghij", []string{"dd", "bs=2", "skip=1B", "count=3B", "status=none"}, "bcd", "", 0},
		{"abcdefghij", []string{"dd", "bs=2", "iseek=1", "count=2", "status=none"}, "cdef", "", 0},
		{"abcdefghij", []string{"dd", "count=3B", "bs=4", "status=noxfer"}, "abc", "0+1 records in\n0+1 records out\n", 0},
		{"abcdefghij", []string{"dd", "count=1Bx2", "status=none"}, "ab", "", 0},
		{"abcdefghij", []string{"dd", "count=2xB"}, "", "dd: invalid number: '2xB'\n", 1},
		// iflag= and oflag=.
		{"abcdefghij\n", []string{"dd", "iflag=count_bytes", "count=5", "bs=2", "status=noxfer"}, "abcde", "2+1 records in\n2+1 records out\n", 0},
		{"abcdefghij\n", []string{"dd", "iflag=count_bytes", "count=5", "ibs=2", "obs=3", "status=noxfer"}, "abcde", "2+1 records in\n1+1 records out\n", 0},
		{"abcdefghij\n", []string{"dd", "iflag=count_bytes,skip_bytes", "count=3", "skip=3", "status=noxfer"}, "def", "0+1 records in\n0+1 records out\n", 0},
		{"abcdefghij\n", []string{"dd", "iflag=count_bytes", "count=100", "bs=4", "status=noxfer"}, "abcdefghij\n", "2+1 records in\n2+1 records out\n", 0},
		{"abcdefghij\n", []string{"dd", "iflag=count_bytes", "count=5", "bs=2", "conv=sync", "status=none"}, "abcde\x00", "", 0},
		{"abcdefghij\n", []string{"dd", "iflag=fullblock", "bs=4", "count=2", "status=noxfer"}, "abcdefgh", "2+0 records in\n2+0 records out\n", 0},
		{"abcdefghij\n", []string{"dd", "bs=1", "skip=12", "status=noxfer"}, "", "dd: 'standard input': cannot skip to specified offset\n0+0 records in\n0+0 records out\n", 0},
		{"abcdefghij\n", []string{"dd", "bs=1", "skip=11", "status=noxfer"}, "", "0+0 records in\n0+0 records out\n", 0},
		{"abcdefghij\n", []string{"dd", "iflag=direct,nocache,sync,dsync"}, "", "dd: cannot combine direct and nocache\n", 1},
		{"x", []string{"dd", "iflag=bogus"}, "", "dd: invalid input flag: 'bogus'\nTry 'dd --help' for more information.\n", 1},
		{"x", []string{"dd", "iflag=binary"}, "", "dd: invalid input flag: 'binary'\nTry 'dd --help' for more information.\n", 1},
		{"x", []string{"dd", "iflag=,count_bytes"}, "", "dd: invalid input flag: ''\nTry 'dd --help' for more information.\n", 1},
		{"x", []string{"dd", "oflag=fullblock"}, "", "dd: invalid output flag: 'fullblock'\nTry 'dd --help' for more information.\n", 1},
		{"x", []string{"dd", "oflag=count_bytes", "status=none"}, "x", "", 0},
	})
}

func TestDdFiles(t *testing.T) {
	t.Parallel()
	in := map[string]string{"o": "hello", "f": "abcdefgh"}
	runTextFiles(t, []textFileCase{
		{in, []string{"dd", "if=f", "bs=2", "skip=2", "count=3", "status=none"}, "efgh", "", 0, "", ""},
		{in, []string{"dd", "if=f", "of=o", "bs=1", "seek=1", "count=2", "status=none"}, "", "", 0, "o", "hab"},
		{in, []string{"dd", "if=f", "of=o", "bs=1", "seek=1", "count=2", "conv=notrunc", "status=none"}, "", "", 0, "o", "hablo"},
		{in, []string{"dd", "if=f", "of=o", "bs=1", "seek=7", "count=1", "status=none"}, "", "", 0, "o", "hello\x00\x00a"},
		{in, []string{"dd", "if=f", "of=new", "status=none"}, "", "", 0, "new", "abcdefgh"},
		{in, []string{"dd", "if=nosuch"}, "", "dd: failed to open 'nosuch': No such file or directory\n", 1, "", ""},
		// GNU truncates when seek_bytes is under one block (seek_records 0).
		{in, []string{"dd", "if=f", "of=o", "oflag=seek_bytes", "seek=2", "status=none"}, "", "", 0, "o", "\x00\x00abcdefgh"},
		{in, []string{"dd", "if=f", "of=o", "oflag=seek_bytes", "seek=3", "bs=2", "status=none"}, "", "", 0, "o", "helabcdefgh"},
		{in, []string{"dd", "if=f", "of=o", "oflag=seek_bytes", "seek=2", "conv=notrunc", "status=none"}, "", "", 0, "o", "heabcdefgh"},
		{in, []string{"dd", "if=f", "of=o", "oflag=append", "conv=notrunc", "status=none"}, "", "", 0, "o", "helloabcdefgh"},
		{in, []string{"dd", "if=f", "of=o", "oflag=append", "status=none"}, "", "dd: you probably want conv=notrunc with oflag=append\n", 0, "o", "abcdefgh"},
		{in, []string{"dd", "if=f", "bs=4", "skip=3", "status=noxfer"}, "", "dd: f: cannot skip to specified offset\n0+0 records in\n0+0 records out\n", 0, "", ""},
		{in, []string{"dd", "if=f", "iflag=skip_bytes", "skip=5", "status=none"}, "fgh", "", 0, "", ""},
	})
}
