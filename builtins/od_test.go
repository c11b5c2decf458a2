package builtins_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// Every expected value below was produced by GNU coreutils 9.1 od (amd64,
// LC_ALL=C) on the same input and arguments.
func TestOd(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"hello, world\n", []string{"od"}, "0000000 062550 066154 026157 073440 071157 062154 000012\n0000015\n", "", 0},
		{"hello, world\n", []string{"od", "-c"}, "0000000   h   e   l   l   o   ,       w   o   r   l   d  \\n\n0000015\n", "", 0},
		{"hello, world\n", []string{"od", "-An", "-tx1"}, " 68 65 6c 6c 6f 2c 20 77 6f 72 6c 64 0a\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-c"}, "0000000  \\0 001 177 200 377  \\n  \\t  \\r  \\b  \\a  \\f  \\v       a   b   c\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-a"}, "0000000 nul soh del nul del  nl  ht  cr  bs bel  ff  vt  sp   a   b   c\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-b"}, "0000000 000 001 177 200 377 012 011 015 010 007 014 013 040 141 142 143\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-d"}, "0000000   256 32895  2815  3337  1800  2828 24864 25442\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-o"}, "0000000 000400 100177 005377 006411 003410 005414 060440 061542\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-x"}, "0000000 0100 807f 0aff 0d09 0708 0b0c 6120 6362\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-s"}, "0000000    256 -32641   2815   3337   1800   2828  24864  25442\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-i"}, "0000000 -2139160320   218696447   185337608  1667391776\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-l"}, "0000000   939294089772204288  7161393147724695304\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-tx1z"}, "0000000 00 01 7f 80 ff 0a 09 0d 08 07 0c 0b 20 61 62 63  >............ abc<\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-tx1", "-tc", "-ta"}, "0000000  00  01  7f  80  ff  0a  09  0d  08  07  0c  0b  20  61  62  63\n         \\0 001 177 200 377  \\n  \\t  \\r  \\b  \\a  \\f  \\v       a   b   c\n        nul soh del nul del  nl  ht  cr  bs bel  ff  vt  sp   a   b   c\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-td1", "-tu1", "-to1"}, "0000000    0    1  127 -128   -1   10    9   13    8    7   12   11   32   97   98   99\n           0    1  127  128  255   10    9   13    8    7   12   11   32   97   98   99\n         000  001  177  200  377  012  011  015  010  007  014  013  040  141  142  143\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-td2", "-tu2z", "-to2", "-tx2"}, "0000000    256 -32641   2815   3337   1800   2828  24864  25442\n           256  32895   2815   3337   1800   2828  24864  25442  >............ abc<\n        000400 100177 005377 006411 003410 005414 060440 061542\n          0100   807f   0aff   0d09   0708   0b0c   6120   6362\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-td4", "-tu4", "-to4", "-tx4"}, "0000000 -2139160320   218696447   185337608  1667391776\n         2155806976   218696447   185337608  1667391776\n        20037600400 01502205377 01303003410 14330460440\n           807f0100    0d090aff    0b0c0708    63626120\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-td8", "-tu8", "-to8", "-tx8z"}, "0000000     939294089772204288    7161393147724695304\n            939294089772204288    7161393147724695304\n        0064110257760037600400 0615423022001303003410\n              0d090aff807f0100       636261200b0c0708  >............ abc<\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "-tdCz", "-tuS", "-toI", "-txL"}, "0000000    0    1  127 -128   -1   10    9   13    8    7   12   11   32   97   98   99  >............ abc<\n              256     32895      2815      3337      1800      2828     24864     25442\n                20037600400         01502205377         01303003410         14330460440\n                               0d090aff807f0100                        636261200b0c0708\n0000020\n", "", 0},
		{"\x00\x01\x7f\x80\xff\n\t\x0d\b\x07\x0c\x0b abc", []string{"od", "--endian=big", "-tx2", "-td4"}, "0000000  0001  7f80  ff0a  090d  0807  0c0b  2061  6263\n              98176   -16119539   134679563   543253091\n0000020\n", "", 0},
		{"\x00\x00\x80?\x00\x00\x00\x00\x00\x00\xf0?\xff\xff\x7f\x7f\x01\x00\x00\x00\x00\x00\xc0\xff", []string{"od", "-tf4"}, "0000000               1               0           1.875   3.4028235e+38\n0000020           1e-45            -nan\n0000030\n", "", 0},
		{"\x00\x00\x80?\x00\x00\x00\x00\x00\x00\xf0?\xff\xff\x7f\x7f\x01\x00\x00\x00\x00\x00\xc0\xff", []string{"od", "-tf8"}, "0000000         5.263544247e-315  1.4044472591780254e+306\n0000020 -2.2471164185778954e+307\n0000030\n", "", 0},
		{"\x00\x00\x80?\x00\x00\x00\x00\x00\x00\xf0?\xff\xff\x7f\x7f\x01\x00\x00\x00\x00\x00\xc0\xff", []string{"od", "-tfL"}, "0000000             3.883425044e-4942\n0000020    3.355536535410702699e-4932\n0000030\n", "", 0},
		{"\x00\x00\x80?\x00\x00\x00\x00\x00\x00\xf0?\xff\xff\x7f\x7f\x01\x00\x00\x00\x00\x00\xc0\xff", []string{"od", "-f", "-F"}, "0000000               1               0           1.875   3.4028235e+38\n                       5.263544247e-315         1.4044472591780254e+306\n0000020           1e-45            -nan\n               -2.2471164185778954e+307\n0000030\n", "", 0},
		{"\x00\x00\x80\x7f\x00\x00\x80\xff\x00\x00\xc0\x7f\xcd\xcc\xcc=\x00\x00\x00\x00\x00\x00\x00\x80\x9a\x99\x99\x99\x99\x99\xb9?", []string{"od", "-tf4", "-tf8"}, "0000000             inf            -inf             nan             0.1\n                -1.404448428688076e+306           5.238691422391854e-11\n0000020               0              -0  -1.5881868e-23       1.4499999\n                                     -0                             0.1\n0000040\n", "", 0},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefxyz", []string{"od", "-c"}, "0000000   0   1   2   3   4   5   6   7   8   9   a   b   c   d   e   f\n*\n0000100   x   y   z\n0000103\n", "", 0},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefxyz", []string{"od", "-v", "-c"}, "0000000   0   1   2   3   4   5   6   7   8   9   a   b   c   d   e   f\n0000020   0   1   2   3   4   5   6   7   8   9   a   b   c   d   e   f\n0000040   0   1   2   3   4   5   6   7   8   9   a   b   c   d   e   f\n0000060   0   1   2   3   4   5   6   7   8   9   a   b   c   d   e   f\n0000100   x   y   z\n0000103\n", "", 0},
		{"0123456789abcdef0123456789abcdef0123456789abcdeX0123456789abcdef0123456789abcdef0123456789abcdef", []string{"od", "-An", "-tx1"}, " 30 31 32 33 34 35 36 37 38 39 61 62 63 64 65 66\n*\n 30 31 32 33 34 35 36 37 38 39 61 62 63 64 65 58\n 30 31 32 33 34 35 36 37 38 39 61 62 63 64 65 66\n*\n", "", 0},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", []string{"od", "-w8", "-c"}, "0000000   0   1   2   3   4   5   6   7\n0000010   8   9   a   b   c   d   e   f\n0000020   0   1   2   3   4   5   6   7\n0000030   8   9   a   b   c   d   e   f\n0000040   0   1   2   3   4   5   6   7\n0000050   8   9   a   b   c   d   e   f\n0000060   0   1   2   3   4   5   6   7\n0000070   8   9   a   b   c   d   e   f\n0000100\n", "", 0},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", []string{"od", "-w", "-tx4"}, "0000000 33323130 37363534 62613938 66656463 33323130 37363534 62613938 66656463\n*\n0000100\n", "", 0},
		{"0123456789abcdef", []string{"od", "-w5", "-tx2"}, "0000000 3130\n0000002 3332\n0000004 3534\n0000006 3736\n0000010 3938\n0000012 6261\n0000014 6463\n0000016 6665\n0000020\n", "od: warning: invalid width 5; using 2 instead\n", 0},
		{"0123456789abcdef", []string{"od", "-w0"}, "0000000 030460\n0000002 031462\n0000004 032464\n0000006 033466\n0000010 034470\n0000012 061141\n0000014 062143\n0000016 063145\n0000020\n", "od: warning: invalid width 0; using 2 instead\n", 0},
		{"0123456789abcdef", []string{"od", "-w12", "-tx4", "-tc"}, "0000000        33323130        37363534        62613938\n          0   1   2   3   4   5   6   7   8   9   a   b\n0000014        66656463\n          c   d   e   f\n0000020\n", "", 0},
		{"0123456789abcdef", []string{"od", "-Ad", "-j3", "-N5", "-c"}, "0000003   3   4   5   6   7\n0000008\n", "", 0},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", []string{"od", "-Ax", "-j", "1K", "-c"}, "000400\n", "", 0},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", []string{"od", "-Ax", "-j", "0x3f0", "-N", "0x8", "-c"}, "0003f0   0   1   2   3   4   5   6   7\n0003f8\n", "", 0},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", []string{"od", "-Ao", "-j", "1b", "-N", "010", "-c"}, "0001000   0   1   2   3   4   5   6   7\n0001010\n", "", 0},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", []string{"od", "-j", "1KB", "-N", "2", "-c"}, "0001750   8   9\n0001752\n", "", 0},
		{"0123456789abcdef", []string{"od", "-j", "16"}, "0000020\n", "", 0},
		{"0123456789abcdef", []string{"od", "-j", "17"}, "", "od: cannot skip past end of combined input\n", 1},
		{"0123456789abcdef", []string{"od", "-N", "0"}, "0000000\n", "", 0},
		{"", []string{"od"}, "0000000\n", "", 0},
		{"", []string{"od", "-An", "-c"}, "", "", 0},
		{"ab\x00cdef\x00\x01ghijk\x00xy\x00", []string{"od", "-S3"}, "0000003 cdef\n0000011 ghijk\n", "", 0},
		{"ab\x00cdef\x00\x01ghijk\x00xy\x00", []string{"od", "-An", "--strings=2"}, "ab\ncdef\nghijk\nxy\n", "", 0},
		{"ab\x00cdef\x00\x01ghijk\x00xy\x00", []string{"od", "-Ax", "-S", "4", "-N", "15"}, "000003 cdef\n000009 ghijk\n", "", 0},
		{"x", []string{"od", "-S3", "-c"}, "", "od: no type may be specified when dumping strings\n", 1},
		{"x", []string{"od", "-Aq"}, "", "od: invalid output address radix 'q'; it must be one character from [doxn]\n", 1},
		{"x", []string{"od", "-j", "1x"}, "", "od: invalid suffix in -j argument '1x'\n", 1},
		{"x", []string{"od", "-j", "-1"}, "", "od: invalid -j argument '-1'\n", 1},
		{"x", []string{"od", "--skip-bytes=q"}, "", "od: invalid --skip-bytes argument 'q'\n", 1},
		{"x", []string{"od", "--read=9999999999999999999999"}, "", "od: --read-bytes argument '9999999999999999999999' too large\n", 1},
		// GNU od 9.1 mallocs -S bytes and fails with "memory exhausted"
		// (1E and 1P here, checked against GNU); 4G works on this machine.
		{"ab\x00cdef\x00", []string{"od", "-S", "1E"}, "", "od: memory exhausted\n", 1},
		{"ab\x00cdef\x00", []string{"od", "-S", "1P", "-N", "3"}, "", "od: memory exhausted\n", 1},
		{"ab\x00cdef\x00", []string{"od", "-S", "4G"}, "", "", 0},
		{"ab\x00cdef\x00", []string{"od", "-S", "18446744073709551616"}, "", "od: -S argument '18446744073709551616' too large\n", 1},
		{"x", []string{"od", "-w1x"}, "", "od: invalid suffix in -w argument '1x'\n", 1},
		{"x", []string{"od", "--width=abc"}, "", "od: invalid --width argument 'abc'\n", 1},
		{"x", []string{"od", "-tq"}, "", "od: invalid character 'q' in type string 'q'\n", 1},
		{"x", []string{"od", "-td3"}, "", "od: invalid type string 'd3';\nthis system doesn't provide a 3-byte integral type\n", 1},
		{"x", []string{"od", "-tf2"}, "", "od: invalid type string 'f2';\nthis system doesn't provide a 2-byte floating point type\n", 1},
		{"x", []string{"od", "-tx16"}, "", "od: invalid type string 'x16';\nthis system doesn't provide a 16-byte integral type\n", 1},
		{"x", []string{"od", "--endian=x"}, "", "od: invalid argument 'x' for '--endian'\nValid arguments are:\n  - 'little'\n  - 'big'\nTry 'od --help' for more information.\n", 1},
		{"x", []string{"od", "-Q"}, "", "od: invalid option -- 'Q'\nTry 'od --help' for more information.\n", 1},
		{"0123456789abcdef", []string{"od", "-c", "+010"}, "0000010   8   9   a   b   c   d   e   f\n0000020\n", "", 0},
		{"0123456789abcdef", []string{"od", "-c", "-", "+0x4"}, "0000004   4   5   6   7   8   9   a   b   c   d   e   f\n0000020\n", "", 0},
		{"0123456789abcdef", []string{"od", "--traditional", "-c", "-", "10", "100"}, "0000010 (0000100)   8   9   a   b   c   d   e   f\n0000020 (0000110)\n", "", 0},
		{"0123456789abcdef", []string{"od", "--traditional", "-An", "-c", "-", "4", "10"}, "(0000004)   4   5   6   7   8   9   a   b   c   d   e   f\n(0000020)\n", "", 0},
	})
}

