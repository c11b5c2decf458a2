package builtins_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSpecialFileTypes: a FIFO and a socket reached through vfsd show
// with their type in ls -l, stat and find, as GNU coreutils 9.1 and
// findutils 4.9 show them (they looked like regular files: issue 18);
// reading a FIFO is refused at once with the reason.
func TestSpecialFileTypes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: filepath.Join(dir, "sock")}); err != nil {
		t.Fatal(err)
	}
	syscall.Close(fd)
	if err := os.Chmod(filepath.Join(dir, "sock"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		stdout string
	}{
		{[]string{"stat", "-c", "%n %F %A %f", "fifo", "sock", "f"}, "fifo fifo prw-r--r-- 11a4\nsock socket srwxr-xr-x c1ed\nf regular empty file -rw-r--r-- 81a4\n"},
		{[]string{"find", ".", "-type", "p"}, "./fifo\n"},
		{[]string{"find", ".", "-type", "s"}, "./sock\n"},
		{[]string{"find", ".", "-type", "f"}, "./f\n"},
		{[]string{"find", ".", "-name", "[fs]*", "-printf", "%y %p\n"}, "f ./f\np ./fifo\ns ./sock\n"},
		{[]string{"ls", "-F"}, "f\nfifo|\nsock=\n"},
	} {
		r := runCmdIn(t, dir, tc.args...)
		if r.stdout != tc.stdout || r.stderr != "" || r.status != 0 {
			t.Errorf("%q: %q %q %d, want %q", tc.args, r.stdout, r.stderr, r.status, tc.stdout)
		}
	}
	r := runCmdIn(t, dir, "ls", "-l")
	for _, want := range []string{"\nprw-r--r-- 1 ", " fifo\n", "\nsrwxr-xr-x 1 ", " sock\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("ls -l: %q lacks %q", r.stdout, want)
		}
	}
	r = runCmdIn(t, dir, "cat", "fifo")
	if want := "cat: fifo: Invalid argument (not a regular file: llmsh opens no fifo, socket or device)\n"; r.stderr != want || r.status != 1 {
		t.Errorf("cat fifo: %q %d, want %q", r.stderr, r.status, want)
	}
}
