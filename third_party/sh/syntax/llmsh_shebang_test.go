package syntax_test

import (
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// TestMinifyKeepsShebang: the minifying printer drops comments but a
// shell's shebang on the first line (fileutil.Shebang's rule, compiled on
// first use in this fork), and only that.
func TestMinifyKeepsShebang(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"#!/bin/bash\n# note\necho hi\n", "#!/bin/bash\necho hi\n"},
		{"#!/usr/bin/env  sh\necho hi # x\n", "#!/usr/bin/env  sh\necho hi\n"},
		{"#!/usr/bin/python\necho hi\n", "echo hi\n"},
		{"#!/bin/bashful\necho hi\n", "echo hi\n"},
		{"echo hi\n#!/bin/sh\n", "echo hi\n"},
	} {
		f, err := syntax.NewParser(syntax.KeepComments(true)).Parse(strings.NewReader(c.in), "")
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		var b strings.Builder
		if err := syntax.NewPrinter(syntax.Minify(true)).Print(&b, f); err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if b.String() != c.want {
			t.Errorf("minified %q = %q, want %q", c.in, b.String(), c.want)
		}
	}
}
