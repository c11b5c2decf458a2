package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/server/mcpserver"
	"github.com/llmsh/llmsh/shell"
)

const mcpSummary = `Serve the Model Context Protocol on stdin/stdout: a "bash" tool (input
command, optional stdin and timeout_ms; output text plus structured stdout,
stderr and exit_code) whose calls share one shell, a "reset" tool, and the
files of the granted trees as resources (file:///PATH, read through vfsd).
The shell starts in the working directory when a grant covers it, else in
the first granted directory. Calls run one at a time: a tool call sent while
another runs is refused (JSON-RPC error -32001), never queued. A call whose
request carries a progressToken gets notifications/progress while it runs.`

const mcpEpilog = `Client configuration, for example:
  {"mcpServers": {"llmsh": {"command": "llmsh",
                             "args": ["mcp", "-i", ".", "-o", "./out/"]}}}`

// mcpFlags is the command line of llmsh mcp: the grants and the limits
// of llmsh's own, each call bounded by them.
func mcpFlags(o *options, stdout io.Writer) *builtins.Flags {
	f := subFlags("llmsh mcp", stdout, mcpSummary, "[OPTION]...")
	f.Epilog = mcpEpilog
	grantFlags(f, o, nil)
	f.BoolVar(&o.strict, 0, "strict", "writes outside -o fail instead of going to\nvirtual files")
	f.Func(0, "timeout", builtins.RequiredArg, "DUR", "wall-clock limit for each call (exit code 124)", durationFlag("timeout", &o.timeout))
	f.Func(0, "max-output", builtins.RequiredArg, "N", "cap on the stdout+stderr bytes of each call\n(default 1000000; suffixes K, M, G)", sizeFlag("max-output", &o.maxOutput))
	f.Func(0, "max-write", builtins.RequiredArg, "N", "the most bytes the session may add to files\nunder the -o paths (default 10G, or unlimited;\nsuffixes K, M, G)", writeFlag(&o.maxWrite))
	f.Func(0, "max-commands", builtins.RequiredArg, "N", "cap on the commands of each call (default\n50,000,000)", maxCommandsFlag(&o.maxCommands))
	f.Func(0, "max-memory", builtins.RequiredArg, "N", "the heap limit of the shell's process (default\nand most 2G; suffixes K, M, G)", maxMemoryFlag(&o.maxMemory, llmsh.DefaultMaxMemory))
	f.StringVar(&o.vfsdPath, 0, "vfsd", "PATH", "run this vfsd binary instead of llmsh's own\nserver mode")
	f.StringVar(&o.logFile, 0, "log", "FILE", "vfsd's structured request log")
	f.BoolVar(&o.verbose, 'v', "verbose", "say more on stderr")
	f.Func('c', "", builtins.RequiredArg, "", "", func(string, bool) error { // not listed
		return errors.New("-c cannot be used: the client sends the commands")
	})
	return f
}

// defaultMCPOutput bounds a tool call's output unless --max-output says
// otherwise: a model's context is small.
const defaultMCPOutput = 1_000_000

// runMCP is `llmsh mcp`: one session, served until the client hangs up.
func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := &options{}
	f := mcpFlags(o, stdout)
	operands, st := parseSub(f, args, stdout, subUsage(stderr, "mcp"))
	switch {
	case st >= 0:
		return st
	case len(operands) > 0:
		return subUsageErr(stderr, "mcp", "extra operand '%s'", operands[0])
	}
	if o.maxOutput == 0 {
		o.maxOutput = defaultMCPOutput
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "llmsh: %v\n", err)
		return 1
	}
	prepareGrants(o.inputs, o.outputs, stderr)
	// The grants as absolute paths: the shell may start elsewhere.
	for _, ps := range []*[]string{&o.inputs, &o.outputs} {
		for i, p := range *ps {
			(*ps)[i] = absJoin(cwd, p)
		}
	}
	sess, err := llmsh.New(llmsh.Options{
		Dir:    startDir(cwd, append(append([]string{}, o.inputs...), o.outputs...)),
		Inputs: o.inputs, Outputs: o.outputs, Strict: o.strict, Timeout: o.timeout,
		MaxOutput: o.maxOutput, MaxWrite: o.maxWrite, VfsdPath: o.vfsdPath, VfsdLog: o.logFile,
		MaxMemory: o.maxMemory, Limits: shell.Limits{MaxCommands: o.maxCommands},
		// The shell runs in a confined process of its own (Landlock, the
		// memory limit); this one only relays, and stays free to start
		// that process anew after a crash.
		Isolated: true,
	})
	if errors.Is(err, llmsh.ErrGrantRefused) {
		// As the CLI: a grant vfsd refused is a usage error.
		reason := strings.TrimPrefix(err.Error(), llmsh.ErrGrantRefused.Error()+": ")
		return subUsageErr(stderr, "mcp", "%s", reason)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer sess.Close()
	srv := mcpserver.New(sess, mcpserver.Config{
		Inputs: o.inputs, Outputs: o.outputs, Strict: o.strict, Timeout: o.timeout, MaxOutput: o.maxOutput, MaxWrite: o.maxWrite, Version: version,
	})
	if o.verbose {
		fmt.Fprintf(stderr, "llmsh: mcp: the shell starts in %s\n", sess.Dir())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A client gone (its end of stdout closed) reads no answer: the call
	// in progress is cancelled and the server ends.
	defer watchHangup(stdout, func() {
		stop()
		sess.Close()
	})()
	err = srv.Run(ctx, mcpserver.Transport(stdin, stdout))
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "llmsh: mcp: %v\n", err)
		return 1
	}
	return 0
}

// startDir is where the shell of llmsh mcp starts: the client's working
// directory cwd when a grant covers it, else the first granted directory
// (a granted file's own directory is not granted), else cwd.
func startDir(cwd string, grants []string) string {
	first := ""
	for _, g := range grants {
		info, err := os.Stat(g)
		if err != nil || !info.IsDir() {
			continue
		}
		if within(cwd, g) {
			return cwd
		}
		if first == "" {
			first = g
		}
	}
	if first == "" {
		return cwd
	}
	return first
}

// within reports whether path is dir or under it (both absolute, clean).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
