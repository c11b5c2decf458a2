package shell_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestFdConcurrentWriters has pipelines in background jobs and in the
// foreground write to one descriptor at once (run with -race): every line
// arrives whole, once, and the file is complete when the descriptor is
// closed.
func TestFdConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	src := `exec 3>shared.txt
for j in 1 2 3 4 5 6 7 8; do
  seq 200 | while read -r n; do echo "job$j line$n"; done >&3 &
done
seq 200 | sed 's/^/fg line/' >&3
{ seq 200 | tr 0-9 a-j; } 2>&1 >&3 | cat
wait
exec 3>&-
wc -l < shared.txt`
	out, errs, st := run(t, dir, src, Limits{})
	if st != 0 || errs != "" || out != "2000\n" {
		t.Fatalf("got out=%q err=%q status=%d", out, errs, st)
	}
	b, err := os.ReadFile(filepath.Join(dir, "shared.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var want []string
	for j := 1; j <= 8; j++ {
		for n := 1; n <= 200; n++ {
			want = append(want, fmt.Sprintf("job%d line%d", j, n))
		}
	}
	for n := 1; n <= 200; n++ {
		want = append(want, fmt.Sprintf("fg line%d", n))
		want = append(want, strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r - '0' + 'a'
			}
			return r
		}, fmt.Sprint(n)))
	}
	sort.Strings(lines)
	sort.Strings(want)
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("shared.txt has %d lines, not the %d written whole", len(lines), len(want))
	}
}

// TestFdMessages checks the messages and statuses of descriptors used
// wrongly, and that a descriptor's file goes through the grants and the
// write checks as any redirection's.
func TestFdMessages(t *testing.T) {
	tests := []struct {
		name, src, out, err string
	}{
		{"unopened", `echo x >&7; echo $?`, "1\n", "llmsh: line 1: 7: Bad file descriptor\n"},
		{"closed", `exec 3>/v; exec 3>&-; echo y >&3; echo $?`, "1\n", "llmsh: line 1: 3: Bad file descriptor\n"},
		{"stderr to unopened", `echo x 2>&5; echo $?`, "1\n", "llmsh: line 1: 5: Bad file descriptor\n"},
		{"stdin from unopened", `cat <&6; echo $?`, "1\n", "llmsh: line 1: 6: Bad file descriptor\n"},
		{"dup of unopened", `exec 4>&8; echo $?`, "1\n", "llmsh: line 1: 8: Bad file descriptor\n"},
		{"too large", `exec 70000>/v; echo $?`, "1\n", "llmsh: line 1: 70000: Bad file descriptor\n"},
		{"read unopened", `read -u 9 v; echo $?`, "1\n", "llmsh: line 1: read: 9: invalid file descriptor: Bad file descriptor\n"},
		{"read bad spec", `read -u x v; echo $?`, "1\n", "llmsh: line 1: read: x: invalid file descriptor specification\n"},
		{"read from a writer", `exec 3>/v; read -u 3 v; echo $?`, "1\n", "llmsh: line 1: read: read error: 3: Bad file descriptor\n"},
		{"write to a reader", `echo hi > /v; exec 3</v; echo x >&3; echo $?`, "1\n", "llmsh: line 1: echo: write error: Bad file descriptor\n"},
		{"expansion names a file", `f=abc; echo x >&$f; echo $?; cat abc`, "0\nx\n", ""},
		{"expansion not a number", `f=abc; echo x 2>&$f; echo $?`, "1\n", "llmsh: line 1: abc: ambiguous redirect\n"},
		{"read-only tree, as other redirections", `printf x > ro/f; echo $?; exec 3>ro/f; echo $?; cat ro/f`, "1\n1\nold\n", "llmsh: line 1: ro/f: Permission denied\nllmsh: line 1: ro/f: Permission denied\n"},
		{"missing file", `exec 3<ro/none; echo $?; { echo never; } 4<ro/none; echo $?`, "1\n1\n", "llmsh: line 1: ro/none: No such file or directory\nllmsh: line 1: ro/none: No such file or directory\n"},
		{"outside the grants, as other redirections", `cat < /etc/hostname; echo $?; exec 3</etc/hostname; echo $?`, "1\n1\n", "llmsh: line 1: /etc/hostname: No such file or directory\nllmsh: line 1: /etc/hostname: No such file or directory\n"},
		{"failed writes confirmed", `exec 3>/a; printf %200s x >&3; echo $?; exec 3>&-`, "1\n", "llmsh: line 1: printf: write error: File too large\n"},
		{"virtual file read back", `exec 3>/v; echo one >&3; echo two >&3; exec 3>&-; cat /v`, "one\ntwo\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, st := runBudget(t, tt.src)
			if out != tt.out || errs != tt.err || st != 0 {
				t.Errorf("%s\ngot  out=%q err=%q status=%d\nwant out=%q err=%q status=0", tt.src, out, errs, st, tt.out, tt.err)
			}
		})
	}
}

