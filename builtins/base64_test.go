package builtins_test

import "testing"

// Expected values checked against GNU base64 9.1 (LC_ALL=C).
func TestBase64(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"base64"}, "", "", "", 0},
		{nil, []string{"base64"}, "hello", "aGVsbG8=\n", "", 0},
		{nil, []string{"base64"}, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4\neHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4\neHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4\neHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHg=\n", "", 0},
		{nil, []string{"base64", "-w", "10"}, "hello world, hello", "aGVsbG8gd2\n9ybGQsIGhl\nbGxv\n", "", 0},
		{nil, []string{"base64", "-w0"}, "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", "eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eQ==", "", 0},
		{nil, []string{"base64", "-w", "x"}, "", "", "base64: invalid wrap size: 'x'\n", 1},
		{nil, []string{"base64", "-w", "-1"}, "", "", "base64: invalid wrap size: '-1'\n", 1},
		{nil, []string{"base64", "-d"}, "aGVsbG8=\n", "hello", "", 0},
		{nil, []string{"base64", "-d"}, "aGVs\nbG8=", "hello", "", 0},
		{nil, []string{"base64", "-d"}, "aGVsbG8", "hello", "base64: invalid input\n", 1},
		{nil, []string{"base64", "-d"}, "aGVs*bG8=", "hel", "base64: invalid input\n", 1},
		// The incomplete group before a bad byte is decoded too (GNU 9.1).
		{nil, []string{"base64", "-d"}, "one two", "\xa2w", "base64: invalid input\n", 1},
		{nil, []string{"base64", "-d"}, "aG @", "h", "base64: invalid input\n", 1},
		{nil, []string{"base64", "-d"}, "a @", "", "base64: invalid input\n", 1},
		{nil, []string{"base64", "-di"}, "aGVs*bG8=", "hello", "", 0},
		{nil, []string{"base64", "--decode"}, "", "", "", 0},
		{nil, []string{"base64", "-d"}, "aGVsbG8=aGk=", "hellohi", "", 0},
		{nil, []string{"base64"}, "\x00\xff\xfe", "AP/+\n", "", 0},
		{nil, []string{"base64", "a", "b"}, "", "", "base64: extra operand 'b'\nTry 'base64 --help' for more information.\n", 1},
		{nil, []string{"base64", "-d"}, "aGk=\n\n", "hi", "", 0},
	})
}
