package shell_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// internalCommands are the internal command names that the rewrite layer
// and the call handler used before the fork made them plain code: none
// may run as a command from a script.
var internalCommands = []string{
	"\x00declfunc", "\x00declist", "\x01noerrexit", "\x00fdalloc", "\x00fname", "\x00status",
	"\x00loopst", "\x00psrec", "\x00psset", "\x00ps1", "\x00psub", "\x00psubdone",
	"\x00quote", "\x00cat", "\x01errgate", "\x00errbody", "\x01errinherit", "\x01srcpop", "\x00printf", "\x00echo", "\x00notfound",
}

// newTestShell makes a shell on client c in dir.
func newTestShell(t testing.TB, c *vfsclient.Client, dir string) (*Shell, *lockedBuffer, *lockedBuffer) {
	t.Helper()
	var out, errb lockedBuffer
	sh, err := New(Options{Client: c, Stdout: &out, Stderr: &errb, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return sh, &out, &errb
}

// ansiC writes s as a $'…' word, every byte escaped.
func ansiC(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "\\x%02x", s[i])
	}
	b.WriteString("'")
	return b.String()
}

// TestSessionsIsolated runs two sessions in one process: A keeps
// functions whose text once went through rewrites (splitting, arithmetic,
// descriptor redirections), B tries every internal name that served them
// with every small id, and the other way round. Neither sees the other's
// text.
func TestSessionsIsolated(t *testing.T) {
	dir := t.TempDir()
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	ctx := context.Background()
	secretScript := func(tag string) string {
		return `IFS=:
n=1
f_` + tag + `() { v="a:SECRET_` + tag + `_SPLIT"; echo $v; echo $(( $n + SECRET_` + tag + `_ARITH )); (( $n + SECRET_` + tag + `_CMD )); exec 3>&1; echo SECRET_` + tag + `_FD >&3; }
f_` + tag + `
`
	}
	probe := `unset IFS
for i in $(seq 0 300); do
  cat < $'\x01arith '$i
  cat < $'\x01split '$i
  $'\x00arithcmd' $i
  $'\x00let' $i
done 2>&1
true
`
	shells := map[string]*Shell{}
	outs := map[string]*lockedBuffer{}
	for _, tag := range []string{"A", "B"} {
		sh, out, errb := newTestShell(t, c, dir)
		if st := sh.Run(ctx, secretScript(tag), "llmsh"); st != 0 {
			t.Fatalf("session %s: status %d, stderr %q", tag, st, errb.String())
		}
		if !strings.Contains(out.String(), "SECRET_"+tag+"_SPLIT") || !strings.Contains(out.String(), "SECRET_"+tag+"_FD") {
			t.Fatalf("session %s ran wrong: %q %q", tag, out.String(), errb.String())
		}
		shells[tag], outs[tag] = sh, out
	}
	for tag, other := range map[string]string{"A": "B", "B": "A"} {
		sh, out := shells[tag], outs[tag]
		before := len(out.String())
		sh.Run(ctx, probe, "llmsh")
		got := out.String()[before:]
		if strings.Contains(got, "SECRET_"+other) {
			t.Errorf("session %s read session %s's text:\n%s", tag, other, got)
		}
		if strings.Contains(got, "SECRET_"+tag) {
			t.Errorf("session %s read its own rewritten text through an internal name:\n%s", tag, got)
		}
		if strings.Count(got, "command not found") < 2*301 || strings.Count(got, "No such file") < 2*301 {
			t.Errorf("session %s: the probe's internal commands ran: %s", tag, got[:min(len(got), 500)])
		}
	}
	for _, sh := range shells {
		if ForTests.SameState(sh, shells["A"]) && sh != shells["A"] {
			t.Error("two sessions share their state")
		}
	}
}

