package builtins

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

// bcInterp holds bc's state: variables, arrays, functions, the special
// variables and the output column (numbers wrap at 70 characters).
type bcInterp struct {
	env     *Env
	out     io.Writer
	vars    map[string]bcNum
	arrays  map[string]map[int64]bcNum
	funcs   map[string]*bcFunc
	scale   int
	ibase   int
	obase   int
	last    bcNum
	col     int
	mathlib bool
	std     byte   // -s: 's', -w: 'w'
	fname   string // function being run, for messages
	steps   int
	werr    error // the first output error: bc stops
	calls   int   // active function calls
	lineLen int   // BC_LINE_LENGTH: 0 means no wrapping
	// cur is the node whose instruction runs now, for the address of a
	// run time error (bc_addr.go); in a call, curArg is where in the call
	// instruction (0: its function, k: its k-th parameter, -1: its end).
	cur    any
	curArg int
	// batch is the line's statements that run now (for a warning's
	// address).
	batch []bcStmt
}

// bcMaxCalls bounds recursion (GNU bc is bounded by its own stack).
const bcMaxCalls = 10000

var (
	errBcBreak    = errors.New("break")
	errBcContinue = errors.New("continue")
	errBcHalt     = errors.New("halt")
)

// bcReturnVal carries a function's return value up the Go stack.
type bcReturnVal struct{ v bcNum }

func (bcReturnVal) Error() string { return "return" }

// bcRuntimeError is printed GNU style and ends the current batch.
type bcRuntimeError struct {
	msg, fn string
	node    any      // the node that failed (bcInterp.cur)
	arg     int      // bcInterp.curArg
	body    []bcStmt // the function it is in; nil: the line's statements
	second  string   // a second error, at the end of the call instruction
}

func (e *bcRuntimeError) Error() string { return e.msg }

func newBcInterp(env *Env, out io.Writer) *bcInterp {
	return &bcInterp{env: env, out: out, vars: map[string]bcNum{}, arrays: map[string]map[int64]bcNum{},
		funcs: map[string]*bcFunc{}, ibase: 10, obase: 10, last: bcInt(0), lineLen: bcLineLength(env.Environ)}
}

// bcLineLength reads BC_LINE_LENGTH from the script's own exported
// variables, as GNU bc: atoi of the value, 0 for no wrapping, values
// under 3 mean the default 70.
func bcLineLength(environ []string) int {
	for _, kv := range environ {
		v, ok := strings.CutPrefix(kv, "BC_LINE_LENGTH=")
		if !ok {
			continue
		}
		i, neg := 0, false
		for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
			i++
		}
		if i < len(v) && (v[i] == '-' || v[i] == '+') {
			neg = v[i] == '-'
			i++
		}
		n := 0
		for ; i < len(v) && v[i] >= '0' && v[i] <= '9' && n < 1<<30; i++ {
			n = n*10 + int(v[i]-'0')
		}
		if neg {
			n = -n
		}
		if n == 0 {
			return 0
		}
		if n < 3 {
			return 70
		}
		return n
	}
	return 70
}

func (in *bcInterp) rt(format string, args ...any) error {
	e := &bcRuntimeError{msg: fmt.Sprintf(format, args...), fn: in.funcName(), node: in.cur, arg: in.curArg}
	if f := in.funcs[in.fname]; in.fname != "" && f != nil {
		e.body = f.body
	}
	return e
}

// write prints s, tracking the column; wrap allows the 70-column break.
func (in *bcInterp) write(s string, wrap bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if wrap && in.lineLen > 0 && in.col >= in.lineLen-2 && c != '\n' {
			b.WriteString("\\\n")
			in.col = 0
		}
		b.WriteByte(c)
		if c == '\n' {
			in.col = 0
		} else {
			in.col++
		}
	}
	if _, err := io.WriteString(in.out, b.String()); err != nil && in.werr == nil {
		in.werr = err
	}
}

func (in *bcInterp) printNum(v bcNum) {
	in.write(v.format(in.obase), true)
}

func (in *bcInterp) getVar(name string) bcNum {
	if v, ok := in.vars[name]; ok {
		return v
	}
	return bcInt(0)
}

func (in *bcInterp) array(name string) map[int64]bcNum {
	a := in.arrays[name]
	if a == nil {
		a = map[int64]bcNum{}
		in.arrays[name] = a
	}
	return a
}

