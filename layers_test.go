package llmsh_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// layers ranks the module's packages from the bottom up: a package may
// import only packages of a lower rank (or its own vendored tree). The
// first matching prefix wins; docs/architecture.md draws the same picture.
var layers = []struct {
	prefix string
	rank   int
}{
	{"internal/stopre", -1},    // stoppable regexp searches, under posixre and the forks
	{"internal/racebuild", -1}, // whether the build is -race
	{"third_party/go-sdk/", 1}, // the MCP SDK, over jsonschema-go
	{"third_party/sh/", 1},     // the bash interpreter, over posixre (=~)
	{"third_party/", 0},        // vendored forks: goawk, gojq, jsonschema-go, mvdan/sh, readline, regexp2, xz
	{"vfsproto", 0},            // the wire codec both sides share
	{"posixre", 0},
	{"internal/sandbox", 0},
	{"internal/memguard", 0},
	{"internal/treesnap", 0},
	{"internal/earlystack", -1},        // imported by cmd/llmsh only: grows the stack in init
	{"internal/earlyvfsd/fromargs", 1}, // imported by cmd/llmsh only: starts vfsd in init
	{"internal/earlyvfsd", 0},
	{"internal/loadtest", 0},
	{"internal/getopt", 0}, // the option parser of the builtins, llmsh and vfsd
	{"internal/version", 0},
	{"internal/replacefile", 0},        // a host file replaced by a new one renamed over it            // llmsh's version number, which every command prints
	{"builtins/internal/gnu", 0},       // GNU's shared conventions: quoting, escapes, sizes, errors
	{"builtins/internal/gzdeflate", 0}, // GNU gzip's deflate, bit for bit
	{"builtins/internal/bzenc", 0},     // bzip2 1.0.8's compressor, bit for bit
	{"internal/funclen", 0},            // function lengths, for the tests that keep them short
	{"internal/stuck", 0},              // when a stopped run has not returned
	{"internal/dotdot", 0},             // a path's ".." checked name by name, as the kernel
	{"internal/zones", 0},              // time zones from llmsh's own database
	{"vfsd", 1},
	{"vfsclient/vfstest", 2},
	{"vfsclient", 1},
	{"builtins", 2},
	{"internal/vfsdmode/atinit", 3}, // imported by cmd/llmsh only: serves vfsd in init
	{"internal/vfsdmode", 2},
	{"internal/vfsdproc", 3},
	{"shell/repl", 4},
	{"shell", 3},
	{"", 5}, // the library: llmsh.Session
	{"server/mcpserver", 6},
	{"server/sessionserver", 6},
	{"cmd/", 7},
	{"bench/", 7},
}

func rankOf(rel string) (int, bool) {
	for _, l := range layers {
		p := strings.TrimSuffix(l.prefix, "/")
		if rel == p || p != "" && strings.HasPrefix(rel, p+"/") {
			return l.rank, true
		}
	}
	return 0, false
}

// vendoredTree is the vendored project rel belongs to ("third_party/sh"),
// or "".
func vendoredTree(rel string) string {
	parts := strings.SplitN(rel, "/", 3)
	if len(parts) >= 2 && parts[0] == "third_party" {
		return parts[0] + "/" + parts[1]
	}
	return ""
}

// TestLayers fails on an import that runs from a lower layer to a higher
// one (or across one layer), and on a package no layer names.
func TestLayers(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/llmsh/llmsh"
	rel := func(p string) (string, bool) {
		if p == mod {
			return "", true
		}
		r, ok := strings.CutPrefix(p, mod+"/")
		return r, ok
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, _ := rel(fields[0])
		rank, ok := rankOf(pkg)
		if !ok {
			t.Errorf("package %q is in no layer (add it to layers)", fields[0])
			continue
		}
		n++
		for _, imp := range fields[1:] {
			ir, mine := rel(imp)
			if !mine {
				continue
			}
			if v := vendoredTree(pkg); v != "" && v == vendoredTree(ir) {
				continue
			}
			irank, _ := rankOf(ir)
			if irank >= rank {
				t.Errorf("%s (layer %d) imports %s (layer %d): imports go down only", fields[0], rank, imp, irank)
			}
		}
	}
	if n < 20 {
		t.Errorf("go list named only %d packages", n)
	}
}
