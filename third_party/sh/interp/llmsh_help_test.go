// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/third_party/sh/interp"
)

// TestHelpNotesWidth: llmsh's note under bash's text of help NAME keeps
// within bash's 80 columns, each line indented four spaces as bash's.
func TestHelpNotesWidth(t *testing.T) {
	for name, note := range ForTests.HelpNotes() {
		text := ForTests.HelpText(name)
		_, tail, ok := strings.Cut(text, "    \n    llmsh: ")
		if !ok {
			t.Errorf("%s: no note paragraph in %q", name, text)
			continue
		}
		words := strings.Fields(note)
		if got := strings.Fields("llmsh: " + tail); strings.Join(got, " ") != strings.Join(words, " ") {
			t.Errorf("%s: note %q printed as %q", name, note, tail)
		}
		for _, l := range strings.Split(strings.TrimSuffix("    llmsh: "+tail, "\n"), "\n") {
			if len(l) > 80 || !strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "     ") {
				t.Errorf("%s: note line %q", name, l)
			}
		}
	}
}
