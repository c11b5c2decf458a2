package builtins_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// findTree is the tree of the find tests. GNU find walks directories in
// readdir order; ours is sorted by name, so the expected outputs below are
// GNU's (findutils 4.9.0, LC_ALL=C, same tree) in sorted walk order.
var findTree = map[string]string{
	"a.txt":     "hi\n",
	"b.log":     "",
	"d/e/f.c":   "x\n",
	"d/empty":   "",
	"d/g.TXT":   "abc",
	".hidden":   "h",
	"emptydir/": "",
}

const findAll = ".\n./.hidden\n./a.txt\n./b.log\n./d\n./d/e\n./d/e/f.c\n./d/empty\n./d/g.TXT\n./emptydir\n"

func TestFind(t *testing.T) {
	t.Parallel()
	c := func(name string, args []string, out, err string, status int) execCase {
		return execCase{name, findTree, "", append([]string{"find"}, args...), out, err, status}
	}
	runReadingCases(t, findTree, []execCase{
		c("default", nil, findAll, "", 0),
		c("dot", []string{"."}, findAll, "", 0),
		c("-print", []string{".", "-print"}, findAll, "", 0),
		c("-name", []string{".", "-name", "*.txt"}, "./a.txt\n", "", 0),
		c("-name is case sensitive", []string{".", "-name", "*.TXT"}, "./d/g.TXT\n", "", 0),
		c("-iname", []string{".", "-iname", "*.txt"}, "./a.txt\n./d/g.TXT\n", "", 0),
		c("-name leading dot", []string{".", "-name", "*hidden"}, "./.hidden\n", "", 0),
		c("-name bracket", []string{".", "-name", "[ab].*"}, "./a.txt\n./b.log\n", "", 0),
		c("-name negated bracket", []string{".", "-name", "[!ab.]*"}, "./d\n./d/e\n./d/e/f.c\n./d/empty\n./d/g.TXT\n./emptydir\n", "", 0),
		c("-name escaped star", []string{".", "-name", `a\*`}, "", "", 0),
		c("-name unterminated bracket", []string{".", "-name", "["}, "", "", 0),
		c("-type d", []string{".", "-type", "d"}, ".\n./d\n./d/e\n./emptydir\n", "", 0),
		c("-type f,d", []string{".", "-maxdepth", "1", "-type", "f,d"}, ".\n./.hidden\n./a.txt\n./b.log\n./d\n./emptydir\n", "", 0),
		c("-o", []string{".", "-type", "f", "-name", "*.c", "-o", "-name", "*.log"}, "./b.log\n./d/e/f.c\n", "", 0),
		c("!", []string{".", "!", "-name", "*.txt", "-type", "f"}, "./.hidden\n./b.log\n./d/e/f.c\n./d/empty\n./d/g.TXT\n", "", 0),
		c("-not", []string{".", "-not", "-type", "d"}, "./.hidden\n./a.txt\n./b.log\n./d/e/f.c\n./d/empty\n./d/g.TXT\n", "", 0),
		c("parentheses", []string{".", "-type", "f", "(", "-name", "a*", "-o", "-name", "f*", ")"}, "./a.txt\n./d/e/f.c\n", "", 0),
		c("-a explicit", []string{".", "-type", "f", "-a", "-name", "a*"}, "./a.txt\n", "", 0),
		c("comma", []string{".", "-name", "*.c", ",", "-name", "*.log"}, "./b.log\n", "", 0),
		c("-path", []string{".", "-path", "./d/*", "-type", "f"}, "./d/e/f.c\n./d/empty\n./d/g.TXT\n", "", 0),
		c("-wholename", []string{".", "-wholename", "./d/e"}, "./d/e\n", "", 0),
		c("-ipath", []string{".", "-ipath", "./D/G*"}, "./d/g.TXT\n", "", 0),
		c("-prune", []string{".", "-path", "./d", "-prune", "-o", "-type", "f", "-print"}, "./.hidden\n./a.txt\n./b.log\n", "", 0),
		c("-maxdepth 1", []string{".", "-maxdepth", "1"}, ".\n./.hidden\n./a.txt\n./b.log\n./d\n./emptydir\n", "", 0),
		c("-maxdepth 0", []string{".", "-maxdepth", "0"}, ".\n", "", 0),
		c("-mindepth 2", []string{".", "-mindepth", "2"}, "./d/e\n./d/e/f.c\n./d/empty\n./d/g.TXT\n", "", 0),
		c("-mindepth -maxdepth", []string{".", "-mindepth", "1", "-maxdepth", "1", "-type", "f"}, "./.hidden\n./a.txt\n./b.log\n", "", 0),
		c("-empty", []string{".", "-empty"}, "./b.log\n./d/empty\n./emptydir\n", "", 0),
		c("-size -1", []string{".", "-size", "-1"}, "./b.log\n./d/empty\n", "", 0),
		c("-size +1c", []string{".", "-type", "f", "-size", "+1c"}, "./a.txt\n./d/e/f.c\n./d/g.TXT\n", "", 0),
		c("-size 3c", []string{".", "-size", "3c"}, "./a.txt\n./d/g.TXT\n", "", 0),
		c("-size 1k", []string{".", "-type", "f", "-size", "1k"}, "./.hidden\n./a.txt\n./d/e/f.c\n./d/g.TXT\n", "", 0),
		c("-regex emacs", []string{".", "-regex", `.*\.\(c\|log\)`}, "./b.log\n./d/e/f.c\n", "", 0),
		c("-regex whole path", []string{".", "-regex", `a\.txt`}, "", "", 0),
		c("-regextype posix-extended", []string{".", "-regextype", "posix-extended", "-regex", `.*/[a-z]\.(c|txt)`}, "./a.txt\n./d/e/f.c\n", "", 0),
		c("-iregex", []string{".", "-iregex", ".*TXT"}, "./a.txt\n./d/g.TXT\n", "", 0),
		c("-print0", []string{"d", "-print0"}, "d\x00d/e\x00d/e/f.c\x00d/empty\x00d/g.TXT\x00", "", 0),
		c("-depth", []string{".", "-depth"}, "./.hidden\n./a.txt\n./b.log\n./d/e/f.c\n./d/e\n./d/empty\n./d/g.TXT\n./d\n./emptydir\n.\n", "", 0),
		c("-true -false", []string{".", "-true", "-false"}, "", "", 0),
		c("-quit before print", []string{".", "-name", "a.txt", "-quit"}, "", "", 0),
		c("-print -quit", []string{".", "-type", "f", "-name", "f.c", "-print", "-quit"}, "./d/e/f.c\n", "", 0),
		c("start with slash", []string{"d/", "-maxdepth", "1"}, "d/\nd/e\nd/empty\nd/g.TXT\n", "", 0),
		c("-name on trailing slash", []string{"./d/e/", "-name", "e"}, "./d/e/\n", "", 0),
		c("file operand", []string{"a.txt", "b.log"}, "a.txt\nb.log\n", "", 0),
		c("-printf fields", []string{".", "-type", "f", "-printf", `%p %f %h %P %H %s %d %m %M %y\n`},
			"./.hidden .hidden . .hidden . 1 1 644 -rw-r--r-- f\n./a.txt a.txt . a.txt . 3 1 644 -rw-r--r-- f\n./b.log b.log . b.log . 0 1 644 -rw-r--r-- f\n"+
				"./d/e/f.c f.c ./d/e d/e/f.c . 2 3 644 -rw-r--r-- f\n./d/empty empty ./d d/empty . 0 2 644 -rw-r--r-- f\n./d/g.TXT g.TXT ./d d/g.TXT . 3 2 644 -rw-r--r-- f\n", "", 0),
		c("-printf %P %h %f", []string{"d", "-printf", `[%P] [%h] [%f]\n`}, "[] [.] [d]\n[e] [d] [e]\n[e/f.c] [d/e] [f.c]\n[empty] [d] [empty]\n[g.TXT] [d] [g.TXT]\n", "", 0),
		c("-printf on a file operand", []string{"a.txt", "-printf", `%f %h %P\n`}, "a.txt . \n", "", 0),
		c("-printf width", []string{".", "-maxdepth", "1", "-type", "f", "-printf", `%-8f|%5s|\n`}, ".hidden |    1|\na.txt   |    3|\nb.log   |    0|\n", "", 0),
		c("-printf huge width", []string{"a.txt", "-printf", `%1500000f|%-1500000s|\n`}, strings.Repeat(" ", 1499995)+"a.txt|3"+strings.Repeat(" ", 1499999)+"|\n", "", 0),
		c("-printf flags", []string{"a.txt", "-printf", `%5d|%-3y|%03s|%+2d|%.2f\n`}, "    0|f  |  3|+0|a.\n", "", 0),
		c("-printf flags 2", []string{"a.txt", "-printf", `[%+5s][% d][%+f][%#m][%+m][%-+4d]\n`}, "[    3][ 0][a.txt][0644][644][+0  ]\n", "", 0),
		c("-printf %T at end", []string{"a.txt", "-printf", `%T`}, "%T", "find: warning: format directive `%T' should be followed by another character\n", 0),
		c("-printf unknown time field", []string{"a.txt", "-printf", `%TQ\n`}, "%Q\n", "", 0),
		c("-printf escapes", []string{"a.txt", "-printf", `a\tb\0c\\%%\101\n`}, "a\tb\x00c\\%A\n", "", 0),
		c("-printf \\c", []string{".", "-maxdepth", "1", "-printf", `a\cb\n`}, "aaaaaa", "", 0),
		c("-printf unknown escape", []string{"a.txt", "-printf", `a\qb\n`}, "a\\qb\n", "find: warning: unrecognized escape `\\q'\n", 0),
		c("-printf %i and %D as stat shows them", []string{"a.txt", "-printf", `%i %5D|\n`}, "?     ?|\n", "", 0),
		c("-printf unknown directive", []string{"a.txt", "-printf", `%Q\n`}, "%Q\n", "find: warning: unrecognized format directive `%Q'\n", 0),
		c("-printf % at end", []string{"a.txt", "-printf", `x%`}, "", "find: error: % at end of format string\n", 1),

		c("missing file", []string{"nope"}, "", "find: 'nope': No such file or directory\n", 1),
		c("missing and present", []string{"nope", "a.txt"}, "a.txt\n", "find: 'nope': No such file or directory\n", 1),
		c("unknown predicate", []string{".", "-foo"}, "", "find: unknown predicate `-foo'\n", 1),
		c("no change times", []string{".", "-ctime", "1"}, "", "find: -ctime: status change times are not available here (vfsd keeps none)\n", 1),
		c("only llmsh", []string{".", "-user", "root"}, "", "find: 'root' is not the name of a known user\n", 1),
		c("no inodes", []string{".", "-inum", "1"}, "", "find: -inum is not supported in llmsh (see find --help)\n", 1),
		c("missing argument", []string{".", "-name"}, "", "find: missing argument to `-name'\n", 1),
		c("path after expression", []string{".", "-name", "a", "foo"}, "", "find: paths must precede expression: `foo'\n", 1),
		c("bad -type", []string{".", "-type", "x"}, "", "find: Unknown argument to -type: x\n", 1),
		c("-type list missing last", []string{".", "-type", "f,"}, "", "find: Last file type in list argument to -type is missing, i.e., list is ending on: ','\n", 1),
		c("-type not separated", []string{".", "-type", "fd"}, "", "find: Must separate multiple arguments to -type using: ','\n", 1),
		c("bad -maxdepth", []string{".", "-maxdepth", "x"}, "", "find: Expected a positive decimal integer argument to -maxdepth, but got 'x'\n", 1),
		c("negative -mindepth", []string{".", "-mindepth", "-1"}, "", "find: Expected a positive decimal integer argument to -mindepth, but got '-1'\n", 1),
		c("bad -size unit", []string{".", "-size", "1x"}, "", "find: invalid -size type `x'\n", 1),
		c("bad -size sign only", []string{".", "-size", "+"}, "", "find: invalid -size type `+'\n", 1),
		c("bad -mtime", []string{".", "-mtime", "x"}, "", "find: invalid argument `x' to `-mtime'\n", 1),
		c("-newer missing", []string{".", "-newer", "nope"}, "", "find: 'nope': No such file or directory\n", 1),
		c("unclosed paren", []string{".", "(", "-name", "a"}, "", "find: invalid expression; I was expecting to find a ')' somewhere but did not see one.\n", 1),
		c("too many parens", []string{".", "-name", "a", ")"}, "", "find: you have too many ')'\n", 1),
		// GNU's second line when the stray word names a file (a glob
		// the shell expanded: find . -name *.txt), after the last
		// predicate or operator read.
		c("stray file after -name", []string{".", "-name", "a.txt", "b.log"}, "", "find: paths must precede expression: `b.log'\nfind: possible unquoted pattern after predicate `-name'?\n", 1),
		c("stray file after )", []string{".", "(", "-name", "a", ")", "d"}, "", "find: paths must precede expression: `d'\nfind: possible unquoted pattern after predicate `)'?\n", 1),
		c("stray file after -o", []string{".", "-name", "a", "-o", "a.txt"}, "", "find: paths must precede expression: `a.txt'\nfind: possible unquoted pattern after predicate `-o'?\n", 1),
		c("operator before )", []string{".", "(", "-name", "a", "-a", ")"}, "", "find: expected an expression between '-a' and ')'\n", 1),
		c("! before )", []string{".", "(", "!", ")"}, "", "find: expected an expression between '!' and ')'\n", 1),
		c("binary operator after -o", []string{".", "-name", "a", "-o", ",", "-print"}, "", "find: invalid expression; you have used a binary operator ',' with nothing before it.\n", 1),
		c("leading ) is a path", []string{")"}, "", "find: ')': No such file or directory\n", 1),
		c("open paren at end", []string{".", "!", "("}, "", "find: invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('\n", 1),
		c("empty parens", []string{".", "(", ")"}, "", "find: invalid expression; empty parentheses are not allowed.\n", 1),
		c("-o at start", []string{".", "-o"}, "", "find: invalid expression; you have used a binary operator '-o' with nothing before it.\n", 1),
		c("-o at end", []string{".", "-name", "a", "-o"}, "", "find: expected an expression after '-o'\n", 1),
		c("! at end", []string{".", "!"}, "", "find: expected an expression after '!'\n", 1),
		c("comma at end", []string{".", "-name", "a", ","}, "", "find: expected an expression after ','\n", 1),
		c("bad -regextype", []string{".", "-regextype", "foo"}, "", "find: Unknown regular expression type 'foo'; valid types are 'findutils-default', 'ed', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', 'posix-extended', 'posix-minimal-basic', 'sed'.\n", 1),
		c("-exec unterminated", []string{".", "-exec", "echo"}, "", "find: missing argument to `-exec'\n", 1),
		c("-exec empty", []string{".", "-exec", ";"}, "", "find: invalid argument `;' to `-exec'\n", 1),
		c("-exec + two {}", []string{".", "-exec", "echo", "{}x", "{}", "+"}, "", "find: Only one instance of {} is supported with -exec ... +\n", 1),
		// -ok asks on stderr and reads the answers from stdin (GNU
		// findutils 4.9); the command itself gets a closed stdin.
		{"-ok answers", findTree, "y\nn\n", []string{"find", ".", "-type", "f", "-name", "[af]*", "-ok", "echo", "got", "x{}", ";"}, "got x./a.txt\n", "< echo ... ./a.txt > ? < echo ... ./d/e/f.c > ? ", 0},
		{"-ok no answer", findTree, "", []string{"find", ".", "-name", "a.txt", "-ok", "echo", "{}", ";", "-print"}, "", "< echo ... ./a.txt > ? ", 0},
		{"-ok failing command", findTree, "Yes\n", []string{"find", ".", "-name", "a.txt", "-ok", "false", ";", "-o", "-name", "a.txt", "-print"}, "./a.txt\n", "< false ... ./a.txt > ? ", 0},
		{"-ok closed stdin", findTree, "y\nmore\n", []string{"find", ".", "-name", "a.txt", "-ok", "cat", ";"}, "", "< cat ... ./a.txt > ? cat: -: Bad file descriptor\ncat: closing standard input: Bad file descriptor\n", 0},
		c("-ok +", []string{".", "-ok", "echo", "{}", "+"}, "", "find: missing argument to `-ok'\n", 1),

		c("-exec ;", []string{".", "-name", "f.c", "-exec", "echo", "found", "{}", ";"}, "found ./d/e/f.c\n", "", 0),
		c("-exec {} inside an argument", []string{".", "-maxdepth", "1", "-name", "a*", "-exec", "echo", "<{}>", ";"}, "<./a.txt>\n", "", 0),
		c("-exec as a test", []string{".", "-type", "f", "-exec", "grep", "-q", "x", "{}", ";", "-print"}, "./d/e/f.c\n", "", 0),
		c("-exec +", []string{".", "-type", "f", "-name", "*.c", "-exec", "cat", "{}", "+"}, "x\n", "", 0),
		c("-exec + batches", []string{"d", "-type", "f", "-exec", "echo", "{}", "+"}, "d/e/f.c d/empty d/g.TXT\n", "", 0),
		c("-exec + nothing found", []string{".", "-name", "nothing", "-exec", "echo", "x", "{}", "+"}, "", "", 0),
		c("-exec ; failure keeps status 0", []string{"a.txt", "-exec", "cat", "nope", ";"}, "", "cat: nope: No such file or directory\n", 0),
		c("-exec + failure is status 1", []string{"a.txt", "-exec", "cat", "nope", "{}", "+"}, "hi\n", "cat: nope: No such file or directory\n", 1),
		c("-exec output order", []string{".", "-maxdepth", "1", "-type", "f", "-print", "-exec", "cat", "{}", ";"}, "./.hidden\nh./a.txt\nhi\n./b.log\n", "", 0),
		c("-exec host program refused", []string{"a.txt", "-exec", "/bin/echo", "{}", ";"}, "", "llmsh: /bin/echo: command not found\n", 0),
		c("-exec host program refused +", []string{"a.txt", "-exec", "/bin/cat", "/etc/passwd", "{}", "+"}, "", "llmsh: /bin/cat: command not found\n", 1),
	})
}

