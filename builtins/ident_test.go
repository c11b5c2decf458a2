package builtins_test

import "testing"

// TestVirtualIdentity: groups, logname, arch, hostid and getconf give llmsh's fixed
// identity (never the host's), with GNU's messages and statuses.
func TestVirtualIdentity(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args           []string
		stdout, stderr string
		status         int
	}{
		{[]string{"groups"}, "llmsh\n", "", 0},
		{[]string{"groups", "llmsh", "root", "llmsh"}, "llmsh : llmsh\nllmsh : llmsh\n", "groups: 'root': no such user\n", 1},
		{[]string{"logname"}, "llmsh\n", "", 0},
		{[]string{"logname", "x"}, "", "logname: extra operand 'x'\nTry 'logname --help' for more information.\n", 1},
		{[]string{"arch"}, "x86_64\n", "", 0},
		{[]string{"hostid"}, "007f0101\n", "", 0},
		{[]string{"hostid", "1"}, "", "hostid: extra operand '1'\nTry 'hostid --help' for more information.\n", 1},
		{[]string{"getconf", "_NPROCESSORS_ONLN"}, "1\n", "", 0},
		{[]string{"getconf", "-v", "POSIX_V7_LP64_OFF64", "ARG_MAX"}, "2097152\n", "", 0},
		{[]string{"getconf", "NPROCESSORS_ONLN"}, "", "getconf: Unrecognized variable `NPROCESSORS_ONLN'\n", 2},
		{[]string{"getconf", "NAME_MAX"}, "", getconfUsage, 2},
		{[]string{"getconf", "PATH_MAX", "/nonexist"}, "4096\n", "", 0},
		{[]string{"factor", "0", "1", "+12", "18446744073709551617"}, "0:\n1:\n12: 2 2 3\n18446744073709551617: 274177 67280421310721\n", "", 0},
		{[]string{"factor", "-1"}, "", "factor: invalid option -- '1'\nTry 'factor --help' for more information.\n", 1},
	} {
		r := runCmd(t, nil, "", tc.args...)
		if r.stdout != tc.stdout || r.stderr != tc.stderr || r.status != tc.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", tc.args, r.stdout, r.stderr, r.status, tc.stdout, tc.stderr, tc.status)
		}
	}
}
