package builtins_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// Compressed inputs made by GNU gzip 1.12 on this machine:
// printf 'hello world\n' > h; gzip -c h        (stores the name "h")
// printf 'hello world\n' | gzip -n -9
// printf 'second\n' | gzip -n
const (
	gzHelloNamed = "\x1f\x8b\x08\x08U\x16\x04k\x00\x03h\x00\xcbH\xcd\xc9\xc9W(\xcf/\xcaI\xe1\x02\x00-;\x08\xaf\x0c\x00\x00\x00"
	gzHello      = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\xcbH\xcd\xc9\xc9W(\xcf/\xcaI\xe1\x02\x00-;\x08\xaf\x0c\x00\x00\x00"
	gzSecond     = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03+NM\xce\xcfK\xe1\x02\x00~\xc0\x0f\x06\x07\x00\x00\x00"
)

// gzRun runs a command over files in a fresh directory and returns the
// result and the directory's content afterwards.
func gzRun(t *testing.T, files map[string]string, stdin string, args ...string) (result, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeHostFiles(t, dir, files)
	b, _ := Lookup(args[0])
	var out, errb bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(stdin),
		Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
	st := Run(b, env)
	after := map[string]string{}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		after[e.Name()] = string(data)
	}
	return result{out.String(), errb.String(), st}, after
}

func gunzipString(t *testing.T, s string) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(s))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func gzKeys(m map[string]string) string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return strings.Join(k, " ")
}

