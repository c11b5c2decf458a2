package builtins_test

import (
	"context"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// Expected output produced by util-linux hexdump 2.38 on this machine.
func TestHexdumpReal(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"1x.y":  "ab",
		"e":     "",
		"r.bin": "\x0b0Uz\x9f\xc4\xe9\x0e3X}\xa2\xc7\xec\x116[\x80\xa5\xca\xef\x149^\x83\xa8\xcd\xf2\x17<a\x86\xab\xd0\xf5\x1a?d\x89\xae\xd3\xf8\x1dBg\x8c\xb1\xd6\xfb Ej\x8f\xb4\xd9\xfe#Hm\x92\xb7\xdc\x01&Kp\x95\xba\xdf\x04)Ns\x98\xbd\xe2\x07,Qv\x9b\xc0\xe5\n/Ty\x9e\xc3\xe8\x0d2W|\xa1\xc6\xeb\x105Z",
		"r.ps":  "48656c6c6f\n2c20 776f\n",
		"s.bin": "abc\x00defg\thij\nklmnop\x01\x80qrstuvwxyz0123 \x7f ab\n",
		"t.bin": "Hello, world! This is xxd.\n\x00\x01\xff",
		"t.hex": "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 2120 5468  Hello, world! Th\n00000010: 6973 2069 7320 7878 642e 0a00 01ff       is is xxd.....\n",
		"z.bin": "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00x\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
	}
	i6Run(t, files, []i6Case{
		{"", []string{"hexdump", "t.bin"}, "0000000 6548 6c6c 2c6f 7720 726f 646c 2021 6854\n0000010 7369 6920 2073 7878 2e64 000a ff01     \n000001e\n", "", 0},
		{"", []string{"hexdump", "-C", "t.bin"}, "00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 20 54 68  |Hello, world! Th|\n00000010  69 73 20 69 73 20 78 78  64 2e 0a 00 01 ff        |is is xxd.....|\n0000001e\n", "", 0},
		{"", []string{"hexdump", "-C", "z.bin"}, "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000040  78 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |x...............|\n00000050  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000070  00                                                |.|\n00000071\n", "", 0},
		{"", []string{"hexdump", "z.bin"}, "0000000 0000 0000 0000 0000 0000 0000 0000 0000\n*\n0000040 0078 0000 0000 0000 0000 0000 0000 0000\n0000050 0000 0000 0000 0000 0000 0000 0000 0000\n*\n0000070 0000                                   \n0000071\n", "", 0},
		{"", []string{"hexdump", "-Cv", "z.bin"}, "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n00000010  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n00000020  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n00000030  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n00000040  78 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |x...............|\n00000050  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n00000060  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n00000070  00                                                |.|\n00000071\n", "", 0},
		{"", []string{"hexdump", "-v", "z.bin"}, "0000000 0000 0000 0000 0000 0000 0000 0000 0000\n0000010 0000 0000 0000 0000 0000 0000 0000 0000\n0000020 0000 0000 0000 0000 0000 0000 0000 0000\n0000030 0000 0000 0000 0000 0000 0000 0000 0000\n0000040 0078 0000 0000 0000 0000 0000 0000 0000\n0000050 0000 0000 0000 0000 0000 0000 0000 0000\n0000060 0000 0000 0000 0000 0000 0000 0000 0000\n0000070 0000                                   \n0000071\n", "", 0},
		{"", []string{"hexdump", "-C", "-n", "5", "-s", "2", "t.bin"}, "00000002  6c 6c 6f 2c 20                                    |llo, |\n00000007\n", "", 0},
		{"", []string{"hexdump", "-n", "5", "-s", "2", "t.bin"}, "0000002 6c6c 2c6f 0020                         \n0000007\n", "", 0},
		{"", []string{"hexdump", "e"}, "", "", 0},
		{"", []string{"hexdump", "-C", "e"}, "", "", 0},
		{"", []string{"hexdump", "-s", "5", "e"}, "", "", 0},
		{"", []string{"hexdump", "nosuch"}, "", "hexdump: nosuch: No such file or directory\nhexdump: all input file arguments failed\n", 1},
		{"", []string{"hexdump", "-C", "t.bin", "nosuch", "t.bin"}, "00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 20 54 68  |Hello, world! Th|\n00000010  69 73 20 69 73 20 78 78  64 2e 0a 00 01 ff 48 65  |is is xxd.....He|\n00000020  6c 6c 6f 2c 20 77 6f 72  6c 64 21 20 54 68 69 73  |llo, world! This|\n00000030  20 69 73 20 78 78 64 2e  0a 00 01 ff              | is xxd.....|\n0000003c\n", "hexdump: nosuch: No such file or directory\n", 1},
		{"", []string{"hexdump", "nosuch", "nosuch2"}, "", "hexdump: nosuch: No such file or directory\nhexdump: nosuch2: No such file or directory\nhexdump: all input file arguments failed\n", 1},
		{"", []string{"hexdump", "-s", "100", "t.bin"}, "000001e\n", "", 0},
		{"", []string{"hexdump", "-C", "-s", "100", "t.bin"}, "0000001e\n", "", 0},
		{"", []string{"hexdump", "-s", "0x10", "-C", "r.bin"}, "00000010  5b 80 a5 ca ef 14 39 5e  83 a8 cd f2 17 3c 61 86  |[.....9^.....<a.|\n00000020  ab d0 f5 1a 3f 64 89 ae  d3 f8 1d 42 67 8c b1 d6  |....?d.....Bg...|\n00000030  fb 20 45 6a 8f b4 d9 fe  23 48 6d 92 b7 dc 01 26  |. Ej....#Hm....&|\n00000040  4b 70 95 ba df 04 29 4e  73 98 bd e2 07 2c 51 76  |Kp....)Ns....,Qv|\n00000050  9b c0 e5 0a 2f 54 79 9e  c3 e8 0d 32 57 7c a1 c6  |..../Ty....2W|..|\n00000060  eb 10 35 5a                                       |..5Z|\n00000064\n", "", 0},
		{"", []string{"hexdump", "-n", "x", "r.bin"}, "", "hexdump: failed to parse length: 'x': Invalid argument\n", 1},
		{"", []string{"hexdump", "-s", "x", "r.bin"}, "", "hexdump: failed to parse offset: 'x': Invalid argument\n", 1},
		{"", []string{"hexdump", "-Cn", "0", "r.bin"}, "", "", 0},
		{"", []string{"hexdump", "-C", "-s", "20", "t.bin", "t.bin"}, "00000014  73 20 78 78 64 2e 0a 00  01 ff 48 65 6c 6c 6f 2c  |s xxd.....Hello,|\n00000024  20 77 6f 72 6c 64 21 20  54 68 69 73 20 69 73 20  | world! This is |\n00000034  78 78 64 2e 0a 00 01 ff                           |xxd.....|\n0000003c\n", "", 0},
		{"", []string{"hd", "t.bin"}, "00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 20 54 68  |Hello, world! Th|\n00000010  69 73 20 69 73 20 78 78  64 2e 0a 00 01 ff        |is is xxd.....|\n0000001e\n", "", 0},
		{"", []string{"hd", "-n", "3", "t.bin"}, "00000000  48 65 6c                                          |Hel|\n00000003\n", "", 0},
		{"", []string{"hexdump", "r.bin"}, "0000000 300b 7a55 c49f 0ee9 5833 a27d ecc7 3611\n0000010 805b caa5 14ef 5e39 a883 f2cd 3c17 8661\n0000020 d0ab 1af5 643f ae89 f8d3 421d 8c67 d6b1\n0000030 20fb 6a45 b48f fed9 4823 926d dcb7 2601\n0000040 704b ba95 04df 4e29 9873 e2bd 2c07 7651\n0000050 c09b 0ae5 542f 9e79 e8c3 320d 7c57 c6a1\n0000060 10eb 5a35                              \n0000064\n", "", 0},
		{"", []string{"hexdump", "-s", "010", "-n", "0x10", "-C", "r.bin"}, "00000008  33 58 7d a2 c7 ec 11 36  5b 80 a5 ca ef 14 39 5e  |3X}....6[.....9^|\n00000018\n", "", 0},
		{"", []string{"hexdump", "-q"}, "", "hexdump: invalid option -- 'q'\nTry 'hexdump --help' for more information.\n", 1},
		{"", []string{"hexdump", "-n", "1KiB", "-C", "t.bin"}, "00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 20 54 68  |Hello, world! Th|\n00000010  69 73 20 69 73 20 78 78  64 2e 0a 00 01 ff        |is is xxd.....|\n0000001e\n", "", 0},
		{"Hello, world! This is xxd.\n\x00\x01\xff", []string{"hexdump"}, "0000000 6548 6c6c 2c6f 7720 726f 646c 2021 6854\n0000010 7369 6920 2073 7878 2e64 000a ff01     \n000001e\n", "", 0},
		{"Hello, world! This is xxd.\n\x00\x01\xff", []string{"hexdump", "-C"}, "00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 20 54 68  |Hello, world! Th|\n00000010  69 73 20 69 73 20 78 78  64 2e 0a 00 01 ff        |is is xxd.....|\n0000001e\n", "", 0},
		{"abc", []string{"hexdump"}, "0000000 6261 0063                              \n0000003\n", "", 0},
		{"", []string{"hexdump", "-C"}, "", "", 0},
	})
}

func TestHexdumpStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("abcdefgh\x00\x01", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "hexdump"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &strings.Builder{}, "hexdump"); st != 1 || msg != "" {
		t.Errorf("cancelled: %d %q", st, msg)
	}
}

// Expected output produced by util-linux hexdump 2.38 on this machine (-b -c -d -o -x).
func TestHexdumpFormatsReal(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"1x.y":  "ab",
		"e":     "",
		"m.bin": "ab\tc\n\x01\xffxyz\x07\x08\x0c\x0d\x0b",
		"r.bin": "\x0b0Uz\x9f\xc4\xe9\x0e3X}\xa2\xc7\xec\x116[\x80\xa5\xca\xef\x149^\x83\xa8\xcd\xf2\x17<a\x86\xab\xd0\xf5\x1a?d\x89\xae\xd3\xf8\x1dBg\x8c\xb1\xd6\xfb Ej\x8f\xb4\xd9\xfe#Hm\x92\xb7\xdc\x01&Kp\x95\xba\xdf\x04)Ns\x98\xbd\xe2\x07,Qv\x9b\xc0\xe5\n/Ty\x9e\xc3\xe8\x0d2W|\xa1\xc6\xeb\x105Z",
		"r.ps":  "48656c6c6f\n2c20 776f\n",
		"s.bin": "abc\x00defg\thij\nklmnop\x01\x80qrstuvwxyz0123 \x7f ab\n",
		"t.bin": "Hello, world! This is xxd.\n\x00\x01\xff",
		"t.hex": "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 2120 5468  Hello, world! Th\n00000010: 6973 2069 7320 7878 642e 0a00 01ff       is is xxd.....\n",
		"z.bin": "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00x\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
	}
	i6Run(t, files, []i6Case{
		{"", []string{"hexdump", "-b", "m.bin"}, "0000000 141 142 011 143 012 001 377 170 171 172 007 010 014 015 013    \n000000f\n", "", 0},
		{"", []string{"hexdump", "-c", "m.bin"}, "0000000   a   b  \\t   c  \\n 001 377   x   y   z  \\a  \\b  \\f  \\r  \\v    \n000000f\n", "", 0},
		{"", []string{"hexdump", "-d", "m.bin"}, "0000000   25185   25353   00266   30975   31353   02055   03340   00011\n000000f\n", "", 0},
		{"", []string{"hexdump", "-o", "m.bin"}, "0000000  061141  061411  000412  074377  075171  004007  006414  000013\n000000f\n", "", 0},
		{"", []string{"hexdump", "-x", "m.bin"}, "0000000    6261    6309    010a    78ff    7a79    0807    0d0c    000b\n000000f\n", "", 0},
		{"", []string{"hexdump", "-C", "-c", "m.bin"}, "00000000  61 62 09 63 0a 01 ff 78  79 7a 07 08 0c 0d 0b     |ab.c...xyz.....|\n0000000   a   b  \\t   c  \\n 001 377   x   y   z  \\a  \\b  \\f  \\r  \\v    \n000000f\n", "", 0},
		{"", []string{"hexdump", "-x", "-b", "m.bin"}, "0000000    6261    6309    010a    78ff    7a79    0807    0d0c    000b\n0000000 141 142 011 143 012 001 377 170 171 172 007 010 014 015 013    \n000000f\n", "", 0},
		{"", []string{"hexdump", "-c", "t.bin"}, "0000000   H   e   l   l   o   ,       w   o   r   l   d   !       T   h\n0000010   i   s       i   s       x   x   d   .  \\n  \\0 001 377        \n000001e\n", "", 0},
		{"", []string{"hexdump", "-c", "z.bin"}, "0000000  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0\n*\n0000040   x  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0\n0000050  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0\n*\n0000070  \\0                                                            \n0000071\n", "", 0},
		{"", []string{"hexdump", "-cv", "z.bin"}, "0000000  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0\n0000010  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0\n0000020  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0\n0000030  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0\n0000040   x  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0\n0000050  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0\n0000060  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0\n0000070  \\0                                                            \n0000071\n", "", 0},
		{"", []string{"hexdump", "-d", "r.bin"}, "0000000   12299   31317   50335   03817   22579   41597   60615   13841\n0000010   32859   51877   05359   24121   43139   62157   15383   34401\n0000020   53419   06901   25663   44681   63699   16925   35943   54961\n0000030   08443   27205   46223   65241   18467   37485   56503   09729\n0000040   28747   47765   01247   20009   39027   58045   11271   30289\n0000050   49307   02789   21551   40569   59587   12813   31831   50849\n0000060   04331   23093                                                \n0000064\n", "", 0},
		{"", []string{"hexdump", "-o", "-s", "3", "-n", "21", "r.bin"}, "0000003  117572  164704  031416  076530  143642  010754  055466  122600\n0000013  167712  034424  000136                                        \n0000018\n", "", 0},
		{"", []string{"hexdump", "-x", "e"}, "", "", 0},
		{"", []string{"hd", "-c", "m.bin"}, "00000000  61 62 09 63 0a 01 ff 78  79 7a 07 08 0c 0d 0b     |ab.c...xyz.....|\n0000000   a   b  \\t   c  \\n 001 377   x   y   z  \\a  \\b  \\f  \\r  \\v    \n000000f\n", "", 0},
		{"", []string{"hexdump", "-bcdox", "t.bin"}, "0000000 110 145 154 154 157 054 040 167 157 162 154 144 041 040 124 150\n0000000   H   e   l   l   o   ,       w   o   r   l   d   !       T   h\n0000000   25928   27756   11375   30496   29295   25708   08225   26708\n0000000  062510  066154  026157  073440  071157  062154  020041  064124\n0000000    6548    6c6c    2c6f    7720    726f    646c    2021    6854\n0000010 151 163 040 151 163 040 170 170 144 056 012 000 001 377        \n0000010   i   s       i   s       x   x   d   .  \\n  \\0 001 377        \n0000010   29545   26912   08307   30840   11876   00010   65281        \n0000010  071551  064440  020163  074170  027144  000012  177401        \n0000010    7369    6920    2073    7878    2e64    000a    ff01        \n000001e\n", "", 0},
	})
}

