package builtins_test

import (
	"context"
	"strings"
	"testing"
)

// Every expected value below was produced by GNU coreutils 9.1 expand and
// unexpand run with LC_ALL=C on the same input and arguments.
func TestExpandUnexpand(t *testing.T) {
	t.Parallel()
	runText(t, []textCase{
		{"a\tbc\tdef\tg\n  x        y   \t z\n\b\tq\n", []string{"expand"}, "a       bc      def     g\n  x        y     z\n\b        q\n", "", 0},
		{"a\tbc\tdef\tg\n  x        y   \t z\n\b\tq\n", []string{"expand", "-t", "4,/6"}, "a   bc      def   g\n  x        y       z\n\b    q\n", "", 0},
		{"a\tbc\tdef\tg\n  x        y   \t z\n\b\tq\n", []string{"expand", "-t", "4,+6"}, "a   bc    def   g\n  x        y     z\n\b    q\n", "", 0},
		{"a\tbc\tdef\tg\n  x        y   \t z\n\b\tq\n", []string{"expand", "-i", "-t3"}, "a\tbc\tdef\tg\n  x        y   \t z\n\b\tq\n", "", 0},
		{"\t \ta\tb\n", []string{"expand", "--initial", "-t2"}, "    a\tb\n", "", 0},
		{"a\tb\tc\td\te\n", []string{"expand", "-t", "2,5 9"}, "a b  c   d e\n", "", 0},
		{"a\tb\tc\td\te\n", []string{"expand", "-t", "2", "-t", "5,9"}, "a b  c   d e\n", "", 0},
		{"a\tb\tc\td\te\n", []string{"expand", "-2,5"}, "a b  c d e\n", "", 0},
		{"a\tb\tc\td\te\n", []string{"expand", "-12"}, "a           b           c           d           e\n", "", 0},
		{"a\tb\tc\td\te\n", []string{"expand", "--tabs=3"}, "a  b  c  d  e\n", "", 0},
		{"a\tb\tc\td\te\n", []string{"expand", "-t", "/3"}, "a  b  c  d  e\n", "", 0},
		{"a\tb\tc\td\te\n", []string{"expand", "-t", "+3"}, "a  b  c  d  e\n", "", 0},
		{"a\tb\tc\td\te\n", []string{"expand", "-t", ""}, "a       b       c       d       e\n", "", 0},
		{"a\tb\tc\td\te\n", []string{"expand", "-t", ",,3,,"}, "a  b  c  d  e\n", "", 0},
		{"a\b\b\tb\tx\b\tc\n", []string{"expand", "-t", "3,6,9"}, "a\b\b   b  x\b   c\n", "", 0},
		{"no newline\tend", []string{"expand"}, "no newline      end", "", 0},
		{"x\t\xff\xfe\ty\n\t\t\n", []string{"expand", "-t1"}, "x \xff\xfe y\n  \n", "", 0},
		{"x\tb\n", []string{"expand", "-t", "0"}, "", "expand: tab size cannot be 0\n", 1},
		{"x\tb\n", []string{"expand", "-t", "4,2"}, "", "expand: tab sizes must be ascending\n", 1},
		{"x\tb\n", []string{"expand", "-t", "4,4"}, "", "expand: tab sizes must be ascending\n", 1},
		{"x\tb\n", []string{"expand", "-t", "a'b"}, "", "expand: tab size contains invalid character(s): 'a\\'b'\n", 1},
		{"x\tb\n", []string{"expand", "-t", "1\x01\\"}, "", "expand: tab size contains invalid character(s): '\\001\\\\'\n", 1},
		{"x\tb\n", []string{"expand", "-t", "1+2/3"}, "", "expand: '+' specifier not at start of number: '+2/3'\nexpand: '/' specifier not at start of number: '/3'\n", 1},
		{"x\tb\n", []string{"expand", "-t", "/2,/3"}, "", "expand: '/' specifier only allowed with the last value\n", 1},
		{"x\tb\n", []string{"expand", "-t", "+2,+3"}, "", "expand: '+' specifier only allowed with the last value\n", 1},
		{"x\tb\n", []string{"expand", "-t", "+2,/3"}, "", "expand: '/' specifier is mutually exclusive with '+'\n", 1},
		{"x\tb\n", []string{"expand", "-t", "99999999999999999999999,4x"}, "", "expand: tab stop is too large '99999999999999999999999'\nexpand: tab size contains invalid character(s): 'x'\n", 1},
		{"x\tb\n", []string{"expand", "-t", "18446744073709551616"}, "", "expand: tab stop is too large '18446744073709551616'\n", 1},
		{"x\tb\n", []string{"expand", "-x"}, "", "expand: invalid option -- 'x'\nTry 'expand --help' for more information.\n", 1},
		{"x\tb\n", []string{"expand", "--tabs"}, "", "expand: option '--tabs' requires an argument\nTry 'expand --help' for more information.\n", 1},
		{"        a\n    \t  b\n               c\n1234567 x\n1234567  x\n12345678       y\n\t \t z   \n   ", []string{"unexpand"}, "\ta\n\t  b\n\t       c\n1234567 x\n1234567  x\n12345678       y\n\t\t z   \n   ", "", 0},
		{"        a\n    \t  b\n               c\n1234567 x\n1234567  x\n12345678       y\n\t \t z   \n   ", []string{"unexpand", "-a"}, "\ta\n\t  b\n\t       c\n1234567 x\n1234567\t x\n12345678       y\n\t\t z   \n   ", "", 0},
		{"        a\n    \t  b\n               c\n1234567 x\n1234567  x\n12345678       y\n\t \t z   \n   ", []string{"unexpand", "-t4"}, "\t\ta\n\t\t  b\n\t\t\t   c\n1234567 x\n1234567\t x\n12345678\t   y\n\t\t z\t \n   ", "", 0},
		{"        a\n    \t  b\n               c\n1234567 x\n1234567  x\n12345678       y\n\t \t z   \n   ", []string{"unexpand", "-t4", "--first-only"}, "\t\ta\n\t\t  b\n\t\t\t   c\n1234567 x\n1234567  x\n12345678       y\n\t\t z   \n   ", "", 0},
		{"        a\n    \t  b\n               c\n1234567 x\n1234567  x\n12345678       y\n\t \t z   \n   ", []string{"unexpand", "-a", "-t", "3,/2"}, "\t\t\t\ta\n\t\t\t\tb\n\t\t\t\t\t\t\t c\n1234567 x\n1234567\t x\n12345678\t\t\t y\n\t\t\t z\t \n\t", "", 0},
		{"        a\n    \t  b\n               c\n1234567 x\n1234567  x\n12345678       y\n\t \t z   \n   ", []string{"unexpand", "-a", "-t", "3,+5"}, "\t\ta\n\t\t  b\n\t\t\t  c\n1234567 x\n1234567\t x\n12345678\t  y\n\t\t z\t\n\t", "", 0},
		{"        a\n    \t  b\n               c\n1234567 x\n1234567  x\n12345678       y\n\t \t z   \n   ", []string{"unexpand", "-t", "2,5,9"}, "\t\t   a\n\t\t  b\n\t\t\t      c\n1234567 x\n1234567\tx\n12345678       y\n\t\t z\t \n\t ", "", 0},
		{"        a\n    \t  b\n               c\n1234567 x\n1234567  x\n12345678       y\n\t \t z   \n   ", []string{"unexpand", "-3"}, "\t\t  a\n\t\t  b\n\t\t\t\t\tc\n1234567 x\n1234567  x\n12345678       y\n\t\t z   \n\t", "", 0},
		{"        a\n    \t  b\n               c\n1234567 x\n1234567  x\n12345678       y\n\t \t z   \n   ", []string{"unexpand", "-1,2", "-a"}, "\t\t      a\n\t\t  \t  b\n\t\t             c\n1234567 x\n1234567  x\n12345678       y\n\t\t\t z   \n\t\t ", "", 0},
		{"a  b   c    d     e\n", []string{"unexpand", "-a", "-t1"}, "a\t\tb\t\t\tc\t\t\t\td\t\t\t\t\te\n", "", 0},
		{"a  b   c    d     e\n", []string{"unexpand", "-a", "-t2"}, "a\t b\t c\t\td\t\t\te\n", "", 0},
		{"ab \b  c  \b\b   d\n", []string{"unexpand", "-a", "-t", "4"}, "ab \b\tc  \b\b\td\n", "", 0},
		{"  x\n", []string{"unexpand", "-t", "0"}, "", "unexpand: tab size cannot be 0\n", 1},
		{"  x\n", []string{"unexpand", "-3", "-t", "8"}, "", "unexpand: tab sizes must be ascending\n", 1},
		{"  x\n", []string{"unexpand", "-99999999999999999999999"}, "", "unexpand: tab stop value is too large\n", 1},
		{"  x\n", []string{"unexpand", "-t", "3x"}, "", "unexpand: tab size contains invalid character(s): 'x'\n", 1},
		{"  x\n", []string{"unexpand", "-i"}, "", "unexpand: invalid option -- 'i'\nTry 'unexpand --help' for more information.\n", 1},
	})
}

