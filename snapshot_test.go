package llmsh_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmsh/llmsh"
)

// bothWays runs f with an in-process and with an isolated session.
func bothWays(t *testing.T, f func(t *testing.T, iso bool)) {
	for _, iso := range []bool{false, true} {
		t.Run(map[bool]string{false: "inprocess", true: "isolated"}[iso], func(t *testing.T) {
			t.Parallel()
			f(t, iso)
		})
	}
}

func openSession(t *testing.T, iso bool, o llmsh.Options) *llmsh.Session {
	t.Helper()
	o.Isolated = iso
	s, err := llmsh.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// stateScript sets one of each kind of state a snapshot carries.
const stateScript = `
x='two words'; nl=$'a\nb'
declare -a arr=(1 "2 3" '' "\$q")
declare -A map=([k]="v w" [z]=1 ['a b']=$'x\ty')
declare -i n=41; n+=1
declare -rx RO=frozen
declare -n ref=x
declare -a empty
export EXP=e
unset HOSTNAME
greet() { echo "hi $1 from $(pwd)"; }
count() { local i; for i in "$@"; do echo "[$i]"; done; }
set -o pipefail -o nounset
shopt -s extglob nullglob
trap 'echo bye' EXIT
set -- "first arg" second
mkdir -p /scratch/deep/er
echo virtual > /scratch/deep/er/f.txt
printf '\x00\xff binary' > /scratch/bin
chmod 600 /scratch/bin
cd /scratch/deep
`

// stateReport prints that state back.
const stateReport = `
ab='a b'
echo "x=$x nl=$nl n=$n RO=$RO ref=$ref EXP=$EXP host=${HOSTNAME-unset} pwd=$PWD old=$OLDPWD"
echo "arr=${#arr[@]}:${arr[1]}:${arr[3]} map=${map[k]}|${map[$ab]} empty=${empty[@]+set}"
declare -p arr map n RO ref empty
greet you; count "$@"
echo "opts=$- $(shopt -p extglob nullglob | tr '\n' ' ')$(set -o | grep pipefail)"
trap -p EXIT
cat er/f.txt; od -c /scratch/bin | head -1; stat -c %a /scratch/bin
RO=x
`

func TestSnapshotRestore(t *testing.T) {
	t.Parallel()
	bothWays(t, func(t *testing.T, iso bool) {
		ctx := context.Background()
		a := openSession(t, iso, llmsh.Options{Dir: t.TempDir()})
		run(t, a, stateScript)
		want := run(t, a, stateReport)
		if !strings.Contains(want.Stdout, "x=two words") || !strings.Contains(want.Stderr, "RO: readonly variable") {
			t.Fatalf("the state script did not set the state: %+v", want)
		}
		snap, err := a.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var head struct {
			Format  string `json:"format"`
			Version int    `json:"version"`
		}
		if err := json.Unmarshal(snap, &head); err != nil || head.Format != "llmsh-snapshot" || head.Version != 2 {
			t.Fatalf("snapshot header %+v, %v", head, err)
		}
		// Restored into a session of the other kind, in another
		// directory: a new process, as on another machine.
		b := openSession(t, !iso, llmsh.Options{Dir: t.TempDir()})
		run(t, b, `y=leftover; mkdir /other`)
		if err := b.Restore(ctx, snap); err != nil {
			t.Fatal(err)
		}
		got := run(t, b, stateReport)
		if got.Stdout != want.Stdout || got.Stderr != want.Stderr || got.ExitCode != want.ExitCode {
			t.Errorf("restored session reports\n%s%s(%d)\nwant\n%s%s(%d)", got.Stdout, got.Stderr, got.ExitCode,
				want.Stdout, want.Stderr, want.ExitCode)
		}
		if r := run(t, b, `echo "${y-gone}"; ls -d /other 2>&1; echo $#`); r.Stdout != "gone\nls: cannot access '/other': No such file or directory\n2\n" {
			t.Errorf("Restore kept the old state: %q", r.Stdout)
		}
		if !slicesEqual(got.VirtualFiles, want.VirtualFiles) {
			t.Errorf("virtual files %q, want %q", got.VirtualFiles, want.VirtualFiles)
		}
		// The restored session runs on, and its snapshot is the same
		// state again.
		run(t, b, `n+=1; cd ..`)
		if r := run(t, b, `echo $n $PWD`); r.Stdout != "43 /scratch\n" {
			t.Errorf("after more runs: %q", r.Stdout)
		}
		c := openSession(t, iso, llmsh.Options{})
		snap2, err := b.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Restore(ctx, snap2); err != nil {
			t.Fatal(err)
		}
		if r := run(t, c, `echo $n $PWD; greet again`); r.Stdout != "43 /scratch\nhi again from /scratch\n" {
			t.Errorf("second generation: %q", r.Stdout)
		}
		// The EXIT trap came along, and fires when the session ends.
		if r := run(t, c, `exit 3`); r.ExitCode != 3 || r.Stdout != "bye\n" {
			t.Errorf("exit in the restored session: %+v", r)
		}
	})
}

func slicesEqual(a, b []string) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

func TestRestoreRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openSession(t, false, llmsh.Options{})
	run(t, s, `x=1; echo v > /v.txt`)
	good, err := s.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		snap []byte
		want string
	}{
		"not json":           {[]byte("{nope"), "not a snapshot file"},
		"other format":       {[]byte(`{"format":"tarball","version":1,"cwd":"/"}`), `format "tarball"`},
		"future version":     {bytes.Replace(good, []byte(`"version": 2`), []byte(`"version": 9`), 1), "version 9 is not supported"},
		"bad status":         {bytes.Replace(good, []byte(`"status": 0`), []byte(`"status": 300`), 1), "status 300"},
		"bad descriptor":     {bytes.Replace(good, []byte(`"status": 0`), []byte(`"status": 0, "descriptors": [{"fd": 3, "redir": "<", "path": "/etc/passwd"}]`), 1), "malformed descriptor 3"},
		"bad variable":       {bytes.Replace(good, []byte(`"decl": "declare -- x=`), []byte(`"decl": "echo pwned; x=`), 1), `malformed variable "x"`},
		"file path climbing": {bytes.Replace(good, []byte(`"path": "/v.txt"`), []byte(`"path": "/x/../v.txt"`), 1), "malformed file path"},
		"file path too long": {bytes.Replace(good, []byte(`"path": "/v.txt"`), []byte(`"path": "`+strings.Repeat("/a", 3000)+`"`), 1), "malformed file path"},
	} {
		t.Run(name, func(t *testing.T) {
			err := s.Restore(ctx, tc.snap)
			if !errors.Is(err, llmsh.ErrSnapshot) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Restore: %v, want ErrSnapshot with %q", err, tc.want)
			}
			// A refused snapshot leaves the session as it was.
			if r := run(t, s, `echo $x; cat /v.txt`); r.Stdout != "1\nv\n" {
				t.Errorf("after a refused Restore: %+v", r)
			}
		})
	}
	// A path the new session holds already is refused, and the session
	// is left fresh.
	strict := openSession(t, true, llmsh.Options{Strict: true})
	err = strict.Restore(ctx, good)
	if !errors.Is(err, llmsh.ErrSnapshot) || !strings.Contains(err.Error(), "/v.txt") {
		t.Fatalf("Restore into a strict session: %v", err)
	}
	if r := run(t, strict, `echo "${x-unset}"`); r.Stdout != "unset\n" {
		t.Errorf("after a failed Restore: %+v", r)
	}
}