// TestInternalNamesNotCommands calls every internal command name from
// data, in every way a script can make a command name of bytes: each is
// an unknown command (status 127, bash's message), never a Go panic.
func TestInternalNamesNotCommands(t *testing.T) {
	dir := t.TempDir()
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	ctx := context.Background()
	for _, name := range internalCommands {
		// The name as data: $'\x01…'. A NUL cannot be data: mapfile -d ''
		// kept one (issue 18), and now, as bash, ends the value there.
		mk := `n=` + ansiC(name)
		if name[0] == 0 {
			src := `mapfile -d '' z < <(printf '\0'); n="${z}` + name[1:] + `"; echo "${#z} ${#n}"`
			sh, out, errb := newTestShell(t, c, dir)
			sh.Run(ctx, src, "llmsh")
			if want := fmt.Sprintf("0 %d\n", len(name)-1); out.String() != want || errb.String() != "" {
				t.Errorf("%q: stdout %q stderr %q, want %q", name, out.String(), errb.String(), want)
			}
			continue
		}
		for _, form := range []string{
			`"$n" 3`,
			`"$n"`,
			`"$n" 2 2 2`,
			`printf -v v '%s' "$n"; "$v" 0`,
			`eval '"$n" 0'`,
			`command "$n" 0`,
			`command command "$n" 0`,
			`builtin "$n" 0`,
			`(exec "$n" 0)`,
			`echo 0 | xargs "$n"`,
			`env "$n" 0`,
			`sh -c '"$@"' sh "$n" 0`,
			`f=$n; $f 0`,
		} {
			src := mk + "\n" + form + "\necho \"st=$?\""
			sh, out, errb := newTestShell(t, c, dir)
			sh.Run(ctx, src, "llmsh")
			o, e := out.String(), errb.String()
			if strings.Contains(e, "goroutine") || strings.Contains(e, "internal error") || strings.Contains(e, "panic") {
				t.Errorf("%q %q: %s", name, form, e)
				continue
			}
			if strings.HasPrefix(form, "builtin") {
				// bash: no builtin of that name, status 1.
				if o != "st=1\n" || !strings.Contains(e, ": not a shell builtin\n") {
					t.Errorf("%q %q: stdout %q stderr %q", name, form, o, e)
				}
				continue
			}
			want := " " + ForTests.CommandText(name) + ": command not found\n"
			switch {
			case strings.Contains(form, "xargs"):
				want = "xargs: " + name + ": No such file or directory\n" // GNU's words
			case strings.HasPrefix(form, "env"):
				want = "env: " + ForTests.GNUQuote(name) + ": No such file or directory\n"
			}
			if o != "st=127\n" || !strings.Contains(e, want) {
				t.Errorf("%q %q: stdout %q stderr %q", name, form, o, e)
			}
		}
	}
	// bash's words for such a name.
	_, e, st := run(t, dir, `$'\x01name' 1`, Limits{})
	if want := "llmsh: line 1: $'\\001name': command not found\n"; e != want || st != 127 {
		t.Errorf("got %q %d, want %q 127", e, st, want)
	}
}

// TestHiddenFilesArePlain: an internal file name in a redirection that no
// rewrite made is a plain file's name, as in bash.
func TestHiddenFilesArePlain(t *testing.T) {
	dir := t.TempDir()
	for _, prefix := range []string{"\x01split ", "\x01fd ", "\x01rdwr ", "\x01clobber "} {
		q := ansiC(prefix + "1")
		src := `IFS=:; x=a:b; echo $x 2>/dev/null; echo data > ` + q + `; cat < ` + q + `; cat ` + q
		out, e, st := run(t, dir, src, Limits{})
		if !strings.HasSuffix(out, "data\ndata\n") || st != 0 {
			t.Errorf("%q: stdout %q stderr %q status %d", prefix, out, e, st)
		}
	}
}

// TestMemoryAfterRuns: 250 runs on one session, and 250 sessions of one
// run each, leave nothing behind: the session's state is back to what its
// functions need, and the heap in use to its level (a generous margin).
func TestMemoryAfterRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("2×250 runs and 250 sessions")
	}
	dir := t.TempDir()
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	ctx := context.Background()
	// Each run expands some 400 words, split by IFS=: and arithmetic.
	var b strings.Builder
	b.WriteString("IFS=:; x=a:b:c; n=2\n")
	for i := range 100 {
		fmt.Fprintf(&b, "echo $x %d:$x; : $(( $n + %d ))\n", i, i)
	}
	b.WriteString("g() { echo $x $(( $n * 2 )); }\n")
	src := b.String()
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	// A leak of 16 KB a run or session fails: 250 of them outgrow the
	// margin, counted from a heap warmed by 20 runs (the output, kept in
	// out, adds 2.3 KB a run).
	const runs, margin = 250, 4 << 20
	sh, out, _ := newTestShell(t, c, dir)
	for range 20 {
		sh.Run(ctx, src, "llmsh")
	}
	base := heap()
	for range runs {
		sh.Run(ctx, src, "llmsh")
		sh.Run(ctx, `sh -c 'IFS=:; y=p:q; echo $y $(( 1 + $n ))'`, "llmsh")
	}
	if !strings.Contains(out.String(), "a b c 99:a b c") {
		t.Fatalf("the runs went wrong: %q", out.String()[:200])
	}
	after := heap()
	if after > base+margin {
		t.Errorf("heap in use %d KB after %d runs more, %d KB before", after>>10, runs, base>>10)
	}
	for range runs {
		s2, _, _ := newTestShell(t, c, dir)
		s2.Run(ctx, src, "llmsh")
	}
	if after2 := heap(); after2 > base+margin {
		t.Errorf("heap in use %d KB after %d sessions, %d KB before", after2>>10, runs, base>>10)
	}
	runtime.KeepAlive(sh)
}

