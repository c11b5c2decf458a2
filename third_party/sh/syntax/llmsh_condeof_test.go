package syntax_test

import (
	"errors"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/third_party/sh/syntax"
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

// TestCondOperandErrors checks bash's words for an operator token where
// [[ wants an operand, and the marks of an error inside a substitution:
// Status 1 for a conditional command's, InSubst unless the end of the
// text (llmsh).
func TestCondOperandErrors(t *testing.T) {
	for _, tc := range []struct {
		src, text       string
		status          uint8
		inSubst, isCond bool
	}{
		{"[[ a == ; ]]\n", "unexpected argument `;' to conditional binary operator", 0, false, true},
		{"[[ -n ) ]]\n", "unexpected argument `)' to conditional unary operator", 0, false, true},
		{"[[ a =~ > ]]\n", "syntax error in conditional expression: unexpected token `>'", 0, false, true},
		{"x=$([[ a < & ]])\n", "unexpected argument `&' to conditional binary operator", 1, true, true},
		{"cat <([[ -f | ]])\n", "unexpected argument `|' to conditional unary operator", 1, true, true},
		{"x=$(if)\n", "", 0, true, false},
		{"x=$(echo \"\n", "", 0, false, false},
	} {
		_, err := NewParser().Parse(strings.NewReader(tc.src), "")
		var perr ParseError
		if !errors.As(err, &perr) {
			t.Errorf("%q: got %v, want a ParseError", tc.src, err)
			continue
		}
		if perr.Cond != tc.isCond || tc.isCond && perr.Text != tc.text || perr.Status != tc.status || perr.InSubst != tc.inSubst {
			t.Errorf("%q: got %+v, want Cond %v, %q, Status %d, InSubst %v", tc.src, perr, tc.isCond, tc.text, tc.status, tc.inSubst)
		}
	}
}
