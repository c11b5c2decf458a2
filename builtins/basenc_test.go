package builtins_test

import "testing"

// Expected values checked against GNU base32 and basenc 9.1 (LC_ALL=C).
func TestBasenc(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"base32"}, "hello", "NBSWY3DP\n", "", 0},
		{nil, []string{"base32", "-w", "4"}, "hello world", "NBSW\nY3DP\nEB3W\n64TM\nMQ==\n====\n", "", 0},
		{nil, []string{"base32", "-d"}, "NBSWY3DP", "hello", "", 0},
		{nil, []string{"base32", "-d"}, "NBSWY3DPEB3W64TMMQ======\n", "hello world", "", 0},
		{nil, []string{"base32", "-d"}, "NBSWY===", "hel", "", 0},
		{nil, []string{"base32", "-d"}, "NBSWY3D=", "hell", "", 0},
		// A short last block gives nothing; a bad byte keeps what its
		// block decoded before it.
		{nil, []string{"base32", "-d"}, "NBSWY3DPNB", "hello", "base32: invalid input\n", 1},
		{nil, []string{"base32", "-d"}, "NBSW", "", "base32: invalid input\n", 1},
		{nil, []string{"base32", "-d"}, "NBSWY3DP===", "hello", "base32: invalid input\n", 1},
		{nil, []string{"base32", "-d"}, "NBSWY3D!", "hell", "base32: invalid input\n", 1},
		{nil, []string{"base32", "-d"}, "NBSW!Y3DP", "he", "base32: invalid input\n", 1},
		{nil, []string{"base32", "-di"}, "NBSW!Y3DP", "hello", "", 0},
		{nil, []string{"basenc", "--base16"}, "hello world", "68656C6C6F20776F726C64\n", "", 0},
		{nil, []string{"basenc", "--base16", "-d"}, "68656c6c6f", "he", "basenc: invalid input\n", 1},
		{nil, []string{"basenc", "--base16", "-d"}, "68656C6C6F\n", "hello", "", 0},
		{nil, []string{"basenc", "--base16", "-d"}, "686", "h", "basenc: invalid input\n", 1},
		{nil, []string{"basenc", "--base2msbf"}, "hello", "0110100001100101011011000110110001101111\n", "", 0},
		{nil, []string{"basenc", "--base2lsbf"}, "hello", "0001011010100110001101100011011011110110\n", "", 0},
		{nil, []string{"basenc", "--base2lsbf", "-d"}, "0001011010100110", "he", "", 0},
		{nil, []string{"basenc", "--base2msbf", "-d"}, "0110100", "", "basenc: invalid input\n", 1},
		{nil, []string{"basenc", "--base32hex"}, "hello", "D1IMOR3F\n", "", 0},
		{nil, []string{"basenc", "--base64url"}, "hello?", "aGVsbG8_\n", "", 0},
		{nil, []string{"basenc", "--base64url", "-d"}, "aGVsbG8_", "hello?", "", 0},
		{nil, []string{"basenc", "--base64"}, "hello", "aGVsbG8=\n", "", 0},
		{nil, []string{"basenc"}, "", "", "basenc: missing encoding type\nTry 'basenc --help' for more information.\n", 1},
		{nil, []string{"basenc", "--base32", "--base16"}, "", "", "", 0},
		{nil, []string{"basenc", "--z85"}, "\x86\x4f\xd2\x6f\xb5\x59\xf7\x5b", "HelloWorld\n", "", 0},
		{nil, []string{"basenc", "--z85"}, "\xff\xff\xff\xff", "%nSc0\n", "", 0},
		{nil, []string{"basenc", "--z85"}, "abcdefghi", "", "basenc: invalid input (length must be multiple of 4 characters)\n", 1},
		{nil, []string{"basenc", "--z85", "-d"}, "vpA.S\nvpA.S\n", "abcdabcd", "", 0},
		{nil, []string{"basenc", "--z85", "-d"}, "vpA.Svp", "abcd", "basenc: invalid input\n", 1},
		{nil, []string{"basenc", "--z85", "-d"}, "vpA.S#####vpA.S", "abcd", "basenc: invalid input\n", 1},
		{nil, []string{"basenc", "--z85", "-d"}, "vp A.S", "", "basenc: invalid input\n", 1},
		{nil, []string{"basenc", "--z85", "-di"}, "vp~A.S", "abcd", "", 0},
	})
}
