package main

import (
	"strings"
	"testing"
)

// TestTimeoutEndsTextCommands: --timeout ends a run whose builtin reads an
// endless input, whether it streams (cat, tr) or must buffer or count to
// the end (sort, tac, wc, md5sum): each loop honours the context, and the
// run ends with status 124, never a hang or a stack trace.
func TestTimeoutEndsTextCommands(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{
		"yes | cat >/dev/null",
		"yes | tac",
		"yes | rev >/dev/null",
		"yes | nl >/dev/null",
		"yes | tail -n 1",
		"yes | head -n -1 >/dev/null",
		"yes | wc -l",
		"yes | grep -c y",
		"yes | sed -n '$p'",
		"yes | sort",
		"yes | sort -m - >/dev/null",
		"yes | uniq -c",
		"yes | cut -c1 >/dev/null",
		"yes | tr -d y",
		"yes | paste -s >/dev/null",
		"yes | fold -w 3 >/dev/null",
		"yes | expand >/dev/null",
		"yes | base64 >/dev/null",
		"yes | od -An -x >/dev/null",
		"yes | md5sum",
		"yes | sha256sum",
		"yes | tee /dev/null >/dev/null",
		"cat /dev/zero | wc -c",
		"seq inf >/dev/null",
	} {
		t.Run(cmd, func(t *testing.T) {
			t.Parallel()
			out, errs, code := runLlmsh(t, "", "-q", "--timeout", "300ms", "-c", cmd)
			if code != 124 || !strings.Contains(errs, "timed out") || strings.Contains(errs, "goroutine ") {
				t.Fatalf("out=%q err=%q code=%d; want status 124 and llmsh's timed-out message", out, errs, code)
			}
		})
	}
}
