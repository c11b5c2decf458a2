package builtins

import (
	"bytes"
	"context"
	"io"
	"path"
	"strings"
	"testing"
)

// testFS, when set (by fs_harness_test.go once a real vfsd session is
// available to tests), returns an FS serving dir read-write.
var testFS func(t *testing.T, dir string) FS

// result is what one builtin call produced.
type result struct {
	stdout, stderr string
	status         int
}

// runCmd runs the builtin args[0] with the given stdin. files, if not nil,
// are created (name → content) in a fresh temporary directory that is also
// the working directory and is granted read-write through a real vfsd
// session.
func runCmd(t *testing.T, files map[string]string, stdin string, args ...string) result {
	t.Helper()
	return runCmdWith(t, files, nil, stdin, args...)
}

// runCmdEnv is runCmd with the script's exported variables environ and no
// standard input.
func runCmdEnv(t *testing.T, files map[string]string, environ []string, args ...string) result {
	t.Helper()
	return runCmdWith(t, files, environ, "", args...)
}

func runCmdWith(t *testing.T, files map[string]string, environ []string, stdin string, args ...string) result {
	t.Helper()
	dir := t.TempDir()
	var fsys FS
	if files != nil {
		if testFS == nil {
			t.Fatal("file-based builtin tests need the vfsd test session (fs_harness_test.go)")
		}
		fsys = testFS(t, dir)
		for name, content := range files {
			writeTestFile(t, fsys, dir+"/"+name, content)
		}
	}
	return runCmdInFS(t, fsys, dir, environ, stdin, args...)
}

// runCmdInFS runs args in dir, with fsys (nil: no file access), the exported
// variables environ and stdin as a pipe.
func runCmdInFS(t *testing.T, fsys FS, dir string, environ []string, stdin string, args ...string) result {
	t.Helper()
	b, ok := Lookup(args[0])
	if !ok {
		t.Fatalf("no builtin %q", args[0])
	}
	var out, errb bytes.Buffer
	env := &Env{
		Ctx:     context.Background(),
		Args:    args,
		Stdin:   struct{ io.Reader }{strings.NewReader(stdin)}, // a pipe: no Seek
		Stdout:  &out,
		Stderr:  &errb,
		FS:      fsys,
		Dir:     dir,
		Environ: environ,
	}
	st := Run(b, env)
	return result{out.String(), errb.String(), st}
}

// writeTestFile creates name with content, and its missing parent
// directories. A name ending in "/" is created as an empty directory.
func writeTestFile(t *testing.T, fsys FS, name, content string) {
	t.Helper()
	if strings.HasSuffix(name, "/") {
		mkdirAllTest(t, fsys, strings.TrimSuffix(name, "/"))
		return
	}
	mkdirAllTest(t, fsys, path.Dir(name))
	f, err := fsys.OpenFile(name, 0x241) // O_WRONLY|O_CREATE|O_TRUNC
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
