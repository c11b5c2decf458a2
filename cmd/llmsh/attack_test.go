package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/internal/treesnap"
	"github.com/llmsh/llmsh/server/sessionserver"
)

// The adversarial suite: every testdata/attacks/FAMILY/NAME.sh is a hostile
// script run through the real llmsh binary (built once, below) with its own
// vfsd child. Whatever the script does, the harness checks that none of
// these breaches happened:
//
//   - the marker held by a file outside the grants appears on stdout or stderr;
//   - the value of a canary variable in llmsh's own environment appears;
//   - a file outside the -o tree appears, disappears or changes
//     (snapshot of everything but the -o tree, before and after);
//   - a host program ran (the canary programs would create a file);
//   - a Go stack trace, a runtime fatal error or a recovered panic
//     ("internal error") is printed;
//   - the run overstays its limit (the harness kills it after hardKill,
//     which never happens to a run that honours --timeout);
//   - a process started for the run (vfsd) is still there after llmsh exits.
//
// Each script also states what it expects (its status, and text that shows
// it was refused for the right reason), so that an attack that fails for a
// trivial reason (a typo, a parse error) does not pass silently.
//
// Directives are comment lines at the top of the script:
//
//	#@ status: N | nonzero | any     exit status (default 0)
//	#@ stderr: TEXT                  stderr contains TEXT (repeatable)
//	#@ stdout: TEXT                  stdout contains TEXT (repeatable)
//	#@ no-stdout: TEXT               stdout does not contain TEXT (repeatable)
//	#@ no-stderr: TEXT               stderr does not contain TEXT (repeatable)
//	#@ args: ARGS                    llmsh options instead of the default grants
//	#@ race                          a goroutine swaps rw/swap and rw/swapdir
//	                                 between harmless entries and links out
//	#@ heavy                         memory- or CPU-hungry: at most
//	                                 heavyAtOnce such runs at a time
//	#@ timeout: D                    the time limit of the runs with the
//	                                 default grants (CLI --timeout, and the
//	                                 library's and serve's), instead of 10s
//	#@ big: N                        @BIG@ becomes N bytes of text lines; the
//	                                 script is passed on stdin
//	#@ stdin: TEXT                   stdin of the run (a line; \n is a newline)
//	#@ answer-within: D              the library's Session.Run may spend
//	                                 D less its limit of the process's
//	                                 CPU after its limit, serve's server
//	                                 and workers as much of theirs (a
//	                                 status-124 script; one that never
//	                                 answers ends the test binary after
//	                                 hardKill)
//
// Placeholders in scripts and args: @ROOT@ (the run's directory), @RO@ (the
// -i tree), @RW@ (the -o tree, also the working directory), @OUT@ (a
// directory outside every grant), @SECRET@ (a file in it holding the
// marker), @CANARY@ (a host program in it that records that it ran; also
// installed as @OUT@/bin/nosuchcmd, and @OUT@/bin is on llmsh's PATH).
// @RW@/hardlink is a hard link to @OUT@/linked.txt; @SPECIAL@ (not
// granted unless a script's args say so) holds a FIFO and a socket.

const (
	hardKill       = 120 * time.Second // never reached by a run that honours its limits
	defaultTimeout = 10 * time.Second
	// heavyAtOnce bounds the heavy runs at a time: each may take up to
	// llmsh's memory guard (2 GiB) of memory.
	heavyAtOnce = 2
)

var (
	llmshBinOnce sync.Once
	llmshBin     string
	vfsdBin      string
	llmshBinErr  error
	llmshBinDir  string
	heavySlots   = make(chan struct{}, heavyAtOnce)
)

// realLlmsh builds cmd/llmsh once per test binary, into a temporary
// directory that TestMain removes. It builds what the README recommends,
// CGO_ENABLED=0 (static; Landlock on all threads through the Go runtime's
// own AllThreadsSyscall), so the adversarial suite runs against that
// build while the rest of the tests run in the race detector's cgo one.
func realLlmsh(t testing.TB) string {
	t.Helper()
	llmshBinOnce.Do(buildLlmsh)
	if llmshBinErr != nil {
		t.Fatal(llmshBinErr)
	}
	return llmshBin
}

