// Package funclen measures the functions of Go source trees, for the tests
// that keep llmsh's functions short (issue 22: no function over 120 lines;
// see docs/architecture.md). It imports only the standard library.
package funclen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
)

// Max is the most lines a function may have: a command reads as spec →
// config → run, and each of those fits on a couple of screens.
const Max = 120

// Lengths returns the length in lines (from "func" to the closing brace)
// of every function with a body in the Go files under dir, tests aside,
// keyed "FILE FUNC": FILE relative to dir with slashes, FUNC the function
// or method name (the longest, when a file has two of one name). skip
// names the folders (relative to dir) not to enter; testdata and hidden
// folders are never entered.
func Lengths(dir string, skip ...string) (map[string]int, error) {
	fset := token.NewFileSet()
	lengths := map[string]int{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || contains(skip, rel)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
				key := rel + " " + fd.Name.Name
				lengths[key] = max(lengths[key], n)
			}
		}
		return nil
	})
	return lengths, err
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