// TestFdLifetime checks when descriptors open and close: a command's own
// descriptors end with it, exec's last until closed or until the script
// ends (and their writes are then committed), subshells get copies.
func TestFdLifetime(t *testing.T) {
	tests := []struct{ name, src, out string }{
		{"left open at the end", `exec 3>a.txt; echo kept >&3`, ""},
		{"command's own", `{ echo in >&3; } 3>b.txt; { echo x >&3; } 2>/dev/null || echo gone; cat b.txt`, "gone\nin\n"},
		{"restored after the command", `exec 3>c1.txt; { echo two >&3; } 3>c2.txt; echo one >&3; exec 3>&-; cat c1.txt c2.txt`, "one\ntwo\n"},
		{"subshell replaces its copy", `exec 3>d.txt; ( exec 3>e.txt; echo sub >&3 ); echo parent >&3; exec 3>&-; cat d.txt e.txt`, "parent\nsub\n"},
		{"subshells close their copies", `exec 3>d.txt; ( exec 3>&- ); x=$(exec 3>&-); echo | { exec 3>&-; cat; }; { exec 3>&-; } | cat; { exec 3>&-; } & wait; echo kept >&3; exec 3>&-; cat d.txt`, "\nkept\n"},
		{"a subshell's own descriptor ends with it", `( exec 4>s.txt; echo in >&4 ); { echo x >&4; } 2>/dev/null || echo gone; cat s.txt`, "gone\nin\n"},
		{"{var} numbers from 10", `exec {a}>f1.txt {b}>f2.txt; echo $a $b; exec {a}>&- {b}>&-; exec {c}>f3.txt; echo $c`, "10 11\n10\n"},
		{"stderr redirection keeps the table", `exec 3>&1; { echo a >&3; echo b; } >g.txt 2>&1; cat g.txt`, "a\nb\n"},
		{"read continues across commands", `printf '1\n2\n3\n' > h.txt; exec 3<h.txt; read -u 3 x; read y <&3; head -n 1 <&3; echo $x$y`, "3\n12\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out, errs, st := run(t, dir, tt.src, Limits{})
			if out != tt.out || errs != "" || st != 0 {
				t.Errorf("%s\ngot  out=%q err=%q status=%d\nwant out=%q", tt.src, out, errs, st, tt.out)
			}
		})
	}
	dir := t.TempDir()
	run(t, dir, `exec 3>a.txt; echo kept >&3; exec 4>>a.txt; echo more >&4`, Limits{})
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "kept\nmore\n" {
		t.Errorf("a descriptor left open at the end: a.txt holds %q", b)
	}
}