func (in *bcInterp) index(name string, x bcExpr) (int64, error) {
	v, err := in.eval(x)
	if err != nil {
		return 0, err
	}
	i, ok := v.toInt64()
	if !ok || i < 0 || i > 16777215 {
		return 0, in.rt("Array %s subscript out of bounds.", name)
	}
	return i, nil
}

func (in *bcInterp) load(x bcExpr) (bcNum, error) {
	switch x := x.(type) {
	case *bcVar:
		if x.index == nil {
			return in.getVar(x.name), nil
		}
		i, err := in.index(x.name, x.index)
		if err != nil {
			return bcNum{}, err
		}
		if v, ok := in.array(x.name)[i]; ok {
			return v, nil
		}
		return bcInt(0), nil
	case *bcSpecial:
		switch x.name {
		case "scale":
			return bcInt(int64(in.scale)), nil
		case "ibase":
			return bcInt(int64(in.ibase)), nil
		case "obase":
			return bcInt(int64(in.obase)), nil
		}
		return in.last, nil
	}
	return bcNum{}, in.rt("bad assignment")
}

func (in *bcInterp) store(x bcExpr, v bcNum) error {
	switch x := x.(type) {
	case *bcVar:
		if x.index == nil {
			in.vars[x.name] = v
			return nil
		}
		i, err := in.index(x.name, x.index)
		if err != nil {
			return err
		}
		in.array(x.name)[i] = v
		return nil
	case *bcSpecial:
		n, ok := v.toInt64()
		switch x.name {
		case "scale":
			switch {
			case ok && n < 0 || !ok && v.v.Sign() < 0:
				in.warn("negative scale, set to 0")
				n = 0
			case !ok || n > 2147483647:
				return in.rt("Scale too big.")
			}
			in.scale = int(n)
		case "ibase":
			switch {
			case !ok || n < 2:
				in.warn("ibase too small, set to 2")
				n = 2
			case n > 36:
				in.warn("ibase too large, set to 36")
				n = 36
			}
			in.ibase = int(n)
		case "obase":
			switch {
			case !ok || n < 2:
				in.warn("obase too small, set to 2")
				n = 2
			case n > 2147483647:
				in.warn("obase too large, set to 2147483647")
				n = 2147483647
			}
			in.obase = int(n)
		default:
			in.last = v
		}
		return nil
	}
	return in.rt("bad assignment")
}

// warn prints a run time warning as GNU bc 1.07.1 does, with the address
// of the instruction that runs (bc_addr.go).
func (in *bcInterp) warn(msg string) {
	list := in.batch
	if f := in.funcs[in.fname]; in.fname != "" && f != nil {
		list = f.body
	}
	if adr, ok := bcAddr(list, in.cur, in.curArg); ok {
		if f, ok := in.out.(interface{ Flush() error }); ok {
			f.Flush()
		}
		fmt.Fprintf(in.env.Stderr, "Runtime warning (func=%s, adr=%d): %s\n", in.funcName(), adr, msg)
		return
	}
	fmt.Fprintf(in.env.Stderr, "Runtime warning (func=%s): %s\n", in.funcName(), msg)
}

func (in *bcInterp) funcName() string {
	if in.fname == "" {
		return "(main)"
	}
	return in.fname
}

// parseNum reads a numeric literal in the current ibase. A digit
// alone has its own value (Z is 35); in longer numbers, digits past the
// base count as ibase-1, as in GNU bc ("1F" is 19 in base 10).
func (in *bcInterp) parseNum(text string) bcNum {
	val := func(c byte) int64 {
		d := int64(c - '0')
		if c >= 'A' {
			d = int64(c-'A') + 10
		}
		return min(d, int64(in.ibase)-1)
	}
	ip, fp, _ := strings.Cut(text, ".")
	if len(text) == 1 && text != "." {
		if c := text[0]; c >= 'A' {
			return bcInt(int64(c-'A') + 10)
		}
		return bcInt(int64(text[0] - '0'))
	}
	base := big.NewInt(int64(in.ibase))
	iv := new(big.Int)
	for i := 0; i < len(ip); i++ {
		iv.Mul(iv, base)
		iv.Add(iv, big.NewInt(val(ip[i])))
	}
	if fp == "" {
		return bcNum{iv, 0}
	}
	fv := new(big.Int)
	for i := 0; i < len(fp); i++ {
		fv.Mul(fv, base)
		fv.Add(fv, big.NewInt(val(fp[i])))
	}
	den := new(big.Int).Exp(base, big.NewInt(int64(len(fp))), nil)
	frac, err := bcDiv(bcNum{fv, 0}, bcNum{den, 0}, len(fp))
	if err != nil {
		return bcNum{iv, 0}
	}
	return bcAdd(bcNum{iv, 0}, frac)
}

