package gojq_test

import (
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/gojq"
)

// TestOrderedMap: keys keep their first place, deleted keys go, and the
// index taken over past smallMap keys agrees with the order.
func TestOrderedMap(t *testing.T) {
	m := gojq.NewOrderedMap(0)
	for _, k := range []string{"b", "a", "c", "a"} {
		m.Set(k, k)
	}
	m.Delete("b")
	m.Set("b", 1)
	if got := strings.Join(m.Keys(), ","); got != "a,c,b" {
		t.Fatalf("keys %s", got)
	}
	for i := range 20 {
		m.Set(string(rune('z'-i)), i)
	}
	m.Delete("y")
	c := m.Copy()
	c.Set("new", 1)
	if v, ok := m.Get("x"); !ok || v != 2 || m.Has("y") || m.Has("new") || !c.Has("new") {
		t.Fatalf("lookups after growth: %v %v", v, ok)
	}
	if got, _ := gojq.Marshal(m); !strings.HasPrefix(string(got), `{"a":"a","c":"c","b":1,"z":0,"x":2,`) {
		t.Fatalf("marshal %s", got)
	}
}

// TestDecoderNumbers: literals are kept as jq 1.7 prints them.
func TestDecoderNumbers(t *testing.T) {
	dec := gojq.NewDecoder(strings.NewReader(`[1, 1.0, 1e2, 0.00001, 1E-7, -0, 100000000000000000001, 1.5, 1e1000] {"b":1,"a":2}`))
	var out []string
	for {
		v, err := dec.Decode()
		if err != nil {
			break
		}
		b, _ := gojq.Marshal(v)
		out = append(out, string(b))
	}
	want := `[1,1.0,1E+2,0.00001,1E-7,-0,100000000000000000001,1.5,1E+1000] {"b":1,"a":2}`
	if got := strings.Join(out, " "); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
