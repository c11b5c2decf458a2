package builtins_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// Expected values checked against GNU head 9.1 (LC_ALL=C).
func TestHead(t *testing.T) {
	t.Parallel()
	runLines(t, []linesCase{
		{nil, []string{"head"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "", 0},
		{nil, []string{"head"}, "a\nb", "a\nb", "", 0},
		{nil, []string{"head", "-n", "3"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n", "", 0},
		{nil, []string{"head", "-n", "1", "-2"}, "a\n", "", "head: invalid trailing option -- 2\nTry 'head --help' for more information.\n", 1},
		{nil, []string{"head", "-n3"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n", "", 0},
		{nil, []string{"head", "--lines=2"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n", "", 0},
		{nil, []string{"head", "-n", "-3"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "", 0},
		{nil, []string{"head", "-n", "-3"}, "a\nb\nc\nd", "a\n", "", 0},
		{nil, []string{"head", "-n", "-0"}, "a\nb", "a\nb", "", 0},
		{nil, []string{"head", "-n", "-20"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "", 0},
		{nil, []string{"head", "-n", "0"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "", 0},
		{nil, []string{"head", "-n", "+2"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n", "", 0},
		{nil, []string{"head", "-c", "5"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3", "", 0},
		{nil, []string{"head", "-c", "-5"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n1", "", 0},
		{nil, []string{"head", "-c", "-100"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "", 0},
		{nil, []string{"head", "-c", "1k"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", 0},
		{nil, []string{"head", "-c", "1KiB"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", 0},
		{nil, []string{"head", "-5"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n4\n5\n", "", 0},
		{nil, []string{"head", "-3c"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2", "", 0},
		{nil, []string{"head", "-2v"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "==> standard input <==\n1\n2\n", "", 0},
		{nil, []string{"head", "-2x"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "head: invalid trailing option -- x\nTry 'head --help' for more information.\n", 1},
		{nil, []string{"head", "-v", "-n1"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "==> standard input <==\n1\n", "", 0},
		{nil, []string{"head", "-n", "x"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "head: invalid number of lines: 'x'\n", 1},
		{nil, []string{"head", "-n", "-x"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "head: invalid number of lines: 'x'\n", 1},
		{nil, []string{"head", "-c", "1x"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "head: invalid number of bytes: '1x'\n", 1},
		{nil, []string{"head", "-n", "99999999999999999999999"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "head: invalid number of lines: '99999999999999999999999': Value too large for defined data type\n", 1},
		{nil, []string{"head", "-c", "1Y"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "head: invalid number of bytes: '1Y': Value too large for defined data type\n", 1},
		{nil, []string{"head", "-n"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", "head: option requires an argument -- 'n'\nTry 'head --help' for more information.\n", 1},
		{nil, []string{"head", "-z", "-n1"}, "a\x00b\x00", "a\x00", "", 0},
		{nil, []string{"head", "-n", "-1", "-z"}, "a\x00b\x00c", "a\x00b\x00", "", 0},
		{nil, []string{"head", "-q", "-n1", "-", "-"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n", "", 0},
		{nil, []string{"head", "-n1", "-", "-"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "==> standard input <==\n1\n\n==> standard input <==\n", "", 0},
		{nil, []string{"head", "--bytes=-2"}, "abc", "a", "", 0},
	})
}

// TestHeadGivesBack: on a seekable stdin (a redirected file), head -n
// leaves the offset just past the lines it printed, as GNU head does, so
// that the next reader of the descriptor starts there; -c reads no more
// than it prints.
func TestHeadGivesBack(t *testing.T) {
	t.Parallel()
	in := strings.NewReader("1\n2\n3\n4\n")
	var out bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: []string{"head", "-n1", "-", "-"}, Stdin: in, Stdout: &out, Stderr: io.Discard}
	b, _ := Lookup("head")
	if st := Run(b, env); st != 0 || out.String() != "==> standard input <==\n1\n\n==> standard input <==\n2\n" {
		t.Fatalf("head -n1 - - = %d %q", st, out.String())
	}
	if rest, _ := io.ReadAll(in); string(rest) != "3\n4\n" {
		t.Errorf("left %q, want %q", rest, "3\n4\n")
	}
	in = strings.NewReader("abcdef")
	out.Reset()
	env = &Env{Ctx: context.Background(), Args: []string{"head", "-c2"}, Stdin: struct{ io.Reader }{in}, Stdout: &out, Stderr: io.Discard}
	if st := Run(b, env); st != 0 || out.String() != "ab" {
		t.Fatalf("head -c2 = %d %q", st, out.String())
	}
	if rest, _ := io.ReadAll(in); string(rest) != "cdef" {
		t.Errorf("head -c2 left %q, want %q", rest, "cdef")
	}
}
