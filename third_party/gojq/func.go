package gojq

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"math/big"
	"net/url"
	"reflect"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/itchyny/timefmt-go"
	"github.com/llmsh/llmsh/internal/stopre"
)

//go:generate go run -modfile=go.dev.mod _tools/gen_builtin.go -i builtin.jq -o builtin.go
var builtinFuncDefs map[string][]*FuncDef

const (
	argcount0 = 1 << iota
	argcount1
	argcount2
	argcount3
)

type function struct {
	argcount int
	iter     bool
	callback func(any, []any) any
}

func (fn function) accept(cnt int) bool {
	return fn.argcount&(1<<cnt) != 0
}

var internalFuncs map[string]function

// loadFuncTables fills builtinFuncDefs and internalFuncs, which upstream
// builds in package init: on first use (Compile), so that a program that
// links gojq but runs no jq query does not pay for them at start-up.
// (A sync.Once, not a sync.OnceFunc: that is code in the package's init.)
func loadFuncTables() {
	funcTablesOnce.Do(func() {
		initBuiltinFuncDefs()
		initInternalFuncs()
	})
}

var funcTablesOnce sync.Once

func initInternalFuncs() {
	internalFuncs = map[string]function{
		"empty":          argFunc0(nil),
		"path":           argFunc1(nil),
		"env":            argFunc0(nil),
		"builtins":       argFunc0(nil),
		"input":          argFunc0(nil),
		"modulemeta":     argFunc0(nil),
		"debug":          argFunc1(nil),
		"length":         argFunc0(funcLength),
		"utf8bytelength": argFunc0(funcUtf8ByteLength),
		"keys":           argFunc0(funcKeys),
		"keys_unsorted":  argFunc0(funcKeysUnsorted),
		"has":            argFunc1(funcHas),
		"add":            argFunc0(funcAdd),
		"toboolean":      argFunc0(funcToBoolean),
		"tonumber":       argFunc0(funcToNumber),
		"tostring":       argFunc0(funcToString),
		"type":           argFunc0(funcType),
		"reverse":        argFunc0(funcReverse),
		"contains":       argFunc1(funcContains),
		"inside":         argFunc1(funcInside),
		"indices":        argFunc1(funcIndices),
		"index":          argFunc1(funcIndex),
		"rindex":         argFunc1(funcRindex),
		"startswith":     argFunc1(funcStartsWith),
		"endswith":       argFunc1(funcEndsWith),
		"ltrimstr":       argFunc1(funcLtrimstr),
		"rtrimstr":       argFunc1(funcRtrimstr),
		"trimstr":        argFunc1(funcTrimstr),
		"ltrim":          argFunc0(funcLtrim),
		"rtrim":          argFunc0(funcRtrim),
		"trim":           argFunc0(funcTrim),
		"explode":        argFunc0(funcExplode),
		"implode":        argFunc0(funcImplode),
		"split":          argFunc1(funcSplit),
		"join":           argFunc1(funcJoin),
		"ascii_downcase": argFunc0(funcASCIIDowncase),
		"ascii_upcase":   argFunc0(funcASCIIUpcase),
		"tojson":         argFunc0(funcToJSON),
		"fromjson":       argFunc0(funcFromJSON),
		"format":         argFunc1(funcFormat),
		"_tohtml":        argFunc0(funcToHTML),
		"_touri":         argFunc0(funcToURI),
		"_tourid":        argFunc0(funcToURId),
		"_tocsv":         argFunc0(funcToCSV),
		"_totsv":         argFunc0(funcToTSV),
		"_tosh":          argFunc0(funcToSh),
		"_tobase64":      argFunc0(funcToBase64),
		"_tobase64d":     argFunc0(funcToBase64d),
		"_index":         argFunc2(funcIndex2),
		"_slice":         argFunc3(funcSlice),
		"_plus":          argFunc0(funcOpPlus),
		"_negate":        argFunc0(funcOpNegate),
		"_add":           argFunc2(funcOpAdd),
		"_subtract":      argFunc2(funcOpSub),
		"_multiply":      argFunc2(funcOpMul),
		"_divide":        argFunc2(funcOpDiv),
		"_modulo":        argFunc2(funcOpMod),
		"_alternative":   argFunc2(funcOpAlt),
		"_equal":         argFunc2(funcOpEq),
		"_notequal":      argFunc2(funcOpNe),
		"_greater":       argFunc2(funcOpGt),
		"_less":          argFunc2(funcOpLt),
		"_greatereq":     argFunc2(funcOpGe),
		"_lesseq":        argFunc2(funcOpLe),
		"flatten":        {argcount0 | argcount1, false, funcFlatten},
		"_range":         {argcount3, true, funcRange},
		"min":            argFunc0(funcMin),
		"_min_by":        argFunc1(funcMinBy),
		"max":            argFunc0(funcMax),
		"_max_by":        argFunc1(funcMaxBy),
		"sort":           argFunc0(funcSort),
		"_sort_by":       argFunc1(funcSortBy),
		"_group_by":      argFunc1(funcGroupBy),
		"unique":         argFunc0(funcUnique),
		"_unique_by":     argFunc1(funcUniqueBy),
		"sin":            mathFunc("sin", math.Sin),
		"cos":            mathFunc("cos", math.Cos),
		"tan":            mathFunc("tan", math.Tan),
		"asin":           mathFunc("asin", math.Asin),
		"acos":           mathFunc("acos", math.Acos),
		"atan":           mathFunc("atan", math.Atan),
		"sinh":           mathFunc("sinh", math.Sinh),
		"cosh":           mathFunc("cosh", math.Cosh),
		"tanh":           mathFunc("tanh", math.Tanh),
		"asinh":          mathFunc("asinh", math.Asinh),
		"acosh":          mathFunc("acosh", math.Acosh),
		"atanh":          mathFunc("atanh", math.Atanh),
		"floor":          mathFunc("floor", math.Floor),
		"round":          mathFunc("round", math.Round),
		"nearbyint":      mathFunc("nearbyint", math.RoundToEven),
		"rint":           mathFunc("rint", math.RoundToEven),
		"ceil":           mathFunc("ceil", math.Ceil),
		"trunc":          mathFunc("trunc", math.Trunc),
		"significand":    mathFunc("significand", funcSignificand),
		"fabs":           mathFunc("fabs", math.Abs),
		"sqrt":           mathFunc("sqrt", math.Sqrt),
		"cbrt":           mathFunc("cbrt", math.Cbrt),
		"exp":            mathFunc("exp", math.Exp),
		"exp10":          mathFunc("exp10", funcExp10),
		"pow10":          argFunc0(funcPow10), // llmsh: jq 1.7.1 lists it
		"exp2":           mathFunc("exp2", math.Exp2),
		"expm1":          mathFunc("expm1", math.Expm1),
		"frexp":          argFunc0(funcFrexp),
		"modf":           argFunc0(funcModf),
		"lgamma_r":       argFunc0(funcLgammaR), // llmsh: jq 1.7.1 has it
		"log":            mathFunc("log", math.Log),
		"log10":          mathFunc("log10", math.Log10),
		"log1p":          mathFunc("log1p", math.Log1p),
		"log2":           mathFunc("log2", math.Log2),
		"logb":           mathFunc("logb", math.Logb),
		"gamma":          mathFunc("gamma", funcLgamma), // C's gamma is lgamma
		"tgamma":         mathFunc("tgamma", math.Gamma),
		"lgamma":         mathFunc("lgamma", funcLgamma),
		"erf":            mathFunc("erf", math.Erf),
		"erfc":           mathFunc("erfc", math.Erfc),
		"j0":             mathFunc("j0", math.J0),
		"j1":             mathFunc("j1", math.J1),
		"y0":             mathFunc("y0", math.Y0),
		"y1":             mathFunc("y1", math.Y1),
		"atan2":          mathFunc2("atan2", math.Atan2),
		"copysign":       mathFunc2("copysign", math.Copysign),
		"drem":           mathFunc2("drem", funcDrem),
		"fdim":           mathFunc2("fdim", math.Dim),
		"fmax":           mathFunc2("fmax", funcFmax),
		"fmin":           mathFunc2("fmin", funcFmin),
		"fmod":           mathFunc2("fmod", math.Mod),
		"hypot":          mathFunc2("hypot", math.Hypot),
		"jn":             mathFunc2("jn", funcJn),
		"nextafter":      mathFunc2("nextafter", math.Nextafter),
		"nexttoward":     mathFunc2("nexttoward", math.Nextafter),
		"remainder":      mathFunc2("remainder", math.Remainder),
		"ldexp":          mathFunc2("ldexp", funcLdexp),
		"scalb":          mathFunc2("scalb", funcLdexp),
		"scalbln":        mathFunc2("scalbln", funcLdexp),
		"yn":             mathFunc2("yn", funcYn),
		"pow":            mathFunc2("pow", math.Pow),
		"fma":            mathFunc3("fma", math.FMA),
		"infinite":       argFunc0(funcInfinite),
		"isfinite":       argFunc0(funcIsfinite),
		"isinfinite":     argFunc0(funcIsinfinite),
		"nan":            argFunc0(funcNan),
		"isnan":          argFunc0(funcIsnan),
		"isnormal":       argFunc0(funcIsnormal),
		"setpath":        argFunc2(funcSetpath),
		"delpaths":       argFunc1(funcDelpaths),
		"getpath":        argFunc1(funcGetpath),
		"transpose":      argFunc0(funcTranspose),
		"bsearch":        argFunc1(funcBsearch),
		"gmtime":         argFunc0(funcGmtime),
		"localtime":      argFunc0(funcLocaltime),
		"mktime":         argFunc0(funcMktime),
		"strftime":       argFunc1(funcStrftime),
		"strflocaltime":  argFunc1(funcStrflocaltime),
		"strptime":       argFunc1(funcStrptime),
		"now":            argFunc0(funcNow),
		"_match":         argFunc3(nil),
		"_captures":      argFunc0(funcCaptures),
		"error":          {argcount0 | argcount1, false, funcError},
		"halt":           argFunc0(funcHalt),
		"halt_error":     {argcount0 | argcount1, false, funcHaltError},
	}
}

func argFunc0(f func(any) any) function {
	return function{
		argcount0, false, func(v any, _ []any) any {
			return f(v)
		},
	}
}

func argFunc1(f func(_, _ any) any) function {
	return function{
		argcount1, false, func(v any, args []any) any {
			return f(v, args[0])
		},
	}
}

func argFunc2(f func(_, _, _ any) any) function {
	return function{
		argcount2, false, func(v any, args []any) any {
			return f(v, args[0], args[1])
		},
	}
}

func argFunc3(f func(_, _, _, _ any) any) function {
	return function{
		argcount3, false, func(v any, args []any) any {
			return f(v, args[0], args[1], args[2])
		},
	}
}

// funcPow10 is jq 1.7.1's pow10 (Debian's, built on a glibc without it):
// listed by builtins, an error on any input (llmsh).
func funcPow10(any) any {
	return errors.New("Error: pow10/0 not found at build time")
}

func mathFunc(name string, f func(float64) float64) function {
	return argFunc0(func(v any) any {
		x, ok := ToFloat64(v)
		if !ok {
			return &numberRequiredError{v}
		}
		return f(x)
	})
}

func mathFunc2(name string, f func(_, _ float64) float64) function {
	return argFunc2(func(_, x, y any) any {
		l, ok := ToFloat64(x)
		if !ok {
			return &numberRequiredError{x}
		}
		r, ok := ToFloat64(y)
		if !ok {
			return &numberRequiredError{y}
		}
		return f(l, r)
	})
}

