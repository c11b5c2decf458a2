package syntax_test

import (
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// TestCRLFQuoted: a carriage return before a newline is kept inside
// single, double and $'…' quotes and in here-documents' bodies, as bash
// keeps it, and dropped elsewhere, so that a CRLF script still parses (a
// delimiter line ending in CR ends its here-document).
func TestCRLFQuoted(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"echo 'a\r\nb'\r\n", "echo 'a\r\nb'\n"},
		{"echo \"a\r\nb\"\r\n", "echo \"a\r\nb\"\n"},
		{"echo $'a\r\nb'\r\n", "echo $'a\r\nb'\n"},
		{"echo '\r\nb'\"\r\n\"x\r\n", "echo '\r\nb'\"\r\n\"x\n"},
		{"cat <<EOF\r\nx\r\nEOF\r\necho y\r\n", "cat <<EOF\nx\r\nEOF\necho y\n"},
		{"cat <<'EOF'\r\nx\r\nEOF\r\n", "cat <<'EOF'\nx\r\nEOF\n"},
		{"if true; then\r\n  echo a\r\nfi\r\n", "if true; then\n\techo a\nfi\n"},
		{"echo 'a'\r\n", "echo 'a'\n"},
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader(c.in), "")
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		var b strings.Builder
		if err := syntax.NewPrinter().Print(&b, f); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%q printed %q, want %q", c.in, b.String(), c.want)
		}
	}
}
