package builtins_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 cut (LC_ALL=C).
func TestCut(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"abcdef\n", []string{"cut", "-b1-2,4-5", "--output-delimiter=:"}, "ab:de\n", "", 0},
		{"abcdef\n", []string{"cut", "-b1-2,3-4", "--output-delimiter=:"}, "ab:cd\n", "", 0},
		{"abcdef\n", []string{"cut", "-b1-3,2-4", "--output-delimiter=:"}, "abcd\n", "", 0},
		{"a\tb\tc\n", []string{"cut", "-f1,3", "--output-delimiter="}, "a\x00c\n", "", 0},
		{"abcdef\nxy\n", []string{"cut", "-b2,4", "--complement", "--output-delimiter=:"}, "a:c:ef\nx\n", "", 0},
		{"abcdef\nxy\n", []string{"cut", "-c-3,5-"}, "abcef\nxy\n", "", 0},
		{"abcdef\nxy\n", []string{"cut", "-c3-", "-n"}, "cdef\n\n", "", 0},
		{"abc", []string{"cut", "-b1"}, "a\n", "", 0},
		{"a,b", []string{"cut", "-d,", "-f2"}, "b\n", "", 0},
		{"ab", []string{"cut", "-d,", "-f2"}, "ab\n", "", 0},
		{"ab\nc,d\n", []string{"cut", "-d,", "-f2", "-s"}, "d\n", "", 0},
		{"a,b,c,d\n", []string{"cut", "-d,", "-f2", "--complement"}, "a,c,d\n", "", 0},
		{"a,b,c,d\n", []string{"cut", "-d,", "-f-2,4", "--output-delimiter=::"}, "a::b::d\n", "", 0},
		{"a,b,c,d\n", []string{"cut", "-d,", "-f3-"}, "c,d\n", "", 0},
		{"a,b\n", []string{"cut", "-d,", "-f3"}, "\n", "", 0},
		{"a\tb\tc\n", []string{"cut", "-f2"}, "b\n", "", 0},
		{"a,b,c\n", []string{"cut", "-f1", "-d\t"}, "a,b,c\n", "", 0},
		{"a b c\n", []string{"cut", "-d ", "-f", "1 3"}, "a c\n", "", 0},
		{"ab\n", []string{"cut", "-d", "ab", "-f1"}, "", "cut: the delimiter must be a single character\nTry 'cut --help' for more information.\n", 1},
		{"a\x00b\x00", []string{"cut", "-z", "-c1"}, "a\x00b\x00", "", 0},
		{"x,y\x00z\x00", []string{"cut", "-z", "-d,", "-f2"}, "y\x00z\x00", "", 0},
		{"\xff\xfe,\x80\n", []string{"cut", "-d,", "-f2"}, "\x80\n", "", 0},
		{"a,b,c\n", []string{"cut"}, "", "cut: you must specify a list of bytes, characters, or fields\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-b1", "-f1"}, "", "cut: only one list may be specified\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-b1", "-d,"}, "", "cut: an input delimiter may be specified only when operating on fields\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-b1", "-s"}, "", "cut: suppressing non-delimited lines makes sense\n\tonly when operating on fields\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-f1", "-d", "ab"}, "", "cut: the delimiter must be a single character\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-f0"}, "", "cut: fields are numbered from 1\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-f-"}, "", "cut: invalid range with no endpoint: -\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-f3-1"}, "", "cut: invalid decreasing range\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-fa"}, "", "cut: invalid field value 'a'\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-b1-a"}, "", "cut: invalid byte/character position 'a'\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-f1,,2"}, "", "cut: fields are numbered from 1\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-f", "99999999999999999999"}, "", "cut: field number '99999999999999999999' is too large\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-b", ",2"}, "", "cut: byte/character positions are numbered from 1\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-c0-2"}, "", "cut: byte/character positions are numbered from 1\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-f1--2"}, "", "cut: invalid field range\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-b1--2"}, "", "cut: invalid byte or character range\nTry 'cut --help' for more information.\n", 1},
		{"a,b,c\n", []string{"cut", "-f1", "-d,", "-f2"}, "", "cut: only one list may be specified\nTry 'cut --help' for more information.\n", 1},
	})
}

// TestCutFarPositions: positions past cutSel's tables (cutTableMax) are
// answered from the ranges: cut -c 2000000000- made two tables of 2 GB.
func TestCutFarPositions(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", cutTableMax+10) + "bcd" + strings.Repeat("e", 5) + "\n"
	from := cutTableMax + 11
	runText(t, []textCase{
		{"x\n", []string{"cut", "-c", "2000000000-"}, "\n", "", 0},
		{"x,y\n", []string{"cut", "-d,", "-f", "2000000000-"}, "\n", "", 0},
		{long, []string{"cut", "-b", strconv.Itoa(from) + "-" + strconv.Itoa(from+2)}, "bcd\n", "", 0},
		{long, []string{"cut", "-b", "1," + strconv.Itoa(from) + "," + strconv.Itoa(from+2) + "-", "--output-delimiter=:"}, "a:b:deeeee\n", "", 0},
	})
}

func TestCutStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("b,1\na,2\n", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "cut", "-d,", "-f2"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &strings.Builder{}, "cut", "-c1"); st != 1 || msg != "" {
		t.Errorf("cancelled: %d %q", st, msg)
	}
}
