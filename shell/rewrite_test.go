package shell_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"

	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// Behaviours of the pre-pass rewrites; outputs were checked against
// GNU bash 5.2.
func TestRewrites(t *testing.T) {
	tests := []struct {
		name, src  string
		out, errIn string
		status     int
	}{
		{"output process substitution", "tee >(tr a-z A-Z) <<< hello >/dev/null; wait", "HELLO\n", "", 0},
		{"unread process substitution ends its job", "true <(yes); echo $?", "0\n", "", 0},
		{"process substitution in a function body", "f() { cat <(echo \"in $1\"); }; f x; f y", "in x\nin y\n", "", 0},
		{"nested process substitution", "cat <(cat <(echo deep))", "deep\n", "", 0},
		{"process substitution in a pipeline", "cat <(seq 3) | wc -l", "3\n", "", 0},
		{"negated statement with process substitution", "! grep -q z <(echo abc); echo $?", "0\n", "", 0},
		{"a descriptor path is no file", "echo x > /dev/fd/40; echo $?", "1\n", "/dev/fd/40", 0},
		{"let with quoted expressions", `k=3; let "m = (k + 1) / 2" "n = m * 10"; echo $m $n`, "2 20\n", "", 0},
		{"let syntax error", `let "x = 1 +"; echo $?`, "1\n", "syntax error", 0},
		{"arithmetic over expanded text", `x="1+2"; echo $(( $x * 2 )) "$(( $x ))"; cat <<EOF
$(( $x * 3 ))
EOF`, "5 3\n7\n", "", 0},
		{"expanded variable naming an expression", `s="3 + 4"; t=s; echo $(( $t * 2 ))`, "14\n", "", 0},
		{"(( )) over expanded text assigns", `n=5; (( t = $n * 2 )); echo $t; (( $n - 5 )); echo $?`, "10\n1\n", "", 0},
		{"arithmetic expansion error ends the shell", `x="1 +"; echo $(( $x )); echo after`, "", "llmsh: line 1: 1 + : syntax error: operand expected (error token is \"+ \")", 1},
		{"arithmetic expansion error ends a subshell only", `( x=5; echo $(( $x / 0 )); echo in ); echo "after $?"`, "after 1\n", "5 / 0 : division by 0 (error token is \"0 \")", 0},
		{"arithmetic expansion in the current shell", `set -- 4 5; f() { echo $(( $1 * $# + ${#2} )); }; f 6; (exit 3); echo $(( $? + $(echo 2) )) $(( $1 ))`, "6\n5 4\n", "", 0},
		{"bare name holding an expression", `s="3 + 4"; echo $((s)) $((s * 2)); (( s == 7 )) && echo seven; read n <<< "2*3"; echo $((n + 1)); for v in 1+1; do echo $((v)); done`, "7 14\nseven\n7\n2\n", "", 0},
		{"bare name holding a broken expression", `x="1 +"; (( x )); echo "after $?"; echo $((x)); echo no`, "after 1\n", "llmsh: line 1: ((: 1 +: syntax error", 1},
		{"nested arithmetic expansion", `x=3; echo $(( $(( $x + 1 )) * 2 ))`, "8\n", "", 0},
		{"quoted trim pattern with an expansion", `v="a/b*/c"; d="b*/"; echo "${v#*"$d"}" "${v%/"c"}"; n=$'x\n'; s="ab$n"; echo "[${s%"$n"}]"`, "c a/b*\n[ab]\n", "", 0},
		{"quoted regex with an expansion", `p="a.c"; [[ xa.cy =~ x"$p"(y) ]] && echo "${BASH_REMATCH[1]}"; [[ xabcy =~ x"$p" ]] || echo no`, "y\nno\n", "", 0},
		{"escaped dollar in a replacement", `x=foo; echo "${x/o/\$}" ${x//o/\\}`, "f$o f\\\\\n", "", 0},
		{"[[ -ef ]]", `echo x > a; [[ a -ef ./a ]]; echo $?; [[ a -ef nosuch ]]; echo $?; [[ ! a -ef a ]]; echo $?; echo y > 'b c'; f='b c'; [[ $f -ef "./b c" ]]; echo $?`, "0\n1\n1\n0\n", "", 0},
		{"PIPESTATUS", `true | false | true; echo ${PIPESTATUS[*]}; f() { echo x | { read -r l; exit 4; } | cat; echo ${PIPESTATUS[@]}; }; f`, "0 1 0\n0 4 0\n", "", 0},
		{"associative arrays", `declare -A m=([a]=1); m+=([b]=2 [c]=3); echo "${#m[@]} ${m[c]}"; [[ -v m[b] && ! -v m[z] ]] && echo ok`, "3 3\nok\n", "", 0},
		{"anchored replacement", `s=a.b.c; f() { echo "${*/#/-}"; }; f x y; echo "${s/#*./X}" "${s/%.*/Y}"`, "-x -y\nXc aY\n", "", 0},
		{"read with a comma IFS", `IFS=, read -r a b c <<< "1,,3"; echo "[$a][$b][$c]"; f() { local x; IFS=: read -r x <<< "p:q"; echo "$x"; }; f; echo "[$x]"`, "[1][][3]\np:q\n[]\n", "", 0},
		{"arithmetic with an expansion under IFS=,", `IFS=,; y=2; echo $(( y + ${y} ))`, "4\n", "", 0},
		{"sh -c does not inherit IFS", `export IFS=:; sh -c 'v=a::b; printf "<%s>" $v; echo'`, "<a::b>\n", "", 0},
		{"${v@Q}", `q="it's"; c=$'a\tb'; echo "${q@Q}" ${c@Q}; unset u; echo "[${u@Q}]"`, "'it'\\''s' $'a\\tb'\n[]\n", "", 0},
		{"declare -i", `declare -i n=2*3; n+=1; f() { local -i m=$1; m+=1; echo $m; }; f 4; echo $n`, "5\n7\n", "", 0},
		{"exec > file commits", `( exec > x.log; echo one ); exec 2> e.log; echo err >&2; cat x.log e.log`, "one\nerr\n", "", 0},
		{"a failed redirection is not fatal", "cat < nosuch || echo fallback; echo $?", "fallback\n0\n", "llmsh: line 1: nosuch: ", 0},
		{"type shows the loop as written", "f() { for ((i = 0; i < 2; i++)); do echo $i; done; }; type f",
			"f is a function\nf () \n{ \n    for ((i = 0; i < 2; i++))\n    do\n        echo $i;\n    done\n}\n", "", 0}, // bash 5.2's layout
		{"c-style loop in a function, recursion", "f() { local i; for ((i = 0; i < $1; i++)); do ((i == 1)) && f 1; echo \"$1:$i\"; false; done; }; f 2",
			"2:0\n1:0\n2:1\n", "", 1}, // bash: the loop, then f, ends with false
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, st := run(t, t.TempDir(), tc.src, Limits{})
			if out != tc.out || st != tc.status || !strings.Contains(errs, tc.errIn) || strings.Contains(errs, "goroutine ") {
				t.Errorf("out=%q err=%q status=%d; want out=%q err~%q status=%d", out, errs, st, tc.out, tc.errIn, tc.status)
			}
		})
	}
}

