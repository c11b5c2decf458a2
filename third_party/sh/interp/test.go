// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// non-empty string is true, empty string is false
func (r *Runner) bashTest(ctx context.Context, expr syntax.TestExpr, classic bool) string {
	switch x := expr.(type) {
	case *syntax.Word:
		if classic {
			// In the classic "test" mode, we already expanded and
			// split the list of words, so don't redo that work.
			return r.document(x)
		}
		if inner := condNotGroup(r, x); inner != nil {
			// llmsh: [[ !(a) ]] is bash's `!` and the group ( a ),
			// with extglob or without.
			if r.bashTest(ctx, inner, classic) == "" {
				return "1"
			}
			return ""
		}
		s := r.literal(x)
		r.traceCond("-n", s) // llmsh: [[ word ]] traces as bash's -n
		return s
	case *syntax.ParenTest:
		r.condNot = false // llmsh: ! ( … ) is not traced on the leaves
		return r.bashTest(ctx, x.X, classic)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest, syntax.OrTest:
			if classic {
				break
			}
			// llmsh: [[ ]] expands the right operand of && and ||
			// only when the left one does not decide (bash).
			left := r.bashTest(ctx, x.X, classic) != ""
			if !left && x.Op == syntax.OrTest && r.condReErr {
				// llmsh: a regex error (status 2) is a false term
				// before ||, as bash's cond_test gives it.
				r.condReErr = false
				r.exit.clear()
			}
			if left == (x.Op == syntax.OrTest) || !r.exit.ok() {
				if left {
					return "1"
				}
				return ""
			}
			return r.bashTest(ctx, x.Y, classic)
		case syntax.TsMatchShort, syntax.TsMatch, syntax.TsNoMatch:
			str := r.literal(x.X.(*syntax.Word))
			yw := x.Y.(*syntax.Word)
			if classic { // test, [
				lit := r.literal(yw)
				if (str == lit) == (x.Op != syntax.TsNoMatch) {
					return "1"
				}
			} else { // [[
				pattern, traced, err := expand.PatternTrace(r.ecfg, yw)
				r.expandErr(err)
				r.traceCond(str, x.Op.String(), traced)
				if r.match(pattern, str) == (x.Op != syntax.TsNoMatch) {
					return "1"
				}
			}
			return ""
		}
		if yw, ok := x.Y.(*syntax.Word); ok && !classic && x.Op == syntax.TsReMatch {
			// llmsh: the quoted parts of the expression match
			// literally, as in bash.
			str := r.testOperand(ctx, x.X, classic)
			re, err := expand.Regexp(r.ecfg, yw)
			if r.compat(31) {
				// llmsh: bash 3.1's: quotes only quote (compat.go).
				re, err = expand.Literal(r.ecfg, yw)
			}
			r.expandErr(err)
			r.traceCond(str, x.Op.String(), re)
			if r.binTest(ctx, x.Op, str, re) {
				return "1"
			}
			return ""
		}
		if !classic && x.Op >= syntax.TsEql && x.Op <= syntax.TsGtr {
			// llmsh: in [[ ]], the operands of -eq and the like are
			// arithmetic expressions, as in bash.
			a, b := r.testOperand(ctx, x.X, classic), r.testOperand(ctx, x.Y, classic)
			r.traceCond(a, x.Op.String(), b)
			return r.arithTest(x.Op, a, b)
		}
		a, b := r.testOperand(ctx, x.X, classic), r.testOperand(ctx, x.Y, classic)
		if !classic {
			r.traceCond(a, x.Op.String(), b)
		}
		if r.binTest(ctx, x.Op, a, b) {
			return "1"
		}
		return ""
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot && !classic {
			// llmsh: the leaf under ! traces as "! leaf"; ! ! cancels.
			r.condNot = !r.condNot
			res := r.unTest(ctx, x.Op, r.bashTest(ctx, x.X, classic))
			r.condNot = false
			if r.condReErr {
				// llmsh: ! of a regex error (status 2) is true (bash).
				r.condReErr = false
				r.exit.clear()
			}
			return res2str(res)
		}
		a := r.testOperand(ctx, x.X, classic)
		if !classic {
			r.traceCond(x.Op.String(), a)
		}
		if x.Op == syntax.TsVarSet && !classic {
			// llmsh: an element written as one (m[$k]) is not
			// expanded again, as bash's TEST_ARRAYEXP; one that an
			// expansion made ($v) is, as in test.
			return res2str(r.testVarSet(a, writtenRef(x.X)))
		}
		if r.unTest(ctx, x.Op, a) {
			return "1"
		}
		return ""
	}
	return ""
}

