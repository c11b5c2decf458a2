package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBinaryIsIOOnly: the standalone vfsd binary, Landlock included, links
// neither os/exec nor net (package vfsd's own test checks the server; this
// one covers what main adds).
func TestBinaryIsIOOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps gave %d packages", len(deps))
	}
	for _, dep := range deps {
		if dep == "os/exec" || dep == "net" || strings.HasPrefix(dep, "net/") {
			t.Errorf("cmd/vfsd depends on %s", dep)
		}
	}
}
