package builtins_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	. "github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// Expected values checked against GNU sed 4.9 (LC_ALL=C).
func TestSed(t *testing.T) {
	t.Parallel()
	grepRunCases(t, nil, []grepCase{
		{"hello\nworld\n", []string{"sed", "s/o/0/"}, "hell0\nw0rld\n", "", 0},
		// Special characters as the delimiter, with & in the replacement.
		{"a.b axb a|b a,b a#b\n", []string{"sed", `s.a\.b.[&].g`}, "[a.b] [axb] [a|b] [a,b] [a#b]\n", "", 0},
		{"a.b axb a|b a,b a#b\n", []string{"sed", `s|a\|b|[&]|g`}, "a.b axb [a|b] a,b a#b\n", "", 0},
		{"a.b axb a|b a,b a#b\n", []string{"sed", `s,a\,b,[&],g`}, "a.b axb a|b [a,b] a#b\n", "", 0},
		{"a.b axb a|b a,b a#b\n", []string{"sed", `s#a\#b#[&]#g`}, "a.b axb a|b a,b [a#b]\n", "", 0},
		{"a.b axb a|b a,b a#b\n", []string{"sed", "-E", `s|a\|b|[&]|g`}, "[a].[b] [a]x[b] [a]|[b] [a],[b] [a]#[b]\n", "", 0},
		{"a.b\n", []string{"sed", `s.b.\&\..`}, "a.&.\n", "", 0},
		{"a&b\n", []string{"sed", `s&\&&[\&]&`}, "a[&]b\n", "", 0},
		{"a&b\n", []string{"sed", `s&a&[\&]&`}, "[&]&b\n", "", 0},
		{"path/to/x\n", []string{"sed", `s|/|\||g`}, "path|to|x\n", "", 0},
		{"aaa\n", []string{"sed", `s*a*<&>*2`}, "a<a>a\n", "", 0},
		{"a^b\n", []string{"sed", `s^a\^b^&&^`}, "a^ba^b\n", "", 0},
		{"a$b\n", []string{"sed", `s$a\$b$&&$`}, "a$ba$b\n", "", 0},
		{"a*b\n", []string{"sed", `s*a\*b*&&*`}, "a*bb\n", "", 0},
		{"hello\nworld\n", []string{"sed", "s/o/0/g"}, "hell0\nw0rld\n", "", 0},
		{"hello world\n", []string{"sed", "s/o/0/2"}, "hello w0rld\n", "", 0},
		{"aaa\n", []string{"sed", "s/a/b/2g"}, "abb\n", "", 0},
		{"hello\nworld\n", []string{"sed", "-n", "s/o/0/p"}, "hell0\nw0rld\n", "", 0},
		{"hello\nworld\n", []string{"sed", "-n", "/wor/p"}, "world\n", "", 0},
		{"hello\nworld\n", []string{"sed", "/hel/d"}, "world\n", "", 0},
		{"hello\nworld\n", []string{"sed", "-n", "$p"}, "world\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "-n", "2,4p"}, "2\n3\n4\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "-n", "2,+2p"}, "2\n3\n4\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "-n", "2,~4p"}, "2\n3\n4\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "-n", "0~2p"}, "2\n4\n6\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "-n", "1~3p"}, "1\n4\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "2!d"}, "2\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "-n", "/2/,/4/p"}, "2\n3\n4\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "-n", "0,/1/p"}, "1\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "-n", "1,/1/p"}, "1\n2\n3\n4\n5\n6\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "-n", "4,2p"}, "4\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "-n", "/5/,$p"}, "5\n6\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "2q"}, "1\n2\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "2q7"}, "1\n2\n", "", 7},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "2Q"}, "1\n", "", 0},
		{"1\n2\n3\n4\n5\n6\n", []string{"sed", "-n", "$="}, "6\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "="}, "1\n1\n2\n2\n3\n3\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "N;P;D"}, "1\n2\n3\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "$!N;s/\\n/-/"}, "1-2\n3\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "N;N;N;s/\\n/+/g"}, "1\n2\n3\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "-n", "h;n;G;p"}, "2\n1\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "1!G;h;$!d"}, "3\n2\n1\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "x"}, "\n1\n2\n", "", 0},
		// A buffer keeps its missing final newline through h, H, g, G and x
		// (GNU sed 4.9: the hold space starts with one).
		{"a", []string{"sed", "G"}, "a\n\n", "", 0},
		{"a", []string{"sed", "x"}, "\n", "", 0},
		{"a", []string{"sed", "g"}, "\n", "", 0},
		{"a", []string{"sed", "h;x"}, "a", "", 0},
		{"a", []string{"sed", "H;x"}, "\na", "", 0},
		{"a\nb", []string{"sed", "x"}, "\na\n", "", 0},
		{"a\nb", []string{"sed", "1h;$G"}, "a\nb\na\n", "", 0},
		{"a\nb", []string{"sed", "-n", "1h;${H;x;p}"}, "a\nb", "", 0},
		{"a", []string{"sed", "-n", "h;H;G;p"}, "a\na\na", "", 0},
		{"1\n2\n3\n", []string{"sed", "n;d"}, "1\n3\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "a\\\nfoo"}, "1\nfoo\n2\nfoo\n3\nfoo\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "2i\\  bar"}, "1\n  bar\n2\n3\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "2a   hi"}, "1\n2\nhi\n3\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "2c\\\nX"}, "1\nX\n3\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "1,2c\\X"}, "X\n3\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "2!cX"}, "X\n2\nX\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "$a\\\nend1\\\nend2"}, "1\n2\n3\nend1\nend2\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "-e", "a\\", "-e", "x"}, "1\nx\n2\nx\n3\nx\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "-n", "/2/{p;p}"}, "2\n2\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "/2/!{s/^/>/}"}, ">1\n2\n>3\n", "", 0},
		{"1\n2\n3\n", []string{"sed", ":a;N;$!ba;s/\\n/,/g"}, "1,2,3\n", "", 0},
		{"aXbXc\n", []string{"sed", ":x;s/X/-/;tx"}, "a-b-c\n", "", 0},
		{"abc\n", []string{"sed", "s/b/B/;T;s/$/!/"}, "aBc!\n", "", 0},
		{"abc\n", []string{"sed", "s/z/B/;T;s/$/!/"}, "abc\n", "", 0},
		{"abc\n", []string{"sed", "s/z/B/;tend;s/$/?/;:end"}, "abc?\n", "", 0},
		{"hello world\n", []string{"sed", "s/\\(l\\+\\)o/\\U\\1\\E-&/g"}, "heLL-llo world\n", "", 0},
		{"hello world\n", []string{"sed", "s/w\\(.\\)/\\u&\\l\\1X/"}, "hello WooXrld\n", "", 0},
		{"hello world\n", []string{"sed", "-E", "s/(\\w+) (\\w+)/\\2 \\1/"}, "world hello\n", "", 0},
		{"hello world\n", []string{"sed", "-r", "s/o+/[&]/g"}, "hell[o] w[o]rld\n", "", 0},
		{"hello world\n", []string{"sed", "s/o/\\n/g"}, "hell\n w\nrld\n", "", 0},
		{"hello world\n", []string{"sed", "s|o|/|g"}, "hell/ w/rld\n", "", 0},
		{"a/b\n", []string{"sed", "s/\\//|/"}, "a|b\n", "", 0},
		{"a|b\n", []string{"sed", "s|a\\|b|X|"}, "X\n", "", 0},
		{"hello\n", []string{"sed", "y/hel/HEL/"}, "HELLo\n", "", 0},
		{"hello\n", []string{"sed", "y/hel/HE/"}, "", "sed: -e expression #1, char 9: strings for `y' command are different lengths\n", 1},
		{"HeLLo\n", []string{"sed", "s/l/x/Ig"}, "Hexxo\n", "", 0},
		{"HeLLo\n", []string{"sed", "/hello/Id"}, "", "", 0},
		{"a\tb\\c\x01\n", []string{"sed", "-n", "l"}, "a\\tb\\\\c\\001$\n", "", 0},
		{"a\tb\\c\x01\n", []string{"sed", "-n", "l 5"}, "a\\tb\\\n\\\\c\\\n\\001$\n", "", 0},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", []string{"sed", "-n", "l"}, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\\naaaaaaaaaaaaaaa$\n", "", 0},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", []string{"sed", "-l", "20", "-n", "l"}, "aaaaaaaaaaaaaaaaaaa\\\naaaaaaaaaaaaaaaaaaa\\\naaaaaaaaaaaaaaaaaaa\\\naaaaaaaaaaaaaaaaaaa\\\naaaaaaaa$\n", "", 0},
		{"abc", []string{"sed", "p"}, "abc\nabc", "", 0},
		{"abc", []string{"sed", "s/c/C/"}, "abC", "", 0},
		{"abc", []string{"sed", "$a\\\nx"}, "abc\nx\n", "", 0},
		{"a\nb", []string{"sed", "-n", "p"}, "a\nb", "", 0},
		{"a\nb\n", []string{"sed", "G"}, "a\n\nb\n\n", "", 0},
		{"a\nb\n", []string{"sed", "-n", "H;${x;s/\\n/,/g;p}"}, ",a,b\n", "", 0},
		{"a\nb\n", []string{"sed", "z;s/^$/empty/"}, "empty\nempty\n", "", 0},
		{"a\nb\n", []string{"sed", "F"}, "-\na\n-\nb\n", "", 0},
		{"a\x00b\x00", []string{"sed", "-z", "s/^/>/"}, ">a\x00>b\x00", "", 0},
		{"a\nb\n", []string{"sed", "#n\np"}, "a\nb\n", "", 0},
		{"a\nb\n", []string{"sed", "-n", "/a/{n;p}"}, "b\n", "", 0},
		{"ab\n", []string{"sed", "s/\\(a\\)\\(b\\)/\\2\\1/"}, "ba\n", "", 0},
		{"abab\n", []string{"sed", "s/\\(ab\\)\\1/X/"}, "X\n", "", 0},
		{"foo bar\n", []string{"sed", "s/\\<b/B/"}, "foo Bar\n", "", 0},
		{"foo bar\n", []string{"sed", "s/o\\>/O/g"}, "foO bar\n", "", 0},
		{"a.b\n", []string{"sed", "s/./X/g"}, "XXX\n", "", 0},
		{"a\nb\n", []string{"sed", "N;s/a.b/X/"}, "X\n", "", 0},
		{"a\nb\n", []string{"sed", "N;s/a$/X/M"}, "X\nb\n", "", 0},
		{"a\nb\n", []string{"sed", "N;s/^b/X/Mg"}, "a\nX\n", "", 0},
		{"xax\n", []string{"sed", "s/a*/-/g"}, "-x-x-\n", "", 0},
		{"abc\n", []string{"sed", "s/x*/-/2"}, "a-bc\n", "", 0},
		{"abc\n", []string{"sed", "s/b/[&][\\&]/"}, "a[b][&]c\n", "", 0},
		{"abc\n", []string{"sed", "-s", "-n", "$p", "-"}, "abc\n", "", 0},
		{"abc\n", []string{"sed", "--posix", "-u", "p"}, "abc\nabc\n", "", 0},
		// --posix: GNU sed 4.9's POSIXLY_BASIC (checked with Debian 12's sed).
		{"a+b?c|d\n", []string{"sed", "--posix", `s/a\+/X/;s/b\?/Y/;s/c\|d/Z/`}, "XYZ\n", "", 0},
		{"a+b\n", []string{"sed", "--posix", "-E", `s/a+|b/X/g`}, "X+X\n", "", 0},
		{"foo w bar\n", []string{"sed", "--posix", `s/\w/W/;s/\bbar/B/;s/\(o\)/\U\1/`}, "fUoo W bar\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "--posix", "N;P;D"}, "1\n2\n", "", 0},
		{"1\n2\n3\n", []string{"sed", "--posix", "$!N;P;D"}, "1\n2\n3\n", "", 0},
		{"x\n", []string{"sed", "--posix", "0,/x/d"}, "", "sed: -e expression #1, char 6: invalid usage of line address 0\n", 1},
		{"x\n", []string{"sed", "--posix", "1,+1d"}, "", "sed: -e expression #1, char 3: unexpected `,'\n", 1},
		{"x\n", []string{"sed", "--posix", "1~2d"}, "", "sed: -e expression #1, char 2: unknown command: `~'\n", 1},
		{"x\n", []string{"sed", "--posix", "1a hello"}, "", "sed: -e expression #1, char 4: expected \\ after `a', `c' or `i'\n", 1},
		{"x\n", []string{"sed", "--posix", "-e", "1a\\", "-e", "y"}, "", "sed: -e expression #1, char 3: incomplete command\n", 1},
		{"x\n", []string{"sed", "--posix", "s/a/b/;T"}, "", "sed: -e expression #1, char 8: unknown command: `T'\n", 1},
		{"x\n", []string{"sed", "--posix", "2q5"}, "", "sed: -e expression #1, char 3: extra characters after command\n", 1},
		{"x\n", []string{"sed", "--posix", "1,2="}, "", "sed: -e expression #1, char 4: command only uses one address\n", 1},
		{"x\n", []string{"sed", "--posix", "s/x/y/pI"}, "", "sed: -e expression #1, char 8: unknown option to `s'\n", 1},
		{"x\n", []string{"sed", "--posix", "/x/I d"}, "", "sed: -e expression #1, char 4: unknown command: `I'\n", 1},
		// --debug (GNU sed 4.9's trace; more in fixture gnu_s21_sed_debug).
		{"a\nb", []string{"sed", "--debug", "/a/{s/a/X/;h};$!d;x;G"},
			"SED PROGRAM:\n  /a/ {\n    s/a/X/\n    h\n  }\n  $! d\n  x\n  G\n" +
				"INPUT:   'STDIN' line 1\nPATTERN: a\nCOMMAND: /a/ {\nCOMMAND:   s/a/X/\nMATCHED REGEX REGISTERS\n  regex[0] = 0-1 'a'\n" +
				"PATTERN: X\nCOMMAND:   h\nHOLD:    X\nCOMMAND: }\nCOMMAND: $! d\nEND-OF-CYCLE:\n" +
				"INPUT:   'STDIN' line 2\nPATTERN: b\nCOMMAND: /a/ {\nCOMMAND: }\nCOMMAND: $! d\nCOMMAND: x\nPATTERN: X\nHOLD:    b\n" +
				"COMMAND: G\nPATTERN: X\\nb\nEND-OF-CYCLE:\nX\nb", "", 0},
		{"a\n", []string{"sed", "--debug", "-n", "p;p"}, "SED PROGRAM:\n  p\n  p\nINPUT:   'STDIN' line 1\nPATTERN: a\nCOMMAND: p\na\nCOMMAND: p\na\nEND-OF-CYCLE:\n", "", 0},
		// addr1,~N ends at the next multiple of N after addr1, even when
		// addr1 is one (GNU 4.9, whatever its manual says).
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n", []string{"sed", "4,~4d;1,~1d"}, "3\n9\n", "", 0},
		// w /dev/stdout keeps its own missing newline (GNU sed 4.9).
		{"a\nb", []string{"sed", "w /dev/stdout"}, "a\na\nbb", "", 0},
		{"a\nb", []string{"sed", "-n", "p;w /dev/stdout"}, "a\na\nbb", "", 0},
		{"x\n", []string{"sed", "k"}, "", "sed: -e expression #1, char 1: unknown command: `k'\n", 1},
		{"x\n", []string{"sed", "s/a/b"}, "", "sed: -e expression #1, char 5: unterminated `s' command\n", 1},
		{"x\n", []string{"sed", "s/a/b/q"}, "", "sed: -e expression #1, char 7: unknown option to `s'\n", 1},
		{"x\n", []string{"sed", "p;p;k"}, "", "sed: -e expression #1, char 5: unknown command: `k'\n", 1},
		{"x\n", []string{"sed", "/x"}, "", "sed: -e expression #1, char 2: unterminated address regex\n", 1},
		{"x\n", []string{"sed", "b foo"}, "", "sed: can't find label for jump to `foo'\n", 4},
		{"x\n", []string{"sed", "}"}, "", "sed: -e expression #1, char 1: unexpected `}'\n", 1},
		{"x\n", []string{"sed", "{p"}, "", "sed: -e expression #1, char 0: unmatched `{'\n", 1},
		{"x\n", []string{"sed", "s/\\(a/b/"}, "", "sed: -e expression #1, char 8: Unmatched ( or \\(\n", 1},
		{"x\n", []string{"sed", "y/ab/c/"}, "", "sed: -e expression #1, char 7: strings for `y' command are different lengths\n", 1},
		{"x\n", []string{"sed", "a"}, "", "sed: -e expression #1, char 1: expected \\ after `a', `c' or `i'\n", 1},
		{"x\n", []string{"sed", "3,p"}, "", "sed: -e expression #1, char 3: unexpected `,'\n", 1},
		{"x\n", []string{"sed", "q 5 x"}, "", "sed: -e expression #1, char 5: extra characters after command\n", 1},
		{"x\n", []string{"sed", ":"}, "", "sed: -e expression #1, char 1: \":\" lacks a label\n", 1},
		{"x\n", []string{"sed", "0p"}, "", "sed: -e expression #1, char 2: invalid usage of line address 0\n", 1},
		{"x\n", []string{"sed", "0,5p"}, "", "sed: -e expression #1, char 4: invalid usage of line address 0\n", 1},
		{"x\n", []string{"sed", "s/a/b/gg"}, "", "sed: -e expression #1, char 8: multiple `g' options to `s' command\n", 1},
		{"x\n", []string{"sed", "s/a/b/2p2"}, "", "sed: -e expression #1, char 9: multiple number options to `s' command\n", 1},
		{"x\n", []string{"sed", "s/a/b/0"}, "", "sed: -e expression #1, char 7: number option to `s' command may not be zero\n", 1},
		{"x\n", []string{"sed", "p x"}, "", "sed: -e expression #1, char 3: extra characters after command\n", 1},
		{"x\n", []string{"sed", "r"}, "", "sed: -e expression #1, char 1: missing filename in r/R/w/W commands\n", 1},
		{"x\n", []string{"sed", "s/x/\\2/"}, "", "sed: -e expression #1, char 7: invalid reference \\2 on `s' command's RHS\n", 1},
		{"x\n", []string{"sed", "=x"}, "", "sed: -e expression #1, char 2: extra characters after command\n", 1},
		{"x\n", []string{"sed", "y/a/"}, "", "sed: -e expression #1, char 4: unterminated `y' command\n", 1},
		{"x\n", []string{"sed", "-n", "-e", "p", "-e", "k"}, "", "sed: -e expression #2, char 1: unknown command: `k'\n", 1},
		{"x\n", []string{"sed", "s//y/"}, "", "sed: -e expression #1, char 0: no previous regular expression\n", 1},
		// A run-time error ends sed at once, without the cycle's
		// autoprint or queued text (GNU sed 4.9; FuzzSedParse found it).
		{"a\nb\n", []string{"sed", "0,//a0"}, "", "sed: -e expression #1, char 0: no previous regular expression\n", 1},
		{"a\nb\n", []string{"sed", "p;//p"}, "a\n", "sed: -e expression #1, char 0: no previous regular expression\n", 1},
		{"x\n", []string{"sed", "-E", "s/(x/y/"}, "", "sed: -e expression #1, char 7: Unmatched ( or \\(\n", 1},
		{"x\n", []string{"sed", "-i", "p"}, "", "sed: no input files\n", 4},
	})
}

