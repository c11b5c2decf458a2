package earlyvfsd_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/internal/earlyvfsd"
)

// TestChildEnv: vfsd's environment holds GORACE in a race build only, as
// the test binary's own build settings (`go version -m`) tell.
func TestChildEnv(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "version", "-m", self).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	race := strings.Contains(string(out), "\tbuild\t-race=true\n")
	t.Setenv("GORACE", "halt_on_error=1")
	want := []string{}
	if race {
		want = []string{"GORACE=halt_on_error=1"}
	}
	if got := earlyvfsd.ChildEnv(); strings.Join(got, " ") != strings.Join(want, " ") || got == nil {
		t.Errorf("ChildEnv() = %q in a build with -race=%v, want %q", got, race, want)
	}
	if got := earlyvfsd.VfsdEnv(); strings.Join(got, " ") != strings.Join(append(want, "GOMAXPROCS=1"), " ") {
		t.Errorf("VfsdEnv() = %q", got)
	}
}
