package builtins_test

import (
	"context"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// grepCase is one grep call: stdin, arguments, expected stdout, stderr and
// status.
type grepCase struct {
	stdin  string
	args   []string
	stdout string
	stderr string
	status int
}

func grepRunCases(t *testing.T, files map[string]string, cases []grepCase) {
	t.Helper()
	for _, c := range cases {
		r := runCmd(t, files, c.stdin, c.args...)
		if r.stdout != c.stdout || r.stderr != c.stderr || r.status != c.status {
			t.Errorf("%q <<< %q:\n got  %q, %q, %d\n want %q, %q, %d", c.args, c.stdin, r.stdout, r.stderr, r.status, c.stdout, c.stderr, c.status)
		}
	}
}

// Expected values checked against GNU grep 3.8 (LC_ALL=C).
func TestGrep(t *testing.T) {
	t.Parallel()
	grepRunCases(t, nil, []grepCase{
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "foo"}, "foo\nfoo bar\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-v", "foo"}, "a\nb\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-c", "foo"}, "2\n", "", 0},
		// A binary file's NULs end records as newlines do (GNU 3.8).
		{"a\x00b\nc\nd\x00\n", []string{"grep", "-c", "."}, "4\n", "", 0},
		{"a\x00b\nc\nd\x00\n", []string{"grep", "-c", "^$"}, "1\n", "", 0},
		{"a\x00b\nc\nd\x00\n", []string{"grep", "-c", "a.b"}, "0\n", "", 1},
		{"a\x00b\nc\nd\x00\n", []string{"grep", "-c", "^b"}, "1\n", "", 0},
		{"x\x00\x00y\n", []string{"grep", "-c", "-v", "q"}, "3\n", "", 0},
		{"ab\x00cd\n", []string{"grep", "-c", "-a", "."}, "1\n", "", 0},
		{"ab\x00", []string{"grep", "-c", ""}, "1\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-n", "o"}, "2:foo\n4:foo bar\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-b", "o"}, "2:foo\n8:foo bar\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-bo", "o"}, "3:o\n4:o\n9:o\n10:o\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-o", "-n", "o\\+"}, "2:oo\n4:oo\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "zzz"}, "", "", 1},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-q", "foo"}, "", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-l", "foo"}, "(standard input)\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-L", "foo"}, "", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-L", "zzz"}, "(standard input)\n", "", 1},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-H", "foo"}, "(standard input):foo\n(standard input):foo bar\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-H", "--label=in", "-c", "foo"}, "in:2\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-x", "foo"}, "foo\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-w", "fo"}, "", "", 1},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-w", "foo"}, "foo\nfoo bar\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-m1", "foo"}, "foo\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-m1", "-c", "foo"}, "1\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-m", "0", "foo"}, "", "", 1},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-e", "a", "-e", "b"}, "a\nb\nfoo bar\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-e", "a\nb"}, "a\nb\nfoo bar\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "a\nb"}, "a\nb\nfoo bar\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", ""}, "a\nfoo\nb\nfoo bar\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-c", "-e", ""}, "4\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-x", "-e", ""}, "", "", 1},
		{"a\n\nb\n", []string{"grep", "-n", "-x", ""}, "2:\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-F", "o b"}, "foo bar\n", "", 0},
		{"a\nfoo\nb\nfoo bar\n", []string{"grep", "-F", "-e", "a", "-e", "o b"}, "a\nfoo bar\n", "", 0},
		{"a.b\naxb\n", []string{"grep", "-F", "a.b"}, "a.b\n", "", 0},
		{"a.b\naxb\n", []string{"grep", "a.b"}, "a.b\naxb\n", "", 0},
		{"a.b\naxb\n", []string{"grep", "-F", "-x", "a.b"}, "a.b\n", "", 0},
		{"A.B\naxb\n", []string{"grep", "-F", "-i", "a.b"}, "A.B\n", "", 0},
		{"Foo\nfOO\nbar\n", []string{"grep", "-i", "foo"}, "Foo\nfOO\n", "", 0},
		{"Foo\nfOO\nbar\n", []string{"grep", "-y", "foo"}, "Foo\nfOO\n", "", 0},
		{"Foo\nfOO\nbar\n", []string{"grep", "-i", "--no-ignore-case", "foo"}, "", "", 1},
		{"Foo\nfOO\nbar\n", []string{"grep", "--color=always", "-i", "o"}, "F\x1b[01;31m\x1b[Ko\x1b[m\x1b[K\x1b[01;31m\x1b[Ko\x1b[m\x1b[K\nf\x1b[01;31m\x1b[KO\x1b[m\x1b[K\x1b[01;31m\x1b[KO\x1b[m\x1b[K\n", "", 0},
		{"a\nfoo\nb\nfoo\nc\n", []string{"grep", "--color=always", "-n", "-H", "-C1", "foo"}, "\x1b[35m\x1b[K(standard input)\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[K\x1b[32m\x1b[K1\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[Ka\n\x1b[35m\x1b[K(standard input)\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K2\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\n\x1b[35m\x1b[K(standard input)\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[K\x1b[32m\x1b[K3\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[Kb\n\x1b[35m\x1b[K(standard input)\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K4\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\n\x1b[35m\x1b[K(standard input)\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[K\x1b[32m\x1b[K5\x1b[m\x1b[K\x1b[36m\x1b[K-\x1b[m\x1b[Kc\n", "", 0},
		{"a\nfoo\nb\nfoo\nc\n", []string{"grep", "--color=always", "-v", "-A1", "foo"}, "a\n\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\nb\n\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\nc\n", "", 0},
		{"a\nfoo\nb\nfoo\nc\n", []string{"grep", "--color=always", "-c", "-H", "foo"}, "\x1b[35m\x1b[K(standard input)\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K2\n", "", 0},
		{"a\nfoo\nb\nfoo\nc\n", []string{"grep", "--color=always", "-l", "foo"}, "\x1b[35m\x1b[K(standard input)\x1b[m\x1b[K\n", "", 0},
		{"a\nfoo\nb\nfoo\nc\n", []string{"grep", "--color=always", "-o", "-b", "o"}, "\x1b[32m\x1b[K3\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Ko\x1b[m\x1b[K\n\x1b[32m\x1b[K4\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Ko\x1b[m\x1b[K\n\x1b[32m\x1b[K9\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Ko\x1b[m\x1b[K\n\x1b[32m\x1b[K10\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Ko\x1b[m\x1b[K\n", "", 0},
		{"a\nfoo\nb\nfoo\nc\n", []string{"grep", "--color=never", "o"}, "foo\nfoo\n", "", 0},
		{"a\nfoo\nb\nfoo\nc\n", []string{"grep", "--color", "o"}, "foo\nfoo\n", "", 0},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-A1", "x"}, "x\n5\n--\nx\n10\n--\nx\n", "", 0},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-B2", "-n", "x"}, "2-2\n3-3\n4:x\n--\n7-7\n8-8\n9:x\n--\n11-11\n12-12\n13:x\n", "", 0},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-C2", "x"}, "2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", "", 0},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-2", "-n", "x"}, "2-2\n3-3\n4:x\n5-5\n6-6\n7-7\n8-8\n9:x\n10-10\n11-11\n12-12\n13:x\n", "", 0},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-C1", "--group-separator=##", "x"}, "3\nx\n5\n##\n8\nx\n10\n##\n12\nx\n", "", 0},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-C1", "--no-group-separator", "x"}, "3\nx\n5\n8\nx\n10\n12\nx\n", "", 0},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-v", "-C1", "-n", "[0-9]"}, "3-3\n4:x\n5-5\n--\n8-8\n9:x\n10-10\n--\n12-12\n13:x\n", "", 0},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-o", "-A1", "x"}, "x\n--\nx\n--\nx\n", "", 0},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-m1", "-A2", "[x5]"}, "x\n5\n6\n", "", 0},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-b", "-B1", "x"}, "4-3\n6:x\n--\n14-8\n16:x\n--\n24-12\n27:x\n", "", 0},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-A", "x", "x"}, "", "grep: x: invalid context length argument\n", 2},
		{"1\n2\n3\nx\n5\n6\n7\n8\nx\n10\n11\n12\nx\n", []string{"grep", "-C", "-1", "x"}, "", "grep: -1: invalid context length argument\n", 2},
		{"a\n", []string{"grep", "-m", "x", "a"}, "", "grep: invalid max count\n", 2},
		{"no newline", []string{"grep", "new"}, "no newline\n", "", 0},
		{"no newline", []string{"grep", "-c", "new"}, "1\n", "", 0},
		{"no newline", []string{"grep", "-v", "x"}, "no newline\n", "", 0},
		{"x\x00\nfoo\n", []string{"grep", "foo"}, "", "grep: (standard input): binary file matches\n", 0},
		{"x\x00\nfoo\n", []string{"grep", "-c", "foo"}, "1\n", "", 0},
		{"x\x00\nfoo\n", []string{"grep", "-a", "foo"}, "foo\n", "", 0},
		{"x\x00\nfoo\n", []string{"grep", "--binary-files=text", "-n", "x"}, "1:x\x00\n", "", 0},
		{"x\x00\nfoo\n", []string{"grep", "-I", "foo"}, "", "", 1},
		{"x\x00\nfoo\n", []string{"grep", "--binary-files=without-match", "foo"}, "", "", 1},
		{"x\x00\nfoo\n", []string{"grep", "--binary-files=foo", "foo"}, "", "grep: unknown binary-files type\n", 2},
		{"x\x00\nfoo\n", []string{"grep", "-l", "foo"}, "(standard input)\n", "", 0},
		{"x\x00\nfoo\n", []string{"grep", "-q", "foo"}, "", "", 0},
		{"x\x00\nfoo\n", []string{"grep", "zzz"}, "", "", 1},
		{"a\x00b\x00", []string{"grep", "-z", "b"}, "b\x00", "", 0},
		{"a\x00b\x00", []string{"grep", "-z", "-c", "."}, "2\n", "", 0},
		{"foo\n", []string{"grep", "-Z", "-H", "foo"}, "(standard input)\x00foo\n", "", 0},
		{"foo\n", []string{"grep", "-Z", "-l", "foo"}, "(standard input)\x00", "", 0},
		{"foo\n", []string{"grep", "-Z", "-c", "-H", "foo"}, "(standard input)\x001\n", "", 0},
		{"aaa\n", []string{"grep", "-E", "a{2}"}, "aaa\n", "", 0},
		{"aaa\n", []string{"grep", "-E", "a{4}"}, "", "", 1},
		{"a{2}\n", []string{"grep", "a{2}"}, "a{2}\n", "", 0},
		{"a{2}\n", []string{"grep", "-G", "-E", "-F", "a{2}"}, "", "grep: conflicting matchers specified\n", 2},
		{"abab\n", []string{"grep", "-o", "\\(ab\\)\\1"}, "abab\n", "", 0},
		{"abab\nabba\n", []string{"grep", "-E", "(a)(b)\\2\\1"}, "abba\n", "", 0},
		{"foo bar\n", []string{"grep", "-o", "\\<b.."}, "bar\n", "", 0},
		{"foo bar\n", []string{"grep", "-o", "-w", "-e", "o", "-e", "bar"}, "bar\n", "", 0},
		{"foo bar\n", []string{"grep", "-P", "\\bbar$"}, "foo bar\n", "", 0},
		{"foo bar\n", []string{"grep", "-P", "-o", "o+"}, "oo\n", "", 0},
		// PCRE's \h \H \v \R \N (GNU grep 3.8 -P).
		{"a \tb\u00a0c\n", []string{"grep", "-oP", `\h+`}, " \t\n\u00a0\n", "", 0},
		{"a \tb\n", []string{"grep", "-oP", `\H+`}, "a\nb\n", "", 0},
		{"a\vb\nab\n", []string{"grep", "-cP", `a\vb`}, "1\n", "", 0},
		{"a\r\nb\n", []string{"grep", "-cP", `a\R`}, "1\n", "", 0},
		{"abc\n", []string{"grep", "-oP", `a\Nc|[\h]x`}, "abc\n", "", 0},
		{" x\n", []string{"grep", "-oP", `[\h]x`}, " x\n", "", 0},
		{"x\n", []string{"grep", "("}, "", "", 1},
		{"x\n", []string{"grep", "-E", "("}, "", "grep: Unmatched ( or \\(\n", 2},
		{"x\n", []string{"grep", "\\(x"}, "", "grep: Unmatched ( or \\(\n", 2},
		{"x\n", []string{"grep", "[[:alpha:"}, "", "grep: Unmatched [, [^, [:, [., or [=\n", 2},
		{"x\n", []string{"grep", "[:alpha:]"}, "", "grep: character class syntax is [[:space:]], not [:space:]\n", 2},
		{"x\n", []string{"grep", "-E", "*x"}, "x\n", "grep: warning: * at start of expression\n", 0},
		{"x\n", []string{"grep", "-E", "a**|x"}, "x\n", "", 0},
		{"x\n", []string{"grep", "-e"}, "", "grep: option requires an argument -- 'e'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", 2},
		{"x\n", []string{"grep"}, "", "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", 2},
		{"x\n", []string{"grep", "-k", "x"}, "", "grep: invalid option -- 'k'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", 2},
		{"x\n", []string{"grep", "--frobnicate", "x"}, "", "grep: unrecognized option '--frobnicate'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", 2},
		{"x\ny\n", []string{"grep", "-c", "x", "-", "-"}, "(standard input):1\n(standard input):0\n", "", 0},
		{"abc\n", []string{"egrep", "b|z"}, "abc\n", "", 0},
		{"abc\n", []string{"fgrep", "b|z"}, "", "", 1},
		{"abc\n", []string{"fgrep", "-c", "b"}, "1\n", "", 0},
		// In a UTF-8 locale a Latin-1 byte is an encoding error, which
		// '.' does not match (GNU 3.8 in C.UTF-8; LC_ALL=C matches).
		{"h\xe9llo w\xf6rld\n", []string{"grep", "-o", "w.rld"}, "", "", 1},
		{"h\xe9llo w\xf6rld\n", []string{"grep", "-o", "w[^a]rld"}, "", "", 1},
		{"h\xe9llo w\xf6rld\nw\xc3\xb6rld\n", []string{"grep", "w.rld"}, "w\xc3\xb6rld\n", "", 0},
		// A line that is not UTF-8 is binary data: not printed, and the
		// notice follows (-a prints it; counts are not affected).
		{"h\xe9llo\nhallo\n", []string{"grep", "llo"}, "hallo\n", "grep: (standard input): binary file matches\n", 0},
		{"h\xe9llo\nhallo\n", []string{"grep", "-a", "-o", "h.llo"}, "hallo\n", "", 0},
		{"h\xe9llo\nhallo\n", []string{"grep", "-o", "llo"}, "llo\nllo\n", "", 0},
		{"h\xe9llo\nhallo\n", []string{"grep", "-c", "llo"}, "2\n", "", 0},
		{"h\xe9llo\nhallo\n", []string{"grep", "-I", "llo"}, "hallo\n", "", 0},
	})
}

