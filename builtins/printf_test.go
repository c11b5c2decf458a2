package builtins_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// TestPrintf compares with bash 5.2.15 on this machine: every expected
// stdout, stderr and status below was produced by
// bash -c 'printf "$@"' printf ARGS... (LANG=C.UTF-8, TZ=UTC), with bash's
// "NAME: line 1: " prefix written as llmsh's "llmsh: ".
func TestPrintf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args           []string
		stdout, stderr string
		status         int
	}{
		{[]string{"printf", "%X %#x %#o\n", "255", "255", "8"}, "FF 0xff 010\n", "", 0},
		{[]string{"printf", "%+d % d|%+5d\n", "7", "7", "-3"}, "+7  7|   -3\n", "", 0},
		{[]string{"printf", "%d %d\n", "'A", "\"z"}, "65 122\n", "", 0},
		{[]string{"printf", "%d %d %d\n", "'", "'é", "-0x10"}, "0 233 -16\n", "", 0},
		{[]string{"printf", "%i %d %d\n", "010", "0X1F", " 12"}, "8 31 12\n", "", 0},
		{[]string{"printf", "%u %x %o\n", "-1", "-1", "-1"}, "18446744073709551615 ffffffffffffffff 1777777777777777777777\n", "", 0},
		{[]string{"printf", "%d\n", "abc"}, "0\n", "llmsh: printf: abc: invalid number\n", 1},
		{[]string{"printf", "%d|%d|%d\n", "12abc", "0x1g", "08"}, "12|1|0\n", "llmsh: printf: 12abc: invalid number\nllmsh: printf: 0x1g: invalid hex number\nllmsh: printf: 08: invalid octal number\n", 1},
		{[]string{"printf", "%d\n", "1.5"}, "1\n", "llmsh: printf: 1.5: invalid number\n", 1},
		{[]string{"printf", "%d\n", "99999999999999999999"}, "9223372036854775807\n", "llmsh: printf: warning: 99999999999999999999: Numerical result out of range\n", 0},
		{[]string{"printf", "%d|\n", ""}, "0|\n", "", 0},
		{[]string{"printf", "%+.3d|% 05d|%-+6d|%06.2d|%#x|%#X|%#o|%#.0o|%.0d|\n", "5", "-5", "5", "5", "0", "255", "0", "0", "0"}, "+005|-0005|+5    |    05|0|0XFF|0|0||\n", "", 0},
		{[]string{"printf", "%.2f\n", "3.14159"}, "3.14\n", "", 0},
		{[]string{"printf", "%8.3f|%-8.1f|%08.2f\n", "2.5", "2.5", "-2.5"}, "   2.500|2.5     |-0002.50\n", "", 0},
		{[]string{"printf", "%f %e %g\n", "1.5", "1234.5", "0.0001"}, "1.500000 1.234500e+03 0.0001\n", "", 0},
		{[]string{"printf", "%.0f %.0f %.0f %.0f\n", "0.5", "1.5", "2.5", "3.5"}, "0 2 2 4\n", "", 0},
		{[]string{"printf", "%.20f %.30e\n", "0.1", "0.1"}, "0.10000000000000000000 1.000000000000000000013552527156e-01\n", "", 0},
		{[]string{"printf", "%g %g %g %g %#g %g %G %.3g %.0g %g\n", "100000", "1000000", "0.0001", "0.00001", "1.5", "123456789", "1e-10", "3.14159", "25", "0"}, "100000 1e+06 0.0001 1e-05 1.50000 1.23457e+08 1E-10 3.14 2e+01 0\n", "", 0},
		{[]string{"printf", "%+08.3f|%-+9.2e|% f|%010.3e|%#.0f|%#.0e\n", "3.14159", "-2.5", "1", "-12345.678", "3", "3"}, "+003.142|-2.50e+00| 1.000000|-1.235e+04|3.|3.e+00\n", "", 0},
		{[]string{"printf", "%a %A %a %a %.2a %.0a %#a %a\n", "1.5", "1.5", "0.1", "0", "1.999", "1.5", "1", "-3.75"}, "0xcp-3 0XCP-3 0xc.ccccccccccccccdp-7 0x0p+0 0xf.fep-3 0xcp-3 0x8.p-3 -0xfp-2\n", "", 0},
		{[]string{"printf", "%f %f %f %F %e %E|%5f|%-5f|\n", "inf", "nan", "-nan", "inf", "-inf", "nan", "inf", "inf"}, "inf nan -nan INF -inf NAN|  inf|inf  |\n", "", 0},
		{[]string{"printf", "%f|%f|%f|%f\n", "1,5", "0x10", " 2", "0x1.8p1"}, "1.000000|16.000000|2.000000|3.000000\n", "llmsh: printf: 1,5: invalid number\n", 1},
		{[]string{"printf", "%e\n", "1e5000"}, "inf\n", "llmsh: printf: warning: 1e5000: Numerical result out of range\n", 0},
		{[]string{"printf", "%.2s|%.0s|\n", "abcdef", "xyz"}, "ab||\n", "", 0},
		{[]string{"printf", "%*d|%-*s|\n", "6", "42", "4", "ab"}, "    42|ab  |\n", "", 0},
		{[]string{"printf", "%*d|%.*f|%*s|\n", "-5", "3", "-1", "2.5", "3", "x"}, "3    |2.500000|  x|\n", "", 0},
		{[]string{"printf", "%10.4s|\n", "truncated"}, "      trun|\n", "", 0},
		{[]string{"printf", "%05s|%-5s|\n", "ab", "cd"}, "   ab|cd   |\n", "", 0},
		{[]string{"printf", "%c%c%c|%c|\n", "abc", "é", "x"}, "a\xc3x|\x00|\n", "", 0},
		{[]string{"printf", "%s %s\n", "a", "b", "c"}, "a b\nc \n", "", 0},
		{[]string{"printf", "%s\n"}, "\n", "", 0},
		{[]string{"printf", "no args\n", "extra"}, "no args\n", "", 0},
		{[]string{"printf", "%%|%ld %hhd %lld %zu\n", "1", "2", "3", "4"}, "%|1 2 3 4\n", "", 0},
		{[]string{"printf", "%y|\n", "1"}, "", "llmsh: printf: `y': invalid format character\n", 1},
		{[]string{"printf", "ab%"}, "ab", "llmsh: printf: `%': missing format character\n", 1},
		{[]string{"printf", "ab%5"}, "ab", "llmsh: printf: `%5': missing format character\n", 1},
		{[]string{"printf", "%5%|\n"}, "", "llmsh: printf: `%': invalid format character\n", 1},
		{[]string{"printf", "\\cx|a\\\\|\\q\\\"\\?\\e|\\0101\\101\\x41\\u00e9\\U0001F600\n"}, "\\cx|a\\|\\q\"?\x1b|\b1AAé😀\n", "", 0},
		{[]string{"printf", "a\\"}, "a\\", "", 0},
		{[]string{"printf", "\\x\\u|\n"}, "\\x\\u|\n", "llmsh: printf: missing hex digit for \\x\nllmsh: printf: missing unicode digit for \\u\n", 0},
		{[]string{"printf", "%b|\n", "a\\0101\\101\\c", "z"}, "aAA", "", 0},
		{[]string{"printf", "%b|%b|\n", "a\\x41\\u00e9\\q\\'\\\"", "\\e\\n\\\\"}, "aAé\\q\\'\\\"|\x1b\n\\|\n", "", 0},
		{[]string{"printf", "%-5b|%.2b|\n", "a\\tb", "xyz"}, "a\tb  |xy|\n", "", 0},
		{[]string{"printf", "%q\n", "a b'c", "", "#x", "a#b", "~x", "a:~b", "x=~", "!$&()*,;<>?[]^`{|}", "a\tb", "é", "\x01\x1b\\", "it's", "a\nb"}, "a\\ b\\'c\n''\n\\#x\na#b\n\\~x\na:\\~b\nx=\\~\n\\!\\$\\&\\(\\)\\*\\,\\;\\<\\>\\?\\[\\]\\^\\`\\{\\|\\}\n$'a\\tb'\né\n$'\\001\\E\\\\'\nit\\'s\n$'a\\nb'\n", "", 0},
		{[]string{"printf", "%#q %10q| %-6q| %5.2q|\n", "a'b", "ab", "cd", "abc"}, "a\\'b         ab| cd    |    ab|\n", "", 0},
		{[]string{"printf", "%Q|%.1Q|\n", "a b", "a b"}, "a\\ b|a|\n", "", 0},
		{[]string{"printf", "%()T|%(%Y-%m-%d %H:%M)T|%(x)Y\n", "0", "86400"}, "00:00:00|1970-01-02 00:00|%(x)Y\n", "llmsh: printf: warning: `Y': invalid time format specification\n", 0},
		{[]string{"printf", "%(%s)T\n", "1700000000"}, "1700000000\n", "", 0},
		{[]string{"printf", "%s\n", "--", "x"}, "--\nx\n", "", 0},
		{[]string{"printf", "--", "--- x\n"}, "--- x\n", "", 0},
		{[]string{"printf", "--"}, "", "printf: usage: printf [-v var] format [arguments]\n", 2},
		{[]string{"printf", "-x"}, "", "llmsh: printf: -x: invalid option\nprintf: usage: printf [-v var] format [arguments]\n", 2},
		{[]string{"printf"}, "", "printf: usage: printf [-v var] format [arguments]\n", 2},
		{[]string{"printf", ""}, "", "", 0},
		{[]string{"printf", "%'d\n", "1234567"}, "1234567\n", "", 0},
		{[]string{"printf", "%.0a %.1a %.0A\n", "0x1f", "0x1.fffp0", "0xe.8p0"}, "0x1p+5 0x1.0p+1 0XEP+0\n", "", 0},
		{[]string{"printf", "%.*Q|%5.*q|%.0Q|%5.Q|\n", "1", "a b c", "2", "a b c", "xyz", "xyz"}, "a\\ b\\ c|   a\\|''|     |\n", "", 0},
		{[]string{"printf", "%-5.-2d|%0*.-2s|%#.-3q|\n", "7", "-4", "x", "y"}, "%-5.0-2ld|%-04.0-2s||\n", "", 0},
		{[]string{"printf", "%d|%b|%d\n", "zz", "a\\cb", "1"}, "0|a", "llmsh: printf: zz: invalid number\n", 0},
		{[]string{"printf", "%d|%s\n", "1", "a", "x", "b"}, "1|a\n0|b\n", "llmsh: printf: x: invalid number\n", 1},
		{[]string{"printf", "%*d|\n", "4294967301"}, "    0|\n", "", 0},
		// bash 5.2: printf '\U1F600a|\UFFFFFFFF|\ud800|' (bash's own UTF-8
		// encoder goes past U+10FFFF and encodes surrogates).
		{[]string{"printf", "\\U1F600a|\\UFFFFFFFF|\\ud800|"}, "\xf7\xb6\x80\x8a||\xed\xa0\x80|", "", 0},
	}
	for _, tt := range tests {
		r := runShellPrintf(nil, tt.args...)
		if r.stdout != tt.stdout || r.stderr != tt.stderr || r.status != tt.status {
			t.Errorf("%q:\n got %q %q %d\nwant %q %q %d", tt.args, r.stdout, r.stderr, r.status, tt.stdout, tt.stderr, tt.status)
		}
	}
}

