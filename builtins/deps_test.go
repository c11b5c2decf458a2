package builtins_test

import (
	"errors"
	"os/exec"
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
