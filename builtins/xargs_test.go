package builtins_test

import (
	"context"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// Expected values checked against GNU findutils 4.9.0 xargs (LC_ALL=C).
// Where a command is not found, the message is the shell's ("llmsh: X:
// command not found") instead of GNU's "xargs: X: No such file or
// directory".
func TestXargs(t *testing.T) {
	t.Parallel()
	try := "Try 'xargs --help' for more information.\n"
	quoteMsg := "by default quotes are special to xargs unless you use the -0 option\n"
	runExecCases(t, []execCase{
		{"default echo", nil, "a b\nc\n", []string{"xargs"}, "a b c\n", "", 0},
		{"quotes", nil, "a 'b c' \"d e\" f\\ g\n", []string{"xargs", "-n1"}, "a\nb c\nd e\nf g\n", "", 0},
		{"backslash newline", nil, "a\\\nb\n", []string{"xargs"}, "a\nb\n", "", 0},
		{"unmatched single", nil, "a 'b\n", []string{"xargs"}, "a\n", "xargs: unmatched single quote; " + quoteMsg, 1},
		{"unmatched double", nil, "\"a\nb\"\n", []string{"xargs"}, "", "xargs: unmatched double quote; " + quoteMsg, 1},
		{"unmatched after lines", nil, "x y\nz 'b\n", []string{"xargs", "-L1"}, "x y\n", "xargs: unmatched single quote; " + quoteMsg, 1},
		{"unmatched after args", nil, "x y z\n'b\n", []string{"xargs", "-n2"}, "x y\nz\n", "xargs: unmatched single quote; " + quoteMsg, 1},
		{"quote at eof alone", nil, "\"", []string{"xargs"}, "\n", "", 0},
		{"empty input runs once", nil, "", []string{"xargs"}, "\n", "", 0},
		{"-r", nil, "", []string{"xargs", "-r", "echo", "x"}, "", "", 0},
		{"-r blank", nil, "  \n\n", []string{"xargs", "--no-run-if-empty", "echo", "x"}, "", "", 0},
		{"-n2", nil, "1 2 3 4 5\n", []string{"xargs", "-n", "2", "echo", "-"}, "- 1 2\n- 3 4\n- 5\n", "", 0},
		{"-L1", nil, "a b\nc d \ne\n", []string{"xargs", "-L1", "echo"}, "a b\nc d e\n", "", 0},
		{"-L blank lines", nil, "\n\n", []string{"xargs", "-L1", "echo", "x"}, "x\n", "", 0},
		{"-L2", nil, "a\nb\nc\n", []string{"xargs", "-L", "2"}, "a b\nc\n", "", 0},
		{"-I", nil, "1\n2\n3\n", []string{"xargs", "-I{}", "echo", "x{}y", "{}"}, "x1y 1\nx2y 2\nx3y 3\n", "", 0},
		{"-I keeps blanks", nil, "  lead  \n\"a  b\" c\n\nd\n", []string{"xargs", "-I", "{}", "echo", "[{}]"}, "[lead  ]\n[a  b c]\n[d]\n", "", 0},
		{"-I twice in an arg", nil, "a\n", []string{"xargs", "-I{}", "echo", "{}{}", "x{}"}, "aa xa\n", "", 0},
		{"-I empty input", nil, "", []string{"xargs", "-I{}", "echo", "x"}, "", "", 0},
		{"-i", nil, "aa\nbb\n", []string{"xargs", "-i", "echo", "<{}>"}, "<aa>\n<bb>\n", "", 0},
		{"-0", nil, "a\x00b c\x00", []string{"xargs", "-0", "-n1", "echo"}, "a\nb c\n", "", 0},
		{"-0 keeps quotes", nil, "'a'\x00", []string{"xargs", "-0"}, "'a'\n", "", 0},
		{"-0 -I", nil, "a\n\x00", []string{"xargs", "-0", "-I{}", "echo", "[{}]"}, "[a\n]\n", "", 0},
		{"-d:", nil, "a:b:c", []string{"xargs", "-d:", "-n1"}, "a\nb\nc\n", "", 0},
		{"-d newline", nil, "a\n\nb\n", []string{"xargs", "-d", "\\n", "echo"}, "a  b\n", "", 0},
		{"-d hex", nil, "aAb", []string{"xargs", "-d", "\\x41", "echo"}, "a b\n", "", 0},
		{"-d bad", nil, "a", []string{"xargs", "-d", "ab"}, "", "xargs: Invalid input delimiter specification ab: the delimiter must be either a single character or an escape sequence starting with \\.\n", 1},
		{"-E", nil, "a\nEND\nb\n", []string{"xargs", "-E", "END", "echo"}, "a\n", "", 0},
		{"-E first", nil, "a b\n", []string{"xargs", "-E", "a", "echo", "x"}, "x\n", "", 0},
		{"-E with -d", nil, "a\nEND\nb\n", []string{"xargs", "-E", "END", "-d", "\\n", "echo"}, "a END b\n", "xargs: warning: the -E option has no effect if -0 or -d is used.\n\n", 0},
		{"-t", nil, "a\nb\n", []string{"xargs", "-t", "-n1"}, "a\nb\n", "echo a\necho b\n", 0},
		{"-t quoting", nil, "x y\n", []string{"xargs", "-t", "-I{}", "echo", "{}", "a'b"}, "x y a'b\n", "echo 'x y' \"a'b\"\n", 0},
		{"-t control chars", nil, "a$b c d\"\n\x00", []string{"xargs", "-0", "-t", "echo"}, "a$b c d\"\n\n", "echo 'a$b c d\"'$'\\n'\n", 0},
		{"-t empty arg", nil, "'' a\n''\n", []string{"xargs", "-t"}, " a \n", "echo '' a ''\n", 0},
		{"-x -n", nil, "1 2 3\n", []string{"xargs", "-x", "-n3", "-s", "9", "echo"}, "", "xargs: argument list too long\n", 1},
		{"-s", nil, "1 2 3 4 5 6 7 8 9 10\n", []string{"xargs", "-s", "12", "echo"}, "1 2 3\n4 5 6\n7 8 9\n10\n", "", 0},
		{"-s too small", nil, "1\n", []string{"xargs", "-s", "5", "echo"}, "", "xargs: argument line too long\n", 1},
		{"-s 0", nil, "a\n", []string{"xargs", "-s", "0"}, "", "xargs: value 0 for -s option should be >= 1\nxargs: cannot fit single argument within argument list size limit\n", 1},
		{"item longer than -s", nil, "a b " + strings.Repeat("x", 200) + " c\n", []string{"xargs", "-s", "100", "echo"}, "a b\n", "xargs: argument line too long\n", 1},
		{"-0 item longer than -s", nil, "a\x00" + strings.Repeat("x", 200), []string{"xargs", "-0", "-s", "100", "echo"}, "a\n", "xargs: argument line too long\n", 1},
		{"-x -s", nil, "1 2 3\n", []string{"xargs", "-x", "-s", "9", "echo"}, "1 2\n3\n", "", 0},
		{"-n 0", nil, "a\n", []string{"xargs", "-n", "0"}, "", "xargs: value 0 for -n option should be >= 1\n" + try, 1},
		{"-L 0", nil, "a\n", []string{"xargs", "-L", "0"}, "", "xargs: value 0 for -L option should be >= 1\n" + try, 1},
		{"-P x", nil, "a\n", []string{"xargs", "-P", "x"}, "", "xargs: invalid number \"x\" for -P option\n" + try, 1},
		{"-P -1", nil, "a\n", []string{"xargs", "-P", "-1"}, "", "xargs: value -1 for -P option should be >= 0\n" + try, 1},
		{"bad option", nil, "a\n", []string{"xargs", "--foo"}, "", "xargs: unrecognized option '--foo'\n" + try, 1},
		{"options stop at command", nil, "a\n", []string{"xargs", "echo", "-n"}, "a", "", 0},
		{"failure is 123", map[string]string{}, "nope1\nnope2\n", []string{"xargs", "-n1", "cat"}, "", "cat: nope1: No such file or directory\ncat: nope2: No such file or directory\n", 123},
		{"not found is 127", nil, "a\nb\n", []string{"xargs", "-n1", "nope"}, "", "llmsh: nope: command not found\n", 127},
		{"host program refused", nil, "/etc/passwd\n", []string{"xargs", "/bin/cat"}, "", "llmsh: /bin/cat: command not found\n", 127},
		{"-a missing", map[string]string{}, "", []string{"xargs", "-a", "nope", "echo"}, "", "xargs: Cannot open input file 'nope': No such file or directory\n", 1},
		{"-a", map[string]string{"list": "x y\n"}, "ignored\n", []string{"xargs", "-a", "list", "echo"}, "x y\n", "", 0},
		// GNU: with -a FILE the commands keep xargs's stdin; otherwise
		// (and with -a -) they read /dev/null.
		{"-a keeps stdin", map[string]string{"list": "-\n"}, "from stdin\n", []string{"xargs", "-a", "list", "cat"}, "from stdin\n", "", 0},
		{"commands read nothing", nil, "-\n", []string{"xargs", "cat"}, "", "", 0},
		// -p without a terminal, as GNU xargs 4.9 fails: the command line,
		// then the error, and nothing run.
		{"-p no terminal", nil, "a\n", []string{"xargs", "-p"}, "", "echo axargs: failed to open /dev/tty for reading: No such device or address\n", 1},
		{"-p quoted", nil, "a b\n", []string{"xargs", "-p", "-I{}", "echo", "{}"}, "", "echo 'a b'xargs: failed to open /dev/tty for reading: No such device or address\n", 1},
		{"-p nothing to run", nil, "", []string{"xargs", "-p", "-r", "echo"}, "", "", 0},
	})
}

// TestXargsStatus255 stops at the first command exiting 255 (status 124).
func TestXargsStatus255(t *testing.T) {
	t.Parallel()
	e := newExecEnv(t, context.Background(), nil, "a\nb\n", "xargs", "-n1", "quit255")
	e.extra["quit255"] = func(env *Env) int { return 255 }
	got := e.run()
	if got.status != 124 || got.stderr != "xargs: quit255: exited with status 255; aborting\n" || len(e.calls) != 1 {
		t.Errorf("got %q %d after %d calls", got.stderr, got.status, len(e.calls))
	}
}

// TestXargsParallel runs commands concurrently with -P: each prints two
// lines in several writes; lines never mix, and every command ran.
func TestXargsParallel(t *testing.T) {
	t.Parallel()
	var running, peak atomic.Int32
	gate := make(chan struct{})
	var in strings.Builder
	for i := 0; i < 40; i++ {
		in.WriteString("item" + strings.Repeat("x", i) + "\n")
	}
	e := newExecEnv(t, context.Background(), nil, in.String(), "xargs", "-P", "4", "-n", "1", "say")
	e.extra["say"] = func(env *Env) int {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		if n == 4 {
			// All four slots are busy at once: let everyone go on.
			select {
			case <-gate:
			default:
				close(gate)
			}
		}
		<-gate
		a := env.Args[1]
		for _, part := range []string{"begin ", a, "\n", "end ", a, "\n"} {
			env.Stdout.Write([]byte(part))
		}
		running.Add(-1)
		return 0
	}
	got := e.run()
	if got.status != 0 || got.stderr != "" {
		t.Fatalf("status %d stderr %q", got.status, got.stderr)
	}
	if p := peak.Load(); p != 4 {
		t.Errorf("peak concurrency %d, want 4", p)
	}
	lines := strings.Split(strings.TrimSuffix(got.stdout, "\n"), "\n")
	if len(lines) != 80 {
		t.Fatalf("%d lines, want 80", len(lines))
	}
	seen := map[string]int{}
	for _, l := range lines {
		kind, arg, ok := strings.Cut(l, " ")
		if !ok || (kind != "begin" && kind != "end") || !strings.HasPrefix(arg, "item") || strings.Contains(arg[4:], "i") {
			t.Fatalf("mixed line %q", l)
		}
		seen[arg]++
	}
	if len(seen) != 40 {
		keys := make([]string, 0, len(seen))
		for k := range seen {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Errorf("saw %d items: %v", len(seen), keys)
	}
}

// TestXargsCancelled stops reading and running on a cancelled context.
func TestXargsCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := newExecEnv(t, ctx, nil, strings.Repeat("a\n", 100000), "xargs", "-n1")
	got := e.run()
	if got.status != 1 || len(e.calls) != 0 {
		t.Errorf("status %d after %d calls, want 1 after none", got.status, len(e.calls))
	}
}

// TestXargsConfined: a command run by xargs reads files only through the
// FS it was given; a path outside the granted directory is refused.
func TestXargsConfined(t *testing.T) {
	t.Parallel()
	e := newExecEnv(t, context.Background(), map[string]string{"in.txt": "inside\n"}, "in.txt\n../../../../../../etc/passwd\n/etc/passwd\n", "xargs", "-n1", "cat")
	got := e.run()
	if got.stdout != "inside\n" || got.status != 123 {
		t.Errorf("got %q %d", got.stdout, got.status)
	}
	if strings.Count(got.stderr, "No such file or directory") != 2 || strings.Contains(got.stdout, "root:") {
		t.Errorf("stderr %q", got.stderr)
	}
}