// runShellPrintf runs the shell's printf (bash's) with the environment
// environ.
func runShellPrintf(environ []string, args ...string) result {
	var out, errb bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""),
		Stdout: &out, Stderr: &errb, Environ: environ}
	st := Run(Builtin{Name: "printf", Run: ShellPrintf}, env)
	return result{out.String(), errb.String(), st}
}

// TestPrintfTZ checks that %(FMT)T uses the script's TZ (bash 5.2:
// TZ=JST-9 printf '%(%H:%M %Z)T|\n' 0 prints "09:00 JST|").
func TestPrintfTZ(t *testing.T) {
	t.Parallel()
	r := runShellPrintf([]string{"TZ=JST-9"}, "printf", "%(%H:%M %Z)T|\n", "0")
	if r.status != 0 || r.stdout != "09:00 JST|\n" || r.stderr != "" {
		t.Errorf("got %q %q %d", r.stdout, r.stderr, r.status)
	}
}

// TestPrintfNoPanic runs malformed formats and arguments, and widths and
// precisions of up to 2^31-1: no panic, and printf stops at the output
// cap (a writer that fails past 1 MiB) rather than building gigabytes.
func TestPrintfNoPanic(t *testing.T) {
	t.Parallel()
	gnuPrintf, _ := Lookup("printf")
	for _, args := range [][]string{
		{"printf", "%"}, {"printf", "%*"}, {"printf", "%.*"}, {"printf", "%("}, {"printf", "%(%"},
		{"printf", "%(x)"}, {"printf", "%d", "'"}, {"printf", "%f", "\""}, {"printf", "%f", "0x"},
		{"printf", "%f", "0x.p"}, {"printf", "%a", "1e-5000"}, {"printf", "%.99999999999999999999f", "1"},
		{"printf", "%99999999999999999999d", "1"}, {"printf", "%*d", "99999999999999999999", "1"},
		{"printf", "\\"}, {"printf", "%b", "\\"}, {"printf", "%b", "\\x"}, {"printf", "%b", "\\0"},
		{"printf", "%f", "nan(abc"}, {"printf", "%e", "1e99999999999999999999"}, {"printf", "%.3a", "0xf.f8p0"},
		{"printf", "%.*f", "2147483647", "1"}, {"printf", "%.*e", "2147483647", "1"}, {"printf", "%#.*g", "2147483647", "1"},
		{"printf", "%.*a", "2147483647", "1"}, {"printf", "%.*d", "2147483647", "1"}, {"printf", "%3000000000b", "x"},
	} {
		for _, b := range []Builtin{{Name: "printf", Run: ShellPrintf}, gnuPrintf} {
			out := &cappedWriter{max: 1 << 20}
			var errb bytes.Buffer
			env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""), Stdout: out, Stderr: &errb}
			st := Run(b, env)
			if strings.Contains(errb.String(), "internal error") || out.over && (st != 1 || !strings.Contains(errb.String(), "write error")) {
				t.Errorf("%q: %q, status %d (%d bytes of output)", args, errb.String(), st, out.n)
			}
		}
	}
}

