// llmsh: tests of field splitting (split.go). Each expected line is what
// GNU bash 5.2 printed for `show WORDS` with
// show() { printf '%d:' "$#"; printf '<%s>' "$@"; echo; }
// after the same variables were set.

package expand_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// mapEnv is an environment of fixed variables.
type mapEnv map[string]expand.Variable

func (e mapEnv) Get(name string) expand.Variable { return e[name] }
func (e mapEnv) Each(f func(string, expand.Variable) bool) {
	for name, vr := range e {
		if !f(name, vr) {
			return
		}
	}
}

func str(s string) expand.Variable { return expand.Variable{Set: true, Kind: expand.String, Str: s} }
func list(s ...string) expand.Variable {
	return expand.Variable{Set: true, Kind: expand.Indexed, List: s}
}
func showFields(f []string) string { return fmt.Sprintf("%d:<%s>", len(f), strings.Join(f, "><")) }

func TestFieldSplitting(t *testing.T) {
	tests := []struct {
		ifs   *string // nil: unset
		words string
		want  string
	}{
		{sp(":"), `$v`, "3:<a><><b>"},                         // v='a::b:'
		{sp(":"), `$e x$e $e"" ""$e`, "3:<x><><>"},            // e=''
		{sp(":"), `$c$c ""$c $c""`, "5:<><><><><>"},           // c=':'
		{sp(" :"), `$w`, "4:<a><b><><c>"},                     // w='  a : b  ::c  '
		{sp(" :"), `$s ${a[@]}`, "3:<><b><b>"},                // s=' :b', a=(' :b')
		{sp(" :"), `${a[@]} $s`, "3:<b><><b>"},                // a list anywhere in the word
		{sp(" :"), `${a[@]}$s`, "2:<b><b>"},                   //
		{sp(":"), `$@`, "5:<a><><b><><c>"},                    // $@ = ('a:' b '' c)
		{sp(":"), `"$@"`, "4:<a:><b><><c>"},                   //
		{sp(":"), `"x$@y" "$*"`, "5:<xa:><b><><cy><a::b::c>"}, //
		{sp(":"), `${u:-p:q} ${u:-"p:q"} ${u:-'p:q'}x ${v:+"r:s"}t`, "5:<p><q><p:q><p:qx><r:st>"},
		{sp(":"), `${u:-a\:b} ${u:-~/x:y}`, "3:<a:b></h/x><y>"},           // HOME=/h
		{sp("-"), `$((3-5)) $((1))x`, "3:<><2><1x>"},                      //
		{sp(""), `$@ x$@y "$@"`, "10:<a:><b><c><xa:><b><cy><a:><b><><c>"}, // empty IFS: a field per non-empty element
		{nil, `$w`, "4:<a><:><b><::c>"},                                   // unset IFS: whitespace only
		{sp(":"), `a:$c:b \:$c`, "3:<a:><:b><:>"},                         // literal text is never split
	}
	for _, tc := range tests {
		env := mapEnv{
			"v": str("a::b:"), "e": str(""), "c": str(":"), "w": str("  a : b  ::c  "), "s": str(" :b"),
			"a": list(" :b"), "@": list("a:", "b", "", "c"), "*": list("a:", "b", "", "c"), "HOME": str("/h"),
		}
		if tc.ifs != nil {
			env["IFS"] = str(*tc.ifs)
		}
		if tc.ifs == nil {
			env["w"] = str(" a : b ::c ")
		}
		words := parseWords(t, tc.words)
		got, err := expand.Fields(&expand.Config{Env: env}, words...)
		if err != nil {
			t.Errorf("%s: %v", tc.words, err)
			continue
		}
		if g := showFields(got); g != tc.want {
			t.Errorf("IFS=%q %s: got %s, want %s", deref(tc.ifs), tc.words, g, tc.want)
		}
	}
}

// TestLiteralQuoteRemoval: the backslashes of unquoted text go, as in an
// assignment's value; the word of "${v:-W}" keeps those that double
// quotes keep.
func TestLiteralQuoteRemoval(t *testing.T) {
	for src, want := range map[string]string{
		`a\'b\ \"c\"`:       `a'b "c"`,
		`x\$y\\z`:           `x$y\z`,
		`"${u:-a\"b\*c\}}"`: `a"b\*c}`,
		`${u:-a\"b\*c}`:     `a"b*c`,
		`trail\`:            `trail\`,
	} {
		words := parseWords(t, src)
		got, err := expand.Literal(&expand.Config{Env: mapEnv{}}, words[0])
		if err != nil || got != want {
			t.Errorf("%s: got %q %v, want %q", src, got, err, want)
		}
	}
}

// TestRegexpQuoted: the quoted parts of =~'s right side are escaped.
func TestRegexpQuoted(t *testing.T) {
	env := mapEnv{"re": str("a.c")}
	for src, want := range map[string]string{
		`"a.c"`:     `a\.c`,
		`^a"$re"$`:  `^aa\.c$`,
		`$re`:       `a.c`,
		`a\+b'(x)'`: `a\+b\(x\)`,
	} {
		words := parseWords(t, src)
		got, err := expand.Regexp(&expand.Config{Env: env}, words[0])
		if err != nil || got != want {
			t.Errorf("%s: got %q %v, want %q", src, got, err, want)
		}
	}
}

// TestDefaultWordLazy: the word of ${v:-W} is expanded only when used.
func TestDefaultWordLazy(t *testing.T) {
	n := 0
	words := parseWords(t, `${x:-$(c)} ${x+$(c)} ${u-$(c)} "${x:=$(c)}"`)
	got, err := expand.Fields(&expand.Config{Env: mapEnv{"x": str("1")}, CmdSubst: func(w io.Writer, _ *syntax.CmdSubst) error {
		n++
		_, err := io.WriteString(w, "ran")
		return err
	}}, words...)
	if err != nil || showFields(got) != "4:<1><ran><ran><1>" || n != 2 {
		t.Errorf("got %s %v, %d substitutions run; want 4:<1><ran><ran><1>, 2", showFields(got), err, n)
	}
}

func sp(s string) *string { return &s }

func deref(s *string) string {
	if s == nil {
		return "(unset)"
	}
	return *s
}

// parseWords parses src as the arguments of one command.
func parseWords(t *testing.T, src string) []*syntax.Word {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader("show "+src), "")
	if err != nil {
		t.Fatal(err)
	}
	return f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1:]
}
