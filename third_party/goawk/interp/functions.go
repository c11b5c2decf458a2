// Call native Go functions; helpers for some builtin function calls.

package interp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/llmsh/llmsh/third_party/goawk/internal/resolver"
	. "github.com/llmsh/llmsh/third_party/goawk/lexer"
)

// Call native-defined function with given name and arguments, return
// its return value (or null value if it doesn't return anything).
func (p *interp) callNative(index int, args []value) (value, error) {
	f := p.nativeFuncs[index]
	minIn := len(f.in) // Minimum number of args we should pass
	var variadicType reflect.Type
	if f.isVariadic {
		variadicType = f.in[len(f.in)-1].Elem()
		minIn--
	}

	// Build list of args to pass to function
	values := make([]reflect.Value, 0, 7) // up to 7 args won't require heap allocation
	for i, a := range args {
		var argType reflect.Type
		if !f.isVariadic || i < len(f.in)-1 {
			argType = f.in[i]
		} else {
			// Final arg(s) when calling a variadic are all of this type
			argType = variadicType
		}
		values = append(values, p.toNative(a, argType))
	}
	// Use zero value for any unspecified args
	for i := len(args); i < minIn; i++ {
		values = append(values, reflect.Zero(f.in[i]))
	}

	// Call Go function, determine return value
	outs := f.value.Call(values)
	switch len(outs) {
	case 0:
		// No return value, return null value to AWK
		return null(), nil
	case 1:
		// Single return value
		return fromNative(outs[0]), nil
	case 2:
		// Two-valued return of (scalar, error)
		if !outs[1].IsNil() {
			return null(), outs[1].Interface().(error)
		}
		return fromNative(outs[0]), nil
	default:
		// Should never happen (checked at parse time)
		panic(fmt.Sprintf("unexpected number of return values: %d", len(outs)))
	}
}

// Convert from an AWK value to a native Go value
func (p *interp) toNative(v value, typ reflect.Type) reflect.Value {
	switch typ.Kind() {
	case reflect.Bool:
		return reflect.ValueOf(v.boolean())
	case reflect.Int:
		return reflect.ValueOf(int(v.num()))
	case reflect.Int8:
		return reflect.ValueOf(int8(v.num()))
	case reflect.Int16:
		return reflect.ValueOf(int16(v.num()))
	case reflect.Int32:
		return reflect.ValueOf(int32(v.num()))
	case reflect.Int64:
		return reflect.ValueOf(int64(v.num()))
	case reflect.Uint:
		return reflect.ValueOf(uint(int64(v.num())))
	case reflect.Uint8:
		return reflect.ValueOf(uint8(int64(v.num())))
	case reflect.Uint16:
		return reflect.ValueOf(uint16(int64(v.num())))
	case reflect.Uint32:
		return reflect.ValueOf(uint32(int64(v.num())))
	case reflect.Uint64:
		return reflect.ValueOf(uint64(int64(v.num())))
	case reflect.Float32:
		return reflect.ValueOf(float32(v.num()))
	case reflect.Float64:
		return reflect.ValueOf(v.num())
	case reflect.String:
		return reflect.ValueOf(p.toString(v))
	case reflect.Slice:
		if typ.Elem().Kind() != reflect.Uint8 {
			// Shouldn't happen: prevented by checkNativeFunc
			panic(fmt.Sprintf("unexpected argument slice: %s", typ.Elem().Kind()))
		}
		return reflect.ValueOf([]byte(p.toString(v)))
	default:
		// Shouldn't happen: prevented by checkNativeFunc
		panic(fmt.Sprintf("unexpected argument type: %s", typ.Kind()))
	}
}