// GNU grep answers an unknown --color WHEN with its help and status 0.
func TestGrepColorHelp(t *testing.T) {
	t.Parallel()
	r := runCmd(t, nil, "x\n", "grep", "--color=sometimes", "x")
	if r.status != 0 || !strings.HasPrefix(r.stdout, "Usage: grep [OPTION]... PATTERNS [FILE]...\n") || r.stderr != "" {
		t.Errorf("got %q, %q, %d", r.stdout, r.stderr, r.status)
	}
}

// An empty pattern selects every line, yet -o prints what the other
// patterns match (checked against GNU grep 3.8).
func TestGrepEmptyPatternOnlyMatching(t *testing.T) {
	t.Parallel()
	grepRunCases(t, nil, []grepCase{
		{"one two three\none two\none\n", []string{"grep", "-o", "-e", "", "-e", "two"}, "two\ntwo\n", "", 0},
		{"one two three\none\n", []string{"grep", "-o", "-e", "two", "-e", ""}, "two\n", "", 0},
		{"a two\nb\n", []string{"grep", "-c", "-e", "", "-e", "two"}, "2\n", "", 0},
		{"a TWO\n", []string{"grep", "-oi", "-F", "-e", "", "-e", "two"}, "TWO\n", "", 0},
		{"one\n", []string{"grep", "-o", ""}, "", "", 0},
	})
}

