// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// test and [ as bash runs them, written for llmsh (see LLMSH.md, "read,
// getopts, test, mapfile as bash"): POSIX's rules by the number of
// arguments (up to four), then bash's grammar (-o below -a, ! and
// parentheses), its messages and status 2 for a syntax error. The
// operators themselves are the [[ ]] ones of test.go.

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// testSyntaxError ends a test whose arguments do not parse.
type testSyntaxError struct{ msg string }

// testAbort ends a test whose evaluation abandoned the command line
// (r.exit says how), as an error in -v's array subscript does.
type testAbort struct{}

// classicTest evaluates test's (or ['s, without the ]) arguments.
type classicTest struct {
	r    *Runner
	ctx  context.Context
	argv []string
	pos  int
	name string // test or [ (llmsh)
}

func (t *classicTest) fail(format string, a ...any) {
	panic(testSyntaxError{fmt.Sprintf(format, a...)})
}

// runClassicTest runs test or [ (name) with args, ] removed. The status is
// 0 for true, 1 for false, 2 for a syntax error (reported as bash does).
func (r *Runner) runClassicTest(ctx context.Context, name string, args []string) (status uint8) {
	t := &classicTest{r: r, ctx: ctx, argv: args, name: name}
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(testAbort); ok {
				status = 1
				return
			}
			e, ok := v.(testSyntaxError)
			if !ok {
				panic(v)
			}
			r.shErrf("%s: %s\n", name, e.msg)
			status = 2
		}
	}()
	if len(args) == 0 {
		return 1
	}
	value := t.posix()
	if t.pos != len(t.argv) {
		if t.pos < len(t.argv) && strings.HasPrefix(t.argv[t.pos], "-") {
			t.fail("syntax error: `%s' unexpected", t.argv[t.pos])
		}
		t.fail("too many arguments")
	}
	if value {
		return 0
	}
	return 1
}

// classicTestStatus is test's exit status: code, or the abandoned line
// that an error in its evaluation left in r.exit (llmsh).
func (r *Runner) classicTestStatus(code uint8) exitStatus {
	if r.exit.exiting {
		exit := r.exit
		exit.code = code
		return exit
	}
	return exitStatus{code: code}
}

// posix applies POSIX's rules for up to four arguments, bash's grammar
// beyond.
func (t *classicTest) posix() bool {
	argv := t.argv
	switch len(argv) {
	case 1:
		t.pos = 1
		return argv[0] != ""
	case 2:
		v := t.twoArgs()
		t.pos = 2
		return v
	case 3:
		return t.threeArgs()
	case 4:
		if argv[0] == "!" {
			t.pos = 1
			return !t.threeArgs()
		}
		if argv[0] == "(" && argv[3] == ")" {
			t.pos = 1
			v := t.twoArgs()
			t.pos = 4
			return v
		}
	}
	return t.expr()
}

func (t *classicTest) twoArgs() bool {
	a, b := t.argv[t.pos], t.argv[t.pos+1]
	if a == "!" {
		return b == ""
	}
	if len(a) == 2 && a[0] == '-' && isTestUnop(a) {
		return t.unary(a, b)
	}
	t.fail("%s: unary operator expected", a)
	return false
}

func (t *classicTest) threeArgs() bool {
	a, op, b := t.argv[t.pos], t.argv[t.pos+1], t.argv[t.pos+2]
	switch {
	case isTestBinop(op):
		v := t.binary(a, op, b)
		t.pos = len(t.argv)
		return v
	case op == "-a":
		t.pos = len(t.argv)
		return a != "" && b != ""
	case op == "-o":
		t.pos = len(t.argv)
		return a != "" || b != ""
	case a == "!":
		t.pos++
		v := !t.twoArgs()
		t.pos = len(t.argv)
		return v
	case a == "(" && b == ")":
		t.pos = len(t.argv)
		return op != ""
	}
	t.fail("%s: binary operator expected", op)
	return false
}

func (t *classicTest) advance(need bool) {
	t.pos++
	if need && t.pos >= len(t.argv) {
		t.fail("argument expected")
	}
}

func (t *classicTest) expr() bool {
	if t.pos >= len(t.argv) {
		t.fail("argument expected")
	}
	return t.or()
}

func (t *classicTest) or() bool {
	v := t.and()
	if t.pos < len(t.argv) && t.argv[t.pos] == "-o" {
		t.advance(false)
		v2 := t.or()
		return v || v2
	}
	return v
}

func (t *classicTest) and() bool {
	v := t.term()
	if t.pos < len(t.argv) && t.argv[t.pos] == "-a" {
		t.advance(false)
		v2 := t.and()
		return v && v2
	}
	return v
}

func (t *classicTest) term() bool {
	argv := t.argv
	if t.pos >= len(argv) {
		t.fail("argument expected")
	}
	if argv[t.pos] == "!" {
		neg := false
		for t.pos < len(argv) && argv[t.pos] == "!" {
			t.advance(true)
			neg = !neg
		}
		return t.term() != neg
	}
	if argv[t.pos] == "(" {
		t.advance(true)
		v := t.expr()
		if t.pos >= len(argv) {
			if t.name == "[" {
				t.fail("`)' expected, found ]") // bash's [ sees its ]
			}
			t.fail("`)' expected")
		}
		if argv[t.pos] != ")" {
			t.fail("`)' expected, found %s", argv[t.pos])
		}
		t.advance(false)
		return v
	}
	if t.pos+3 <= len(argv) && isTestBinop(argv[t.pos+1]) {
		v := t.binary(argv[t.pos], argv[t.pos+1], argv[t.pos+2])
		t.pos += 3
		return v
	}
	if t.pos+2 <= len(argv) && isTestUnop(argv[t.pos]) {
		op := argv[t.pos]
		if op == "-t" {
			// -t may stand alone (fd 1) or take a number.
			t.advance(false)
			if t.pos < len(argv) {
				if _, ok := legalNumber(argv[t.pos]); ok {
					t.advance(false)
					return t.unary(op, argv[t.pos-1])
				}
				return false
			}
			return t.unary(op, "1")
		}
		t.advance(true)
		v := t.unary(op, argv[t.pos])
		t.advance(false)
		return v
	}
	v := argv[t.pos] != ""
	t.advance(false)
	return v
}