// realVfsd is cmd/vfsd, built static beside realLlmsh (the same go
// build: its packages are the static llmsh's, so it costs only its link).
// TestFixtures' sessions run it as their vfsd, instead of re-executing
// this race-built test binary: the fixtures run their shell in this
// process under the race detector, while a race-built vfsd per fixture
// cost 18 s of CPU for its start-up (the race runtime's); vfsd's own
// concurrency is raced in vfsd's, vfsclient's and builtins' tests (each
// builtins test serves its files through a race-built vfsd in process)
// and in the attacks' library runs, whose vfsd is this binary.
func realVfsd(t testing.TB) string {
	t.Helper()
	realLlmsh(t)
	return vfsdBin
}

// buildLlmsh is realLlmsh's build, run once (TestMain may start it early).
func buildLlmsh() {
	dir, err := os.MkdirTemp("", "llmsh-attack-bin-")
	if err != nil {
		llmshBinErr = err
		return
	}
	llmshBinDir = dir
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = "go" // the error of the build below says it is missing
	}
	cmd := exec.Command(goTool, "build", "-o", dir+string(filepath.Separator), ".", "../vfsd")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		llmshBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		return
	}
	llmshBin, vfsdBin = filepath.Join(dir, "llmsh"), filepath.Join(dir, "vfsd")
}

// attack is one parsed attack script.
type attack struct {
	name, script   string
	status         string
	stderr, stdout []string
	noStdout       []string
	noStderr       []string
	args           string
	race, heavy    bool
	big            int
	stdin          string
	timeout        time.Duration
	answerWithin   time.Duration
}

func parseAttack(name, src string) (*attack, error) {
	a := &attack{name: name, script: src, status: "0", timeout: defaultTimeout}
	sc := bufio.NewScanner(strings.NewReader(src))
	for sc.Scan() {
		line := sc.Text()
		d, ok := strings.CutPrefix(line, "#@ ")
		if !ok {
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			break
		}
		key, val, _ := strings.Cut(d, ":")
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "status":
			a.status = val
		case "stderr":
			a.stderr = append(a.stderr, val)
		case "stdout":
			a.stdout = append(a.stdout, val)
		case "no-stderr":
			a.noStderr = append(a.noStderr, val)
		case "no-stdout":
			a.noStdout = append(a.noStdout, val)
		case "args":
			a.args = val
		case "race":
			a.race = true
		case "heavy":
			a.heavy = true
		case "big":
			if _, err := fmt.Sscan(val, &a.big); err != nil {
				return nil, fmt.Errorf("big: %v", err)
			}
		case "timeout":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				return nil, fmt.Errorf("timeout: %q is not a positive duration", val)
			}
			a.timeout = d
		case "stdin":
			a.stdin = strings.ReplaceAll(val, `\n`, "\n")
		case "answer-within":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				return nil, fmt.Errorf("answer-within: %q is not a positive duration", val)
			}
			a.answerWithin = d
		default:
			return nil, fmt.Errorf("unknown directive %q", key)
		}
	}
	if a.args != "" && a.timeout != defaultTimeout {
		return nil, fmt.Errorf("timeout and args: give --timeout in args")
	}
	return a, nil
}

// arena is the host side of one run: the directories, the secret and the
// canaries.
type arena struct {
	root, ro, rw, out string
	secret, canary    string
	ranFile           string
	marker, envValue  string
	stdout            bytes.Buffer // of the faults tests' runs
}

func randomHex(t *testing.T) string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

