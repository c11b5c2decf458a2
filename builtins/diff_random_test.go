package builtins_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestDiffRandomGNU compares diff with GNU diff 3.8 on random file pairs:
// testdata/diff_random.json holds GNU's output for each (made by
// testdata/gen_diff_random.py). The hunks must be the same, not just
// equally small.
func TestDiffRandomGNU(t *testing.T) {
	t.Parallel()
	var cases []struct {
		A, B   string
		Args   []string
		Out    string
		Status int
	}
	readRandomCases(t, "testdata/diff_random.json", &cases)
	d := newDuReaders(t)
	for i, c := range cases {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			r := d.run(t, duCase{files: map[string]string{"a": c.A, "b": c.B}, args: append([]string{"diff"}, c.Args...)})
			if r.stdout != c.Out || r.status != c.Status || r.stderr != "" {
				t.Errorf("diff %s\na=%q\nb=%q\ngot (%d):\n%s\nwant (%d):\n%s", strings.Join(c.Args, " "), c.A, c.B, r.status, r.stdout, c.Status, c.Out)
			}
		})
	}
}

// readRandomCases reads the recorded cases of a random comparison with a
// GNU tool (testdata/*_random.json) into cases, a pointer to a slice; at
// least 100 of them, or the file is not what was generated.
func readRandomCases(t *testing.T, path string, cases any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, cases); err != nil {
		t.Fatal(err)
	}
	if n := reflect.ValueOf(cases).Elem().Len(); n < 100 {
		t.Fatalf("only %d cases", n)
	}
}
