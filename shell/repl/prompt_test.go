package repl

import (
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
	// The escapes fatih/color wrote, which llmsh used before issue 21: each
	// colour ends with its own reset.
	coloured := primaryPrompt(st, newPalette(true))
	if want := "llmsh:\x1b[34;1m/data\x1b[0;22m \x1b[31;1m[2]\x1b[0;22m$ "; coloured != want {
		t.Errorf("coloured prompt %q, want %q", coloured, want)
	}
	on := newPalette(true)
	if got := on.err.Sprintf("%d-%s", 1, "x") + on.note.Sprint("n") + on.bold.Sprint("b"); got != "\x1b[31m1-x\x1b[0m\x1b[2mn\x1b[22m\x1b[1mb\x1b[22m" {
		t.Errorf("colours: %q", got)
	}
	st.ps = `\W> `
	if got := primaryPrompt(st, newPalette(true)); got != "data> " {
		t.Errorf("PS1: %q", got)
	}
	if got := continuationPrompt(promptState{}); got != "> " {
		t.Errorf("PS2 default: %q", got)
	}
}