// Messages and statuses checked against GNU gzip 1.12 (LC_ALL=C).
func TestGzipMessages(t *testing.T) {
	t.Parallel()
	cases := []struct {
		files  map[string]string
		stdin  string
		args   []string
		stdout string
		stderr string
		status int
		after  string // names left in the directory
	}{
		{map[string]string{}, "", []string{"gzip", "nosuch"}, "", "gzip: nosuch: No such file or directory\n", 1, ""},
		{map[string]string{}, "", []string{"gzip", "-d", "nosuch"}, "", "gzip: nosuch.gz: No such file or directory\n", 1, ""},
		{map[string]string{}, "", []string{"gunzip", "nosuch.gz"}, "", "gzip: nosuch.gz: No such file or directory\n", 1, ""},
		{map[string]string{}, "", []string{"gzip", "-l", "nosuch"}, "", "gzip: nosuch.gz: No such file or directory\n", 1, ""},
		{map[string]string{"x": "a", "x.gz": gzHello}, "", []string{"gzip", "x"}, "", "gzip: x.gz already exists;\tnot overwritten\n", 2, "x x.gz"},
		{map[string]string{"x": "a", "x.gz": gzHello}, "", []string{"gzip", "-d", "x.gz"}, "", "gzip: x already exists;\tnot overwritten\n", 2, "x x.gz"},
		{map[string]string{"x.gz": gzHello}, "", []string{"gzip", "x.gz"}, "", "gzip: x.gz already has .gz suffix -- unchanged\n", 0, "x.gz"},
		{map[string]string{"x.gz": gzHello}, "", []string{"gzip", "-q", "x.gz"}, "", "", 0, "x.gz"},
		{map[string]string{"y": "a"}, "", []string{"gunzip", "y"}, "", "gzip: y: unknown suffix -- ignored\n", 2, "y"},
		{map[string]string{"y": "abc"}, "", []string{"zcat", "y"}, "", "\ngzip: y: not in gzip format\n", 1, "y"},
		{nil, "abc\n", []string{"gzip", "-d"}, "", "\ngzip: stdin: not in gzip format\n", 1, ""},
		{nil, "plain text\n", []string{"zcat", "-f"}, "plain text\n", "", 0, ""},
		{nil, "", []string{"zcat", "-f"}, "", "", 0, ""},
		{nil, gzHello, []string{"zcat", "-f"}, "hello world\n", "", 0, ""},
		{map[string]string{"pl": "plain text\n"}, "", []string{"gzip", "-dcf", "pl"}, "plain text\n", "", 0, "pl"},
		{map[string]string{"pl": "plain text\n"}, "", []string{"gzip", "-df", "pl"}, "", "gzip: pl: unknown suffix -- ignored\n", 2, "pl"},
		{nil, "", []string{"gzip", "-d"}, "", "\ngzip: stdin: unexpected end of file\n", 1, ""},
		{nil, gzHello[:len(gzHello)-4], []string{"zcat"}, "hello world\n", "\ngzip: stdin: unexpected end of file\n", 1, ""},
		{nil, gzHello + "garbage\n", []string{"zcat"}, "hello world\n", "\ngzip: stdin: decompression OK, trailing garbage ignored\n", 2, ""},
		{nil, gzHello + "\x00\x00\x00", []string{"zcat"}, "hello world\n", "", 0, ""},
		{nil, gzHello + gzSecond, []string{"zcat"}, "hello world\nsecond\n", "", 0, ""},
		{nil, gzHello, []string{"gzip", "-l"}, "         compressed        uncompressed  ratio uncompressed_name\n                 32                  12 -16.7% stdout\n", "", 0, ""},
		{map[string]string{"h.gz": gzHelloNamed, "s.gz": gzSecond}, "", []string{"gzip", "-l", "h.gz", "s"},
			"         compressed        uncompressed  ratio uncompressed_name\n" +
				"                 34                  12 -16.7% h\n" +
				"                 27                   7 -28.6% s\n" +
				"                 61                  19 -126.3% (totals)\n", "", 0, "h.gz s.gz"},
		{map[string]string{"h.gz": gzHelloNamed}, "", []string{"gzip", "-t", "h.gz"}, "", "", 0, "h.gz"},
		{map[string]string{"h.gz": gzHelloNamed}, "", []string{"gzip", "-tv", "h.gz"}, "", "h.gz:\t OK\n", 0, "h.gz"},
		{map[string]string{"h.gz": gzHelloNamed}, "", []string{"gzip", "-dv", "h.gz"}, "", "h.gz:\t-16.7% -- replaced with h\n", 0, "h"},
		{map[string]string{"h.gz": gzHelloNamed}, "", []string{"gzip", "-dvk", "h.gz"}, "", "h.gz:\t-16.7% -- created h\n", 0, "h h.gz"},
		{map[string]string{"h.gz": gzHelloNamed}, "", []string{"gzip", "-dvc", "h.gz"}, "hello world\n", "h.gz:\t-16.7% -- replaced with stdout\n", 0, "h.gz"},
		{map[string]string{"h.gz": gzHelloNamed}, "", []string{"zcat", "h.gz", "h"}, "hello world\nhello world\n", "", 0, "h.gz"},
		{map[string]string{"h.tgz": gzHelloNamed}, "", []string{"gunzip", "h.tgz"}, "", "", 0, "h.tar"},
		{map[string]string{"h.z": gzHelloNamed}, "", []string{"gunzip", "-S", ".z", "h.z"}, "", "", 0, "h"},
		// -N restores the stored name ("h"), in the file's directory; -n after it wins.
		{map[string]string{"x.gz": gzHelloNamed}, "", []string{"gunzip", "-N", "x.gz"}, "", "", 0, "h"},
		{map[string]string{"x.gz": gzHelloNamed}, "", []string{"gunzip", "-Nv", "x.gz"}, "", "x.gz:\t-16.7% -- replaced with h\n", 0, "h"},
		{map[string]string{"x.gz": gzHelloNamed}, "", []string{"gunzip", "-Nn", "x.gz"}, "", "", 0, "x"},
		{map[string]string{"x.gz": gzHelloNamed, "h": "hello world\n"}, "", []string{"gunzip", "-N", "x.gz"}, "", "gzip: h already exists;\tnot overwritten\n", 2, "h x.gz"},
		{map[string]string{"x.gz": gzHelloNamed}, "", []string{"gzip", "-lN", "x.gz"}, "         compressed        uncompressed  ratio uncompressed_name\n                 34                  12 -16.7% h\n", "", 0, "x.gz"},
		{map[string]string{"x.gz": gzHello}, "", []string{"gunzip", "-N", "x.gz"}, "", "", 0, "x"},
		{nil, "", []string{"gzip", "-x"}, "", "gzip: invalid option -- 'x'\nTry `gzip --help' for more information.\n", 1, ""},
	}
	for _, c := range cases {
		var r result
		var after map[string]string
		if c.files == nil {
			r = runCmd(t, nil, c.stdin, c.args...)
		} else {
			r, after = gzRun(t, c.files, c.stdin, c.args...)
			if got := gzKeys(after); got != c.after {
				t.Errorf("%q: files after = %q, want %q", c.args, got, c.after)
			}
		}
		if r.stdout != c.stdout || r.stderr != c.stderr || r.status != c.status {
			t.Errorf("%q: got (%q, %q, %d), want (%q, %q, %d)", c.args, r.stdout, r.stderr, r.status, c.stdout, c.stderr, c.status)
		}
		if strings.HasPrefix(c.args[0], "gunzip") || strings.Contains(strings.Join(c.args, " "), "-d") {
			for name, content := range after {
				if name == "h" || name == "h.tar" {
					if content != "hello world\n" {
						t.Errorf("%q: %s = %q", c.args, name, content)
					}
				}
			}
		}
	}
}

