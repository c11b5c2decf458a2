// Tests of the llmsh changes to this copy of GoAWK (see ../LLMSH.md).
package interp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/third_party/goawk/interp"
	"github.com/llmsh/llmsh/third_party/goawk/parser"
)

// memFS is an in-memory file system for the OpenFile and CreateFile hooks.
type memFS struct {
	files  map[string]string
	opened []string
}

type memWriter struct {
	fs   *memFS
	name string
	buf  bytes.Buffer
}

func (w *memWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }
func (w *memWriter) Close() error {
	if strings.HasPrefix(w.name, "/full/") {
		return &fs.PathError{Op: "close", Path: w.name, Err: errors.New("No space left on device")}
	}
	w.fs.files[w.name] += w.buf.String()
	return nil
}

func (m *memFS) config(c *interp.Config) {
	c.OpenFile = func(name string) (io.ReadCloser, error) {
		m.opened = append(m.opened, "r:"+name)
		if name == "dir" {
			return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EISDIR}
		}
		s, ok := m.files[name]
		if !ok {
			return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("No such file or directory")}
		}
		return io.NopCloser(strings.NewReader(s)), nil
	}
	c.CreateFile = func(name string, appending bool) (io.WriteCloser, error) {
		m.opened = append(m.opened, "w:"+name)
		if strings.HasPrefix(name, "/denied/") {
			return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("Permission denied")}
		}
		if !appending {
			m.files[name] = ""
		}
		return &memWriter{fs: m, name: name}, nil
	}
}

func runHooked(t *testing.T, src string, args []string, m *memFS, environ []string) (stdout, stderr string, err error) {
	t.Helper()
	prog, err := parser.ParseProgram([]byte(src), nil)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var out, errb bytes.Buffer
	c := &interp.Config{
		Stdin:   strings.NewReader("in1\nin2\n"),
		Output:  &out,
		Error:   &errb,
		Argv0:   "awk",
		Args:    args,
		Environ: environ,
	}
	if m != nil {
		m.config(c)
	}
	_, err = interp.ExecProgram(prog, c)
	return out.String(), errb.String(), err
}

