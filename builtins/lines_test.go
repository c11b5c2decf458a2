package builtins_test

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// linesCase is one table-driven call of a builtin: files (nil for none), the
// arguments, standard input, and the expected stdout, stderr and status.
type linesCase struct {
	files                 map[string]string
	args                  []string
	stdin, stdout, stderr string
	status                int
}

// runLines runs each case as a subtest.
func runLines(t *testing.T, cases []linesCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			got := runCmd(t, c.files, c.stdin, c.args...)
			if got.stdout != c.stdout {
				t.Errorf("stdout = %q, want %q", got.stdout, c.stdout)
			}
			if got.stderr != c.stderr {
				t.Errorf("stderr = %q, want %q", got.stderr, c.stderr)
			}
			if got.status != c.status {
				t.Errorf("status = %d, want %d", got.status, c.status)
			}
		})
	}
}

// bigInput is 200000 numbered lines (about 1.3 MB, many 64 KiB chunks)
// and its lines.
func bigInput() (string, []string) {
	var b strings.Builder
	lines := make([]string, 200000)
	for i := range lines {
		lines[i] = "line " + strconv.Itoa(i+1) + "\n"
		b.WriteString(lines[i])
	}
	return b.String(), lines
}

// headTailBig checks head and tail on input spanning many chunks, with
// files (the seek path of tail) or on standard input (the stream path).
func headTailBig(t *testing.T, useFiles bool) {
	in, lines := bigInput()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"head", "-n", "-5"}, strings.Join(lines[:len(lines)-5], "")},
		{[]string{"head", "-n", "150000"}, strings.Join(lines[:150000], "")},
		{[]string{"head", "-c", "-10"}, in[:len(in)-10]},
		{[]string{"head", "-c", "100000"}, in[:100000]},
		{[]string{"tail", "-n", "5"}, strings.Join(lines[len(lines)-5:], "")},
		{[]string{"tail", "-n", "150000"}, strings.Join(lines[len(lines)-150000:], "")},
		{[]string{"tail", "-n", "+199999"}, strings.Join(lines[199998:], "")},
		{[]string{"tail", "-c", "10"}, in[len(in)-10:]},
		{[]string{"tail", "-c", "+1000000"}, in[999999:]},
		{[]string{"tail", "-c", "200000"}, in[len(in)-200000:]},
	}
	for _, c := range cases {
		var files map[string]string
		stdin := in
		args := c.args
		if useFiles {
			files, stdin = map[string]string{"big": in}, ""
			args = append(append([]string{}, args...), "big")
		}
		got := runCmd(t, files, stdin, args...)
		if got.stdout != c.want || got.stderr != "" || got.status != 0 {
			t.Errorf("%v: got %d bytes, stderr %q, status %d; want %d bytes", args, len(got.stdout), got.stderr, got.status, len(c.want))
		}
	}
}

func TestHeadTailBigStdin(t *testing.T) {
	t.Parallel()
	headTailBig(t, false)
}

// TestLineBound: a reader of lines that gathers a line longer than
// Env.MaxLine (the session's bound on one value) calls Env.Limit, which
// stops the run, and ends as a cancelled command, without writing the
// line or a message of its own (session 31: rev, sed, nl and cut
// gathered a line of any length).
func TestLineBound(t *testing.T) {
	long := strings.Repeat("y", 600000) // past the readers' buffers (grep's: 256 KiB)
	for _, args := range [][]string{{"rev"}, {"sed", "p"}, {"nl"}, {"cut", "-c1"}, {"uniq"}, {"paste", "-"}, {"join", "-", "/dev/null"}, {"shuf"}, {"shuf", "-n", "1"}, {"numfmt", "--invalid=ignore"}, {"envsubst"}, {"grep", "-c", "x"}, {"jq", "-R", "."},
		{"sort"}, {"sort", "-m", "-"}, {"sort", "-c"}, {"tac"}, {"csplit", "-", "2"}, {"diff", "-", "/dev/null"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var limits []error
			var out, errb bytes.Buffer
			env := &Env{
				Ctx: context.Background(), Args: args,
				Stdin:  struct{ io.Reader }{strings.NewReader("a\n" + long + "\nb\n")},
				Stdout: &out, Stderr: &errb,
				MaxLine: 100000, Limit: func(err error) { limits = append(limits, err) },
			}
			b, _ := Lookup(args[0])
			Run(b, env) // its status is the run's to give (125)
			if len(limits) != 1 || limits[0].Error() != "value too large (more than 100000 bytes)" {
				t.Errorf("Limit called with %v", limits)
			}
			if strings.Contains(out.String(), "yyyy") || errb.Len() != 0 {
				t.Errorf("stdout %d bytes, stderr %q", out.Len(), errb.String())
			}
		})
	}
}