func mathFunc3(name string, f func(_, _, _ float64) float64) function {
	return argFunc3(func(_, a, b, c any) any {
		x, ok := ToFloat64(a)
		if !ok {
			return &numberRequiredError{a}
		}
		y, ok := ToFloat64(b)
		if !ok {
			return &numberRequiredError{b}
		}
		z, ok := ToFloat64(c)
		if !ok {
			return &numberRequiredError{c}
		}
		return f(x, y, z)
	})
}

func funcLength(v any) any {
	switch v := v.(type) {
	case nil:
		return 0
	case int:
		if v >= 0 {
			return v
		}
		return negate(v)
	case float64:
		return math.Abs(v)
	case *big.Int:
		if v.Sign() >= 0 {
			return v
		}
		return new(big.Int).Abs(v)
	case json.Number:
		if !strings.HasPrefix(v.String(), "-") {
			return v
		}
		return v[1:]
	case string:
		return len([]rune(v))
	case []any:
		return len(v)
	case *OrderedMap:
		return v.Len()
	default:
		return &jqTypeError{v, "has no length"}
	}
}

func funcUtf8ByteLength(v any) any {
	s, ok := v.(string)
	if !ok {
		return &jqTypeError{v, "only strings have UTF-8 byte length"}
	}
	return len(s)
}

func funcKeys(v any) any {
	switch v := v.(type) {
	case []any:
		w := make([]any, len(v))
		for i := range v {
			w[i] = i
		}
		return w
	case *OrderedMap:
		w := make([]any, v.Len())
		for i, k := range v.SortedKeys() {
			w[i] = k
		}
		return w
	default:
		return &jqTypeError{v, "has no keys"}
	}
}

// funcKeysUnsorted is jq's keys_unsorted: the keys in their order.
func funcKeysUnsorted(v any) any {
	switch v := v.(type) {
	case []any:
		return funcKeys(v)
	case *OrderedMap:
		w := make([]any, v.Len())
		for i, kv := range v.kvs {
			w[i] = kv.key
		}
		return w
	default:
		return &jqTypeError{v, "has no keys"}
	}
}

// values returns the elements of an array or the values of an object in
// key order.
func values(v any) ([]any, bool) {
	switch v := v.(type) {
	case []any:
		return v, true
	case *OrderedMap:
		vs := make([]any, v.Len())
		for i, kv := range v.kvs {
			vs[i] = kv.val
		}
		return vs, true
	default:
		return nil, false
	}
}

func funcHas(v, x any) any {
	switch v := v.(type) {
	case []any:
		if x, ok := ToInt(x); ok {
			return 0 <= x && x < len(v)
		}
	case *OrderedMap:
		if x, ok := x.(string); ok {
			return v.Has(x)
		}
	case nil:
		return false
	}
	return errors.New("Cannot check whether " + TypeOf(v) + " has a " + TypeOf(x) + " key")
}

func funcAdd(v any) any {
	vs, ok := values(v)
	if !ok {
		return &iteratorError{v} // llmsh: jq's reduce .[]
	}
	return add(slices.Values(vs))
}

func add(xs iter.Seq[any]) any {
	var v any
	for x := range xs {
		switch x := x.(type) {
		case nil:
			continue
		case string:
			switch w := v.(type) {
			case nil:
				var sb strings.Builder
				sb.WriteString(x)
				v = &sb
				continue
			case *strings.Builder:
				if w.Len()+len(x) > MaxString {
					return &stringTooLongError{}
				}
				w.WriteString(x)
				continue
			}
		case []any:
			switch w := v.(type) {
			case nil:
				v = append([]any{}, x...)
				continue
			case []any:
				if arrayTooLong(len(w) + len(x)) {
					return &arrayTooLongError{}
				}
				v = append(w, x...)
				continue
			}
		case *OrderedMap:
			switch w := v.(type) {
			case nil:
				v = x.Copy()
				continue
			case *OrderedMap:
				for _, kv := range x.kvs {
					w.Set(kv.key, kv.val)
				}
				continue
			}
		}
		if sb, ok := v.(*strings.Builder); ok {
			v = sb.String()
		}
		v = funcOpAdd(nil, v, x)
		if err, ok := v.(error); ok {
			return err
		}
	}
	if sb, ok := v.(*strings.Builder); ok {
		v = sb.String()
	}
	return v
}

func funcToBoolean(v any) any {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		switch v {
		case "true":
			return true
		case "false":
			return false
		default:
			return &func0WrapError{"toboolean", v, errors.New("invalid boolean")}
		}
	default:
		return &func0TypeError{"toboolean", v}
	}
}

func funcToNumber(v any) any {
	switch v := v.(type) {
	case int, float64, *big.Int, json.Number:
		return v
	case string:
		// jq 1.7 parses the string as JSON text
		w, err := parseJSON(v)
		if err != nil {
			return err
		}
		switch w.(type) {
		case int, float64, *big.Int, json.Number:
			return w
		}
		return &jqTypeError{v, "cannot be parsed as a number"}
	default:
		return &jqTypeError{v, "cannot be parsed as a number"}
	}
}

// toNumber converts a number literal of a program or of tonumber, keeping
// the literal as jq 1.7 does (see ParseNumberLiteral).
func toNumber(v string) any {
	if n, ok := ParseNumberLiteral(v); ok {
		return n
	}
	return parseNumber(json.Number(v))
}

func funcToString(v any) any {
	s, err := toString(v)
	if err != nil {
		return err
	}
	return s
}

// toString is v itself if a string, else its JSON text, which may not
// pass MaxString (llmsh).
func toString(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	if s, ok := jsonMarshalMax(v); ok {
		return s, nil
	}
	return "", &stringTooLongError{}
}

func funcType(v any) any {
	return TypeOf(v)
}

func funcReverse(v any) any {
	vs, ok := v.([]any)
	if !ok {
		// jq 1.7.1's reverse is [.[length - 1 - range(0; length)]]: of
		// a length of 0, []; else .[N] fails as on the value
		n := funcLength(v)
		if err, ok := n.(error); ok {
			return err
		}
		if f, _ := ToFloat64(n); f == 0 {
			return []any{}
		}
		return &indexError{v, 0}
	}
	ws := make([]any, len(vs))
	for i, v := range vs {
		ws[len(ws)-i-1] = v
	}
	return ws
}

func funcContains(v, x any) any {
	return contains(v, x, 0)
}

// contains is funcContains at depth levels into the values (llmsh).
func contains(v, x any, depth int) any {
	depth = deeper(depth)
	return binopTypeSwitch(v, x,
		func(l, r int) any { return l == r },
		func(l, r float64) any { return l == r },
		func(l, r *big.Int) any { return l.Cmp(r) == 0 },
		func(l, r string) any { return strings.Contains(l, r) },
		func(l, r []any) any {
		R:
			for _, r := range r {
				for _, l := range l {
					if contains(l, r, depth) == true {
						continue R
					}
				}
				return false
			}
			return true
		},
		func(l, r *OrderedMap) any {
			if l.Len() < r.Len() {
				return false
			}
			for _, kv := range r.kvs {
				if l, ok := l.Get(kv.key); !ok || contains(l, kv.val, depth) != true {
					return false
				}
			}
			return true
		},
		func(l, r any) any {
			if TypeOf(l) == TypeOf(r) && (TypeOf(l) != "boolean" || l == r) {
				return l == r // (jq's true and false are kinds of their own)
			}
			return &containsError{l, r}
		},
	)
}

func funcInside(v, x any) any {
	return funcContains(x, v)
}

func funcIndices(v, x any) any {
	return indexCtx(context.Background(), "indices", v, x) // llmsh: bulk.go
}

func funcIndex(v, x any) any {
	return indexCtx(context.Background(), "index", v, x)
}

func funcRindex(v, x any) any {
	return indexCtx(context.Background(), "rindex", v, x)
}

func indexFunc(name string, v, x any, f func(_, _ []any) any) any {
	switch v := v.(type) {
	case []any:
		switch x := x.(type) {
		case []any:
			return f(v, x)
		default:
			return f(v, []any{x})
		}
	case string:
		if x, ok := x.(string); ok {
			vs, _ := explodeString(context.Background(), v)
			xs, _ := explodeString(context.Background(), x)
			return f(vs, xs)
		}
	}
	// llmsh: jq 1.7.1's indices($i) is .[$i] for an input that is no
	// array (and not two strings), index($i) indices($i) | .[0], and
	// rindex($i) indices($i) | .[-1:][0]: {"a":1} | indices("a") is 1,
	// "ab" | indices(1) "Cannot index string with number"
	r := funcIndex2(nil, v, x)
	if _, ok := r.(error); ok || name == "indices" {
		return r
	}
	if name == "rindex" {
		if r = funcSlice(nil, r, nil, -1); r != nil {
			if _, ok := r.(error); ok {
				return r
			}
		}
	}
	return funcIndex2(nil, r, 0)
}

func funcStartsWith(v, x any) any {
	s, ok := v.(string)
	if !ok {
		return errors.New("startswith() requires string inputs") // llmsh: jq 1.7.1's words
	}
	t, ok := x.(string)
	if !ok {
		return errors.New("startswith() requires string inputs") // llmsh: jq 1.7.1's words
	}
	return strings.HasPrefix(s, t)
}

func funcEndsWith(v, x any) any {
	s, ok := v.(string)
	if !ok {
		return errors.New("endswith() requires string inputs") // llmsh: jq 1.7.1's words
	}
	t, ok := x.(string)
	if !ok {
		return errors.New("endswith() requires string inputs") // llmsh: jq 1.7.1's words
	}
	return strings.HasSuffix(s, t)
}

func funcLtrimstr(v, x any) any {
	// jq 1.7 returns the input as it is when either is not a string.
	s, ok := v.(string)
	if !ok {
		return v
	}
	t, ok := x.(string)
	if !ok {
		return v
	}
	return strings.TrimPrefix(s, t)
}

func funcRtrimstr(v, x any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	t, ok := x.(string)
	if !ok {
		return v
	}
	return strings.TrimSuffix(s, t)
}

func funcTrimstr(v, x any) any {
	s, ok := v.(string)
	if !ok {
		return &func1TypeError{"trimstr", v, x}
	}
	t, ok := x.(string)
	if !ok {
		return &func1TypeError{"trimstr", v, x}
	}
	return strings.TrimSuffix(strings.TrimPrefix(s, t), t)
}

func funcLtrim(v any) any {
	s, ok := v.(string)
	if !ok {
		return &func0TypeError{"ltrim", v}
	}
	return strings.TrimLeftFunc(s, unicode.IsSpace)
}

func funcRtrim(v any) any {
	s, ok := v.(string)
	if !ok {
		return &func0TypeError{"rtrim", v}
	}
	return strings.TrimRightFunc(s, unicode.IsSpace)
}

func funcTrim(v any) any {
	s, ok := v.(string)
	if !ok {
		return &func0TypeError{"trim", v}
	}
	return strings.TrimSpace(s)
}

func funcExplode(v any) any {
	return explodeCtx(context.Background(), v) // llmsh: bulk.go
}

func funcImplode(v any) any {
	return implodeCtx(context.Background(), v)
}

func funcSplit(v, x any) any {
	return splitCtx(context.Background(), v, x)
}

func funcJoin(v, x any) any {
	vs, ok := values(v)
	if !ok {
		return &iteratorError{v} // llmsh: jq's reduce .[]
	}
	if len(vs) == 0 {
		return ""
	}
	return add(func(yield func(any) bool) {
		for i, v := range vs {
			s := x
			if i == 0 {
				s = ""
			}
			if !yield(s) {
				return
			}
			switch w := v.(type) {
			case bool, int, float64, *big.Int, json.Number:
				v = jsonMarshal(w)
			}
			if !yield(v) {
				return
			}
		}
	})
}

