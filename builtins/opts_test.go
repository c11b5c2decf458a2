package builtins_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

func TestFlagsParse(t *testing.T) {
	t.Parallel()
	type result struct {
		n, e     bool
		lines    string
		pats     []string
		color    string
		operands []string
		err      string
	}
	parse := func(stop bool, args ...string) result {
		var r result
		env := &Env{Args: []string{"x"}}
		f := NewFlags(env, "")
		f.StopAtOperand = stop
		f.BoolVar(&r.n, 'n', "number", "")
		f.BoolVar(&r.e, 'E', "show-ends", "")
		f.StringVar(&r.lines, 'l', "lines", "N", "")
		f.Func('e', "regexp", RequiredArg, "P", "", func(v string, _ bool) error { r.pats = append(r.pats, v); return nil })
		f.Func(0, "color", OptionalArg, "WHEN", "", func(v string, p bool) error {
			r.color = v + "|" + map[bool]string{true: "p", false: "-"}[p]
			return nil
		})
		f.Func(0, "colour", OptionalArg, "WHEN", "", func(v string, p bool) error { return nil })
		ops, err := f.Parse(args)
		r.operands = ops
		if err != nil {
			r.err = err.Error()
		}
		return r
	}
	tests := []struct {
		name string
		stop bool
		args []string
		want result
	}{
		{"bundled", false, []string{"-nE", "f"}, result{n: true, e: true, operands: []string{"f"}}},
		{"attached arg", false, []string{"-l5"}, result{lines: "5"}},
		{"separate arg", false, []string{"-l", "5", "a"}, result{lines: "5", operands: []string{"a"}}},
		{"bundle then arg", false, []string{"-nl5"}, result{n: true, lines: "5"}},
		{"long eq", false, []string{"--lines=7"}, result{lines: "7"}},
		{"long sep", false, []string{"--lines", "7"}, result{lines: "7"}},
		{"long prefix", false, []string{"--num"}, result{n: true}},
		{"ambiguous", false, []string{"--col"}, result{err: "option '--col' is ambiguous; possibilities: '--color' '--colour'"}},
		{"exact beats prefix", false, []string{"--color"}, result{color: "|-"}},
		{"optional attached", false, []string{"--color=always"}, result{color: "always|p"}},
		{"repeated in order", false, []string{"-e", "a", "--regexp=b", "-ec"}, result{pats: []string{"a", "b", "c"}}},
		{"permute", false, []string{"a", "-n", "b"}, result{n: true, operands: []string{"a", "b"}}},
		{"stop at operand", true, []string{"a", "-n"}, result{operands: []string{"a", "-n"}}},
		{"double dash", false, []string{"--", "-n"}, result{operands: []string{"-n"}}},
		{"dash operand", false, []string{"-"}, result{operands: []string{"-"}}},
		{"invalid short", false, []string{"-z"}, result{err: "invalid option -- 'z'"}},
		{"unknown long", false, []string{"--zap=1"}, result{err: "unrecognized option '--zap=1'"}},
		{"missing short arg", false, []string{"-l"}, result{err: "option requires an argument -- 'l'"}},
		{"missing long arg", false, []string{"--lines"}, result{err: "option '--lines' requires an argument"}},
		{"noarg with value", false, []string{"--number=3"}, result{err: "option '--number' doesn't allow an argument"}},
		{"help", false, []string{"a", "--help"}, result{err: "help requested"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := parse(tc.stop, tc.args...)
			if tc.want.err != "" || got.err != "" {
				if got.err != tc.want.err {
					t.Fatalf("err = %q, want %q", got.err, tc.want.err)
				}
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestFlagsFail(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	env := &Env{Args: []string{"cat"}, Stdout: &out, Stderr: &errb}
	f := NewFlags(env, "Concatenate FILE(s) to standard output.", "[OPTION]... [FILE]...")
	f.Bool('n', "number", "number all output lines")
	_, err := f.Parse([]string{"-q"})
	if code := f.Fail(err, 1); code != 1 {
		t.Fatalf("code %d", code)
	}
	want := "cat: invalid option -- 'q'\nTry 'cat --help' for more information.\n"
	if errb.String() != want {
		t.Fatalf("stderr %q, want %q", errb.String(), want)
	}
	_, err = f.Parse([]string{"--help"})
	if !errors.Is(err, ErrHelp) || f.Fail(err, 1) != 0 {
		t.Fatal("help not reported")
	}
	if !strings.HasPrefix(out.String(), "Usage: cat [OPTION]... [FILE]...\n") || !strings.Contains(out.String(), "-n, --number") {
		t.Fatalf("help text %q", out.String())
	}
}

func TestRunRecoversPanic(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	b := Builtin{Name: "boom", Run: func(*Env) int { panic("kaboom") }}
	if got := Run(b, &Env{Args: []string{"boom"}, Stderr: &errb}); got != 2 {
		t.Fatalf("status %d", got)
	}
	if errb.String() != "llmsh: boom: internal error\n" {
		t.Fatalf("stderr %q", errb.String())
	}
}

// TestPrintHelpLayout checks GNU's help layout: descriptions line up two
// columns after the widest option, an option too wide runs on after two
// spaces, further lines of a description are indented two more, and the
// --help/--version lines are GNU's own (a declared --version is not listed
// twice); further lines written indented are placed at the same column,
// keeping their depth relative to each other; llmsh's closing lines end it.
func TestPrintHelpLayout(t *testing.T) {
	t.Parallel()
	env := &Env{Args: []string{"demo"}}
	f := NewFlags(env, "Do a thing.", "[OPTION]... FILE")
	f.Bool('a', "all", "show all\nand more")
	f.String('w', "width", "N", "use N columns")
	f.String(0, "output-delimiter", "STRING", "separate with STRING")
	f.Bool('l', "long", "a long one;\n                     placed by hand\n                       and nested")
	f.Bool(0, "version", "output version information and exit")
	var b strings.Builder
	f.PrintHelp(&b)
	want := `Usage: demo [OPTION]... FILE
Do a thing.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all      show all
                   and more
  -w, --width=N  use N columns
      --output-delimiter=STRING  separate with STRING
  -l, --long     a long one;
                   placed by hand
                     and nested
      --help        display this help and exit
      --version     output version information and exit

` + helpFooter + "\n"
	if got := b.String(); got != want {
		t.Errorf("help:\n%s\nwant:\n%s", got, want)
	}
}

// TestFlagsStopAndAlias: Stop ends the options after the argument being
// parsed (bash's -c SCRIPT ARG...), and an alias shares its option's
// prefixes without making them ambiguous.
func TestFlagsStopAndAlias(t *testing.T) {
	t.Parallel()
	type result struct {
		script, color string
		v             bool
		operands      []string
		err           string
	}
	parse := func(args ...string) result {
		var r result
		f := NewFlags(&Env{Args: []string{"x"}}, "")
		f.StopAtOperand = true
		f.BoolVar(&r.v, 'v', "verbose", "")
		f.Func('c', "", RequiredArg, "SCRIPT", "", func(v string, _ bool) error { r.script = v; f.Stop(); return nil })
		f.Func(0, "color", OptionalArg, "WHEN", "", func(v string, _ bool) error { r.color = v; return nil })
		f.Alias("colour", "color")
		f.BoolVar(new(bool), 0, "colon", "")
		ops, err := f.Parse(args)
		r.operands = ops
		if err != nil {
			r.err = err.Error()
		}
		return r
	}
	for _, tc := range []struct {
		args []string
		want result
	}{
		{[]string{"-c", "s", "-v", "a"}, result{script: "s", operands: []string{"-v", "a"}}},
		{[]string{"-vc", "s", "--", "a"}, result{script: "s", v: true, operands: []string{"--", "a"}}},
		{[]string{"-cs", "-v"}, result{script: "s", operands: []string{"-v"}}},
		{[]string{"-v", "f", "-c", "s"}, result{v: true, operands: []string{"f", "-c", "s"}}},
		{[]string{"--colou=never"}, result{color: "never"}},
		{[]string{"--colour=auto"}, result{color: "auto"}},
		{[]string{"--colou", "f"}, result{operands: []string{"f"}}},
		{[]string{"--col"}, result{err: "option '--col' is ambiguous; possibilities: '--color' '--colon'"}},
	} {
		got := parse(tc.args...)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %+v, want %+v", tc.args, got, tc.want)
		}
	}
}