// writtenRef reports whether the word x begins with NAME[ written in it,
// not made by an expansion nor single-quoted (llmsh: see testVarSet;
// bash expands [[ -v 'm[a$b]' ]]'s subscript again, not m[a\$b]'s).
func writtenRef(x syntax.TestExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	var lead strings.Builder
	var walk func(parts []syntax.WordPart) bool
	walk = func(parts []syntax.WordPart) bool {
		for _, wp := range parts {
			switch wp := wp.(type) {
			case *syntax.Lit:
				lead.WriteString(wp.Value)
			case *syntax.DblQuoted:
				if !walk(wp.Parts) {
					return false
				}
			default:
				return false
			}
			if strings.Contains(lead.String(), "[") {
				return false
			}
		}
		return true
	}
	walk(w.Parts)
	name, _, found := strings.Cut(lead.String(), "[")
	return found && syntax.ValidName(name)
}

func (r *Runner) binTest(ctx context.Context, op syntax.BinTestOperator, x, y string) bool {
	switch op {
	case syntax.TsReMatch:
		// llmsh: nocasematch applies to =~ too, as bash; the pattern is
		// a POSIX ERE (rematch.go), matched by bytes in the C locale.
		m, err := reMatch(ctx, y, x, r.opts[optNoCaseMatch], expand.ByteLocale(r.writeEnv))
		if err != nil {
			r.exit.code = 2
			r.condReErr = true
			return false
		}
		for i, g := range m {
			// llmsh: a group of less than half of a long subject is
			// a copy, not a piece that would keep all of it alive
			// (x=${BASH_REMATCH[1]}; unset a: session 32).
			m[i] = expand.Apart(g, x)
		}
		// llmsh: a failed match empties BASH_REMATCH, as bash.
		r.setRematch(m)
		return m != nil
	case syntax.TsNewer, syntax.TsOlder:
		info1, err1 := r.stat(ctx, x)
		info2, err2 := r.stat(ctx, y)
		// -ot is the mirror of -nt, so swap the operands and share the logic.
		if op == syntax.TsOlder {
			info1, info2, err1, err2 = info2, info1, err2, err1
		}
		// True if the first operand exists and the second does not,
		// or if both exist and the first is newer.
		if err1 != nil {
			return false
		}
		if err2 != nil {
			return true
		}
		return info1.ModTime().After(info2.ModTime())
	case syntax.TsDevIno:
		// llmsh: by the stat handler's file identity (upstream:
		// os.SameFile, which only knows host files).
		return r.sameFile(ctx, x, y)
	case syntax.TsEql:
		return atoi(x) == atoi(y)
	case syntax.TsNeq:
		return atoi(x) != atoi(y)
	case syntax.TsLeq:
		return atoi(x) <= atoi(y)
	case syntax.TsGeq:
		return atoi(x) >= atoi(y)
	case syntax.TsLss:
		return atoi(x) < atoi(y)
	case syntax.TsGtr:
		return atoi(x) > atoi(y)
	case syntax.AndTest:
		return x != "" && y != ""
	case syntax.OrTest:
		return x != "" || y != ""
	case syntax.TsBefore:
		return x < y
	case syntax.TsAfter:
		return x > y
	default:
		// Should only happen if we forgot a case above.
		panic(fmt.Sprintf("unexpected binary test operator: %q", op))
	}
}

func (r *Runner) statMode(ctx context.Context, name string, mode os.FileMode) bool {
	info, err := r.stat(ctx, name)
	return err == nil && info.Mode()&mode != 0
}