func bcBool(b bool) bcNum {
	if b {
		return bcInt(1)
	}
	return bcInt(0)
}

func (in *bcInterp) eval(x bcExpr) (bcNum, error) {
	in.steps++
	if in.werr != nil || in.steps&0xfff == 0 && in.env.Ctx.Err() != nil {
		return bcNum{}, gnu.ErrCancelled
	}
	switch x := x.(type) {
	case *bcNumLit:
		return in.parseNum(x.text), nil
	case *bcVar, *bcSpecial:
		in.cur = x
		return in.load(x)
	case *bcUnary:
		if x.op == "()" {
			return in.eval(x.x)
		}
		v, err := in.eval(x.x)
		if err != nil {
			return v, err
		}
		if x.op == "!" {
			return bcBool(v.isZero()), nil
		}
		return bcNum{new(big.Int).Neg(v.v), v.s}, nil
	case *bcBinary:
		if x.op == "&&" || x.op == "||" {
			l, err := in.eval(x.l)
			if err != nil {
				return l, err
			}
			if x.op == "&&" && l.isZero() {
				return bcInt(0), nil
			}
			if x.op == "||" && !l.isZero() {
				return bcInt(1), nil
			}
			r, err := in.eval(x.r)
			if err != nil {
				return r, err
			}
			return bcBool(!r.isZero()), nil
		}
		l, err := in.eval(x.l)
		if err != nil {
			return l, err
		}
		r, err := in.eval(x.r)
		if err != nil {
			return r, err
		}
		in.cur = x
		return in.arith(x.op, l, r)
	case *bcAssign:
		r, err := in.eval(x.rhs)
		if err != nil {
			return r, err
		}
		in.cur = x
		if x.op != "=" {
			l, err := in.load(x.lhs)
			if err != nil {
				return l, err
			}
			if r, err = in.arith(x.op[:1], l, r); err != nil {
				return r, err
			}
		}
		if err := in.store(x.lhs, r); err != nil {
			return r, err
		}
		return in.load(x.lhs)
	case *bcIncDec:
		in.cur = x
		v, err := in.load(x.x)
		if err != nil {
			return v, err
		}
		nv := bcAdd(v, bcInt(1))
		if x.op == "--" {
			nv = bcSub(v, bcInt(1))
		}
		if err := in.store(x.x, nv); err != nil {
			return v, err
		}
		if x.prefix {
			return in.load(x.x)
		}
		return v, nil
	case *bcBuiltinCall:
		v, err := in.eval(x.x)
		if err != nil {
			return v, err
		}
		in.cur = x
		switch x.name {
		case "length":
			return bcInt(int64(bcLength(v))), nil
		case "scale":
			return bcInt(int64(v.s)), nil
		}
		r, err := bcSqrt(v, in.scale)
		if err != nil {
			return r, in.rt("%s", err)
		}
		return r, nil
	case *bcCall:
		in.cur, in.curArg = x, 0
		return in.call(x)
	}
	return bcNum{}, in.rt("bad expression")
}

