package builtins_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// TestUnifiedDiff: the hunks of UnifiedDiff are GNU diff -u's (the two
// header lines left out), checked here against GNU diff when it is
// installed and against the expected text otherwise.
func TestUnifiedDiff(t *testing.T) {
	t.Parallel()
	lines := func(n int, change map[int]string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if s, ok := change[i]; ok {
				b.WriteString(s)
				continue
			}
			b.WriteString("line" + strings.Repeat("x", i%3) + "\n")
		}
		return b.String()
	}
	cases := []struct{ a, b, want string }{
		{"same\n", "same\n", ""},
		{"a\nb\nc\n", "a\nB\nc\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"", "new\n", "@@ -0,0 +1 @@\n+new\n"},
		{"x\n", "x", "@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n"},
		{lines(30, nil), lines(30, map[int]string{3: "three\n", 20: "", 28: "28\n29\n"}), ""},
	}
	gnu, _ := exec.LookPath("diff")
	for i, c := range cases {
		got := UnifiedDiff([]byte(c.a), []byte(c.b))
		want := c.want
		if gnu != "" {
			dir := t.TempDir()
			pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
			os.WriteFile(pa, []byte(c.a), 0o644)
			os.WriteFile(pb, []byte(c.b), 0o644)
			out, _ := exec.Command(gnu, "-u", pa, pb).Output()
			s := string(out)
			if n := strings.Count(s, "\n"); n >= 2 {
				s = s[strings.Index(s, "\n")+1:]
				s = s[strings.Index(s, "\n")+1:]
			}
			want = s
		} else if want == "" && c.a != c.b {
			continue // the long case is checked only against GNU diff
		}
		if got != want {
			t.Errorf("case %d: got\n%s\nwant\n%s", i, got, want)
		}
	}
}
