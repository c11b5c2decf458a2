package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/llmsh/llmsh/internal/earlyvfsd"
	"github.com/llmsh/llmsh/internal/vfsdproc"
)

// The command line that earlyvfsd reads to start vfsd during init is the
// one runOpts gives vfsdproc.Start for the same arguments, so the early
// vfsd is taken; where the early reading declines, nothing starts early.
func TestEarlyVfsdArgs(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	missing := filepath.Join(dir, "missing")
	for _, tc := range []struct {
		args  []string
		early bool
	}{
		{[]string{"-c", "true"}, true},
		{[]string{"-i", ".", "-c", "wc -l f"}, true},
		{[]string{"-i", "a", "--input", "b", "--input=c", "-o", out, "--output=" + out, "-c", "x", "-i", "d"}, true},
		{[]string{"--strict", "-q", "--json", "-v", "--timeout", "5s", "--max-output=1K", "--max-commands", "9", "--log", "l", "-c", "x"}, true},
		{[]string{"--color=never", "--colour", "--no-history", "--verbose", "--quiet", "-o", out, "-c", "-i"}, true},
		{[]string{"--log=l", "--timeout=1", "-c", "x"}, true},
		{[]string{"-e", "-u", "-x", "--norc", "-o", out, "-c", "x"}, true}, // bash's letters
		{[]string{"-l", "--login", "-c", "x"}, true},                       // bash -l: no start-up file either
		{[]string{"--max-write", "64K", "--max-write=3", "-c", "x"}, true},
		{[]string{"--max-write=unlimited", "-c", "x"}, true},
		{[]string{"--max-write", "1KB", "-c", "x"}, false},   // llmsh's parser
		{[]string{"--max-write", "0", "-c", "x"}, false},     // a usage error
		{[]string{"-o", missing, "-c", "x"}, false},          // llmsh may make it first
		{[]string{"-o", missing + "/", "-c", "x"}, false},    // it does
		{[]string{"-i", ".", "script.sh", "-c"}, true},       // a script file is a grant too
		{[]string{"-o", out, "/dev/fd/3"}, false},            // a descriptor: llmsh reads it
		{[]string{"test", "f.sh"}, false},                    // a subcommand
		{[]string{"--vfsd", "/bin/vfsd", "-c", "x"}, false},  // another vfsd
		{[]string{"--vfs-fds", "3,4", "-c", "x"}, false},     // no vfsd to start
		{[]string{"--session", "s", "-c", "x"}, false},       // a server's
		{[]string{"--socket", "s", "-c", "x"}, false},        //
		{[]string{"mcp", "-i", ".", "-c", "x"}, false},       // a subcommand
		{[]string{"-i", ".", "--help", "-c", "x"}, false},    //
		{[]string{"--version", "-c", "x"}, false},            //
		{[]string{"-i", ".", "--bogus", "-c", "x"}, false},   // a usage error
		{[]string{"-i", ".", "-c"}, false},                   // -c without a script
		{[]string{"-i"}, false},                              //
		{[]string{"-i", ".", "-"}, false},                    // stdin
		{[]string{"-test.run=X", "-c", "x"}, false},          // a test binary
		{[]string{"-i=x", "y", "-c", "x"}, false},            // -i's argument is "=x"
		{[]string{"-iy", "-c", "x"}, false},                  // attached: llmsh's parser
		{[]string{"-vq", "-c", "x"}, false},                  // a bundle
		{[]string{"--inp=y", "-c", "x"}, false},              // an abbreviation
		{[]string{"--strict=1", "-c", "x"}, false},           // a usage error
		{[]string{vfsdproc.ServerModeArg, "-i", "."}, false}, // vfsd itself
	} {
		argv, ok := earlyvfsd.ArgvFromArgs(tc.args)
		if ok != tc.early {
			t.Errorf("%q: early start %v, want %v", tc.args, ok, tc.early)
			continue
		}
		if !ok {
			continue
		}
		o, st := parseArgs(tc.args, io.Discard)
		if st != -1 || !o.haveScript && len(o.operands) == 0 || o.vfsFds != "" || o.vfsdPath != "" || o.session != "" || o.socket != "" {
			t.Errorf("%q: early start, but llmsh reads it as %+v, %d", tc.args, o, st)
			continue
		}
		inputs := o.inputs
		if !o.haveScript {
			inputs = append(inputs, o.operands[0]) // as runOpts grants the script file
		}
		mw := map[int64]int64{0: vfsdproc.DefaultMaxWrite, -1: 0}[o.maxWrite]
		if o.maxWrite > 0 {
			mw = o.maxWrite
		}
		want := vfsdproc.Config{Inputs: inputs, Outputs: o.outputs, Strict: o.strict, Log: o.logFile, MaxWriteBytes: mw}.Args()
		if !slices.Equal(argv, want) {
			t.Errorf("%q: early vfsd gets %q, runOpts would start %q", tc.args, argv, want)
		}
	}
}
