package main

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Package init runs at every start of llmsh and again in its vfsd (the
// same binary): what the project's own packages build there, every run
// pays twice. No package of this module may allocate more than 64 KiB in
// init (gojq's function tables were 219 KB, now built by Compile). The
// early vfsd start (earlyvfsd/fromargs) and the server mode's start
// (vfsdmode/atinit) must come before the packages that cost start-up
// time, or they save nothing: the one starts vfsd beside llmsh's own init,
// the other serves vfsd before those packages are initialised at all.
// Every package initialised before atinit runs in vfsd too, whichever
// module it comes from: together they may allocate at most 128 KiB
// (issue 21: 256 KB, of which grep -P's regexp2 built 140 KB of Unicode
// tables and xz 33 KB of CRC-64 tables; 81 KB once those were made on
// first use, 55 KB once the vendored MCP SDK dropped encoding/gob). GODEBUG=inittrace=1 lists each package's init in order with
// the bytes it allocated, which do not vary from run to run.
func TestStartupInit(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(realLlmsh(t), "--version")
	cmd.Env = []string{"GODEBUG=inittrace=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("llmsh --version: %v\n%s", err, out)
	}
	const mod = "github.com/llmsh/llmsh"
	order := map[string]int{}
	beforeServe, served := 0, false // bytes of the inits vfsd runs
	var ownBefore []string          // this module's packages initialised before atinit
	for _, line := range strings.Split(string(out), "\n") {
		// init PKG @0.75 ms, 0.31 ms clock, 1104 bytes, 19 allocs
		f := strings.Fields(line)
		if len(f) < 11 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		order[f[1]] = len(order)
		bytes, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q", line)
		}
		if (f[1] == mod || strings.HasPrefix(f[1], mod+"/")) && bytes > 64<<10 {
			t.Errorf("%s allocates %d bytes in package init", f[1], bytes)
		}
		if f[1] == mod+"/internal/vfsdmode/atinit" {
			served = true
		}
		if !served {
			beforeServe += bytes
			if f[1] != mod+"/internal/vfsdmode/atinit" && (f[1] == mod || strings.HasPrefix(f[1], mod+"/")) {
				ownBefore = append(ownBefore, f[1])
			}
		}
	}
	// Each of the module's packages with init code that is initialised
	// before vfsd serves faults in its 64 KiB of text in vfsd as well as
	// in llmsh: only vfsd's own start and its dependencies may. Another package's
	// package variables are static (constant errors, a zero-ready lazy
	// value, a switch) or made on first use (docs/performance.md,
	// session 22).
	allowed := map[string]bool{mod + "/internal/earlyvfsd/fromargs": true, mod + "/internal/earlystack": true, mod + "/vfsproto": true, mod + "/vfsd": true,
		mod + "/internal/vfsdmode": true}
	for _, pkg := range ownBefore {
		if !allowed[pkg] {
			t.Errorf("%s has init code and is initialised before vfsd serves (every start of vfsd runs it)", pkg)
		}
	}
	if beforeServe > 128<<10 {
		t.Errorf("the package inits before vfsd serves allocate %d bytes, over 128 KiB", beforeServe)
	}
	for _, early := range []string{mod + "/internal/earlyvfsd/fromargs", mod + "/internal/vfsdmode/atinit"} {
		e, ok := order[early]
		if !ok {
			t.Fatalf("no init of %s in:\n%s", early, out)
		}
		// (gojq has no init code since session 23, the MCP SDK and
		// jsonschema none since session 29: nothing of them runs at
		// start-up; should they get some, it comes after these two.)
		mustInit := map[string]bool{mod + "/builtins": true, mod + "/third_party/sh/interp": true, mod + "/shell": true}
		for _, pkg := range []string{mod + "/builtins", mod + "/third_party/sh/interp", mod + "/shell",
			mod + "/third_party/jsonschema-go/jsonschema", mod + "/third_party/go-sdk/mcp", "net/http"} {
			i, ok := order[pkg]
			if !ok && mustInit[pkg] {
				t.Errorf("no init of %s", pkg)
			}
			if ok && i < e {
				t.Errorf("%s is initialised before %s (%d < %d)", pkg, early, i, e)
			}
		}
	}
}
