package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnlyVfsdprocExecs enforces the no-exec guarantee on what llmsh is
// built from: among the project's packages that the llmsh binary, the Go
// library and the MCP and socket servers depend on, only internal/vfsdproc
// (which starts vfsd) imports os/exec, and only internal/earlyvfsd (which
// starts the llmsh command's vfsd during init) calls syscall.ForkExec; no
// other calls os.StartProcess, syscall.Exec or syscall.ForkExec. The harnesses that start llmsh
// binaries (internal/loadtest, bench/load, bench/vfsstream) must stay out
// of those dependencies. Tests may exec (this one runs go list).
func TestOnlyVfsdprocExecs(t *testing.T) {
	pkgs := []string{".", "../..", "../../server/mcpserver", "../../server/sessionserver"}
	args := append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{.Dir}} {{join .GoFiles \",\"}} {{join .Imports \" \"}}"}, pkgs...)
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
		if len(fields) < 3 {
			t.Fatalf("go list: %q", line)
		}
		for _, f := range strings.Split(fields[2], ",") {
			src, err := os.ReadFile(filepath.Join(fields[1], f))
			if err != nil {
				t.Fatal(err)
			}
			for _, call := range []string{"os.StartProcess(", "syscall.Exec(", "syscall.ForkExec(", "unix.Exec("} {
				if strings.Contains(string(src), call) && !(call == "syscall.ForkExec(" && pkg == mod+"/internal/earlyvfsd") {
					t.Errorf("%s/%s calls %s", pkg, f, strings.TrimSuffix(call, "("))
				}
			}
		}
		for _, imp := range fields[3:] {
			if imp == "os/exec" && pkg != mod+"/internal/vfsdproc" {
				t.Errorf("%s imports os/exec; only internal/vfsdproc may", pkg)
			}
		}
	}
	for _, want := range []string{mod + "/cmd/llmsh", mod, mod + "/internal/vfsdproc", mod + "/shell", mod + "/builtins", mod + "/internal/earlyvfsd"} {
		if !seen[want] {
			t.Errorf("go list -deps did not list %s", want)
		}
	}
}

// TestNoHTTPLinked keeps net/http, crypto/tls and crypto/x509 out of the
// llmsh binary: llmsh serves MCP over stdio and its sessions over a Unix
// socket, and Go runs every linked package's init and sets up its type
// tables at each start of llmsh and of the vfsd it re-executes (issue 21:
// the MCP SDK's HTTP transports cost 0.5 ms and 1 MB of every start).
func TestNoHTTPLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps listed %d packages", len(deps))
	}
	for _, pkg := range deps {
		switch pkg {
		case "net/http", "crypto/tls", "crypto/x509":
			t.Errorf("llmsh links %s", pkg)
		}
	}
}
