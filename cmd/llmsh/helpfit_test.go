package main

import (
	"bytes"
	"strings"
	"testing"
)

// llmsh's own help texts are laid out by hand: every line fits in 80
// columns, so the help renderer never re-wraps one (a re-wrapped line
// left a word alone on the next: "--timeout" then "and").
func TestOwnHelpFits(t *testing.T) {
	texts := map[string]string{
		"usageSummary": usageSummary, "usageEpilog": usageEpilog, "serveSummary": serveSummary,
		"serveEpilog": serveEpilog, "mcpSummary": mcpSummary, "mcpEpilog": mcpEpilog, "testSummary": testSummary,
	}
	for name, text := range texts {
		for _, line := range strings.Split(text, "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("%s: a line of %d columns: %q", name, n, line)
			}
		}
	}
	for _, args := range [][]string{{"--help"}, {"serve", "--help"}, {"mcp", "--help"}, {"session", "--help"}, {"test", "--help"}} {
		var out, errb bytes.Buffer
		if st := run(args, strings.NewReader(""), &out, &errb); st != 0 {
			t.Errorf("llmsh %q: status %d, stderr %q", args, st, errb.String())
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("llmsh %q: a line of %d columns: %q", args, n, line)
			}
		}
	}
	var out bytes.Buffer
	run([]string{"--help"}, strings.NewReader(""), &out, &out)
	if !strings.Contains(out.String(), usageEpilog) {
		t.Errorf("llmsh --help re-wrapped its limits paragraph:\n%s", out.String())
	}
}
