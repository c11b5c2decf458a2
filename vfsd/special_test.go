package vfsd

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestSpecialFiles: a FIFO, a socket and a character device inside a
// grant are reported with their type by stat, lstat and list (they
// looked like regular files: issue 18), and opening one in any mode is
// refused at once (E_ARG "not a regular file"), never blocking vfsd on a
// FIFO without a writer or reader.
func TestSpecialFiles(t *testing.T) {
	tr := newTree(t)
	if err := syscall.Mkfifo(filepath.Join(tr.out, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: filepath.Join(tr.out, "sock")}); err != nil {
		t.Fatal(err)
	}
	syscall.Close(fd)
	mustSymlink(t, "fifo", filepath.Join(tr.out, "to-fifo"))
	cfg := tr.config()
	cfg.Inputs = append(cfg.Inputs, "/dev/null")
	c := connect(t, newServer(t, cfg))
	for _, tc := range []struct{ path, typ string }{
		{"out/fifo", vfsproto.TypeFIFO}, {"out/to-fifo", vfsproto.TypeFIFO},
		{"out/sock", vfsproto.TypeSocket}, {"/dev/null", vfsproto.TypeChar}, {"out/o.txt", ""},
	} {
		var st vfsproto.StatResult
		c.ok("stat", vfsproto.PathParams{Path: tc.path}, &st)
		if st.Type != tc.typ || st.IsDir {
			t.Errorf("stat %s: %+v, want type %q", tc.path, st, tc.typ)
		}
		if tc.path == "out/to-fifo" {
			continue
		}
		c.ok("lstat", vfsproto.PathParams{Path: tc.path}, &st)
		if st.Type != tc.typ {
			t.Errorf("lstat %s: %+v, want type %q", tc.path, st, tc.typ)
		}
		if tc.typ == "" {
			continue
		}
		for _, mode := range []vfsproto.Mode{"r", "w", "a", "rw"} {
			if tc.path == "/dev/null" && mode != "r" {
				continue // an -i grant: E_PERM
			}
			e := c.errOf("open", vfsproto.OpenParams{Path: tc.path, Mode: mode})
			if e == nil || e.Code != vfsproto.EArg || e.Message != msgNotRegular {
				t.Errorf("open %s %s: %v, want E_ARG %q", tc.path, mode, e, msgNotRegular)
			}
		}
	}
	// Listing a FIFO (a glob such as fifo/* asks for it) is "not a
	// directory" at once: it blocked vfsd until a writer came.
	for _, p := range []string{"out/fifo", "out/to-fifo"} {
		e := c.errOf("list", vfsproto.ListParams{Path: p})
		if e == nil || e.Code != vfsproto.EArg || e.Message != msgNotDir {
			t.Errorf("list %s: %v, want E_ARG %q", p, e, msgNotDir)
		}
	}
	var lr vfsproto.ListResult
	c.ok("list", vfsproto.ListParams{Path: "out"}, &lr)
	got := map[string]vfsproto.Entry{}
	for _, e := range lr.Entries {
		got[e.Name] = e
	}
	if got["fifo"].Type != vfsproto.TypeFIFO || got["sock"].Type != vfsproto.TypeSocket ||
		got["to-fifo"].Type != vfsproto.TypeFIFO || !got["to-fifo"].Symlink || got["o.txt"].Type != "" {
		t.Fatalf("list: %+v", lr.Entries)
	}
}