func isTestUnop(op string) bool {
	if len(op) != 2 || op[0] != '-' {
		return false
	}
	return strings.IndexByte("abcdefghknoprstuvwxzGLOSNR", op[1]) >= 0
}

func isTestBinop(op string) bool {
	switch op {
	case "=", "==", "!=", "<", ">", "-nt", "-ot", "-ef",
		"-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		return true
	}
	return false
}

func (t *classicTest) unary(op, x string) bool {
	if op == "-t" {
		if _, ok := legalNumber(x); !ok {
			return false
		}
	}
	if op == "-v" {
		set := t.r.testVarSet(x, false)
		if t.r.exit.exiting {
			// llmsh: test -v 'a[1/0]': bash's arithmetic error in
			// the subscript stops the test and abandons the line.
			panic(testAbort{})
		}
		return set
	}
	return t.r.unTest(t.ctx, testUnaryOp(op), x)
}

func (t *classicTest) binary(x, op, y string) bool {
	switch op {
	case "=", "==":
		return x == y
	case "!=":
		return x != y
	case "<":
		return x < y
	case ">":
		return x > y
	case "-nt", "-ot", "-ef":
		return t.r.binTest(t.ctx, testBinaryOp(op), x, y)
	}
	a, ok := legalNumber(x)
	if !ok {
		t.fail("%s: integer expression expected", x)
	}
	b, ok := legalNumber(y)
	if !ok {
		t.fail("%s: integer expression expected", y)
	}
	switch op {
	case "-eq":
		return a == b
	case "-ne":
		return a != b
	case "-lt":
		return a < b
	case "-le":
		return a <= b
	case "-gt":
		return a > b
	default: // -ge
		return a >= b
	}
}

// sameFile is -ef: both exist and the stat handler gives them one
// identity (a FileID method on the FileInfo, as llmsh's handler gives);
// two files without one are the same when they have the same path.
func (r *Runner) sameFile(ctx context.Context, x, y string) bool {
	ix, errX := r.stat(ctx, x)
	iy, errY := r.stat(ctx, y)
	if errX != nil || errY != nil {
		return false
	}
	idX, okX := fileID(ix)
	idY, okY := fileID(iy)
	switch {
	case okX && okY:
		return idX == idY
	case okX || okY:
		return false
	}
	return absPath(r.Dir, x) == absPath(r.Dir, y)
}

// fileID is the identity that a stat handler's FileInfo may carry.
func fileID(fi fs.FileInfo) (string, bool) {
	if f, ok := fi.(interface{ FileID() string }); ok {
		if id := f.FileID(); id != "" {
			return id, true
		}
	}
	return "", false
}

// testVarSet is -v in test and [[ ]] (cond): varSet, and as bash for what
// it does not parse as bash does: NAME[@] and NAME[*] are true when the
// indexed array has an element, and an associative array's key is the
// key as written (m[two words], m[@]) in [[ ]], which expanded it once
// already (bash's AV_NOEXPAND: m[a$b] is the key a$b), and in test that
// text expanded once more, quotes and backslashes removed (bash's
// expand_subscript_string: m[a\b] is the key ab).
func (r *Runner) testVarSet(x string, cond bool) bool {
	if len(x) == 1 && strings.Contains("@*#?$!-", x) {
		return false // llmsh: bash's -v names no special parameter but $0…$9
	}
	if vr := r.writeEnv.Get(x); vr.Kind == expand.NameRef && syntax.ValidName(x) {
		if n, t := vr.Resolve(r.writeEnv); strings.Contains(n, "[") {
			// llmsh: a nameref to an element (declare -n r='a[1]'):
			// bash's find_variable finds no variable, so false,
			// unless one has that name (declRefElem's local).
			return t.IsSet()
		}
	}
	if base, sub, ok := strings.Cut(x, "["); ok && strings.HasSuffix(sub, "]") && syntax.ValidName(base) {
		sub = sub[:len(sub)-1]
		vr := r.lookupVar(base)
		switch {
		case !vr.IsSet() && (sub == "@" || sub == "*" || vr.Kind == expand.Associative):
			return false
		case !vr.IsSet():
			// llmsh: the subscript is still evaluated, its errors
			// and side effects too ([[ -v a[i++] ]]), as bash.
			r.varSet(x)
			return false
		case (sub == "@" || sub == "*") && vr.Kind != expand.Associative:
			// llmsh: an associative array's @ and * are keys, as
			// bash reads them (the case below).
			if vr.Kind == expand.Indexed {
				return len(vr.List) > 0
			}
			return true
		case vr.Kind == expand.Associative && cond:
			_, ok := vr.Map[sub]
			return ok
		case vr.Kind == expand.Associative:
			if !expand.WholeSubscript("[" + sub + "]") {
				return false // m[x]y]: no element, no name
			}
			key, err := r.ecfg.SubscriptKey(sub)
			if err != nil {
				return false // m[a"b]: bash's expansion fails, false
			}
			_, ok := vr.Map[key]
			return ok
		}
	}
	return r.varSet(x)
}