// Expected output produced by util-linux hexdump 2.38 on this machine (-e).
func TestHexdumpFormatStringsReal(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"1x.y":  "ab",
		"e":     "",
		"r.bin": "\x0b0Uz\x9f\xc4\xe9\x0e3X}\xa2\xc7\xec\x116[\x80\xa5\xca\xef\x149^\x83\xa8\xcd\xf2\x17<a\x86\xab\xd0\xf5\x1a?d\x89\xae\xd3\xf8\x1dBg\x8c\xb1\xd6\xfb Ej\x8f\xb4\xd9\xfe#Hm\x92\xb7\xdc\x01&Kp\x95\xba\xdf\x04)Ns\x98\xbd\xe2\x07,Qv\x9b\xc0\xe5\n/Ty\x9e\xc3\xe8\x0d2W|\xa1\xc6\xeb\x105Z",
		"r.ps":  "48656c6c6f\n2c20 776f\n",
		"s.bin": "abc\x00defg\thij\nklmnop\x01\x80qrstuvwxyz0123 \x7f ab\n",
		"t.bin": "Hello, world! This is xxd.\n\x00\x01\xff",
		"t.hex": "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 2120 5468  Hello, world! Th\n00000010: 6973 2069 7320 7878 642e 0a00 01ff       is is xxd.....\n",
		"z.bin": "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00x\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
	}
	i6Run(t, files, []i6Case{
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "16/1 \"%02x\" \"\\n\""}, "6162636465666768696a6b6c6d6e6f70\n7172737475                      \n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-v", "-e", "/1 \"%02x\""}, "6162636465666768696a6b6c6d6e6f707172737475", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "\"%08_ax: \" 16/1 \"%02x \" \"\\n\""}, "00000000: 61 62 63 64 65 66 67 68 69 6a 6b 6c 6d 6e 6f 70\n00000010: 71 72 73 74 75                                 \n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "/1 \"%02X \""}, "61 62 63 64 65 66 67 68 69 6A 6B 6C 6D 6E 6F 70 71 72 73 74 75 ", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "2/4 \"%08x \" \"\\n\""}, "64636261 68676665\n6c6b6a69 706f6e6d\n74737271 00000075\n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "16/1 \"%_p\"", "-e", "\"\\n\""}, "abcdefghijklmnop\nqrstu\n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "1/1 \"%c|\"", "-e", "\"\\n\""}, "a|\nb|\nc|\nd|\ne|\nf|\ng|\nh|\ni|\nj|\nk|\nl|\nm|\nn|\no|\np|\nq|\nr|\ns|\nt|\nu|\n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "\"%07.7_Ax\\n\"", "-e", "\"%07.7_ax \" 8/2 \"%04x \" \"\\n\""}, "0000000 6261 6463 6665 6867 6a69 6c6b 6e6d 706f\n0000010 7271 7473 0075                         \n0000015\n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "4/1 \"%3d\"", "-e", "\"\\n\"", "t.bin"}, " 72101108108\n111 44 32119\n111114108100\n 33 32 84104\n105115 32105\n115 32120120\n100 46 10  0\n  1 -1      \n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "4/1 \"%_c\"", "-e", "\"\\n\"", "t.bin"}, "Hell\no, w\norld\n! Th\nis i\ns xx\nd.\\n\\0\n001377\n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "2/2 \"%6u\"", "-e", "\"\\n\"", "t.bin"}, " 25928 27756\n 11375 30496\n 29295 25708\n  8225 26708\n 29545 26912\n  8307 30840\n 11876    10\n 65281      \n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "1/4 \"%i \"", "-e", "\"\\n\"", "r.bin"}, "2052403211 \n250201247 \n-1568843725 \n907144391 \n-895123365 \n1580799215 \n-221403005 \n-2040447977 \n452317355 \n-1366727617 \n1109260499 \n-693007257 \n1782915323 \n-19286897 \n-1838331869 \n637656247 \n-1164611509 \n1311311071 \n-490891149 \n1985031175 \n182829211 \n-1636215761 \n839772355 \n-962495401 \n1513427179 \n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "16/1 \"%02x\" \"\\n\"", "z.bin"}, "00000000000000000000000000000000\n*\n78000000000000000000000000000000\n00000000000000000000000000000000\n*\n00                              \n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-v", "-e", "16/1 \"%02x\" \"\\n\"", "z.bin"}, "00000000000000000000000000000000\n00000000000000000000000000000000\n00000000000000000000000000000000\n00000000000000000000000000000000\n78000000000000000000000000000000\n00000000000000000000000000000000\n00000000000000000000000000000000\n00                              \n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "\"%_ad: \" 8/1 \"%_p\" \"\\n\"", "t.bin"}, "0: Hello, w\n8: orld! Th\n16: is is xx\n24: d.....\n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "8/1 \"%o \"", "-e", "\"\\n\"", "t.bin"}, "110 145 154 154 157 54 40 167\n157 162 154 144 41 40 124 150\n151 163 40 151 163 40 170 170\n144 56 12 0 1 377  \n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "1/8 \"%e\\n\"", "r.bin"}, "7.914348e-237\n3.066182e-48\n7.829902e+145\n-6.076574e-278\n-1.633808e-84\n-4.121328e+109\n-1.101739e+303\n1.319369e-125\n3.372560e+68\n8.448838e+261\n-7.037488e-162\n-1.773261e+32\n7.477324e-315\n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "\"x"}, "", "hexdump: bad format {\"x}\n", 1},
		{"\x00\x1f\x20\x41\x7f\x80\xff\x0a", []string{"hexdump", "-e", "8/1 \"[%3_u]\" \"\\n\""}, "[nul][ us][   ][  A][del][ 80][ ff][ lf]\n", "", 0},
		{"\x00\x1f\x20\x41\x7f\x80\xff\x0a", []string{"hexdump", "-e", "8/1 \"[%-4_u]\" \"\\n\""}, "[nul ][us  ][    ][A   ][del ][80  ][ff  ][lf  ]\n", "", 0},
		{"\x00\x1f\x20", []string{"hexdump", "-e", "4/1 \"[%3_u]\" \"\\n\""}, "[nul][ us][   ][   ]\n", "", 0},
		{"\x80", []string{"hexdump", "-e", "\"[%05_u]\\n\""}, "[00080]\n", "", 0},
		{"abcd", []string{"hexdump", "-e", "2/2 \"%_u\""}, "", "hexdump: bad byte count for conversion character _u\n", 1},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "3/3 \"%x\""}, "", "hexdump: bad byte count for conversion character x\n", 1},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-e", "16/1 \"%02x\" \"\\n\"", "-n", "5", "-s", "3", "t.bin"}, "6c6f2c2077                      \n", "", 0},
		{"abcdefghijklmnopqrstu", []string{"hexdump", "-C", "-e", "16/1 \"%_p\" \"\\n\"", "t.bin"}, "00000000  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 20 54 68  |Hello, world! Th|\nHello, world! Th\n00000010  69 73 20 69 73 20 78 78  64 2e 0a 00 01 ff        |is is xxd.....|\nis is xxd.....\n0000001e\n", "", 0},
	})
}

