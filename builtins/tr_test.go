package builtins_test

import (
	"context"
	"strings"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 tr (LC_ALL=C).
func TestTr(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"hello, World 123 [a*]\\\\\n", []string{"tr"}, "", "tr: missing operand\nTry 'tr --help' for more information.\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "a-z"}, "", "tr: missing operand after 'a-z'\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "-d", "a", "b"}, "", "tr: extra operand 'b'\nOnly one string may be given when deleting without squeezing repeats.\nTry 'tr --help' for more information.\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "a", "b", "c"}, "", "tr: extra operand 'c'\nTry 'tr --help' for more information.\n", 1},
		// GNU's "+AcCdst": the first operand ends the options
		{"a-d\n", []string{"tr", "a", "-d"}, "--d\n", "", 0},
		{"abc\n", []string{"tr", "-d", "a", "-s"}, "", "tr: extra operand '-s'\nOnly one string may be given when deleting without squeezing repeats.\nTry 'tr --help' for more information.\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "z-a", "A"}, "", "tr: range-endpoints of 'z-a' are in reverse collating sequence order\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "[:foo:]", "a"}, "", "tr: invalid character class 'foo'\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "a", ""}, "", "tr: when not truncating set1, string2 must be non-empty\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "[a*]", "b"}, "", "tr: the [c*] repeat construct may not appear in string1\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "a", "[b*x]"}, "", "tr: invalid repeat count 'x' in [c*n] construct\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "a", "[b*2]x[c*]"}, "hello, World 123 [b*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "[:lower:]", "[:digit:]"}, "", "tr: when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "a\\\\", "b"}, "hello, World 123 [b*]bb\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "-s"}, "", "tr: missing operand\nTry 'tr --help' for more information.\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "-ds", "a"}, "", "tr: missing operand after 'a'\nTwo strings must be given when both deleting and squeezing repeats.\nTry 'tr --help' for more information.\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "a", "[:upper:]"}, "", "tr: misaligned [:upper:] and/or [:lower:] construct\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "[=ab=]", "x"}, "", "tr: ab: equivalence class operand must be a single character\n", 1},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "[:upper:]", "[:lower:]"}, "hello, world 123 [a*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "[:lower:]", "[:upper:]"}, "HELLO, WORLD 123 [A*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "a-z", "A-Z"}, "HELLO, WORLD 123 [A*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "-c", "a-z", "X"}, "helloXXXorldXXXXXXaXXXXX", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "-C", "a-z\\\\n", "X"}, "helloXXXorldXXXXXXaXX\\\\X", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "-t", "abc", "xy"}, "hello, World 123 [x*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "abc", "xy"}, "hello, World 123 [x*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "\\\\101\\\\1", "xy"}, "hello, World y23 [a*]yy\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "a-", "x"}, "hello, World 123 [x*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "[a-", "x"}, "hello, World 123 xx*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "[:alpha", "x"}, "xexxo, Worxd 123 xx*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "[", "x"}, "hello, World 123 xa*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "a-a", "b"}, "hello, World 123 [b*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "a[b*3]", "xyz"}, "hello, World 123 [x*]\\\\\n", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "-d", "[:digit:][:space:]"}, "hello,World[a*]\\\\", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "-cd", "[:alpha:]"}, "helloWorlda", "", 0},
		{"hello, World 123 [a*]\\\\\n", []string{"tr", "-s", "l"}, "helo, World 123 [a*]\\\\\n", "", 0},
		{"aaabbbcccaaa\n", []string{"tr", "-s", "a-z"}, "abca\n", "", 0},
		{"aaabbbcccaaa\n", []string{"tr", "-s", "ab", "xy"}, "xycccx\n", "", 0},
		{"aaabbbcccaaa\n", []string{"tr", "-s", "abc", "x"}, "x\n", "", 0},
		{"aaabbbcccaaa\n", []string{"tr", "-ds", "b", "a"}, "accca\n", "", 0},
		{"aaabbbcccaaa\n", []string{"tr", "-d", "-s", "b", "a"}, "accca\n", "", 0},
		{"a\tb\nc\n", []string{"tr", "\\\\t\\\\n", "\\\\n\\\\t"}, "a\tb\nc\n", "", 0},
		{"a\tb\nc\n", []string{"tr", "\\\\011", "_"}, "a\tb\nc\n", "", 0},
		{"a\x00b\xff\n", []string{"tr", "\\\\000\\\\377", "xy"}, "a\x00b\xff\n", "", 0},
		{"a\x00b\xff\n", []string{"tr", "-d", "\\\\0"}, "a\x00b\xff\n", "", 0},
		{"abc\n", []string{"tr", "a-c", "[x*]"}, "xxx\n", "", 0},
		{"abc\n", []string{"tr", "a-c", "x[y*]z"}, "xyz\n", "", 0},
		{"abc\n", []string{"tr", "abc", "[x*2]y"}, "xxy\n", "", 0},
		{"abc\n", []string{"tr", "abc", "[x*010]"}, "xxx\n", "", 0},
		{"abc\n", []string{"tr", "[:upper:][:lower:]", "[:lower:][:upper:]"}, "ABC\n", "", 0},
		{"ABC abc\n", []string{"tr", "-s", "[:upper:]", "[:lower:]"}, "abc abc\n", "", 0},
		{"abc\n", []string{"tr", "\\\\400", "x"}, "abc\n", "", 0},
		{"abc\n", []string{"tr", "a", "[b*][c*]"}, "", "tr: only one [c*] repeat construct may appear in string2\n", 1},
		{"abc\n", []string{"tr", "-x", "a"}, "", "tr: invalid option -- 'x'\nTry 'tr --help' for more information.\n", 1},
		{"abc\n", []string{"tr", "-c", "[:lower:]", "[:upper:]"}, "", "tr: when translating with string1 longer than string2,\nthe latter string must not end with a character class\n", 1},
		{"abc\n", []string{"tr", "\\\\\\\\-a", "x"}, "xbc\n", "", 0},
		{"abc\n", []string{"tr", "b\\\\-d", "x"}, "xxx\n", "", 0},
	})
}

func TestTrStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("abc\n", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "tr", "a-z", "A-Z"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &strings.Builder{}, "tr", "-d", "a"); st != 1 || msg != "" {
		t.Errorf("cancelled: %d %q", st, msg)
	}
}
