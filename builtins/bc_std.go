package builtins

// GNU bc's -s (--standard) and -w (--warn): a construct POSIX bc does not
// have is an error (the line, or the definition, it is in is not run) or
// a warning, said on standard error as "(standard_in) N: Error: MSG" or
// "(standard_in) N: (Warning) MSG". N is the line GNU's yacc parser is on
// when it reduces the construct: often the line of the token after it,
// the next line when that token is a newline (its scanner counted it).

// nonStd reports a construct POSIX bc does not have, at line.
func (p *bcParser) nonStd(line int, msg string) {
	if p.std == 0 || p.warn == nil {
		return
	}
	p.warn(line, msg)
	if p.std == 's' {
		p.hadError = true
	}
}

// lookLine is the line GNU reports a construct on that ends here: the
// line of the token after it (a newline's is the line it starts).
func (p *bcParser) lookLine() int { return p.peek().line }

// nonStdName reports a name of more than one letter, which GNU's lookup
// does as the name's rule is reduced.
func (p *bcParser) nonStdName(name string) {
	if p.std != 0 && len(name) > 1 {
		p.nonStd(p.lookLine(), "multiple letter name - "+name)
	}
}

// bcHasComparison reports whether x has a comparison that no parentheses
// hold (GNU's EX_COMP): POSIX has them in conditions only.
func bcHasComparison(x bcExpr) bool {
	switch x := x.(type) {
	case *bcBinary:
		switch x.op {
		case "<", ">", "<=", ">=", "==", "!=":
			return true
		}
		return bcHasComparison(x.l) || bcHasComparison(x.r)
	case *bcUnary:
		return x.op != "()" && bcHasComparison(x.x)
	case *bcAssign:
		return !x.paren && bcHasComparison(x.rhs)
	}
	return false
}

// bcParenthesized reports whether x is written in parentheses.
func bcParenthesized(x bcExpr) bool {
	switch x := x.(type) {
	case *bcUnary:
		return x.op == "()"
	case *bcAssign:
		return x.paren
	}
	return false
}

// dropIfError drops the statements of a line that had an error under -s,
// as GNU's run_code does.
func (p *bcParser) dropIfError(batch *[]bcStmt) {
	if p.hadError {
		*batch = (*batch)[:0]
		p.hadError = false
	}
}

// defineStd parses a definition, kept only when -s found no error in it.
func (p *bcParser) defineStd(funcs map[string]*bcFunc) {
	if p.std != 's' {
		p.define(funcs)
		return
	}
	p.hadError = false
	one := map[string]*bcFunc{}
	p.define(one)
	if !p.hadError {
		for name, f := range one {
			funcs[name] = f
		}
	}
	p.hadError = false
}