// -P patterns RE2 cannot take (look-around, \K, backreferences,
// possessive quantifiers, -w) go to a backtracking engine. Expected values
// from GNU grep 3.8 with PCRE2 10.42 (LC_ALL=C).
func TestGrepPerlBacktracking(t *testing.T) {
	t.Parallel()
	log := "t1 ERROR db path=/api/orders ms=5000\nt2 INFO request path=/health ms=1\nt3 WARN slow path=/api/users ms=1203\n"
	grepRunCases(t, nil, []grepCase{
		{log, []string{"grep", "-oP", `(?<=ms=)\d+`}, "5000\n1\n1203\n", "", 0},
		{log, []string{"grep", "-oP", `path=\K\S+`}, "/api/orders\n/health\n/api/users\n", "", 0},
		{log, []string{"grep", "-noP", `(?i)error \K\w+(?= path)`}, "1:db\n", "", 0},
		{log, []string{"grep", "-cP", `(?=.*ERROR)(?=.*orders)`}, "1\n", "", 0},
		{log, []string{"grep", "-P", `^(?!.*INFO)`}, "t1 ERROR db path=/api/orders ms=5000\nt3 WARN slow path=/api/users ms=1203\n", "", 0},
		{log, []string{"grep", "-oP", `\d+(?=03)`}, "12\n", "", 0},
		{log, []string{"grep", "-wP", "db"}, "t1 ERROR db path=/api/orders ms=5000\n", "", 0},
		{log, []string{"grep", "-wcP", "ERR"}, "0\n", "", 1},
		{"aab\nabc\n", []string{"grep", "-P", `(\w)\1`}, "aab\n", "", 0},
		{"aab\nabc\n", []string{"grep", "-P", `a++b`}, "aab\nabc\n", "", 0},
		{"a\n", []string{"grep", "-P", "("}, "", "grep: missing closing parenthesis\n", 2},
		{"a\n", []string{"grep", "-P", "a)"}, "", "grep: unmatched closing parenthesis\n", 2},
		{"a\n", []string{"grep", "-P", "[a"}, "", "grep: missing terminating ] for character class\n", 2},
	})
}