func TestGzipCompress(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("the quick brown fox jumps over the lazy dog\n", 5000)
	r, after := gzRun(t, map[string]string{"a.txt": big}, "", "gzip", "a.txt")
	if r.status != 0 || r.stderr != "" || gzKeys(after) != "a.txt.gz" {
		t.Fatalf("gzip a.txt: %+v, files %q", r, gzKeys(after))
	}
	z := after["a.txt.gz"]
	if gunzipString(t, z) != big {
		t.Fatal("round trip differs")
	}
	// The header carries the file's name, as GNU gzip writes it.
	zr, _ := gzip.NewReader(strings.NewReader(z))
	if zr.Name != "a.txt" {
		t.Errorf("header name %q", zr.Name)
	}
	// and the OS byte GNU gzip 1.12 writes on Linux, 3 (file(1): "from Unix").
	if zr.OS != 3 {
		t.Errorf("header OS %d, want 3", zr.OS)
	}
	// -n leaves the name out; -k keeps the input; -1 and -9 differ in size.
	r, after = gzRun(t, map[string]string{"a.txt": big}, "", "gzip", "-nk1", "a.txt")
	if r.status != 0 || gzKeys(after) != "a.txt a.txt.gz" {
		t.Fatalf("gzip -nk1: %+v %q", r, gzKeys(after))
	}
	zr, _ = gzip.NewReader(strings.NewReader(after["a.txt.gz"]))
	if zr.Name != "" {
		t.Errorf("-n stored name %q", zr.Name)
	}
	fast := len(after["a.txt.gz"])
	_, after = gzRun(t, map[string]string{"a.txt": big}, "", "gzip", "--best", "a.txt")
	if best := len(after["a.txt.gz"]); best >= fast {
		t.Errorf("-9 (%d bytes) not smaller than -1 (%d bytes)", best, fast)
	}
	// -f overwrites an existing output.
	r, after = gzRun(t, map[string]string{"a": "new\n", "a.gz": gzHello}, "", "gzip", "-f", "a")
	if r.status != 0 || gzKeys(after) != "a.gz" || gunzipString(t, after["a.gz"]) != "new\n" {
		t.Errorf("gzip -f: %+v %q", r, gzKeys(after))
	}
	// -c writes to stdout and keeps the file; several files make members.
	r, after = gzRun(t, map[string]string{"a": "one\n", "b": "two\n"}, "", "gzip", "-c", "a", "b")
	if r.status != 0 || gzKeys(after) != "a b" || gunzipString(t, r.stdout) != "one\ntwo\n" {
		t.Errorf("gzip -c a b: %+v %q", r, gzKeys(after))
	}
	// stdin to stdout, and back through gunzip.
	r = runCmd(t, nil, big, "gzip")
	if r.status != 0 || gunzipString(t, r.stdout) != big {
		t.Fatalf("gzip stdin: %d %q", r.status, r.stderr)
	}
	r2 := runCmd(t, nil, r.stdout, "gunzip")
	if r2.stdout != big || r2.status != 0 {
		t.Errorf("gunzip stdin: %d %q", r2.status, r2.stderr)
	}
	// -v reports the ratio in GNU's layout (the figure depends on the deflater).
	r, _ = gzRun(t, map[string]string{"a.txt": big}, "", "gzip", "-v", "a.txt")
	if !strings.HasPrefix(r.stderr, "a.txt:\t") || !strings.HasSuffix(r.stderr, "% -- replaced with a.txt.gz\n") {
		t.Errorf("gzip -v: %q", r.stderr)
	}
}

func TestGzipKeepsMtime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	writeTestFile(t, fsys, dir+"/m", "data\n")
	when := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := fsys.Chtimes(dir+"/m", time.Time{}, when); err != nil {
		t.Fatal(err)
	}
	b, _ := Lookup("gzip")
	var out, errb bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: []string{"gzip", "m"}, Stdin: strings.NewReader(""),
		Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
	if st := Run(b, env); st != 0 {
		t.Fatalf("gzip m: %d %q", st, errb.String())
	}
	fi, err := os.Stat(filepath.Join(dir, "m.gz"))
	if err != nil || !fi.ModTime().Equal(when) {
		t.Errorf("m.gz mtime %v, want %v (%v)", fi.ModTime(), when, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "m")); !os.IsNotExist(err) {
		t.Errorf("m not removed: %v", err)
	}
}