func funcASCIIDowncase(v any) any {
	s, ok := v.(string)
	if !ok {
		return errors.New("explode input must be a string") // jq 1.7.1: explode | … | implode
	}
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, s)
}

func funcASCIIUpcase(v any) any {
	s, ok := v.(string)
	if !ok {
		return errors.New("explode input must be a string") // jq 1.7.1: explode | … | implode
	}
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' {
			return r - ('a' - 'A')
		}
		return r
	}, s)
}

func funcToJSON(v any) any {
	if s, ok := jsonMarshalMax(v); ok {
		return s
	}
	return &stringTooLongError{}
}

func funcFromJSON(v any) any {
	s, ok := v.(string)
	if !ok {
		return &jqTypeError{v, "only strings can be parsed"}
	}
	w, err := parseJSON(s)
	if err != nil {
		return err
	}
	return w
}

func funcFormat(v, x any) any {
	s, ok := x.(string)
	if !ok {
		return &jqTypeError{x, "is not a valid format"}
	}
	format := "@" + s
	f := formatToFunc(format)
	if f == nil {
		return &formatNotFoundError{format}
	}
	return internalFuncs[f.Name].callback(v, nil) // filled: this runs compiled code
}

var htmlEscaper lazy[*strings.Replacer] // made on first use, not in init

func newHTMLEscaper() *strings.Replacer {
	return strings.NewReplacer(
		`<`, "&lt;",
		`>`, "&gt;",
		`&`, "&amp;",
		`'`, "&apos;",
		`"`, "&quot;",
		"\x00", `\0`, // as jq 1.7.1, and as @csv, @tsv and @sh
	)
}

func funcToHTML(v any) any {
	s, err := toString(v)
	if err != nil {
		return err
	}
	return htmlEscaper.get(newHTMLEscaper).Replace(s)
}

