package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/llmsh/llmsh"
)

// TestMain lets the test binary act as vfsd, as llmsh does: a session
// re-executes the running binary in server mode.
//
// Most of this package's tests wait on child processes (llmsh, vfsd, a
// serve worker) rather than compute: a run of the package took 154 s of
// CPU in 296 s of wall time with go test's default -parallel (GOMAXPROCS,
// 2 on the CI machine). So unless -parallel is given, up to
// parallelPerCPU parallel tests per CPU run at once. A full run (no -run
// pattern: never a re-executed helper, which always has one) also starts
// building the release binary at once, so the build overlaps the tests
// that do not need it.
func TestMain(m *testing.M) {
	llmsh.MaybeServeVfsd()
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if f := flag.Lookup("test.parallel"); f != nil && !explicit {
		f.Value.Set(strconv.Itoa(parallelPerCPU * runtime.GOMAXPROCS(0)))
	}
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() == "" {
		go llmshBinOnce.Do(buildLlmsh)
	}
	code := m.Run()
	llmshBinOnce.Do(func() {}) // waits for a build in progress
	if llmshBinDir != "" {
		os.RemoveAll(llmshBinDir)
	}
	os.Exit(code)
}

// parallelPerCPU is how many parallel tests run at once per CPU by default
// (see TestMain).
const parallelPerCPU = 4

func knownFailures(t *testing.T) map[string]bool {
	f, err := os.Open("../../testdata/fixtures/KNOWN_FAILURES")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out[l] = true
		}
	}
	return out
}

// TestFixtures runs testdata/fixtures (goldens from bash 5.2). A sample
// runs in this process under the race detector, each in a session whose
// vfsd is realVfsd (raceFixture says which); the rest run through the
// release build's `llmsh test` (realLlmsh), in batches of fixtureBatch
// fixtures, at most GOMAXPROCS batches at a time. Under the race detector
// a fixture cost about three times its static run (41 s of CPU for the
// 948 fixtures, 15 s through `llmsh test`); the shell's concurrency that
// the race detector watches (pipelines, jobs, process substitution, a
// builtin's own goroutines) is in the sample, and raced besides in
// shell's, third_party/sh/interp's and builtins' tests and in every
// attack script's library run. Each fixture is a subtest of its own
// either way, named as its file.
func TestFixtures(t *testing.T) {
	t.Parallel()
	scripts := fixtureScripts("../../testdata/fixtures")
	if len(scripts) < 60 {
		t.Fatalf("only %d fixtures", len(scripts))
	}
	known := knownFailures(t)
	vfsd := realVfsd(t)
	batches := map[string]*fixtureBatch{}
	var batch *fixtureBatch
	raced := 0
	for _, sc := range scripts {
		name := strings.TrimSuffix(filepath.Base(sc), ".sh")
		if raceFixture(sc) {
			raced++
			continue
		}
		if !fixtureSelected(name) {
			continue
		}
		if batch == nil || len(batch.scripts) == fixtureBatchSize {
			batch = &fixtureBatch{done: make(chan struct{})}
		}
		batch.scripts = append(batch.scripts, sc)
		batches[sc] = batch
	}
	if raced < len(scripts)/8 {
		t.Errorf("only %d of %d fixtures under the race detector", raced, len(scripts))
	}
	bin := realLlmsh(t)
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	started := map[*fixtureBatch]bool{}
	for _, sc := range scripts {
		if b := batches[sc]; b != nil && !started[b] {
			started[b] = true
			go b.run(bin, slots)
		}
	}
	for _, sc := range scripts {
		name := strings.TrimSuffix(filepath.Base(sc), ".sh")
		b := batches[sc]
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each runs in a directory and session of its own
			var diff string
			if b != nil {
				<-b.done
				if b.err != nil {
					t.Fatal(b.err)
				}
				var ok bool
				if diff, ok = b.results[strings.TrimSuffix(sc, ".sh")]; !ok {
					t.Fatalf("llmsh test did not report it:\n%s", b.out)
				}
			} else {
				res, err := runFixture(sc, vfsd)
				if err != nil {
					t.Fatal(err)
				}
				diff = res.compare(strings.TrimSuffix(sc, ".sh"), false)
			}
			switch {
			case diff != "" && !known[name]:
				t.Errorf("differs from bash:\n%s", diff)
			case diff == "" && known[name]:
				t.Errorf("passes now: remove it from KNOWN_FAILURES")
			}
		})
	}
}

