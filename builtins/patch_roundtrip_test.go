package builtins_test

import (
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPatchRoundTrip applies diff -u (and -U0, -U1) output for random file
// pairs with patch, to the original and to the original with lines added
// in front (so every hunk lands at an offset), and checks that the result
// is the new file. Hunks without leading context (-U0, or an empty
// original) are anchored at the start of the file, as in GNU patch, so
// those are not shifted.
func TestPatchRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(7))
	alpha := []string{"a", "b", "c", "d", "", "x y", "e", "f"}
	gen := func() string {
		var b strings.Builder
		for i, n := 0, rng.Intn(30); i < n; i++ {
			b.WriteString(alpha[rng.Intn(len(alpha))] + "\n")
		}
		s := b.String()
		if s != "" && rng.Intn(5) == 0 {
			s = s[:len(s)-1]
		}
		return s
	}
	for i := 0; i < 150; i++ {
		a, b := gen(), gen()
		if a == b {
			continue
		}
		flag := []string{"-u", "-U0", "-U1"}[i%3]
		prefix := ""
		if i%2 == 1 && flag != "-U0" && a != "" {
			prefix = "pre 1\npre 2\n"
		}
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			r, dir := duRun(t, duCase{files: map[string]string{"a": a, "b": b, "f": prefix + a},
				args: []string{"diff", flag, "--label", "f", "--label", "f", "a", "b"}})
			if r.status != 1 {
				t.Fatalf("diff: %d %q", r.status, r.stderr)
			}
			// Apply in the same directory.
			pr := duRunIn(t, dir, duCase{stdin: r.stdout, args: []string{"patch", "-s"}})
			if pr.status != 0 || pr.stderr != "" {
				t.Fatalf("patch %s: status %d: %s\na=%q\nb=%q\ndiff:\n%s", flag, pr.status, pr.stderr, a, b, r.stdout)
			}
			got, _ := os.ReadFile(filepath.Join(dir, "f"))
			if string(got) != prefix+b {
				t.Errorf("patch %s: got %q, want %q\na=%q\ndiff:\n%s", flag, got, prefix+b, a, r.stdout)
			}
		})
	}
}