// Convert from a native Go value to an AWK value
func fromNative(v reflect.Value) value {
	switch v.Kind() {
	case reflect.Bool:
		return boolean(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return num(float64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return num(float64(v.Uint()))
	case reflect.Float32, reflect.Float64:
		return num(v.Float())
	case reflect.String:
		return str(v.String())
	case reflect.Slice:
		if b, ok := v.Interface().([]byte); ok {
			return str(string(b))
		}
		// Shouldn't happen: prevented by checkNativeFunc
		panic(fmt.Sprintf("unexpected return slice: %s", v.Type().Elem().Kind()))
	default:
		// Shouldn't happen: prevented by checkNativeFunc
		panic(fmt.Sprintf("unexpected return type: %s", v.Kind()))
	}
}

// Used for caching native function type information on init
type nativeFunc struct {
	isVariadic bool
	in         []reflect.Type
	value      reflect.Value
}

// Check and initialize native functions
func (p *interp) initNativeFuncs(funcs map[string]interface{}) error {
	for name, f := range funcs {
		err := checkNativeFunc(name, f)
		if err != nil {
			return err
		}
	}

	// Sort functions by name, then use those indexes to build slice
	// (this has to match how the parser sets the indexes).
	names := make([]string, 0, len(funcs))
	for name := range funcs {
		names = append(names, name)
	}
	sort.Strings(names)
	p.nativeFuncs = make([]nativeFunc, len(names))
	for i, name := range names {
		f := funcs[name]
		typ := reflect.TypeOf(f)
		in := make([]reflect.Type, typ.NumIn())
		for j := 0; j < len(in); j++ {
			in[j] = typ.In(j)
		}
		p.nativeFuncs[i] = nativeFunc{
			isVariadic: typ.IsVariadic(),
			in:         in,
			value:      reflect.ValueOf(f),
		}
	}
	return nil
}

// errorType is error's reflect.Type (a function: a package variable of it
// was code in the package's init, run at every start of llmsh).
func errorType() reflect.Type { return reflect.TypeFor[error]() }

// Check that native function with given name is okay to call from
// AWK, return an *interp.Error if not. This checks that f is actually
// a function, and that its parameter and return types are good.
func checkNativeFunc(name string, f interface{}) error {
	if KeywordToken(name) != ILLEGAL {
		return newError("can't use keyword %q as native function name", name)
	}

	typ := reflect.TypeOf(f)
	if typ.Kind() != reflect.Func {
		return newError("native function %q is not a function", name)
	}
	for i := 0; i < typ.NumIn(); i++ {
		param := typ.In(i)
		if typ.IsVariadic() && i == typ.NumIn()-1 {
			param = param.Elem()
		}
		if !validNativeType(param) {
			return newError("native function %q param %d is not int or string", name, i)
		}
	}

	switch typ.NumOut() {
	case 0:
		// No return value is fine
	case 1:
		// Single scalar return value is fine
		if !validNativeType(typ.Out(0)) {
			return newError("native function %q return value is not int or string", name)
		}
	case 2:
		// Returning (scalar, error) is handled too
		if !validNativeType(typ.Out(0)) {
			return newError("native function %q first return value is not int or string", name)
		}
		if typ.Out(1) != errorType() {
			return newError("native function %q second return value is not an error", name)
		}
	default:
		return newError("native function %q returns more than two values", name)
	}
	return nil
}

// Return true if typ is a valid parameter or return type.
func validNativeType(typ reflect.Type) bool {
	switch typ.Kind() {
	case reflect.Bool:
		return true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	case reflect.Float32, reflect.Float64:
		return true
	case reflect.String:
		return true
	case reflect.Slice:
		// Only allow []byte (convert to string in AWK)
		return typ.Elem().Kind() == reflect.Uint8
	default:
		return false
	}
}

// Guts of the split() function
func (p *interp) split(s string, scope resolver.Scope, index int, fs string, mode IOMode) (int, error) {
	var parts []string
	switch {
	case mode == CSVMode || mode == TSVMode:
		// Set up for parsing a CSV/TSV record
		splitter := csvSplitter{
			separator: p.csvInputConfig.Separator,
			sepLen:    utf8.RuneLen(p.csvInputConfig.Separator),
			comment:   p.csvInputConfig.Comment,
			fields:    &parts,
		}
		scanner := bufio.NewScanner(strings.NewReader(s))
		scanner.Split(splitter.scan)
		if p.splitBuffer == nil {
			p.splitBuffer = make([]byte, inputBufSize)
		}
		scanner.Buffer(p.splitBuffer, maxRecordLength)

		// Parse one record. Errors shouldn't happen, but if there is one,
		// len(parts) will be 0.
		scanner.Scan()
	case fs == " ":
		return p.splitLoad(scope, index, strings.FieldsSeq(s))
	case s == "":
		// Leave parts 0 length on empty string
	case fs == "" && !p.chars:
		return p.splitLoad(scope, index, bytesSeq(s)) // llmsh: mawk splits into bytes
	case utf8.RuneCountInString(fs) <= 1:
		return p.splitLoad(scope, index, strings.SplitSeq(s, fs))
	default:
		re, err := p.compileRegex(fs)
		if err != nil {
			return 0, err
		}
		parts, err = p.splitRegex(re, s) // llmsh: stoppable (regexwork.go)
		if err != nil {
			return 0, err
		}
	}
	values := make([]value, len(parts))
	for i, part := range parts {
		// llmsh: a split into millions of elements stops with the run.
		if i&0xffff == 0xffff {
			if err := p.checkContextNow(); err != nil {
				return 0, err
			}
		}
		values[i] = numStr(part)
	}
	// llmsh: a mawk "split array" (awkarray.go), filled in place.
	p.arrays[p.arrayIndex(scope, index)].load(values)
	return len(values), nil
}

// splitLoad is split's load of the pieces of parts into the array (llmsh,
// session 21, red team): they are made one by one, looking at the run's
// context every 65536, where strings.Split and strings.Fields made all of
// them first and the values after in one allocation each, which nothing
// stopped (split of 64M characters by "": 7.1 s for a 1 s limit of a
// library Run; of 32M pieces by ",": 13 s).
func (p *interp) splitLoad(scope resolver.Scope, index int, parts iter.Seq[string]) (int, error) {
	var values []value
	for part := range parts {
		if len(values)&0xffff == 0xffff {
			if err := p.checkContextNow(); err != nil {
				return 0, err
			}
		}
		values = append(values, numStr(part))
	}
	p.arrays[p.arrayIndex(scope, index)].load(values)
	return len(values), nil
}

// Guts of the sub() and gsub() functions
func (p *interp) sub(regex, repl, in string, global bool) (out string, num int, err error) {
	re, err := p.compileRegex(regex)
	if err != nil {
		return "", 0, err
	}
	if !global {
		// llmsh: sub() replaces the first match only: one search,
		// which the run's context can stop (regexwork.go), not a walk
		// over every match of the string.
		loc, err := p.findStringIndex(re, in)
		if err != nil || loc == nil {
			return in, 0, err
		}
		r := newSubRepl(repl)
		if len(in)+r.len(loc[1]-loc[0])-(loc[1]-loc[0]) > MaxString {
			return "", 0, errStringTooLong()
		}
		return in[:loc[0]] + r.expand(in[loc[0]:loc[1]]) + in[loc[1]:], 1, nil
	}
	if len(in) >= min(allRegexInput, bigRegexInput) && p.checkCtx || p.bytesRE && !isASCII(in) {
		return p.gsubLong(re, newSubRepl(repl), in) // llmsh: regexwork.go
	}
	count := 0
	// llmsh: the result may not pass MaxString; past it the call fails
	// at once. The run's context is looked at every 4096 matches, and
	// the input counts as regexp work (regexwork.go).
	defer func() {
		if v := recover(); v != nil {
			stop, ok := v.(regexStop)
			if !ok {
				panic(v)
			}
			out, num, err = "", 0, stop.err
		}
	}()
	p.regexDone(len(in))
	size := len(in)
	r := newSubRepl(repl)
	out = re.ReplaceAllStringFunc(in, func(s string) string {
		count++
		if count&0xfff == 0 {
			if err := p.checkContextNow(); err != nil {
				panic(regexStop{err})
			}
		}
		if size += r.len(len(s)) - len(s); size > MaxString {
			panic(regexStop{errStringTooLong()})
		}
		return r.expand(s)
	})
	return out, count, nil
}

type cachedFormat struct {
	format string
	types  []byte
}

// Parse given sprintf format string into Go format string, along with
// type conversion specifiers. Output is memoized in a simple cache
// for performance.
func (p *interp) parseFmtTypes(s string) (format string, types []byte, err error) {
	if item, ok := p.formatCache[s]; ok {
		return item.format, item.types, nil
	}

	out := []byte(s)
	// llmsh: where %g and %G lack a precision (".6" goes in), and where
	// a ' flag is (dropped: no thousands separator in llmsh's locales)
	// or an l or h before an integer conversion (dropped, as by mawk).
	var sixAt, quoteAt []int
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			i++
			if i >= len(s) {
				return "", nil, errors.New("expected type specifier after %")
			}
			if s[i] == '%' {
				continue
			}
			precision := false
			for i < len(s) && bytes.IndexByte([]byte(" .-+*#0123456789'"), s[i]) >= 0 {
				if s[i] == '*' {
					types = append(types, 'd')
				}
				if s[i] == '\'' {
					quoteAt = append(quoteAt, i)
				}
				precision = precision || s[i] == '.'
				i++
			}
			if fmtIntModifier(s, i) {
				quoteAt = append(quoteAt, i)
				i++
			}
			if i < len(s) && (s[i] == 'g' || s[i] == 'G') && !precision {
				sixAt = append(sixAt, i)
			}
			if i >= len(s) {
				return "", nil, errors.New("expected type specifier after %")
			}
			var t byte
			switch s[i] {
			case 's':
				t = 's'
			case 'd':
				t = 'd'
			case 'o', 'x', 'X':
				t = 'u'
			case 'i':
				t = 'd'
				out[i] = 'd'
			case 'f', 'e', 'E', 'g', 'G':
				t = 'f'
			case 'a':
				t = 'f'
				out[i] = 'x'
			case 'A':
				t = 'f'
				out[i] = 'X'
			case 'u':
				t = 'u'
				out[i] = 'd'
			case 'c':
				t = 'c'
				out[i] = 's'
			default:
				return "", nil, fmt.Errorf("invalid format type %q", s[i])
			}
			types = append(types, t)
		}
	}

	// llmsh: C's %g has a precision of 6 by default; Go's prints the
	// shortest form that reads back (%g of 3.14159265 was 3.14159265).
	for k, q := len(sixAt)-1, len(quoteAt)-1; k >= 0 || q >= 0; {
		if q < 0 || k >= 0 && sixAt[k] > quoteAt[q] {
			out = append(out[:sixAt[k]], append([]byte(".6"), out[sixAt[k]:]...)...)
			k--
		} else {
			out = append(out[:quoteAt[q]], out[quoteAt[q]+1:]...)
			q--
		}
	}

	// Dumb, non-LRU cache: just cache the first N formats
	format = string(out)
	if len(p.formatCache) < maxCachedFormats {
		p.formatCache[s] = cachedFormat{format, types}
	}
	return format, types, nil
}

