package shell_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// show prints its arguments as bash's test scripts below do: the count,
// then each argument in <>.
const showFunc = `show() { printf '%d:' "$#"; printf '<%s>' "$@"; echo; }; `

// Word splitting by an IFS with non-whitespace characters, done by the
// fork's expand package. Each expected output is what GNU bash 5.2
// printed for the same script (HOME aside).
func TestIFSSplit(t *testing.T) {
	tests := []struct{ name, src, out string }{
		{"empty fields kept", `IFS=:; v='a::b:'; show $v; v=':a'; show $v; v='::'; show $v; v=':'; show $v`,
			"3:<a><><b>\n2:<><a>\n2:<><>\n1:<>\n"},
		{"empty expansion is no field", `IFS=:; v=; show $v; show "$v"; show $v""; show x$v`, "0:<>\n1:<>\n1:<>\n1:<x>\n"},
		{"delimiter next to quoted empty", `IFS=:; a=:; show $a""; show ""$a; show $a$a; a=:b; show ""$a`,
			"2:<><>\n1:<>\n2:<><>\n2:<><b>\n"},
		{"whitespace around a delimiter", `IFS=' :'; v='  a : b  ::c  '; show $v; v=' : '; show $v; v=' :  : '; show $v; v='a: :b'; show $v`,
			"4:<a><b><><c>\n1:<>\n2:<><>\n3:<a><><b>\n"},
		{"whitespace not in IFS is text", `IFS=:; v=' a : b '; show $v`, "2:< a >< b >\n"},
		{"several expansions and quoted parts", `IFS=:; a='x:'; b=':y'; show $a$b; q='1:2'; show x$a"$q"$b; show "$q"$q"$q"`,
			"3:<x><><y>\n3:<xx><1:2><y>\n2:<1:21><21:2>\n"},
		{"literal text is never split", `IFS=:; v=b; show a:$v:c; show ${v}:x`, "1:<a:b:c>\n1:<b:x>\n"},
		{"command substitution", `IFS=:; show $(printf 'p:q::\n\n'); show "$(printf 'p:q')"`, "3:<p><q><>\n1:<p:q>\n"},
		{"arithmetic", `IFS=-; show $((3 - 5)); IFS=0; show $((101))`, "2:<><2>\n2:<1><1>\n"},
		{"quoted word of a default", `IFS=:; show ${u:-d:e} ${u:-"d:e"} ${u:-'d:e'}x; w=1; show ${w:+"p:q"} ${w+r:s}`,
			"4:<d><e><d:e><d:ex>\n3:<p:q><r><s>\n"},
		{"escaped delimiter", `IFS=:; v=a; show $v\:b; show ${u:-a\:b}`, "1:<a:b>\n1:<a:b>\n"},
		{"quoted $@ untouched", `IFS=:; set -- 'a:b' '' c; show "$@"; show x"$@"y; set --; show "$@"; show "$@"""`,
			"3:<a:b><><c>\n3:<xa:b><><cy>\n0:<>\n1:<>\n"},
		{"unquoted $@ joined and split", `IFS=:; set -- 'a:' b '' c; show $@; show $*; arr=('x:' '' y); show ${arr[@]}; show ${arr[*]}; show ${arr[@]:1}`,
			"5:<a><><b><><c>\n5:<a><><b><><c>\n4:<x><><><y>\n4:<x><><><y>\n2:<><y>\n"},
		{"list expansion with leading whitespace", `IFS=' :'; arr=(' :b'); show ${arr[@]}; s=' :b'; show $s; set --; show "$@"$s; show $s${arr[@]}`,
			"1:<b>\n2:<><b>\n1:<b>\n2:<b><b>\n"},
		{"per-element operators", `IFS=:; arr=('a:' 'b'); show ${arr[@]#?}; show ${arr[@]%?}; show ${arr[@]/a/c}; show ${arr[@]^^}`,
			"2:<><>\n1:<a>\n3:<c><><b>\n3:<A><><B>\n"},
		{"for loop and arrays", `IFS=:; p='a::b:'; for w in $p; do echo "[$w]"; done; r=($p x); echo ${#r[@]}; r+=($p); echo ${#r[@]}; declare -a d=($p); echo ${#d[@]}`,
			"[a]\n[]\n[b]\n4\n7\n3\n"},
		{"local IFS in a function", `IFS=:; v='1,,2:3'; f() { local IFS=,; show $v; local -a c=($v); echo ${#c[@]}; }; f; show $v`,
			"3:<1><><2:3>\n3\n2:<1,,2><3>\n"},
		{"prefix assignment to a function", `v='1,,2'; f() { show $v; }; IFS=, f; show $v`, "3:<1><><2>\n1:<1,,2>\n"},
		{"prefix assignment to a builtin", `IFS=:; v='a,b'; IFS=, show $v; v='a:b'; IFS=, show $v`, "1:<a,b>\n2:<a><b>\n"},
		{"command name from an expansion", `IFS=:; c='printf:%s|:x::y'; $c; echo`, "x||y|\n"},
		{"status before the word", `IFS=:; v=a:b; false; show $? $v`, "3:<1><a><b>\n"},
		{"IFS unset and empty", `IFS=:; unset IFS; v=' a:b  c '; show $v; IFS=; show $v`, "2:<a:b><c>\n1:< a:b  c >\n"},
		{"IFS empty", `IFS=:; IFS=; arr=(a "" "b c"); show ${!arr[@]}; b=; show ${u:-"$b"}; set -- a "" "b c"; show x$@y`,
			"3:<0><1><2>\n1:<>\n2:<xa><b cy>\n"},
		{"restored whitespace IFS", `old=$IFS; IFS=:; IFS=$old; v=' a  b '; show $v`, "2:<a><b>\n"},
		{"not split", `IFS=:; v=k:v; case $v in k:v) echo case;; esac; x=$v; echo "$x"; [[ $v == k:v ]] && echo test; cat <<E
$v
E`, "case\nk:v\ntest\nk:v\n"},
		{"set -u", `IFS=:; set -u; v=a:b; show $v; ( show $nope ); echo "st $?"`, "2:<a><b>\nst 1\n"},
		{"background jobs", `IFS=:; x='a::b'; for i in 1 2 3; do ( set -- $x; echo "$#" ) & done; wait`, "3\n3\n3\n"},
		{"brace expansion", `IFS=:; v='p:q'; show {1,2}$v`, "4:<1p><q><2p><q>\n"},
		{"eval code", `IFS=:; v=a::b; eval 'show $v'; eval 'IFS=,; w=c,,d'; show $w`, "3:<a><><b>\n3:<c><><d>\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, st := run(t, t.TempDir(), showFunc+tc.src, Limits{})
			if out != tc.out || st != 0 || strings.Contains(errs, "goroutine ") {
				t.Errorf("out=%q err=%q status=%d; want out=%q", out, errs, st, tc.out)
			}
		})
	}
}

