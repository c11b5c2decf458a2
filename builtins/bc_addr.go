package builtins

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// GNU bc names the byte code address of a run time error: "Runtime error
// (func=(main), adr=3): Divide by zero" for 1/0. bc 1.07 compiles each
// input line (or function body) to byte code from address 0 and reports
// the address just past the instruction that failed. bcAddr lays a line's
// statements out as bc.y generates them and load.c stores them: the
// constants 0 and 1 take one byte, another number K, its digits and ':';
// a variable, array or special load or store an opcode and an index byte;
// a jump (J, Z, B) an opcode and two bytes; a label (N) none; an operator
// one byte; a builtin call c and a letter; a function call C, its index,
// a byte per argument and ':'.

// runtimeError prints re as GNU bc does, with its address in list (the
// line's statements or re's function).
func (in *bcInterp) runtimeError(list []bcStmt, re *bcRuntimeError) {
	adr, ok := bcAddr(list, re.node, re.arg)
	if !ok {
		fmt.Fprintf(in.env.Stderr, "Runtime error (func=%s): %s\n", re.fn, re.msg)
		return
	}
	fmt.Fprintf(in.env.Stderr, "Runtime error (func=%s, adr=%d): %s\n", re.fn, adr, re.msg)
	if re.second != "" {
		end, _ := bcAddr(list, re.node, -1)
		fmt.Fprintf(in.env.Stderr, "Runtime error (func=%s, adr=%d): %s\n", re.fn, end, re.second)
	}
}

// bcAddrWalk finds the address after target's instruction.
type bcAddrWalk struct {
	pc     int
	target any
	arg    int // in a call: see bcInterp.curArg
	found  bool
	adr    int
}

// bcAddr returns the address that GNU bc reports for an error at target
// (the node running when it happened; arg as bcInterp.curArg) in the
// statements list.
func bcAddr(list []bcStmt, target any, arg int) (int, bool) {
	w := &bcAddrWalk{target: target, arg: arg}
	for _, s := range list {
		w.stmt(s)
		if w.found {
			return w.adr, true
		}
	}
	return 0, false
}

// at notes the address after the instruction of x, if x is the target.
func (w *bcAddrWalk) at(x any) {
	if x == w.target && !w.found {
		w.found, w.adr = true, w.pc
	}
}

func (w *bcAddrWalk) stmt(s bcStmt) {
	if w.found {
		return
	}
	switch s := s.(type) {
	case *bcExprStmt:
		w.expr(s.x)
		w.pc++ // W (print) or p (pop)
	case *bcStrStmt:
		w.pc += 2 + len(s.s) // w, the text, its end
	case *bcPrint:
		for _, it := range s.items {
			if str, ok := it.(*bcStrStmt); ok {
				w.pc += 2 + len(str.s) // O, the text, its end
				continue
			}
			w.expr(it)
			w.pc++ // P
		}
	case *bcBlock:
		for _, st := range s.list {
			w.stmt(st)
		}
	case *bcIf:
		w.expr(s.cond)
		w.pc += 3 // Z
		if s.then != nil {
			w.stmt(s.then)
		}
		if s.els != nil {
			w.pc += 3 // J
			w.stmt(s.els)
		}
	case *bcWhile:
		w.expr(s.cond)
		w.pc += 3 // Z
		w.stmt(s.body)
		w.pc += 3 // J
	case *bcFor:
		if s.init != nil {
			w.expr(s.init)
			w.pc++ // p
		}
		if s.cond != nil {
			w.expr(s.cond)
		} else {
			w.pc++ // 1
		}
		w.pc += 6 // B, J
		if s.post != nil {
			w.expr(s.post)
			w.pc++ // p
		}
		w.pc += 3 // J
		w.stmt(s.body)
		w.pc += 3 // J
	case *bcBreak, *bcContinue:
		w.pc += 3 // J
	case *bcHalt:
		w.pc++ // h
	case *bcReturn:
		if s.x != nil {
			w.expr(s.x)
		} else {
			w.pc++ // 0
		}
		w.pc++ // R
	}
}

func (w *bcAddrWalk) expr(x bcExpr) {
	if w.found {
		return
	}
	switch x := x.(type) {
	case *bcNumLit:
		// bc's scanner drops leading zeros: 0.5 is stored as .5.
		t := strings.TrimLeft(x.text, "0")
		if t == "" {
			t = "0"
		}
		if t == "0" || t == "1" {
			w.pc++
		} else {
			w.pc += 2 + utf8.RuneCountInString(t)
		}
	case *bcVar:
		if x.index != nil {
			w.expr(x.index)
		}
		w.pc += 2
		w.at(x)
	case *bcSpecial:
		w.pc += 2
		w.at(x)
	case *bcUnary:
		w.expr(x.x)
		if x.op != "()" {
			w.pc++ // n or !
		}
		w.at(x)
	case *bcBinary:
		w.expr(x.l)
		switch x.op {
		case "&&":
			w.pc += 5 // D Z p
			w.expr(x.r)
			w.pc += 6 // D Z p 1
		case "||":
			w.pc += 3 // B
			w.expr(x.r)
			w.pc += 8 // B 0 J 1
		default:
			w.expr(x.r)
			w.pc++
		}
		w.at(x)
	case *bcAssign:
		arr := false
		if v, ok := x.lhs.(*bcVar); ok && v.index != nil {
			arr = true
			w.expr(v.index)
		}
		if x.op != "=" {
			w.pc += 2 // l or L
			if arr {
				w.pc++ // D
			}
		}
		w.expr(x.rhs)
		if x.op != "=" {
			w.pc++
			w.at(x)
		}
		w.pc += 2 // s or S
		w.at(x)
	case *bcIncDec:
		if v, ok := x.x.(*bcVar); ok && v.index != nil {
			w.expr(v.index)
			w.pc += 5 // D A L, or D L x A with one more
			if !x.prefix {
				w.pc++
			}
		} else {
			w.pc += 4 // A l
		}
		w.at(x)
	case *bcBuiltinCall:
		w.expr(x.x)
		w.pc += 2
		w.at(x)
	case *bcCall:
		for _, a := range x.args {
			if _, ok := a.(*bcArrayArg); ok {
				w.pc += 3 // K, the array's index, ':'
				continue
			}
			w.expr(a)
		}
		w.pc += 2 // C and the function's index: "not defined" is found here
		if x == w.target && !w.found {
			w.found, w.adr = true, w.pc
			switch {
			case w.arg > 0:
				w.adr += w.arg // its parameter's byte
			case w.arg < 0:
				w.adr += 1 + len(x.args) // its end
			}
		}
		w.pc += 1 + len(x.args)
	}
}