func (in *bcInterp) arith(op string, l, r bcNum) (bcNum, error) {
	switch op {
	case "+":
		return bcAdd(l, r), nil
	case "-":
		return bcSub(l, r), nil
	case "*":
		v, err := bcMul(l, r, in.scale)
		if err != nil {
			return v, in.rt("%s", err)
		}
		return v, nil
	case "/":
		v, err := bcDiv(l, r, in.scale)
		if err != nil {
			return v, in.rt("%s", err)
		}
		return v, nil
	case "%":
		v, err := bcMod(l, r, in.scale)
		if errors.Is(err, errBcDivZero) {
			return v, in.rt("Modulo by zero")
		} else if err != nil {
			return v, in.rt("%s", err)
		}
		return v, nil
	case "^":
		if r.s > 0 && new(big.Int).Rem(r.v, bcPow10(r.s)).Sign() != 0 {
			in.warn("non-zero scale in exponent")
		}
		v, err := bcPow(l, r.rescale(0).v, in.scale)
		if errors.Is(err, errBcDivZero) {
			return v, in.rt("divide by zero") // GNU's wording for 0^-1
		}
		if err != nil {
			return v, in.rt("%s", err)
		}
		return v, nil
	case "<":
		return bcBool(bcCmp(l, r) < 0), nil
	case ">":
		return bcBool(bcCmp(l, r) > 0), nil
	case "<=":
		return bcBool(bcCmp(l, r) <= 0), nil
	case ">=":
		return bcBool(bcCmp(l, r) >= 0), nil
	case "==":
		return bcBool(bcCmp(l, r) == 0), nil
	case "!=":
		return bcBool(bcCmp(l, r) != 0), nil
	}
	return bcNum{}, in.rt("bad operator %s", op)
}

// callErr is a run time error of call instruction c at arg (see
// bcInterp.curArg), followed by second at its end if not "".
func (in *bcInterp) callErr(c *bcCall, arg int, msg, second string) error {
	in.cur, in.curArg = c, arg
	e := in.rt("%s", msg).(*bcRuntimeError)
	e.second = second
	return e
}

// evalArgs evaluates c's value arguments for their errors: GNU bc runs
// their code before the call instruction finds what is wrong with it
// (g(1/0) is a division by zero, not an undefined g).
func (in *bcInterp) evalArgs(c *bcCall) error {
	for _, a := range c.args {
		if _, ok := a.(*bcArrayArg); ok {
			continue
		}
		if _, err := in.eval(a); err != nil {
			return err
		}
	}
	return nil
}

func (in *bcInterp) call(c *bcCall) (bcNum, error) {
	f, ok := in.funcs[c.name]
	if !ok {
		if in.mathlib {
			if v, handled, err := in.mathCall(c); handled {
				return v, err
			}
		}
		if err := in.evalArgs(c); err != nil {
			return bcNum{}, err
		}
		return bcNum{}, in.callErr(c, 0, "Function "+c.name+" not defined.", "")
	}
	if len(c.args) != len(f.params) {
		if err := in.evalArgs(c); err != nil {
			return bcNum{}, err
		}
		return bcNum{}, in.callErr(c, -1, "Parameter number mismatch", "")
	}
	if in.calls >= bcMaxCalls {
		return bcNum{}, in.callErr(c, -1, "Function call nesting too deep", "")
	}
	in.calls++
	defer func() { in.calls-- }()
	// Arguments are evaluated in the caller's scope, then bound.
	type saved struct {
		name  string
		arr   bool
		v     bcNum
		had   bool
		array map[int64]bcNum
	}
	vals := make([]any, len(c.args))
	for i, a := range c.args {
		isArr := strings.HasSuffix(f.params[i], "[]")
		if aa, ok := a.(*bcArrayArg); ok {
			if !isArr {
				return bcNum{}, in.callErr(c, i+1, "Parameter type mismatch, parameter (null).", "Parameter number mismatch")
			}
			cp := map[int64]bcNum{}
			for k, v := range in.arrays[aa.name] {
				cp[k] = v
			}
			vals[i] = cp
			continue
		}
		if isArr {
			return bcNum{}, in.callErr(c, i+1, "Parameter type mismatch parameter "+strings.TrimSuffix(f.params[i], "[]")+".", "Parameter number mismatch")
		}
		v, err := in.eval(a)
		if err != nil {
			return v, err
		}
		vals[i] = v
	}
	var stack []saved
	bind := func(name string, val any) {
		if strings.HasSuffix(name, "[]") {
			n := strings.TrimSuffix(name, "[]")
			stack = append(stack, saved{name: n, arr: true, array: in.arrays[n]})
			if val == nil {
				val = map[int64]bcNum{}
			}
			in.arrays[n] = val.(map[int64]bcNum)
			return
		}
		old, had := in.vars[name]
		stack = append(stack, saved{name: name, v: old, had: had})
		if val == nil {
			val = bcInt(0)
		}
		in.vars[name] = val.(bcNum)
	}
	for i, p := range f.params {
		bind(p, vals[i])
	}
	for _, a := range f.autos {
		bind(a, nil)
	}
	defer func() {
		for i := len(stack) - 1; i >= 0; i-- {
			s := stack[i]
			switch {
			case s.arr && s.array == nil:
				delete(in.arrays, s.name)
			case s.arr:
				in.arrays[s.name] = s.array
			case s.had:
				in.vars[s.name] = s.v
			default:
				delete(in.vars, s.name)
			}
		}
	}()
	oldName := in.fname
	in.fname = c.name
	defer func() { in.fname = oldName }()
	for _, s := range f.body {
		if err := in.exec(s); err != nil {
			var rv bcReturnVal
			if errors.As(err, &rv) {
				return rv.v, nil
			}
			return bcNum{}, err
		}
	}
	return bcInt(0), nil
}

