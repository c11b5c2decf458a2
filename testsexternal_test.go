package llmsh_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// internalTests are the packages whose tests may still be internal
// (package X, not X_test): programs (their tests cannot import them),
// and packages whose tests read internals throughout (docs/architecture.md,
// "Testing"). Every other package's tests are external.
var internalTests = map[string]bool{
	"cmd/llmsh": true, "cmd/vfsd": true, "internal/earlyvfsd": true, "internal/funclen": true,
	"internal/vfsdproc": true, "shell/repl": true, "vfsd": true,
	"third_party/goawk/interp": true, "third_party/goawk/internal/ast": true,
	"third_party/goawk/internal/compiler": true, "third_party/goawk/internal/resolver": true,
	"third_party/go-sdk/internal/json": true, "third_party/go-sdk/internal/mcpgodebug": true,
	"third_party/go-sdk/internal/util": true, "third_party/sh/internal": true,
}

// TestTestsExternal: a package with an internal test file is compiled
// twice by a test run under -race (as itself, for the packages that
// import it, and again with its tests) and analysed twice by
// staticcheck; external tests (package X_test) compile only themselves
// the second time. builtins' were 13 s of a cold CI run's CPU.
func TestTestsExternal(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		if internalTests[filepath.ToSlash(path)] {
			return nil
		}
		tests, _ := filepath.Glob(filepath.Join(path, "*_test.go"))
		for _, f := range tests {
			file, err := parser.ParseFile(fset, f, nil, parser.PackageClauseOnly)
			if err != nil {
				return err
			}
			if name := file.Name.Name; !strings.HasSuffix(name, "_test") {
				t.Errorf("%s is package %s: an internal test; make it package %s_test (see docs/architecture.md, Testing)", f, name, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
