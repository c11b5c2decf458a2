package builtins_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// awkCase is one awk call. files (may be nil) are created in the granted
// working directory; check/want read a file back afterwards.
type awkCase struct {
	name    string
	files   map[string]string
	stdin   string
	environ []string
	args    []string
	out     string
	err     string
	status  int
	check   string
	want    string
}

func runAwkCase(t *testing.T, c awkCase) {
	t.Helper()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeHostFiles(t, dir, c.files)
	b, _ := Lookup("awk")
	var out, errb strings.Builder
	env := &Env{Ctx: context.Background(), Args: append([]string{"awk"}, c.args...),
		Stdin: strings.NewReader(c.stdin), Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir, Environ: c.environ}
	st := Run(b, env)
	if out.String() != c.out || errb.String() != c.err || st != c.status {
		t.Errorf("awk %q:\n got %q %q %d\nwant %q %q %d", c.args, out.String(), errb.String(), st, c.out, c.err, c.status)
	}
	if c.check != "" {
		f, err := fsys.OpenFile(dir+"/"+c.check, os.O_RDONLY)
		if err != nil {
			t.Errorf("awk %q: %v", c.args, err)
			return
		}
		data, _ := io.ReadAll(f)
		f.Close()
		if string(data) != c.want {
			t.Errorf("awk %q: %s holds %q, want %q", c.args, c.check, data, c.want)
		}
	}
}