// cappedWriter counts what is written and keeps its last bytes; it fails
// every write past max bytes, as an output cap does.
type cappedWriter struct {
	n, max int
	over   bool
	tail   []byte
}

func (w *cappedWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.max {
		w.over = true
		return 0, errors.New("output limit exceeded")
	}
	w.n += len(p)
	w.tail = append(w.tail, p[max(0, len(p)-8):]...)
	w.tail = w.tail[max(0, len(w.tail)-8):]
	return len(p), nil
}

// TestPrintfWideFields checks fields past the old 16 MiB cut against bash
// 5.2: printf '%*s|' 16777300 x writes 16777301 bytes, '%.16777300e' the
// digits, '%3000000000d' nothing (glibc: EOVERFLOW), its argument used.
func TestPrintfWideFields(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		n    int
		tail string
	}{
		{[]string{"printf", "%*s|", "16777300", "x"}, 16777301, "x|"},
		{[]string{"printf", "%.16777300e|", "1.5"}, 16777307, "0e+00|"},
		{[]string{"printf", "%-.16777300d|", "5"}, 16777301, "05|"},
		{[]string{"printf", "%3000000000d|%s|", "5", "y"}, 3, "|y|"},
		{[]string{"printf", "%.99999999999999999999s|", "x"}, 1, "|"},
		{[]string{"printf", "%.3000000000b|", "ab"}, 3, "ab|"},
	} {
		out := &cappedWriter{max: 1 << 30}
		var errb bytes.Buffer
		env := &Env{Ctx: context.Background(), Args: tt.args, Stdin: strings.NewReader(""), Stdout: out, Stderr: &errb}
		st := Run(Builtin{Name: "printf", Run: ShellPrintf}, env)
		if out.n != tt.n || !strings.HasSuffix(string(out.tail), tt.tail) || errb.Len() > 0 || st != 0 {
			t.Errorf("%q: %d bytes ending %q, %q %d", tt.args, out.n, out.tail, errb.String(), st)
		}
	}
}

