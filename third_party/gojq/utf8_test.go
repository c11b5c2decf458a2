package gojq_test

import (
	"testing"

	"github.com/llmsh/llmsh/third_party/gojq"
)

// TestValidUTF8 checks ValidUTF8 against what jq 1.7.1 prints for these
// bytes read with -R (jq -R . on a file holding them).
func TestValidUTF8(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain é ✓ 😀", "plain é ✓ 😀"},
		{"a\xe9e\xffb", "a\ufffde\ufffdb"},
		{"\xff\xff", "\ufffd\ufffd"},
		{"x\xe9", "x\ufffd"},
		{"x\xf0\x9f\x98", "x\ufffd"},
		{"\xe9e", "\ufffd"}, // cut short by the end: the rest goes
		{"\xf0\x9f\x98x", "\ufffdx"},
		{"\xc0\xaf", "\ufffd\ufffd"},
		{"\xe0\x80\xaf!", "\ufffd!"},
		{"\xed\xa0\x80!", "\ufffd!"},
		{"\xf4\x90\x80\x80!", "\ufffd!"},
		{"\x80a", "\ufffda"},
		{"\xef\xbf\xbd", "\ufffd"},
	} {
		if got := gojq.ValidUTF8(c.in); got != c.want {
			t.Errorf("ValidUTF8(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
