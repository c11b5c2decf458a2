package internal

import "testing"

func TestBashPattern(t *testing.T) {
	const (
		file = PatFilename
		ext  = PatExtGlob
	)
	tests := []struct {
		pat, s string
		mode   PatMode
		want   bool
	}{
		{"*", ".git", file, false},
		{"*", ".git", file | PatDotGlob, true},
		{"!(keep)", ".git", file | ext, false},
		{"!(keep)", "a", file | ext, true},
		{"!(keep)", "keep", file | ext, false},
		{"!(keep)", ".git", file | ext | PatDotGlob, true},
		{"@(.h|a)", ".h", file | ext, true},
		{"?h", ".h", file, false},
		{"[.]h", ".h", file, false},
		{".*", ".h", file, true},
		{"*(a|b)c", "ababc", ext, true},
		{"+(a)", "", ext, false},
		{"*.!(c)", "a.b.c", ext, true},
		{"*.!(c)", "a.c", ext, false},
		{"[!a-c]x", "dx", 0, true},
		{"[]]", "]", 0, true},
		{"[a", "[a", 0, true},
		{"[[:digit:]]*", "1a", 0, true},
		{`\*`, "*", 0, true},
		{"K*", "keep", PatNoCase, true},
		{"+(x", "+(x", ext, true},
		{"[\xff]", "\xfe", 0, false}, // bytes that are not UTF-8 are distinct
		{"[\xff]", "\xff", 0, true},
		{"\xfe*", "\xffx", 0, false},
		{"\xfe*", "\xfex", 0, true},
		{"?", "\xfe", 0, true},
		{"[!\xfe]", "\xff", 0, true},
		{"*(\xfe)", "\xfe\xfe", ext, true},
	}
	for _, tc := range tests {
		if got := CompileBashPattern(tc.pat, tc.mode).Match(tc.s); got != tc.want {
			t.Errorf("%q %v match %q: got %v, want %v", tc.pat, tc.mode, tc.s, got, tc.want)
		}
	}
}
