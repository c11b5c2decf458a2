package builtins_test

import "testing"

func TestLn(t *testing.T) {
	t.Parallel()
	const refused = "ln: links are not supported in llmsh\n"
	tree := map[string]string{"f": "x"}
	runTree(t, []treeCase{
		{tree, []string{"ln", "-s", "f", "l"}, "", refused, 1, "f=x"},
		{tree, []string{"ln", "f", "hard"}, "", refused, 1, "f=x"},
		{tree, []string{"ln", "-sf", "@OUT@/secret", "l"}, "", refused, 1, "f=x"},
		{tree, []string{"ln", "-s", "f", "@OUT@/l"}, "", refused, 1, "f=x"},
		{tree, []string{"ln"}, "", refused, 1, "f=x"},
		{tree, []string{"ln", "--bogus"}, "", "ln: unrecognized option '--bogus'\nTry 'ln --help' for more information.\n", 1, "f=x"},
	})
	if r := runCmd(t, nil, "", "ln", "--help"); r.status != 0 || r.stderr != "" || r.stdout == "" {
		t.Errorf("ln --help: %+v", r)
	}
}