// TestExportFunctions: export -f, readonly -f and declare -f with
// attributes print the functions as written, as bash 5.2 does (checked
// against it), never the rewritten body.
func TestExportFunctions(t *testing.T) {
	dir := t.TempDir()
	src := `f(){ :; }; g(){ :; }; export -f f; echo "st=$?"; export -f; declare -F; echo ---
declare -fx; declare -fp f; export -nf f; readonly -f g h; echo "st=$?"; readonly -pf`
	want := "st=0\nf () \n{ \n    :\n}\ndeclare -fx f\ndeclare -fx f\ndeclare -f g\n---\n" +
		"f () \n{ \n    :\n}\ndeclare -fx f\nf () \n{ \n    :\n}\ndeclare -fx f\nst=1\ng () \n{ \n    :\n}\ndeclare -fr g\n"
	out, e, st := run(t, dir, src, Limits{})
	if out != want || e != "llmsh: line 2: readonly: h: not a function\n" || st != 0 {
		t.Errorf("got %q %q %d\nwant %q", out, e, st, want)
	}
}

// TestStdinPipeStops: builtins reading the session's own stdin, a pipe
// in non-blocking mode (as the llmsh command opens it) that stays open
// and empty, end with their context (session 27: cat and x=$(cat) waited
// in the pipe's read until the process was ended a second past the time
// limit); what was written is read first, as before. The guard only
// stops a test that would otherwise hang.
func TestStdinPipeStops(t *testing.T) {
	t.Parallel()
	for _, script := range []string{"cat", "read a; cat", "while read l; do echo \"$l\"; done"} {
		c := vfstest.Session(t, vfsd.Config{})
		seen := make(chan struct{})
		out := &seenWriter{want: "cd\n", seen: seen}
		sh, err := New(Options{Client: c, Stdout: out, Stderr: io.Discard, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		r, w, err := os.Pipe() // non-blocking, as the llmsh command's
		if err != nil {
			t.Fatal(err)
		}
		if err := sh.SetStdin(r); err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("ab\ncd\n"))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan int, 1)
		go func() { done <- sh.Run(ctx, script, "llmsh") }()
		select {
		case <-seen: // read what there was: the next read waits
		case <-time.After(60 * time.Second):
			t.Fatalf("%s: the input not read in 60 s", script)
		}
		cancel()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Fatalf("%s: still reading 60 s after its context ended", script)
		}
		w.Close()
		r.Close()
	}
}

// seenWriter closes seen once what is written ends with want.
type seenWriter struct {
	mu   sync.Mutex
	b    strings.Builder
	want string
	seen chan struct{}
}

func (w *seenWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	was := strings.HasSuffix(w.b.String(), w.want)
	w.b.Write(p)
	if !was && strings.HasSuffix(w.b.String(), w.want) {
		close(w.seen)
	}
	return len(p), nil
}

// TestStdinPipeShared: a shell that env (or nice, nohup, stdbuf) runs
// reads the session's own stdin pipe as it is, taking only what its
// commands read: `while read l; do env bash -c :; done` reads every
// line (session 33: the nested shell copied the pipe ahead and the loop
// lost lines), and a nested read -t gives up on an empty pipe.
func TestStdinPipeShared(t *testing.T) {
	t.Parallel()
	c := vfstest.Session(t, vfsd.Config{})
	var out strings.Builder
	sh, err := New(Options{Client: c, Stdout: &out, Stderr: io.Discard, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe() // non-blocking, as the llmsh command's
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := sh.SetStdin(r); err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("a\nb\nc\nd\n"))
	w.Close()
	script := `while read -r l; do env bash -c :; nice bash -c 'read -r x; echo "inner $x"'; echo "got $l"; done`
	if st := sh.Run(context.Background(), script, "llmsh"); st != 0 || out.String() != "inner b\ngot a\ninner d\ngot c\n" {
		t.Errorf("got %q, status %d", out.String(), st)
	}
}