// fixtureBatchSize is how many fixtures one `llmsh test` of TestFixtures
// runs: about 1.5 s of CPU, so that the batches spread over the CPUs.
const fixtureBatchSize = 100

// fixtureBatch is one `llmsh test` run of TestFixtures: results holds
// what it said of each fixture (by NAME, the path without .sh): "" when
// it passed, else its differences.
type fixtureBatch struct {
	scripts []string
	done    chan struct{}
	results map[string]string
	out     string
	err     error
}

func (b *fixtureBatch) run(bin string, slots chan struct{}) {
	defer close(b.done)
	slots <- struct{}{}
	defer func() { <-slots }()
	cmd := exec.Command(bin, append([]string{"test", "--color=never"}, b.scripts...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	b.out = string(out)
	if _, failed := err.(*exec.ExitError); err != nil && (!failed || cmd.ProcessState.ExitCode() != 1) {
		b.err = fmt.Errorf("llmsh test: %v\n%s%s", err, stderr.Bytes(), out)
		return
	}
	b.results, b.err = parseFixtureReport(b.out)
	if b.err == nil && stderr.Len() > 0 {
		b.err = fmt.Errorf("llmsh test wrote to stderr: %s", stderr.Bytes())
	}
}

// parseFixtureReport reads `llmsh test`'s report: "ok   NAME", or "FAIL
// NAME" (with ": ERROR" when it could not run) followed by its
// differences, whose lines never start with "ok " or "FAIL ", and the
// summary line last.
func parseFixtureReport(out string) (map[string]string, error) {
	results := map[string]string{}
	lines := strings.SplitAfter(out, "\n")
	if len(lines) < 2 || lines[len(lines)-1] != "" || !strings.HasSuffix(lines[len(lines)-2], " failed\n") {
		return nil, fmt.Errorf("llmsh test's report does not end with its summary:\n%s", out)
	}
	var name string
	for _, l := range lines[:len(lines)-2] {
		switch {
		case strings.HasPrefix(l, "ok   "):
			name = strings.TrimSuffix(l[len("ok   "):], "\n")
			results[name] = ""
		case strings.HasPrefix(l, "FAIL "):
			name = strings.TrimSuffix(l[len("FAIL "):], "\n")
			if n, e, ok := strings.Cut(name, ": "); ok {
				name = n
				results[name] = e + "\n"
			} else {
				results[name] = ""
			}
		case name == "":
			return nil, fmt.Errorf("llmsh test's report starts with %q", l)
		default:
			results[name] += l
		}
	}
	for name, diff := range results {
		if diff == "" && strings.Contains(out, "FAIL "+name+"\n") {
			return nil, fmt.Errorf("llmsh test failed %s without a difference", name)
		}
	}
	return results, nil
}

// raceFixture says whether TestFixtures runs fixture script in its own
// process under the race detector: one that uses the shell's concurrency
// (a job, process substitution, a coprocess, wait, xargs -P, sort
// --parallel, split --filter), and one in eight of the others, by a hash
// of the name (a new fixture does not move the others). One in four was
// 425 of 1243 fixtures, 22 s of CPU, where the static build ran them in
// 8.7 s (session 25): the others' pipelines and builtins' goroutines
// are raced besides in shell's, interp's and builtins' tests.
func raceFixture(script string) bool {
	h := fnv.New32a()
	h.Write([]byte(filepath.Base(script)))
	if h.Sum32()%8 == 0 {
		return true
	}
	src, err := os.ReadFile(script)
	return err != nil || concurrentFixture.Match(src)
}

// concurrentFixture finds, roughly (a sed replacement's & is a job to
// it), what in a fixture's text runs shell code concurrently.
var concurrentFixture = regexp.MustCompile(`(^|[^&>|<])&([^&>]|$)|[<>]\(|\bcoproc\b|\bwait\b|\|&|xargs .*-P|--parallel|--filter`)

// fixtureSelected says whether the -run pattern may select TestFixtures'
// subtest name, so that a -run of a few fixtures does not batch them
// all. It errs on the side of yes; a subtest that runs without a batch
// runs its fixture in this process.
func fixtureSelected(name string) bool {
	f := flag.Lookup("test.run")
	if f == nil {
		return true
	}
	_, sub, ok := strings.Cut(f.Value.String(), "/")
	if !ok {
		return true
	}
	sub, _, _ = strings.Cut(sub, "/")
	re, err := regexp.Compile(sub)
	return err != nil || re.MatchString(name)
}

// runLlmsh runs the release build (realLlmsh) with args, stdin and only
// CANARY_SECRET in its environment. A static binary, not the race-built test
// binary re-executed: the race detector watches this process's goroutines,
// and the library's and serve's tests run the same shell in-process under it.
func runLlmsh(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(realLlmsh(t), args...)
	cmd.Env = []string{"CANARY_SECRET=leaked"}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// helperCommand re-executes the test binary as the helper test named
// test (a TestHelper… that acts only when its variable in env is set),
// with args after "--" and env as its whole environment (plus GORACE
// without the race detector's exit delay).
func helperCommand(test string, args []string, env ...string) *exec.Cmd {
	exe, _ := os.Executable()
	cmd := exec.Command(exe, append([]string{"-test.run=^" + test + "$", "--"}, args...)...)
	cmd.Env = append([]string{"GORACE=atexit_sleep_ms=0"}, env...)
	return cmd
}

// llmshHelper is llmsh's command line args, run by TestHelperLlmsh in a
// re-executed test binary, with env added to its environment.
func llmshHelper(args []string, env ...string) *exec.Cmd {
	return helperCommand("TestHelperLlmsh", args, append([]string{"LLMSH_TEST_HELPER=1"}, env...)...)
}

// helperArgs are the arguments of a re-executed helper: those after "--".
func helperArgs() []string {
	for i, a := range os.Args {
		if a == "--" {
			return os.Args[i+1:]
		}
	}
	return os.Args
}

// TestHelperLlmsh is not a test: it is llmsh's main when re-executed by llmshHelper.
func TestHelperLlmsh(t *testing.T) {
	if os.Getenv("LLMSH_TEST_HELPER") != "1" {
		return
	}
	os.Exit(run(helperArgs(), os.Stdin, os.Stdout, os.Stderr))
}

func TestCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.txt"), []byte("b\na\nc\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bin1"), []byte("echo not-run\x00\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "elf"), []byte("\x7fELF\nexit 0\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bin2"), []byte("echo ok\nexit 0\n\x00\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bin3"), []byte("#!/bin/sh\necho ok\nexit 0\n\x00\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bin4"), []byte("#!/bin/sh\necho not-run\x00\n"), 0o644)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("MARKER"), 0o644)
	tests := []struct {
		name       string
		args       []string
		stdin      string
		out, errIn string
		code       int
	}{
		{"pipeline", []string{"-c", "echo hello | tr a-z A-Z"}, "", "HELLO\n", "", 0},
		// As bash -c: the first operand is $0 and names the shell in its
		// messages, the rest are $1….
		{"args", []string{"-c", `echo "$0 $1 $2 $#"`, "x", "y"}, "", "x y  1\n", "", 0},
		{"no args", []string{"-c", `echo "$0 $#"`}, "", "llmsh 0\n", "", 0},
		{"name in messages", []string{"-c", "nosuchcmd", "myname"}, "", "", "myname: line 1: nosuchcmd: command not found", 127},
		{"script from stdin", nil, "echo from-stdin", "from-stdin\n", "", 0},
		{"not found", []string{"-c", "nosuchcmd"}, "", "", "llmsh: line 1: nosuchcmd: command not found", 127},
		{"no exec of paths", []string{"-c", "/usr/bin/python3 hi"}, "", "", "llmsh: line 1: /usr/bin/python3: command not found", 127},
		{"no host env", []string{"-c", "echo \"[$CANARY_SECRET]\"; env | grep -c CANARY"}, "", "[]\n0\n", "", 1},
		{"no host env in listings", []string{"-c", "export Y=1; set | grep -c CANAR[Y]; export -p | grep -c CANAR[Y]; declare -p | grep -c CANAR[Y]; export -p | grep -c 'declare -x Y=\"1\"'; set | grep -c HOME=/home/llms[h]"}, "", "0\n0\n0\n1\n1\n", "", 0},
		{"script file missing", []string{filepath.Join(dir, "nosuch.sh")}, "", "", "llmsh: " + filepath.Join(dir, "nosuch.sh") + ": No such file or directory\n", 127},
		{"script file a directory", []string{dir}, "", "", dir + ": " + dir + ": Is a directory\n", 126},
		// As bash: a NUL in the first line (the first two after "#!")
		// is a binary file, refused; one further on is run as text.
		{"script file binary", []string{filepath.Join(dir, "bin1")}, "", "", filepath.Join(dir, "bin1") + ": " + filepath.Join(dir, "bin1") + ": cannot execute binary file\n", 126},
		{"script file ELF", []string{filepath.Join(dir, "elf")}, "", "", "elf: cannot execute binary file\n", 126},
		{"script file NUL after the first line", []string{filepath.Join(dir, "bin2")}, "", "ok\n", "", 0},
		{"script file NUL in the line after #!", []string{filepath.Join(dir, "bin4")}, "", "", "bin4: cannot execute binary file\n", 126},
		{"script file NUL after #! and a line", []string{filepath.Join(dir, "bin3")}, "", "ok\n", "", 0},
		{"grant refused by vfsd is a usage error", []string{"-i", filepath.Join(dir, "no", "such"), "-c", "echo not-run"}, "", "", "Usage: llmsh", 2},
		{"--log that cannot be made is a usage error", []string{"--log", filepath.Join(dir, "no", "log"), "-c", "echo not-run"}, "", "", "llmsh: --log '" + filepath.Join(dir, "no", "log") + "': No such file or directory\nUsage: llmsh", 2},
		{"read granted", []string{"-i", dir, "-c", "sort " + dir + "/in.txt"}, "", "a\nb\nc\n", "", 0},
		{"outside absent", []string{"-i", dir, "-c", "cat " + outside + "/secret"}, "", "", "cat: " + outside + "/secret: No such file or directory\n", 1},
		{"read-only denied", []string{"-i", dir, "-c", "echo x > " + dir + "/in.txt"}, "", "", "llmsh: line 1: " + dir + "/in.txt: Permission denied\n", 1},
		{"test -e outside false", []string{"-c", "test -e " + outside + "/secret && echo yes || echo no"}, "", "no\n", "", 0},
		{"virtual file", []string{"-c", "echo v > /tmp/x; cat /tmp/x"}, "", "v\n", "discarded virtual files: /tmp/x", 0},
		{"quiet", []string{"-q", "-c", "echo v > /tmp/x"}, "", "", "", 0},
		{"strict", []string{"--strict", "-c", "echo v > /tmp/x"}, "", "", "Permission denied (outside the writable paths)", 1},
		{"scratch directories", []string{"-c", "mkdir -p /tmp/work/a && cd /tmp/work && touch a/t && d=$(mktemp -d) && echo hi > $d/x && cat $d/x && ls -R && rm -r $d && rmdir a; echo $?; mkdir /tmp/empty"},
			"", "hi\n.:\na\n\n./a:\nt\n1\n", "rmdir: failed to remove 'a': Directory not empty\nllmsh: discarded virtual files: /tmp/empty/ /tmp/work/a/t\n", 0},
		{"scratch file needs its directory", []string{"-c", "echo x > /tmp/nodir/f; echo $?; touch /tmp/nodir/g; mkdir -p /tmp/nodir && echo y > /tmp/nodir/f && cat /tmp/nodir/f; : > /tmp/nodir/f/x"},
			"", "1\ny\n", "llmsh: line 1: /tmp/nodir/f: No such file or directory\ntouch: cannot touch '/tmp/nodir/g': No such file or directory\nllmsh: line 1: /tmp/nodir/f/x: Not a directory\nllmsh: discarded virtual files: /tmp/nodir/f\n", 1},
		{"strict scratch directory", []string{"--strict", "-c", "mkdir /tmp/work"}, "", "", "mkdir: cannot create directory '/tmp/work': Permission denied (outside the writable paths)\n", 1},
		{"missing -o file announced", []string{"-o", filepath.Join(dir, "single"), "-c", "echo x > " + filepath.Join(dir, "single") + "; cat " + filepath.Join(dir, "single")}, "", "x\n",
			"llmsh: -o '" + filepath.Join(dir, "single") + "' does not exist: granted as a single file (-o '" + filepath.Join(dir, "single") + "/' makes it a directory)\n", 0},
		{"missing -o dir/ made", []string{"-o", filepath.Join(dir, "made") + "/", "-c", "echo x > " + filepath.Join(dir, "made", "f") + " && cat " + filepath.Join(dir, "made", "f")}, "", "x\n", "", 0},
		{"vfs-fds not open", []string{"--vfs-fds", "97,98", "-c", "echo not-run"}, "", "", "llmsh: --vfs-fds '97,98': 97: Bad file descriptor\nUsage: llmsh", 2},
		{"max-output suffix", []string{"--max-output", "1K", "-c", "echo ok"}, "", "ok\n", "", 0},
		{"max-memory", []string{"--max-memory", "64M", "-c", `while :; do a+=("$(yes | head -c 4000000)"); done; echo not-reached`}, "", "", "llmsh: memory limit exceeded (64 MiB)", 125},
		{"max-memory bad", []string{"--max-memory", "0", "-c", "echo ok"}, "", "", "llmsh: invalid --max-memory '0'", 2},
		{"max-memory too small to run anything", []string{"--max-memory", "512K", "-c", "echo ok"}, "", "", "llmsh: invalid --max-memory '512K' (at least 1 MiB)", 2},
		{"max-output bad", []string{"--max-output", "1Q", "-c", "echo ok"}, "", "", "llmsh: invalid --max-output '1Q'", 2},
		{"usage", []string{"--bogus"}, "", "", "Usage: llmsh", 2},
		{"timeout", []string{"--timeout", "300ms", "-c", "while true; do :; done"}, "", "", "timed out", 124},
		{"recursion", []string{"-c", "f(){ f; }; f"}, "", "", "maximum call depth exceeded", 125},
		{"output cap", []string{"--max-output", "1000", "-c", "yes"}, "", strings.Repeat("y\n", 500), "llmsh: output limit exceeded (1000 bytes)\n", 125},
		{"output cap mid-line", []string{"--max-output", "1K", "-c", "yes hello"}, "", strings.Repeat("hello\n", 170) + "hell", "\nllmsh: output limit exceeded (1024 bytes)\n", 125},
		{"command cap", []string{"--max-commands", "100", "-c", "while :; do :; done; echo not-reached"}, "", "", "llmsh: limit exceeded: more than 100 commands", 125},
		{"deep nesting", []string{"-c", strings.Repeat("(", 100000)}, "", "", "nested too deeply", 2},
		{"procsubst in-process, no host FIFO", []string{"-c", "cat <(echo x); TMPDIR=/tmp; cat <(echo y)"}, "", "x\ny\n", "", 0},
		// A job still running when the script ends is stopped with it (as a
		// terminal's hang-up stops it): the run ends at once.
		{"background job hung up at the end", []string{"-c", "( while :; do sleep 1; done ) & echo started"}, "", "started\n", "", 0},
		{"hung-up jobs named by --verbose", []string{"-v", "-c", "sleep 60 & echo x"}, "", "x\n", "llmsh: stopped at the end of the script: sleep 60 &\n", 0},
		{"wait keeps a job's output", []string{"-c", "{ sleep 0; echo bg; } & wait; echo end"}, "", "bg\nend\n", "", 0},
		{"a nested shell's job ends with the run", []string{"-c", "bash -c 'while :; do sleep 1; done &'; echo after"}, "", "after\n", "", 0},
		{"nested sh -c", []string{"-c", "x=1; export x; sh -c 'echo in:$x'"}, "", "in:1\n", "", 0},
		{"cd virtual", []string{"-i", dir, "-c", "cd " + dir + " && cat in.txt | head -1 && cd /etc; echo $?"}, "", "b\n1\n", "", 0},
		{"version", []string{"--version"}, "", "llmsh 0.1.0\n" + sandboxLevel() + "\n", "", 0},
		{"bash's -e", []string{"-e", "-c", "false; echo not-reached"}, "", "", "", 1},
		{"bash's -x and -o pipefail", []string{"-xo", "pipefail", "-c", "false | true"}, "", "", "+ false\n", 1},
		{"bash's -u", []string{"-u", "-c", "echo $nope; echo not-reached"}, "", "", "nope: unbound variable", 127},
		{"bash's +e and +o NAME", []string{"-eo", "pipefail", "+e", "+o", "pipefail", "-c", "false | true; echo $?; false; echo reached"}, "", "0\nreached\n", "", 0},
		{"-- before a +NAME script", []string{"--", "+e"}, "", "", "llmsh: +e: No such file or directory\n", 127},
		// bash -O NAME (+O NAME) sets (unsets) a shopt option before the
		// script runs; -l (a login shell) changes nothing.
		{"bash's -O and +O", []string{"-lO", "extglob", "-O", "nullglob", "+O", "nullglob", "-c", "shopt extglob nullglob; [[ ab == @(a|b)b ]] && echo match"}, "", "extglob        \ton\nnullglob       \toff\nmatch\n", "", 0},
		{"bash's -O with no such option", []string{"-O", "bogus", "-c", "echo not-run"}, "", "", "llmsh: bogus: invalid shell option name\n", 2},
		{"bash's -s with arguments", []string{"-s", "a", "b"}, "echo \"$0 $2 $#\"", "llmsh b 2\n", "", 0},
		// As bash reads a script on its stdin: a command at a time, so
		// read takes the script's next line, and the lines before a
		// syntax error run (bash counts the lines it reads itself).
		{"stdin script read as it runs", nil, "read x\nhello\necho \"got $x\" $LINENO\nfi\necho no\n", "got hello 2\n", "llmsh: line 3: syntax error near unexpected token `fi'", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, errs, code := runLlmsh(t, tc.stdin, tc.args...)
			if out != tc.out || code != tc.code || !strings.Contains(errs, tc.errIn) || strings.Contains(errs, "goroutine ") {
				t.Fatalf("out=%q err=%q code=%d; want out=%q err~%q code=%d", out, errs, code, tc.out, tc.errIn, tc.code)
			}
		})
	}
}

