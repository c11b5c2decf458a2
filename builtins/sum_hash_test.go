package builtins_test

import "testing"

// Expected values checked against GNU md5sum/sha*sum 9.1 (LC_ALL=C).
func TestSumHash(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"md5sum"}, "hello\n", "b1946ac92492d2347c6235b4d2611184  -\n", "", 0},
		{nil, []string{"sha1sum"}, "", "da39a3ee5e6b4b0d3255bfef95601890afd80709  -\n", "", 0},
		{nil, []string{"sha256sum"}, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n", "", 0},
		{nil, []string{"sha512sum", "-"}, "x", "a4abd4448c49562d828115d13a1fccea927f52b4d5459297f8b43e42da89238bc13626e43dcb38ddb082488927ec904fb42057443983e88585179d50551afe62  -\n", "", 0},
		{nil, []string{"sha256sum", "--tag"}, "x", "SHA256 (-) = 2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881\n", "", 0},
		{nil, []string{"md5sum", "-z"}, "x", "9dd4e461268c8034f5c8564e155c67a6  -\x00", "", 0},
		{nil, []string{"sha224sum"}, "x", "54a2f7f92a5f975d8096af77a126edda7da60c5aa872ef1b871701ae  -\n", "", 0},
		{nil, []string{"sha384sum", "-t"}, "x", "d752c2c51fba0e29aa190570a9d4253e44077a058d3297fa3a5630d5bd012622f97c28acaed313b5c83bb990caa7da85  -\n", "", 0},
		{nil, []string{"md5sum", "-x"}, "", "", "md5sum: invalid option -- 'x'\nTry 'md5sum --help' for more information.\n", 1},
	})
}