// Operands are concatenated; -j skips across them (seeking within a
// regular file); an operand that cannot be opened is reported where GNU
// reports it. Checked against GNU coreutils 9.1.
func TestOdFiles(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"a":   "0123456789",
		"b":   "abcdef\n",
		"big": strings.Repeat("x", 5000) + "END\n",
	}
	for _, c := range []struct {
		args               []string
		stdin, out, errout string
		status             int
	}{
		{[]string{"od", "-c", "a", "b"}, "", "0000000   0   1   2   3   4   5   6   7   8   9   a   b   c   d   e   f\n0000020  \\n\n0000021\n", "", 0},
		{[]string{"od", "-c", "a", "nope", "b"}, "", "0000000   0   1   2   3   4   5   6   7   8   9   a   b   c   d   e   f\n0000020  \\n\n0000021\n", "od: nope: No such file or directory\n", 1},
		{[]string{"od", "-c", "nope"}, "", "", "od: nope: No such file or directory\n", 1},
		{[]string{"od", "-c", "b", "nope"}, "", "0000000   a   b   c   d   e   f  \\n\n0000007\n", "od: nope: No such file or directory\n", 1},
		{[]string{"od", "-N", "7", "-c", "b", "nope"}, "", "0000000   a   b   c   d   e   f  \\n\n0000007\n", "", 0},
		{[]string{"od", "-j", "12", "-c", "a", "b"}, "", "0000014   c   d   e   f  \\n\n0000021\n", "", 0},
		{[]string{"od", "-j", "5000", "-c", "big", "a"}, "", "0011610   E   N   D  \\n   0   1   2   3   4   5   6   7   8   9\n0011626\n", "", 0},
		{[]string{"od", "-j", "5004", "-N", "3", "-c", "big", "a"}, "", "0011614   0   1   2\n0011617\n", "", 0},
		{[]string{"od", "-j", "5004", "big"}, "", "0011614\n", "", 0},
		{[]string{"od", "-j", "5015", "big", "a"}, "", "", "od: cannot skip past end of combined input\n", 1},
		{[]string{"od", "-Ax", "-tx1", "-", "a"}, "AB", "000000 41 42 30 31 32 33 34 35 36 37 38 39\n00000c\n", "", 0},
		{[]string{"od", "-c", "a", "+3"}, "", "0000003   3   4   5   6   7   8   9\n0000012\n", "", 0},
		{[]string{"od", "--traditional", "a", "b", "a"}, "", "", "od: extra operand 'b'\nod: compatibility mode supports at most one file\nTry 'od --help' for more information.\n", 1},
		{[]string{"od", "--traditional", "a", "b"}, "", "", "od: cannot skip past end of combined input\n", 1}, // b is 1b: 512 bytes
	} {
		r := runCmd(t, files, c.stdin, c.args...)
		if r.stdout != c.out || r.stderr != c.errout || r.status != c.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", c.args, r.stdout, r.stderr, r.status, c.out, c.errout, c.status)
		}
	}
}

func TestOdStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("abcdefghijklmnopqrstuvwxyz", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "od", "-c"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out strings.Builder
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &out, "od", "-tx1z"); st != 1 || msg != "" || out.Len() != 0 {
		t.Errorf("cancelled: %d %q, %d bytes out", st, msg, out.Len())
	}
}

// A directory operand fails on reading, as GNU od's fopen'd directory
// does: the error is reported, a -j skip is used up by it, and the dump
// goes on with the next operand. Checked against GNU coreutils 9.1.
func TestOdDirectory(t *testing.T) {
	t.Parallel()
	if testFS == nil {
		t.Fatal("needs the vfsd test session")
	}
	dir := t.TempDir()
	if err := os.Mkdir(dir+"/sub", 0o755); err != nil {
		t.Fatal(err)
	}
	fsys := testFS(t, dir)
	writeTestFile(t, fsys, dir+"/a", "0123456789")
	for _, c := range []struct {
		args        []string
		out, errout string
	}{
		{[]string{"od", "sub"}, "0000000\n", "od: sub: Is a directory\n"},
		{[]string{"od", "-j", "3", "-c", "sub", "a"}, "0000003   0   1   2   3   4   5   6   7   8   9\n0000015\n", "od: sub: Is a directory\n"},
	} {
		var out, errb bytes.Buffer
		env := &Env{Ctx: context.Background(), Args: c.args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
		b, _ := Lookup("od")
		if st := Run(b, env); out.String() != c.out || errb.String() != c.errout || st != 1 {
			t.Errorf("%q: got %q %q %d, want %q %q 1", c.args, out.String(), errb.String(), st, c.out, c.errout)
		}
	}
}