// Unless said otherwise, stdout, stderr and status were checked against
// gawk 5.2.1 (invoked as awk, LC_ALL=C); where llmsh differs on purpose
// (refusals) or GoAWK words a message differently, the case says so.
func TestAwk(t *testing.T) {
	t.Parallel()
	people := map[string]string{"people": "alice 30 NY\nbob 25 LA\ncarol 35 NY\n", "kv.csv": "k1,v1\nk2,v2\n"}
	tests := []awkCase{
		{name: "fields", files: people, args: []string{"{print $1, NF, $NF}", "people"},
			out: "alice 3 NY\nbob 3 LA\ncarol 3 NY\n"},
		{name: "sum and average", files: people, args: []string{"{s+=$2} END {print s, s/NR}", "people"}, out: "90 30\n"},
		{name: "-F", files: people, args: []string{"-F", ",", "{print $2}", "kv.csv"}, out: "v1\nv2\n"},
		{name: "-F attached and OFS", files: people, args: []string{"-F,", "-v", "OFS=:", "{$1=$1; print}", "kv.csv"}, out: "k1:v1\nk2:v2\n"},
		{name: "-Ft is the letter t (mawk)", stdin: "atb\tc\n", args: []string{"-Ft", "{print $2}"}, out: "b\tc\n"},
		// mawk 1.3.4 20200120 has no intervals: braces are literal.
		{name: "braces are literal (mawk)", stdin: "aa\na{2}\n123\n",
			args: []string{`/a{2}/ { print "re:" $0 } $0 ~ "^[0-9]{3}$" { print "digits" } END { s = "b{1}c"; print gsub(/[{}]/, "", s), s }`},
			out:  "re:a{2}\n2 b1c\n"},
		{name: "-F escapes", stdin: "a\tb\n", args: []string{`-F\t`, "{print $2}"}, out: "b\n"},
		{name: "--field-separator", stdin: "a:b\n", args: []string{"--field-separator=:", "{print $2}"}, out: "b\n"},
		{name: "-v", files: people, args: []string{"-v", "n=2", "NR==n", "people"}, out: "bob 25 LA\n"},
		{name: "-v escapes", args: []string{"-v", `msg=a\tb`, "BEGIN { print msg }"}, out: "a\tb\n"},
		{name: "--assign", args: []string{"--assign", "x=7", "BEGIN { print x }"}, out: "7\n"},
		{name: "BEGIN and END", stdin: "a\nb\n", args: []string{`BEGIN { print "start" } { n++ } END { print "end", n, NR }`}, out: "start\nend 2 2\n"},
		{name: "BEGIN only does not read stdin", stdin: "never\n", args: []string{`BEGIN { print "x" }`}, out: "x\n"},
		{name: "stdin dash", stdin: "s\n", files: people, args: []string{"{print FILENAME, $1}", "kv.csv", "-"}, out: "kv.csv k1,v1\nkv.csv k2,v2\n- s\n"},
		{name: "FNR and FILENAME across files", files: people, args: []string{`{print FILENAME ":" FNR ":" NR}`, "people", "kv.csv"},
			out: "people:1:1\npeople:2:2\npeople:3:3\nkv.csv:1:4\nkv.csv:2:5\n"},
		{name: "var=val operands", files: people, args: []string{"{ print v, $1 }", "v=1", "kv.csv", "v=2", "kv.csv"},
			out: "1 k1,v1\n1 k2,v2\n2 k1,v1\n2 k2,v2\n"},
		{name: "printf formats", args: []string{`BEGIN{printf "%d %5.2f %-4s| %x %o %e %c %i %s\n", 42.7, 3.14159, "ab", 255, 8, 12345.678, 65, 3, 1e6}`},
			out: "42  3.14 ab  | ff 10 1.234568e+04 A 3 1000000\n"},
		{name: "printf widths", args: []string{`BEGIN { printf "%5s|%-5s|%.2s|%05.1f|%+d|% d\n", "ab", "cd", "efgh", 3.14159, 5, 5 }`},
			out: "   ab|cd   |ef|003.1|+5| 5\n"},
		{name: "string functions", args: []string{`BEGIN{x="hello world"; print length(x), substr(x,1,5), index(x,"o"), toupper(x); n=split("a,b,c",a,","); print n, a[3]; s="foo bar foo"; gsub(/foo/,"X",s); print s, match("xxabc", /abc/), RSTART, RLENGTH}`},
			out: "11 hello 5 HELLO WORLD\n3 c\nX bar X 3 3 3\n"},
		{name: "range pattern", files: people, args: []string{"/bob/,/carol/", "people"}, out: "bob 25 LA\ncarol 35 NY\n"},
		{name: "paragraph mode", stdin: "a\nb\n\n\nc\n", args: []string{`BEGIN{RS=""}{print NR": "$1"+"$2}`}, out: "1: a+b\n2: c+\n"},
		{name: "exit status, END still runs", args: []string{`BEGIN { exit 3 } END { print "end" }`}, out: "end\n", status: 3},
		{name: "exit runs END", stdin: "a\nb\n", args: []string{`{ exit } END { print "end", NR }`}, out: "end 1\n"},
		{name: "getline < file", files: people, args: []string{`BEGIN { while ((getline line < "people") > 0) n++; print n, line }`}, out: "3 carol 35 NY\n"},
		{name: "getline < missing file is -1", args: []string{`BEGIN { print (getline l < "nope") }`}, out: "-1\n"},
		// mawk 1.3.4 fails to read a directory: a fatal error.
		{name: "getline < directory", files: map[string]string{"d/x": ""}, args: []string{`BEGIN { print (getline l < "d") }`},
			err: "awk: read error (Is a directory)\n", status: 2},
		{name: "plain getline reads the input", files: people, args: []string{`BEGIN { getline; print "first:", $1, NR }`, "people"}, out: "first: alice 1\n"},
		{name: "print > file and read it back", args: []string{`BEGIN { print "one" > "o.txt"; print "two" > "o.txt"; close("o.txt"); while ((getline l < "o.txt") > 0) print "got", l }`},
			out: "got one\ngot two\n", check: "o.txt", want: "one\ntwo\n"},
		{name: "print >> appends", files: map[string]string{"o.txt": "old\n"}, args: []string{`BEGIN { print "new" >> "o.txt" }`}, check: "o.txt", want: "old\nnew\n"},
		{name: "print > truncates", files: map[string]string{"o.txt": "old\n"}, args: []string{`BEGIN { printf "%s", "new" > "o.txt" }`}, check: "o.txt", want: "new"},
		{name: "split into files", files: people, args: []string{`{ print $1 > ($3 ".txt") }`, "people"}, check: "NY.txt", want: "alice\ncarol\n"},
		{name: "/dev/stderr and /dev/stdout", args: []string{`BEGIN { print "e" > "/dev/stderr"; print "o" > "/dev/stdout" }`}, out: "o\n", err: "e\n"},
		{name: "read /dev/null", args: []string{`BEGIN { print (getline l < "/dev/null") } { print "no input" } END { print NR }`, "/dev/null"}, out: "0\n0\n"},
		{name: "print > /dev/null", args: []string{`BEGIN { print "gone" > "/dev/null"; printf "x" >> "/dev/null"; print "kept" }`}, out: "kept\n"},
		{name: "/dev/stdin operand", stdin: "in\n", args: []string{"{print}", "/dev/stdin"}, out: "in\n"},
		{name: "ENVIRON holds only env.Environ", environ: []string{"A=1", "B=two words"},
			args: []string{`BEGIN { n = 0; for (k in ENVIRON) n++; print n, ENVIRON["A"], ENVIRON["B"], ("HOME" in ENVIRON), ("PATH" in ENVIRON) }`},
			out:  "2 1 two words 0 0\n"},
		{name: "no environ, empty ENVIRON", args: []string{`BEGIN { for (k in ENVIRON) print k }`}},
		{name: "-f program file", files: map[string]string{"p.awk": "BEGIN {\n  print \"from file\"\n}\n"}, args: []string{"-f", "p.awk"}, out: "from file\n"},
		{name: "several -f and -e", files: map[string]string{"a.awk": "function f(x) { return x * 2 }\n"}, args: []string{"-f", "a.awk", "-e", "BEGIN { print f(21) }"}, out: "42\n"},
		{name: "-f - reads the program from stdin", stdin: `BEGIN { print "stdin prog" }`, args: []string{"-f", "-"}, out: "stdin prog\n"},
		{name: "--", args: []string{"--", `BEGIN { print "dd" }`}, out: "dd\n"},
		{name: "--version", args: []string{"--version"}, out: awkVersion},
		// gawk's time functions, checked with TZ=UTC gawk and TZ=Europe/Paris gawk.
		{name: "strftime and mktime", environ: []string{"TZ=UTC"},
			args: []string{`BEGIN { print strftime("%Y-%m-%d %H:%M:%S", 1700000000); print strftime("%j %a %b %e|%Z", 0, 1); print mktime("2024 02 29 12 00 00"), mktime("2024 13 01 00 00 00"), mktime("garbage"); print strftime("%s", "86400.9"); print (systime() > 1700000000); print strftime("%Y", 1e11) }`},
			out:  "2023-11-14 22:13:20\n001 Thu Jan  1|GMT\n1709208000 1735689600 -1\n86400\n1\n5138\n"},
		{name: "strftime in TZ", environ: []string{"TZ=Europe/Paris"},
			args: []string{`BEGIN { print strftime("%H:%M %Z", 0); print strftime("%H:%M %Z", 0, 1); print mktime("1970 01 01 01 00 00") }`},
			out:  "01:00 CET\n00:00 GMT\n0\n"},
		// Bytes in every locale, as mawk 1.3.4 (LC_ALL=C.UTF-8 and LC_ALL=C alike).
		{name: "a UTF-8 locale counts bytes too", environ: []string{"LANG=C.UTF-8"},
			args: []string{`BEGIN { s = "h\303\251llo"; print length(s), substr(s, 2, 2), index(s, "l"), match(s, /l+/), RLENGTH, toupper(s) }`},
			out:  "6 \303\251 4 4 2 H\303\251LLO\n"},
		{name: "printf widths and precisions count bytes", environ: []string{"LC_ALL=C.UTF-8"},
			args: []string{`BEGIN { printf "[%5s][%-4s][%.1s][%05s][%3c][%*s][%c]\n", "\303\251", "\303\251", "\303\251", "\303\251", "\303\251", -3, "\303\251", 321 }`},
			out:  "[   \303\251][\303\251  ][\303][   \303\251][  \303][\303\251 ][A]\n"},
		// glibc's strtod, as mawk 1.3.4 converts a string to a number.
		{name: "strings convert to numbers as strtod reads them",
			args: []string{`BEGIN { print "0x1A"+0, "inf"+0, "nan"+0, "-inf"+0, "infinity"+0, "INF"+0, "0x1p3"+0, "0x.8"+0, "0x"+0, "0xg"+0, ".5"+0, "1e"+0, "1e+"+0, "+.e1"+0, "nanx"+0, "-nan"+0, "0x1P-2"+0, "  12  "+0, int("0x1A.8"), "-0x10"+0; printf "%d %x\n", "0x1F", "0x1F" }`},
			out:  "26 inf nan -inf inf inf 8 0.5 0 0 0.5 1 1 0 nan -nan 0.25 12 26 -16\n31 1f\n"},
		// mawk's check_strnum: a field is a number when it starts with a
		// digit, sign or dot, ends with a digit or dot, and strtod reads it all.
		{name: "fields that are numeric strings", stdin: "0x1A 0x10 0xff 0x1p2 1e3 .5 +3 -0x10 inf +inf nan 0X10 0x1A8 12ab  7 \n",
			args: []string{`{ for (i = 1; i <= NF; i++) printf "%s:%d ", $i, ($i == $i + 0 && $i "" != $i + 0 "" || $i ~ /^[0-9.+-]/ && $i == $i + 0); print "" }`},
			out:  "0x1A:0 0x10:1 0xff:0 0x1p2:1 1e3:1 .5:1 +3:1 -0x10:1 inf:0 +inf:0 nan:0 0X10:1 0x1A8:1 12ab:0 7:1 \n"},
		{name: "-v values are numeric strings by the same test", args: []string{"-v", "a=0x10", "-v", "b=0x1A", `BEGIN { print (a == 16), (b == 26), b + 0 }`},
			out: "1 0 26\n"},
		{name: "a one-character regex literal splits as a regex", args: []string{`BEGIN { print split("a  b", x, / /), split("abc", y, /./), split("a.b", z, "."), split(" a  b ", w, " ") }`},
			out: "3 4 2 2\n"},
		{name: "an empty separator splits into bytes", environ: []string{"LC_ALL=C.UTF-8"}, stdin: "\303\251a\n",
			args: []string{"-F", "", `{ n = split($0, a, ""); print NF, $2, n, a[3] }`},
			out:  "3 \251 3 a\n"},
		{name: "C locale counts bytes", environ: []string{"LANG=C.UTF-8", "LC_ALL=C"},
			args: []string{`BEGIN { s = "h\303\251llo"; print length(s), substr(s, 2, 2), index(s, "l"), match(s, /l+/), RLENGTH }`},
			out:  "6 \303\251 4 4 2\n"},
		{name: "a program's own strftime wins (as in mawk; gawk refuses to redefine it)", args: []string{`function strftime(x) { return "mine" } BEGIN { print strftime("%Y") }`}, out: "mine\n"},

		{name: "%g has C's default precision of 6", args: []string{`BEGIN { printf "%g %G|%5g|%-8.3g|%g\n", 3.14159265, 1e-10, 1.5, 2.25, 1234567 }`},
			out: "3.14159 1E-10|  1.5|2.25    |1.23457e+06\n"},
		{name: "CONVFMT and OFMT with an integer or %g conversion", args: []string{`BEGIN { OFMT = "%g"; print 3.14159265; CONVFMT = "%d"; a[1.5]; for (k in a) print k; OFMT = "%.2f"; print 3.14159; OFMT = "%x"; print 255.5 }`},
			out: "3.14159\n1\n3.14\nff\n"},

		{name: "the ' flag groups nothing in llmsh's locales (gawk, mawk)", args: []string{`BEGIN { printf "%'d|%'10.2f|%'g\n", 1234567, 1234.5, 2.5 }`},
			out: "1234567|   1234.50|2.5\n"},
		{name: "gawk's strtonum", args: []string{`BEGIN { print strtonum("0x1A"), strtonum("017"), strtonum("08"), strtonum(" 017"), strtonum(" 1.5e3x"), strtonum("-12"), strtonum("abc"), strtonum(".5") }`},
			out: "26 15 8 17 1500 -12 0 0.5\n"},

		// Errors.
		{name: "missing file (mawk words and status)", files: people, args: []string{"{print $1}", "kv.csv", "nope", "people"},
			out: "k1,v1\nk2,v2\n", err: "awk: cannot open nope (No such file or directory)\n", status: 2},
		{name: "directory operand", files: map[string]string{"d/x": "", "f": "F\n"}, args: []string{"{print}", "f", "d", "f"},
			out: "F\n", err: "awk: read error (Is a directory)\n", status: 2},
		{name: "missing -f file", args: []string{"-f", "nope.awk"},
			err: "awk: cannot open nope.awk (No such file or directory)\n", status: 2},
		// gawk's layout (source line, caret); the message after the caret is GoAWK's;
		// the status is mawk's.
		{name: "syntax error", args: []string{"BEGIN{x"},
			err: "awk: line 2: missing } near end of file\n", status: 2},
		{name: "syntax error in -f file", files: map[string]string{"bad.awk": "BEGIN {\n  x = 1 +\n}\n"}, args: []string{"-f", "bad.awk"},
			err: "awk: bad.awk: line 2: syntax error at or near end of line\n", status: 2},
		{name: "syntax error: mawk's extra brace", args: []string{"{ print 1 } }"},
			err: "awk: line 1: extra '}'\nawk: line 1: syntax error at or near end of line\n", status: 2},
		{name: "syntax error: mawk's runaway string", args: []string{`{ print "a\"bcdefghijklm }`},
			err: "awk: line 1: runaway string constant \"a\\\"bcdefgh ...\n", status: 2},
		{name: "syntax error: mawk's missing paren", args: []string{`BEGIN { print length( }`},
			err: "awk: line 1: missing ) near }\n", status: 2},
		{name: "syntax error: mawk's token", args: []string{"BEGIN { for (i = 0; i < 3; i++ print i }"},
			err: "awk: line 1: syntax error at or near print\n", status: 2},
		// mawk's parser goes on after an error: in a block at the next ';',
		// newline or '}', outside blocks at the next '{'; five at most.
		{name: "mawk goes on: gawk's arrays of arrays", args: []string{"NR>1 { rev[$1][$2] += $3 } END {\n n = 1\n for (r in rev) print rev[r][n]\n}"},
			err: "awk: line 1: syntax error at or near [\nawk: line 3: syntax error at or near [\n", status: 2},
		{name: "mawk goes on: at ';', at '}', five errors", args: []string{"BEGIN { x = ; = 1 ; = 2 ; = 3 ; = 4; = 5 }"},
			err: "awk: line 1: syntax error at or near ;\n" + strings.Repeat("awk: line 1: syntax error at or near =\n", 4), status: 2},
		{name: "mawk goes on: outside blocks at the next '{'", args: []string{"a[1][2] { print } x = ; y = { z = }\nfunction f(a b) { }\nBEGIN { y = }"},
			err: "awk: line 1: syntax error at or near [\nawk: line 1: syntax error at or near ;\nawk: line 1: syntax error at or near }\nawk: line 2: syntax error at or near b\nawk: line 3: syntax error at or near }\n", status: 2},
		{name: "mawk goes on: a '{' its parser skipped still counts for its scanner", args: []string{"BEGIN { while (x = ) { y = } }\nBEGIN { z = }"},
			err: "awk: line 1: syntax error at or near )\nawk: line 1: syntax error at or near }\nawk: line 2: syntax error at or near }\n", status: 2},
		{name: "mawk goes on: no newline after ',' or '&&'", args: []string{"BEGIN { f(a,\n) ; y = 1 &&\n }"},
			err: "awk: line 2: syntax error at or near )\nawk: line 3: syntax error at or near }\n", status: 2},
		{name: "mawk goes on: a statement out of its place (break and continue only first)", args: []string{"BEGIN { next; break; x = ; return 1 }\nEND { continue }"},
			err: "awk: line 1: improper use of next\nawk: line 1: syntax error at or near ;\nawk: line 1: return outside function body\n", status: 2},
		{name: "mawk goes on: an extra '}' with more text after it on its line", args: []string{"BEGIN { a = 1 } } ; END { } } x = { y = }"},
			err: "awk: line 1: extra '}'\nawk: line 1: extra '}'\nawk: line 1: syntax error at or near {\nawk: line 1: syntax error at or near }\n", status: 2},
		{name: "gawk's gensub is undefined: mawk's words and status", args: []string{`{print gensub(/x/, "y", "g")}`},
			err: "awk: line 2: function gensub never defined\n", status: 2},
		{name: "undefined function: the line after the program's last", args: []string{"BEGIN {\n y = asort(a)\n}\nEND { }"},
			err: "awk: line 5: function asort never defined\n", status: 2},
		// mawk 1.3.4: the name of a function defined above is a call
		// even with blanks before its parenthesis, and nothing else.
		{name: "mawk: a call with a blank before the parenthesis", args: []string{"function f(n) { return n <= 1 ? 1 : n * f (n-1) }\nBEGIN { print f (5), f\t(3) f(2) }"},
			out: "120 62\n"},
		{name: "mawk: a function's name as a variable", args: []string{"function f(x) { return x }\nBEGIN { f = 1 }"},
			err: "awk: line 2: syntax error at or near =\n", status: 2},
		{name: "mawk: a function's name as an array", args: []string{"function f(x) { return x }\nBEGIN { n = split(\"a b\", f) }"},
			err: "awk: line 2: syntax error at or near f\n", status: 2},
		{name: "mawk: a function's name after getline", args: []string{"function f(x) { return x }\nBEGIN { getline f < \"x\" }"},
			err: "awk: line 2: syntax error at or near <\n", status: 2},
		{name: "mawk: a variable defined later as a function", args: []string{"BEGIN { print f (3) }\n\nfunction f(x) { return x*2 }"},
			err: "awk: line 3: illegal reference to variable f\n", status: 2},
		{name: "mawk: @ is an unexpected character", args: []string{"BEGIN { x = 1 }\n@include \"lib\""},
			err: "awk: 2: unexpected character '@'\n", status: 2},
		{name: "mawk: |& is an unexpected character", args: []string{`BEGIN { "date" |& getline }`},
			err: "awk: 1: unexpected character '&'\n", status: 2},
		{name: "mawk: return outside a function", args: []string{`BEGIN { return 1 }`},
			err: "awk: line 1: return outside function body\n", status: 2},
		{name: "mawk: next in BEGIN", args: []string{`BEGIN { next }`},
			err: "awk: line 1: improper use of next\n", status: 2},
		{name: "mawk: a duplicated parameter", args: []string{`function f(a, a) { }`},
			err: "awk: line 1: a is duplicated in argument list\n", status: 2},
		{name: "mawk: an array defined later as a function", args: []string{"BEGIN { f[1] = 1 }\nfunction f(x) { return x }"},
			err: "awk: line 2: illegal reference to array f\n", status: 2},
		// mawk 1.3.4: printf short of values writes the text before the
		// conversion that lacks one, then a run-time error; sprintf nothing.
		{name: "printf short of values", stdin: "q\n", args: []string{`{ printf "%s %s|%d\n", $1 }`},
			out: "q ", err: "awk: run time error: not enough arguments passed to printf(\"%s %s|%d\n\")\n\tFILENAME=\"-\" FNR=1 NR=1\n", status: 2},
		{name: "printf short of a * value", args: []string{`BEGIN { printf "a%*d|%s", 5 }`},
			out: "a", err: "awk: run time error: not enough arguments passed to printf(\"a%*d|%s\")\n\tFILENAME=\"\" FNR=0 NR=0\n", status: 2},
		{name: "printf with an improper conversion", args: []string{`BEGIN { printf "%i %5%|%c", 3.9, "", 65 }`},
			out: "3 ", err: "awk: run time error: improper conversion(number 2) in printf(\"%i %5%|%c\")\n\tFILENAME=\"\" FNR=0 NR=0\n", status: 2},
		{name: "sprintf with an improper conversion", args: []string{`BEGIN { x = sprintf("%k", 1); print "no" }`},
			err: "awk: run time error: improper conversion(number 1) in sprintf(\"%k\")\n\tFILENAME=\"\" FNR=0 NR=0\n", status: 2},
		{name: "printf with a % at its end and no value", args: []string{`BEGIN { printf "ab%" }`},
			out: "ab", err: "awk: run time error: not enough arguments passed to printf(\"ab%\")\n\tFILENAME=\"\" FNR=0 NR=0\n", status: 2},
		{name: "sprintf short of values", args: []string{`BEGIN { x = sprintf("%s%%%s", 1); print "no" }`},
			err: "awk: run time error: not enough arguments passed to sprintf(\"%s%%%s\")\n\tFILENAME=\"\" FNR=0 NR=0\n", status: 2},
		{name: "illegal -v name", args: []string{"-v", "1x=2", "BEGIN{}"}, err: "awk: improper assignment: -v 1x=2\n", status: 2},
		{name: "redirect to a directory", files: map[string]string{"d/x": ""}, args: []string{`BEGIN { print "x" > "d" }`},
			err: "awk: cannot open \"d\" for output (Is a directory)\n", status: 2},

		// Refusals where no Exec hook runs commands (llmsh only; in the
		// shell, fixture awk-commands runs them as gawk does).
		{name: "system() refused", args: []string{`BEGIN { print "before"; system("echo hi"); print "after" }`},
			out: "before\n", err: "awk: fatal: system() is not allowed in llmsh\n", status: 2},
		{name: "print | sh refused", args: []string{`BEGIN { print "rm -rf /" | "sh" }`},
			err: "awk: fatal: print | \"command\" is not allowed in llmsh\n", status: 2},
		{name: "printf | cmd refused", args: []string{`BEGIN { printf "x" | "cat" }`},
			err: "awk: fatal: print | \"command\" is not allowed in llmsh\n", status: 2},
		{name: "cmd | getline refused", args: []string{`BEGIN { "id" | getline x; print x }`},
			err: "awk: fatal: \"command\" | getline is not allowed in llmsh\n", status: 2},
		{name: "close of a command not run is -1", args: []string{`BEGIN { print close("date") }`}, out: "-1\n"},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) { runAwkCase(t, c) })
	}
}

