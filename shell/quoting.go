package shell

import (
	"strings"

	"github.com/llmsh/llmsh/builtins"
)

// bashQuote quotes s as bash's ${s@Q} does.
func bashQuote(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			plain = false
		}
	}
	if plain {
		return shQuote(s)
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			b.WriteString(builtins.BashEscapeByte(c))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("'")
	return b.String()
}

// shQuote quotes s as one single-quoted shell word.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
