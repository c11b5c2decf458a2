package vfsd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoExecNoNetNoEnv enforces vfsd's I/O-only contract: neither os/exec
// nor net among its dependencies, and no environment access in its sources.
func TestNoExecNoNetNoEnv(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "os/exec" || dep == "net" || strings.HasPrefix(dep, "net/") {
			t.Errorf("vfsd depends on %s", dep)
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	envRE := regexp.MustCompile(`\b(Getenv|LookupEnv|Environ|ExpandEnv|Setenv|os\.Getwd)\b`)
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		if m := envRE.Find(b); m != nil {
			t.Errorf("%s uses %s", f, m)
		}
	}
	if checked < 5 {
		t.Fatalf("only %d source files checked", checked)
	}
}