// Process substitution never reaches vfsd: no virtual file is made.
func TestProcSubstNoVirtualFiles(t *testing.T) {
	dir := t.TempDir()
	c := vfstest.Session(t, vfsd.Config{Outputs: []string{dir}})
	var out, errb lockedBuffer
	sh, err := New(Options{Client: c, Stdout: &out, Stderr: &errb, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	st := sh.Run(context.Background(), "cat <(echo a) >/dev/null; [ -p <(true) ]; echo >(cat) >/dev/null; wait", "llmsh")
	vf, err := c.VirtualFiles()
	if err != nil || len(vf) != 0 || st != 0 {
		t.Fatalf("virtual files %v (%v), status %d, stderr %q", vf, err, st, errb.String())
	}
}

// A process substitution's pipe has the time it was made, as on Linux:
// diff heads it with this year, not the year 1.
func TestProcSubstPipeTime(t *testing.T) {
	out, errs, st := run(t, t.TempDir(), `diff -u <(echo a) <(echo b) | head -2 | cut -f2 | cut -c1-4; date -r <(:) +%Y`, Limits{})
	y := time.Now().Format("2006")
	if want := y + "\n" + y + "\n" + y + "\n"; out != want || st != 0 {
		t.Fatalf("out=%q err=%q status=%d; want %q", out, errs, st, want)
	}
}

// A nested shell whose stdin is a redirected file reads that file, at
// the position the commands around it share (bash's processes share the
// file description); it read an empty stdin. awk leaves the file open
// for the read after it.
func TestNestedShellRedirectedStdin(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in"), []byte("1\n2\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `bash -c cat < in; { read -r a; sh -c 'read -r b; echo "b$b"'; read -r c; echo "$a$c"; } < in
{ read -r a; awk 'NR==1'; read -r c; echo "c=[$c] $?"; } < in`
	out, errs, st := run(t, dir, src, Limits{})
	if want := "1\n2\n3\nb2\n13\n2\nc=[] 1\n"; out != want || errs != "" || st != 0 {
		t.Fatalf("out=%q err=%q status=%d; want %q", out, errs, st, want)
	}
}

// A nested shell starts with its parent's umask, as a process inherits
// it, and its own changes stay its own; it started with 022.
func TestNestedShellUmask(t *testing.T) {
	src := `umask 077; bash -c 'umask; touch f; umask 000'; umask; stat -c %a f; echo x | xargs sh -c umask`
	out, errs, st := run(t, t.TempDir(), src, Limits{})
	if want := "0077\n0077\n600\n0077\n"; out != want || st != 0 {
		t.Fatalf("out=%q err=%q status=%d; want %q", out, errs, st, want)
	}
}

// The shell's own command list names only what the interpreter runs.
func TestInterpBuiltinsList(t *testing.T) {
	for _, n := range ForTests.InterpBuiltins() {
		if !interp.IsBuiltin(n) {
			t.Errorf("%q is not an interp builtin", n)
		}
	}
}

// currentRunner reaches the runner behind a handler's context
// (HandlerContext.Runner): functions defined in a subshell are seen there.
func TestCurrentRunner(t *testing.T) {
	out, errs, st := run(t, t.TempDir(), "( g() { :; }; type -t g; command -v g ); type g 2>/dev/null || echo gone", Limits{})
	if out != "function\ng\ngone\n" || st != 0 {
		t.Fatalf("out=%q err=%q status=%d", out, errs, st)
	}
	if ForTests.HasRunner(context.Background()) {
		t.Fatal("a runner from a context that is no handler's")
	}
}

// A subshell's EXIT trap runs when it ends, also when set -e ends it.
func TestSubshellExitTrap(t *testing.T) {
	out, errs, st := run(t, t.TempDir(), `( trap 'echo t1' EXIT; exit 3 ); echo $?; x=$(trap 'echo t2' EXIT; echo v); echo "$x"; ( set -e; trap 'echo t3 $?' EXIT; false; echo no ); trap 'echo main' EXIT`, Limits{})
	if out != "t1\n3\nv\nt2\nt3 1\nmain\n" || st != 0 {
		t.Fatalf("out=%q err=%q status=%d", out, errs, st)
	}
}

// TestSetShellVar guards setShellVar, which reaches interp's variables
// (Runner.WriteEnv): FUNCNAME and the ERR trap's state are set through it,
// in the shell, a subshell and a function.
func TestSetShellVar(t *testing.T) {
	ran := false
	r, err := interp.New(interp.CallHandler(func(ctx context.Context, args []string) ([]string, error) {
		if args[0] == "setit" {
			ran = true
			if !ForTests.SetShellVar(ctx, "V", expand.Variable{Set: true, Kind: expand.Indexed, List: []string{args[1]}}) {
				t.Error("setShellVar failed: has interp's Runner changed?")
			}
			return []string{"true"}, nil
		}
		return args, nil
	}), interp.StdIO(nil, io.Discard, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(`setit 1; f() { setit 2; }; f; (setit 3; [ "$V" = 3 ] || exit 1) || exit 1; [ "${V[0]}" = 2 ]`), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), f); err != nil || !ran {
		t.Fatalf("run: %v (ran %v)", err, ran)
	}
	out, errs, st := run(t, t.TempDir(), `false; echo "${PIPESTATUS[*]}"; f() { (exit 3); echo "${PIPESTATUS[*]}"; }; f`, Limits{})
	if out != "1\n3\n" || st != 0 {
		t.Fatalf("out=%q err=%q status=%d", out, errs, st)
	}
}
