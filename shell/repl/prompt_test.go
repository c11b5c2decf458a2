package repl

import (
	"strings"
	"testing"
)

func TestExpandPS(t *testing.T) {
	st := promptState{dir: "/home/llmsh/src/app", home: "/home/llmsh", version: "9.9"}
	for _, tc := range []struct{ ps, want string }{
		{`\u@\h:\w\$ `, "llmsh@llmsh:~/src/app$ "},
		{`[\W]`, "[app]"},
		{`\s-\v \\ \q`, `llmsh-9.9 \ \q`},
		{`\[\e[1m\]x\[\e[0m\]`, "\x1b[1mx\x1b[0m"},
		{`a\nb`, "a\nb"},
		{`trailing\`, `trailing\`},
	} {
		if got := expandPS(tc.ps, st); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.ps, got, tc.want)
		}
	}
	home := promptState{dir: "/home/llmsh", home: "/home/llmsh"}
	if got := expandPS(`\w \W`, home); got != "~ ~" {
		t.Errorf("at home: %q", got)
	}
	root := promptState{dir: "/", home: "/home/llmsh"}
	if got := expandPS(`\w \W`, root); got != "/ /" {
		t.Errorf("at /: %q", got)
	}
	// A control character of the directory shows as ^X, as bash 5.2's
	// sh_strvis; \e of PS1 itself stays an escape.
	odd := promptState{dir: "/d/x\x1b[31my/\x7fz\tq", home: "/home/llmsh"}
	if got := expandPS(`\w|\W|\e`, odd); got != "/d/x^[[31my/^?z\tq|^?z\tq|\x1b" {
		t.Errorf("control characters: %q", got)
	}
	if got := primaryPrompt(odd, newPalette(false)); got != "llmsh:/d/x^[[31my/^?z\tq$ " {
		t.Errorf("default prompt, control characters: %q", got)
	}
	// A directory that only begins like $HOME is not abbreviated.
	if got := tildeDir("/home/llmshx", "/home/llmsh"); got != "/home/llmshx" {
		t.Errorf("tildeDir: %q", got)
	}
}

func TestPrimaryPrompt(t *testing.T) {
	plain := newPalette(false)
	st := promptState{dir: "/data", home: "/home/llmsh"}
	if got := primaryPrompt(st, plain); got != "llmsh:/data$ " {
		t.Errorf("got %q", got)
	}
	st.status = 2
	if got := primaryPrompt(st, plain); got != "llmsh:/data [2]$ " {
		t.Errorf("got %q", got)
	}
	coloured := primaryPrompt(st, newPalette(true))
	if !strings.Contains(coloured, "\x1b[31;1m[2]") {
		t.Errorf("status not red: %q", coloured)
	}
	st.ps = `\W> `
	if got := primaryPrompt(st, newPalette(true)); got != "data> " {
		t.Errorf("PS1: %q", got)
	}
	if got := continuationPrompt(promptState{}); got != "> " {
		t.Errorf("PS2 default: %q", got)
	}
}
