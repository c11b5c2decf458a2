package builtins_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

// TestMain removes emptyDir after the tests. Its garbage collector runs
// a quarter as often (GOGC=400, unless GOGC is set): no builtin reads
// its memory or the collector's state (the memory guard is the shell's
// and the llmsh command's, and their tests keep the default), so this
// only trades memory for CPU: the binary's user time fell by 4.4 s in
// each of two side-by-side pairs (37.9 -> 33.4 s, 45.8 -> 41.4 s; system
// time 13.1 -> 12.1 s and 14.8 -> 17.9 s, noise at load 20-50), its
// largest RSS 778 -> 1093 MB and 852 -> 1177 MB (session 29).
func TestMain(m *testing.M) {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(400)
	}
	code := m.Run()
	if emptyDirName != "" {
		os.Remove(emptyDirName)
	}
	os.Exit(code)
}

var (
	emptyDirOnce sync.Once
	emptyDirName string
)

// emptyDir is the working directory of the commands run without files
// (and so without a file system): one empty directory for the whole test
// binary, not a t.TempDir each (thousands of runs: each directory made
// and removed cost its inode's allocation, which on ext4 without a
// journal walks past every inode freed in the last 30 s).
func emptyDir(t *testing.T) string {
	t.Helper()
	emptyDirOnce.Do(func() {
		emptyDirName, _ = os.MkdirTemp("", "builtins-empty-")
	})
	if emptyDirName == "" {
		t.Fatal("no empty directory for the tests")
	}
	return emptyDirName
}

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
	if files == nil {
		return runCmdInFS(t, nil, emptyDir(t), environ, stdin, args...)
	}
	if testFS == nil {
		t.Fatal("file-based builtin tests need the vfsd test session (fs_harness_test.go)")
	}
	dir := t.TempDir()
	writeHostFiles(t, dir, files)
	return runCmdInFS(t, testFS(t, dir), dir, environ, stdin, args...)
}

// writeHostFiles creates files (name → content) in the host directory
// dir, which the test has just made, with their missing parent
// directories; a name ending in "/" is an empty directory. Setup writes
// on the host, as a user's files are there before llmsh starts: through
// vfsd each file would be an atomic write (a placeholder, a temp file, a
// link and a rename), which the tests of writing check where it matters.
func writeHostFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if !filepath.IsLocal(name) {
			t.Fatalf("test file %q is not a name inside the test's directory", name)
		}
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
