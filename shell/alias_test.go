package shell_test

import (
	"context"
	"testing"

	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestAliasesAtPrompt: at the prompt (expand_aliases on), each line is
// read with the aliases defined before it, as interactive bash reads it:
// an alias defined on a line does not apply later on that line, one
// removed on a line still does, and one named as a reserved word makes
// the line a syntax error.
func TestAliasesAtPrompt(t *testing.T) {
	dir := t.TempDir()
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	sh, out, errb := newTestShell(t, c, dir)
	ctx := context.Background()
	sh.SetAtPrompt(true)
	for _, line := range []string{
		"shopt -s expand_aliases",
		"alias e='echo E'; e 1 2>/dev/null || echo none",
		"e 2\ne 3",
		"unalias e; e 4",
		"e 5 2>/dev/null || echo gone",
		"alias s='echo S '; alias w=W", "s w w",
	} {
		sh.RunInteractive(ctx, line)
	}
	if want := "none\nE 2\nE 3\nE 4\ngone\nS W w\n"; out.String() != want {
		t.Errorf("stdout %q, want %q (stderr %q)", out.String(), want, errb.String())
	}
	sh.RunInteractive(ctx, "alias for='echo FOR'")
	st, err := sh.RunInteractive(ctx, "for x in 1; do echo body; done")
	if st != 2 || err == nil {
		t.Errorf("alias for: status %d, error %v", st, err)
	}
}
