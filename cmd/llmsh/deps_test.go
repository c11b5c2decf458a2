package main

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyVfsdprocExecs enforces the no-exec guarantee on what llmsh is
// built from: among the project's packages that the llmsh binary, the Go
// library and the MCP and socket servers depend on, only internal/vfsdproc
// (which starts vfsd) imports os/exec. The harnesses that start llmsh
// binaries (internal/loadtest, bench/load, bench/vfsstream) must stay out
// of those dependencies. Tests may exec (this one runs go list).
func TestOnlyVfsdprocExecs(t *testing.T) {
	pkgs := []string{".", "../..", "../../internal/mcpserver", "../../internal/sessionserver"}
	args := append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}"}, pkgs...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list -deps: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list -deps: %v", err)
	}
	const mod = "github.com/llmsh/llmsh"
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := fields[0]
		seen[pkg] = true
		if pkg != mod && !strings.HasPrefix(pkg, mod+"/") {
			continue
		}
		if strings.HasPrefix(pkg, mod+"/internal/loadtest") || strings.HasPrefix(pkg, mod+"/bench/") {
			t.Errorf("%s is a dependency of llmsh", pkg)
		}
		for _, imp := range fields[1:] {
			if imp == "os/exec" && pkg != mod+"/internal/vfsdproc" {
				t.Errorf("%s imports os/exec; only internal/vfsdproc may", pkg)
			}
		}
	}
	for _, want := range []string{mod + "/cmd/llmsh", mod, mod + "/internal/vfsdproc", mod + "/shell", mod + "/builtins"} {
		if !seen[want] {
			t.Errorf("go list -deps did not list %s", want)
		}
	}
}
