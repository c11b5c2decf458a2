package builtins_test

import "testing"

// Expected values: glibc 2.36's getent (Debian 12) on a system whose
// databases hold llmsh's one user and group and no other /etc file.
func TestGetent(t *testing.T) {
	t.Parallel()
	const user = "llmsh:x:1000:1000::/home/llmsh:llmsh\n"
	const try = "Try `getent --help' or `getent --usage' for more information.\n"
	runLines(t, []linesCase{
		{nil, []string{"getent", "passwd"}, "", user, "", 0},
		{nil, []string{"getent", "passwd", "llmsh", "1000", "root", "+1000", "0x3e8", ""}, "", user + user + user, "", 2},
		{nil, []string{"getent", "group", "1000", "llmsh"}, "", "llmsh:x:1000:\nllmsh:x:1000:\n", "", 0},
		{nil, []string{"getent", "group", "root"}, "", "", "", 2},
		{nil, []string{"getent", "initgroups", "llmsh", "x"}, "", "llmsh                \nx                    \n", "", 0},
		{nil, []string{"getent", "initgroups"}, "", "Enumeration not supported on initgroups\n", "", 3},
		{nil, []string{"getent", "netgroup"}, "", "Enumeration not supported on netgroup\n", "", 3},
		{nil, []string{"getent", "hosts"}, "", "", "", 0},
		{nil, []string{"getent", "hosts", "localhost"}, "", "", "", 2},
		{nil, []string{"getent", "ahostsv4", "llmsh"}, "", "", "", 2},
		{nil, []string{"getent", "services", "22"}, "", "", "", 2},
		{nil, []string{"getent", "shadow", "llmsh"}, "", "", "", 2},
		{nil, []string{"getent", "-s", "bogus", "passwd", "llmsh"}, "", "", "", 2},
		{nil, []string{"getent", "-s", "group:bogus", "passwd", "llmsh"}, "", user, "", 0},
		{nil, []string{"getent", "-s", "files:x", "passwd"}, "", "", "getent: Unknown database name\n", 1},
		{nil, []string{"getent"}, "", "", "getent: wrong number of arguments\n" + try, 1},
		{nil, []string{"getent", "PASSWD"}, "", "", "Unknown database: PASSWD\n" + try, 1},
		{nil, []string{"getent", "-x", "passwd"}, "", "", "getent: invalid option -- 'x'\n" + try, 64},
		{nil, []string{"getent", "--no", "passwd"}, "", "", "getent: option '--no' is ambiguous; possibilities: '--no-idn' '--no-addrconfig'\n" + try, 64},
		{nil, []string{"getent", "--usage"}, "", "Usage: getent [-Ai?V] [-s CONFIG] [--no-addrconfig] [--no-idn]\n            [--service=CONFIG] [--help] [--usage] [--version]\n            database [key ...]\n", "", 0},
	})
}