// TestGrepPerlLookbehindLength: PCRE2 10.42 refuses a lookbehind whose
// branch matches strings of several lengths, and \K in a look-around;
// fixed branches of different lengths, fixed repeats and groups whose
// alternatives are as long are taken (GNU grep 3.8 on Debian 12).
func TestGrepPerlLookbehindLength(t *testing.T) {
	t.Parallel()
	const notFixed = "grep: lookbehind assertion is not fixed length\n"
	in := "version: 1.2 ab aab cd acde\n"
	grepRunCases(t, nil, []grepCase{
		{in, []string{"grep", "-oP", `(?<=version:\s*)\S+`}, "", notFixed, 2},
		{in, []string{"grep", "-oP", `(?<=a+)b`}, "", notFixed, 2},
		{in, []string{"grep", "-cP", `(?<=a(b|cd))e`}, "", notFixed, 2},
		{in, []string{"grep", "-P", `x(?<!a{1,2})`}, "", notFixed, 2},
		{in, []string{"grep", "-P", `(?<=a(?<=b?)c)`}, "", notFixed, 2},
		{in, []string{"grep", "-P", `(?<=\R)x`}, "", notFixed, 2},
		{in, []string{"grep", "-P", `(?<=a\Kb)c`}, "", "grep: \\K is not allowed in lookarounds (but see PCRE2_EXTRA_ALLOW_LOOKAROUND_BSK)\n", 2},
		{in, []string{"grep", "-oP", `(?<=version:\s)\S+`}, "1.2\n", "", 0},
		{in, []string{"grep", "-oP", `(?<=ab|c)d`}, "d\nd\n", "", 0},
		// regexp2 folds ab|aab into a(?:|a)b: the rule is per branch.
		{in, []string{"grep", "-oP", `(?<=ab|aab)\x20`}, " \n \n", "", 0},
		{in, []string{"grep", "-P", `(a+)(?<=\1)`}, "", notFixed, 2},
		{in, []string{"grep", "-P", `(a(?<=\1))`}, "", notFixed, 2},
		{in, []string{"grep", "-P", `(?<=a+)(`}, "", "grep: missing closing parenthesis\n", 2},
		{in, []string{"grep", "-oP", `(?<=a(?:b|c)\x20a{2})b`}, "b\n", "", 0},
		{in, []string{"grep", "-oP", `(?<=[]a]\Qb \E)a+`}, "aa\n", "", 0},
		{in, []string{"grep", "-oP", `(a)(?<=\1)b`}, "ab\nab\n", "", 0},
		{in, []string{"grep", "-oP", `(?<=(?i)A{2})b`}, "b\n", "", 0},
		{in, []string{"grep", "-P", `(a)\2`}, "", "grep: reference to non-existent subpattern\n", 2},
	})
}

