package builtins_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoExecDependency enforces the no-exec rule for the commands: neither
// the builtins nor the vendored GoAWK (third_party/goawk, patched to refuse
// system() and pipes) may depend on os/exec, directly or through another
// package. Tests may (this one runs go list).
func TestNoExecDependency(t *testing.T) {
	t.Parallel()
	pkgs := []string{".", "../third_party/goawk/..."}
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list -deps: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	seen := map[string]bool{}
	for _, dep := range deps {
		seen[dep] = true
		if dep == "os/exec" {
			t.Errorf("%s depend on os/exec", strings.Join(pkgs, " "))
		}
	}
	// The list must really cover the packages in question.
	for _, want := range []string{
		"github.com/llmsh/llmsh/builtins",
		"github.com/llmsh/llmsh/third_party/goawk/interp",
		"github.com/llmsh/llmsh/third_party/goawk/parser",
		"github.com/llmsh/llmsh/third_party/gojq",
	} {
		if !seen[want] {
			t.Errorf("go list -deps did not list %s", want)
		}
	}
}

// TestNoHostZoneFiles: no command loads a time zone with
// time.LoadLocation, which reads the host's zone files ($ZONEINFO,
// /usr/share/zoneinfo, $GOROOT) before any embedded data (session 28: a
// script's TZ chose the host file llmsh opened); internal/zones is
// llmsh's own database.
func TestNoHostZoneFiles(t *testing.T) {
	t.Parallel()
	var files []string
	for _, dir := range []string{".", "../third_party/gojq", "../third_party/goawk/interp", "../shell", "../third_party/sh/interp"} {
		m, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: %v %v", dir, m, err)
		}
		files = append(files, m...)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"time.LoadLocation(", `"time/tzdata"`} {
			if strings.Contains(string(src), bad) {
				t.Errorf("%s uses %s: load zones with internal/zones", name, bad)
			}
		}
	}
}
