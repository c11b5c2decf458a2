package gojq

// constValue is the value of q where jq's parser knows it to be a
// constant: literals, arrays and objects of constants, and the binary
// operators jq folds while parsing (+ - * / % and the comparisons) where
// they succeed. A negation is not folded (jq neither).
func constValue(q *Query) (any, bool) {
	if q == nil || q.Meta != nil || len(q.Imports) > 0 || len(q.FuncDefs) > 0 || len(q.Patterns) > 0 {
		return nil, false
	}
	if q.Term != nil {
		return q.Term.constValue()
	}
	var f func(_, l, r any) any
	switch q.Op {
	case OpAdd:
		f = funcOpAdd
	case OpSub:
		f = funcOpSub
	case OpMul:
		f = funcOpMul
	case OpDiv:
		f = funcOpDiv
	case OpMod:
		f = funcOpMod
	case OpEq:
		f = funcOpEq
	case OpNe:
		f = funcOpNe
	case OpLt:
		f = funcOpLt
	case OpGt:
		f = funcOpGt
	case OpLe:
		f = funcOpLe
	case OpGe:
		f = funcOpGe
	default:
		return nil, false
	}
	l, ok := constValue(q.Left)
	if !ok {
		return nil, false
	}
	r, ok := constValue(q.Right)
	if !ok {
		return nil, false
	}
	if _, ok := r.(string); ok && q.Op == OpDiv {
		// llmsh: a string divided by a string is split at run time,
		// where it looks at the run's context (bulk.go); here nothing
		// would stop "x" * 100000000 / "".
		return nil, false
	}
	v := f(nil, l, r)
	if _, ok := v.(error); ok {
		return nil, false
	}
	return v, true
}

func (e *Term) constValue() (any, bool) {
	if len(e.SuffixList) > 0 {
		return nil, false
	}
	switch e.Type {
	case TermTypeNull:
		return nil, true
	case TermTypeTrue:
		return true, true
	case TermTypeFalse:
		return false, true
	case TermTypeNumber:
		return toNumber(e.Number), true
	case TermTypeString:
		if e.Str.Queries == nil {
			return e.Str.Str, true
		}
	case TermTypeQuery:
		return constValue(e.Query)
	case TermTypeArray:
		if e.Array.Query == nil {
			return []any{}, true
		}
		return constElems(e.Array.Query, []any{})
	case TermTypeObject:
		m := NewOrderedMap(len(e.Object.KeyVals))
		for _, kv := range e.Object.KeyVals {
			var key any
			switch {
			case kv.Key != "" && kv.Key[0] != '$':
				key = kv.Key
			case kv.KeyString != nil && kv.KeyString.Queries == nil:
				key = kv.KeyString.Str
			case kv.KeyQuery != nil:
				v, ok := constValue(kv.KeyQuery)
				if !ok {
					return nil, false
				}
				key = v
			}
			k, ok := key.(string)
			if !ok || kv.Val == nil {
				return nil, false
			}
			v, ok := constValue(kv.Val)
			if !ok {
				return nil, false
			}
			m.Set(k, v)
		}
		return m, true
	}
	return nil, false
}

// constElems appends the values of the comma-separated constants of q.
func constElems(q *Query, vs []any) ([]any, bool) {
	if q.Op == OpComma && q.Term == nil {
		vs, ok := constElems(q.Left, vs)
		if !ok {
			return nil, false
		}
		return constElems(q.Right, vs)
	}
	v, ok := constValue(q)
	if !ok {
		return nil, false
	}
	return append(vs, v), true
}

// formatKey is the key of jq's {@format "string": value}: the string
// formatted as the format gives.
func formatKey(format string, s *String) *Query {
	return &Query{Term: &Term{Type: TermTypeFormat, Format: format, Str: s}}
}