func newArena(t *testing.T) *arena {
	t.Helper()
	root := t.TempDir()
	a := &arena{
		root: root, ro: filepath.Join(root, "ro"), rw: filepath.Join(root, "rw"), out: filepath.Join(root, "out"),
		marker: "MARK" + randomHex(t), envValue: "ENVCANARY" + randomHex(t),
	}
	a.secret = filepath.Join(a.out, "secret")
	a.canary = filepath.Join(a.out, "canary")
	a.ranFile = filepath.Join(root, "host-program-ran")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{a.ro, a.rw, a.out, filepath.Join(a.out, "bin"), filepath.Join(a.ro, "sub")} {
		must(os.MkdirAll(d, 0o755))
	}
	must(os.WriteFile(a.secret, []byte(a.marker+"\n"), 0o644))
	must(os.WriteFile(filepath.Join(a.out, "other.txt"), []byte("untouched "+a.marker+"\n"), 0o644))
	canary := "#!/bin/sh\necho ran >> " + a.ranFile + "\n"
	must(os.WriteFile(a.canary, []byte(canary), 0o755))
	must(os.WriteFile(filepath.Join(a.out, "bin", "nosuchcmd"), []byte(canary), 0o755))
	must(os.WriteFile(filepath.Join(a.ro, "in.txt"), []byte("readable\n"), 0o644))
	must(os.WriteFile(filepath.Join(a.ro, "sub", "deep.txt"), []byte("deep\n"), 0o644))
	must(os.WriteFile(filepath.Join(a.rw, "work.txt"), []byte("work\n"), 0o644))
	// Links planted inside the grants that lead out of them.
	must(os.Symlink(a.secret, filepath.Join(a.rw, "link-abs")))
	must(os.Symlink("../out/secret", filepath.Join(a.rw, "link-rel")))
	must(os.Symlink(a.out, filepath.Join(a.rw, "dirlink")))
	must(os.Symlink(a.secret, filepath.Join(a.ro, "ro-link")))
	must(os.Symlink("/proc/self/root"+a.secret, filepath.Join(a.rw, "proc-link")))
	must(os.Symlink("/", filepath.Join(a.rw, "rootlink")))
	// A hard link planted in the writable grant to a file outside it
	// (without the marker: reading a file through a name in a grant is
	// allowed; changing it is what must not happen).
	must(os.WriteFile(filepath.Join(a.out, "linked.txt"), []byte("linked outside\n"), 0o644))
	must(os.Link(filepath.Join(a.out, "linked.txt"), filepath.Join(a.rw, "hardlink")))
	// A FIFO and a socket in a directory of their own (granted only by
	// the scripts that ask for it).
	special := filepath.Join(root, "special")
	must(os.Mkdir(special, 0o755))
	must(syscall.Mkfifo(filepath.Join(special, "fifo"), 0o644))
	if fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0); err == nil {
		err = syscall.Bind(fd, &syscall.SockaddrUnix{Name: filepath.Join(special, "sock")})
		syscall.Close(fd) // the socket file stays
		if err != nil {
			t.Fatalf("socket in the arena (a path over 108 bytes?): %v", err)
		}
	}
	return a
}

func (a *arena) expand(s string) string {
	return strings.NewReplacer(
		"@ROOT@", a.root, "@RO@", a.ro, "@RW@", a.rw, "@OUT@", a.out, "@SPECIAL@", filepath.Join(a.root, "special"),
		"@SECRET@", a.secret, "@CANARY@", a.canary,
	).Replace(s)
}

