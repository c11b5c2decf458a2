package shell_test

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/llmsh/llmsh/shell"
)

// TestTestEfIdentity: test/[ and [[ ]] answer -ef by vfsd's file identity,
// so a hard link and a symbolic link are the same file as their target,
// as in bash (checked against bash 5.2 on the same tree).
func TestTestEfIdentity(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a", "b"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(dir, "a"), filepath.Join(dir, "hard")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(dir, "sym")); err != nil {
		t.Fatal(err)
	}
	src := `for p in "a hard" "a sym" "hard sym" "a b" "a nosuch" "a ./a"; do set -- $p; test "$1" -ef "$2"; r1=$?; [[ $1 -ef $2 ]]; echo "$p $r1 $?"; done`
	want := "a hard 0 0\na sym 0 0\nhard sym 0 0\na b 1 1\na nosuch 1 1\na ./a 0 0\n"
	out, errs, st := run(t, dir, src, Limits{})
	if out != want || errs != "" || st != 0 {
		t.Errorf("got %q %q %d, want %q", out, errs, st, want)
	}
}
