package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestTimeoutEndsTextCommands: a time limit ends a builtin that reads an
// endless input, whether it streams (cat, tr) or must buffer or count to
// the end (sort, tac, wc, md5sum): each loop honours the context, and
// the command ends with status 124, never a hang or a stack trace.
//
// The commands run one after the other in one llmsh, each under
// `timeout 0.1` (each spins a CPU or two until its limit): 24 runs of
// llmsh with --timeout 300ms took 9.5 s of CPU, mostly spinning, this
// takes about 3 (session 25). The limit starts when the command does,
// so a loaded machine cannot run out the time before the pipeline has
// started, as it could a whole process's. A loop that ignores its
// context hangs its timeout, and llmsh's own --timeout ends the run
// without the statuses that follow. The CLI's --timeout ending such a
// pipeline is the last case.
func TestTimeoutEndsTextCommands(t *testing.T) {
	t.Parallel()
	cmds := []string{
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
	}
	var script strings.Builder
	for i, c := range cmds {
		fmt.Fprintf(&script, "timeout 0.1 sh -c '%s'; echo \"<%d:$?>\"\n", strings.ReplaceAll(c, "'", `'\''`), i)
	}
	out, errs, code := runLlmsh(t, "", "-q", "--timeout", "60s", "-c", script.String())
	got := regexp.MustCompile(`<(\d+):(\d+)>`).FindAllStringSubmatch(out, -1)
	for i, c := range cmds {
		switch {
		case i >= len(got):
			t.Errorf("%s: no status (the run ended: status %d, stderr %q)", c, code, errs)
		case got[i][1] != fmt.Sprint(i) || got[i][2] != "124":
			t.Errorf("%s: %s, want <%d:124>", c, got[i][0], i)
		}
	}
	if code != 0 || errs != "" {
		t.Errorf("status %d, stderr %q", code, errs)
	}
	t.Run("--timeout", func(t *testing.T) {
		out, errs, code := runLlmsh(t, "", "-q", "--timeout", "300ms", "-c", "yes | tac")
		if code != 124 || !strings.Contains(errs, "timed out") || strings.Contains(errs, "goroutine ") {
			t.Fatalf("out=%q err=%q code=%d; want status 124 and llmsh's timed-out message", out, errs, code)
		}
	})
}