func TestLLMSHHooks(t *testing.T) {
	tests := []struct {
		name, src string
		args      []string
		out, err  string // err: expected error text, "" for none
		stderr    string
		files     map[string]string // expected files afterwards (subset)
		opened    []string
	}{
		{name: "argv files through OpenFile", src: `{ print FILENAME, FNR, NR, $0 }`, args: []string{"a", "b"},
			out: "a 1 1 A1\na 2 2 A2\nb 1 3 B1\n", opened: []string{"r:a", "r:b"}},
		{name: "dash and /dev/stdin are stdin", src: `{ print FILENAME, $0 }`, args: []string{"/dev/stdin"},
			out: "/dev/stdin in1\n/dev/stdin in2\n"},
		{name: "getline from file", src: `BEGIN { while ((getline l < "a") > 0) print "got", l }`,
			out: "got A1\ngot A2\n", opened: []string{"r:a"}},
		{name: "getline missing file is -1", src: `BEGIN { print (getline l < "nope") }`,
			out: "-1\n", opened: []string{"r:nope"}},
		{name: "getline dir is a read error", src: `BEGIN { print (getline l < "dir") }`, err: "read error (Is a directory)"},
		{name: "getline /dev/stdin", src: `BEGIN { getline l < "/dev/stdin"; getline m < "-"; print l, m }`,
			out: "in1 in2\n", opened: []string{}},
		{name: "print > and >>", src: `BEGIN { print "x" > "o"; print "y" > "o"; close("o"); print "z" >> "o" }`,
			files: map[string]string{"o": "x\ny\nz\n"}, opened: []string{"w:o", "w:o"}},
		{name: "dev stdout and stderr stay local", src: `BEGIN { print "out" > "/dev/stdout"; print "err" > "/dev/stderr" }`,
			out: "out\n", stderr: "err\n", opened: []string{}},
		{name: "dev fd 0 1 2 stay local", src: `BEGIN { getline l < "/dev/fd/0"; print l > "/dev/fd/1"; print "err" > "/dev/fd/2" }`,
			out: "in1\n", stderr: "err\n", opened: []string{}},
		{name: "dev fd 0 operand", src: `{ print FILENAME, $0 }`, args: []string{"/dev/fd/0"},
			out: "/dev/fd/0 in1\n/dev/fd/0 in2\n", opened: []string{}},
		{name: "missing argv file", src: `{ print }`, args: []string{"a", "nope"},
			out: "A1\nA2\n", err: "cannot open nope (No such file or directory)"},
		{name: "directory argv is a read error", src: `{ print }`, args: []string{"b", "dir", "b"},
			out: "B1\n", err: "read error (Is a directory)"},
		{name: "redirect error", src: `BEGIN { print "x" > "/denied/f" }`,
			err: "cannot open \"/denied/f\" for output (Permission denied)"},
		{name: "close error at exit", src: `BEGIN { print "x" > "/full/f"; print "y" > "o" }`,
			err: "error writing `/full/f': No space left on device", files: map[string]string{"o": "y\n"}},
		{name: "close error at exit after exit", src: `BEGIN { print "x" > "/full/f"; exit 3 }`,
			err: "error writing `/full/f': No space left on device"},
		{name: "system refused", src: `BEGIN { system("echo hi") }`, err: "system() is not allowed in llmsh"},
		{name: "output pipe refused", src: `BEGIN { print "hi" | "cat" }`, err: `print | "command" is not allowed in llmsh`},
		{name: "input pipe refused", src: `BEGIN { "echo hi" | getline x }`, err: `"command" | getline is not allowed in llmsh`},
		{name: "close of a command is -1", src: `BEGIN { print close("echo hi") }`, out: "-1\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &memFS{files: map[string]string{"a": "A1\nA2\n", "b": "B1\n"}}
			out, stderr, err := runHooked(t, tc.src, tc.args, m, []string{})
			if tc.err == "" && err != nil {
				t.Fatalf("error %v", err)
			}
			if tc.err != "" && (err == nil || err.Error() != tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if out != tc.out {
				t.Errorf("stdout %q, want %q", out, tc.out)
			}
			if stderr != tc.stderr {
				t.Errorf("stderr %q, want %q", stderr, tc.stderr)
			}
			for name, want := range tc.files {
				if got := m.files[name]; got != want {
					t.Errorf("file %s = %q, want %q", name, got, want)
				}
			}
			if tc.opened != nil && strings.Join(m.opened, ",") != strings.Join(tc.opened, ",") {
				t.Errorf("opened %q, want %q", m.opened, tc.opened)
			}
		})
	}
}

func TestLLMSHNoExecError(t *testing.T) {
	_, _, err := runHooked(t, `BEGIN { system("true") }`, nil, nil, nil)
	var ne interp.ErrNoExec
	if !errors.As(err, &ne) || ne.What != "system()" {
		t.Fatalf("got %v (%T), want ErrNoExec", err, err)
	}
}

func TestLLMSHNoHooksNoFiles(t *testing.T) {
	_, _, err := runHooked(t, `{ print }`, []string{"/etc/passwd"}, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "no file system configured") {
		t.Fatalf("reading without OpenFile: %v", err)
	}
	_, _, err = runHooked(t, `BEGIN { print "x" > "/tmp/llmsh-goawk-should-not-exist" }`, nil, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "no file system configured") {
		t.Fatalf("writing without CreateFile: %v", err)
	}
	out, _, err := runHooked(t, `BEGIN { print (getline l < "/etc/passwd") }`, nil, nil, nil)
	if err == nil && out != "-1\n" {
		t.Fatalf("getline without OpenFile read something: %q", out)
	}
}