// TestOutputDirGrantParent: -o DIR/ makes DIR when it is missing, but
// not its parents (session 28: -o /nonexist/x/ made /nonexist on the
// host, with mkdir -p, where -i refuses a path whose directory is
// missing): its grant is refused by vfsd as -i's is, a usage error, and
// nothing is made.
func TestOutputDirGrantParent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, flag := range []string{"-o", "-i"} {
		p := filepath.Join(dir, "nodir", "x") + "/"
		_, errs, code := runLlmsh(t, "", flag, p, "-c", "echo not-run")
		if want := "llmsh: " + flag + " '" + p + "': No such file or directory\nUsage: llmsh"; code != 2 || !strings.HasPrefix(errs, want) {
			t.Errorf("%s %s: status %d, stderr %q; want 2, %q", flag, p, code, errs, want)
		}
		if _, err := os.Lstat(filepath.Join(dir, "nodir")); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%s %s made its parent: %v", flag, p, err)
		}
	}
	p := filepath.Join(dir, "made") + "/"
	if out, errs, code := runLlmsh(t, "", "-o", p, "-c", "echo x > "+p+"f; cat "+p+"f"); out != "x\n" || errs != "" || code != 0 {
		t.Errorf("-o %s: %q %q %d", p, out, errs, code)
	}
}