// TestFindExecConfined: a command run by -exec reads only through the FS
// it was given: a path outside the granted directory is refused.
func TestFindExecConfined(t *testing.T) {
	t.Parallel()
	e := newExecEnv(t, context.Background(), findTree, "", "find", "a.txt", "-exec", "cat", "{}", "../../../../../../../etc/passwd", "/etc/passwd", ";")
	got := e.run()
	if got.stdout != "hi\n" || strings.Count(got.stderr, "No such file or directory") != 2 || strings.Contains(got.stdout, "root:") {
		t.Errorf("got %q %q %d", got.stdout, got.stderr, got.status)
	}
	// find itself cannot walk outside either.
	e = newExecEnv(t, context.Background(), findTree, "", "find", "/etc", "-maxdepth", "1", "-name", "passwd")
	got = e.run()
	if got.stdout != "" || got.stderr != "find: '/etc': No such file or directory\n" || got.status != 1 {
		t.Errorf("walk outside: got %q %q %d", got.stdout, got.stderr, got.status)
	}
}

// TestFindExecdir: -execdir runs the command with ./NAME in the file's
// directory (WithExecDir); batches of + are cut where the directory
// changes.
func TestFindExecdir(t *testing.T) {
	t.Parallel()
	e := newExecEnv(t, context.Background(), findTree, "", "find", "d", "-type", "f", "-execdir", "echo", "{}", "+")
	var got [][]string
	e.extra["echo"] = func(env *Env) int {
		got = append(got, append([]string{env.Dir}, env.Args...))
		return 0
	}
	if r := e.run(); r.status != 0 || r.stderr != "" {
		t.Fatalf("status %d, stderr %q", r.status, r.stderr)
	}
	dir := e.Dir
	want := [][]string{{dir + "/d/e", "echo", "./f.c"}, {dir + "/d", "echo", "./empty", "./g.TXT"}}
	if strings.Join(flat(got), "|") != strings.Join(flat(want), "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	// A starting point runs in the directory it was named from: "." in
	// ".", as GNU does.
	got = nil
	e.out.b.Reset()
	e.Args = []string{"find", ".", "d", "-maxdepth", "0", "-execdir", "echo", "{}", ";"}
	if r := e.run(); r.status != 0 || r.stderr != "" {
		t.Fatalf("status %d, stderr %q", r.status, r.stderr)
	}
	want = [][]string{{dir, "echo", "./."}, {dir, "echo", "./d"}}
	if strings.Join(flat(got), "|") != strings.Join(flat(want), "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, c := range e.calls {
		if c.args[0] != "echo" {
			t.Errorf("call %q", c.args)
		}
	}
}

func flat(x [][]string) []string {
	var out []string
	for _, s := range x {
		out = append(out, strings.Join(s, " "))
	}
	return out
}

// TestFindTimes checks -mtime, -mmin and -newer on files whose times the
// test sets (on the host, as setup), against GNU's rounding rules:
// -mtime counts whole days down, -mmin N means (N-1, N] minutes.
func TestFindTimes(t *testing.T) {
	t.Parallel()
	now := time.Now()
	ages := map[string]time.Duration{
		"s30": 30 * time.Second, "s90": 90 * time.Second, "s150": 150 * time.Second,
		"h1": time.Hour, "h25": 25 * time.Hour, "h49": 49 * time.Hour,
	}
	files := map[string]string{}
	for n := range ages {
		files[n] = ""
	}
	cases := []struct {
		args []string
		out  string
	}{
		{[]string{"-mmin", "1"}, "./s30\n"},
		{[]string{"-mmin", "2"}, "./s90\n"},
		{[]string{"-mmin", "-2"}, "./s30\n./s90\n"},
		{[]string{"-mmin", "+1"}, "./h1\n./h25\n./h49\n./s150\n./s90\n"},
		{[]string{"-mtime", "0"}, "./h1\n./s150\n./s30\n./s90\n"},
		{[]string{"-mtime", "1"}, "./h25\n"},
		{[]string{"-mtime", "+0"}, "./h25\n./h49\n"},
		{[]string{"-mtime", "-2"}, "./h1\n./h25\n./s150\n./s30\n./s90\n"},
		{[]string{"-newer", "h25"}, "./h1\n./s150\n./s30\n./s90\n"},
	}
	for _, c := range cases {
		e := newExecEnv(t, context.Background(), files, "", append([]string{"find", ".", "-type", "f"}, c.args...)...)
		for n, age := range ages {
			if err := os.Chtimes(filepath.Join(e.Dir, n), now.Add(-age), now.Add(-age)); err != nil {
				t.Fatal(err)
			}
		}
		e.Env.Exec = nil
		got := e.run()
		if got.stdout != c.out || got.status != 0 {
			t.Errorf("%q: got %q %q %d, want %q", c.args, got.stdout, got.stderr, got.status, c.out)
		}
	}
}

// TestFindSymlinks: with an FS that can Lstat, a link is type l and is not
// followed; with -L it is followed. Checked against GNU find 4.9.0.
func TestFindSymlinks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		out  string
	}{
		{[]string{"find", "."}, ".\n./d\n./d/f\n./link\n"},
		{[]string{"find", ".", "-type", "l"}, "./link\n"},
		{[]string{"find", "-L", ".", "-type", "f"}, "./d/f\n./link/f\n"},
		{[]string{"find", "-L", ".", "-type", "l"}, ""},
		{[]string{"find", ".", "-follow", "-name", "f"}, "./d/f\n./link/f\n"},
		{[]string{"find", ".", "-name", "link", "-printf", "%y %Y\n"}, "l d\n"},
		{[]string{"find", ".", "-xtype", "d"}, ".\n./d\n./link\n"},
		{[]string{"find", "link"}, "link\n"},
		{[]string{"find", "-H", "link"}, "link\nlink/f\n"},
		{[]string{"find", "-H", ".", "-type", "l"}, "./link\n"},
		{[]string{"find", "-L", "link", "-type", "f"}, "link/f\n"},
	}
	for _, c := range cases {
		e := newExecEnv(t, context.Background(), map[string]string{"d/f": "x"}, "", c.args...)
		if err := os.Symlink("d", filepath.Join(e.Dir, "link")); err != nil {
			t.Fatal(err)
		}
		if got := e.run(); got.stdout != c.out || got.stderr != "" || got.status != 0 {
			t.Errorf("%q: got %q %q %d, want %q", c.args, got.stdout, got.stderr, got.status, c.out)
		}
	}
}