// TestBuiltinDevFd: builtins open the shell's descriptors by their
// /dev/fd/N names (awk's files, cat's operands), their own standard
// streams as 0-2, and any other /dev/fd/N fails as on Linux: it is never
// a file in vfsd (awk's print > "/dev/fd/9" made a virtual file).
func TestBuiltinDevFd(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.txt"), []byte("line\n"), 0o644)
	src := `exec 3>out.txt 4<in.txt
awk 'BEGIN { print "to3" > "/dev/fd/3" }'
awk '{ print "awk:" $0 }' /dev/fd/4
exec 4<in.txt
cat /dev/fd/4
echo w | awk '{ print > "/dev/fd/1" }'
echo in | cat /dev/fd/0
exec 3>&-
cat out.txt
echo z | awk '{ print > "/dev/fd/9" }'; echo "st=$?"
cat /dev/fd/7; echo "st=$?"
ls /`
	out, errs, st := run(t, dir, src, Limits{})
	want := "awk:line\nline\nw\nin\nto3\nst=2\nst=1\n"
	if st != 0 || !strings.HasPrefix(out, want) {
		t.Fatalf("got out=%q err=%q status=%d, want out starting %q", out, errs, st, want)
	}
	if strings.Contains(out[len(want):], "dev") {
		t.Errorf("a /dev/fd name became a virtual file: ls / = %q", out[len(want):])
	}
	for _, msg := range []string{`awk: cannot open "/dev/fd/9" for output (No such file or directory)`, "cat: /dev/fd/7: No such file or directory"} {
		if !strings.Contains(errs, msg) {
			t.Errorf("stderr %q lacks %q", errs, msg)
		}
	}
}

// TestFdAcrossRuns: at the prompt each line is a run of its own; a
// descriptor that one line opens serves the next ones, the same in
// eval's code, and Finish closes what is left open, as the end of a
// session does.
func TestFdAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	sh, out, errb := newTestShell(t, c, dir)
	ctx := context.Background()
	for _, line := range []string{
		`exec 3>lines.txt`,
		`echo one >&3`,
		`eval 'echo two >&3'`,
		`exec {n}>named.txt`,
		`echo "via $n" >&$n`,
		`cat lines.txt named.txt`,
	} {
		if st, err := sh.RunInteractive(ctx, line); st != 0 || err != nil {
			t.Fatalf("%s: status %d (%v), stderr %q", line, st, err, errb.String())
		}
	}
	if want := "one\ntwo\nvia 10\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	sh.Finish(ctx)
	if st, _ := sh.RunInteractive(ctx, `echo after >&3`); st != 1 || !strings.Contains(errb.String(), "llmsh: line 1: 3: Bad file descriptor") {
		t.Errorf("after Finish: status %d, stderr %q", st, errb.String())
	}
	b, _ := os.ReadFile(filepath.Join(dir, "lines.txt"))
	if string(b) != "one\ntwo\n" {
		t.Errorf("lines.txt holds %q", b)
	}
}

// TestPromptMessages: at the REPL's prompt the shell's errors carry no
// "line N:", wherever the command came from, as interactive bash's; a
// session's runs (bash reading a script on its stdin) keep the line.
func TestPromptMessages(t *testing.T) {
	dir := t.TempDir()
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	sh, _, errb := newTestShell(t, c, dir)
	ctx := context.Background()
	src := "cat < nope\nf() { echo x >&7; }; f\neval 'type nosuch'\nprintf '%d\\n' q >/dev/null"
	sh.RunInteractive(ctx, src)
	want := "llmsh: line 1: nope: No such file or directory\nllmsh: line 2: 7: Bad file descriptor\n" +
		"llmsh: line 3: type: nosuch: not found\nllmsh: line 4: printf: q: invalid number\n"
	if errb.String() != want {
		t.Errorf("session: stderr %q, want %q", errb.String(), want)
	}
	before := len(errb.String())
	sh.SetAtPrompt(true)
	sh.RunInteractive(ctx, src)
	want = "llmsh: nope: No such file or directory\nllmsh: 7: Bad file descriptor\n" +
		"llmsh: type: nosuch: not found\nllmsh: printf: q: invalid number\n"
	if got := errb.String()[before:]; got != want {
		t.Errorf("prompt: stderr %q, want %q", got, want)
	}
}