// Checked against util-linux hexdump 2.38.
func TestHexdumpFormatFile(t *testing.T) {
	t.Parallel()
	files := map[string]string{"fmt": "# bytes as hex\n4/1 \"%02x\" \"\\n\"\n", "d": "abcdef"}
	i6Run(t, files, []i6Case{
		{"", []string{"hexdump", "-f", "fmt", "d"}, "61626364\n6566    \n", "", 0},
		{"", []string{"hexdump", "-f", "nosuch", "d"}, "", "hexdump: can't read nosuch: No such file or directory\n", 1},
	})
}

// FuzzHexdumpFormat: no format string makes hexdump panic.
func FuzzHexdumpFormat(f *testing.F) {
	for _, s := range []string{`16/1 "%02x" "\n"`, `"%08_ax: " 16/1 "%02x " "\n"`, `"%07.7_Ax\n"`, `1/8 "%e\n"`, `4/1 "%_c"`, `2/2 "%6u"`, `"%"`, `3/ "%x"`} {
		f.Add(s, "abcdefghijklmnopqrstu")
	}
	f.Fuzz(func(t *testing.T, format, data string) {
		var out, errb strings.Builder
		b, _ := Lookup("hexdump")
		env := &Env{Ctx: context.Background(), Args: []string{"hexdump", "-e", format}, Stdin: strings.NewReader(data), Stdout: &out, Stderr: &errb}
		Run(b, env)
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("hexdump panicked on %q", format)
		}
	})
}