// snapshot describes every entry under root except the -o tree.
func (a *arena) snapshot(t *testing.T) map[string]string {
	t.Helper()
	snap, err := treesnap.Take(a.root, a.rw)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// leftovers lists live processes whose command line names the arena.
// (/proc's names are read once, without the stat of each that a Glob
// makes: this runs after every attack run, on a machine of hundreds of
// processes.)
func (a *arena) leftovers() []string {
	var out []string
	var procs []string
	if d, err := os.Open("/proc"); err == nil {
		procs, _ = d.Readdirnames(-1)
		d.Close()
	}
	for _, pid := range procs {
		if pid == "" || pid[0] < '0' || pid[0] > '9' {
			continue
		}
		p := "/proc/" + pid + "/cmdline"
		b, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(b, []byte(a.root)) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join(filepath.Dir(p), "stat")); err == nil {
			// A zombie has exited; it is its parent's to reap.
			if f := strings.Fields(string(st[bytes.LastIndexByte(st, ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		out = append(out, filepath.Dir(p)+": "+strings.ReplaceAll(string(b), "\x00", " "))
	}
	return out
}

// racer swaps rw/swap between a harmless file and a link to the secret,
// and rw/swapdir between a harmless directory and a link to the outside
// directory, until stop is closed. Each swap of swap is a rename, so the
// name always exists.
func (a *arena) racer(t *testing.T, stop <-chan struct{}) <-chan struct{} {
	done := make(chan struct{})
	swap, swapdir := filepath.Join(a.rw, "swap"), filepath.Join(a.rw, "swapdir")
	os.WriteFile(swap, []byte("harmless\n"), 0o644)
	os.MkdirAll(swapdir, 0o755)
	os.WriteFile(filepath.Join(swapdir, "secret"), []byte("decoy\n"), 0o644)
	go func() {
		defer close(done)
		tmp := filepath.Join(a.rw, ".swap-tmp")
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			os.Remove(tmp)
			if i%2 == 0 {
				os.Symlink(a.secret, tmp)
			} else {
				os.WriteFile(tmp, []byte("harmless\n"), 0o644)
			}
			os.Rename(tmp, swap)
			if i%2 == 0 {
				os.RemoveAll(swapdir)
				os.Symlink(a.out, swapdir)
			} else {
				os.Remove(swapdir)
				os.MkdirAll(swapdir, 0o755)
				os.WriteFile(filepath.Join(swapdir, "secret"), []byte("decoy\n"), 0o644)
			}
			runtime.Gosched()
		}
	}()
	return done
}

func TestAttacks(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/attacks/*/*.sh")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 80 {
		t.Fatalf("only %d attack scripts", len(files))
	}
	bin := realLlmsh(t)
	families := map[string][]string{}
	for _, f := range files {
		fam := filepath.Base(filepath.Dir(f))
		families[fam] = append(families[fam], f)
	}
	for fam, list := range families {
		t.Run(fam, func(t *testing.T) {
			t.Parallel()
			both := 0 // scripts run through the library and serve too
			for _, f := range list {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				name := strings.TrimSuffix(filepath.Base(f), ".sh")
				a, err := parseAttack(name, string(src))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				if !a.limitEnded() {
					t.Run(name, func(t *testing.T) {
						t.Parallel()
						runAttack(t, bin, a)
					})
				}
				if a.args == "" && a.big == 0 && !a.heavy {
					t.Run(name+"/library", func(t *testing.T) {
						t.Parallel()
						runAttackLibrary(t, a)
					})
					if serveEvery[fam] == 0 || both%serveEvery[fam] == 0 {
						t.Run(name+"/serve", func(t *testing.T) {
							t.Parallel()
							runAttackServe(t, bin, a)
						})
					}
					both++
				}
			}
		})
	}
}

// limitEnded says whether the script runs until its time limit ends it
// (status 124) with the default grants: such a script runs through the
// library (and serve when sampled), not the CLI, and its library run
// checks the script's own expectations. What it proves is that the
// command it runs at the limit stops when its run is cancelled, and only
// the library run can tell: a command that ignores its cancellation
// keeps Session.Run from answering (answer-within, or hardKill), where
// the CLI, after stuck.Grace, ends its own process with the same status
// 124 and "timed out after" message as a run that stopped. The CLI's
// time limit itself is the same Session's, checked by the scripts that
// give their own args (while_true, pipe_forever, sleep_forever...,
// CLI runs only) and by the CLI's timeout tests. Each of these CLI runs
// spun for its whole limit: 15 scripts, 28 s of limits (session 30).
func (a *attack) limitEnded() bool {
	return a.status == "124" && a.args == "" && a.big == 0 && !a.heavy
}

// serveEvery samples the serve runs of the families whose breaches are
// the shell's and vfsd's own doing: of the scripts that run through the
// library and serve as well as the CLI, one in serveEvery[FAMILY] (by
// name) runs through serve too, the rest through the CLI and the library.
// A serve run is the same Session as the others in a worker process that
// confines itself with Landlock, as the CLI does (isolated.go's
// serveWorker), and talks to the server: for a file escape (path,
// symlink, write, procdev) vfsd decides in every surface, the CLI run
// sees what a Landlocked process does and the library run what an
// unconfined one does; an interpreter bug (interp) or a limit (resource)
// runs the same code in the CLI's process and in the worker, and under
// the race detector and without a process to end it in the library run;
// the server's own paths (the protocol, a worker's start and end, a crash
// ending one session) are the same for every script, and the sampled
// runs and server/sessionserver's tests keep them covered. The env and
// exec families run every script through serve: a worker's environment
// and its children are its own (a family not named here runs them all).
// Each serve run cost about 0.2 s of CPU (server, worker and vfsd
// starting and ending); the resource family's, whose scripts run until a
// limit stops them, 0.5 s (4.0 s for its 8 of 22 at -test.parallel=1):
// one in six of those (session 25).
var serveEvery = map[string]int{"interp": 3, "path": 3, "procdev": 3, "resource": 6, "symlink": 3, "write": 3}

func runAttack(t *testing.T, bin string, at *attack) {
	if at.heavy {
		heavySlots <- struct{}{}
		defer func() { <-heavySlots }()
	}
	ar := newArena(t)
	// the #@ lines are the harness's, not the script's: blanked (line
	// numbers kept) so that set's BASH_EXECUTION_STRING, as bash's, does
	// not hold the very texts that no-stdout forbids
	script := ar.expand(directiveLine.ReplaceAllString(at.script, "#@"))
	args := []string{"-i", ar.ro, "-o", ar.rw, "--timeout", at.timeout.String()}
	if at.args != "" {
		args = strings.Fields(ar.expand(at.args))
	}
	stdin := at.stdin
	if at.big > 0 {
		var b strings.Builder
		line := strings.Repeat("x", 99) + "\n"
		for b.Len() < at.big {
			b.WriteString(line)
		}
		stdin = strings.Replace(script, "@BIG@\n", b.String(), 1)
	} else {
		args = append(args, "-c", script)
	}
	before := ar.snapshot(t)
	ctx, cancel := context.WithTimeout(context.Background(), hardKill)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = ar.rw
	cmd.Env = ar.env()
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	var stopRace chan struct{}
	var raceDone <-chan struct{}
	if at.race {
		stopRace = make(chan struct{})
		raceDone = ar.racer(t, stopRace)
	}
	err := cmd.Run()
	if at.race {
		close(stopRace)
		<-raceDone
	}
	status := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		status = ee.ExitCode()
	case err != nil:
		t.Fatalf("running llmsh: %v", err)
	}
	out, errs := stdout.String(), stderr.String()
	if ctx.Err() != nil {
		t.Errorf("BREACH: the run overstayed its limit and was killed after %v", hardKill)
	}
	checkBreaches(t, ar, before, status, out, errs)
	if t.Failed() {
		return
	}
	checkExpected(t, ar, at, status, out, errs)
}

// checkExpected fails t for each of the script's own expectations (its
// #@ status, stdout and stderr lines) that the run's status and output
// do not meet.
func checkExpected(t *testing.T, ar *arena, at *attack, status int, out, errs string) {
	t.Helper()
	switch at.status {
	case "any":
	case "nonzero":
		if status == 0 {
			t.Errorf("status 0, want non-zero\nstdout %.2000q\nstderr %.2000q", out, errs)
		}
	default:
		if fmt.Sprint(status) != at.status {
			t.Errorf("status %d, want %s\nstdout %.2000q\nstderr %.2000q", status, at.status, out, errs)
		}
	}
	for _, s := range at.stderr {
		if s = ar.expand(s); !strings.Contains(errs, s) {
			t.Errorf("stderr lacks %q\nstderr %.2000q", s, errs)
		}
	}
	for _, s := range at.stdout {
		if s = ar.expand(strings.ReplaceAll(s, `\n`, "\n")); !strings.Contains(out, s) {
			t.Errorf("stdout lacks %q\nstdout %.2000q", s, out)
		}
	}
	for _, s := range at.noStdout {
		if s = ar.expand(s); strings.Contains(out, s) {
			t.Errorf("stdout has %q\nstdout %.2000q", s, out)
		}
	}
	for _, s := range at.noStderr {
		if s = ar.expand(s); strings.Contains(errs, s) {
			t.Errorf("stderr has %q\nstderr %.2000q", s, errs)
		}
	}
}

// checkBreaches fails t for each breach the run shows (see the comment on
// directiveLine is one of an attack script's #@ lines.
var directiveLine = regexp.MustCompile(`(?m)^#@ .*$`)

// TestAttacks): before is the arena's snapshot from before the run.
func checkBreaches(t *testing.T, ar *arena, before map[string]string, status int, out, errs string) {
	t.Helper()
	report := func(format string, args ...any) {
		t.Helper()
		t.Errorf("BREACH: "+format+"\nstatus %d\nstdout %.2000q\nstderr %.2000q", append(args, status, out, errs)...)
	}
	if strings.Contains(out+errs, ar.marker) {
		report("the marker of %s leaked", ar.secret)
	}
	if strings.Contains(out+errs, ar.envValue) {
		report("the canary environment variable leaked")
	}
	if _, err := os.Lstat(ar.ranFile); err == nil {
		report("a host program ran")
	}
	for _, s := range []string{"goroutine ", "panic:", "fatal error:", "internal error", "[signal "} {
		if strings.Contains(errs, s) {
			report("stderr has %q", s)
		}
	}
	if left := ar.leftovers(); len(left) > 0 {
		report("processes left behind: %v", left)
	}
	if d := treesnap.Diff(before, ar.snapshot(t)); len(d) > 0 {
		report("files outside -o changed: %v", d)
	}
}

// env is the environment of an llmsh process run on the arena: the
// canary variable, and HOME, TMPDIR and a PATH (holding a canary
// program) outside every grant.
func (ar *arena) env() []string {
	return []string{
		"LLMSH_ATTACK_CANARY=" + ar.envValue,
		"HOME=" + ar.out,
		"PATH=" + filepath.Join(ar.out, "bin") + ":/usr/bin:/bin",
		"TMPDIR=" + ar.out,
		"USER=root",
		// The host's zone: no time a script prints may show it.
		"TZ=Asia/Tokyo",
	}
}

// libraryLimits are the time limit of an attack's library run and the
// CPU its Run may spend after it (answer-within less the limit), and
// whether the script ends by itself (its CLI run's status a number but
// 124). Such a script's library run has no limit at all: it is to end,
// and what never does is go test's -timeout to catch. A limit there was
// a bound on the wall-clock time, which load alone could pass: the race
// detector slows the shell 3 to 15 times, and at load 30-38 such runs met
// their 10, 20 and even 30 s (session 25), and path/new_options_absent
// (780 requests of vfsd, each waiting on the scheduler) 22.7 s at load
// 20 of the 90 s it was then given (session 28).
func libraryLimits(at *attack) (limit, afterLimit time.Duration, selfEnding bool) {
	n, err := strconv.Atoi(at.status)
	if err == nil && n != 124 {
		return 0, 0, true
	}
	if at.answerWithin > at.timeout {
		afterLimit = at.answerWithin - at.timeout
	}
	return at.timeout, afterLimit, false
}

// cpuTime is the CPU time this process has used, all its threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runAttackLibrary runs an attack through the Go library (llmsh.New and
// Session.Run in this process, with its own vfsd child and no Landlock)
// and checks for the same breaches as the CLI run. A crash of the
// interpreter (a stack overflow, an unrecovered panic) ends this test
// binary, which fails the suite as loudly. The script's own expectations
// are the CLI run's to check (messages differ by surface), but for a
// script that its time limit ends (limitEnded), which has no CLI run.
//
// A script's answer-within is checked here as the CPU the process spends
// from the Run's limit to its answer, not as the wall-clock time: work
// that does not look at its context (session 22: awk's split of a long
// record, 3.8 s past a 1 s limit) spends seconds of CPU there, a Run
// that stops spends little, and load from other processes only stretches
// the wall-clock time that CPU takes (session 28: awk_field_split_timeout
// answered after more than 4 s under load, though it stopped at once).
// The process's other tests spend CPU in that window too, a few times
// what the Run spends at most (go test runs 8 of them at once here).
func runAttackLibrary(t *testing.T, at *attack) {
	ar := newArena(t)
	script := ar.expand(at.script)
	before := ar.snapshot(t)
	limit, afterLimit, selfEnding := libraryLimits(at)
	s, err := llmsh.New(llmsh.Options{Inputs: []string{ar.ro}, Outputs: []string{ar.rw}, Dir: ar.rw, Timeout: limit})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if !selfEnding {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, hardKill)
		defer cancel()
	}
	var atLimit atomic.Int64 // the process's CPU time when the limit passed
	if afterLimit > 0 {
		// A Run that ignores its limit and never answers ends the test
		// binary rather than take the machine's memory.
		overstay := time.AfterFunc(hardKill, func() {
			panic(fmt.Sprintf("BREACH: %s/library: Session.Run did not answer within %v", at.name, hardKill))
		})
		defer overstay.Stop()
		mark := time.AfterFunc(limit, func() { atLimit.Store(int64(cpuTime())) })
		defer mark.Stop()
	}
	res, err := s.Run(ctx, script, strings.NewReader(at.stdin))
	if m := atLimit.Load(); m != 0 {
		if spent := cpuTime() - time.Duration(m); spent > afterLimit {
			t.Errorf("BREACH: the process spent %v of CPU between the run's limit (%v) and its answer, past %v", spent, limit, afterLimit)
		}
	}
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil && !errors.Is(err, llmsh.ErrVfsdGone) {
		t.Fatalf("Run: %v", err)
	}
	if ctx.Err() != nil {
		t.Errorf("BREACH: the run overstayed its limit (%v)", hardKill)
	}
	checkBreaches(t, ar, before, res.ExitCode, res.Stdout, res.Stderr)
	if at.limitEnded() && !t.Failed() {
		checkExpected(t, ar, at, res.ExitCode, res.Stdout, res.Stderr)
	}
}

// treeCPU is the CPU time that the process pid and its descendants have
// used: each one's user and system time, and its children's that it has
// waited for (/proc/PID/stat fields 14 to 17, in ticks of 1/100 s).
func treeCPU(pid int) time.Duration {
	type proc struct {
		ppid int
		cpu  int64
	}
	procs := map[int]proc{}
	eachProcStat(func(n int, f []string) {
		if len(f) < 15 {
			return
		}
		ppid, _ := strconv.Atoi(f[1])
		var cpu int64
		for _, v := range f[11:15] {
			k, _ := strconv.ParseInt(v, 10, 64)
			cpu += k
		}
		procs[n] = proc{ppid, cpu}
	})
	var total int64
	for n, p := range procs {
		for a := n; a > 1; a = procs[a].ppid {
			if a == pid {
				total += p.cpu
				break
			}
			if _, ok := procs[a]; !ok {
				break
			}
		}
	}
	return time.Duration(total) * (time.Second / 100)
}

// runAttackServe runs an attack through `llmsh serve` (bin, the release
// build the CLI runs are made with: every session's shell in a worker
// process of its own, as a user's server runs it) over its socket, and
// checks for the same breaches as the CLI run. A run the server refuses
// or loses (-32004: the session's process died) is a failure too, and so
// is a server that does not end cleanly on SIGTERM or logs a crash. A
// script's answer-within is checked as the CPU that the server, its
// workers and their vfsd processes spend from the run's limit to its
// answer (treeCPU), as the library run's is (session 29: it was the
// wall-clock time of the answer, which load alone could pass; the worker
// is the server's child, not this process's, so getrusage cannot see
// it). The
// library runs put the same script's shell under the race detector; the
// server's own concurrency is raced in server/sessionserver's tests.
func runAttackServe(t *testing.T, bin string, at *attack) {
	ar := newArena(t)
	script := ar.expand(at.script)
	before := ar.snapshot(t)
	// The socket is outside the arena's snapshot, in a directory of a
	// short name: a socket's path must fit in 108 bytes, and serve binds
	// it as DIR/.llmsh-serve-N/sock, where t.TempDir's name repeats the
	// test's (up to 64 bytes), past that with a TMPDIR of 10 bytes.
	sockDir, err := os.MkdirTemp("", "sock")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	sock := filepath.Join(sockDir, "s.sock")
	ctx, cancel := context.WithTimeout(context.Background(), hardKill)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "serve", "-v", "--socket", sock)
	srv.Dir = ar.rw
	srv.Env = ar.env()
	logp, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	sc := bufio.NewScanner(logp)
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if sc.Text() == "llmsh serve: listening on "+sock {
			break
		}
	}
	logged := make(chan struct{})
	go func() { // the rest of the log, until the server exits
		defer close(logged)
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
		}
	}()
	res, err := func() (sessionserver.RunResult, error) {
		c, err := sessionserver.Dial(sock)
		if err != nil {
			return sessionserver.RunResult{}, err
		}
		defer c.Close()
		id, err := c.Open(sessionserver.OpenParams{Inputs: []string{ar.ro}, Outputs: []string{ar.rw}, Dir: ar.rw,
			Timeout: sessionserver.Duration(at.timeout)})
		if err != nil {
			return sessionserver.RunResult{}, err
		}
		var atLimit atomic.Int64 // 1 + the server's tree's CPU when the limit passed
		if at.answerWithin > at.timeout {
			mark := time.AfterFunc(at.timeout, func() { atLimit.Store(1 + int64(treeCPU(srv.Process.Pid))) })
			defer mark.Stop()
		}
		res, err := c.Run(id, script, at.stdin)
		if m := atLimit.Load(); m != 0 {
			afterLimit := at.answerWithin - at.timeout
			if spent := treeCPU(srv.Process.Pid) - time.Duration(m-1); spent > afterLimit {
				t.Errorf("BREACH: the server and its workers spent %v of CPU between the run's limit (%v) and its answer, past %v", spent, at.timeout, afterLimit)
			}
		}
		return res, err
	}()
	// The server ends every session (each worker and its vfsd) as it
	// exits, before the checks look for processes left behind.
	if serr := srv.Process.Signal(syscall.SIGTERM); serr != nil {
		t.Errorf("signalling llmsh serve: %v", serr)
	}
	<-logged
	if werr := srv.Wait(); werr != nil || ctx.Err() != nil {
		t.Errorf("llmsh serve: %v (%v)\nlog %.2000q", werr, ctx.Err(), log.String())
	}
	for _, s := range []string{"goroutine ", "panic:", "fatal error:", "internal error", "[signal "} {
		if strings.Contains(log.String(), s) {
			t.Errorf("BREACH: llmsh serve's log has %q\nlog %.2000q", s, log.String())
		}
	}
	if err != nil {
		t.Fatalf("run: %v\nlog %.2000q", err, log.String())
	}
	checkBreaches(t, ar, before, res.ExitCode, res.Stdout, res.Stderr)
}

// TestArenaLeftovers: the attacks' check for processes left behind finds
// a live process whose command line names the arena, and not once it
// has ended.
func TestArenaLeftovers(t *testing.T) {
	t.Parallel()
	ar := newArena(t)
	cmd := exec.Command("sh", "-c", "read x", "sh", ar.root)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	left := ar.leftovers()
	in.Close()
	cmd.Wait()
	if len(left) != 1 || !strings.HasPrefix(left[0], "/proc/"+fmt.Sprint(cmd.Process.Pid)+": sh -c read x sh "+ar.root) {
		t.Errorf("leftovers while it ran: %q", left)
	}
	if left := ar.leftovers(); len(left) != 0 {
		t.Errorf("leftovers once it ended: %q", left)
	}
}
