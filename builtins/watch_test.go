package builtins_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// TestWatchRefused: watch says what to write instead, status 1, and runs
// nothing; its usage errors are procps-ng's.
func TestWatchRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args     []string
		err      string
		status   int
		stdoutOK bool
	}{
		{[]string{"watch", "-n", "1", "ls", "-l"}, "watch: llmsh has no screen to repaint; run the command in a loop instead, e.g. while sleep 2; do ls -l; done\n", 1, false},
		{[]string{"watch"}, "watch: no command given\nTry 'watch --help' for more information.\n", 1, false},
		{[]string{"watch", "--help"}, "", 0, true},
	} {
		var out, errb bytes.Buffer
		b, _ := Lookup("watch")
		st := Run(b, &Env{Ctx: context.Background(), Args: tc.args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: "/"})
		if errb.String() != tc.err || st != tc.status || (out.Len() > 0) != tc.stdoutOK {
			t.Errorf("%v: got %q %q %d", tc.args, out.String(), errb.String(), st)
		}
	}
}