// GNU sed prints its usage on standard error when there is no script or
// an option is unknown, and the same text on standard output for --help.
// The text is GNU sed 4.9's (`sed --bogus 2>&1`) with the lines of
// --debug, --follow-symlinks, --posix and -u saying what
// llmsh's sed does, and llmsh's last paragraph for GNU's web addresses.
const gnuSedUsage = `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 accepted: links are always followed (vfsd resolves them)
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the ` + "`" + `l' command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

The e command and the s///e flag run the command with llmsh's own
commands (sh -c), never a program.
`

func TestSedUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"sed"}, gnuSedUsage},
		{[]string{"sed", "--bogus", "p"}, "sed: unrecognized option '--bogus'\n" + gnuSedUsage},
		{[]string{"sed", "-k", "p"}, "sed: invalid option -- 'k'\n" + gnuSedUsage},
		{[]string{"sed", "-n"}, gnuSedUsage},
	} {
		r := runCmd(t, nil, "x\n", c.args...)
		if r.status != 1 || r.stdout != "" || r.stderr != c.stderr {
			t.Errorf("%q: got %q, %q, %d", c.args, r.stdout, r.stderr, r.status)
		}
	}
	// --help prints the same text, on standard output, status 0.
	if r := runCmd(t, nil, "", "sed", "--help"); r.status != 0 || r.stdout != gnuSedUsage || r.stderr != "" {
		t.Errorf("sed --help: got %q, %q, %d", r.stdout, r.stderr, r.status)
	}
}

