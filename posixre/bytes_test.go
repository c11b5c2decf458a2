package posixre_test

import (
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/posixre"
)

// Bytes mode: what GNU grep 3.8 -o prints first under LC_ALL=C (checked
// side by side through bashprobe, session 23).
var bytesCases = []struct {
	opts, pat, in, want string // want "-": no match
}{
	{"G", `.`, "é", "\xc3"},
	{"G", `h.llo`, "héllo", "-"},
	{"G", `h..llo`, "héllo", "héllo"},
	{"G", `[^a]`, "é", "\xc3"},
	{"E", `é`, "xé", "é"},
	{"Gi", `É`, "é", "-"},
	{"Gi", `HELLO`, "hello", "hello"},
	{"Gi", `k`, "\u212a", "-"},
	{"G", `[[:alpha:]]\+`, "aébc", "a"},
	{"G", `\w\+`, "aéb", "a"},
	{"G", `\<b`, "éb", "b"},
	{"Gw", `b`, "éb", "b"},
	{"G", `\(.\)\1`, "aé\xa9", "\xa9\xa9"},
	{"E", `[é]`, "\xa9", "\xa9"},
	{"E", `.{2}$`, "xé", "é"},
	{"G", `[[:punct:]]`, "é!", "!"},
	{"G", `[^[:alpha:]]`, "aé", "\xc3"},
	{"Gi", `[a-z]\+`, "abéc", "ab"},
	{"G", `\W`, "aé", "\xc3"},
	{"G", `\S\+`, "é a", "é"},
}

func TestBytes(t *testing.T) {
	for _, c := range bytesCases {
		fl := Lines | Bytes
		if c.opts[0] == 'E' {
			fl |= ERE
		}
		if strings.Contains(c.opts, "i") {
			fl |= IgnoreCase
		}
		if strings.Contains(c.opts, "w") {
			fl |= MatchWords
		}
		re, err := Compile(c.pat, fl)
		if err != nil {
			t.Errorf("%s %q: %v", c.opts, c.pat, err)
			continue
		}
		loc, err := re.FindSubmatchIndex([]byte(c.in))
		got := "-"
		if loc != nil {
			got = c.in[loc[0]:loc[1]]
		}
		if err != nil || got != c.want {
			t.Errorf("%s %q on %q: %q, %v; want %q", c.opts, c.pat, c.in, got, err, c.want)
		}
		if ok, _ := re.Match([]byte(c.in)); ok != (c.want != "-") {
			t.Errorf("%s %q on %q: Match %v", c.opts, c.pat, c.in, ok)
		}
	}
}

// TestBytesFindAll: an empty match advances by one byte, and offsets are
// the subject's (sed 's/x*/-/g' of "é" under LC_ALL=C is "-\303-\251-").
func TestBytesFindAll(t *testing.T) {
	re, err := Compile(`x*`, Bytes)
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]int
	if err := re.FindAll([]byte("éa"), -1, func(loc []int) bool {
		got = append(got, [2]int{loc[0], loc[1]})
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if want := [][2]int{{0, 0}, {1, 1}, {2, 2}, {3, 3}}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("x* on é a: %v, want %v", got, want)
	}
	if re, _ := Compile(`a`, Bytes); !ForTests.Transparent(re) {
		t.Error("a: not transparent")
	}
	if re, _ := Compile(`.`, Bytes); ForTests.Transparent(re) {
		t.Error(".: transparent")
	}
	if r2, _ := re.RE2(); r2 != nil {
		t.Error("x*: an RE2 form in Bytes mode")
	}
}