// TestStdinScriptSeeks: a script on a standard input that can seek (llmsh <
// script) is read a line at a time with the offset set back, as bash does,
// so a command reads the lines after its own.
func TestStdinScriptSeeks(t *testing.T) {
	t.Parallel()
	name := filepath.Join(t.TempDir(), "script")
	os.WriteFile(name, []byte("read x\nline two\necho \"[$x]\"\ncat\nrest 1\nrest 2\n"), 0o644)
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(realLlmsh(t))
	cmd.Env = []string{}
	cmd.Stdin = f
	out, err := cmd.CombinedOutput()
	if want := "[line two]\nrest 1\nrest 2\n"; err != nil || string(out) != want {
		t.Fatalf("llmsh < script: %q, %v; want %q", out, err, want)
	}
}

// TestEmptyOutputGrant: an empty -o path is refused by vfsd as an invalid path,
// with no hint to grant -o '/' instead.
func TestEmptyOutputGrant(t *testing.T) {
	t.Parallel()
	_, errs, code := runLlmsh(t, "", "-o", "", "-c", "echo not-run")
	if code != 2 || !strings.HasPrefix(errs, `llmsh: -o '': invalid path`) || strings.Contains(errs, "-o '/'") {
		t.Errorf("-o '': err=%q code=%d", errs, code)
	}
}

