package syntax

import (
	"errors"
	"strings"
	"testing"
)

// TestCondEOF checks bash's error for a conditional command that the end
// of the text cuts where it wants an operand: the error is Incomplete (an
// interactive reader asks for more) and names each ( left open with its
// line's offset from the error's (llmsh).
func TestCondEOF(t *testing.T) {
	for _, tc := range []struct{ src, text string }{
		{"[[ a &&\n", "unexpected token `EOF' in conditional command"},
		{"[[ a ||\n", "unexpected token `EOF' in conditional command"},
		{"[[ !\n", "unexpected token `EOF' in conditional command"},
		{"[[ (\n", "unexpected token `EOF' in conditional command\nexpected `)'"},
		{"[[ (\n (\n", "unexpected token `EOF' in conditional command\nexpected `)'\n\x00-1\x00expected `)'"},
		{"[[ a == b ]] && [[ c ||\n", "unexpected token `EOF' in conditional command"},
	} {
		_, err := NewParser().Parse(strings.NewReader(tc.src), "")
		var perr ParseError
		if !errors.As(err, &perr) {
			t.Errorf("%q: got %v, want a ParseError", tc.src, err)
			continue
		}
		if !perr.Cond || perr.Text != tc.text || !IsIncomplete(err) {
			t.Errorf("%q: got %+v, want Cond, Incomplete and %q", tc.src, perr, tc.text)
		}
	}
	// The end of a complete [[ … ]] list is no such error.
	if _, err := NewParser().Parse(strings.NewReader("[[ a &&\n b ]]\n"), ""); err != nil {
		t.Errorf("[[ a && newline b ]]: %v", err)
	}
}
