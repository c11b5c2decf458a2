package builtins_test

import (
	"context"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// Expected output produced by GNU coreutils 9.1 numfmt on this machine (LC_ALL=C).
func TestNumfmtReal(t *testing.T) {
	t.Parallel()
	var files map[string]string // numbers only: no file access
	i6Run(t, files, []i6Case{
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "999", "1000", "1001", "1500", "15000", "150000", "1499999", "999999", "1000000", "123456789", "0", "0.5"}, "999\n1.0K\n1.1K\n1.5K\n15K\n150K\n1.5M\n1.0M\n1.0M\n124M\n0\n0\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=iec", "999", "1000", "1001", "1500", "15000", "150000", "1499999", "999999", "1000000", "123456789", "0", "0.5"}, "999\n1000\n1001\n1.5K\n15K\n147K\n1.5M\n977K\n977K\n118M\n0\n0\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=iec-i", "999", "1000", "1001", "1500", "15000", "150000", "1499999", "999999", "1000000", "123456789", "0", "0.5"}, "999\n1000\n1001\n1.5Ki\n15Ki\n147Ki\n1.5Mi\n977Ki\n977Ki\n118Mi\n0\n0\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--", "-1500", "-999", "-1000001"}, "-1.5K\n-999\n-1.1M\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "-1500"}, "", "numfmt: invalid option -- '1'\nTry 'numfmt --help' for more information.\n", 1},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from=si", "1.5K", "1M", "2G"}, "1500\n1000000\n2000000000\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from=si", "1.5k", "1M"}, "", "numfmt: invalid suffix in input: '1.5k'\n", 2},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from=iec", "1K", "1.5M"}, "1024\n1572864\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from=auto", "1Ki", "1K", "3Mi"}, "1024\n1000\n3145728\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from=iec-i", "1Ki"}, "1024\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from=iec-i", "1K"}, "", "numfmt: missing 'i' suffix in input: '1K' (e.g Ki/Mi/Gi)\n", 2},
		{"", []string{"numfmt", "--from=iec-i", "1Ki", "7"}, "1024\n", "numfmt: missing 'i' suffix in input: '7' (e.g Ki/Mi/Gi)\n", 2},
		{"", []string{"numfmt", "--field=2", "--field=2", "1"}, "", "numfmt: multiple field specifications\n", 1},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from=si", "1Ki"}, "", "numfmt: invalid suffix in input '1Ki': 'i'\n", 2},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--round=down", "1999"}, "1.9K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--round=up", "1001", "-1001"}, "", "numfmt: invalid option -- '1'\nTry 'numfmt --help' for more information.\n", 1},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--round=nearest", "1450", "1550", "1449"}, "1.5K\n1.6K\n1.4K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--round=towards-zero", "--", "-1999"}, "-1.9K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--round=down", "--", "-1001"}, "-1.1K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--suffix=B", "--to=si", "1500"}, "1.5KB\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--suffix=B", "--from=si", "1.5KB"}, "1500B\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--padding=10", "1500"}, "      1500\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--padding=-10", "1500"}, "1500      \n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--format=%08.2f", "1500"}, "01500.00\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--format=%.3f", "--to=si", "1500000"}, "1.500M\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--format=%'f", "1234567"}, "1234567\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "abc"}, "", "numfmt: invalid number: 'abc'\n", 2},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "1e3"}, "", "numfmt: invalid suffix in input: '1e3'\n", 2},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "1K"}, "", "numfmt: rejecting suffix in input: '1K' (consider using --from)\n", 2},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "1.50", "1.5", "2.25"}, "1.50\n1.5\n2.25\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from=si", "1.5K", "1.25M", "1.5"}, "1500\n1250000\n1.5\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from=si", "--to=si", "1.5K"}, "1.5K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "1.55", "12.5"}, "2\n13\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si"}, "  1.0K  2000\n1.5K x 3000\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--field=2"}, "  1000  2.0K\n1500 ", "numfmt: invalid number: 'x'\n", 2},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--field=2", "--invalid=warn"}, "  1000  2.0K\n1500 x 3000\n", "numfmt: invalid number: 'x'\n", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--field=2", "--invalid=fail"}, "  1000  2.0K\n1500 x 3000\n", "numfmt: invalid number: 'x'\n", 2},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--field=2", "--invalid=ignore"}, "  1000  2.0K\n1500 x 3000\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--field=1,3"}, "  1.0K  2000\n1.5K x 3.0K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--field=-2"}, "  1.0K  2.0K\n1.5K ", "numfmt: invalid number: 'x'\n", 2},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--field=2-", "--invalid=ignore"}, "  1000  2.0K\n1500 x 3.0K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--header", "--to=si"}, "  1000  2000\n1.5K x 3000\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--header=2", "--to=si"}, "  1000  2000\n1500 x 3000\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "12345678901234567890123"}, "13Z\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "99999999999999999999"}, "", "numfmt: value too large to be printed: '1e+20' (consider using --to)\n", 2},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=iec", "--format=%10f", "2048"}, "      2.0K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--format=%-10f|", "2048"}, "2048      |\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--format=x%fy", "5"}, "x5y\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--format=%d", "5"}, "", "numfmt: invalid format '%d', directive must be %[0]['][-][N][.][N]f\n", 1},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--round=x", "1"}, "", "numfmt: invalid argument 'x' for '--round'\nValid arguments are:\n  - 'up'\n  - 'down'\n  - 'from-zero'\n  - 'towards-zero'\n  - 'nearest'\nTry 'numfmt --help' for more information.\n", 1},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=auto", "1"}, "", "numfmt: invalid argument 'auto' for '--to'\nValid arguments are:\n  - 'none'\n  - 'si'\n  - 'iec'\n  - 'iec-i'\nTry 'numfmt --help' for more information.\n", 1},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--padding=8", "1500"}, "    1.5K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from-unit=512", "--to=iec", "4"}, "2.0K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to-unit=1K", "2048"}, "3\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "-d", ",", "--field=2", "--to=si"}, "  1000  2000\n1500 x 3000\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "1000000000000000000000000000"}, "", "numfmt: value too large to be converted: '1000000000000000000000000000'\n", 2},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--field", "0", "1"}, "", "numfmt: fields are numbered from 1\nTry 'numfmt --help' for more information.\n", 1},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=iec-i", "1048576", "1073741824"}, "1.0Mi\n1.0Gi\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "9999", "99999", "999499", "999500"}, "10K\n100K\n1.0M\n1.0M\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--to=si", "--round=nearest", "999499", "999500", "9950", "9949"}, "999K\n1.0M\n10K\n9.9K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--padding=0", "1"}, "", "numfmt: invalid padding value '0'\n", 1},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--header", "1"}, "1\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from-unit=1Ki", "--to=iec", "4"}, "4.0K\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from-unit=K", "4"}, "4000\n", "", 0},
		{"  1000  2000\n1500 x 3000\n", []string{"numfmt", "--from=si", "1K", "2x", "3K"}, "1000\n", "numfmt: invalid suffix in input: '2x'\n", 2},
		{"a,1500,c\n2,3000000,x\n", []string{"numfmt", "-d", ",", "--field=2", "--to=si"}, "a,1.5K,c\n2,3.0M,x\n", "", 0},
	})
}

func TestNumfmtStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("1000 2000\n", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "numfmt", "--to=si"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &strings.Builder{}, "numfmt"); st != 1 || msg != "" {
		t.Errorf("cancelled: %d %q", st, msg)
	}
}

// FuzzNumfmt: no input line or format makes numfmt panic.
func FuzzNumfmt(f *testing.F) {
	f.Add("1500 x 2.5K", "--to=si", "%08.2f")
	f.Add("-1.5Mi", "--from=auto", "%'-10f")
	f.Add("99999999999999999999999", "--to=iec-i", "x%fy")
	f.Fuzz(func(t *testing.T, line, mode, format string) {
		var out, errb strings.Builder
		b, _ := Lookup("numfmt")
		args := []string{"numfmt", "--field=-", "--invalid=ignore", "--format=" + format}
		if strings.HasPrefix(mode, "--") {
			args = append(args, mode)
		}
		env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(line), Stdout: &out, Stderr: &errb}
		Run(b, env)
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("numfmt panicked on %q %q", args, line)
		}
	})
}

// Expected values checked against GNU coreutils 9.1 numfmt (LC_ALL=C).
func TestNumfmtFieldsAndLimits(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"", []string{"numfmt", "--from=iec", "1E", "8E", "1.5E"}, "1152921504606846976\n9223372036854775808\n1729382256910270464\n", "", 0},
		{"", []string{"numfmt", "--from=iec", ""}, "", "numfmt: invalid number: ''\n", 2},
		{"", []string{"numfmt", "9999999999999999999"}, "9999999999999999999\n", "", 0},
		{"", []string{"numfmt", "10000000000000000000"}, "", "numfmt: value too large to be printed: '1e+19' (consider using --to)\n", 2},
		{"", []string{"numfmt", "--", "-10000000000000000000"}, "", "numfmt: value too large to be printed: '-1e+19' (consider using --to)\n", 2},
		{"\n\n", []string{"numfmt"}, "", "numfmt: invalid number: ''\n", 2},
		{"  x\n", []string{"numfmt", "--field=1,2"}, "", "numfmt: invalid number: 'x'\n", 2},
		{"1  x\n", []string{"numfmt", "--field=1,2"}, "1 ", "numfmt: invalid number: 'x'\n", 2},
		{"1\t\tx\n", []string{"numfmt", "--field=1,2"}, "1 ", "numfmt: invalid number: 'x'\n", 2},
		{"1 \n", []string{"numfmt", "--field=1,2"}, "1 ", "numfmt: invalid number: ''\n", 2},
		{"1\t\t2000000 x\n", []string{"numfmt", "--field=2", "--to=si"}, "1     2.0M x\n", "", 0},
		{"1\t\tx 2000\n", []string{"numfmt", "--field=1,3", "--to=si", "--invalid=warn"}, "1 \tx 2.0K\n", "", 0},
		{"a\t\tb\n", []string{"numfmt", "--field=3", "--to=si"}, "a \tb\n", "", 0},
		{"  1000 2000\n", []string{"numfmt", "--to=si", "--field=-"}, "  1.0K 2.0K\n", "", 0},
		{"1000\t2000\n", []string{"numfmt", "--to=si", "--padding=8", "--field=-"}, "    1.0K     2.0K\n", "", 0},
	})
}

// An invalid field is reported after the output before it, as GNU's
// error() flushes standard output first (checked against GNU numfmt 9.1
// with 2>&1).
func TestNumfmtErrorAfterOutput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		args []string
		want string
	}{
		{"1  x\n", []string{"numfmt", "--field=1,2"}, "1 numfmt: invalid number: 'x'\n"},
		{"1000 x\n2000\n", []string{"numfmt", "--to=si", "--invalid=warn", "--field=-"}, "1.0K numfmt: invalid number: 'x'\nx\n2.0K\n"},
	} {
		b, _ := Lookup("numfmt")
		var out strings.Builder
		env := &Env{Ctx: context.Background(), Args: c.args, Stdin: strings.NewReader(c.in), Stdout: &out, Stderr: &out}
		Run(b, env)
		if out.String() != c.want {
			t.Errorf("%q: got %q, want %q", c.args, out.String(), c.want)
		}
	}
}