// TestFileGrantWithSlash: a grant written with a trailing slash names a
// directory; a regular file there is refused as "afile/" is by any tool
// (Not a directory), not granted as the file.
func TestFileGrantWithSlash(t *testing.T) {
	t.Parallel()
	f := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(f, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"-i", "-o"} {
		_, errs, code := runLlmsh(t, "", flag, f+"/", "-c", "echo not-run")
		if want := "llmsh: " + flag + " '" + f + "/': Not a directory\n"; code != 2 || !strings.HasPrefix(errs, want) {
			t.Errorf("%s %s/: err=%q code=%d; want %q, 2", flag, f, errs, code, want)
		}
	}
}

// TestMissingInputGrant: a -i path that does not exist is granted (a file
// made there later can be read) with a line on stderr saying so; one whose
// directory is missing too is refused by vfsd; the script file llmsh adds
// to the grants itself gets bash's message alone.
func TestMissingInputGrant(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "typo.txt")
	out, errs, code := runLlmsh(t, "", "-i", missing, "-c", "echo ran")
	want := "llmsh: -i '" + missing + "': No such file or directory (granted: a file made there later can be read)\n"
	if out != "ran\n" || code != 0 || errs != want {
		t.Errorf("-i missing: out=%q err=%q code=%d; want err %q", out, errs, code, want)
	}
	_, errs, code = runLlmsh(t, "", "-i", filepath.Join(missing, "x"), "-c", "echo not-run")
	if code != 2 || !strings.HasPrefix(errs, "llmsh: -i '"+filepath.Join(missing, "x")+"': No such file or directory\n") {
		t.Errorf("-i under a missing dir: err=%q code=%d", errs, code)
	}
	_, errs, code = runLlmsh(t, "", missing)
	if code != 127 || errs != "llmsh: "+missing+": No such file or directory\n" {
		t.Errorf("missing script: err=%q code=%d", errs, code)
	}
}