// syncBuf is a bytes.Buffer safe for the writer and the test.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunStream(t *testing.T) {
	t.Parallel()
	bothWays(t, func(t *testing.T, iso bool) {
		s := openSession(t, iso, llmsh.Options{MaxOutput: 40})
		var all, errs syncBuf
		// The live writers see the output while the script still runs:
		// the script reads, from its stdin, what the test writes only
		// once the first line has come through the live writer.
		pr, pw := io.Pipe()
		first := make(chan struct{})
		var once sync.Once
		out := writerFunc(func(p []byte) (int, error) {
			all.Write(p)
			once.Do(func() { close(first) })
			return len(p), nil
		})
		go func() {
			<-first
			pw.Write([]byte("go\n"))
			pw.Close()
		}()
		res, err := s.RunStream(context.Background(), `echo one; read w; echo "got $w" >&2; echo two; yes | head -c 100`, pr, out,
			writerFunc(func(p []byte) (int, error) { all.Write(p); errs.Write(p); return len(p), nil }))
		if err != nil {
			t.Fatal(err)
		}
		note := "llmsh: output limit exceeded (40 bytes)\n"
		if all.String()+"\n"+note != res.Output || errs.String() != "got go\n" {
			t.Errorf("live output %q (stderr %q), the Result's %q", all.String(), errs.String(), res.Output)
		}
		if res.ExitCode != 125 || !res.Truncated || !strings.HasSuffix(res.Stderr, "llmsh: output limit exceeded (40 bytes)\n") {
			t.Errorf("result %+v", res)
		}
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestSnapshotHiddenBuiltin: a function that hides a builtin the export
// reads the state with is refused, not exported wrongly; a function
// named like a builtin the restore uses (unset, set) comes back and does
// not act on the restoring.
// TestSnapshotHiddenBuiltin: functions named as the builtins a snapshot
// reads the state with (bash allows them) are carried like any other.
func TestSnapshotHiddenBuiltin(t *testing.T) {
	t.Parallel()
	bothWays(t, func(t *testing.T, iso bool) {
		ctx := context.Background()
		s := openSession(t, iso, llmsh.Options{})
		run(t, s, `set -- a b; declare () { echo "my declare $*"; }; function set { echo "my set"; }
trap() { echo "my trap"; }; printf() { echo "my printf"; }; alias() { :; }; shopt() { :; }
function unset { echo "my unset $*"; }; builtin() { echo "my builtin"; }
x=1; command unset HOME`)
		snap, err := s.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b := openSession(t, !iso, llmsh.Options{})
		if err := b.Restore(ctx, snap); err != nil {
			t.Fatal(err)
		}
		r := run(t, b, `echo "$x ${HOME-gone} $#"; unset y; set; trap; printf; builtin; command declare -p x`)
		if want := "1 gone 2\nmy unset y\nmy set\nmy trap\nmy printf\nmy builtin\ndeclare -- x=\"1\"\n"; r.Stdout != want {
			t.Errorf("restored: %q, want %q", r.Stdout, want)
		}
		// With both builtin and command hidden, the snapshot says why.
		run(t, s, `command() { :; }`)
		if _, err := s.Snapshot(ctx); !errors.Is(err, llmsh.ErrSnapshot) || !strings.Contains(err.Error(), "builtin and command") {
			t.Fatalf("Snapshot with functions builtin and command: %v", err)
		}
	})
}

// TestSnapshotStatusFds: $? and the descriptors the shell holds open go
// into a snapshot; a descriptor that cannot be opened again as it was is
// refused, with the reason.
func TestSnapshotStatusFds(t *testing.T) {
	t.Parallel()
	bothWays(t, func(t *testing.T, iso bool) {
		ctx := context.Background()
		dir := t.TempDir()
		a := openSession(t, iso, llmsh.Options{Outputs: []string{dir}, Dir: dir})
		run(t, a, `exec 3>/scratch.log 4>>real.log 5>&1 6</dev/null; echo one >&3; echo r1 >&4`)
		run(t, a, `(exit 7)`)
		snap, err := a.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The snapshot itself leaves $? alone.
		if r := run(t, a, `echo $?`); r.Stdout != "7\n" {
			t.Errorf("$? after Snapshot: %q", r.Stdout)
		}
		b := openSession(t, !iso, llmsh.Options{Outputs: []string{dir}, Dir: dir})
		if err := b.Restore(ctx, snap); err != nil {
			t.Fatal(err)
		}
		r := run(t, b, `echo "status $?"; echo two >&3; echo r2 >&4; echo to-stdout >&5; read -r l <&6; echo "read $? [$l]"; cat /scratch.log real.log`)
		if want := "status 7\nto-stdout\nread 1 []\none\ntwo\nr1\nr2\n"; r.Stdout != want {
			t.Errorf("restored: %q, want %q", r.Stdout, want)
		}
		for script, want := range map[string]string{
			`exec 7<real.log`:        "descriptor 7 reads " + dir + "/real.log",
			`exec 8< <(:)`:           "descriptor 8 is a pipe",
			"exec 9<<EOF\nhere\nEOF": "descriptor 9 is a pipe",
		} {
			c := openSession(t, iso, llmsh.Options{Outputs: []string{dir}, Dir: dir})
			run(t, c, script)
			if _, err := c.Snapshot(ctx); !errors.Is(err, llmsh.ErrSnapshot) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: Snapshot: %v, want %q", script, err, want)
			}
		}
	})
}

// TestSnapshotLastArg: a snapshot carries $_ and leaves it as it was
// (its own commands set it: the export's last printf left "\0").
func TestSnapshotLastArg(t *testing.T) {
	t.Parallel()
	bothWays(t, func(t *testing.T, iso bool) {
		ctx := context.Background()
		a := openSession(t, iso, llmsh.Options{})
		run(t, a, `: one 'last word'`)
		snap, err := a.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if r := run(t, a, `echo "$_"`); r.Stdout != "last word\n" {
			t.Errorf("$_ after Snapshot: %q", r.Stdout)
		}
		b := openSession(t, !iso, llmsh.Options{})
		run(t, b, `: other`)
		if err := b.Restore(ctx, snap); err != nil {
			t.Fatal(err)
		}
		if r := run(t, b, `echo "$_"; declare -p _`); r.Stdout != "last word\ndeclare -- _=\"last word\"\n" {
			t.Errorf("restored $_: %q", r.Stdout)
		}
	})
}

// TestSnapshotRunsNoTraps: taking and restoring a snapshot runs none of
// the session's code: a DEBUG trap fired before each command of the
// export (and of the restore after the trap line), and, looping, kept a
// snapshot running for good, beyond any time limit.
func TestSnapshotRunsNoTraps(t *testing.T) {
	t.Parallel()
	bothWays(t, func(t *testing.T, iso bool) {
		ctx := context.Background()
		a := openSession(t, iso, llmsh.Options{})
		run(t, a, `f() { :; }; alias ll='ls -l'; set -- x y; mkdir /empty
trap 'echo ret >> /dbg' RETURN; trap 'echo err >> /dbg' ERR; trap 'echo "debug $BASH_COMMAND" >> /dbg' DEBUG`)
		snap, err := a.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := a.ReadFile("/dbg"); err == nil {
			t.Errorf("the export ran the session's traps: %q", b)
		}
		b := openSession(t, !iso, llmsh.Options{})
		if err := b.Restore(ctx, snap); err != nil {
			t.Fatal(err)
		}
		if d, err := b.ReadFile("/dbg"); err == nil {
			t.Errorf("the restore ran the snapshot's traps: %q", d)
		}
		// The traps are there and fire as before: the DEBUG trap before
		// false, and again before the ERR trap's command, $BASH_COMMAND
		// still false, as in bash 5.2 (session 28).
		run(t, b, `false`)
		if d, err := b.ReadFile("/dbg"); err != nil || string(d) != "debug false\ndebug false\nerr\n" {
			t.Errorf("the restored traps: %q, %v", d, err)
		}
	})
}

// TestRestoreTimeLimit: a snapshot's text runs within the session's time
// limit, and ends when the caller gives up: a crafted one that loops
// kept the session (under serve, a worker burning a CPU and a pending
// session's place) for good.
func TestRestoreTimeLimit(t *testing.T) {
	t.Parallel()
	snap := []byte(`{"format":"llmsh-snapshot","version":2,"cwd":"/","variables":[{"name":"x","decl":"declare -- x=1; while :; do :; done"}]}`)
	bothWays(t, func(t *testing.T, iso bool) {
		s := openSession(t, iso, llmsh.Options{Timeout: 500 * time.Millisecond})
		err := s.Restore(context.Background(), snap)
		if !errors.Is(err, llmsh.ErrSnapshot) || !strings.Contains(err.Error(), "time limit (500ms)") {
			t.Fatalf("Restore of a looping snapshot: %v", err)
		}
		if r := run(t, s, `echo "${x-fresh}"`); r.Stdout != "fresh\n" {
			t.Errorf("after a stopped Restore: %+v", r)
		}
		// Without a time limit, the caller's context ends it.
		u := openSession(t, iso, llmsh.Options{})
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		defer cancel()
		if err := u.Restore(ctx, snap); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Restore with its context ended: %v", err)
		}
		if r := run(t, u, `echo "${x-fresh}"`); r.Stdout != "fresh\n" {
			t.Errorf("after a cancelled Restore: %+v", r)
		}
	})
	// The memory guard stops one that fills the heap, as it stops a Run.
	s := openSession(t, true, llmsh.Options{MaxMemory: 64 << 20})
	flood := bytes.Replace(snap, []byte("while :; do :; done"), []byte("while :; do a[i++]=$(yes | head -c 4000000); done"), 1)
	if err := s.Restore(context.Background(), flood); !errors.Is(err, llmsh.ErrSnapshot) || !strings.Contains(err.Error(), "memory limit exceeded") {
		t.Fatalf("Restore of a snapshot filling the heap: %v", err)
	}
}

