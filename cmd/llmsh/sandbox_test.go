package main

import (
	"bytes"
	"debug/elf"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/internal/sandbox"
	"github.com/llmsh/llmsh/internal/stuck"
	"github.com/llmsh/llmsh/vfsd"
)

// In the llmsh child of TestLandlockSelfRestriction, the probe plays a bug
// that bypasses the handlers: it opens a host file and dials TCP directly,
// right after llmsh restricted itself.
func init() {
	file, addr := os.Getenv("LLMSH_PROBE_FILE"), os.Getenv("LLMSH_PROBE_ADDR")
	if file == "" {
		return
	}
	afterRestrict = func() {
		if ok := os.Getenv("LLMSH_PROBE_OK"); ok != "" {
			_, err := os.ReadFile(ok)
			fmt.Fprintf(os.Stderr, "probe-ok: %v\n", err)
		}
		if x := os.Getenv("LLMSH_PROBE_EXEC"); x != "" {
			c := exec.Command(x)
			c.Stdin, c.Stdout, c.Stderr = os.Stderr, os.Stderr, os.Stderr // no /dev/null to open
			fmt.Fprintf(os.Stderr, "probe-exec: %v\n", c.Run())
		}
		_, err := os.ReadFile(file)
		fmt.Fprintf(os.Stderr, "probe-read: %v\n", err)
		// The stuck judge's reading of the time the threads waited for
		// a CPU (schedstat) still works: its files were opened before.
		_, _, ready := stuck.Meter()
		fmt.Fprintf(os.Stderr, "probe-ready: %v\n", ready > 0)
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		fmt.Fprintf(os.Stderr, "probe-dial: %v\n", err)
	}
}

func TestLandlockSelfRestriction(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("MARKER"), 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()

	// The grant covers the file: vfsd may read it, llmsh itself may not.
	cmd := llmshHelper([]string{"-v", "-i", dir, "-c", "cat " + secret}, "LLMSH_PROBE_FILE="+secret, "LLMSH_PROBE_ADDR="+ln.Addr().String())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if out.String() != "MARKER" {
		t.Fatalf("cat through vfsd: %q (stderr %q)", out.String(), errb.String())
	}
	abi := sandboxABI()
	errs := errb.String()
	switch {
	case abi <= 0:
		if !strings.Contains(errs, "Landlock is not available") {
			t.Fatalf("no Landlock, but --verbose did not say so: %q", errs)
		}
	default:
		if !strings.Contains(errs, "probe-read: open "+secret+": permission denied") {
			t.Fatalf("llmsh could open a host file itself after restricting: %q", errs)
		}
		if abi >= 4 && !strings.Contains(errs, "probe-dial: dial tcp "+ln.Addr().String()+": connect: permission denied") {
			t.Fatalf("llmsh could connect to TCP after restricting: %q", errs)
		}
		if !strings.Contains(errs, "probe-ready: true") {
			t.Fatalf("the stuck judge read no wait of the threads after restricting: %q", errs)
		}
		if !strings.Contains(errs, fmt.Sprintf("Landlock ABI %d", abi)) {
			t.Fatalf("--verbose did not report the ABI: %q", errs)
		}
	}
}

// TestHelperVfsd, in a child of TestVfsdLandlock, is vfsd as llmsh's
// server mode runs it (vfsdmode: vfsd.Main confined by
// sandbox.RestrictToGrants), with the probe right after the confinement.
// (The test binary's own server mode serves from package init, before a
// test could set the probe.)
func TestHelperVfsd(t *testing.T) {
	if os.Getenv("LLMSH_TEST_VFSD") != "1" {
		return
	}
	os.Exit(vfsd.Main(helperArgs(), os.Stdin, os.Stdout, os.Stderr, func(inputs, outputs []string) error {
		err := sandbox.RestrictToGrants(inputs, outputs)
		afterRestrict()
		return err
	}))
}

// TestVfsdLandlock runs vfsd (TestHelperVfsd) with a probe that, after
// vfsd confined itself, reads a granted file, a file outside the grants
// and dials TCP, bypassing vfsd's own policy as a bug would.
func TestVfsdLandlock(t *testing.T) {
	if sandboxABI() <= 0 {
		t.Log("no Landlock in this kernel: vfsd runs unconfined (vfsd's policy still applies)")
		return
	}
	grant, outside := t.TempDir(), t.TempDir()
	inside := filepath.Join(grant, "ok")
	os.WriteFile(inside, []byte("ok"), 0o644)
	prog := filepath.Join(grant, "prog")
	self, _ := os.ReadFile("/bin/true")
	os.WriteFile(prog, self, 0o755)
	secret := filepath.Join(outside, "secret")
	os.WriteFile(secret, []byte("MARKER"), 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cmd := helperCommand("TestHelperVfsd", []string{"-i", grant}, "LLMSH_TEST_VFSD=1", "LLMSH_PROBE_FILE="+secret, "LLMSH_PROBE_OK="+inside, "LLMSH_PROBE_ADDR="+ln.Addr().String(), "LLMSH_PROBE_EXEC="+prog)
	cmd.Stdin = strings.NewReader("") // end of requests: vfsd exits after the probe
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	errs := errb.String()
	for _, want := range []string{
		"probe-ok: <nil>",
		"probe-exec: fork/exec " + prog + ": permission denied",
		"probe-read: open " + secret + ": permission denied",
		"probe-dial: dial tcp " + ln.Addr().String() + ": connect: permission denied",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("vfsd stderr lacks %q: %q", want, errs)
		}
	}
}

func sandboxABI() int { return sandbox.ABI() }

// TestReleaseBuildLandlock runs the build the README recommends
// (CGO_ENABLED=0, as the adversarial suite does): a static binary, no
// program interpreter, whose llmsh and vfsd both confine every thread with
// the Go runtime's AllThreadsSyscall (psx without cgo) and report it.
func TestReleaseBuildLandlock(t *testing.T) {
	t.Parallel()
	bin := realLlmsh(t)
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatalf("%s has a program interpreter: not a static (CGO_ENABLED=0) build", bin)
		}
	}
	f.Close()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("MARKER"), 0o644)
	cmd := exec.Command(bin, "-v", "-i", dir, "-c", "cat "+filepath.Join(dir, "f"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || out.String() != "MARKER" {
		t.Fatalf("%v: %q, stderr %q", err, out.String(), errb.String())
	}
	errs := errb.String()
	if strings.Contains(errs, "failed") {
		t.Fatalf("stderr: %q", errs)
	}
	if abi := sandboxABI(); abi > 0 && !strings.Contains(errs, fmt.Sprintf("Landlock ABI %d: file system", abi)) {
		t.Fatalf("--verbose did not report the restriction: %q", errs)
	}
}
