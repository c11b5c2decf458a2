// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// forbiddenImports are packages through which the interpreter would reach
// the host: programs, the user database, raw system calls, the network.
var forbiddenImports = map[string]bool{
	"os/exec": true, "os/user": true, "os/signal": true, "golang.org/x/sys/unix": true,
	"golang.org/x/sys/windows": true, "net": true, "io/ioutil": true, "plugin": true,
	"unsafe": true, "reflect": true,
}

// hostUses is every name of the watched packages that the fork uses, each
// with why it does not touch the host's files, users or processes. A use
// of os, syscall, path/filepath or x/term not listed here fails the test:
// each such use is a possible host touch-point and must be routed through
// the handlers (open, stat, readdir, access, process substitution) or
// listed with its reason.
var hostUses = map[string]string{
	"os.File":        "a type: the runner's stdin is an in-process pipe's *os.File",
	"os.FileMode":    "a type",
	"os.ModeDir":     "a constant",
	"os.ModeSymlink": "a constant", "os.ModeNamedPipe": "a constant", "os.ModeSocket": "a constant",
	"os.ModeDevice": "a constant", "os.ModeCharDevice": "a constant", "os.ModeSetuid": "a constant",
	"os.ModeSetgid": "a constant", "os.ModeSticky": "a constant",
	"os.O_RDONLY": "a constant", "os.O_WRONLY": "a constant",
	"os.O_CREATE": "a constant", "os.O_APPEND": "a constant", "os.O_TRUNC": "a constant",
	"os.O_RDWR":    "a constant (N<>FILE, opened by the open handler)",
	"os.PathError": "an error type: handlers' errors",
	"os.Pipe":      "an anonymous kernel pipe inside the process: no path, no file of the host",

	"syscall.Stat_t":                 "a type assertion on a FileInfo's Sys(), with ok",
	"syscall.Win32FileAttributeData": "a type assertion on a FileInfo's Sys(), with ok (Windows)",
	"syscall.ENOTDIR":                "an error value compared with errors.Is",
	"syscall.EISDIR":                 "an error value compared with errors.Is: $(<DIR) reads as empty",
	"syscall.EPIPE":                  "an error value compared with errors.Is: a pipeline element's write after its reader ended",
	"syscall.ENOSPC":                 "an error value: a command substitution's or printf -v's output past its bound",
	"syscall.EBADF":                  "an error value: a write to a descriptor closed or not open for writing",
	"syscall.ESPIPE":                 "an error value: a seek of a here-document that bash holds in a pipe",
	"syscall.EINVAL":                 "an error value: a seek of a here-document before its start",
	"filepath.Join":                  "string manipulation",
	"filepath.Clean":                 "string manipulation",
	"filepath.IsAbs":                 "string manipulation",
	"filepath.SplitList":             "string manipulation",
	"filepath.Separator":             "a constant",
	"filepath.FromSlash":             "string manipulation",
	"term.IsTerminal":                "asks whether the shell's own stdin or stdout descriptor is a terminal",
	"syscall.Conn":                   "an interface of the descriptor test -t asks term.IsTerminal about (SyscallConn, which unlike Fd leaves a pipe non-blocking)",
	"term.ReadPassword":              "read -s on the shell's own terminal stdin",
	"os.ErrDeadlineExceeded":         "an error value compared with errors.Is (read -t on the runner's stdin pipe)",
	"syscall.Select":                 "read -t: select(2) on the runner's own stdin descriptor (no path, reads nothing)",
	"syscall.FdSet":                  "the descriptor set of that select(2)",
	"syscall.NsecToTimeval":          "the timeout of that select(2)",
	"syscall.Getrusage":              "the time keyword: the llmsh process's own CPU time (RUSAGE_SELF), nothing of the host's other processes",
	"syscall.Rusage":                 "a type, for Getrusage",
	"syscall.RUSAGE_SELF":            "a constant, for Getrusage",
}

// importExceptions are forbidden imports one file may have, with why.
var importExceptions = map[string]string{
	"../syntax/walk.go import reflect": "syntax.DebugPrint walks a syntax tree by reflection: nothing of the host",
}

var watched = map[string]string{
	"os": "os", "syscall": "syscall", "path/filepath": "filepath", "golang.org/x/term": "term",
}

// TestNoHostTouchPoints enumerates the fork's uses of the packages that
// reach the host and fails when one is not known to be harmless: the
// interpreter must touch the host only through llmsh's handlers. It also
// fails when a listed use is gone, so that the list stays exact.
func TestNoHostTouchPoints(t *testing.T) {
	var files []string
	for _, dir := range []string{".", "../expand", "../internal", "../syntax"} {
		m, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if !strings.HasSuffix(f, "_test.go") {
				files = append(files, f)
			}
		}
	}
	if len(files) < 10 {
		t.Fatalf("found only %d files of the fork: %v", len(files), files)
	}
	used := map[string]bool{}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		uses, err := hostTouches(name, src)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(src, []byte("//go:build ignore")) {
			continue // a generator, never compiled in
		}
		for _, u := range uses {
			if _, ok := importExceptions[filepath.ToSlash(name)+" "+u.name]; ok {
				continue
			}
			used[u.name] = true
			if _, ok := hostUses[u.name]; !ok {
				t.Errorf("%s: %s may touch the host: route it through a handler, or list it in hostUses with the reason it does not", u.pos, u.name)
			}
		}
	}
	var stale []string
	for use := range hostUses {
		if !used[use] {
			stale = append(stale, use)
		}
	}
	slices.Sort(stale)
	if len(stale) > 0 {
		t.Errorf("hostUses lists names the fork no longer uses (remove them): %v", stale)
	}
}

type hostUse struct{ pos, name string }

// hostTouches lists the uses in one Go file of the watched packages'
// names, and of forbidden imports (as "import PATH").
func hostTouches(name string, src []byte) ([]hostUse, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var uses []hostUse
	local := map[string]string{} // the name a watched package has in this file
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if forbiddenImports[path] {
			uses = append(uses, hostUse{fset.Position(imp.Pos()).String(), "import " + path})
		}
		if short, ok := watched[path]; ok {
			if imp.Name != nil {
				short = imp.Name.Name
			}
			local[short] = watched[path]
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		if pkg, ok := local[id.Name]; ok {
			uses = append(uses, hostUse{fset.Position(sel.Pos()).String(), pkg + "." + sel.Sel.Name})
		}
		return true
	})
	return uses, nil
}

// TestHostTouchesFinds checks that the scan sees what upstream had.
func TestHostTouchesFinds(t *testing.T) {
	src := `package x
import (
	"os"
	fp "path/filepath"
	"os/user"
)
func f() { os.Stat("/"); fp.EvalSymlinks("/"); user.Current(); _ = os.O_RDONLY }
`
	uses, err := hostTouches("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for _, u := range uses {
		if _, ok := hostUses[u.name]; !ok {
			bad = append(bad, u.name)
		}
	}
	want := []string{"import os/user", "os.Stat", "filepath.EvalSymlinks"}
	if !slices.Equal(bad, want) {
		t.Errorf("not allowed: %v, want %v", bad, want)
	}
}