// TestGrepPerlBackrefForms: PCRE2's other back-reference spellings, which
// regexp2 lacks, match as GNU grep -P's (\g, relative \g{-N}, Python's
// (?P<name>...) and (?P=name), \k{name}).
func TestGrepPerlBackrefForms(t *testing.T) {
	t.Parallel()
	in := "1.1 22 9x9 ab [g1]\n"
	grepRunCases(t, nil, []grepCase{
		{in, []string{"grep", "-oP", `(?P<v>\d)\.(?P=v)`}, "1.1\n", "", 0},
		{in, []string{"grep", "-oP", `(?P<v>\d)x\k<v>`}, "9x9\n", "", 0},
		{in, []string{"grep", "-oP", `(\d)\g1`}, "22\n", "", 0},
		{in, []string{"grep", "-oP", `(\d)(x)\g{-2}`}, "9x9\n", "", 0},
		{in, []string{"grep", "-oP", `(?<d>\d)\g{d}|(?<e>a)\k{e}`}, "22\n", "", 0},
		{in, []string{"grep", "-oP", `[\\g]\d`}, "g1\n", "", 0},
		// Groups are numbered in the order they open; \K shifts none.
		{"abab abb\n", []string{"grep", "-oP", `(?<n>a)(b)\1`}, "aba\n", "", 0},
		{"abab abb\n", []string{"grep", "-oP", `(a)\K(b)\2`}, "bb\n", "", 0},
		{"abab abb\n", []string{"grep", "-oP", `(a)\g-1`}, "", "", 1},
		{"x <a>\n", []string{"grep", "-oP", `\<a>`}, "<a>\n", "", 0},
		{in, []string{"grep", "-P", `(a)\g`}, "", "grep: \\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number\n", 2},
		{in, []string{"grep", "-P", `(a)\g{-2}`}, "", "grep: reference to non-existent subpattern\n", 2},
	})
}

