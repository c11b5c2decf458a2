package builtins_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/llmsh/llmsh/internal/funclen"
)

// maxFuncLines is the longest a function in builtins/ may be (issue 22):
// a command reads as spec → config → run, and each of those fits on a
// couple of screens.
const maxFuncLines = funclen.Max

// longFuncAllowed lists the functions that may exceed maxFuncLines, keyed
// "FILE FUNC" (FILE relative to builtins/, FUNC the function or method
// name). Keep it short: an entry needs a reason.
var longFuncAllowed = map[string]string{}

// TestFuncLength keeps every function in builtins/ (tests aside) within
// maxFuncLines lines, but for the entries of longFuncAllowed, and keeps
// that list free of entries that are no longer needed.
func TestFuncLength(t *testing.T) {
	t.Parallel()
	lengths, err := funclen.Lengths(".")
	if err != nil {
		t.Fatal(err)
	}
	if lengths["builtin.go Register"] == 0 {
		t.Fatal("the walk missed builtin.go: the test looks in the wrong place")
	}
	var long []string
	for key, n := range lengths {
		if n > maxFuncLines {
			if _, ok := longFuncAllowed[key]; !ok {
				long = append(long, fmt.Sprintf("%s: %d lines", key, n))
			}
		}
	}
	sort.Strings(long)
	for _, s := range long {
		t.Errorf("%s (at most %d; split it into spec, config and run)", s, maxFuncLines)
	}
	for key := range longFuncAllowed {
		if n := lengths[key]; n <= maxFuncLines {
			t.Errorf("longFuncAllowed lists %q, now %d lines: delete the entry", key, n)
		}
	}
}
