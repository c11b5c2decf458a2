package gnu_test

import (
	"testing"
	"unicode/utf8"

	. "github.com/llmsh/llmsh/builtins/internal/gnu"
)

// The escapes of GNU echo -e and of GNU stat --printf, as two commands
// configure them.
var (
	echoEscapes = Escapes{Letters: `abefnrtv\`, Octal: 3, Octal0: 3, Hex: 2, Stop: 'c'}
	statEscapes = Escapes{Letters: `abefnrtv\"`, Octal: 3, Hex: 2, DropUnknown: true}
)

// TestDecode's expected values are what /usr/bin/echo -ne and stat
// --printf (GNU coreutils 9.1) print for each input.
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		e        *Escapes
		in, want string
		stop     bool
	}{
		{&echoEscapes, `a\tb`, "a\tb", false},
		{&echoEscapes, `\x41\x4g\xz`, "A\x04g\\xz", false},
		{&echoEscapes, `\0101\101\1012`, "AAA2", false},
		{&echoEscapes, `a\cb`, "a", true},
		{&echoEscapes, `\q\z\\`, `\q\z\`, false},
		{&echoEscapes, `\e\E`, "\x1b\\E", false},
		{&echoEscapes, `\'\"\?`, `\'\"\?`, false},
		{&echoEscapes, `\u00e9`, `\u00e9`, false},
		{&echoEscapes, `\`, `\`, false},
		{&echoEscapes, `\08`, "\x008", false},
		{&echoEscapes, `\\\n`, "\\\n", false},
		{&statEscapes, `a\tb`, "a\tb", false},
		{&statEscapes, `\x41\x4g\xz`, "A\x04gxz", false},
		{&statEscapes, `\0101\101\1012`, "\b1AA2", false},
		{&statEscapes, `a\cb`, "acb", false},
		{&statEscapes, `\q\z\\`, `qz\`, false},
		{&statEscapes, `\e\E`, "\x1bE", false},
		{&statEscapes, `\'\"\?`, `'"?`, false},
		{&statEscapes, `\`, `\`, false},
		{&statEscapes, `\08`, "\x008", false},
		{&statEscapes, `\\z`, `\z`, false},
	} {
		got, stop := tc.e.Decode(tc.in)
		if got != tc.want || stop != tc.stop {
			t.Errorf("%q: got %q, %v; want %q, %v", tc.in, got, stop, tc.want, tc.stop)
		}
	}
}

// TestNext checks one escape at a time, with bash's printf \u.
func TestNext(t *testing.T) {
	e := Escapes{Letters: `abeEfnrtv\"'?`, Octal: 3, Hex: 2, Unicode: func(dst []byte, v uint32) []byte { return utf8.AppendRune(dst, rune(v)) }}
	for _, tc := range []struct {
		in   string
		want string
		n    int
	}{
		{"u00e9x", "é", 5},
		{"U0001F600", "😀", 9},
		{"ux", "", 0},
		{"x", "", 0},
		{"7777", "\xff", 3},
		{"z", "", 0},
		{"?", "?", 1},
		{"", "", 0},
	} {
		got, n, _ := e.Next(nil, tc.in)
		if string(got) != tc.want || n != tc.n {
			t.Errorf("%q: got %q, %d; want %q, %d", tc.in, got, n, tc.want, tc.n)
		}
	}
}

func TestUnknownHook(t *testing.T) {
	var seen []byte
	e := statEscapes
	e.Unknown = func(c byte) { seen = append(seen, c) }
	e.Decode(`\q\n\z`)
	if string(seen) != "qz" {
		t.Errorf("Unknown saw %q, want \"qz\"", seen)
	}
}