// TestGrepPerlPCRE2Syntax: what PCRE2 10.42 refuses or reads otherwise
// than regexp2 (and RE2), in GNU grep 3.8 -P's words.
func TestGrepPerlPCRE2Syntax(t *testing.T) {
	t.Parallel()
	in := "ab\nxa b\n"
	grepRunCases(t, nil, []grepCase{
		{in, []string{"grep", "-P", `a{65536}`}, "", "grep: number too big in {} quantifier\n", 2},
		{in, []string{"grep", "-P", `a{1,65536}`}, "", "grep: number too big in {} quantifier\n", 2},
		{in, []string{"grep", "-P", `(?<n>a)(?<n>b)`}, "", "grep: two named subpatterns have the same name (PCRE2_DUPNAMES not set)\n", 2},
		{in, []string{"grep", "-P", `(?<1a>x)`}, "", "grep: subpattern name must start with a non-digit\n", 2},
		{in, []string{"grep", "-P", `\u0061`}, "", "grep: PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u\n", 2},
		{in, []string{"grep", "-P", `a**`}, "", "grep: quantifier does not follow a repeatable item\n", 2},
		{in, []string{"grep", "-P", `(?#c`}, "", "grep: missing ) after (?# comment\n", 2},
		{in, []string{"grep", "-P", `[a-\d]`}, "", "grep: invalid range in character class\n", 2},
		{in, []string{"grep", "-oP", `(*UTF)(*CR)x\o{141}`}, "xa\n", "", 0},
		{in, []string{"grep", "-P", `[\d-z]`}, "", "grep: invalid range in character class\n", 2},
		{in, []string{"grep", "-P", `[[:alpha:]-z]`}, "", "grep: invalid range in character class\n", 2},
		{in, []string{"grep", "-P", `[z-a]`}, "", "grep: range out of order in character class\n", 2},
		{in, []string{"grep", "-P", `(?=a)[[:foo:]]`}, "", "grep: unknown POSIX class name\n", 2},
		// POSIX classes in the backtracking engine (they matched "[")
		{"abc12 x\n", []string{"grep", "-oP", `(?<=a)[[:alpha:]]+`}, "bc\n", "", 0},
		{"abc12 x\n", []string{"grep", "-oP", `(?<=a)[^[:space:][:^word:]]+`}, "bc12\n", "", 0},
		{"abc 12\n", []string{"grep", "-owP", `[[:alpha:]]+`}, "abc\n", "", 0},
		{in, []string{"grep", "-P", `(?<=a)[\K]`}, "", "grep: escape sequence is invalid in character class\n", 2},
		{in, []string{"grep", "-P", `(?<=a)[\N]`}, "", "grep: \\N is not supported in a class\n", 2},
		{"ab\nAb\n", []string{"grep", "-oP", `(?=a)a\x62|(?=A)[\x41-\x42]`}, "ab\nA\n", "", 0},
		{"a\x00b\n", []string{"grep", "-caP", `(?=a)a\x`}, "1\n", "", 0},
		{"ab\nxyz\n", []string{"grep", "-oP", `\N{U+0061}|x\N{2}`}, "a\nxyz\n", "", 0},
		{in, []string{"grep", "-P", `\N{LATIN}`}, "", "grep: PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u\n", 2},
		// .NET's class subtraction is no PCRE2: [a-z-[b]] is [a-z[-] and "]"
		{"b]\nb\n", []string{"grep", "-oP", `(?=b)[a-z-[b]]`}, "b]\n", "", 0},
	})
}