func TestAwkUsage(t *testing.T) {
	t.Parallel()
	// mawk 1.3.4: its usage (here llmsh's) on standard error, status 0.
	r := runCmd(t, nil, "", "awk")
	if r.status != 0 || r.stdout != "" || !strings.HasPrefix(r.stderr, "Usage: awk ") {
		t.Errorf("no program: %q %q %d", r.stdout, r.stderr, r.status)
	}
	// A bad command line is one line in mawk's words, status 2.
	for _, c := range []struct {
		args   []string
		stderr string
		status int
		stdout string
	}{
		{[]string{"-q", "BEGIN{}"}, "awk: not an option: -q\n", 2, ""},
		{[]string{"-nF:", "BEGIN{}"}, "awk: not an option: -nF:\n", 2, ""},
		{[]string{"--bogus", "BEGIN{}"}, "awk: not an option: --bogus\n", 2, ""},
		{[]string{"--lint", "BEGIN{print 1}"}, "awk: not an option: --lint\n", 0, "1\n"},
		{[]string{"-v", "x", "BEGIN{}"}, "awk: improper assignment: -v x\n", 2, ""},
		{[]string{"-v", "1x=2", "BEGIN{}"}, "awk: improper assignment: -v 1x=2\n", 2, ""},
		{[]string{"-f"}, "awk: option -f lacks argument\n", 2, ""},
		{[]string{"-W"}, "awk: option -W lacks argument\n", 2, ""},
		{[]string{"-W", "bogus", "BEGIN{print 1}"}, "awk: vacuous option: -W bogus\n", 0, "1\n"},
		{[]string{"-Wi", "-W", "posix_space", "-Wrandom=3", "BEGIN{print 2}"}, "", 0, "2\n"},
		{[]string{"-Wv"}, "", 0, awkVersion},
		{[]string{"-Ft", "{print $2}"}, "", 0, "c\n"},
	} {
		r := runCmd(t, nil, "a\tbtc\n", append([]string{"awk"}, c.args...)...)
		if r.stderr != c.stderr || r.status != c.status || r.stdout != c.stdout {
			t.Errorf("%q: %q %q %d, want %q %q %d", c.args, r.stdout, r.stderr, r.status, c.stdout, c.stderr, c.status)
		}
	}
	r = runCmd(t, nil, "", "awk", "--help")
	if r.status != 0 || !strings.HasPrefix(r.stdout, "Usage: awk ") || !strings.Contains(r.stdout, "--field-separator") {
		t.Errorf("--help: %q %d", r.stdout, r.status)
	}
	r = runCmd(t, nil, "", "awk", "-W", "usage")
	if r.status != 0 || !strings.HasPrefix(r.stdout, "Usage: awk ") {
		t.Errorf("-W usage: %q %d", r.stdout, r.status)
	}
}