func TestLLMSHEnviron(t *testing.T) {
	src := `BEGIN { for (k in ENVIRON) print k "=" ENVIRON[k] }`
	out, _, err := runHooked(t, src, nil, nil, nil)
	if err != nil || out != "" {
		t.Fatalf("nil Environ: out %q err %v, want empty ENVIRON", out, err)
	}
	out, _, err = runHooked(t, src, nil, nil, []string{"A", "1", "B", "two"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	sort.Strings(lines)
	if strings.Join(lines, ",") != "A=1,B=two" {
		t.Fatalf("ENVIRON = %q", lines)
	}
}

// TestLLMSHNumbers: string-to-number conversion of input data as in mawk
// 1.3.4 20200120 (checked with Debian 12's mawk '{print $1+0, ($1 == $1+0)}'):
// glibc's strtod reads hexadecimal, nan and inf; a field is a numeric string
// only when it ends with a digit or a dot ("0X1f" is 31 but a string).
func TestLLMSHNumbers(t *testing.T) {
	prog, err := parser.ParseProgram([]byte(`{ print $1+0, ($1 == $1+0) }`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := "0x10\n0X1f\n-0x1\nnan\ninf\ninfinity\n+inf\n-nan\n1e3\n 12 \n.5\n0x\n"
	_, err = interp.ExecProgram(prog, &interp.Config{Stdin: strings.NewReader(in), Output: &out, Error: &out})
	if err != nil {
		t.Fatal(err)
	}
	want := "16 1\n31 0\n-1 1\nnan 1\ninf 1\ninf 0\ninf 0\n-nan 1\n1000 1\n12 1\n0.5 1\n0 0\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestLLMSHBigIntegers: integral values beyond mawk 1.3.4's int range
// (-2147483647..2147483647) convert by OFMT and CONVFMT as mawk 1.3.4
// 20200120 converts them (checked with Debian 12's mawk), in print, in
// string conversion and as array subscripts; printf's %d clamps to that
// range and %x %u to 0..4294967295.
func TestLLMSHBigIntegers(t *testing.T) {
	src := `BEGIN { print 1e20, 1e30, -2^70, 2^53, 0.5; x = 1e20 ""; print x; a[1e20] = 1; for (k in a) print k
	print 2147483647, -2147483647, 2^31, -2^31; printf "%d %d %x %u\n", 2^31, -2^40, 2^40, -1 }`
	prog, err := parser.ParseProgram([]byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := interp.ExecProgram(prog, &interp.Config{Output: &out, Error: &out, Stdin: strings.NewReader("")}); err != nil {
		t.Fatal(err)
	}
	want := "1e+20 1e+30 -1.18059e+21 9.0072e+15 0.5\n1e+20\n1e+20\n" +
		"2147483647 -2147483647 2.14748e+09 -2.14748e+09\n2147483647 -2147483647 ffffffff 0\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestLLMSHCase: toupper and tolower change only ASCII letters in bytes
// mode, all letters with Config.Chars (gawk 5.2.1 with LC_ALL=C and with
// LANG=C.UTF-8).
func TestLLMSHCase(t *testing.T) {
	prog, err := parser.ParseProgram([]byte(`BEGIN { print toupper("\303\240b\303\251"), tolower("\303\200B\303\211") }`), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, chars := range []bool{false, true} {
		var out bytes.Buffer
		if _, err := interp.ExecProgram(prog, &interp.Config{Output: &out, Error: &out, Stdin: strings.NewReader(""), Chars: chars}); err != nil {
			t.Fatal(err)
		}
		want := "\303\240B\303\251 \303\200b\303\211\n"
		if chars {
			want = "\303\200B\303\211 \303\240b\303\251\n"
		}
		if out.String() != want {
			t.Errorf("chars=%v: got %q, want %q", chars, out.String(), want)
		}
	}
}

// TestLLMSHNonFinite: infinities and NaNs print as mawk 1.3.4 20200120 on
// x86-64 prints them (checked with Debian 12's mawk), in print, string
// conversion and every numeric printf verb; the input "nan" is a NaN.
func TestLLMSHNonFinite(t *testing.T) {
	src := `BEGIN { x = 2^1024; printf "%f %d %e %g %s|%5.1f %x %i %c|\n", x, x, -x, x, x, x, x, -x, 65
	n = log(-1); printf "%f %d %s\n", n, n, n
	print x, -x, n, sqrt(-1), -log(-1), x - x, x "" }
	{ print $1 + 0 }`
	prog, err := parser.ParseProgram([]byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := "+nan\n-nan\n+inf\n-inf\nnan\n"
	if _, err := interp.ExecProgram(prog, &interp.Config{Output: &out, Error: &out, Stdin: strings.NewReader(in)}); err != nil {
		t.Fatal(err)
	}
	want := "inf 2147483647 -inf inf inf|  inf ffffffff -2147483647 A|\n-nan -2147483647 -nan\n" +
		"inf -inf -nan -nan nan -nan inf\nnan\n-nan\ninf\n-inf\nnan\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestLLMSHMaxString: no string awk builds passes interp.MaxString, however
// it grows: a doubling concatenation (one allocation of gigabytes ran the
// process out of memory), a multiple concatenation, sub and gsub, a record
// rebuilt with a long OFS, a subscript joined with a long SUBSEP. Just
// under the limit, the same operations work. The limit is lowered to 1 MiB
// for the test (the code paths are the same at 256 MiB, which took 7 GB and
// half a minute under -race).
func TestLLMSHMaxString(t *testing.T) {
	defer func(n int) { interp.MaxString = n }(interp.MaxString)
	interp.MaxString = 1 << 20
	const kib4 = `m = "b"; for (i = 0; i < 12; i++) m = m m; ` // 4 KiB
	for _, src := range []string{
		`BEGIN { s = "a"; for (i = 0; i < 40; i++) s = s s }`,
		`BEGIN { s = "a"; for (i = 0; i < 40; i++) s = s s s }`,
		`BEGIN { ` + kib4 + `s = sprintf("%300s", ""); gsub(/ /, m, s) }`,
		`BEGIN { ` + kib4 + `for (i = 0; i < 8; i++) m = m m; m = substr(m, 2) "a"; sub(/a/, "xx", m) }`,
		`BEGIN { ` + kib4 + `OFS = m; NF = 300 }`,
		`BEGIN { ` + kib4 + `OFS = m; $300 = "x" }`,
		`BEGIN { ` + kib4 + `for (i = 0; i < 7; i++) m = m m; SUBSEP = m; a[1, 2, 3] = 1 }`,
	} {
		prog, err := parser.ParseProgram([]byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		_, err = interp.ExecProgram(prog, &interp.Config{Output: &out, Error: &out})
		if err == nil || !strings.Contains(err.Error(), "string too long (more than 1048576 bytes)") {
			t.Errorf("%s: err = %v, want string too long", src, err)
		}
	}
	src := `BEGIN { ` + kib4 + `s = sprintf("%255s", ""); n = gsub(/ /, m, s); print n, length(s); ` +
		`OFS = m; NF = 256; print length($0); sub(/a/, "xx", s); s = s "a"; sub(/a/, "xx", s); print length(s) }`
	prog, err := parser.ParseProgram([]byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := interp.ExecProgram(prog, &interp.Config{Output: &out, Error: &out}); err != nil {
		t.Fatal(err)
	}
	if want := "255 1044480\n1044480\n1044482\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// TestLLMSHUnicodeClasses: [:alpha:] and the other classes, and \w \W \s
// \S, match letters and spaces beyond ASCII, as gawk's do in a UTF-8
// locale; [:digit:] stays 0-9, and a bracket's other characters are kept.
// (glibc also counts digits such as ٣ as alpha; here they are not.)
func TestLLMSHUnicodeClasses(t *testing.T) {
	src := `{ a = $0; gsub(/[[:alpha:]]/, "a", a); u = $0; gsub(/[[:upper:]]/, "U", u)
	w = $0; gsub(/\w+/, "w", w); s = $0; gsub(/\s/, "_", s); p = $0; gsub(/[^[:alnum:][:space:]]/, "p", p)
	d = $0; gsub(/[[:digit:]]/, "d", d); b = $0; gsub(/[]é]/, "b", b)
	print a; print u; print w; print s; print p; print d; print b }`
	prog, err := parser.ParseProgram([]byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := "Élan 2\u3000ñ]٣ é-ß\n"
	if _, err := interp.ExecProgram(prog, &interp.Config{Output: &out, Error: &out, Stdin: strings.NewReader(in), Chars: true}); err != nil {
		t.Fatal(err)
	}
	want := "aaaa 2\u3000a]٣ a-a\n" +
		"Ulan 2\u3000ñ]٣ é-ß\n" +
		"w w\u3000w]٣ w-w\n" +
		"Élan_2_ñ]٣_é-ß\n" +
		"Élan 2\u3000ñpp épß\n" +
		"Élan d\u3000ñ]٣ é-ß\n" +
		"Élan 2\u3000ñb٣ b-ß\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestLLMSHDivideByZero: a zero divisor is no error, as in mawk 1.3.4
// 20200120 (checked with Debian 12's mawk; gawk's fatal "division by zero
// attempted" stopped `awk '{s+=$1} END {print s/NR}'` on empty input): x/0
// is an infinity, 0/0 and x%0 -nan, and printf's flags and width apply to
// their names as in C; int keeps them.
func TestLLMSHDivideByZero(t *testing.T) {
	src := `BEGIN { print 1/0, -1/0, 0/0, 5%0, -7%0, (1/0)%2, 5%(1/0), 0*(1/0)
	x = 1; x /= 0; y = 5; y %= 0; print x, y, int(1/0), int(0/0), -(0/0)
	printf "%E %G|%-6f|%+e|% g|%06f|%.3e|%+d|%5s|\n", 1/0, -1/0, 1/0, 1/0, 1/0, -1/0, 0/0, 1/0, 1/0
	CONVFMT = "%d"; z = (0/0) ""; print z; OFMT = "%.2f"; print 1/0, 1.234 }
	END { print s/NR; printf "%.2f\n", s/NR }`
	prog, err := parser.ParseProgram([]byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := interp.ExecProgram(prog, &interp.Config{Output: &out, Error: &out, Stdin: strings.NewReader("")}); err != nil {
		t.Fatal(err)
	}
	want := "inf -inf -nan -nan -nan -nan 5 -nan\ninf -nan inf -nan nan\n" +
		"INF -INF|inf   |+inf| inf|  -inf|-nan|+2147483647|  inf|\n-2147483647\ninf 1.23\n-nan\n-nan\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestLLMSHSubstrNegative: a start below 0 lengthens the substring by as
// much, as in mawk 1.3.4 20200120 (checked with Debian 12's mawk); a start
// of 0 or a fraction is truncated as before.
func TestLLMSHSubstrNegative(t *testing.T) {
	src := `BEGIN { s = "hello"; print substr(s, -1, 3), substr(s, -2, -1), substr(s, -1.5, 1), substr(s, 0, 2), substr(s, -2), substr(s, 1, 1e300) "|" }`
	prog, err := parser.ParseProgram([]byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, chars := range []bool{false, true} {
		var out bytes.Buffer
		if _, err := interp.ExecProgram(prog, &interp.Config{Output: &out, Error: &out, Stdin: strings.NewReader(""), Chars: chars}); err != nil {
			t.Fatal(err)
		}
		if want := "hell h he he hello hello|\n"; out.String() != want {
			t.Errorf("chars=%v: got %q, want %q", chars, out.String(), want)
		}
	}
}

// TestLLMSHBytesRegex: with ParserConfig.Bytes, regexps are mawk's over
// bytes (compiler.MawkRegex; session 22): the subject is matched as
// Latin-1 and offsets are bytes, in short strings and in long ones
// (the stoppable search of regexwork.go), for ~, match, sub, gsub,
// split, FS and RS; a bad dynamic regexp is mawk's run time error.
func TestLLMSHBytesRegex(t *testing.T) {
	long := strings.Repeat("é", 20000) + "ab"
	src := `BEGIN { RS = "[\303]" } NR == 1 { print "rs", length($0) } NR > 1 { exit }
	END { s = "x` + "\xe9" + `éé"; print (s ~ /^x\351/), match(s, /\303\251+/), RSTART, RLENGTH
	n = gsub(/./, "-", s); print n, s
	t = L; print match(t, /ab$/), RSTART, RLENGTH, sub(/\303/, "", t), length(t), gsub(/[\303\251]/, "", t), t
	print split("aébéc", A, /[é]/), A[1] A[2] A[3], A[5]
	$0 = "aébéc"; FS = "é"; $0 = $0; print NF, $2
	r = "(" ; print ("x" ~ r) }`
	prog, err := parser.ParseProgram([]byte(src), &parser.ParserConfig{Bytes: true})
	if err != nil {
		t.Fatal(err)
	}
	it, err := interp.New(prog)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = it.ExecuteContext(ctx, &interp.Config{Output: &out, Error: &errb,
		Stdin: strings.NewReader("ab\xc3\xa9cd\xc3\xa9"), Vars: []string{"L", long}})
	want := "rs 2\n1 3 3 2\n6 ------\n40001 40001 2 1 40001 39999 ab\n5 ab c\n3 b\n"
	if out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
	wantErr := "run time error: regular expression compile failed (missing ')')\n(\n\tFILENAME=\"-\" FNR=2 NR=2"
	if err == nil || err.Error() != wantErr {
		t.Errorf("error %v; want %q", err, wantErr)
	}
}