// -l takes its number as C's atoi does (checked against GNU sed 4.9).
func TestSedLineLength(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"abcdefghij\n", []string{"sed", "-n", "-l", "x", "l"}, "abcdefghij$\n", "", 0},
		{"abcdefghij\n", []string{"sed", "-n", "-l", "3x", "l"}, "ab\\\ncd\\\nef\\\ngh\\\nij$\n", "", 0},
		{"abcdefghij\n", []string{"sed", "-n", "-l", " 4", "l"}, "abc\\\ndef\\\nghi\\\nj$\n", "", 0},
		{"abcdefghij\n", []string{"sed", "-n", "-l", "-5", "l"}, "abcdefghij$\n", "", 0},
	})
}

// FuzzSedParse feeds scripts to the parser and runs them over a little
// input: whatever the script, sed never panics.
func FuzzSedParse(f *testing.F) {
	for _, s := range []string{"s/a/b/g", "1~2{p;n}", ":a;N;$!ba;s/\n/,/g", "a\\\nfoo", "y/abc/xyz/", "/x/I,+2!d",
		"0,/re/s//X/", "l 5;=;F;z", "s/\\(a\\)\\1/\\U&\\E/2w /dev/stdout", "$!N;P;D", "c\\", ":a;;$!ba;s/\x80/,/", "s/x/\\n/;T;Q3", "{", "}", "s", "y/a/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		run := func() (out, errs string, st int, finished bool) {
			// A script may loop for ever (":a;ba"), as in GNU sed: the
			// context's deadline stops it.
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			b, _ := Lookup("sed")
			var o, e bytes.Buffer
			env := &Env{Ctx: ctx, Args: []string{"sed", "-e", script}, Stdin: strings.NewReader("a\nb\naa\n"),
				Stdout: &o, Stderr: &e, FS: testFS(t, t.TempDir())}
			env.Dir = "/nonexistent"
			st = Run(b, env)
			return o.String(), e.String(), st, ctx.Err() == nil
		}
		out, errs, st, finished := run()
		if strings.Contains(errs, "internal error") {
			t.Fatalf("%q: %s", script, errs)
		}
		// As in GNU sed, the whole script is parsed before any input is
		// read: a script error comes with no output and status 1. (An
		// empty regex with no previous one is found while running, as
		// in GNU sed, though it is reported in the same form.)
		if strings.HasPrefix(errs, "sed: -e expression #") && !strings.Contains(errs, "no previous regular expression") && (out != "" || st != 1) {
			t.Fatalf("%q: script error after output %q, status %d: %s", script, out, st, errs)
		}
		// A script that ends by itself does the same on a second run
		// (fresh files): no state survives a run, nothing depends on
		// map order.
		if !finished {
			return
		}
		out2, errs2, st2, finished2 := run()
		if finished2 && (out2 != out || errs2 != errs || st2 != st) {
			t.Fatalf("%q: two runs differ: %q %q %d, then %q %q %d", script, out, errs, st, out2, errs2, st2)
		}
	})
}

