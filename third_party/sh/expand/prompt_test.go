// llmsh: ${v@P}'s \$ as bash's decode_prompt_string gives it: # for
// user 0, else a $ that the expansion after the escapes keeps (bash 5.2
// as a user: v='a\$b'; echo "${v@P}" prints a$b, as root a#b).

package expand_test

import (
	"testing"

	"github.com/llmsh/llmsh/third_party/sh/expand"
)

func TestPromptDollar(t *testing.T) {
	for euid, want := range map[string]string{"1000": "a$b|x", "0": "a#b|x"} {
		env := mapEnv{"v": str(`a\$b|$x`), "x": str("x"), "b": str("B"), "EUID": str(euid)}
		got, err := expand.Fields(&expand.Config{Env: env}, parseWords(t, `"${v@P}"`)...)
		if err != nil || len(got) != 1 || got[0] != want {
			t.Errorf("EUID=%s: got %q %v, want %q", euid, got, err, want)
		}
	}
}