// TestHeldBound: the commands that hold their whole input, and sed's
// pattern and hold spaces, are bounded as one line is, though each line
// of the input is under the bound (session 32).
func TestHeldBound(t *testing.T) {
	line := strings.Repeat("y", 60000)
	for _, args := range [][]string{{"tac"}, {"csplit", "-", "2"}, {"diff", "-", "/dev/null"}, {"diff3", "-", "/dev/null", "/dev/null"},
		{"pr"}, {"tsort"}, {"iconv", "-f", "utf-8", "-t", "latin1"}, {"sponge"}, {"patch"},
		{"sed", "-n", "H;$!d;x;p"}, {"sed", ":a;N;ba"}, {"sed", "h;G"}, {"sed", "s/y/&&/g"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var limits []error
			var out, errb bytes.Buffer
			env := &Env{
				Ctx: context.Background(), Args: args,
				Stdin:  struct{ io.Reader }{strings.NewReader(line + "\n" + line + "\n")},
				Stdout: &out, Stderr: &errb,
				MaxLine: 100000, Limit: func(err error) { limits = append(limits, err) },
			}
			b, _ := Lookup(args[0])
			Run(b, env)
			if len(limits) != 1 || limits[0].Error() != "value too large (more than 100000 bytes)" {
				t.Errorf("Limit called with %v", limits)
			}
			if errb.Len() != 0 {
				t.Errorf("stderr %q", errb.String())
			}
		})
	}
}

// TestEdBufferBound: ed's buffer is one value whatever makes it grow
// (session 33: only the file read was bounded, so ",t$" repeated, "r"
// repeated and "s/.*/&&/" repeated doubled it until the memory guard);
// an edit that stays within the bound, an undo and a shrinking one, goes on.
func TestEdBufferBound(t *testing.T) {
	line := strings.Repeat("y", 1000)
	grow := func(cmd string) string { return strings.Repeat(cmd+"\n", 20) }
	for _, c := range []struct {
		script string
		over   bool
	}{
		{"a\n" + line + "\n.\n" + grow(",t$") + ",p\nQ\n", true},
		{"a\n" + line + "\n.\n" + grow("s/.*/&&/") + ",p\nQ\n", true},
		{"a\n" + line + "\n.\n" + grow(",t$") + "Q\n", true},
		{"a\n" + line + "\n.\n" + strings.Repeat("t.\n", 50) + ",s/y*/x/\nu\n" + strings.Repeat("t.\n", 30) + "$=\nQ\n", false},
		{"a\n" + line + "\n.\n" + strings.Repeat("t.\n", 50) + ",s/y*/x/\nu\n" + strings.Repeat("t.\n", 60) + "$=\nQ\n", true},
		{"a\n" + line + "\n.\n" + strings.Repeat("t.\n.d\n", 200) + "$=\nQ\n", false},
	} {
		var limits []error
		var out, errb bytes.Buffer
		env := &Env{
			Ctx: context.Background(), Args: []string{"ed", "-s"},
			Stdin:  strings.NewReader(c.script),
			Stdout: &out, Stderr: &errb,
			MaxLine: 100000, Limit: func(err error) { limits = append(limits, err) },
		}
		b, _ := Lookup("ed")
		st := Run(b, env)
		if c.over && (len(limits) != 1 || limits[0].Error() != "value too large (more than 100000 bytes)" || st != 1 || out.Len() > 0) {
			t.Errorf("%.40q: status %d, Limit called with %v, stdout %d bytes", c.script, st, limits, out.Len())
		}
		if !c.over && (len(limits) != 0 || st != 0) {
			t.Errorf("%.40q: status %d, Limit called with %v, stdout %q", c.script, st, limits, out.String())
		}
	}
}
