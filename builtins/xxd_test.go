package builtins_test

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// Expected output produced by xxd 2022-01-14 (vim 9.0) on this machine.
func TestXxdReal(t *testing.T) {
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
		{"", []string{"xxd", "t.bin"}, "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 2120 5468  Hello, world! Th\n00000010: 6973 2069 7320 7878 642e 0a00 01ff       is is xxd.....\n", "", 0},
		{"", []string{"xxd", "r.bin"}, "00000000: 0b30 557a 9fc4 e90e 3358 7da2 c7ec 1136  .0Uz....3X}....6\n00000010: 5b80 a5ca ef14 395e 83a8 cdf2 173c 6186  [.....9^.....<a.\n00000020: abd0 f51a 3f64 89ae d3f8 1d42 678c b1d6  ....?d.....Bg...\n00000030: fb20 456a 8fb4 d9fe 2348 6d92 b7dc 0126  . Ej....#Hm....&\n00000040: 4b70 95ba df04 294e 7398 bde2 072c 5176  Kp....)Ns....,Qv\n00000050: 9bc0 e50a 2f54 799e c3e8 0d32 577c a1c6  ..../Ty....2W|..\n00000060: eb10 355a                                ..5Z\n", "", 0},
		{"", []string{"xxd", "-p", "t.bin"}, "48656c6c6f2c20776f726c64212054686973206973207878642e0a0001ff\n", "", 0},
		{"", []string{"xxd", "-ps", "r.bin"}, "0b30557a9fc4e90e33587da2c7ec11365b80a5caef14395e83a8cdf2173c\n6186abd0f51a3f6489aed3f81d42678cb1d6fb20456a8fb4d9fe23486d92\nb7dc01264b7095badf04294e7398bde2072c51769bc0e50a2f54799ec3e8\n0d32577ca1c6eb10355a\n", "", 0},
		{"", []string{"xxd", "-i", "t.bin"}, "unsigned char t_bin[] = {\n  0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x2c, 0x20, 0x77, 0x6f, 0x72, 0x6c, 0x64,\n  0x21, 0x20, 0x54, 0x68, 0x69, 0x73, 0x20, 0x69, 0x73, 0x20, 0x78, 0x78,\n  0x64, 0x2e, 0x0a, 0x00, 0x01, 0xff\n};\nunsigned int t_bin_len = 30;\n", "", 0},
		{"", []string{"xxd", "-i", "1x.y"}, "unsigned char __1x_y[] = {\n  0x61, 0x62\n};\nunsigned int __1x_y_len = 2;\n", "", 0},
		{"", []string{"xxd", "-C", "-i", "1x.y"}, "unsigned char __1X_Y[] = {\n  0x61, 0x62\n};\nunsigned int __1X_Y_LEN = 2;\n", "", 0},
		{"", []string{"xxd", "-i", "e"}, "unsigned char e[] = {\n};\nunsigned int e_len = 0;\n", "", 0},
		{"", []string{"xxd", "e"}, "", "", 0},
		{"", []string{"xxd", "-p", "e"}, "", "", 0},
		{"", []string{"xxd", "-c", "8", "-g", "4", "t.bin"}, "00000000: 48656c6c 6f2c2077  Hello, w\n00000008: 6f726c64 21205468  orld! Th\n00000010: 69732069 73207878  is is xx\n00000018: 642e0a00 01ff      d.....\n", "", 0},
		{"", []string{"xxd", "-u", "-l", "10", "-s", "3", "t.bin"}, "00000003: 6C6F 2C20 776F 726C 6421                 lo, world!\n", "", 0},
		{"", []string{"xxd", "-g", "0", "t.bin"}, "00000000: 48656c6c6f2c20776f726c6421205468  Hello, world! Th\n00000010: 6973206973207878642e0a0001ff      is is xxd.....\n", "", 0},
		{"", []string{"xxd", "-c4", "t.bin"}, "00000000: 4865 6c6c  Hell\n00000004: 6f2c 2077  o, w\n00000008: 6f72 6c64  orld\n0000000c: 2120 5468  ! Th\n00000010: 6973 2069  is i\n00000014: 7320 7878  s xx\n00000018: 642e 0a00  d...\n0000001c: 01ff       ..\n", "", 0},
		{"", []string{"xxd", "-s", "-4", "t.bin"}, "0000001a: 0a00 01ff                                ....\n", "", 0},
		{"", []string{"xxd", "-s", "+4", "t.bin"}, "00000004: 6f2c 2077 6f72 6c64 2120 5468 6973 2069  o, world! This i\n00000014: 7320 7878 642e 0a00 01ff                 s xxd.....\n", "", 0},
		{"", []string{"xxd", "-b", "t.bin"}, "00000000: 01001000 01100101 01101100 01101100 01101111 00101100  Hello,\n00000006: 00100000 01110111 01101111 01110010 01101100 01100100   world\n0000000c: 00100001 00100000 01010100 01101000 01101001 01110011  ! This\n00000012: 00100000 01101001 01110011 00100000 01111000 01111000   is xx\n00000018: 01100100 00101110 00001010 00000000 00000001 11111111  d.....\n", "", 0},
		{"", []string{"xxd", "-b", "-c", "3", "t.bin"}, "00000000: 01001000 01100101 01101100  Hel\n00000003: 01101100 01101111 00101100  lo,\n00000006: 00100000 01110111 01101111   wo\n00000009: 01110010 01101100 01100100  rld\n0000000c: 00100001 00100000 01010100  ! T\n0000000f: 01101000 01101001 01110011  his\n00000012: 00100000 01101001 01110011   is\n00000015: 00100000 01111000 01111000   xx\n00000018: 01100100 00101110 00001010  d..\n0000001b: 00000000 00000001 11111111  ...\n", "", 0},
		{"", []string{"xxd", "-a", "z.bin"}, "00000000: 0000 0000 0000 0000 0000 0000 0000 0000  ................\n*\n00000040: 7800 0000 0000 0000 0000 0000 0000 0000  x...............\n00000050: 0000 0000 0000 0000 0000 0000 0000 0000  ................\n00000060: 0000 0000 0000 0000 0000 0000 0000 0000  ................\n00000070: 00                                       .\n", "", 0},
		{"", []string{"xxd", "-a", "-c", "8", "z.bin"}, "00000000: 0000 0000 0000 0000  ........\n*\n00000040: 7800 0000 0000 0000  x.......\n00000048: 0000 0000 0000 0000  ........\n*\n00000070: 00                   .\n", "", 0},
		{"", []string{"xxd", "-l", "0", "t.bin"}, "", "", 0},
		{"", []string{"xxd", "-c", "300", "t.bin"}, "", "xxd: invalid number of columns (max. 256).\n", 1},
		{"", []string{"xxd", "-c", "0", "t.bin"}, "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 2120 5468  Hello, world! Th\n00000010: 6973 2069 7320 7878 642e 0a00 01ff       is is xxd.....\n", "", 0},
		{"", []string{"xxd", "-p", "-c", "0", "t.bin"}, "48656c6c6f2c20776f726c64212054686973206973207878642e0a0001ff\n", "", 0},
		{"", []string{"xxd", "-p", "-c", "7", "r.bin"}, "0b30557a9fc4e9\n0e33587da2c7ec\n11365b80a5caef\n14395e83a8cdf2\n173c6186abd0f5\n1a3f6489aed3f8\n1d42678cb1d6fb\n20456a8fb4d9fe\n23486d92b7dc01\n264b7095badf04\n294e7398bde207\n2c51769bc0e50a\n2f54799ec3e80d\n32577ca1c6eb10\n355a\n", "", 0},
		{"", []string{"xxd", "-i", "-c", "5", "t.bin"}, "unsigned char t_bin[] = {\n  0x48, 0x65, 0x6c, 0x6c, 0x6f,\n  0x2c, 0x20, 0x77, 0x6f, 0x72,\n  0x6c, 0x64, 0x21, 0x20, 0x54,\n  0x68, 0x69, 0x73, 0x20, 0x69,\n  0x73, 0x20, 0x78, 0x78, 0x64,\n  0x2e, 0x0a, 0x00, 0x01, 0xff\n};\nunsigned int t_bin_len = 30;\n", "", 0},
		{"", []string{"xxd", "-u", "-i", "t.bin"}, "unsigned char t_bin[] = {\n  0X48, 0X65, 0X6C, 0X6C, 0X6F, 0X2C, 0X20, 0X77, 0X6F, 0X72, 0X6C, 0X64,\n  0X21, 0X20, 0X54, 0X68, 0X69, 0X73, 0X20, 0X69, 0X73, 0X20, 0X78, 0X78,\n  0X64, 0X2E, 0X0A, 0X00, 0X01, 0XFF\n};\nunsigned int t_bin_len = 30;\n", "", 0},
		{"", []string{"xxd", "-o", "0x100", "t.bin"}, "00000100: 4865 6c6c 6f2c 2077 6f72 6c64 2120 5468  Hello, world! Th\n00000110: 6973 2069 7320 7878 642e 0a00 01ff       is is xxd.....\n", "", 0},
		{"", []string{"xxd", "-d", "t.bin"}, "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 2120 5468  Hello, world! Th\n00000016: 6973 2069 7320 7878 642e 0a00 01ff       is is xxd.....\n", "", 0},
		{"", []string{"xxd", "-cols", "5", "t.bin"}, "00000000: 4865 6c6c 6f  Hello\n00000005: 2c20 776f 72  , wor\n0000000a: 6c64 2120 54  ld! T\n0000000f: 6869 7320 69  his i\n00000014: 7320 7878 64  s xxd\n00000019: 2e0a 0001 ff  .....\n", "", 0},
		{"", []string{"xxd", "-len", "5", "t.bin"}, "00000000: 4865 6c6c 6f                             Hello\n", "", 0},
		{"", []string{"xxd", "-n", "foo", "-i", "t.bin"}, "unsigned char foo[] = {\n  0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x2c, 0x20, 0x77, 0x6f, 0x72, 0x6c, 0x64,\n  0x21, 0x20, 0x54, 0x68, 0x69, 0x73, 0x20, 0x69, 0x73, 0x20, 0x78, 0x78,\n  0x64, 0x2e, 0x0a, 0x00, 0x01, 0xff\n};\nunsigned int foo_len = 30;\n", "", 0},
		{"", []string{"xxd", "nosuch"}, "", "xxd: nosuch: No such file or directory\n", 2},
		{"", []string{"xxd", "-r", "t.hex"}, "Hello, world! This is xxd.\n\x00\x01\xff", "", 0},
		{"", []string{"xxd", "-r", "-p", "r.ps"}, "Hello, wo", "", 0},
		{"", []string{"xxd", "-r", "t.bin"}, "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", "", 0},
		{"", []string{"xxd", "-r", "-s", "5", "t.hex"}, "\x00\x00\x00\x00\x00Hello, world! This is xxd.\n\x00\x01\xff", "", 0},
		{"", []string{"xxd", "-l", "0x10", "r.bin"}, "00000000: 0b30 557a 9fc4 e90e 3358 7da2 c7ec 1136  .0Uz....3X}....6\n", "", 0},
		{"", []string{"xxd", "-l", "010", "r.bin"}, "00000000: 0b30 557a 9fc4 e90e                      .0Uz....\n", "", 0},
		{"", []string{"xxd", "-s", "0x10", "-l", "20", "r.bin"}, "00000010: 5b80 a5ca ef14 395e 83a8 cdf2 173c 6186  [.....9^.....<a.\n00000020: abd0 f51a                                ....\n", "", 0},
		{"Hello, world! This is xxd.\n\x00\x01\xff", []string{"xxd"}, "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 2120 5468  Hello, world! Th\n00000010: 6973 2069 7320 7878 642e 0a00 01ff       is is xxd.....\n", "", 0},
		{"Hello, world! This is xxd.\n\x00\x01\xff", []string{"xxd", "-i"}, "  0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x2c, 0x20, 0x77, 0x6f, 0x72, 0x6c, 0x64,\n  0x21, 0x20, 0x54, 0x68, 0x69, 0x73, 0x20, 0x69, 0x73, 0x20, 0x78, 0x78,\n  0x64, 0x2e, 0x0a, 0x00, 0x01, 0xff\n", "", 0},
		{"Hello, world! This is xxd.\n\x00\x01\xff", []string{"xxd", "-s", "4"}, "00000004: 6f2c 2077 6f72 6c64 2120 5468 6973 2069  o, world! This i\n00000014: 7320 7878 642e 0a00 01ff                 s xxd.....\n", "", 0},
		{"Hello, world! This is xxd.\n\x00\x01\xff", []string{"xxd", "-s", "-4"}, "", "xxd: Sorry, cannot seek.\n", 4},
		{"0: 41 42\n4: 43\n", []string{"xxd", "-r"}, "AB\x00\x00C", "", 0},
		{"0: 4142  ab\n", []string{"xxd", "-r"}, "AB", "", 0},
		{"41 4 2x43\n", []string{"xxd", "-r", "-p"}, "ABC", "", 0},
		{"10: 41\n0: 42\n", []string{"xxd", "-r"}, "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00A", "xxd: Sorry, cannot seek backwards.\n", 5},
		{"00000010: 4142 43\n", []string{"xxd", "-r"}, "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00ABC", "", 0},
	})
}

func TestXxdStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("abcdefgh\x00\x01", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "xxd"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &strings.Builder{}, "xxd"); st != 1 || msg != "" {
		t.Errorf("cancelled: %d %q", st, msg)
	}
}

// A far address in xxd -r zero-fills a pipe as xxd does, in bounded
// steps that stop when the command is cancelled.
func TestXxdRevertFarAddress(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, _ := runTextEnv(t, ctx, strings.NewReader("7fffffffffff: 41\n"), &strings.Builder{}, "xxd", "-r"); st != 1 {
		t.Errorf("cancelled: %d", st)
	}
	var out strings.Builder
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader("20: 41\n"), &out, "xxd", "-r"); st != 0 || msg != "" || out.String() != strings.Repeat("\x00", 32)+"A" {
		t.Errorf("xxd -r: %d %q %q", st, msg, out.String())
	}
}

// Expected output produced by xxd 2022-01-14 on this machine (-e).
func TestXxdLittleEndianReal(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"1x.y":  "ab",
		"az":    "abcdefghijklmnopqrstuvwxyz",
		"e":     "",
		"r.bin": "\x0b0Uz\x9f\xc4\xe9\x0e3X}\xa2\xc7\xec\x116[\x80\xa5\xca\xef\x149^\x83\xa8\xcd\xf2\x17<a\x86\xab\xd0\xf5\x1a?d\x89\xae\xd3\xf8\x1dBg\x8c\xb1\xd6\xfb Ej\x8f\xb4\xd9\xfe#Hm\x92\xb7\xdc\x01&Kp\x95\xba\xdf\x04)Ns\x98\xbd\xe2\x07,Qv\x9b\xc0\xe5\n/Ty\x9e\xc3\xe8\x0d2W|\xa1\xc6\xeb\x105Z",
		"r.ps":  "48656c6c6f\n2c20 776f\n",
		"s.bin": "abc\x00defg\thij\nklmnop\x01\x80qrstuvwxyz0123 \x7f ab\n",
		"t.bin": "Hello, world! This is xxd.\n\x00\x01\xff",
		"t.hex": "00000000: 4865 6c6c 6f2c 2077 6f72 6c64 2120 5468  Hello, world! Th\n00000010: 6973 2069 7320 7878 642e 0a00 01ff       is is xxd.....\n",
		"z.bin": "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00x\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
	}
	i6Run(t, files, []i6Case{
		{"", []string{"xxd", "-e", "t.bin"}, "00000000: 6c6c6548 77202c6f 646c726f 68542021  Hello, world! Th\n00000010: 69207369 78782073 000a2e64     ff01  is is xxd.....\n", "", 0},
		{"", []string{"xxd", "-e", "-g", "2", "t.bin"}, "00000000: 6548 6c6c 2c6f 7720 726f 646c 2021 6854  Hello, world! Th\n00000010: 7369 6920 2073 7878 2e64 000a ff01       is is xxd.....\n", "", 0},
		{"", []string{"xxd", "-e", "-g", "3", "t.bin"}, "", "xxd: number of octets per group must be a power of 2 with -e.\n", 1},
		{"", []string{"xxd", "-e", "-c", "6", "t.bin"}, "00000000: 6c6c6548     2c6fllo,\n00000006: 726f7720     646corld\n0000000c: 68542021     7369This\n00000012: 20736920     7878s xx\n00000018: 000a2e64     ff01....\n", "", 0},
		{"", []string{"xxd", "-e", "-g", "8", "az"}, "00000000: 6867666564636261 706f6e6d6c6b6a69  abcdefghijklmnop\n00000010: 7877767574737271             7a79  qrstuvwxyz\n", "", 0},
		{"", []string{"xxd", "-e", "-p", "t.bin"}, "48656c6c6f2c20776f726c64212054686973206973207878642e0a0001ff\n", "", 0},
		{"", []string{"xxd", "-p", "-e", "t.bin"}, "00000000: 6c6c6548 77202c6f 646c726f 68542021  Hello, world! Th\n00000010: 69207369 78782073 000a2e64     ff01  is is xxd.....\n", "", 0},
		{"", []string{"xxd", "-e", "-r", "t.hex"}, "", "xxd: Sorry, cannot revert this type of hexdump\n", 255},
		{"", []string{"xxd", "-e", "-c", "1", "t.bin"}, "00000000: 48  H\n00000001: 65  e\n00000002: 6c  l\n00000003: 6c  l\n00000004: 6f  o\n00000005: 2c  ,\n00000006: 20   \n00000007: 77  w\n00000008: 6f  o\n00000009: 72  r\n0000000a: 6c  l\n0000000b: 64  d\n0000000c: 21  !\n0000000d: 20   \n0000000e: 54  T\n0000000f: 68  h\n00000010: 69  i\n00000011: 73  s\n00000012: 20   \n00000013: 69  i\n00000014: 73  s\n00000015: 20   \n00000016: 78  x\n00000017: 78  x\n00000018: 64  d\n00000019: 2e  .\n0000001a: 0a  .\n0000001b: 00  .\n0000001c: 01  .\n0000001d: ff  .\n", "", 0},
		{"", []string{"xxd", "-e", "-c", "5", "-g", "2", "r.bin"}, "00000000: 300b 7a55   9f.0Uz.\n00000005: e9c4 330e   58...3X\n0000000a: a27d ecc7   11}....\n0000000f: 5b36 a580   ca6[...\n00000014: 14ef 5e39   83..9^.\n00000019: cda8 17f2   3c....<\n0000001e: 8661 d0ab   f5a....\n00000023: 3f1a 8964   ae.?d..\n00000028: f8d3 421d   67...Bg\n0000002d: b18c fbd6   20.... \n00000032: 6a45 b48f   d9Ej...\n00000037: 23fe 6d48   92.#Hm.\n0000003c: dcb7 2601   4b...&K\n00000041: 9570 dfba   04p....\n00000046: 4e29 9873   bd)Ns..\n0000004b: 07e2 512c   76..,Qv\n00000050: c09b 0ae5   2f..../\n00000055: 7954 c39e   e8Ty...\n0000005a: 320d 7c57   a1.2W|.\n0000005f: ebc6 3510   5a...5Z\n", "", 0},
		{"", []string{"xxd", "-e", "-g", "1", "t.bin"}, "00000000: 48 65 6c 6c 6f 2c 20 77 6f 72 6c 64 21 20 54 68  Hello, world! Th\n00000010: 69 73 20 69 73 20 78 78 64 2e 0a 00 01 ff        is is xxd.....\n", "", 0},
		{"", []string{"xxd", "-e", "-u", "-s", "3", "-l", "21", "r.bin"}, "00000003: E9C49F7A 7D58330E 11ECC7A2 A5805B36  z....3X}....6[..\n00000013: 3914EFCA       5E                    ...9^\n", "", 0},
		{"", []string{"xxd", "-e", "-a", "z.bin"}, "00000000: 00000000 00000000 00000000 00000000  ................\n*\n00000040: 00000078 00000000 00000000 00000000  x...............\n00000050: 00000000 00000000 00000000 00000000  ................\n00000060: 00000000 00000000 00000000 00000000  ................\n00000070:       00                             .\n", "", 0},
		{"", []string{"xxd", "-e", "-g", "16", "r.bin"}, "00000000: 3611ecc7a27d58330ee9c49f7a55300b  .0Uz....3X}....6\n00000010: 86613c17f2cda8835e3914efcaa5805b  [.....9^.....<a.\n00000020: d6b18c67421df8d3ae89643f1af5d0ab  ....?d.....Bg...\n00000030: 2601dcb7926d4823fed9b48f6a4520fb  . Ej....#Hm....&\n00000040: 76512c07e2bd98734e2904dfba95704b  Kp....)Ns....,Qv\n00000050: c6a17c57320de8c39e79542f0ae5c09b  ..../Ty....2W|..\n00000060:                         5a3510eb  ..5Z\n", "", 0},
	})
}

// FuzzXxd: no input or column/group setting makes xxd panic.
func FuzzXxd(f *testing.F) {
	f.Add("00000000: 4865 6c6c  He\n", "-r", "16", "2")
	f.Add("48656c\n", "-rp", "30", "0")
	f.Add("hello", "-e", "6", "4")
	f.Add("hello", "-b", "3", "1")
	f.Add("hello", "-i", "5", "0")
	f.Fuzz(func(t *testing.T, data, mode, cols, group string) {
		var errb strings.Builder
		b, _ := Lookup("xxd")
		args := []string{"xxd", "-c", cols, "-g", group}
		if mode != "" && mode[0] == '-' {
			args = append(args, mode)
		}
		// xxd -r zero-fills up to any address it reads, as the real xxd
		// does: the deadline (honoured between 64 KiB steps) bounds that.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		env := &Env{Ctx: ctx, Args: args, Stdin: strings.NewReader(data), Stdout: io.Discard, Stderr: &errb}
		Run(b, env)
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("xxd panicked on %q %q", args, data)
		}
	})
}
