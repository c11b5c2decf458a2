package internal

import "testing"

func TestCache(t *testing.T) {
	c := Cache[string, int]{Max: 2}
	made := 0
	get := func(k string) int {
		return c.Get(k, func() int { made++; return len(k) * 10 })
	}
	if v := get("a"); v != 10 || made != 1 {
		t.Fatalf("first get: %d, made %d", v, made)
	}
	if v := get("a"); v != 10 || made != 1 {
		t.Fatalf("kept value: %d, made %d", v, made)
	}
	get("bb")
	if made != 2 {
		t.Fatalf("second key made %d", made)
	}
	// Max reached: all are dropped, then "ccc" is kept.
	if v := get("ccc"); v != 30 || made != 3 {
		t.Fatalf("third key: %d, made %d", v, made)
	}
	get("a")
	if made != 4 {
		t.Fatalf("a dropped at Max, made %d", made)
	}
	if p, q := CompileBashPattern("*x", PatFilename), CompileBashPattern("*x", PatFilename); p != q {
		t.Error("the same pattern and mode compiled twice")
	}
	if p, q := CompileBashPattern("*x", PatFilename), CompileBashPattern("*x", 0); p == q {
		t.Error("one compiled pattern for two modes")
	}
}
