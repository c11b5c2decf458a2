package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestInteractiveFlags(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		color     string
		noHistory bool
		errIn     string
	}{
		{[]string{"--no-history"}, "", true, ""},
		{[]string{"--color=never"}, "never", false, ""},
		{[]string{"--color=always", "--no-history"}, "always", true, ""},
		{[]string{"--colour=auto"}, "auto", false, ""},
		{[]string{"--color"}, "always", false, ""},
		{[]string{"--color=sometimes"}, "", false, "invalid --color 'sometimes'"},
	} {
		var stderr bytes.Buffer
		o, st := parseArgs(tc.args, &stderr)
		if tc.errIn != "" {
			if st != 2 || !strings.Contains(stderr.String(), tc.errIn) {
				t.Errorf("%q: status %d, stderr %q", tc.args, st, stderr.String())
			}
			continue
		}
		if st != -1 || o.color != tc.color || o.noHistory != tc.noHistory {
			t.Errorf("%q: status %d, %+v", tc.args, st, o)
		}
	}
}

func TestColorWanted(t *testing.T) {
	var notTerminal bytes.Buffer
	t.Setenv("NO_COLOR", "")
	if colorWanted("auto", &notTerminal) {
		t.Error("auto coloured a stdout that is not a terminal")
	}
	if !colorWanted("always", &notTerminal) || colorWanted("never", &notTerminal) {
		t.Error("always/never not obeyed")
	}
	t.Setenv("NO_COLOR", "1")
	if !colorWanted("always", &notTerminal) {
		t.Error("--color=always must win over NO_COLOR")
	}
	for _, env := range [][2]string{{"", ""}, {"", "xterm"}, {"1", ""}, {"", "dumb"}, {"1", "dumb"}} {
		t.Setenv("NO_COLOR", env[0])
		t.Setenv("TERM", env[1])
		if got, want := noColorEnv(), env[0] != "" || env[1] == "dumb"; got != want {
			t.Errorf("NO_COLOR=%q TERM=%q: noColorEnv %v, want %v", env[0], env[1], got, want)
		}
	}
}

func TestMaxCommandsFlag(t *testing.T) {
	var stderr bytes.Buffer
	o, st := parseArgs([]string{"--max-commands", "5000", "--max-commands=7"}, &stderr)
	if st != -1 || o.maxCommands != 7 {
		t.Fatalf("status %d, options %+v", st, o)
	}
	for _, bad := range []string{"0", "-3", "many"} {
		stderr.Reset()
		if _, st := parseArgs([]string{"--max-commands", bad}, &stderr); st != 2 || !strings.Contains(stderr.String(), "invalid --max-commands '"+bad+"'") {
			t.Errorf("--max-commands %s: status %d, stderr %q", bad, st, stderr.String())
		}
	}
}
