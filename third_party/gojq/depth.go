// llmsh: bounds on how deep gojq's Go code recurses into a value (see
// LLMSH.md).

package gojq

// MaxPrintDepth is how deep jq 1.7.1 writes a value (MAX_PRINT_DEPTH in
// its jv_print.c): each value nested deeper is `<skipped: too deep>`.
const MaxPrintDepth = 10000

// MaxDepth bounds the nesting that comparing (`==`, `<`, sort, unique,
// group_by, delpaths' order), contains, flatten, `*` of objects and
// delpaths walk, and the length of a path that setpath and delpaths
// follow. Each is a Go recursion: a value nested millions deep (built
// with `reduce range(N) as $i (null; [.])`) overflowed Go's stack, a
// fatal error no recover stops.
const MaxDepth = 100000

// MaxTokens and MaxNesting bound the program Parse reads: its tokens and
// its open brackets. The syntax tree of a program nests about as deep as
// its tokens allow (`1+1+…`, `.|.|…`, `if . then … else . end` chains
// are left- or right-deep trees), and the compiler recurses once per
// level: a program of three million `+1` (6 MB, from "$@" or -f)
// overflowed Go's stack, a fatal error. jq's bison parser stops at 10000
// open levels too (`memory exhausted`).
const (
	MaxTokens  = 200000
	MaxNesting = 10000
)

// tooDeepError is the error of a value or path past MaxDepth.
type tooDeepError struct{}

func (*tooDeepError) Error() string {
	return "value nested too deeply (more than 100000 levels)"
}

// deeper is depth+1, or a panic with tooDeepError past MaxDepth, which
// callInternal recovers.
func deeper(depth int) int {
	if depth >= MaxDepth {
		panic(&tooDeepError{})
	}
	return depth + 1
}

// callInternal calls an internal function, which fails with tooDeepError
// when it recursed past MaxDepth.
func callInternal(f func(any, []any) any, x any, args []any) (w any) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*tooDeepError)
			if !ok {
				panic(r)
			}
			w = e
		}
	}()
	return f(x, args)
}