// TestSnapshotValueOverScriptSize: a variable may hold more than the
// script size limit (values are bounded apart from scripts), and its
// snapshot restores: the state is replayed as text, which was refused
// whole as "script too large".
func TestSnapshotValueOverScriptSize(t *testing.T) {
	t.Parallel()
	bothWays(t, func(t *testing.T, iso bool) {
		ctx := context.Background()
		lim := llmsh.Limits{MaxScriptSize: 4096}
		a := openSession(t, iso, llmsh.Options{Limits: lim})
		run(t, a, `big=$(printf '%*s' 10000 x); declare -a arr=("$big" b); declare -A m=([k]="$big")`)
		snap, err := a.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b := openSession(t, !iso, llmsh.Options{Limits: lim})
		if err := b.Restore(ctx, snap); err != nil {
			t.Fatal(err)
		}
		if r := run(t, b, `echo ${#big} ${#arr[0]} ${arr[1]} ${#m[k]}`); r.Stdout != "10000 10000 b 10000\n" {
			t.Errorf("restored: %q", r.Stdout)
		}
		// Scripts themselves stay bounded.
		if r, _ := b.Run(ctx, "# "+strings.Repeat("x", 5000)+"\necho ran", nil); r.ExitCode != 2 || strings.Contains(r.Stdout, "ran") {
			t.Errorf("a 5000-byte script ran: %+v", r)
		}
	})
}
