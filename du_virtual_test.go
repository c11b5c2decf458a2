package llmsh_test

import (
	"testing"

	"github.com/llmsh/llmsh"
)

// du counts a file met twice once, by its identity, or by its path for a
// virtual file, which has none: operands inside another, or given twice.
func TestDuVirtualFilesOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := newSession(t, llmsh.Options{Outputs: []string{dir}, Dir: dir})
	run(t, s, `mkdir -p /tmp/vd/s; printf hello > /tmp/vd/s/f; printf x > /tmp/vd/g`)
	for _, tc := range []struct{ script, want string }{
		{`du -a --apparent-size /tmp/vd /tmp/vd/s /tmp/vd/g`, "1\t/tmp/vd/g\n1\t/tmp/vd/s/f\n5\t/tmp/vd/s\n9\t/tmp/vd\n"},
		{`du -s /tmp/vd /tmp/vd`, "16\t/tmp/vd\n"},
		{`du -c /tmp/vd/s /tmp/vd`, "8\t/tmp/vd/s\n8\t/tmp/vd\n16\ttotal\n"},
		{`du -l -c /tmp/vd/s /tmp/vd`, "8\t/tmp/vd/s\n8\t/tmp/vd/s\n16\t/tmp/vd\n24\ttotal\n"},
	} {
		if res := run(t, s, tc.script); res.Stdout != tc.want || res.Stderr != "" || res.ExitCode != 0 {
			t.Errorf("%s: got %+v, want stdout %q", tc.script, res, tc.want)
		}
	}
}
