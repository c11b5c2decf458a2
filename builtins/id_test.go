package builtins_test

import "testing"

// Message shapes and option rules checked against GNU id and whoami 9.1
// (LC_ALL=C); the identity itself is llmsh's virtual user.
func TestIDWhoami(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"id"}, "", "uid=1000(llmsh) gid=1000(llmsh) groups=1000(llmsh)\n", "", 0},
		{nil, []string{"id", "-a", "llmsh"}, "", "uid=1000(llmsh) gid=1000(llmsh) groups=1000(llmsh)\n", "", 0},
		{nil, []string{"id", "-u"}, "", "1000\n", "", 0},
		{nil, []string{"id", "-un"}, "", "llmsh\n", "", 0},
		{nil, []string{"id", "-g"}, "", "1000\n", "", 0},
		{nil, []string{"id", "-Gn"}, "", "llmsh\n", "", 0},
		{nil, []string{"id", "-ru"}, "", "1000\n", "", 0},
		{nil, []string{"id", "-uz"}, "", "1000\x00", "", 0},
		{nil, []string{"id", "-u", "1000"}, "", "1000\n", "", 0},
		{nil, []string{"id", "root"}, "", "", "id: 'root': no such user\n", 1},
		{nil, []string{"id", "-u", "llmsh", "root"}, "", "1000\n", "id: 'root': no such user\n", 1},
		{nil, []string{"id", "-n"}, "", "", "id: cannot print only names or real IDs in default format\n", 1},
		{nil, []string{"id", "-u", "-g"}, "", "", "id: cannot print \"only\" of more than one choice\n", 1},
		{nil, []string{"id", "-z"}, "", "", "id: option --zero not permitted in default format\n", 1},
		{nil, []string{"id", "-x"}, "", "", "id: invalid option -- 'x'\nTry 'id --help' for more information.\n", 1},
		{nil, []string{"whoami"}, "", "llmsh\n", "", 0},
		{nil, []string{"whoami", "x"}, "", "", "whoami: extra operand 'x'\nTry 'whoami --help' for more information.\n", 1},
	})
}