func funcToURI(v any) any {
	s, err := toString(v)
	if err != nil {
		return err
	}
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

func funcToURId(v any) any {
	s, err := toString(v)
	if err != nil {
		return err
	}
	x, err := url.QueryUnescape(strings.ReplaceAll(s, "+", "%2B"))
	if err != nil {
		return &func0WrapError{"@urid", v, err}
	}
	return x
}

var csvEscaper lazy[*strings.Replacer] // made on first use, not in init

func newCSVEscaper() *strings.Replacer {
	return strings.NewReplacer(
		`"`, `""`,
		"\x00", `\0`,
	)
}

func funcToCSV(v any) any {
	return formatJoin("csv", v, ",", func(s string) string {
		return `"` + csvEscaper.get(newCSVEscaper).Replace(s) + `"`
	})
}

var tsvEscaper lazy[*strings.Replacer] // made on first use, not in init

func newTSVEscaper() *strings.Replacer {
	return strings.NewReplacer(
		"\t", `\t`,
		"\r", `\r`,
		"\n", `\n`,
		"\\", `\\`,
		"\x00", `\0`,
	)
}

func funcToTSV(v any) any {
	return formatJoin("tsv", v, "\t", tsvEscaper.get(newTSVEscaper).Replace)
}

var shEscaper lazy[*strings.Replacer] // made on first use, not in init

func newShEscaper() *strings.Replacer {
	return strings.NewReplacer(
		"'", `'\''`,
		"\x00", `\0`,
	)
}

func funcToSh(v any) any {
	if _, ok := v.([]any); !ok {
		v = []any{v}
	}
	return formatJoin("sh", v, " ", func(s string) string {
		return "'" + shEscaper.get(newShEscaper).Replace(s) + "'"
	})
}

func formatJoin(typ string, v any, sep string, escape func(string) string) any {
	vs, ok := v.([]any)
	if !ok {
		return &formatError{v, "cannot be " + typ + "-formatted, only array"}
	}
	ss := make([]string, len(vs))
	n := len(sep) * len(vs)
	for i, v := range vs {
		switch v := v.(type) {
		case []any, *OrderedMap:
			return &formatRowError{typ, v}
		case string:
			ss[i] = escape(v)
		default:
			if s := jsonMarshal(v); s != "null" || typ == "sh" {
				ss[i] = s
			}
		}
		if n += len(ss[i]); n > MaxString {
			return &stringTooLongError{}
		}
	}
	return strings.Join(ss, sep)
}

func funcToBase64(v any) any {
	s, err := toString(v)
	if err != nil {
		return err
	}
	return base64.StdEncoding.EncodeToString([]byte(s))
}

func funcToBase64d(v any) any {
	x, err := toString(v)
	if err != nil {
		return err
	}
	// as jq 1.7.1 decodes: up to the first '=', every character one of
	// base64's, the bits of a last group of two or three kept
	s := x
	if i := strings.IndexRune(x, base64.StdPadding); i >= 0 {
		x = x[:i]
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	y := make([]byte, 0, len(x)*3/4+2)
	var code uint32
	var n int
	for i := range len(x) {
		d := strings.IndexByte(alphabet, x[i])
		if d < 0 {
			return &formatError{s, "is not valid base64 data"}
		}
		if code, n = code<<6|uint32(d), n+1; n == 4 {
			y, code, n = append(y, byte(code>>16), byte(code>>8), byte(code)), 0, 0
		}
	}
	switch n {
	case 1:
		return &formatError{s, "trailing base64 byte found"}
	case 2:
		y = append(y, byte(code>>4))
	case 3:
		y = append(y, byte(code>>10), byte(code>>2))
	}
	return ValidUTF8(string(y))
}

func funcIndex2(_, v, x any) any {
	switch x := x.(type) {
	case string:
		switch v := v.(type) {
		case nil:
			return nil
		case *OrderedMap:
			w, _ := v.Get(x)
			return w
		default:
			return &indexError{v, x}
		}
	case int, float64, *big.Int, json.Number:
		i, _ := ToInt(x)
		switch v := v.(type) {
		case nil:
			return nil
		case []any:
			return index(v, i)
		default: // jq indexes no string by number
			return &indexError{v, x}
		}
	case []any:
		if v, ok := v.([]any); ok {
			return indexElems(context.Background(), "indices", v, x) // llmsh: bulk.go
		}
		return &indexError{v, x} // null too, as jq's jv_get
	case *OrderedMap:
		switch v.(type) {
		case nil:
			return nil
		case []any, string:
			start, ok := x.Get("start")
			end, ok2 := x.Get("end")
			if !ok || !ok2 {
				return errSliceIndices
			}
			return funcSlice(nil, v, end, start)
		default:
			return &indexError{v, x}
		}
	default: // null and booleans index nothing, as jq's jv_get
		return &indexError{v, x}
	}
}

// errSliceIndices is jq 1.7.1's error for a slice whose start or end is
// missing or no number (`.["a":1]`, `.[{"start":0}]`).
var errSliceIndices = errors.New("Array/string slice indices must be integers")

func index(vs []any, i int) any {
	i = clampIndex(i, -1, len(vs))
	if 0 <= i && i < len(vs) {
		return vs[i]
	}
	return nil
}

func funcSlice(_, v, e, s any) (r any) {
	switch v := v.(type) {
	case nil:
		return nil
	case []any:
		return slice(v, e, s)
	case string:
		return sliceString(v, e, s)
	default: // jq indexes with {"start","end"}
		return &indexError{v, NewOrderedMap(0)}
	}
}

func slice(vs []any, e, s any) any {
	var start, end int
	if s != nil {
		if i, ok := toIntFloor(s); ok {
			start = clampIndex(i, 0, len(vs))
		} else {
			return errSliceIndices
		}
	}
	if e != nil {
		if i, ok := toIntCeil(e); ok {
			end = clampIndex(i, start, len(vs))
		} else {
			return errSliceIndices
		}
	} else {
		end = len(vs)
	}
	return vs[start:end]
}

func sliceString(v string, e, s any) any {
	var start, end int
	l := len([]rune(v))
	if s != nil {
		if i, ok := toIntFloor(s); ok {
			start = clampIndex(i, 0, l)
		} else {
			return errSliceIndices
		}
	}
	if e != nil {
		if i, ok := toIntCeil(e); ok {
			end = clampIndex(i, start, l)
		} else {
			return errSliceIndices
		}
	} else {
		end = l
	}
	if start < l {
		for i := range v {
			if start--; start < 0 {
				start = i
				break
			}
		}
	} else {
		start = len(v)
	}
	if end < l {
		for i := range v {
			if end--; end < 0 {
				end = i
				break
			}
		}
	} else {
		end = len(v)
	}
	return v[start:end]
}

func clampIndex(i, minimum, maximum int) int {
	if i < 0 {
		i += maximum
	}
	if i < minimum {
		return minimum
	} else if i < maximum {
		return i
	} else {
		return maximum
	}
}

func funcFlatten(v any, args []any) any {
	// llmsh: jq 1.7.1's flatten($x): an error if $x < 0 (null and the
	// booleans too, as jq orders them), then reduce .[], taking $x - 1
	// for each element that is an array
	depth := -1.0
	if len(args) > 0 {
		if Compare(args[0], 0) < 0 {
			return &flattenDepthError{0}
		}
		var ok bool
		if depth, ok = ToFloat64(args[0]); !ok {
			depth = 1 // a string, an array or an object
		}
	}
	vs, ok := values(v)
	if !ok {
		return &iteratorError{v}
	}
	if len(args) > 0 && depth == 1 {
		if _, ok := ToFloat64(args[0]); !ok {
			for _, e := range vs {
				if _, ok := e.([]any); ok {
					return &jqTypeError2{args[0], 1, "cannot be subtracted"}
				}
			}
			return slices.Clone(vs)
		}
	}
	return flatten([]any{}, vs, depth, 0)
}

func flatten(xs, vs []any, depth float64, level int) []any {
	level = deeper(level)
	for _, v := range vs {
		if vs, ok := v.([]any); ok && depth != 0 {
			xs = flatten(xs, vs, depth-1, level)
		} else {
			xs = append(xs, v)
		}
	}
	return xs
}

type rangeIter struct {
	value, end, step any
	done             bool
}

func (it *rangeIter) Next() (any, bool) {
	if it.done {
		return nil, false
	}
	if err, ok := it.value.(error); ok {
		it.done = true
		return err, true
	}
	// llmsh: jq 1.7.1's range/3, while(($by > 0 and . < $upto) or ($by
	// < 0 and . > $upto); . + $by), for a step of any type
	s, c := Compare(it.step, 0), Compare(it.value, it.end)
	if !(s > 0 && c < 0 || s < 0 && c > 0) {
		return nil, false
	}
	v := it.value
	it.value = funcOpAdd(nil, v, it.step)
	return v, true
}

// errRangeBounds is jq 1.7.1's error for a range whose start or end is no
// number.
var errRangeBounds = errors.New("Range bounds must be numeric")

func funcRange(_ any, xs []any) any {
	for _, x := range xs[:2] {
		switch x.(type) {
		case int, float64, *big.Int, json.Number:
		default:
			return errRangeBounds
		}
	}
	return &rangeIter{value: xs[0], end: xs[1], step: xs[2]}
}

func funcMin(v any) any {
	vs, ok := v.([]any)
	if !ok {
		return &jqTypeError2{v, v, "cannot be iterated over"}
	}
	return minMaxBy(vs, vs, true)
}

// minMaxByTypeError is min_by's or max_by's error for an input v that is
// no array: jq 1.7.1's words for an object, the only input its map([f])
// takes that is no array (llmsh).
func minMaxByTypeError(name string, v, x any) error {
	if _, ok := v.(*OrderedMap); ok {
		return &jqTypeError2{v, x, "cannot be iterated over"}
	}
	return &func1TypeError{name, v, x}
}

func funcMinBy(v, x any) any {
	vs, ok := v.([]any)
	if !ok {
		return minMaxByTypeError("min_by", v, x)
	}
	xs, ok := x.([]any)
	if !ok {
		return &func1TypeError{"min_by", v, x}
	}
	if len(vs) != len(xs) {
		return &func1WrapError{"min_by", v, x, &lengthMismatchError{}}
	}
	return minMaxBy(vs, xs, true)
}

func funcMax(v any) any {
	vs, ok := v.([]any)
	if !ok {
		return &jqTypeError2{v, v, "cannot be iterated over"}
	}
	return minMaxBy(vs, vs, false)
}

func funcMaxBy(v, x any) any {
	vs, ok := v.([]any)
	if !ok {
		return minMaxByTypeError("max_by", v, x)
	}
	xs, ok := x.([]any)
	if !ok {
		return &func1TypeError{"max_by", v, x}
	}
	if len(vs) != len(xs) {
		return &func1WrapError{"max_by", v, x, &lengthMismatchError{}}
	}
	return minMaxBy(vs, xs, false)
}

func minMaxBy(vs, xs []any, isMin bool) any {
	if len(vs) == 0 {
		return nil
	}
	i, j, x := 0, 0, xs[0]
	for i++; i < len(xs); i++ {
		if Compare(x, xs[i]) > 0 == isMin {
			j, x = i, xs[i]
		}
	}
	return vs[j]
}

type sortItem struct {
	value, key any
}

func sortItems(name string, v, x any) ([]*sortItem, error) {
	vs, ok := v.([]any)
	if !ok {
		if strings.HasSuffix(name, "_by") {
			if _, ok := v.(*OrderedMap); ok {
				// llmsh: jq 1.7.1's words for an object, the
				// only input its map([f]) takes that is no array
				return nil, &jqTypeError2{v, x, "cannot be sorted, as they are not both arrays"}
			}
			return nil, &func1TypeError{name, v, x}
		}
		if name == "sort" {
			return nil, &jqTypeError{v, "cannot be sorted, as it is not an array"}
		}
		return nil, &func0TypeError{name, v}
	}
	xs, ok := x.([]any)
	if !ok {
		return nil, &func1TypeError{name, v, x}
	}
	if len(vs) != len(xs) {
		return nil, &func1WrapError{name, v, x, &lengthMismatchError{}}
	}
	items := make([]*sortItem, len(vs))
	for i, v := range vs {
		items[i] = &sortItem{v, xs[i]}
	}
	slices.SortStableFunc(items, func(x, y *sortItem) int {
		return Compare(x.key, y.key)
	})
	return items, nil
}

func funcSort(v any) any {
	return sortBy("sort", v, v)
}

func funcSortBy(v, x any) any {
	return sortBy("sort_by", v, x)
}

func sortBy(name string, v, x any) any {
	items, err := sortItems(name, v, x)
	if err != nil {
		return err
	}
	rs := make([]any, len(items))
	for i, x := range items {
		rs[i] = x.value
	}
	return rs
}

func funcGroupBy(v, x any) any {
	items, err := sortItems("group_by", v, x)
	if err != nil {
		return err
	}
	rs := []any{}
	var last any
	for i, r := range items {
		if i == 0 || Compare(last, r.key) != 0 {
			rs, last = append(rs, []any{r.value}), r.key
		} else {
			rs[len(rs)-1] = append(rs[len(rs)-1].([]any), r.value)
		}
	}
	return rs
}

func funcUnique(v any) any {
	// llmsh: jq 1.7.1's unique is unique_by(.), which maps first
	switch w := v.(type) {
	case []any:
	case *OrderedMap:
		var xs []any
		for _, e := range w.All() {
			xs = append(xs, []any{e})
		}
		return &jqTypeError2{v, xs, "cannot be sorted, as they are not both arrays"}
	default:
		return &iteratorError{v}
	}
	return uniqueBy("unique", v, v)
}

func funcUniqueBy(v, x any) any {
	return uniqueBy("unique_by", v, x)
}

func uniqueBy(name string, v, x any) any {
	items, err := sortItems(name, v, x)
	if err != nil {
		return err
	}
	rs := []any{}
	var last any
	for i, r := range items {
		if i == 0 || Compare(last, r.key) != 0 {
			rs, last = append(rs, r.value), r.key
		}
	}
	return rs
}

func funcSignificand(v float64) float64 {
	frac, _ := math.Frexp(v)
	return frac * 2
}

func funcExp10(v float64) float64 {
	if v == math.Trunc(v) && math.Abs(v) < 400 {
		return math.Pow10(int(v)) // exact where math.Pow is an ulp off
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 400 {
		return math.Pow(10, v)
	}
	return exp10Big(v)
}

// exp10Prec is the precision of exp10Big's arithmetic, far past a double's
// 53 bits, so that rounding its result to a double rounds 10^v correctly.
const exp10Prec = 256

// exp10Logs are ln 2 and ln 10 to exp10Prec bits: ln 2 = 2 atanh(1/3),
// ln 10 = 3 ln 2 + 2 atanh(1/9).
func exp10Logs() (*big.Float, *big.Float) {
	l := exp10LogsOnce.get(makeExp10Logs)
	return l[0], l[1]
}

// exp10LogsOnce holds exp10Logs' values (a lazy: a sync.OnceValues is code
// in the package's init).
var exp10LogsOnce lazy[[2]*big.Float]

func makeExp10Logs() [2]*big.Float {
	atanhInv := func(n int64) *big.Float { // atanh(1/n) = sum 1/((2k+1) n^(2k+1))
		sum := new(big.Float).SetPrec(exp10Prec)
		pow := new(big.Float).SetPrec(exp10Prec).Quo(big.NewFloat(1), new(big.Float).SetInt64(n))
		n2 := new(big.Float).SetInt64(n * n)
		term := new(big.Float).SetPrec(exp10Prec)
		for k := int64(0); ; k++ {
			term.Quo(pow, new(big.Float).SetInt64(2*k+1))
			if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -exp10Prec-8 {
				return sum
			}
			sum.Add(sum, term)
			pow.Quo(pow, n2)
		}
	}
	ln2 := new(big.Float).SetPrec(exp10Prec).Mul(big.NewFloat(2), atanhInv(3))
	ln10 := new(big.Float).SetPrec(exp10Prec).Mul(big.NewFloat(3), ln2)
	ln10.Add(ln10, new(big.Float).SetPrec(exp10Prec).Mul(big.NewFloat(2), atanhInv(9)))
	return [2]*big.Float{ln2, ln10}
}

// exp10Big is 10^v correctly rounded, as glibc's exp10 (which jq 1.7.1
// calls) gives it, where Go's math.Pow can be an ulp off (10^1.5):
// v ln 10 = k ln 2 + r with |r| <= ln 2 / 2, and 10^v = 2^k e^r, e^r by its
// Taylor series.
func exp10Big(v float64) float64 {
	ln2, ln10 := exp10Logs()
	y := new(big.Float).SetPrec(exp10Prec).Mul(new(big.Float).SetFloat64(v), ln10)
	q, _ := new(big.Float).Quo(y, ln2).Float64()
	k := math.Round(q)
	r := new(big.Float).SetPrec(exp10Prec).Mul(ln2, new(big.Float).SetFloat64(k))
	r.Sub(y, r)
	sum := new(big.Float).SetPrec(exp10Prec).SetInt64(1)
	term := new(big.Float).SetPrec(exp10Prec).SetInt64(1)
	for n := int64(1); n < 200; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(n))
		if term.Sign() == 0 || term.MantExp(nil) < -exp10Prec-8 {
			break
		}
		sum.Add(sum, term)
	}
	sum.SetMantExp(sum, int(k))
	f, _ := sum.Float64()
	return f
}

func funcFrexp(v any) any {
	x, ok := ToFloat64(v)
	if !ok {
		return &numberRequiredError{v}
	}
	f, e := math.Frexp(x)
	return []any{f, e}
}

func funcModf(v any) any {
	x, ok := ToFloat64(v)
	if !ok {
		return &numberRequiredError{v}
	}
	if math.IsInf(x, 0) {
		return []any{math.Copysign(0, x), x}
	}
	i, f := math.Modf(x)
	return []any{f, i}
}

// funcLgammaR is jq's lgamma_r: [lgamma(x), the sign of gamma(x)].
func funcLgammaR(v any) any {
	x, ok := ToFloat64(v)
	if !ok {
		return &numberRequiredError{v}
	}
	l, sign := math.Lgamma(x)
	return []any{l, float64(sign)}
}

func funcLgamma(v float64) float64 {
	v, _ = math.Lgamma(v)
	return v
}

func funcDrem(l, r float64) float64 {
	x := math.Remainder(l, r)
	if x == 0.0 {
		return math.Copysign(x, l)
	}
	return x
}

func funcFmax(l, r float64) float64 {
	if math.IsNaN(l) {
		return r
	}
	if math.IsNaN(r) {
		return l
	}
	return max(l, r)
}

func funcFmin(l, r float64) float64 {
	if math.IsNaN(l) {
		return r
	}
	if math.IsNaN(r) {
		return l
	}
	return min(l, r)
}

func funcJn(l, r float64) float64 {
	n := int(l)
	if x := math.Abs(r); 0 < x && x < math.Inf(1) {
		// |J_n(x)| <= (|x|/2)^|n| / |n|! underflows to zero,
		// avoiding the recurrence which takes O(|n|) time
		// (https://github.com/golang/go/issues/81489)
		m := math.Abs(float64(n))
		// values below 2^-1076, half of the rounding threshold 2^-1075, round to zero
		if m*math.Log(x/2)-funcLgamma(m+1) < -1076*math.Ln2 {
			if n&1 != 0 && (n < 0) != (r < 0) {
				return math.Copysign(0, -1)
			}
			return 0
		}
	}
	return math.Jn(n, r)
}

func funcLdexp(l, r float64) float64 {
	return math.Ldexp(l, int(r))
}

func funcYn(l, r float64) float64 {
	n := int(l)
	if m := math.Abs(float64(n)); 0 < r && r <= m-1 {
		// |Y_n(x)| >= 2/(πx J_{n-1}(x)) >= 2(n-1)!/(πx (x/2)^(n-1)) overflows,
		// by the Wronskian and the bound of J_{n-1}, for 0 < x <= n-1 where
		// J_{n-1}(x), J_n(x) > 0 and Y_{n-1}(x), Y_n(x) < 0, avoiding the long
		// recurrence (https://github.com/golang/go/issues/81489)
		// log(math.MaxFloat64) ≈ 709.78: values above this overflow
		if math.Log(2/(math.Pi*r))+funcLgamma(m)-(m-1)*math.Log(r/2) > 710 {
			if n < 0 && n&1 != 0 {
				return math.Inf(1)
			}
			return math.Inf(-1)
		}
	}
	return math.Yn(n, r)
}

func funcInfinite(any) any {
	return math.Inf(1)
}

func funcIsfinite(v any) any {
	x, ok := ToFloat64(v)
	return ok && !math.IsInf(x, 0)
}

func funcIsinfinite(v any) any {
	x, ok := ToFloat64(v)
	return ok && math.IsInf(x, 0)
}

func funcNan(any) any {
	return math.NaN()
}

func funcIsnan(v any) any {
	x, ok := ToFloat64(v)
	return ok && math.IsNaN(x)
}

func funcIsnormal(v any) any {
	if v, ok := ToFloat64(v); ok {
		e := (math.Float64bits(v) & 0x7ff0000000000000) >> 52
		return 0 < e && e < 0x7ff
	}
	return false
}

// An `allocator` creates new maps and slices, stores the allocated addresses.
// This allocator is used to reduce allocations on assignment operator (`=`),
// update-assignment operator (`|=`), and the `map_values`, `del`, `delpaths`
// functions.
type allocator map[uintptr]struct{}

func funcAllocator(any, []any) any {
	return allocator{}
}

func (a allocator) allocated(v any) bool {
	_, ok := a[reflect.ValueOf(v).Pointer()]
	return ok
}

// release forgets every allocated address when the value is one of them, so
// that a value handed to a query is copied on update again.
func (a allocator) release(v any) {
	switch v.(type) {
	case *OrderedMap, []any:
		if a.allocated(v) {
			clear(a)
		}
	}
}

// makeObject returns a copy of v (nil: an empty object) with room for l
// keys.
func (a allocator) makeObject(v *OrderedMap, l int) *OrderedMap {
	if v == nil {
		v = NewOrderedMap(l)
	} else {
		v = v.copyGrow(max(l-v.Len(), 0))
	}
	if a != nil {
		a[reflect.ValueOf(v).Pointer()] = struct{}{}
	}
	return v
}

func (a allocator) makeArray(l, c int) []any {
	v := make([]any, l, max(l, c))
	if a != nil {
		a[reflect.ValueOf(v).Pointer()] = struct{}{}
	}
	return v
}

func funcSetpath(v, p, n any) any {
	// There is no need to use an allocator on a single update.
	return setpath(v, p, n, nil)
}

// Used in compiler#compileAssign and compiler#compileModify.
func funcSetpathWithAllocator(v any, args []any) any {
	return setpath(v, args[0], args[1], args[2].(allocator))
}

// Used in compiler#compileModify: the update function may store the value
// anywhere, so it must not be modified in place afterwards. Registered as
// getpath to keep tracking paths through the call.
func funcGetpathWithAllocator(v any, args []any) any {
	w := funcGetpath(v, args[0])
	args[1].(allocator).release(w)
	return w
}

func setpath(v, p, n any, a allocator) any {
	path, ok := p.([]any)
	if !ok {
		return errors.New("Path must be specified as an array")
	}
	if len(path) > MaxDepth {
		return &tooDeepError{}
	}
	u, err := update(v, path, n, a)
	if err != nil {
		return err // jq's message as it is
	}
	return u
}

func funcDelpaths(v, p any) any {
	return delpaths(v, p, allocator{})
}

// Used in compiler#compileAssign and compiler#compileModify.
func funcDelpathsWithAllocator(v any, args []any) any {
	return delpaths(v, args[0], args[1].(allocator))
}

func delpaths(v, p any, a allocator) any {
	paths, ok := p.([]any)
	if !ok {
		return errors.New("Paths must be specified as an array")
	}
	if len(paths) == 0 {
		return v
	}
	// Sorts the paths to delete ancestor before descendant paths. For example,
	//   jq -n '{a: 1, b: 2} | delpaths([["a", "b"], ["a"]])' #=> {"b": 2}.
	if !slices.IsSortedFunc(paths, Compare) {
		paths = slices.Clone(paths)
		slices.SortFunc(paths, Compare)
	}
	// Fills the paths with an empty value and then delete them. We cannot delete
	// in each loop because array indices should not change. For example,
	//   jq -n "[0, 1, 2, 3] | delpaths([[1], [2]])" #=> [0, 3].
	var empty struct{}
	var err error
	u := v
	for _, q := range paths {
		path, ok := q.([]any)
		if !ok {
			return errors.New("Path must be specified as array, not " + TypeOf(q))
		}
		if len(path) > MaxDepth {
			return &tooDeepError{}
		}
		u, err = update(u, path, empty, a)
		if err != nil {
			return err // jq's message as it is
		}
	}
	return deleteEmpty(u, 0)
}

func update(v any, path []any, n any, a allocator) (any, error) {
	if len(path) == 0 {
		return n, nil
	}
	if _, gone := v.(struct{}); !gone {
		if done, err := updateCheck(v, path, n); done || err != nil {
			return v, err
		}
	}
	switch p := path[0].(type) {
	case string:
		switch v := v.(type) {
		case nil:
			return updateObject(nil, p, path[1:], n, a)
		case *OrderedMap:
			return updateObject(v, p, path[1:], n, a)
		case struct{}:
			return v, nil
		default:
			return nil, updateError(v, p, n)
		}
	case int, float64, *big.Int, json.Number:
		i, _ := ToInt(p)
		switch v := v.(type) {
		case nil:
			return updateArrayIndex(nil, i, path[1:], n, a)
		case []any:
			return updateArrayIndex(v, i, path[1:], n, a)
		case struct{}:
			return v, nil
		default:
			return nil, updateError(v, p, n)
		}
	case *OrderedMap:
		switch v := v.(type) {
		case nil:
			return updateArraySlice(nil, p, path[1:], n, a)
		case []any:
			return updateArraySlice(v, p, path[1:], n, a)
		case string:
			if n != struct{}{} {
				return nil, errors.New("Cannot update string slices")
			}
			return nil, updateError(v, p, n)
		case struct{}:
			return v, nil
		default:
			return nil, updateError(v, p, n)
		}
	default:
		return nil, updateError(v, p, n)
	}
}

// updateCheck is what jq 1.7.1 checks before it sets or deletes at
// path[0] of v (n is the value, struct{}{} to delete): the last key of a
// deletion goes to jv_dels (nothing to do in null; a key of the wrong type
// is `Cannot delete TYPE field of object` or `... element of array`);
// any other key is first looked up with jv_get, whose error comes first
// (`Cannot index TYPE with ...`), and a deletion under a null stops
// there; an array cannot be updated at an array index. done means v is
// the result as it is.
func updateCheck(v any, path []any, n any) (done bool, err error) {
	del := n == struct{}{}
	if del && len(path) == 1 {
		if v == nil {
			return true, nil
		}
		return false, updateError(v, path[0], n)
	}
	if _, ok := path[0].([]any); ok {
		if _, ok := v.([]any); ok {
			return false, errors.New("Cannot update field at array index of array")
		}
	}
	w := funcIndex2(nil, v, path[0])
	if err, ok := w.(error); ok {
		return false, err
	}
	return del && w == nil, nil
}

// updateError is jq 1.7.1's error for a path that cannot go through v
// at key, setting (n, the value) or deleting (n is struct{}{}); nil where
// a deletion can go on (jv_dels).
func updateError(v, key, n any) error {
	if n != struct{}{} {
		return &indexError{v, key}
	}
	switch v.(type) {
	case *OrderedMap:
		if _, ok := key.(string); ok {
			return nil
		}
		return errors.New("Cannot delete " + TypeOf(key) + " field of object")
	case []any:
		switch key := key.(type) {
		case int, float64, *big.Int, json.Number:
			return nil
		case *OrderedMap:
			s, ok := key.Get("start")
			e, ok2 := key.Get("end")
			if !ok || !ok2 || !sliceBound(s) || !sliceBound(e) {
				return errSliceIndices
			}
			return nil
		}
		return errors.New("Cannot delete " + TypeOf(key) + " element of array")
	}
	return errors.New("Cannot delete fields from " + TypeOf(v))
}

// sliceBound reports whether x can be a slice's start or end: null or a
// number.
func sliceBound(x any) bool {
	if x == nil {
		return true
	}
	_, ok := toIntFloor(x)
	return ok
}

func updateObject(v *OrderedMap, k string, path []any, n any, a allocator) (any, error) {
	var x any
	var ok bool
	if v != nil {
		x, ok = v.Get(k)
	}
	if !ok && n == struct{}{} {
		if v == nil {
			return nil, nil
		}
		return v, nil
	}
	u, err := update(x, path, n, a)
	if err != nil {
		return nil, err
	}
	if v != nil && a.allocated(v) {
		v.Set(k, u)
		return v, nil
	}
	var l int
	if v != nil {
		l = v.Len()
	}
	w := a.makeObject(v, l+1)
	w.Set(k, u)
	return w, nil
}

func updateArrayIndex(v []any, i int, path []any, n any, a allocator) (any, error) {
	var x any
	if j := clampIndex(i, -1, len(v)); j < 0 {
		if n == struct{}{} {
			if v == nil {
				return nil, nil
			}
			return v, nil
		}
		return nil, &arrayIndexNegativeError{i}
	} else if j < len(v) {
		i = j
		x = v[i]
	} else {
		if n == struct{}{} {
			if v == nil {
				return nil, nil
			}
			return v, nil
		}
		if i >= 0x20000000 {
			return nil, &arrayIndexTooLargeError{}
		}
		if arrayTooLong(i + 1) {
			// llmsh: null | setpath([300000000]; 1) made an array of
			// 4.8 GB at once, whose every collection then scanned it:
			// 29 s under a 2 s time limit (session 33, red team).
			return nil, &arrayTooLongError{}
		}
	}
	u, err := update(x, path, n, a)
	if err != nil {
		return nil, err
	}
	l, c := len(v), cap(v)
	if a.allocated(v) {
		if i < c {
			if i >= l {
				v = v[:i+1]
			}
			v[i] = u
			return v, nil
		}
		c *= 2
	}
	if i >= l {
		l = i + 1
	}
	w := a.makeArray(l, c)
	copy(w, v)
	w[i] = u
	return w, nil
}

func updateArraySlice(v []any, m *OrderedMap, path []any, n any, a allocator) (any, error) {
	s, ok := m.Get("start")
	e, ok2 := m.Get("end")
	if !ok || !ok2 {
		return nil, errSliceIndices
	}
	var start, end int
	if s != nil {
		if i, ok := toIntFloor(s); ok {
			start = clampIndex(i, 0, len(v))
		} else {
			return nil, errSliceIndices
		}
	}
	if e != nil {
		if i, ok := toIntCeil(e); ok {
			end = clampIndex(i, start, len(v))
		} else {
			return nil, errSliceIndices
		}
	} else {
		end = len(v)
	}
	if start == end && n == struct{}{} {
		if v == nil {
			return nil, nil
		}
		return v, nil
	}
	u, err := update(v[start:end], path, n, a)
	if err != nil {
		return nil, err
	}
	switch u := u.(type) {
	case []any:
		var w []any
		if len(u) == end-start && a.allocated(v) {
			w = v
		} else {
			w = a.makeArray(len(v)-(end-start)+len(u), 0)
			copy(w, v[:start])
			copy(w[start+len(u):], v[end:])
		}
		copy(w[start:], u)
		return w, nil
	case struct{}:
		var w []any
		if a.allocated(v) {
			w = v
		} else {
			w = a.makeArray(len(v), 0)
			copy(w, v)
		}
		for i := start; i < end; i++ {
			w[i] = u
		}
		return w, nil
	default:
		return nil, errors.New("A slice of an array can only be assigned another array")
	}
}

func deleteEmpty(v any, depth int) any {
	depth = deeper(depth)
	switch v := v.(type) {
	case struct{}:
		return nil
	case *OrderedMap:
		var j int
		for _, kv := range v.kvs {
			if kv.val != struct{}{} {
				v.kvs[j] = keyVal{kv.key, deleteEmpty(kv.val, depth)}
				j++
			}
		}
		if j < len(v.kvs) {
			clear(v.kvs[j:])
			v.kvs = v.kvs[:j]
			v.idx = nil
			if j > smallMap {
				v.buildIndex()
			}
		}
		return v
	case []any:
		var j int
		for _, w := range v {
			if w != struct{}{} {
				v[j] = deleteEmpty(w, depth)
				j++
			}
		}
		for i := j; i < len(v); i++ {
			v[i] = nil
		}
		return v[:j]
	default:
		return v
	}
}

func funcGetpath(v, p any) any {
	path, ok := p.([]any)
	if !ok {
		return errors.New("Path must be specified as an array") // jq's
	}
	for _, x := range path {
		v = funcIndex2(nil, v, x)
		if err, ok := v.(error); ok {
			return err // as jq: the indexing error itself
		}
	}
	return v
}

// transposeAny is jq 1.7.1's transpose, [range(0; map(length) | max //
// 0) as $i | [.[][$i]]], for rows that are not all arrays (llmsh).
func transposeAny(vss []any) any {
	var n any = 0
	for _, vs := range vss {
		k := funcLength(vs)
		if _, ok := k.(error); ok {
			return k
		}
		if Compare(k, n) > 0 {
			n = k
		}
	}
	xs := []any{}
	for i := 0; Compare(i, n) < 0; i++ {
		row := make([]any, len(vss))
		for j, vs := range vss {
			w := funcIndex2(nil, vs, i)
			if _, ok := w.(error); ok {
				return w
			}
			row[j] = w
		}
		xs = append(xs, row)
	}
	return xs
}

func funcTranspose(v any) any {
	// llmsh: jq 1.7.1 maps over an object's values too, and cannot
	// iterate over anything else
	vss, ok := values(v)
	if !ok {
		return &iteratorError{v}
	}
	if len(vss) == 0 {
		return []any{}
	}
	var l int
	for _, vs := range vss {
		vs, ok := vs.([]any)
		if !ok {
			return transposeAny(vss)
		}
		if k := len(vs); l < k {
			l = k
		}
	}
	wss := make([][]any, l)
	xs := make([]any, l)
	for i, k := 0, len(vss); i < l; i++ {
		s := make([]any, k)
		wss[i] = s
		xs[i] = s
	}
	for i, vs := range vss {
		for j, v := range vs.([]any) {
			wss[j][i] = v
		}
	}
	return xs
}

func funcBsearch(v, t any) any {
	vs, ok := v.([]any)
	if !ok {
		return &func1TypeError{"bsearch", v, t}
	}
	i, ok := slices.BinarySearchFunc(vs, t, Compare)
	if ok {
		return i
	}
	return -i - 1
}

func funcGmtime(v any) any {
	return timeToArrayFunc("gmtime", v, time.UTC)
}

func funcLocaltime(v any) any {
	return timeToArrayFunc("localtime", v, time.Local)
}

func timeToArrayFunc(name string, v any, loc *time.Location) any {
	w, ok := ToFloat64(v)
	if !ok {
		return errors.New(name + "() requires numeric inputs") // llmsh: jq 1.7.1's words
	}
	t, err := epochToTime(w, loc)
	if err != nil {
		return err // llmsh: jq 1.7.1's words alone
	}
	// llmsh: as jq 1.7.1, the seconds of the whole time_t plus the
	// number's fraction, in a double (1425599507.9: 47.90000009536743)
	a := timeToArray(t)
	a[5] = float64(t.Second()) + (w - math.Floor(w))
	return a
}

// epochToTime is the time of v seconds since the epoch in whole seconds,
// truncated toward zero as jq 1.7.1's conversion to a time_t (llmsh: -1.5
// is 23:59:59; gojq floored); a time whose year glibc's gmtime cannot
// hold in a struct tm's int is jq's error.
func epochToTime(v float64, loc *time.Location) (time.Time, error) {
	i := math.Trunc(v)
	if !(math.MinInt64 <= i && i < math.MaxInt64) {
		return time.Time{}, &timeEpochError{}
	}
	t := time.Unix(int64(i), 0).In(loc)
	if i < 0 && t.Year() > 1970 {
		return time.Time{}, &timeEpochError{}
	}
	if y := int64(t.Year()) - 1900; y > math.MaxInt32 || y < math.MinInt32 {
		return time.Time{}, &timeEpochError{}
	}
	return t, nil
}

func timeToArray(t time.Time) []any {
	return []any{
		t.Year(),
		int(t.Month()) - 1,
		t.Day(),
		t.Hour(),
		t.Minute(),
		float64(t.Second()) + float64(t.Nanosecond())/1e9,
		int(t.Weekday()),
		t.YearDay() - 1,
	}
}

func funcMktime(v any) any {
	a, ok := v.([]any)
	if !ok {
		return errors.New("mktime requires array inputs") // jq 1.7.1's words
	}
	if !isBrokenDownTime(a) {
		return errors.New("mktime requires parsed datetime inputs")
	}
	// llmsh: jq 1.7.1's jv2tm converts each field to a C int, the
	// seconds too: mktime is whole seconds (47.5 is 47, -0.5 is 0).
	if sec, ok := ToFloat64(a[5]); ok && sec != math.Trunc(sec) && !math.IsInf(sec, 0) {
		a = slices.Clone(a)
		a[5] = math.Trunc(sec)
	}
	t, err := arrayToTime(a, time.UTC)
	if err != nil {
		return &func0WrapError{"mktime", v, err}
	}
	return timeToEpoch(t)
}

// isBrokenDownTime reports whether a is a time as gmtime gives it, as
// jq 1.7.1 requires of mktime's and strftime's input: eight numbers
// (more are ignored).
func isBrokenDownTime(a []any) bool {
	if len(a) < 8 {
		return false
	}
	for _, x := range a[:8] {
		if _, ok := ToFloat64(x); !ok {
			return false
		}
	}
	return true
}

func timeToEpoch(t time.Time) float64 {
	return float64(t.Unix()) + float64(t.Nanosecond())/1e9
}

func funcStrftime(v, x any) any {
	return formatTimeFunc("strftime", v, x, time.UTC)
}

func funcStrflocaltime(v, x any) any {
	return formatTimeFunc("strflocaltime", v, x, time.Local)
}

func formatTimeFunc(name string, v, x any, loc *time.Location) any {
	// jq 1.7.1's checks and words, in its order
	a, isArray := v.([]any)
	w, isNumber := ToFloat64(v)
	if !isArray && !isNumber {
		return errors.New(name + "/1 requires parsed datetime inputs")
	}
	format, ok := x.(string)
	if !ok {
		return errors.New(name + "/1 requires a string format")
	}
	var t time.Time
	var tm brokenDownTime
	if isNumber {
		var err error
		if t, err = epochToTime(w, loc); err != nil {
			return err // llmsh: jq 1.7.1's words alone
		}
		tm = timeToBrokenDown(t)
	} else if isBrokenDownTime(a) {
		var err error
		if t, err = arrayToTime(a, loc); err != nil {
			return &func1WrapError{name, v, x, err}
		}
		tm = arrayToBrokenDown(a) // jq formats the fields as given
	} else {
		return errors.New(name + "/1 requires parsed datetime inputs")
	}
	zone, offset := t.Zone()
	return glibcStrftime(format, tm, zone, offset)
}

func funcStrptime(v, x any) any {
	s, ok := v.(string)
	format, ok2 := x.(string)
	if !ok || !ok2 {
		return errors.New("strptime/1 requires string inputs and arguments")
	}
	t, err := timefmt.Parse(s, format)
	if err != nil { // jq 1.7.1's words
		return errors.New("date " + jsonMarshal(s) + " does not match format " + jsonMarshal(format))
	}
	a := timeToArray(t.UTC())
	if !strptimeHasDate(format) {
		// glibc's strptime leaves the day of the month 0 (jq clears the
		// struct tm) and computes no weekday or day of the year without a
		// date field, and jq's sentinels 8 and 367 stay: "12:30" with
		// "%H:%M" is [1900,0,0,12,30,0,8,367] (a weekday that %a gives
		// is lost here, where glibc keeps it)
		a[0], a[1], a[2], a[6], a[7] = 1900, 0, 0, 8, 367
	}
	return a
}

// strptimeHasDate reports whether format has a directive from which
// glibc's strptime fills in the date (%d, %m, %Y, %j, %b, %s, and %c, %D,
// %F, %x that hold them).
func strptimeHasDate(format string) bool {
	for i := 0; i+1 < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("EO_-0^#123456789", format[i]) >= 0 {
			i++
		}
		if i < len(format) && strings.IndexByte("bBhcCdeDFjmsxyY", format[i]) >= 0 {
			return true
		}
	}
	return false
}