func TestGzipTerminal(t *testing.T) {
	t.Parallel()
	b, _ := Lookup("gzip")
	var out, errb bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: []string{"gzip"}, Stdin: strings.NewReader("x"),
		Stdout: &out, Stderr: &errb, Terminal: true}
	if st := Run(b, env); st != 1 || out.Len() != 0 || errb.String() != "gzip: compressed data not written to a terminal. Use -f to force compression.\nFor help, type: gzip -h\n" {
		t.Errorf("terminal: %d %q", st, errb.String())
	}
}

func TestGzipStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("abc def ghi\n", 100000)
	if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, "gzip"); st != 1 || msg != "" {
		t.Errorf("broken pipe: %d %q", st, msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &strings.Builder{}, "gzip"); st != 1 || msg != "" {
		t.Errorf("cancelled: %d %q", st, msg)
	}
}

// Layouts checked against GNU gzip 1.12 (-r skips suffix mismatches
// quietly; -lv adds method, CRC and date).
func TestGzipRecursiveAndVerboseList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys := testFS(t, dir)
	mkdirAllTest(t, fsys, dir+"/rr/sub")
	writeTestFile(t, fsys, dir+"/rr/a", "a\n")
	writeTestFile(t, fsys, dir+"/rr/sub/b.gz", gzSecond)
	run := func(args ...string) (string, string, int) {
		b, _ := Lookup(args[0])
		var out, errb bytes.Buffer
		env := &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, FS: fsys, Dir: dir}
		st := Run(b, env)
		return out.String(), errb.String(), st
	}
	if out, errs, st := run("gzip", "-r", "rr"); out != "" || errs != "" || st != 0 {
		t.Errorf("gzip -r: %q %q %d", out, errs, st)
	}
	for _, name := range []string{"rr/a.gz", "rr/sub/b.gz"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	when := time.Date(2026, 11, 23, 10, 33, 0, 0, time.UTC)
	writeTestFile(t, fsys, dir+"/h.gz", gzHelloNamed)
	writeTestFile(t, fsys, dir+"/s.gz", gzSecond)
	fsys.Chtimes(dir+"/h.gz", time.Time{}, when)
	fsys.Chtimes(dir+"/s.gz", time.Time{}, when)
	want := "method  crc     date  time           compressed        uncompressed  ratio uncompressed_name\n" +
		"defla af083b2d Nov 23 10:33                  34                  12 -16.7% h\n" +
		"defla 060fc07e Nov 23 10:33                  27                   7 -28.6% s\n" +
		"                                             61                  19 -126.3% (totals)\n"
	if out, errs, st := run("gzip", "-lv", "h.gz", "s.gz"); out != want || errs != "" || st != 0 {
		t.Errorf("gzip -lv:\n%s%q %d", out, errs, st)
	}
	if out, errs, st := run("gzip", "-dr", "rr"); out != "" || errs != "" || st != 0 {
		t.Errorf("gzip -dr: %q %q %d", out, errs, st)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "rr/sub/b")); err != nil || string(data) != "second\n" {
		t.Errorf("rr/sub/b: %q %v", data, err)
	}
}

// TestGzipRsyncable: --rsyncable output reads back as the input, and a
// byte inserted near the start changes the compressed bytes only up to
// the next content-defined block end: most of the output stays the same
// (without it, every later block shifts).
func TestGzipRsyncable(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	for b.Len() < 1<<18 {
		b.WriteString(words[rnd.IntN(len(words))])
		b.WriteByte(" \n"[rnd.IntN(2)])
	}
	in := b.String()
	edited := in[:1000] + "X" + in[1000:]
	commonSuffix := func(a, b string) int {
		n := 0
		for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
			n++
		}
		return n
	}
	for _, rsync := range []bool{true, false} {
		args := []string{"gzip", "-c", "-n"}
		if rsync {
			args = append(args, "--rsyncable")
		}
		z1, z2 := runCmd(t, nil, in, args...), runCmd(t, nil, edited, args...)
		if z1.status != 0 || z2.status != 0 {
			t.Fatalf("rsyncable=%v: %q %q", rsync, z1.stderr, z2.stderr)
		}
		if back := runCmd(t, nil, z1.stdout, "gzip", "-dc"); back.stdout != in {
			t.Fatalf("rsyncable=%v: the output does not read back", rsync)
		}
		// The last 8 bytes are the CRC and size, which change anyway.
		same := commonSuffix(z1.stdout[:len(z1.stdout)-8], z2.stdout[:len(z2.stdout)-8])
		if rsync && same < len(z1.stdout)/2 {
			t.Errorf("--rsyncable: only %d of %d compressed bytes unchanged", same, len(z1.stdout))
		}
		if !rsync && same > len(z1.stdout)/2 {
			t.Logf("without --rsyncable %d of %d bytes unchanged: the test does not tell them apart", same, len(z1.stdout))
		}
	}
}