// TestAwkEscape tries to leave the granted tree: only dir/work is granted;
// dir/secret is a real file beside it. Every read and write outside must
// fail without showing the content or touching the host.
func TestAwkEscape(t *testing.T) {
	t.Parallel()
	outer := t.TempDir()
	if err := os.WriteFile(filepath.Join(outer, "secret"), []byte("TOP SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(outer, "work")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fsys := testFS(t, dir)
	run := func(args ...string) (string, string, int) {
		b, _ := Lookup("awk")
		var out, errb strings.Builder
		env := &Env{Ctx: context.Background(), Args: append([]string{"awk"}, args...),
			Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
		st := Run(b, env)
		return out.String(), errb.String(), st
	}
	for _, args := range [][]string{
		{"{print}", "../secret"},
		{"{print}", outer + "/secret"},
		{`BEGIN { while ((getline l < "../secret") > 0) print l; print "done" }`},
		{`BEGIN { while ((getline l < "/etc/passwd") > 0) print l; print "done" }`},
		{"-f", "../secret"},
	} {
		out, errb, st := run(args...)
		if strings.Contains(out+errb, "SECRET") || strings.Contains(out, "root:") {
			t.Errorf("awk %q leaked: %q %q", args, out, errb)
		}
		if st == 0 && out != "done\n" {
			t.Errorf("awk %q: status 0, out %q", args, out)
		}
	}
	if _, errb, _ := run("{print}", "../secret"); errb != "awk: cannot open ../secret (No such file or directory)\n" {
		t.Errorf("reading ../secret: stderr %q", errb)
	}
	for _, target := range []string{"../escape", outer + "/escape2"} {
		_, errb, st := run(`BEGIN { print "x" > "` + target + `" }`)
		if st != 2 || !strings.HasPrefix(errb, "awk: cannot open \""+target+"\" for output (") {
			t.Errorf("write to %s: %q %d", target, errb, st)
		}
	}
	for _, name := range []string{"escape", "escape2"} {
		if _, err := os.Stat(filepath.Join(outer, name)); err == nil {
			t.Errorf("%s was created outside the granted tree", name)
		}
	}
}

// TestAwkCancel: a program that never ends stops when the context is
// cancelled.
func TestAwkCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b, _ := Lookup("awk")
	var out, errb strings.Builder
	env := &Env{Ctx: ctx, Args: []string{"awk", "BEGIN { while (1) x++ }"},
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	if st := Run(b, env); st != 1 || errb.String() != "" {
		t.Errorf("cancelled: status %d, stderr %q", st, errb.String())
	}
}

// TestAwkCommands runs system(), print | "cmd" and "cmd" | getline through
// Env.Exec, whose "sh -c LINE" here runs LINE's words as one builtin (the
// shell runs the whole line: fixture awk_commands). Under -race it checks
// that commands running beside awk share its output safely.
func TestAwkCommands(t *testing.T) {
	t.Parallel()
	cases := []execCase{
		{name: "system flushes first and returns the status", files: map[string]string{},
			args: []string{"awk", `BEGIN { print "a"; r = system("echo s"); print "y", r, system("cat nope") }`},
			out:  "a\ns\ny 0 1\n", err: "cat: nope: No such file or directory\n"},
		{name: "print | cmd: the command's output comes when it is closed",
			args: []string{"awk", `{ print | "sort -r" } END { print "end" }`}, stdin: "b\nc\na\n",
			out: "c\nb\na\nend\n"},
		{name: "close returns the command's status",
			args: []string{"awk", `BEGIN { print "x" | "grep y"; print close("grep y"); print close("grep y") }`},
			out:  "1\n-1\n"},
		{name: "cmd | getline reads the command's lines; its stdin is empty",
			stdin: "in\n", files: map[string]string{"f": "1\n2\n3\n"},
			args: []string{"awk", `{ while (("cat f" | getline l) > 0) s = s l; print $0, s, close("cat f"); "cat" | getline z; print "[" z "]" }`},
			out:  "in 123 0\n[]\n"},
		{name: "an early close stops a command that still writes",
			args: []string{"awk", `BEGIN { while (("yes" | getline l) > 0) if (++n == 3) break; close("yes"); print n, l }`},
			out:  "3 y\n"},
		{name: "a little more than a finished command read is dropped",
			args: []string{"awk", `BEGIN { for (i = 0; i < 1000; i++) print i | "head -n 1"; print "end" }`},
			out:  "0\nend\n"},
		// mawk dies of SIGPIPE once a pipe's buffer would be full (s33-W)
		{name: "much more is SIGPIPE",
			args:   []string{"awk", `BEGIN { for (i = 0; i < 100000; i++) print i | "head -n 1"; print "end" }`},
			out:    "0\n",
			status: 141},
	}
	for i := range cases {
		c := &cases[i]
		e := newExecEnv(t, context.Background(), c.files, c.stdin, c.args...)
		e.extra["sh"] = func(env *Env) int {
			return env.Exec(env.Ctx, strings.Fields(env.Args[2]), env.Stdin, env.Stdout, env.Stderr)
		}
		got := e.run()
		if got.stdout != c.out || got.stderr != c.err || got.status != c.status {
			t.Errorf("%s: %q:\n got %q %q %d\nwant %q %q %d", c.name, c.args,
				got.stdout, got.stderr, got.status, c.out, c.err, c.status)
		}
	}
}