// Behaviour found with a conformance run against a public utility test
// suite; every expected value was checked against GNU sed 4.9.
func TestSedConformance(t *testing.T) {
	t.Parallel()
	grepRunCases(t, nil, []grepCase{
		// The delimiter does not end a regex inside a bracket expression,
		// and a backslash is an ordinary character there ([\/] is '\' or '/').
		{"one/two\n", []string{"sed", "s/[/]//"}, "onetwo\n", "", 0},
		{"a\\b/c\n", []string{"sed", `s/[\/]/X/g`}, "aXbXc\n", "", 0},
		{"[\n", []string{"sed", "s][[]]X]g"}, "X\n", "", 0},
		{"ABaaCDa EFaa\n", []string{"sed", `sa\a[a[:space:]bc]*aXXag`}, "ABXXCDXXEFXX\n", "", 0},
		{"he llo\n", []string{"sed", `s/\([^a-zA-Z0-9.:_\-\/]\)/\\\1/g`}, "he\\ llo\n", "", 0},
		{"a\tb\\t\n", []string{"sed", `s/[\t]/X/g`}, "aXb\\t\n", "", 0},
		{"a/b\n", []string{"sed", "-n", `\,[,],p`}, "", "", 0},
		{"a,b\n", []string{"sed", "-n", `\,[,],p`}, "a,b\n", "", 0},
		// Labels end at blanks, ';' and '}'.
		{"a\nSTART\nb\nc\nEND\nd\n", []string{"sed", "-n", "/START/{:a;n;/END/q;p;ba}"}, "b\nc\n", "", 0},
		{"a\n", []string{"sed", "-n", "b x ; :x;p"}, "a\n", "", 0},
		// Text that ends an -e piece in a backslash goes on in the next.
		{"hello", []string{"sed", "-e", `c\`, "-e", `two\`, "-e", ""}, "two\n\n", "", 0},
		{"hello\n", []string{"sed", "-e", `a \l \x\`, "-e", "ab\\\nc"}, "hello\nl x\nab\nc\n", "", 0},
		{"hello\n", []string{"sed", "-e", `a foo\`, "-e", "bar"}, "hello\nfoo\nbar\n", "", 0},
		// A lone "a\" appends nothing but the missing newline.
		{"hello", []string{"sed", `a\`}, "hello\n", "", 0},
		{"hello\n", []string{"sed", `$a\`}, "hello\n", "", 0},
		// Escapes in a, i, c text and in replacements.
		{"x\n", []string{"sed", `a foo\tbar\nbaz`}, "x\nfoo\tbar\nbaz\n", "", 0},
		{"x\n", []string{"sed", `c foo\abar`}, "foo\abar\n", "", 0},
		{"x\n", []string{"sed", `a \d065\o101\x41\cb`}, "x\nd065AA\x02\n", "", 0},
		{"x\n", []string{"sed", "a\\\n\\tfoo"}, "x\n\tfoo\n", "", 0},
		{"x\n", []string{"sed", `s/x/\d065\o101\x41\ca\cZ/`}, "AAA\x01\x1a\n", "", 0},
		{"x\n", []string{"sed", `s/x/\x4g/`}, "\x04g\n", "", 0},
		// -z: N, G, H, D, P join and split on NUL; l ends in "$" and NUL.
		{"one\x00two\x00", []string{"sed", "-z", "N"}, "one\x00two\x00", "", 0},
		{"one\x00two", []string{"sed", "-z", "N;P"}, "one\x00one\x00two", "", 0},
		{"one\x00two", []string{"sed", "-z", "N;D"}, "two", "", 0},
		{"one", []string{"sed", "-z", "h;G"}, "one\x00one", "", 0},
		{"one", []string{"sed", "-z", "H;g"}, "\x00one", "", 0},
		{"one\x00two\x00", []string{"sed", "-zn", "N;l"}, "one\\000two$\x00", "", 0},
		// \xHH \dNNN \oNNN \cX in a regex give a byte that keeps its
		// special meaning, inside brackets too.
		{"a.b\n", []string{"sed", `s/\x2e/X/`}, "X.b\n", "", 0},
		{"a^b\n", []string{"sed", `s/\x5e/X/`}, "Xa^b\n", "", 0},
		{"aAb\n", []string{"sed", `s/\o101/X/`}, "aXb\n", "", 0},
		{"a\tb\n", []string{"sed", `s/\d9/X/`}, "aXb\n", "", 0},
		{"a\x01b\n", []string{"sed", `s/\cA/X/`}, "aXb\n", "", 0},
		{"aNb\n", []string{"sed", `s/[\x41-\x5a]/X/`}, "aXb\n", "", 0},
		{"one\x00two\x00", []string{"sed", "-z", `N;s/\x00/+/`}, "one+two\x00", "", 0},
		// A range whose first line went by while the command was skipped
		// starts on the next line, unless its end line is already past.
		{"1\n2\n3\n4\n", []string{"sed", "-n", "1d;1,3p"}, "2\n3\n", "", 0},
		{"1\n2\n3\nx\n5\n", []string{"sed", "-n", "1,2d;1,/x/p"}, "3\nx\n", "", 0},
		{"1\n2\n3\n4\n", []string{"sed", "-n", "2d;2,2p"}, "", "", 0},
		{"1\n2\n3\n4\n", []string{"sed", "-n", "2d;2,1p"}, "", "", 0},
		{"1\n2\n3\n4\n", []string{"sed", "-n", "2d;2,3p"}, "3\n", "", 0},
		{"1\n2\n3\n4\n5\n", []string{"sed", "-n", "n;n;1,2p"}, "", "", 0},
		{"1\n2\n3\n4\n5\n", []string{"sed", "-n", "n;n;1,4p"}, "3\n", "", 0},
	})
}

// TestSedDropsLineCutByCancel: a read that fails because the run was
// stopped (an endless device) ends the input, and the line cut short is
// not edited or printed: `sed y/ab/ba/ < /dev/zero` edited the 700 MB it
// had read, 6 s past a 4 s limit of a library Run (session 21).
func TestSedDropsLineCutByCancel(t *testing.T) {
	t.Parallel()
	b, _ := Lookup("sed")
	var out, errb bytes.Buffer
	in := io.MultiReader(strings.NewReader("ab\nabab"), iotest.ErrReader(gnu.ErrCancelled))
	env := &Env{Ctx: context.Background(), Args: []string{"sed", "y/ab/ba/"}, Stdin: in, Stdout: &out, Stderr: &errb}
	Run(b, env)
	if out.String() != "ba\n" || errb.String() != "" {
		t.Fatalf("stdout %q, stderr %q; want the whole line only", out.String(), errb.String())
	}
}
