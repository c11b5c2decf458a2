package builtins_test

import "testing"

// bzHello is `printf 'hello\n' | bzip2` (bzip2 1.0.8).
const bzHello = "\x42\x5a\x68\x39\x31\x41\x59\x26\x53\x59\xc1\xc0\x80\xe2\x00\x00\x01\x41\x00\x00\x10\x02\x44\xa0\x00\x30\xcd\x00\xc3\x46\x29\x97\x17\x72\x45\x38\x50\x90\xc1\xc0\x80\xe2"

// Messages and statuses checked against bzip2 1.0.8; the last field is the
// tree afterwards.
func TestBzip2(t *testing.T) {
	t.Parallel()
	f := map[string]string{"t.bz2": bzHello, "x.tbz": bzHello, "foo": bzHello, "bad.bz2": "hello\n"}
	tree := "bad.bz2=hello\n foo=" + bzHello + " t.bz2=" + bzHello + " x.tbz=" + bzHello
	runTree(t, []treeCase{
		{f, []string{"bzip2", "-d", "t.bz2"}, "", "", 0, "bad.bz2=hello\n foo=" + bzHello + " t=hello\n x.tbz=" + bzHello},
		{f, []string{"bunzip2", "-k", "x.tbz"}, "", "", 0, "bad.bz2=hello\n foo=" + bzHello + " t.bz2=" + bzHello + " x.tar=hello\n x.tbz=" + bzHello},
		{f, []string{"bzcat", "t.bz2", "t.bz2"}, "hello\nhello\n", "", 0, tree},
		{f, []string{"bzip2", "-dk", "foo"}, "", "bzip2: Can't guess original name for foo -- using foo.out\n", 0, "bad.bz2=hello\n foo.out=hello\n foo=" + bzHello + " t.bz2=" + bzHello + " x.tbz=" + bzHello},
		{f, []string{"bzip2", "-d", "bad.bz2"}, "", "bzip2: bad.bz2 is not a bzip2 file.\n", 2, tree},
		{f, []string{"bzip2", "-d", "nosuch.bz2"}, "", "bzip2: Can't open input file nosuch.bz2: No such file or directory.\n", 1, tree},
		{f, []string{"bzip2", "-t", "t.bz2"}, "", "", 0, tree},
		{f, []string{"bzip2", "t.bz2"}, "", "bzip2: Input file t.bz2 already has .bz2 suffix.\n", 1, tree},
		{map[string]string{"t": "hello\n"}, []string{"bzip2", "t"}, "", "", 0, "t.bz2=" + bzHello},
	})
	runLines(t, []linesCase{
		{nil, []string{"bzip2", "-dc"}, bzHello, "hello\n", "", 0},
		{nil, []string{"bzcat"}, bzHello + bzHello, "hello\nhello\n", "", 0},
		{nil, []string{"bzip2", "-d"}, "hello\n", "", "bzip2: (stdin) is not a bzip2 file.\n", 2},
		{nil, []string{"bzip2"}, "hello\n", bzHello, "", 0},
	})
}