// Pathname expansion applies to the fields, not to quoted parts, not
// under set -f; nullglob drops a pattern that matches nothing. Expected
// outputs from bash 5.2.
func TestIFSSplitGlob(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a1.txt", "a2.txt", "b.log", "sub/c.txt", ".h.txt"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ name, src, out string }{
		{"fields are patterns", `IFS=:; p='*.txt:b.*:none.*::sub/*'; show $p; show "$p"`,
			"6:<a1.txt><a2.txt><b.log><none.*><><sub/c.txt>\n1:<*.txt:b.*:none.*::sub/*>\n"},
		{"quoted parts are not", `IFS=:; q='*'; show "a"$q".txt" a"$q".txt; d=sub; show "$d"/'*'.txt $d/*.txt`,
			"3:<a1.txt><a2.txt><a*.txt>\n2:<sub/*.txt><sub/c.txt>\n"},
		{"set -f", `IFS=:; p='*.txt:b.*'; set -f; show $p; set +f; show $p`, "2:<*.txt><b.*>\n3:<a1.txt><a2.txt><b.log>\n"},
		{"nullglob", `IFS=:; p='none.*:b.*'; shopt -s nullglob; show $p`, "1:<b.log>\n"},
		{"dotglob", `IFS=:; p='*.txt'; shopt -s dotglob; show $p`, "3:<.h.txt><a1.txt><a2.txt>\n"},
		{"literal IFS character is no pattern", `IFS='*'; d=sub; show $d* x*; p='a*b'; show $p; show *.log`,
			"2:<sub*><x*>\n2:<a><b>\n1:<b.log>\n"},
		{"for loop", `IFS=,; for f in $(echo 'a?.txt,sub/*'); do echo "[$f]"; done`, "[a1.txt]\n[a2.txt]\n[sub/c.txt]\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, st := run(t, dir, showFunc+tc.src, Limits{})
			if out != tc.out || st != 0 {
				t.Errorf("out=%q err=%q status=%d; want out=%q", out, errs, st, tc.out)
			}
		})
	}
}

// At the prompt, a line that sets IFS makes the later lines split as
// bash does.
func TestIFSSplitInteractive(t *testing.T) {
	dir := t.TempDir()
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	var out, errb lockedBuffer
	sh, err := New(Options{Client: c, Stdout: &out, Stderr: &errb, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"v='a::b'", "IFS=:", `set -- $v; echo $#`} {
		if _, err := sh.RunInteractive(context.Background(), line); err != nil {
			t.Fatal(err)
		}
	}
	if out.String() != "3\n" {
		t.Fatalf("out %q, err %q", out.String(), errb.String())
	}
}

// BenchmarkIFSSplit measures a loop that splits a line into fields 2000
// times: with the default IFS, with IFS set to whitespace, and with IFS=:
// (empty fields between two colons).
func BenchmarkIFSSplit(b *testing.B) {
	const loop = `i=0; while [ $i -lt 2000 ]; do set -- $line; i=$((i + 1)); done; echo $#`
	for _, bc := range []struct{ name, src string }{
		{"default", `line='a b  c d'; ` + loop},
		{"whitespace", `IFS=$' \t\n'; line='a b  c d'; ` + loop},
		{"colon", `IFS=:; line='a:b::c'; ` + loop},
	} {
		b.Run(bc.name, func(b *testing.B) { benchScript(b, bc.src, "4\n") })
	}
}
