package shell_test

import (
	"testing"

	. "github.com/llmsh/llmsh/shell"
)

// TestPrintfRouting checks that a script's printf (also through command
// and builtin) is llmsh's bash-compatible builtin, that a function named
// printf still wins, and that %(FMT)T sees the script's TZ. The expected
// output is bash 5.2.15's for the same script on this machine.
func TestPrintfRouting(t *testing.T) {
	src := `printf '%X|%5.1f|%q\n' 255 2.25 'a b'
printf -- '--- x\n'
command printf '%#o\n' 8
builtin printf '%d\n' "'A"
printf() { echo "fn:$1"; }
printf '%s\n' y
unset -f printf
TZ=JST-9; export TZ
printf '%(%H %Z)T\n' 0
printf '%d\n' abc; echo "rc=$?"
printf '%s,' a b | tr , ';'; echo
`
	out, errs, st := run(t, t.TempDir(), src, Limits{})
	want := "FF|  2.2|a\\ b\n--- x\n010\n65\nfn:%s\\n\n09 JST\n0\nrc=1\na;b;\n"
	if out != want || errs != "llmsh: line 10: printf: abc: invalid number\n" || st != 0 {
		t.Errorf("got %q %q %d\nwant %q", out, errs, st, want)
	}
}
