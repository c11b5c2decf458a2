package funclen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLengths(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	long := "package a\n\nfunc long() {\n" + strings.Repeat("\t_ = 1\n", 130) + "}\n"
	write("a.go", long+"\ntype T struct{}\n\nfunc (T) m() { _ = 1 }\n")
	write("sub/b.go", "package sub\n\nfunc b() {\n\t_ = 2\n}\n\nfunc decl()\n")
	write("sub/b_test.go", long)
	write("skipped/c.go", long)
	write("testdata/d.go", long)
	write(".hidden/e.go", long)
	got, err := Lengths(dir, "skipped")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"a.go long": 132, "a.go m": 1, "sub/b.go b": 3}
	if len(got) != len(want) {
		t.Errorf("Lengths = %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("Lengths[%q] = %d, want %d", k, got[k], n)
		}
	}
	if _, err := Lengths(filepath.Join(dir, "missing")); err == nil {
		t.Error("Lengths of a missing folder: no error")
	}
}
