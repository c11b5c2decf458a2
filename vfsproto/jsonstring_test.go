package vfsproto_test

import (
	"encoding/json"
	"testing"

	. "github.com/llmsh/llmsh/vfsproto"
)

// TestAppendJSONString: the hand-written encoders write what encoding/json
// writes (strings without <, > and &, which encoding/json escapes and
// these copy: both are valid JSON of the same value).
func TestAppendJSONString(t *testing.T) {
	for _, list := range [][]string{nil, {}, {"read_bulk"}, {"a", `q"uote`, `back\slash`, "é", "\x01\n", ""}} {
		want, _ := json.Marshal(list)
		if got := AppendJSONStrings([]byte("x"), list); string(got) != "x"+string(want) {
			t.Errorf("AppendJSONStrings(%q) = %s, want %s", list, got[1:], want)
		}
		for _, s := range list {
			want, _ := json.Marshal(s)
			if got := AppendJSONString(nil, s); string(got) != string(want) {
				t.Errorf("AppendJSONString(%q) = %s, want %s", s, got, want)
			}
		}
	}
}