func (in *bcInterp) exec(s bcStmt) error {
	switch s := s.(type) {
	case *bcExprStmt:
		v, err := in.eval(s.x)
		if err != nil {
			return err
		}
		if a, ok := s.x.(*bcAssign); ok && !a.paren {
			return nil
		}
		if c, ok := s.x.(*bcCall); ok && in.funcs[c.name] != nil && in.funcs[c.name].void {
			return nil // a void function's call prints nothing
		}
		in.printNum(v)
		in.write("\n", false)
		in.last = v
	case *bcStrStmt:
		in.write(s.s, false)
	case *bcPrint:
		for _, it := range s.items {
			if str, ok := it.(*bcStrStmt); ok {
				s, _ := bcEscapes.Decode(str.s)
				in.write(s, false)
				continue
			}
			v, err := in.eval(it)
			if err != nil {
				return err
			}
			in.printNum(v)
			in.last = v
		}
	case *bcBlock:
		for _, st := range s.list {
			if err := in.exec(st); err != nil {
				return err
			}
		}
	case *bcIf:
		c, err := in.eval(s.cond)
		if err != nil {
			return err
		}
		if !c.isZero() {
			if s.then != nil {
				return in.exec(s.then)
			}
		} else if s.els != nil {
			return in.exec(s.els)
		}
	case *bcWhile:
		return in.execWhile(s)
	case *bcFor:
		return in.execFor(s)
	case *bcBreak:
		return errBcBreak
	case *bcContinue:
		return errBcContinue
	case *bcHalt:
		return errBcHalt
	case *bcReturn:
		v := bcInt(0)
		if s.x != nil {
			var err error
			if v, err = in.eval(s.x); err != nil {
				return err
			}
		}
		return bcReturnVal{v}
	case *bcLimits:
		in.write("BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\nBC_SCALE_MAX    = 2147483647\nBC_STRING_MAX   = 2147483647\nMAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n", false)
	}
	return nil
}

func (in *bcInterp) execWhile(s *bcWhile) error {
	for {
		c, err := in.eval(s.cond)
		if err != nil {
			return err
		}
		if c.isZero() {
			return nil
		}
		if done, err := in.loopBody(s.body); done {
			return err
		}
	}
}

func (in *bcInterp) execFor(s *bcFor) error {
	if s.init != nil {
		if _, err := in.eval(s.init); err != nil {
			return err
		}
	}
	for {
		if s.cond != nil {
			c, err := in.eval(s.cond)
			if err != nil {
				return err
			}
			if c.isZero() {
				return nil
			}
		} else if in.werr != nil || in.env.Ctx.Err() != nil {
			return gnu.ErrCancelled
		}
		if done, err := in.loopBody(s.body); done {
			return err
		}
		if s.post != nil {
			if _, err := in.eval(s.post); err != nil {
				return err
			}
		}
	}
}

// loopBody runs the body of a loop; it reports whether the loop ends
// there (break, or an error to return).
func (in *bcInterp) loopBody(body bcStmt) (bool, error) {
	if body == nil {
		return false, nil
	}
	if err := in.exec(body); err != nil {
		if err == errBcBreak {
			return true, nil
		}
		if err != errBcContinue {
			return true, err
		}
	}
	return false, nil
}

// bcEscapes are the backslash escapes of a print string (\q is '"').
var bcEscapes = gnu.Escapes{Letters: `abfnrtq\`}
