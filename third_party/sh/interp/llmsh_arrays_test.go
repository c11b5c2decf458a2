// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An array the runner owns is changed in place by appends and element
// assignments (overlayEnviron.owned): the fixture arrays_in_place (with
// bash's goldens) runs here under the race detector, where a background
// job, a pipeline, a subshell or a copy that shares the storage would
// show up as a race or as a changed value.
func TestArraysInPlace(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "testdata", "fixtures")
	src, err := os.ReadFile(filepath.Join(dir, "arrays_in_place.sh"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "arrays_in_place.stdout"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	out, errs, st := runScript(t, string(src))
	if out != string(want) || errs != "" || st != 0 {
		t.Errorf("status %d, stderr %q, stdout diff:\n%s", st, errs, lineDiff(string(want), out))
	}
}

// Appends in a loop take time in n: the array is not copied each time.
// Measured by allocation, not time: 20,000 appends of a copied array
// allocate over 20,000 × 10,000 strings' headers.
func TestArrayAppendNotCopied(t *testing.T) {
	src := `a=(); i=0; while (( i < 20000 )); do a+=(x); a[i]=y; (( i++ )); done; declare -A m; for k in 1 2 3; do m[$k]=$k; done; echo ${#a[@]} ${#m[@]}`
	allocs := testing.AllocsPerRun(1, func() {
		if out, _, _ := runScript(t, src); out != "20000 3\n" {
			t.Fatalf("got %q", out)
		}
	})
	if allocs > 2_000_000 {
		t.Errorf("%.0f allocations for 20,000 appends: the array is copied each time", allocs)
	}
}

// lineDiff shows want and got line by line where they differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("- " + wl + "\n+ " + gl + "\n")
		}
	}
	return b.String()
}
