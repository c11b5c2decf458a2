package gojq

import (
	"context"
	"errors"
	"math"
	"strings"
	"unicode/utf8"
)

// llmsh (session 21, red team): the functions that make an array of a
// string's characters or matches, or a string of an array's, in one step
// of the interpreter look at the run's context as they go, as the
// interpreter's loop does between steps. A library Session.Run with a 1 s
// limit answered 37 s late for `"x" * 100000000 | split("")`, 41 s for
// `"x" * 268435455 | explode` and 38 s for `"x" * 100000000 | index("y")`
// (which exploded both strings into arrays of numbers and compared them
// position by position). index, rindex and indices of valid UTF-8 strings
// now search the bytes with the strings package and count characters
// between matches (runeOffsets).

// bulkEvery is how many items a bulk function makes between two looks at
// the context.
const bulkEvery = 1 << 16

// bulkFunc is the internal function of the name compiled with the run's
// context (compileCall): each is the function of internalFuncs of that
// name, which calls it with context.Background(). A switch, not a map:
// a map literal is code in the package's init, run at every start of llmsh.
func bulkFunc(name string) (func(context.Context, any, []any) any, bool) {
	switch name {
	case "explode":
		return func(ctx context.Context, v any, _ []any) any { return explodeCtx(ctx, v) }, true
	case "implode":
		return func(ctx context.Context, v any, _ []any) any { return implodeCtx(ctx, v) }, true
	case "split":
		return func(ctx context.Context, v any, args []any) any { return splitCtx(ctx, v, args[0]) }, true
	case "indices":
		return func(ctx context.Context, v any, args []any) any { return indexCtx(ctx, "indices", v, args[0]) }, true
	case "index":
		return func(ctx context.Context, v any, args []any) any { return indexCtx(ctx, "index", v, args[0]) }, true
	case "rindex":
		return func(ctx context.Context, v any, args []any) any { return indexCtx(ctx, "rindex", v, args[0]) }, true
	case "_divide":
		return func(ctx context.Context, v any, args []any) any {
			if l, ok := args[0].(string); ok {
				if _, ok := args[1].(string); ok {
					return splitCtx(ctx, l, args[1]) // a string divided by a string
				}
			}
			return funcOpDiv(v, args[0], args[1])
		}, true
	}
	return nil, false
}

// looked returns the context's error every bulkEvery counts of n.
func looked(ctx context.Context, n int) error {
	if n&(bulkEvery-1) == 0 && n > 0 {
		return ctx.Err()
	}
	return nil
}

func explodeCtx(ctx context.Context, v any) any {
	s, ok := v.(string)
	if !ok {
		return errors.New("explode input must be a string") // jq 1.7.1's words
	}
	xs, err := explodeString(ctx, s)
	if err != nil {
		return err
	}
	return xs
}

// explodeString is the code points of s, each an invalid byte's U+FFFD.
func explodeString(ctx context.Context, s string) ([]any, error) {
	xs := make([]any, 0, min(len(s), bulkEvery))
	for _, r := range s {
		if err := looked(ctx, len(xs)); err != nil {
			return nil, err
		}
		xs = append(xs, int(r))
	}
	return xs, nil
}

func implodeCtx(ctx context.Context, v any) any {
	vs, ok := v.([]any)
	if !ok {
		return errors.New("implode input must be an array") // jq 1.7.1's words
	}
	var sb strings.Builder
	sb.Grow(len(vs))
	for i, v := range vs {
		if err := looked(ctx, i); err != nil {
			return err
		}
		if f, ok := v.(float64); ok && math.IsNaN(f) {
			return &jqTypeError{v, "can't be imploded, unicode codepoint needs to be numeric"} // number (null)
		}
		if r, ok := ToInt(v); ok {
			if 0 <= r && r <= utf8.MaxRune {
				sb.WriteRune(rune(r))
			} else {
				sb.WriteRune(utf8.RuneError)
			}
		} else {
			return &jqTypeError{v, "can't be imploded, unicode codepoint needs to be numeric"}
		}
	}
	return sb.String()
}

// errSplitStrings is jq 1.7.1's error for split/1 of a non-string.
var errSplitStrings = errors.New("split input and separator must be strings")

func splitCtx(ctx context.Context, v, x any) any {
	s, ok := v.(string)
	t, ok2 := x.(string)
	if !ok || !ok2 {
		return errSplitStrings
	}
	if s == "" {
		return []any{}
	}
	// strings.Split's pieces: each UTF-8 sequence (or invalid byte) for
	// an empty separator.
	var xs []any
	for len(s) > 0 {
		if err := looked(ctx, len(xs)+1); err != nil {
			return err
		}
		var n, skip int
		if t == "" {
			_, n = utf8.DecodeRuneInString(s)
		} else if n = strings.Index(s, t); n < 0 {
			break
		} else {
			skip = len(t)
		}
		xs = append(xs, s[:n])
		s = s[n+skip:]
		if skip > 0 && s == "" {
			xs = append(xs, "")
		}
	}
	if len(s) > 0 {
		xs = append(xs, s)
	}
	return xs
}

// indexCtx is index, rindex or indices (name): of arrays, and of strings
// that are not valid UTF-8, the original's comparison of elements (of
// code points), looking at the context every bulkEvery positions; of
// valid UTF-8 strings a search of the bytes, which gives the same
// character offsets (a valid needle matches only at a character's start).
func indexCtx(ctx context.Context, name string, v, x any) any {
	s, ok := v.(string)
	t, tok := x.(string)
	if !ok || !tok || !utf8.ValidString(s) || !utf8.ValidString(t) {
		if ok && tok {
			vs, err := explodeString(ctx, s)
			if err != nil {
				return err
			}
			xs, err := explodeString(ctx, t)
			if err != nil {
				return err
			}
			v, x = vs, xs
		}
		return indexFunc(name, v, x, func(vs, xs []any) any { return indexElems(ctx, name, vs, xs) })
	}
	if t == "" {
		if name == "indices" {
			return []any{}
		}
		return nil
	}
	switch name {
	case "index":
		if i := strings.Index(s, t); i >= 0 {
			return utf8.RuneCountInString(s[:i])
		}
		return nil
	case "rindex":
		if i := strings.LastIndex(s, t); i >= 0 {
			return utf8.RuneCountInString(s[:i])
		}
		return nil
	}
	rs := []any{}
	ro := runeOffsets{s: s}
	_, step := utf8.DecodeRuneInString(t) // overlapping matches: from the next character
	for b := 0; ; {
		i := strings.Index(s[b:], t)
		if i < 0 {
			return rs
		}
		if err := looked(ctx, len(rs)+1); err != nil {
			return err
		}
		rs = append(rs, ro.at(b+i))
		b += i + step
	}
}

// indexElems is indices, index or rindex of the elements xs in vs (the
// original's loops), looking at the context every bulkEvery positions.
func indexElems(ctx context.Context, name string, vs, xs []any) any {
	rs := []any{}
	if len(xs) == 0 {
		if name == "indices" {
			return rs
		}
		return nil
	}
	n := len(vs) - len(xs) + 1
	for k := range max(n, 0) {
		if err := looked(ctx, k); err != nil {
			return err
		}
		i := k
		if name == "rindex" {
			i = n - 1 - k
		}
		if Compare(vs[i:i+len(xs)], xs) == 0 {
			if name != "indices" {
				return i
			}
			rs = append(rs, i)
		}
	}
	if name != "indices" {
		return nil
	}
	return rs
}