// Guts of sprintf() function (also used by "printf" statement)
func (p *interp) sprintf(format string, args []value) (string, error) {
	source := format
	format, types, err := p.parseFmtTypes(format)
	if err != nil {
		// llmsh: mawk's run-time errors, reported by the caller.
		e, few := fmtBadConversion(source, len(args))
		if few {
			return "", errFewArgs{len(args), len(args) + 1}
		}
		return "", e
	}
	if len(types) > len(args) {
		return "", errFewArgs{len(args), len(types)} // llmsh: reported by the caller
	}
	converted := make([]interface{}, 0, 7) // up to 7 args won't require heap allocation
	for i, t := range types {
		a := args[i]
		var v interface{}
		switch t {
		case 's':
			v = p.toString(a)
			if !p.chars {
				v = byteString(p.toString(a)) // llmsh: widths in bytes
			}
		case 'd':
			v = dToI(a.num()) // llmsh: clamped as mawk
		case 'f':
			v = a.num()
		case 'u':
			v = dToU(a.num()) // llmsh: clamped as mawk
		}
		if t == 'f' {
			// llmsh: C's "inf", "-nan" for %e %f %g (dToI and dToU
			// clamp them for the integer verbs, as mawk does).
			if n := a.num(); math.IsNaN(n) || math.IsInf(n, 0) {
				v = nonFinite(n)
			}
		}
		switch t {
		case 'c':
			var c []byte
			n, isStr := a.isTrueStr()
			if isStr {
				s := p.toString(a)
				if len(s) == 0 {
					c = []byte{0}
				} else if p.chars {
					_, size := utf8.DecodeRuneInString(s)
					c = []byte(s[:size])
				} else {
					c = []byte{s[0]}
				}
			} else {
				if p.chars {
					buf := make([]byte, utf8.UTFMax)
					size := utf8.EncodeRune(buf, rune(dToI(n)))
					c = buf[:size]
				} else {
					c = []byte{byte(dToI(n))}
				}
			}
			v = c
			if !p.chars {
				v = byteString(c)
			}
		}
		converted = append(converted, v)
	}
	if fmtBig(format, converted) {
		return sprintfBig(format, converted) // llmsh: bigwidth.go
	}
	return fmt.Sprintf(format, converted...), nil
}

