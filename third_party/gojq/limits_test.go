package gojq_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/gojq"
)

// runJQ runs src on null and returns its outputs, an error as its text.
func runJQ(t *testing.T, src string) []string {
	t.Helper()
	q, err := gojq.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	iter := code.Run(nil)
	for {
		v, ok := iter.Next()
		if !ok {
			return out
		}
		if err, isErr := v.(error); isErr {
			out = append(out, "error: "+err.Error())
			continue
		}
		b, err := gojq.Marshal(v)
		if err != nil {
			out = append(out, "marshal: "+err.Error())
			continue
		}
		out = append(out, string(b))
	}
}

// TestMaxString (llmsh): no string past MaxString is built by +, *, add,
// join, tojson, tostring, the @formats or Marshal; up to it they work.
func TestMaxString(t *testing.T) {
	defer func(n int) { gojq.MaxString = n }(gojq.MaxString)
	gojq.MaxString = 64
	tooLong := "error: string too long (more than 64 bytes)"
	for _, c := range []struct{ src, want string }{
		{`"x" * 64 | length`, "64"},
		{`"x" * 65 | length`, `error: repeat string result too large: "x" * 65`},
		{`"x" * 32 | . + . | length`, "64"},
		{`"x" * 32 | . + . + "y"`, tooLong},
		{`reduce range(10) as $i ("ab"; . + .)`, tooLong},
		{`"x" * 30 | [., ., .] | add`, tooLong},
		{`"x" * 30 | [., ., .] | join("")`, tooLong},
		{`"x" * 21 | [., ., .] | join("") | length`, "63"},
		{`"x" * 30 | [., ., .] | @csv`, tooLong},
		{`"x" * 30 | [., .] | tojson`, tooLong},
		{`"x" * 30 | [., .] | tostring`, tooLong},
		{`"x" * 30 | [., .] | @base64`, tooLong},
		{`"x" * 30 | [., .] | @html`, tooLong},
		{`"x" * 30 | "\(.)\(.)\(.)"`, tooLong},
		{`"x" * 30 | [., .]`, "marshal: string too long (more than 64 bytes)"},
		{`[1, "a"] | tojson, join("-")`, `"[1,\"a\"]"`},
	} {
		got := strings.Join(runJQ(t, c.src), "\n")
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.src, got, c.want)
		}
	}
}

// TestMaxArray (llmsh): + and add make no array of more than MaxString/16
// elements (as much as the longest string holds) at once; up to it they
// work, and an array collected element by element is the memory guard's.
func TestMaxArray(t *testing.T) {
	defer func(n int) { gojq.MaxString = n }(gojq.MaxString)
	gojq.MaxString = 64 * 16
	tooLong := "error: array too long (more than 64 elements)"
	for _, c := range []struct{ src, want string }{
		{`[range(32)] | . + . | length`, "64"},
		{`[range(32)] | . + . + [1]`, tooLong},
		{`reduce range(10) as $i ([1]; . + .)`, tooLong},
		{`[range(40)] | [., .] | add`, tooLong},
		{`[range(20)] | [., ., .] | add | length`, "60"},
		{`reduce range(10) as $i ([1]; [.[], .[]]) | length`, "1024"},
		{`try ([range(40)] | . + .) catch "caught"`, `"caught"`},
		{`.[64] = 1`, tooLong},
		{`setpath([100]; 1)`, tooLong},
		{`.[63] = 1 | length`, "64"},
		{`.[536870912] = 1`, "error: Array index too large"},
	} {
		got := strings.Join(runJQ(t, c.src), "\n")
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.src, got, c.want)
		}
	}
}

// TestMaxDepth (llmsh): a value nested past MaxDepth is an error for the
// operations that recurse into it, a catchable one, and is written as jq
// writes one past MaxPrintDepth; below those depths all work.
func TestMaxDepth(t *testing.T) {
	deep := `reduce range(100001) as $i (null; [.])`
	tooDeep := "error: value nested too deeply (more than 100000 levels)"
	for _, c := range []struct{ src, want string }{
		{deep + ` | . == .`, tooDeep},
		{deep + ` | [., .] | sort | length`, tooDeep},
		{deep + ` | contains(.)`, tooDeep},
		{deep + ` | flatten`, tooDeep},
		{`reduce range(100001) as $i (null; {a: .}) | . * .`, tooDeep},
		{`null | setpath([range(100001) | 0]; 1)`, tooDeep},
		{`null | delpaths([[range(100001) | 0]])`, tooDeep},
		{deep + ` | try (. == .) catch "caught"`, `"caught"`},
		{`reduce range(99999) as $i (null; [.]) | . == .`, "true"},
		{`reduce range(99999) as $i (null; [.]) | flatten`, "[null]"},
		{deep + ` | tojson | length`, "20021"},
		{`reduce range(10001) as $i (0; [.]) | tojson | .[10000:]`, `"[<skipped: too deep>]`},
	} {
		got := strings.Join(runJQ(t, c.src), "\n")
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %.200q, want %q", c.src, got, c.want)
		}
	}
}

// TestParseBounds (llmsh): Parse refuses a program of more than MaxTokens
// tokens or MaxNesting open brackets, whose tree the compiler's recursion
// would follow level by level; smaller ones compile and run.
func TestParseBounds(t *testing.T) {
	r := strings.Repeat
	for _, c := range []struct {
		name, src, err string
	}{
		{"sum", "1" + r("+1", gojq.MaxTokens), "program too long (more than 200000 tokens)"},
		{"pipes", "." + r("|.", gojq.MaxTokens), "program too long (more than 200000 tokens)"},
		{"conditionals", r("if . then ", gojq.MaxTokens/4) + "1" + r(" else . end", gojq.MaxTokens/4), "program too long"},
		{"arrays", r("[", gojq.MaxNesting+1) + "1" + r("]", gojq.MaxNesting+1), "program nested too deeply (more than 10000 brackets)"},
		{"parentheses", r("(", 1000000) + "1" + r(")", 1000000), "program nested too deeply"},
		{"short sum", "1" + r("+1", 20000), ""},
		{"arrays at the bound", r("[", gojq.MaxNesting-1) + "1" + r("]", gojq.MaxNesting-1), ""},
	} {
		q, err := gojq.Parse(c.src)
		if c.err == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			} else if _, err := gojq.Compile(q); err != nil {
				t.Errorf("%s: compile: %v", c.name, err)
			}
			continue
		}
		var pe *gojq.ParseError
		if !errors.As(err, &pe) || len(pe.Errors) != 1 || !strings.HasPrefix(pe.Errors[0].Msg, c.err) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.err)
		}
	}
}