func arrayToTime(a []any, loc *time.Location) (time.Time, error) {
	var t time.Time
	var year, month, day, hour, minute,
		second, nanosecond, weekday, yearday int
	for i, p := range []*int{
		&year, &month, &day, &hour, &minute,
		&second, &weekday, &yearday,
	} {
		if i >= len(a) {
			break
		}
		v, ok := ToFloat64(a[i])
		if !ok {
			return t, &timeArrayError{}
		}
		if !(math.MinInt <= v && v < math.MaxInt) {
			return t, &timeNumberError{}
		}
		if i == 5 {
			*p = int(math.Floor(v))
			nanosecond = int((v - math.Floor(v)) * 1e9)
		} else {
			*p, _ = ToInt(a[i])
		}
	}
	return time.Date(year, time.Month(month+1), day,
		hour, minute, second, nanosecond, loc), nil
}

func funcNow(any) any {
	return timeToEpoch(time.Now())
}

func funcMatch(ctx context.Context, v, re, fs, testing any, cache *regexps) any {
	s, ok := v.(string)
	if !ok {
		return &jqTypeError{v, "cannot be matched, as it is not a string"}
	}
	restr, ok := re.(string)
	if !ok {
		return &jqTypeError{re, "is not a string"}
	}
	var flags string
	if fs != nil { // checked after the input and the regex, as jq 1.7.1 does
		if flags, ok = fs.(string); !ok {
			return &jqTypeError{fs, "is not a string"}
		}
	}
	r, err := compileRegexp(restr, flags, cache)
	if err != nil {
		return err
	}
	if testing == true {
		ok, err := r.matchString(ctx, s)
		if err != nil {
			return err
		}
		return ok
	}
	var n int
	if strings.ContainsRune(flags, 'g') {
		n = -1
	} else {
		n = 1
	}
	xs, err := r.findAllStringSubmatchIndex(ctx, s, n)
	if err != nil {
		return err
	}
	res, names := make([]any, len(xs)), r.subexpNames()
	// llmsh: offsets in characters, counted from the last one asked
	// (runeOffsets): len([]rune(s[:x])) for each match made
	// [match("a"; "g")] of 400 KB of a's take minutes.
	ro := runeOffsets{s: s}
	for i, x := range xs {
		start := ro.at(x[0])
		ro.base()
		captures := make([]any, (len(x)-2)/2)
		for j := 1; j < len(x)/2; j++ {
			var name any
			if n := names[j]; n != "" {
				name = n
			}
			if x[0] == x[1] {
				// jq 1.7.1 gives every group of an empty match its
				// offset and "", whether the group took part or not
				captures[j-1] = &OrderedMap{kvs: []keyVal{
					{"offset", start},
					{"string", ""},
					{"length", 0},
					{"name", name},
				}}
				continue
			}
			if x[j*2] < 0 {
				// sic: jq 1.7 puts string before length here
				captures[j-1] = &OrderedMap{kvs: []keyVal{
					{"offset", -1},
					{"string", nil},
					{"length", 0},
					{"name", name},
				}}
				continue
			}
			gstart := ro.at(x[j*2])
			captures[j-1] = &OrderedMap{kvs: []keyVal{
				{"offset", gstart},
				{"length", ro.at(x[j*2+1]) - gstart},
				{"string", s[x[j*2]:x[j*2+1]]},
				{"name", name},
			}}
		}
		res[i] = &OrderedMap{kvs: []keyVal{
			{"offset", start},
			{"length", ro.at(x[1]) - start},
			{"string", s[x[0]:x[1]]},
			{"captures", captures},
		}}
	}
	return res
}