// Files are read as one stream (a line may continue into the next file);
// a missing file is reported and the others are still processed. Checked
// against GNU coreutils 9.1.
func TestExpandFiles(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a": "ab\tc", "b": "d\te\n", "s": "    x  \t", "u": "   y\n"}
	for _, c := range []struct {
		args               []string
		stdin, out, errout string
		status             int
	}{
		{[]string{"expand", "-t3", "a", "nope", "b"}, "", "ab cd e\n", "expand: nope: No such file or directory\n", 1},
		{[]string{"unexpand", "-t", "2", "a", "b"}, "", "ab\tcd\te\n", "", 0},
		{[]string{"unexpand", "-t4", "s", "-", "u"}, " \t", "\tx\t\t   y\n", "", 0},
		{[]string{"unexpand", "s", "nope"}, "", "    x  \t", "unexpand: nope: No such file or directory\n", 1},
		{[]string{"expand", "-t2", "-", "a"}, "\tq", "  qab c", "", 0},
	} {
		r := runCmd(t, files, c.stdin, c.args...)
		if r.stdout != c.out || r.stderr != c.errout || r.status != c.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", c.args, r.stdout, r.stderr, r.status, c.out, c.errout, c.status)
		}
	}
}

func TestExpandStops(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("a\tb    c\n", 100000)
	for _, cmd := range []string{"expand", "unexpand"} {
		if st, msg := runTextEnv(t, context.Background(), strings.NewReader(in), pipeErrWriter{}, cmd); st != 1 || msg != "" {
			t.Errorf("%s broken pipe: %d %q", cmd, st, msg)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out strings.Builder
		if st, msg := runTextEnv(t, ctx, strings.NewReader(in), &out, cmd); st != 1 || msg != "" || out.Len() != 0 {
			t.Errorf("%s cancelled: %d %q, %d bytes out", cmd, st, msg, out.Len())
		}
	}
}

// A large input goes through in pieces: the result is the same as GNU's on
// a line that straddles the 64 KiB read buffer.
func TestExpandLongLine(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("ab\t", 30000) + "\n"
	r := runCmd(t, nil, line, "expand", "-t4")
	if want := strings.Repeat("ab  ", 30000) + "\n"; r.stdout != want || r.status != 0 {
		t.Errorf("expand long line: %d bytes, status %d", len(r.stdout), r.status)
	}
	in := strings.Repeat("ab      ", 30000) + "\n"
	r = runCmd(t, nil, in, "unexpand", "-a")
	if want := strings.Repeat("ab\t", 30000) + "\n"; r.stdout != want || r.status != 0 {
		t.Errorf("unexpand long line: %d bytes, status %d", len(r.stdout), r.status)
	}
}