func (r *Runner) unTest(ctx context.Context, op syntax.UnTestOperator, x string) bool {
	switch op {
	case syntax.TsExists:
		_, err := r.stat(ctx, x)
		return err == nil
	case syntax.TsRegFile:
		info, err := r.stat(ctx, x)
		return err == nil && info.Mode().IsRegular()
	case syntax.TsDirect:
		return r.statMode(ctx, x, os.ModeDir)
	case syntax.TsCharSp:
		return r.statMode(ctx, x, os.ModeCharDevice)
	case syntax.TsBlckSp:
		info, err := r.stat(ctx, x)
		return err == nil && info.Mode()&os.ModeDevice != 0 &&
			info.Mode()&os.ModeCharDevice == 0
	case syntax.TsNmPipe:
		return r.statMode(ctx, x, os.ModeNamedPipe)
	case syntax.TsSocket:
		return r.statMode(ctx, x, os.ModeSocket)
	case syntax.TsSmbLink:
		info, err := r.lstat(ctx, x)
		return err == nil && info.Mode()&os.ModeSymlink != 0
	case syntax.TsSticky:
		return r.statMode(ctx, x, os.ModeSticky)
	case syntax.TsUIDSet:
		return r.statMode(ctx, x, os.ModeSetuid)
	case syntax.TsGIDSet:
		return r.statMode(ctx, x, os.ModeSetgid)
	case syntax.TsModif:
		info, err := r.stat(ctx, x)
		if err != nil {
			return false
		}
		return info.ModTime().After(getAtime(info))
	case syntax.TsRead:
		return r.access(ctx, x, AccessRead) == nil
	case syntax.TsWrite:
		return r.access(ctx, x, AccessWrite) == nil
	case syntax.TsExec:
		return r.access(ctx, x, AccessExec) == nil
	case syntax.TsNoEmpty:
		info, err := r.stat(ctx, x)
		return err == nil && info.Size() > 0
	case syntax.TsFdTerm:
		fd := atoi(x)
		var f any
		switch fd {
		case 0:
			f = r.stdin
		case 1:
			f = r.stdout
		case 2:
			f = r.stderr
		}
		if fd == 0 && r.ttyFeed(r.stdin) != nil {
			return true // llmsh: the terminal's feed (TerminalStdin)
		}
		if sc, ok := f.(syscall.Conn); ok {
			// llmsh: not Fd(), which puts an *os.File in blocking mode,
			// where a write to a full pipe cannot be ended (see
			// shell's isTerminal).
			rc, err := sc.SyscallConn()
			if err != nil {
				return false
			}
			is := false
			rc.Control(func(fd uintptr) { is = term.IsTerminal(int(fd)) })
			return is
		}
		if f, ok := f.(interface{ Fd() uintptr }); ok {
			// Support [os.File.Fd] methods such as the one on [*os.File].
			return term.IsTerminal(int(f.Fd()))
		}
		// TODO: allow term.IsTerminal here too if running in the
		// "single process" mode.
		return false
	case syntax.TsEmpStr:
		return x == ""
	case syntax.TsNempStr:
		return x != ""
	case syntax.TsOptSet:
		if opt := r.posixOptByName(x); opt != nil {
			return *opt
		}
		return false
	case syntax.TsVarSet:
		// llmsh: an element (-v 'a[i]'), through namerefs, as bash.
		return r.testVarSet(x, false)
	case syntax.TsRefVar:
		// llmsh: set and a nameref, as bash: declare -n r alone is not;
		// no name (-R "") is none.
		if x == "" {
			return false
		}
		vr := r.lookupVar(x)
		return vr.Kind == expand.NameRef && vr.IsSet()
	case syntax.TsNot:
		return x == ""
	case syntax.TsUsrOwn, syntax.TsGrpOwn:
		return r.unTestOwnOrGrp(ctx, op, x)
	default:
		// Should only happen if we forgot a case above.
		panic(fmt.Sprintf("unexpected unary test op: %v", op))
	}
}

func res2str(b bool) string {
	if b {
		return "1"
	}
	return ""
}

// testOperand is an operand of a test operator: its word expanded,
// with no trace of its own (llmsh).
func (r *Runner) testOperand(ctx context.Context, x syntax.TestExpr, classic bool) string {
	if w, ok := x.(*syntax.Word); ok && !classic {
		return r.literal(w)
	}
	return r.bashTest(ctx, x, classic)
}

// traceCond traces one evaluated term of [[ … ]] as bash's xtrace: the
// expanded operands as they are, an empty one as ”, "! " before a term
// that ! negates (llmsh).
func (r *Runner) traceCond(words ...string) {
	not := r.condNot
	r.condNot = false
	t := r.tracer()
	if t == nil {
		return
	}
	var sb strings.Builder
	sb.WriteString("[[ ")
	if not {
		sb.WriteString("! ")
	}
	for _, w := range words {
		if w == "" {
			w = "''"
		}
		sb.WriteString(w)
		sb.WriteByte(' ')
	}
	sb.WriteString("]]")
	t.string(sb.String())
	t.newLineFlush()
}

// setRematch gives BASH_REMATCH the groups of a =~ match (none for a
// failed one) as bash's sh_regmatch: the global variable is unbound and
// made anew, so no attribute stays (readonly neither), and a function's
// local of that name hides it (llmsh).
func (r *Runner) setRematch(groups []string) {
	vr := expand.Variable{Set: true, Kind: expand.Indexed, List: groups}
	g := r.globalScope()
	if g == nil {
		g, _ = r.writeEnv.(*overlayEnviron)
	}
	if g == nil {
		r.setVar("BASH_REMATCH", vr)
		return
	}
	g.set("BASH_REMATCH", vr, true)
}

// condNotGroup is the expression inside w when w, a term of [[ ]], is
// an extended pattern !(…) alone: bash's conditional parser reads `!`
// and a group there, whatever extglob says (`[[ !(-z "") ]]` is false).
// nil when w is no such word or its text is no expression (llmsh).
func condNotGroup(r *Runner, w *syntax.Word) syntax.TestExpr {
	if len(w.Parts) != 1 {
		return nil
	}
	eg, ok := w.Parts[0].(*syntax.ExtGlob)
	if !ok || eg.Op != syntax.GlobExcept || eg.Pattern == nil || strings.TrimSpace(eg.Pattern.Value) == "" {
		return nil
	}
	file, err := r.parseText("[[ "+eg.Pattern.Value+" ]]", "")
	if err != nil || len(file.Stmts) != 1 {
		return nil
	}
	tc, ok := file.Stmts[0].Cmd.(*syntax.TestClause)
	if !ok || len(file.Stmts[0].Redirs) > 0 {
		return nil
	}
	return tc.X
}
