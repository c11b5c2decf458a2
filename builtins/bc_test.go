package builtins_test

import (
	"context"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

func TestBcLimits(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, out, err string }{
		{"define f(x) { return (f(x+1)); }\nf(1)\n2\n", "2\n", "Runtime error (func=f, adr=8): Function call nesting too deep\n"},
		{strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + "\n3\n", "3\n", "(standard_in) 1: expression nesting too deep\n"},
		{strings.Repeat("- ", 100000) + "1\n4\n", "4\n", "(standard_in) 1: expression nesting too deep\n"},
		{"scale=4; 10/3\n", "3.3333\n", ""},
		{"1 +\n", "", "(standard_in) 2: syntax error\n"},
	}
	for _, c := range cases {
		r := runCmd(t, nil, c.in, "bc")
		if r.stdout != c.out || r.stderr != c.err || r.status != 0 {
			t.Errorf("%.40q: got %q %q %d", c.in, r.stdout, r.stderr, r.status)
		}
	}
}

func TestBcFilesThenStdin(t *testing.T) {
	t.Parallel()
	files := map[string]string{"lib.b": "define sq(x) {\n return (x*x)\n}\n"}
	r := runCmd(t, files, "sq(12)\n", "bc", "lib.b")
	if r.stdout != "144\n" || r.stderr != "" || r.status != 0 {
		t.Errorf("bc lib.b: %+v", r)
	}
	r = runCmd(t, map[string]string{"q.b": "1+1\nquit\n"}, "5\n", "bc", "q.b")
	if r.stdout != "2\n" || r.status != 0 {
		t.Errorf("quit in a file: %+v", r)
	}
}

func TestBcStops(t *testing.T) {
	t.Parallel()
	if st, _ := runTextEnv(t, context.Background(), strings.NewReader("for (i=0; i<1000000; i++) i\n"), pipeErrWriter{}, "bc"); st != 1 {
		t.Errorf("broken pipe: %d", st)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, prog := range []string{"while (1) { }\n", "for (;;) { }\n", "while (1) 1\n"} {
		if st, _ := runTextEnv(t, ctx, strings.NewReader(prog), &strings.Builder{}, "bc"); st != 1 {
			t.Errorf("cancelled %q: %d", prog, st)
		}
	}
}

// FuzzBc checks that no program makes bc panic (Run turns a panic into
// "internal error", which must never appear) or run away.
func FuzzBc(f *testing.F) {
	for _, s := range []string{"scale=4; 10/3\n", "define f(x) {\n auto a[]; a[x]=x; return (a[x]^2)\n}\nf(3)\n",
		"obase=16; ibase=2; 101.1 * -11\n", "for (i=0; i<3; i++) { if (i == 1) continue; print i, \"\\n\" }\n",
		"x = 1 /* c */ + 2 # hi\n++x--\n", "s(1); c(2); a(3); l(4); e(5); j(2, 6)\n", "1 +\n", "\"abc\n", "obase=200; -12345.678\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var out, errb strings.Builder
		b, _ := Lookup("bc")
		env := &Env{Ctx: ctx, Args: []string{"bc", "-l"}, Stdin: strings.NewReader(prog), Stdout: &out, Stderr: &errb}
		Run(b, env)
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("bc panicked on %q", prog)
		}
	})
}

// BC_LINE_LENGTH comes from the script's own variables; values checked
// against GNU bc 1.07.1.
func TestBcLineLength(t *testing.T) {
	t.Parallel()
	big := "2037035976334486086268445688409378161051468393665936250636140449354381299763336706183397376"
	cases := []struct{ env, out string }{
		{"BC_LINE_LENGTH=0", big + "\n"},
		{"BC_LINE_LENGTH=abc", big + "\n"},
		{"BC_LINE_LENGTH=", big + "\n"},
		{"BC_LINE_LENGTH=2", big[:68] + "\\\n" + big[68:] + "\n"},
		{"BC_LINE_LENGTH=-5", big[:68] + "\\\n" + big[68:] + "\n"},
		{"BC_LINE_LENGTH=40", big[:38] + "\\\n" + big[38:76] + "\\\n" + big[76:] + "\n"},
		{"OTHER=1", big[:68] + "\\\n" + big[68:] + "\n"},
	}
	for _, c := range cases {
		var out, errb strings.Builder
		b, _ := Lookup("bc")
		env := &Env{Ctx: context.Background(), Args: []string{"bc"}, Stdin: strings.NewReader("2^300\n"),
			Stdout: &out, Stderr: &errb, Environ: []string{c.env}}
		if st := Run(b, env); st != 0 || out.String() != c.out || errb.Len() != 0 {
			t.Errorf("%s: %d %q %q", c.env, st, out.String(), errb.String())
		}
	}
}