// TestLlmshTestCommand: llmsh test shows a difference as a unified diff,
// fails a fixture whose goldens are missing, and words a missing PATH as
// GNU tools do.
func TestLlmshTestCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.sh"), []byte("echo one\necho two\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.stdout"), []byte("one\nTWO\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.status"), []byte("0\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.sh"), []byte("echo b\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "regen-x.sh"), []byte("exit 1\n"), 0o644)
	out, errs, st := runLlmsh(t, "", "test", dir)
	a := filepath.Join(dir, "a")
	for _, want := range []string{"FAIL " + a + "\n--- " + a + ".stdout\n+++ " + a + ".stdout (llmsh)\n@@ -1,2 +1,2 @@\n one\n-TWO\n+two\n",
		filepath.Join(dir, "b.stdout") + ": No such file or directory (llmsh test --update", "0 passed, 2 failed\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if st != 1 || errs != "" || strings.Contains(out, "regen-x") {
		t.Errorf("status %d, stderr %q, out %q", st, errs, out)
	}
	// --color=always (auto on a terminal) colours the diff as GNU diff
	// --color does.
	out, _, _ = runLlmsh(t, "", "test", "--color=always", filepath.Join(dir, "a.sh"))
	if want := "FAIL " + a + "\n\x1b[1m--- " + a + ".stdout\x1b[0m\n\x1b[1m+++ " + a + ".stdout (llmsh)\x1b[0m\n\x1b[36m@@ -1,2 +1,2 @@\x1b[0m\n one\n\x1b[31m-TWO\x1b[0m\n\x1b[32m+two\x1b[0m\n"; !strings.HasPrefix(out, want) {
		t.Errorf("--color=always: %q, want %q", out, want)
	}
	_, errs, st = runLlmsh(t, "", "test", filepath.Join(dir, "nope.sh"))
	if st != 2 || errs != "llmsh: test: "+filepath.Join(dir, "nope.sh")+": No such file or directory\n" {
		t.Errorf("missing PATH: status %d, stderr %q", st, errs)
	}
}

// TestMissingOutputParent: an -o path whose directory does not exist is
// refused by vfsd, and llmsh does not first say it was granted as a file.
func TestMissingOutputParent(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "no", "single")
	out, errs, code := runLlmsh(t, "", "-o", p, "-c", "echo not-run")
	if want := "llmsh: -o '" + p + "': No such file or directory\n" + usageLine + "\n"; out != "" || errs != want || code != 2 {
		t.Fatalf("out=%q err=%q code=%d; want err=%q code 2", out, errs, code, want)
	}
}
