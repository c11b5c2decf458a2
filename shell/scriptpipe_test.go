package shell_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// pipeScript runs script as a script read on a pipe (RunInput), its
// writer writing script and then after; it returns the shell's output
// and what is left in the pipe once RunInput has returned.
func pipeScript(tb testing.TB, script, after string) (out, rest string) {
	tb.Helper()
	dir := tb.TempDir()
	c := vfstest.Session(tb, vfsd.Config{Outputs: []string{dir}})
	var outb, errb lockedBuffer
	sh, err := New(Options{Client: c, Stdout: &outb, Stderr: &errb, Dir: dir})
	if err != nil {
		tb.Fatal(err)
	}
	rest = runPiped(tb, sh, script, after)
	return outb.String(), rest
}

// runPiped is pipeScript's run, on sh.
func runPiped(tb testing.TB, sh *Shell, script, after string) (rest string) {
	pr, pw, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	defer pr.Close()
	go func() {
		io.WriteString(pw, script+after)
		pw.Close()
	}()
	if err := sh.SetStdin(pr); err != nil {
		tb.Fatal(err)
	}
	sh.RunInput(context.Background(), pr, "llmsh")
	left, err := io.ReadAll(pr)
	if err != nil {
		tb.Fatal(err)
	}
	return string(left)
}

// TestScriptPipe checks that the commands of a script read on a pipe
// read its next lines, however far llmsh looked ahead, and that what
// follows an exit is left in the pipe, as bash leaves it.
func TestScriptPipe(t *testing.T) {
	var long strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&long, ": %d\n", i) // past a look of 64 KiB
	}
	tests := []struct{ name, script, after, out, rest string }{
		{"read", "read x\nthe line\necho \"[$x]\"\n", "", "[the line]\n", ""},
		{"cat", "cat\nrest 1\nrest 2\n", "", "rest 1\nrest 2\n", ""},
		{"head -c", "x=$(head -c 3); echo \"[$x]\"\nabcd=1\necho $d\n", "", "[abc]\n1\n", ""},
		{"exit leaves the rest", "read x; exit\nread by read\n", "left 1\nleft 2\n", "", "left 1\nleft 2\n"},
		{"past a look", long.String() + "read x\nafter\necho \"[$x]\"\nexit\n", "left\n", "[after]\n", "left\n"},
		{"mapfile", "mapfile -t -n 2 a\nm1\nm2\necho \"${a[*]}\"\nexit\n", "x\n", "m1 m2\n", "x\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, rest := pipeScript(t, tc.script, tc.after)
			if out != tc.out || rest != tc.rest {
				t.Errorf("out %q, rest %q; want %q, %q", out, rest, tc.out, tc.rest)
			}
		})
	}
}

// BenchmarkScriptPipe runs a script of 2000 echo commands read on a pipe.
func BenchmarkScriptPipe(b *testing.B) {
	var src strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&src, "echo %d\n", i)
	}
	sh, out, errb := benchShell(b)
	for b.Loop() {
		out.b.Reset()
		runPiped(b, sh, src.String(), "")
		if s := out.String(); !strings.HasSuffix(s, "\n1999\n") {
			b.Fatalf("out ends %q (%s)", s[max(0, len(s)-20):], errb.String())
		}
	}
}
