package builtins_test

import (
	"context"
	"strings"
	"testing"
)

// Expected output produced by GNU strings (binutils 2.40) on this machine.
func TestStringsReal(t *testing.T) {
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
		{"", []string{"strings", "s.bin"}, "defg\thij\nklmnop\nqrstuvwxyz0123 \n", "", 0},
		{"", []string{"strings", "-n", "3", "-t", "x", "s.bin"}, "      0 abc\n      4 defg\thij\n      d klmnop\n     15 qrstuvwxyz0123 \n     25  ab\n", "", 0},
		{"", []string{"strings", "-t", "d", "-n2", "s.bin"}, "      0 abc\n      4 defg\thij\n     13 klmnop\n     21 qrstuvwxyz0123 \n     37  ab\n", "", 0},
		{"", []string{"strings", "-to", "s.bin"}, "      4 defg\thij\n     15 klmnop\n     25 qrstuvwxyz0123 \n", "", 0},
		{"", []string{"strings", "-o", "s.bin"}, "      4 defg\thij\n     15 klmnop\n     25 qrstuvwxyz0123 \n", "", 0},
		{"", []string{"strings", "nosuch"}, "", "strings: 'nosuch': No such file\n", 1},
		{"", []string{"strings", "-n", "0", "s.bin"}, "", "strings: invalid minimum string length 0\n", 1},
		{"", []string{"strings", "-n", "x", "s.bin"}, "", "strings: invalid integer argument x\n", 1},
		{"", []string{"strings", "-f", "s.bin", "t.bin"}, "s.bin: defg\thij\ns.bin: klmnop\ns.bin: qrstuvwxyz0123 \nt.bin: Hello, world! This is xxd.\n", "", 0},
		{"", []string{"strings", "-8", "r.bin"}, "", "", 0},
		{"", []string{"strings", "-n", "2", "r.bin"}, "0Uz\n3X}\n6[\n9^\n<a\n?d\nBg\n Ej\n#Hm\n&Kp\n)Ns\n,Qv\n/Ty\n2W|\n5Z\n", "", 0},
		{"", []string{"strings", "-e", "S", "-n", "2", "r.bin"}, "0Uz\x9f\xc4\xe9\n3X}\xa2\xc7\xec\n6[\x80\xa5\xca\xef\n9^\x83\xa8\xcd\xf2\n<a\x86\xab\xd0\xf5\n?d\x89\xae\xd3\xf8\nBg\x8c\xb1\xd6\xfb Ej\x8f\xb4\xd9\xfe#Hm\x92\xb7\xdc\n&Kp\x95\xba\xdf\n)Ns\x98\xbd\xe2\n,Qv\x9b\xc0\xe5\n/Ty\x9e\xc3\xe8\n2W|\xa1\xc6\xeb\n5Z\n", "", 0},
		{"", []string{"strings", "-w", "s.bin"}, "defg\thij\nklmnop\nqrstuvwxyz0123 \n ab\n\n", "", 0},
		{"", []string{"strings", "-s", "::", "s.bin"}, "defg\thij::klmnop::qrstuvwxyz0123 ::", "", 0},
		{"", []string{"strings", "-a", "s.bin"}, "defg\thij\nklmnop\nqrstuvwxyz0123 \n", "", 0},
		{"", []string{"strings", "-", "s.bin"}, "defg\thij\nklmnop\nqrstuvwxyz0123 \n", "", 0},
		{"", []string{"strings", "s.bin", "nosuch", "t.bin"}, "defg\thij\nklmnop\nqrstuvwxyz0123 \nHello, world! This is xxd.\n", "strings: 'nosuch': No such file\n", 1},
		{"", []string{"strings", "--bytes=6", "s.bin"}, "defg\thij\nklmnop\nqrstuvwxyz0123 \n", "", 0},
		{"", []string{"strings", "e"}, "", "", 0},
		{"abc\x00defg\thij\nklmnop\x01\x80qrstuvwxyz0123 \x7f ab\n", []string{"strings"}, "defg\thij\nklmnop\nqrstuvwxyz0123 \n", "", 0},
		{"abc\x00defg\thij\nklmnop\x01\x80qrstuvwxyz0123 \x7f ab\n", []string{"strings", "-f"}, "{standard input}: defg\thij\n{standard input}: klmnop\n{standard input}: qrstuvwxyz0123 \n", "", 0},
		{"hello\nworld", []string{"strings"}, "hello\nworld\n", "", 0},
	})
}

// i6Case is one call checked against the real tool's output.
type i6Case struct {
	stdin  string
	args   []string
	stdout string
	stderr string
	status int
}

// i6Run runs each case over files (created fresh for each case).
func i6Run(t *testing.T, files map[string]string, cases []i6Case) {
	t.Helper()
	for _, c := range cases {
		r := runCmd(t, files, c.stdin, c.args...)
		if r.stdout != c.stdout || r.stderr != c.stderr || r.status != c.status {
			t.Errorf("%q:\n got (%d) %q\n     %q\nwant (%d) %q\n     %q", c.args, r.status, r.stdout, r.stderr, c.status, c.stdout, c.stderr)
		}
	}
}

func TestStringsStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("abcdefgh\x00\x01", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "strings"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &strings.Builder{}, "strings"); st != 1 || msg != "" {
		t.Errorf("cancelled: %d %q", st, msg)
	}
}