// TestGrepPerlTimeoutDeadline: the backtracking engine, which cannot be
// cancelled, is given no more time for a match than what is left before
// the run's deadline (a match it started kept a library or serve run up
// to grepPerlTimeout past its time limit), never less than a millisecond,
// and grepPerlTimeout without a deadline.
func TestGrepPerlTimeoutDeadline(t *testing.T) {
	t.Parallel()
	m, err := ForTests.GrepMatcher(context.Background(), []string{`^(a+)+(?=$)`}, 'P', false, false, false, '\n', false)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Perl2() {
		t.Fatal("the pattern did not go to the backtracking engine")
	}
	if got := m.PerlTimeout(time.Time{}); got != grepPerlTimeout {
		t.Errorf("no deadline: MatchTimeout = %v, want %v", got, grepPerlTimeout)
	}
	if got := m.PerlTimeout(time.Now().Add(time.Second)); got > time.Second || got <= 0 {
		t.Errorf("deadline in 1s: MatchTimeout = %v", got)
	}
	if got := m.PerlTimeout(time.Now().Add(-time.Hour)); got != time.Millisecond {
		t.Errorf("deadline passed: MatchTimeout = %v, want 1ms", got)
	}
	if _, err := m.MatchLine([]byte(strings.Repeat("a", 40) + "!")); err == nil {
		t.Error("a catastrophic match past the deadline did not stop")
	}
}

