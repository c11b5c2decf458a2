package builtins

import (
	"os"
	"path/filepath"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 realpath and readlink
// (LC_ALL=C) on trees without symbolic links; @DIR@ is the working
// directory.
func TestRealpath(t *testing.T) {
	tree := map[string]string{"f": "x", "d/g": "y"}
	ftRun(t, []ftCase{
		{tree, []string{"realpath", "f", "d/../f", "nope", "d/"}, "@DIR@/f\n@DIR@/f\n@DIR@/nope\n@DIR@/d\n", "", 0, "-"},
		{tree, []string{"realpath", "a/b", "f/x", "f"}, "@DIR@/f\n", "realpath: a/b: No such file or directory\nrealpath: f/x: Not a directory\n", 1, "-"},
		{tree, []string{"realpath", "-e", "nope"}, "", "realpath: nope: No such file or directory\n", 1, "-"},
		{tree, []string{"realpath", "-m", "a/b/../c"}, "@DIR@/a/c\n", "", 0, "-"},
		{tree, []string{"realpath", "-q", "a/b"}, "", "", 1, "-"},
		{tree, []string{"realpath", "--relative-to=d", "f", "d/g", "."}, "../f\ng\n..\n", "", 0, "-"},
		{tree, []string{"realpath", "-z", "f"}, "@DIR@/f\x00", "", 0, "-"},
		{tree, []string{"realpath", ""}, "", "realpath: '': No such file or directory\n", 1, "-"},
		{tree, []string{"realpath", "-e", "a b"}, "", "realpath: 'a b': No such file or directory\n", 1, "-"},
		{tree, []string{"realpath"}, "", "realpath: missing operand\nTry 'realpath --help' for more information.\n", 1, "-"},
		{tree, []string{"realpath", "/"}, "/\n", "", 0, "-"},
		// Outside the granted tree: refused, whatever the host holds.
		{tree, []string{"realpath", "@OUT@/secret"}, "", "realpath: @OUT@/secret: Permission denied\n", 1, "-"},
		{tree, []string{"realpath", "-e", "@OUT@/nothing"}, "", "realpath: @OUT@/nothing: Permission denied\n", 1, "-"},
		{tree, []string{"realpath", "-m", "@OUT@/x/../y"}, "@OUT@/y\n", "", 0, "-"},

		{tree, []string{"readlink", "-f", "nope", "a/b", "f"}, "@DIR@/nope\n@DIR@/f\n", "", 1, "-"},
		{tree, []string{"readlink", "-e", "nope"}, "", "", 1, "-"},
		{tree, []string{"readlink", "-ev", "nope"}, "", "readlink: nope: No such file or directory\n", 1, "-"},
		{tree, []string{"readlink", "-m", "x/../y"}, "@DIR@/y\n", "", 0, "-"},
		{tree, []string{"readlink", "-fn", "f"}, "@DIR@/f", "", 0, "-"},
		{tree, []string{"readlink", "f"}, "", "", 1, "-"},
		{tree, []string{"readlink", "-v", "f"}, "", "readlink: f: Invalid argument\n", 1, "-"},
		{tree, []string{"readlink"}, "", "readlink: missing operand\nTry 'readlink --help' for more information.\n", 1, "-"},
		{tree, []string{"readlink", "-fv", "@OUT@/secret"}, "", "readlink: @OUT@/secret: Permission denied\n", 1, "-"},
	})
}

func TestReadlinkLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("target", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	r := runCmdIn(t, dir, "readlink", "l")
	if r.status != 1 || r.stdout != "" || r.stderr != "readlink: l: reading the target of a symbolic link is not supported in llmsh\n" {
		t.Errorf("readlink l: %+v", r)
	}
}