// TestFindBrokenLinks: under -L (and -H for a starting point) a link that
// cannot be followed is described itself, type l; under -L, -xtype is the
// type of the link itself. A link leaving the grant is such a link too:
// nothing of its target shows. Checked against GNU find 4.9.0 (without
// the "out" link, whose target GNU would follow).
func TestFindBrokenLinks(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	cases := []struct {
		args []string
		out  string
	}{
		{[]string{"find", "-L", ".", "-type", "l"}, "./dangle\n./out\n"},
		{[]string{"find", "-L", ".", "-type", "f"}, "./d/f\n./link/f\n"},
		{[]string{"find", "-L", ".", "-xtype", "l"}, "./dangle\n./link\n./out\n"},
		{[]string{"find", "-L", ".", "-printf", `%y %Y %p\n`}, "d d .\nd d ./d\nf f ./d/f\nl N ./dangle\nd d ./link\nf f ./link/f\nl N ./out\n"},
		{[]string{"find", "-H", "dangle", "out", "-type", "l"}, "dangle\nout\n"},
		{[]string{"find", ".", "-xtype", "l"}, "./dangle\n./out\n"},
	}
	for _, c := range cases {
		e := newExecEnv(t, context.Background(), map[string]string{"d/f": "x"}, "", c.args...)
		for name, to := range map[string]string{"link": "d", "dangle": "nowhere", "out": outside} {
			if err := os.Symlink(to, filepath.Join(e.Dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		if got := e.run(); got.stdout != c.out || got.stderr != "" || got.status != 0 {
			t.Errorf("%q: got %q %q %d, want %q", c.args, got.stdout, got.stderr, got.status, c.out)
		}
	}
}

// TestFindStops: a cancelled context stops the walk quietly with status 1.
func TestFindStops(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := newExecEnv(t, ctx, findTree, "", "find", ".")
	if got := e.run(); got.status != 1 || got.stdout != "" {
		t.Errorf("got %q %q %d", got.stdout, got.stderr, got.status)
	}
}

// TestFindDelete removes through the FS, depth first; a directory that is
// not empty is reported as GNU does. Checked against GNU find 4.9.0.
func TestFindDelete(t *testing.T) {
	t.Parallel()
	steps := []struct {
		args     []string
		out, err string
		status   int
	}{
		{[]string{"find", ".", "-name", "*.log", "-delete", "-print"}, "./b.log\n", "", 0},
		{[]string{"find", ".", "-name", "d", "-delete"}, "", "find: cannot delete './d': Directory not empty\n", 1},
		{[]string{"find", "d", "-name", "e", "-prune", "-o", "-type", "f", "-delete"}, "", "find: The -delete action automatically turns on -depth, but -prune does nothing when -depth is in effect.  If you want to carry on anyway, just explicitly use the -depth option.\n", 1},
		{[]string{"find", "d", "-depth", "-name", "e", "-prune", "-o", "-type", "f", "-delete"}, "", "", 0},
		{[]string{"find", "d"}, "d\nd/e\n", "", 0},
		{[]string{"find", "d", "-delete"}, "", "", 0},
		{[]string{"find", ".", "-delete"}, "", "", 0},
		{[]string{"find", "."}, ".\n", "", 0},
	}
	e := newExecEnv(t, context.Background(), findTree, "", "find")
	for _, s := range steps {
		e.out.b.Reset()
		e.errb.b.Reset()
		e.Args = s.args
		if got := e.run(); got.stdout != s.out || got.stderr != s.err || got.status != s.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", s.args, got.stdout, got.stderr, got.status, s.out, s.err, s.status)
		}
	}
}

// TestFindPrintfTimes: time directives, checked against GNU find 4.9.0
// with TZ=UTC (llmsh shows times in UTC).
func TestFindPrintfTimes(t *testing.T) {
	t.Parallel()
	e := newExecEnv(t, context.Background(), map[string]string{"a.txt": "x"}, "", "find", "a.txt", "-printf", `%t|%T@|%TY-%Tm-%Td|%Tk|%TT|%T+|%TS|%Ta %Tb %Te|%Tj|%Ts\n`)
	mt := time.Date(2024, 1, 2, 3, 4, 5, 250000000, time.UTC)
	if err := os.Chtimes(filepath.Join(e.Dir, "a.txt"), mt, mt); err != nil {
		t.Fatal(err)
	}
	want := "Tue Jan  2 03:04:05.2500000000 2024|1704164645.2500000000|2024-01-02| 3|03:04:05.2500000000|2024-01-02+03:04:05.2500000000|05.2500000000|Tue Jan  2|002|1704164645\n"
	if got := e.run(); got.stdout != want || got.stderr != "" {
		t.Errorf("got %q %q, want %q", got.stdout, got.stderr, want)
	}
}

// TestFindFprint writes through the FS: the file is truncated when the
// expression is parsed, and one name used twice is one stream. Checked
// against GNU find 4.9.0.
func TestFindFprint(t *testing.T) {
	t.Parallel()
	steps := []struct {
		args     []string
		out, err string
		status   int
	}{
		{[]string{"find", ".", "-name", "*.txt", "-fprint", "list", "-o", "-name", "*.log", "-fprintf", "list", `log %f\n`}, "", "", 0},
		{[]string{"cat", "list"}, "./a.txt\nlog b.log\n", "", 0},
		{[]string{"find", "d", "-type", "f", "-fprint0", "list0", "-fprint", "/dev/stdout"}, "d/e/f.c\nd/empty\nd/g.TXT\n", "", 0},
		{[]string{"cat", "list0"}, "d/e/f.c\x00d/empty\x00d/g.TXT\x00", "", 0},
		{[]string{"find", ".", "-name", "nothing", "-fprint", "list"}, "", "", 0},
		{[]string{"cat", "list"}, "", "", 0},
		{[]string{"find", ".", "-fprint", "nodir/x"}, "", "find: 'nodir/x': No such file or directory\n", 1},
	}
	e := newExecEnv(t, context.Background(), findTree, "", "find")
	for _, s := range steps {
		e.out.b.Reset()
		e.errb.b.Reset()
		e.Args = s.args
		if got := e.run(); got.stdout != s.out || got.stderr != s.err || got.status != s.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", s.args, got.stdout, got.stderr, got.status, s.out, s.err, s.status)
		}
	}
}

// TestFindNewermt compares with dates read by date's parser, in the
// script's TZ, which also applies to -printf times. Checked against GNU
// find 4.9.0 with TZ=EST5.
func TestFindNewermt(t *testing.T) {
	t.Parallel()
	mt := time.Date(2024, 1, 2, 3, 4, 5, 250000000, time.UTC)
	cases := []struct {
		args     []string
		out, err string
		status   int
	}{
		{[]string{"find", "a.txt", "-newermt", "2024-01-01 22:04"}, "a.txt\n", "", 0},
		{[]string{"find", "a.txt", "-newermt", "2024-01-01 22:05"}, "", "", 0},
		{[]string{"find", "a.txt", "!", "-newermt", "1 day ago"}, "a.txt\n", "", 0},
		{[]string{"find", "a.txt", "-newermm", "b"}, "", "", 0},
		{[]string{"find", "b", "-newermm", "a.txt"}, "b\n", "", 0},
		{[]string{"find", "a.txt", "-printf", `%t|%TZ|%Tz|%TH\n`}, "Mon Jan  1 22:04:05.2500000000 2024|EST|-0500|22\n", "", 0},
		{[]string{"find", ".", "-newermt", "xyz"}, "", "find: I cannot figure out how to interpret 'xyz' as a date or time\n", 1},
		{[]string{"find", ".", "-newermt"}, "", "find: The '-newermt' test needs an argument\n", 1},
		{[]string{"find", ".", "-newerBt", "2020-01-01"}, "", "find: This system does not provide a way to find the birth time of a file.\nfind: invalid predicate `-newerBt'\n", 1},
		{[]string{"find", ".", "-newerxt", "2020"}, "", "find: invalid predicate `-newerxt'\n", 1},
	}
	for _, c := range cases {
		e := newExecEnv(t, context.Background(), map[string]string{"a.txt": "x", "b": ""}, "", c.args...)
		e.Environ = []string{"TZ=EST5"}
		if err := os.Chtimes(filepath.Join(e.Dir, "a.txt"), mt, mt); err != nil {
			t.Fatal(err)
		}
		if got := e.run(); got.stdout != c.out || got.stderr != c.err || got.status != c.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", c.args, got.stdout, got.stderr, got.status, c.out, c.err, c.status)
		}
	}
}