// runeOffsets turns byte offsets of s into character offsets, counting
// from the offset asked last, or from the base when going back (llmsh).
type runeOffsets struct {
	s            string
	b, r         int // the offset asked last, in bytes and characters
	baseB, baseR int
}

func (o *runeOffsets) at(b int) int {
	if b < o.b {
		o.b, o.r = o.baseB, o.baseR
		if b < o.b {
			o.b, o.r = 0, 0
		}
	}
	o.r += utf8.RuneCountInString(o.s[o.b:b])
	o.b = b
	return o.r
}

// base makes the offset asked last the one to count from going back.
func (o *runeOffsets) base() { o.baseB, o.baseR = o.b, o.r }

// onigError is Oniguruma's words, which jq 1.7.1 gives, for an error of
// Go's regexp syntax that it has one for (a switch: a map literal is code
// in the package's init).
func onigError(code syntax.ErrorCode) (string, bool) {
	switch code {
	case syntax.ErrMissingParen:
		return "end pattern with unmatched parenthesis", true
	case syntax.ErrUnexpectedParen:
		return "unmatched close parenthesis", true
	case syntax.ErrMissingBracket:
		return "premature end of char-class", true
	case syntax.ErrMissingRepeatArgument:
		return "target of repeat operator is not specified", true
	case syntax.ErrTrailingBackslash:
		return "end pattern at escape", true
	case syntax.ErrInvalidCharRange:
		return "empty range in char class", true
	}
	return "", false
}