// byteString is a %s argument whose width and precision count bytes, as
// C's printf and so mawk count them (llmsh: Go's fmt counts runes, so
// printf "%5s" padded "é" to 5 characters where mawk pads it to 5 bytes,
// and "%.1s" kept the whole "é" where mawk keeps its first byte). The 0
// flag pads with spaces, as glibc's %s does.
type byteString string

// Format writes s with the width, precision and '-' flag of f.
func (s byteString) Format(f fmt.State, verb rune) {
	str := string(s)
	if prec, ok := f.Precision(); ok && prec < len(str) {
		str = str[:prec]
	}
	width, _ := f.Width()
	pad := width - len(str)
	if pad > 0 && !f.Flag('-') {
		io.WriteString(f, strings.Repeat(" ", pad))
	}
	io.WriteString(f, str)
	if pad > 0 && f.Flag('-') {
		io.WriteString(f, strings.Repeat(" ", pad))
	}
}

// mawkSubstr is substr(s, pos, length) as mawk 1.3.4 20200120 computes
// it (llmsh), pos and length truncated and clamped by d_to_I: a start
// below 0 lengthens the substring by as many characters
// (substr("hello", -1, 3) is "hell"; upstream: "hel", POSIX and gawk:
// "h"), in C's int arithmetic, which wraps: substr("hello", -1e30) and a
// NaN or infinite start give "" (upstream: "hello").
func mawkSubstr(s string, pos, length int64, chars bool) string {
	if pos < 0 {
		length = int64(int32(length - pos))
	}
	if chars {
		return substrLengthChars(s, int(pos), int(length))
	}
	if pos > int64(len(s)) {
		pos = int64(len(s)) + 1
	}
	if pos < 1 {
		pos = 1
	}
	length = max(0, min(length, int64(len(s))-pos+1))
	return s[pos-1 : pos-1+length]
}

func substrLengthChars(s string, pos, length int) string {
	// Count characters till we get to pos.
	chars := 1
	start := 0
	for start = range s {
		chars++
		if chars > pos {
			break
		}
	}
	if pos >= chars {
		start = len(s)
	}

	// Count characters from start till we reach length.
	chars = 0
	end := 0
	for end = range s[start:] {
		chars++
		if chars > length {
			break
		}
	}
	if length >= chars {
		end = len(s)
	} else {
		end += start
	}

	return s[start:end]
}

// bytesSeq yields s's single bytes one by one, as splitBytes makes
// them (split() stops between them when the run ends).
func bytesSeq(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := range len(s) {
			if !yield(s[i : i+1]) {
				return
			}
		}
	}
}

// splitBytes splits s into its single bytes: an empty FS or split()
// separator in mawk, which knows no multibyte characters (llmsh: upstream
// split into UTF-8 characters).
func splitBytes(s string) []string {
	parts := make([]string, len(s))
	for i := range len(s) {
		parts[i] = s[i : i+1]
	}
	return parts
}
