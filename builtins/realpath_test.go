package builtins_test

import (
	"strings"
	"testing"
)

// Expected values checked against GNU coreutils 9.1 realpath and readlink
// (LC_ALL=C) on trees without symbolic links; @DIR@ is the working
// directory.
func TestRealpath(t *testing.T) {
	t.Parallel()
	tree := map[string]string{"f": "x", "d/g": "y"}
	runTree(t, []treeCase{
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
		{tree, []string{"realpath", "@OUT@/secret"}, "", "realpath: @OUT@/secret: No such file or directory\n", 1, "-"},
		{tree, []string{"realpath", "-e", "@OUT@/nothing"}, "", "realpath: @OUT@/nothing: No such file or directory\n", 1, "-"},
		{tree, []string{"realpath", "-m", "@OUT@/x/../y"}, "@OUT@/y\n", "", 0, "-"},

		{tree, []string{"readlink", "-f", "nope", "a/b", "f"}, "@DIR@/nope\n@DIR@/f\n", "", 1, "-"},
		{tree, []string{"readlink", "-e", "nope"}, "", "", 1, "-"},
		{tree, []string{"readlink", "-ev", "nope"}, "", "readlink: nope: No such file or directory\n", 1, "-"},
		{tree, []string{"readlink", "-m", "x/../y"}, "@DIR@/y\n", "", 0, "-"},
		{tree, []string{"readlink", "-fn", "f"}, "@DIR@/f", "", 0, "-"},
		{tree, []string{"readlink", "f"}, "", "", 1, "-"},
		{tree, []string{"readlink", "-v", "f"}, "", "readlink: f: Invalid argument\n", 1, "-"},
		{tree, []string{"readlink"}, "", "readlink: missing operand\nTry 'readlink --help' for more information.\n", 1, "-"},
		{tree, []string{"readlink", "-fv", "@OUT@/secret"}, "", "readlink: @OUT@/secret: No such file or directory\n", 1, "-"},
	})
}

// TestReadlinkLinks: readlink prints a link's text and -f/-e/-m and
// realpath resolve through links inside the grant. Expected output
// checked against GNU coreutils 9.1 readlink and realpath on the same
// tree (LC_ALL=C); @DIR@ is the working directory. A link that leaves
// the grant is printed as its text but cannot be resolved (GNU would
// go on into the host).
func TestReadlinkLinks(t *testing.T) {
	t.Parallel()
	dir := linkTree(t, map[string]string{"chain": "lf", "loop1": "loop2", "loop2": "loop1",
		"rel": "d/s/../f", "sub": "ld/s", "abs": "/etc/passwd", "esc": "../x"})
	cases := []struct {
		args           []string
		stdout, stderr string
		status         int
	}{
		{[]string{"readlink", "lf", "ld", "chain", "abs", "esc"}, "d/f\nd\nlf\n/etc/passwd\n../x\n", "", 0},
		{[]string{"readlink", "top"}, "", "", 1},
		{[]string{"readlink", "-v", "top", "d", "nope"}, "", "readlink: top: Invalid argument\nreadlink: d: Invalid argument\nreadlink: nope: No such file or directory\n", 1},
		{[]string{"readlink", "lf/"}, "", "", 1},
		{[]string{"readlink", "ld/"}, "", "", 1},
		{[]string{"readlink", "-z", "lf"}, "d/f\x00", "", 0},
		{[]string{"readlink", "-f", "chain", "ld/s/g", "ldangle", "loop1", "rel", "sub/..", "ld/.."}, "@DIR@/d/f\n@DIR@/d/s/g\n@DIR@/nowhere\n@DIR@/d/f\n@DIR@/d\n@DIR@\n", "", 1},
		{[]string{"readlink", "-e", "ldangle"}, "", "", 1},
		{[]string{"readlink", "-ve", "ldangle", "loop1"}, "", "readlink: ldangle: No such file or directory\nreadlink: loop1: Too many levels of symbolic links\n", 1},
		{[]string{"readlink", "-m", "ldangle/x/../y", "loop1/z"}, "@DIR@/nowhere/y\n@DIR@/loop1/z\n", "", 0},
		{[]string{"realpath", "chain", "sub/..", "ld/..", "loop1"}, "@DIR@/d/f\n@DIR@/d\n@DIR@\n", "realpath: loop1: Too many levels of symbolic links\n", 1},
		{[]string{"realpath", "-s", "chain", "sub/.."}, "@DIR@/chain\n@DIR@\n", "", 0},
		{[]string{"realpath", "-L", "sub/.."}, "@DIR@\n", "", 0},
		{[]string{"realpath", "-LP", "sub/.."}, "@DIR@/d\n", "", 0},
		{[]string{"realpath", "-PL", "sub/.."}, "@DIR@\n", "", 0},
		{[]string{"realpath", "--relative-to=ld", "lf"}, "f\n", "", 0},
		// Leaving the grant: refused, whatever the host has there.
		{[]string{"realpath", "-e", "esc"}, "", "realpath: esc: Permission denied\n", 1},
	}
	for _, tc := range cases {
		r := runCmdIn(t, dir, tc.args...)
		want := strings.ReplaceAll(tc.stdout, "@DIR@", dir)
		if r.stdout != want || r.stderr != tc.stderr || r.status != tc.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", tc.args, r.stdout, r.stderr, r.status, want, tc.stderr, tc.status)
		}
	}
}