// TestFindLs: -ls and -fls write GNU find's -ls columns (inode, blocks,
// mode, links, owner, group, size, time, name) with llmsh's values for
// what vfsd does not expose; column layout checked against findutils 4.9.
func TestFindLs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeTestFile(t, fsys, dir+"/d/f", "hello")
	writeTestFile(t, fsys, dir+"/d/big", strings.Repeat("x", 2049))
	now := time.Now()
	recent := now.Add(-time.Hour).Truncate(time.Minute)
	old := time.Date(2020, 3, 4, 5, 6, 7, 0, time.UTC)
	for p, mt := range map[string]time.Time{"d": recent, "d/f": recent, "d/big": old} {
		if err := os.Chtimes(filepath.Join(dir, p), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(dir, "d/big"), 0o640)
	stamp := recent.UTC().Format("Jan _2 15:04")
	dfi, err := os.Stat(filepath.Join(dir, "d"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("        0 %6d drwxr-xr-x   2 llmsh    llmsh    %8d ", (dfi.Size()+1023)/1024, dfi.Size()) + stamp + " d\n" +
		"        0      4 -rw-r-----   1 llmsh    llmsh        2049 Mar  4  2020 d/big\n" +
		"        0      4 -rw-r--r--   1 llmsh    llmsh           5 " + stamp + " d/f\n"
	if r := runCmdIn(t, dir, "find", "d", "-ls"); r.stdout != want || r.stderr != "" || r.status != 0 {
		t.Errorf("-ls: got %q %q %d\nwant %q", r.stdout, r.stderr, r.status, want)
	}
	if r := runCmdIn(t, dir, "find", "d", "-name", "f", "-fls", "out"); r.stdout != "" || r.status != 0 {
		t.Errorf("-fls: %+v", r)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "out")); err != nil || !strings.HasSuffix(string(got), " d/f\n") || strings.Count(string(got), "\n") != 1 {
		t.Errorf("-fls wrote %q %v", got, err)
	}
	if r := runCmdIn(t, dir, "find", "d", "-fls"); r.status != 1 || r.stderr != "find: missing argument to `-fls'\n" {
		t.Errorf("-fls without FILE: %+v", r)
	}
}

// TestFindDeepExpressions: long runs of -a, -o, "," and ! (from "$@")
// are read and evaluated in loops, where each operand was a Go recursion
// (a million overflowed Go's stack, a fatal error; here the stack is held
// to 4 MiB so that 75000 would, 56 bytes a level), and ( ) nested past
// findMaxParens is an error (their parse is a recursion of about 1.2 KB
// a level under the race detector: 16 MiB for those cases). 300000 under
// 16 MiB were 2.9 s of CPU under the race detector, 75000 0.75 s.
func TestFindDeepExpressions(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(4 << 20))
	c := func(name string, args []string, out, err string, status int) execCase {
		return execCase{name, findTree, "", append([]string{"find", "."}, args...), out, err, status}
	}
	chain := func(n int, sep string, term ...string) []string {
		var args []string
		for i := range n {
			if i > 0 && sep != "" {
				args = append(args, sep)
			}
			args = append(args, term...)
		}
		return args
	}
	const n = 75000
	nots := append(chain(n+1, "", "!"), "-name", "a.txt")
	parens := func(n int) []string {
		return append(append(chain(n, "", "("), "-name", "a.txt"), chain(n, "", ")")...)
	}
	runExecCases(t, []execCase{
		c("and chain", append(chain(n, "-a", "-type", "f"), "-name", "a.txt"), "./a.txt\n", "", 0),
		c("or chain", append(chain(n, "-o", "-name", "nothing"), "-o", "-name", "a.txt"), "./a.txt\n", "", 0),
		c("comma chain", append(chain(n, ",", "-false"), ",", "-name", "a.txt"), "./a.txt\n", "", 0),
		c("odd run of !", append(nots, "-type", "f"), "./.hidden\n./b.log\n./d/e/f.c\n./d/empty\n./d/g.TXT\n", "", 0),
		c("even run of !", append(nots[1:], "-type", "f"), "./a.txt\n", "", 0),
	})
	debug.SetMaxStack(16 << 20)
	runExecCases(t, []execCase{
		c("parentheses at the bound", parens(findMaxParens), "./a.txt\n", "", 0),
		c("parentheses too deep", parens(n), "", "find: invalid expression; parentheses nested too deeply\n", 1),
	})
}