// TestGrepPerlNesting: -P groups nested past PCRE2's 250 levels are its
// error, where a million overflowed Go's stack in the backtracking
// engine's passes over the tree; 250 levels match. A pattern over 1 MiB
// is refused before any of it is compiled.
func TestGrepPerlNesting(t *testing.T) {
	t.Parallel()
	nest := func(n int) string {
		// a look-ahead keeps the pattern from RE2, which takes plain groups
		return "(?=h)" + strings.Repeat("(", n) + "h" + strings.Repeat(")", n)
	}
	for _, c := range []struct {
		pat, stdout, stderr string
		status              int
	}{
		{nest(250), "hi\n", "", 0},
		{nest(251), "", "grep: parentheses are too deeply nested\n", 2},
		{nest(500000), "", "grep: parentheses are too deeply nested\n", 2},
		// Over posixre.MaxLen: PCRE2's words for a pattern too large,
		// not compiled (session 25).
		{"(?=h)h|" + strings.Repeat("x", 1<<20), "", "grep: regular expression is too large\n", 2},
	} {
		got := runCmd(t, nil, "hi\n", "grep", "-P", c.pat)
		if got.stdout != c.stdout || got.stderr != c.stderr || got.status != c.status {
			t.Errorf("%d bytes of pattern: got %q %q %d", len(c.pat), got.stdout, got.stderr, got.status)
		}
	}
}

// TestGrepHugeFixed: one fixed string over posixre.MaxLen, which no
// regexp may take, is searched by the set of fixed strings under -x, -w
// and -i (session 26; they were refused as too big); -i in a UTF-8
// locale of a string with a letter the set does not fold (s, k, i) is
// still refused (GNU grep 3.8 ran such a search of a 200 KB string for
// minutes).
func TestGrepHugeFixed(t *testing.T) {
	t.Parallel()
	pat := strings.Repeat("ab", 600000)
	in := "x" + pat + " y\n" + pat + "\n" + strings.ToUpper(pat) + "\nno\n"
	for _, c := range []struct {
		args   []string
		stdout string
		status int
	}{
		{[]string{"-c", "-F", "-x", "-e", pat}, "1\n", 0},
		{[]string{"-c", "-F", "-w", "-e", pat}, "1\n", 0},
		{[]string{"-c", "-F", "-i", "-e", pat}, "3\n", 0},
		{[]string{"-c", "-F", "-x", "-e", pat + "z"}, "0\n", 1},
	} {
		got := runCmdWith(t, nil, []string{"LC_ALL=C"}, in, append([]string{"grep"}, c.args...)...)
		if got.stdout != c.stdout || got.stderr != "" || got.status != c.status {
			t.Errorf("grep %s: got %q %q %d", c.args[:3], got.stdout, got.stderr, got.status)
		}
	}
	got := runCmdWith(t, nil, []string{"LC_ALL=C.UTF-8"}, "as\n", "grep", "-c", "-F", "-i", "-e", strings.Repeat("as", 600000))
	if got.stderr != "grep: Regular expression too big\n" || got.status != 2 {
		t.Errorf("grep -F -i in UTF-8: got %q %q %d", got.stdout, got.stderr, got.status)
	}
}
