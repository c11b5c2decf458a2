package builtins_test

import (
	"strconv"
	"strings"
	"testing"
)

// TestDiff3RandomGNU compares diff3 with GNU diff3 3.8 on random file
// triples: testdata/diff3_random.json holds GNU's output, messages and
// status for each (made by testdata/gen_diff3_random.py).
func TestDiff3RandomGNU(t *testing.T) {
	t.Parallel()
	var cases []struct {
		M, O, Y  string
		Args     []string
		Out, Err string
		Status   int
	}
	readRandomCases(t, "testdata/diff3_random.json", &cases)
	d := newDuReaders(t)
	for i, c := range cases {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			args := append(append([]string{"diff3"}, c.Args...), "m", "o", "y")
			r := d.run(t, duCase{files: map[string]string{"m": c.M, "o": c.O, "y": c.Y}, args: args})
			if r.stdout != c.Out || r.status != c.Status || r.stderr != c.Err {
				t.Errorf("%s\nm=%q\no=%q\ny=%q\ngot (%d):\n%s%s\nwant (%d):\n%s%s", strings.Join(args, " "), c.M, c.O, c.Y,
					r.status, r.stdout, r.stderr, c.Status, c.Out, c.Err)
			}
		})
	}
}
