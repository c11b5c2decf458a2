package builtins_test

import "testing"

func TestLn(t *testing.T) {
	t.Parallel()
	const why = ": Operation not permitted (llmsh creates no links; cp copies the file)\n"
	const try = "Try 'ln --help' for more information.\n"
	tree := map[string]string{"f": "x", "d/g": "y"}
	same := "d/ d/g=y f=x"
	runTree(t, []treeCase{
		{tree, []string{"ln", "-s", "f", "l"}, "", "ln: failed to create symbolic link 'l'" + why, 1, same},
		{tree, []string{"ln", "f", "hard"}, "", "ln: failed to create hard link 'hard' => 'f'" + why, 1, same},
		{tree, []string{"ln", "-sf", "@OUT@/secret", "l"}, "", "ln: failed to create symbolic link 'l'" + why, 1, same},
		{tree, []string{"ln", "-s", "f", "@OUT@/l"}, "", "ln: failed to create symbolic link '@OUT@/l'" + why, 1, same},
		{tree, []string{"ln", "-s", "/x/it's"}, "", "ln: failed to create symbolic link \"./it's\"" + why, 1, same},
		{tree, []string{"ln", "-s", "f", "a b", "d"}, "", "ln: failed to create symbolic link 'd/f'" + why +
			"ln: failed to create symbolic link 'd/a b'" + why, 1, same},
		{tree, []string{"ln", "-t", "d/", "f"}, "", "ln: failed to create hard link 'd/f' => 'f'" + why, 1, same},
		{tree, []string{"ln", "nope", "d"}, "", "ln: failed to access 'nope': No such file or directory\n", 1, same},
		{tree, []string{"ln", "-s", "f", "d/g"}, "", "ln: failed to create symbolic link 'd/g': File exists\n", 1, same},
		{tree, []string{"ln", "-s", "nope", "d/g"}, "", "ln: failed to create symbolic link 'd/g': File exists\n", 1, same},
		{tree, []string{"ln", "f", "d/g", "f", "d"}, "", "ln: failed to create hard link 'd/f' => 'f'" + why +
			"ln: failed to create hard link 'd/g': File exists\n" + "ln: failed to create hard link 'd/f' => 'f'" + why, 1, same},
		{tree, []string{"ln", "-T", "f", "d"}, "", "ln: failed to create hard link 'd': File exists\n", 1, same},
		{tree, []string{"ln", "d", "e"}, "", "ln: d: hard link not allowed for directory\n", 1, same},
		{tree, []string{"ln", "-d", "d", "e"}, "", "ln: failed to create hard link 'e' => 'd'" + why, 1, same},
		{tree, []string{"ln", "-f", "f", "./f"}, "", "ln: 'f' and './f' are the same file\n", 1, same},
		{tree, []string{"ln", "-sf", "f", "d/g"}, "", "ln: failed to create symbolic link 'd/g'" + why, 1, same},
		{tree, []string{"ln", "-i", "-f", "-s", "f", "d/g"}, "", "ln: failed to create symbolic link 'd/g'" + why, 1, same},
		{tree, []string{"ln", "-sb", "f", "f"}, "", "ln: failed to create symbolic link 'f'" + why, 1, same},
		{tree, []string{"ln", "f", "f", "nod"}, "", "ln: target 'nod': No such file or directory\n", 1, same},
		{tree, []string{"ln", "f", "f", "f"}, "", "ln: target 'f': Not a directory\n", 1, same},
		{tree, []string{"ln", "-t", "f", "f"}, "", "ln: target 'f' is not a directory\n", 1, same},
		{tree, []string{"ln", "-t", "nod", "f"}, "", "ln: failed to access 'nod': No such file or directory\n", 1, same},
		{tree, []string{"ln", "-T", "-t", "d", "f"}, "", "ln: cannot combine --target-directory and --no-target-directory\n", 1, same},
		{tree, []string{"ln", "-r", "f", "l"}, "", "ln: cannot do --relative without --symbolic\n", 1, same},
		{tree, []string{"ln", "-T", "f"}, "", "ln: missing destination file operand after 'f'\n" + try, 1, same},
		{tree, []string{"ln", "-T", "f", "d", "e"}, "", "ln: extra operand 'e'\n" + try, 1, same},
		{tree, []string{"ln"}, "", "ln: missing file operand\n" + try, 1, same},
		{tree, []string{"ln", "--bogus"}, "", "ln: unrecognized option '--bogus'\n" + try, 1, same},
	})
	if r := runCmd(t, nil, "", "ln", "--help"); r.status != 0 || r.stderr != "" || r.stdout == "" {
		t.Errorf("ln --help: %+v", r)
	}
}