// regexpError is the error compiling re, in jq's words where there are any.
func regexpError(re string, err error) error {
	var serr *syntax.Error
	if errors.As(err, &serr) {
		if serr.Code == syntax.ErrInvalidCharRange && strings.HasPrefix(serr.Expr, "[:") {
			return errors.New("Regex failure: invalid POSIX bracket type") // [[:nope:]]
		}
		if msg, ok := onigError(serr.Code); ok {
			return errors.New("Regex failure: " + msg)
		}
		if serr.Code == syntax.ErrInvalidRepeatSize && strings.Contains(serr.Expr, ",") {
			if lo, hi, ok := strings.Cut(strings.Trim(serr.Expr[strings.LastIndexByte(serr.Expr, '{'):], "{}"), ","); ok {
				if l, err1 := strconv.Atoi(lo); err1 == nil {
					if h, err2 := strconv.Atoi(hi); err2 == nil && h < l {
						return errors.New("Regex failure: upper is smaller than lower in repeat range")
					}
				}
			}
		}
	}
	return fmt.Errorf("invalid regular expression %q: %s", re, err)
}

// maxRegexpLen bounds the length of a regular expression (llmsh, session
// 25): Go's regexp.Compile looks at no context and takes time in
// proportion to the text (a 2 MB alternation: seconds past a run's time
// limit).
const maxRegexpLen = 1 << 20

// regexps is a compiler's compiled regular expressions, and its second
// engine (WithBacktracker) (llmsh).
type regexps struct {
	cache     sync.Map
	backtrack func(re string, ignoreCase, dotAll bool) (Backtracker, error)
}

func compileRegexp(re, flags string, rs *regexps) (*regexpMatcher, error) {
	key := [2]string{re, flags}
	if r, ok := rs.cache.Load(key); ok {
		return r.(*regexpMatcher), nil
	}
	if strings.ContainsFunc(flags, func(r rune) bool {
		return !strings.ContainsRune("gimnpslx", r)
	}) {
		return nil, errors.New(flags + " is not a valid modifier string") // jq's words
	}
	// Oniguruma's options as jq sets them: x extended (blanks and #
	// comments dropped), m and p a dot that matches a newline (s, a
	// single line, is Go's default), l the longest match, n no empty one
	if strings.ContainsRune(flags, 'x') {
		re = extendedRegexp(re)
	}
	if len(re) > maxRegexpLen {
		// llmsh: before the rewrites below, which are not linear in
		// the pattern's length (nestRepeats).
		return nil, errors.New("regular expression too big")
	}
	if nested, ok := nestRepeats(re); ok {
		re = nested // llmsh: Oniguruma's a** and kin
	}
	plain := re
	re = onigClasses(re)
	classes := re
	if strings.ContainsRune(flags, 'i') {
		re = "(?i)" + re
	}
	if strings.ContainsAny(flags, "mp") {
		re = "(?s)" + re
	}
	if len(re) > maxRegexpLen {
		return nil, errors.New("regular expression too big")
	}
	notEmpty := strings.ContainsRune(flags, 'n')
	r, err := regexp.Compile(re)
	if err != nil {
		// llmsh: what RE2 refuses, the backtracking engine may take (its
		// own \w \d \s \b are Unicode ones already)
		if rs.backtrack == nil {
			return nil, regexpError(re, err)
		}
		bt, berr := rs.backtrack(classes, strings.ContainsRune(flags, 'i'), strings.ContainsAny(flags, "mp"))
		if berr != nil {
			if ferr := regexpError(re, err); strings.HasPrefix(ferr.Error(), "Regex failure: ") ||
				!strings.HasPrefix(berr.Error(), "Regex failure: ") {
				return nil, ferr
			}
			return nil, berr
		}
		m := &regexpMatcher{bt: bt, notEmpty: notEmpty}
		rs.cache.Store(key, m)
		return m, nil
	}
	if strings.ContainsRune(flags, 'l') {
		r.Longest()
	}
	m := &regexpMatcher{Regexp: r, notEmpty: notEmpty,
		searcher: stopre.New(r, strings.ContainsRune(flags, 'l'))}
	if rs.backtrack != nil {
		// llmsh: Oniguruma's $ is also before a final newline (Go's,
		// at the end only), and its \b \B (and \W \D \S in brackets)
		// Unicode ones (Go's, ASCII): a string that ends in a newline
		// or that is not ASCII goes to the backtracking engine, whose
		// are Oniguruma's
		m.eol, m.unicode = backtrackWhen(plain)
		if m.eol || m.unicode {
			m.altBT, _ = rs.backtrack(classes, strings.ContainsRune(flags, 'i'), strings.ContainsAny(flags, "mp"))
		}
	}
	if r, err := regexp.Compile(`\A(?s:.)(?:` + re + `)`); err == nil {
		m.probe = r
	}
	rs.cache.Store(key, m)
	return m, nil
}

// regexpMatcher wraps a compiled regular expression to fill the gap between
// the standard library and jq; the former ignores an empty match abutting a
// preceding match, while the latter reports it.
type regexpMatcher struct {
	*regexp.Regexp
	// probe matches a single character followed by the regular expression,
	// anchored at the beginning, and is used to look for an empty match at
	// the end of a non-empty match without losing the preceding context,
	// which matters for assertions like ^ and \b.
	probe *regexp.Regexp
	// notEmpty drops empty matches (flag n).
	notEmpty bool
	// searcher searches a long string stoppably (llmsh).
	searcher *stopre.Searcher
	// bt, when set, is the backtracking engine's compiled pattern, which
	// Go's regexp refused (Regexp is then nil) (llmsh).
	bt Backtracker
	// altBT, when set, is the backtracking engine's pattern for a
	// string that ends in a newline when eol is set (the pattern has a
	// $), and for one that is not ASCII when unicode is (it has \b, \B,
	// or \W \D \S in brackets) (llmsh).
	altBT        Backtracker
	eol, unicode bool
}

// engine is the backtracking engine's pattern that searches s, or nil
// for Go's regexp (llmsh).
func (r *regexpMatcher) engine(s string) Backtracker {
	if r.bt == nil && r.altBT != nil &&
		(r.eol && strings.HasSuffix(s, "\n") || r.unicode && !isASCII(s)) {
		return r.altBT
	}
	return r.bt
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// backtrackWhen reports whether re has a $ anchor (not escaped nor in a
// bracket expression), and whether it has \b or \B out of brackets or
// \W \D \S in them, whose meanings differ between Go's regexp and
// Oniguruma (llmsh).
func backtrackWhen(re string) (eol, unicode bool) {
	for i := 0; i < len(re); i++ {
		switch re[i] {
		case '\\':
			if i+1 < len(re) && (re[i+1] == 'b' || re[i+1] == 'B') {
				unicode = true
			}
			i++
		case '$':
			eol = true
		case '[':
			end := bracketEnd(re, i)
			for j := i + 1; j < end; j++ {
				if re[j] == '\\' {
					if strings.IndexByte("WDS", re[j+1]) >= 0 {
						unicode = true
					}
					j++
				}
			}
			i = end
		}
	}
	return eol, unicode
}

// bracketEnd is the index of the ] that ends the bracket expression
// starting at re[i], or the last index when there is none; a ] first
// (after a ^) is a member, a \ escapes the next byte, and a [ starts a
// nested class, as Oniguruma reads them.
func bracketEnd(re string, i int) int {
	j := i + 1
	if j < len(re) && re[j] == '^' {
		j++
	}
	if j < len(re) && re[j] == ']' {
		j++
	}
	for ; j < len(re); j++ {
		switch re[j] {
		case '\\':
			j++
		case '[':
			j = bracketEnd(re, j)
		case ']':
			return j
		}
	}
	return len(re) - 1
}

// subexpNames is the names of the groups ("" for one without).
func (r *regexpMatcher) subexpNames() []string {
	if r.bt != nil {
		return r.bt.SubexpNames()
	}
	return r.Regexp.SubexpNames()
}

// onigClasses writes Oniguruma's Unicode \w \W \d \D \s \S (jq 1.7.1
// compiles with UTF-8 and no ASCII_RANGE) as RE2 classes, whose own are
// ASCII (llmsh): \w is a letter, mark, number or connector ("é", "٣",
// "_"), \d a decimal digit of any script, \s also \v, U+0085 and the
// Unicode spaces. In a bracket expression \w \d \s are written out as
// members (Oniguruma's [\w] takes no No: "²") and \W \D \S left as
// RE2's; \b stays RE2's ASCII boundary (compileRegexp sends a string
// that is not ASCII to the backtracking engine for those).
func onigClasses(re string) string {
	if !strings.Contains(re, "\\") && !strings.Contains(re, "[:") {
		return re
	}
	const (
		w  = `\p{L}\p{M}\p{N}\p{Pc}`
		sp = `\s\x0B\x{85}\p{Z}`
	)
	var b strings.Builder
	inClass := false
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '\\' && i+1 < len(re):
			e := re[i+1]
			i++
			if e == 'Q' {
				// \Q...\E is literal text
				end := strings.Index(re[i:], `\E`)
				if end < 0 {
					end = len(re) - i
				} else {
					end += 2
				}
				b.WriteString(re[i-1 : i+end])
				i += end - 1
				continue
			}
			if inClass {
				switch e {
				case 'w':
					b.WriteString(`\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}`)
					continue
				case 'd':
					b.WriteString(`\p{Nd}`)
					continue
				case 's':
					b.WriteString(sp)
					continue
				}
			} else {
				switch e {
				case 'w':
					b.WriteString("[" + w + "]")
					continue
				case 'W':
					b.WriteString("[^" + w + "]")
					continue
				case 'd':
					b.WriteString(`\p{Nd}`)
					continue
				case 'D':
					b.WriteString(`\P{Nd}`)
					continue
				case 's':
					b.WriteString("[" + sp + "]")
					continue
				case 'S':
					b.WriteString("[^" + sp + "]")
					continue
				}
			}
			b.WriteByte(c)
			b.WriteByte(e)
			continue
		}
		i = onigClassStep(&b, re, i, &inClass)
	}
	return b.String()
}