// TestPrintfCharConst checks character constants in coreutils' printf
// and bash's: coreutils 9.1 (env printf) warns of what follows the
// character and takes a quote alone for no number; under LC_ALL=C both
// take the first byte (bash 5.2 and coreutils: printf '%d' "'é" is 195).
func TestPrintfCharConst(t *testing.T) {
	t.Parallel()
	gnuPrintf, _ := Lookup("printf")
	tests := []struct {
		b              Builtin
		environ        []string
		args           []string
		stdout, stderr string
		status         int
	}{
		{gnuPrintf, nil, []string{"printf", "%d|%x|%.1f|\n", "'ab", "\"éz", "'é"}, "97|e9|233.0|\n",
			"printf: warning: b: character(s) following character constant have been ignored\n" +
				"printf: warning: z: character(s) following character constant have been ignored\n", 0},
		{gnuPrintf, []string{"LC_ALL=C"}, []string{"printf", "%d|%d\n", "'é", "'"}, "195|0\n",
			"printf: warning: \xa9: character(s) following character constant have been ignored\n" +
				"printf: '\\'': expected a numeric value\n", 1},
		{Builtin{Name: "printf", Run: ShellPrintf}, nil, []string{"printf", "%d %d %d\n", "'ab", "'", "'\xffé"}, "97 0 255\n", "", 0},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		env := &Env{Ctx: context.Background(), Args: tt.args, Stdin: strings.NewReader(""),
			Stdout: &out, Stderr: &errb, Environ: tt.environ}
		st := Run(tt.b, env)
		if out.String() != tt.stdout || errb.String() != tt.stderr || st != tt.status {
			t.Errorf("%q %q:\n got %q %q %d\nwant %q %q %d", tt.environ, tt.args, out.String(), errb.String(), st, tt.stdout, tt.stderr, tt.status)
		}
	}
}
