package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A script named /dev/stdin, /dev/fd/N or /proc/self/fd/N (a pipe, bash's
// <(…)) is read from the descriptor the caller gave llmsh, as bash reads
// it; a lone - ends the options; a grant of a pipe grants nothing and
// starts vfsd all the same (it used to stop vfsd in Landlock's set-up).
func TestScriptFromDescriptor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		out   string
		errs  string
		code  int
	}{
		{"stdin", "echo hi $0 $1\n", []string{"/dev/stdin", "a"}, "hi /dev/stdin a\n", "", 0},
		{"proc", "echo $0\n", []string{"/proc/self/fd/0"}, "/proc/self/fd/0\n", "", 0},
		{"dash", "echo $0 $#\n", []string{"-"}, "llmsh 0\n", "", 0},
		{"closed", "", []string{"/dev/fd/9"}, "", "llmsh: /dev/fd/9: No such file or directory\n", 127},
		{"grant pipe", "data\n", []string{"-i", "/dev/stdin", "-c", "cat; echo rc=$?"}, "data\nrc=0\n", "", 0},
	} {
		out, errs, code := runLlmsh(t, tc.stdin, tc.args...)
		if out != tc.out || errs != tc.errs || code != tc.code {
			t.Errorf("%s: llmsh %q: %q, %q, %d; want %q, %q, %d", tc.name, tc.args, out, errs, code, tc.out, tc.errs, tc.code)
		}
	}

	// /dev/fd/3: a script on a pipe the caller handed over as fd 3.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("echo from fd3 $0\nread l; echo \"[$l]\"\n")
	w.Close()
	cmd := exec.Command(realLlmsh(t), "/dev/fd/3")
	cmd.ExtraFiles = []*os.File{r}
	cmd.Stdin = strings.NewReader("typed\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	r.Close()
	if want := "from fd3 /dev/fd/3\n[typed]\n"; err != nil || out.String() != want {
		t.Errorf("llmsh /dev/fd/3: %v, %q, stderr %q; want %q", err, out.String(), errb.String(), want)
	}
}
