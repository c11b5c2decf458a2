package builtins_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestPatchRandomGNU replays testdata/patch_random.json (made by
// testdata/gen_patch_random.py): GNU diff output for random file pairs,
// applied by GNU patch 2.7.6 to a file that drifted from the original, so
// that hunks land at offsets, with fuzz, fail, or look reversed. patch must
// print the same messages and leave the same file, .rej and .orig.
func TestPatchRandomGNU(t *testing.T) {
	t.Parallel()
	var cases []struct {
		File, Diff       string
		Args             []string
		Out, Err         string
		Status           int
		After, Rej, Orig *string
	}
	readRandomCases(t, "testdata/patch_random.json", &cases)
	for i, c := range cases {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			r, dir := duRun(t, duCase{files: map[string]string{"f": c.File}, stdin: c.Diff, args: append([]string{"patch"}, c.Args...)})
			if r.stdout != c.Out || r.stderr != c.Err || r.status != c.Status {
				t.Errorf("patch %q\nfile %q\ndiff:\n%s\ngot (%d):\n%s%s\nwant (%d):\n%s%s", c.Args, c.File, c.Diff, r.status, r.stdout, r.stderr, c.Status, c.Out, c.Err)
			}
			for name, want := range map[string]*string{"f": c.After, "f.rej": c.Rej, "f.orig": c.Orig} {
				got, err := os.ReadFile(filepath.Join(dir, name))
				switch {
				case want == nil && err == nil:
					t.Errorf("%s exists, GNU patch made none", name)
				case want != nil && err != nil:
					t.Errorf("%s: %v", name, err)
				case want != nil && string(got) != *want:
					t.Errorf("%s holds %q, want %q", name, got, *want)
				}
			}
		})
	}
}