// onigClassStep writes re[i] for a scan that follows bracket expressions
// (onigClasses, extendedRegexp), and returns the index of the last byte
// it read: in a bracket expression "]" ends it and [:name:] is written as
// Oniguruma's members (onigPosixClass); "[" starts one, where a "]"
// first (after "^") is a member.
func onigClassStep(b *strings.Builder, re string, i int, inClass *bool) int {
	c := re[i]
	switch {
	case *inClass:
		if c == ']' {
			*inClass = false
		}
		if c == '[' && i+1 < len(re) && re[i+1] == ':' {
			if end := strings.Index(re[i+2:], ":]"); end >= 0 {
				if m, ok := onigPosixClass(re[i+2 : i+2+end]); ok {
					b.WriteString(m)
					return i + end + 3
				}
			}
		}
	case c == '[':
		*inClass = true
		b.WriteByte(c)
		// a ']' first in the class (after '^') is a member
		if i+1 < len(re) && re[i+1] == '^' {
			b.WriteByte('^')
			i++
		}
		if i+1 < len(re) && re[i+1] == ']' {
			b.WriteByte(']')
			i++
		}
		return i
	}
	b.WriteByte(c)
	return i
}

// onigPosixClass is the members of the POSIX class [:name:] as
// Oniguruma's Unicode ones, which jq 1.7.1 uses ([[:alpha:]] takes "é",
// [[:space:]] U+00A0); RE2's are ASCII (llmsh). xdigit, cntrl, print,
// graph and negated classes ([:^alpha:]) stay RE2's.
func onigPosixClass(name string) (string, bool) {
	switch name {
	case "alpha":
		return `\p{L}\p{Nl}`, true
	case "alnum":
		return `\p{L}\p{Nl}\p{Nd}`, true
	case "upper":
		return `\p{Lu}`, true
	case "lower":
		return `\p{Ll}`, true
	case "digit":
		return `\p{Nd}`, true
	case "space":
		return `\s\x0B\x{85}\p{Z}`, true
	case "blank":
		return `\t\p{Zs}`, true
	case "punct":
		return "\\p{P}\\$+<=>^`|~", true
	case "word":
		return `\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}`, true
	}
	return "", false
}

// nestRepeats writes Oniguruma's nested counts, where a count applies to
// the counted atom before it (a** a+* a{2}* a*{2} a**?), with a group
// that Go's regexp and PCRE2 take, (?:a*)* (llmsh): both refuse them.
// A count's own ? (lazy) or + (possessive) is part of it (a*+ is one
// possessive count, a*++ nests). It reports whether re changed.
func nestRepeats(re string) (string, bool) {
	var b strings.Builder
	atom, changed := -1, false // atom: where the last atom starts in b
	var groups []int
	for i := 0; i < len(re); {
		start := b.Len()
		switch c := re[i]; {
		case c == '\\':
			n := escapeLen(re, i)
			b.WriteString(re[i : i+n])
			i, atom = i+n, start
		case c == '[':
			end := bracketEnd(re, i) + 1
			b.WriteString(re[i:end])
			i, atom = end, start
		case c == '(':
			groups = append(groups, start)
			b.WriteByte(c)
			i, atom = i+1, -1
		case c == ')':
			atom = -1
			if len(groups) > 0 {
				atom, groups = groups[len(groups)-1], groups[:len(groups)-1]
			}
			b.WriteByte(c)
			i++
		case c == '|':
			b.WriteByte(c)
			i, atom = i+1, -1
		case countLen(re, i) > 0:
			n := countLen(re, i)
			b.WriteString(re[i : i+n])
			i += n
			if atom < 0 || countLen(re, i) == 0 {
				atom = -1
				continue
			}
			t := b.String()
			b.Reset()
			b.WriteString(t[:atom] + "(?:" + t[atom:] + ")")
			changed = true
		default:
			_, w := utf8.DecodeRuneInString(re[i:])
			b.WriteString(re[i : i+w])
			i, atom = i+w, start
		}
	}
	if !changed {
		return re, false
	}
	return b.String(), true
}

// escapeLen is the length of the escape at re[i] (a \): two bytes, or
// through the closing } or > of \x{..} \p{..} \k<..> and the like.
func escapeLen(re string, i int) int {
	if i+1 >= len(re) {
		return 1
	}
	if i+2 < len(re) && strings.IndexByte("xpPkgo", re[i+1]) >= 0 {
		if end := strings.IndexByte("{}<>", re[i+2]); end == 0 || end == 2 {
			if j := strings.IndexByte(re[i+3:], "{}<>"[end+1]); j >= 0 {
				return j + 4
			}
		}
	}
	_, w := utf8.DecodeRuneInString(re[i+1:])
	return 1 + w
}

// countLen is the length of the count at re[i] (* + ? {n} {n,} {n,m}
// and a ? or + after it), or 0.
func countLen(re string, i int) int {
	n := 0
	switch {
	case i >= len(re):
		return 0
	case strings.IndexByte("*+?", re[i]) >= 0:
		n = 1
	case re[i] == '{':
		j := i + 1
		for j < len(re) && re[j] >= '0' && re[j] <= '9' {
			j++
		}
		if j == i+1 {
			return 0
		}
		if j < len(re) && re[j] == ',' {
			j++
			for j < len(re) && re[j] >= '0' && re[j] <= '9' {
				j++
			}
		}
		if j >= len(re) || re[j] != '}' {
			return 0
		}
		n = j + 1 - i
	default:
		return 0
	}
	if i+n < len(re) && (re[i+n] == '?' || re[i+n] == '+') {
		n++
	}
	return n
}

// extendedRegexp is re with the blanks and the # comments that
// Oniguruma's extended syntax ignores taken out (but escaped and within
// a bracket expression).
func extendedRegexp(re string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '\\' && i+1 < len(re):
			b.WriteString(re[i : i+2])
			i++
			continue
		case inClass || c == '[':
		case c == '#':
			for i < len(re) && re[i] != '\n' {
				i++
			}
			continue
		case strings.IndexByte(" \t\n\r\f\v", c) >= 0:
			continue
		}
		i = onigClassStep(&b, re, i, &inClass)
	}
	return b.String()
}

// matchString reports whether s has a match (a non-empty one with n).
func (r *regexpMatcher) matchString(ctx context.Context, s string) (bool, error) {
	if bt := r.engine(s); bt != nil && !r.notEmpty {
		xs, err := bt.FindAll(ctx, s, 1)
		return len(xs) > 0, err
	}
	if r.notEmpty {
		xs, err := r.findAllStringSubmatchIndex(ctx, s, -1)
		return len(xs) > 0, err
	}
	if len(s) < longRegexInput {
		return r.Regexp.MatchString(s), nil
	}
	rd := &stopre.Reader[string]{Ctx: ctx, Text: s}
	ok := r.Regexp.MatchReader(rd)
	return ok && rd.Err == nil, rd.Err
}

func (r *regexpMatcher) findAllStringSubmatchIndex(ctx context.Context, s string, n int) ([][]int, error) {
	if r.notEmpty {
		var ys [][]int
		xs, err := r.findAll(ctx, s, -1)
		for _, x := range xs {
			if x[0] != x[1] && (n < 0 || len(ys) < n) {
				ys = append(ys, x)
			}
		}
		return ys, err
	}
	return r.findAll(ctx, s, n)
}

// longRegexInput is the length of a string from which a search reads it
// through a reader that looks at the run's context (llmsh, session 18,
// red team: test and match of a 16 MB string took minutes, unstopped).
var longRegexInput = 1 << 14

// allRegexInput is the length from which a search of all matches reads
// the string so (llmsh): each search may read to the end, and the reader
// looks at the context every 1024 characters read in all.
var allRegexInput = 1 << 10

func (r *regexpMatcher) findAll(ctx context.Context, s string, n int) ([][]int, error) {
	if bt := r.engine(s); bt != nil {
		return bt.FindAll(ctx, s, n)
	}
	var xs [][]int
	if len(s) < allRegexInput {
		xs = r.Regexp.FindAllStringSubmatchIndex(s, n)
	} else {
		err := stopre.Each(ctx, r.searcher, s, n, func(loc []int) bool {
			xs = append(xs, slices.Clone(loc))
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	if len(xs) == 0 || n == 1 || r.probe == nil {
		return xs, nil
	}
	ys := make([][]int, 0, len(xs))
	for i, x := range xs {
		ys = append(ys, x)
		if x[0] == x[1] || i+1 < len(xs) && xs[i+1][0] == x[1] {
			continue
		}
		y, err := r.emptyMatchAt(ctx, s, x[1])
		if err != nil {
			return nil, err
		}
		if y != nil {
			ys = append(ys, y)
		}
	}
	return ys, nil
}

func (r *regexpMatcher) emptyMatchAt(ctx context.Context, s string, offset int) ([]int, error) {
	_, w := utf8.DecodeLastRuneInString(s[:offset])
	var x []int
	if len(s)-offset < longRegexInput {
		x = r.probe.FindStringSubmatchIndex(s[offset-w:])
	} else {
		rd := &stopre.Reader[string]{Ctx: ctx, Text: s[offset-w:]}
		if x = r.probe.FindReaderSubmatchIndex(rd); rd.Err != nil {
			return nil, rd.Err
		}
	}
	if x == nil || x[1] != w {
		return nil, nil
	}
	y := make([]int, len(x))
	y[0], y[1] = offset, offset
	for i := 2; i < len(x); i++ {
		if x[i] < 0 {
			y[i] = -1
		} else {
			y[i] = x[i] + offset - w
		}
	}
	return y, nil
}

func funcCaptures(v any) any {
	captures, ok := v.([]any)
	if !ok {
		return &expectedArrayError{v}
	}
	w := NewOrderedMap(len(captures))
	for _, capture := range captures {
		if capture, ok := capture.(*OrderedMap); ok {
			if name, ok := capture.getValue("name").(string); ok {
				w.Set(name, capture.getValue("string"))
			}
		}
	}
	return w
}

func funcError(v any, args []any) any {
	if len(args) > 0 {
		v = args[0]
	}
	return &exitCodeError{v, 5}
}

func funcHalt(any) any {
	return &HaltError{nil, 0}
}

func funcHaltError(v any, args []any) any {
	code := 5
	if len(args) > 0 {
		var ok bool
		if code, ok = ToInt(args[0]); !ok {
			return errors.New(typeErrorPreview(v) + " halt_error/1: number required")
		}
	}
	return &HaltError{v, code}
}

func toIntCeil(x any) (int, bool) {
	if n, ok := x.(json.Number); ok {
		x = parseNumber(n)
	}
	if f, ok := x.(float64); ok {
		if -1 < f && f < 0 || math.IsNaN(f) {
			return math.MaxInt, true
		}
		x = math.Ceil(f)
	}
	return ToInt(x)
}

func toIntFloor(x any) (int, bool) {
	if n, ok := x.(json.Number); ok {
		x = parseNumber(n)
	}
	if f, ok := x.(float64); ok {
		x = math.Floor(f)
	}
	return ToInt(x)
}
