package vfsclient_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
	"github.com/llmsh/llmsh/vfsproto"
)

func session(t *testing.T) (*vfsclient.Client, string, string) {
	in, out := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(in, "r.txt"), []byte("readable\n"), 0o644)
	os.Mkdir(filepath.Join(in, "sub"), 0o755)
	return vfstest.Session(t, vfsd.Config{Inputs: []string{in}, Outputs: []string{out}, MaxVirtualBytes: 1 << 20}), in, out
}

func TestRoundTripLarge(t *testing.T) {
	c, _, out := session(t)
	data := bytes.Repeat([]byte("0123456789abcdef"), 200_000) // 3.2 MB
	name := filepath.Join(out, "big")
	f, err := c.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := f.Write(data); err != nil || n != len(data) {
		t.Fatalf("write %d %v", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.ReadFile(name)
	if !bytes.Equal(host, data) {
		t.Fatal("host file differs")
	}
	r, err := c.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back: %d bytes, %v", len(got), err)
	}
	// Seek in the middle of read-ahead, then read on.
	if _, err := r.Seek(16*1000+3, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	io.ReadFull(r, buf)
	if string(buf) != "3456789abcdef"[:5] {
		t.Fatalf("after seek: %q", buf)
	}
	if off, _ := r.Seek(-2, io.SeekEnd); off != int64(len(data)-2) {
		t.Fatalf("seek end: %d", off)
	}
	rest, _ := io.ReadAll(r)
	if string(rest) != "ef" {
		t.Fatalf("tail: %q", rest)
	}
	st, err := r.Stat()
	if err != nil || st.Size() != int64(len(data)) {
		t.Fatalf("stat %v %v", st, err)
	}
	r.Close()
}

func TestErrorMapping(t *testing.T) {
	c, in, _ := session(t)
	tests := []struct {
		name  string
		open  func() error
		errno syscall.Errno
		is    error
	}{
		{"missing", func() error { _, err := c.Open(filepath.Join(in, "nope")); return err }, syscall.ENOENT, fs.ErrNotExist},
		{"outside", func() error { _, err := c.Open("/etc/passwd"); return err }, syscall.ENOENT, fs.ErrNotExist},
		{"read-only tree", func() error { _, err := c.Create(filepath.Join(in, "w")); return err }, syscall.EACCES, fs.ErrPermission},
		{"directory", func() error { _, err := c.Open(filepath.Join(in, "sub")); return err }, syscall.EISDIR, nil},
		{"stat outside", func() error { _, err := c.Stat("/etc/passwd"); return err }, syscall.ENOENT, fs.ErrNotExist},
		{"virtual dir", func() error { return c.Mkdir("/scratch/d", 0o755) }, syscall.ENOENT, fs.ErrNotExist},
	}
	for _, tc := range tests {
		err := tc.open()
		var errno syscall.Errno
		if !errors.As(err, &errno) || errno != tc.errno {
			t.Errorf("%s: %v, want errno %v", tc.name, err, tc.errno)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: %v is not %v", tc.name, err, tc.is)
		}
		var pe *vfsclient.Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: no protocol error in %v", tc.name, err)
		}
	}
}

// TestStrictReason: a write refused under --strict because it lies
// outside the -o trees is EACCES with the reason tools print after it; a
// write into a read-only tree is EACCES with none.
func TestStrictReason(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	c := vfstest.Session(t, vfsd.Config{Inputs: []string{in}, Outputs: []string{out}, Strict: true})
	for _, tc := range []struct {
		name   string
		err    error
		reason string
	}{
		{"mkdir outside", c.Mkdir("/scratch", 0o755), vfsclient.ReasonOutside},
		{"create outside", func() error { _, err := c.Create("/x"); return err }(), vfsclient.ReasonOutside},
		{"create read-only", func() error { _, err := c.Create(filepath.Join(in, "x")); return err }(), ""},
	} {
		var pe *vfsclient.Error
		if !errors.Is(tc.err, syscall.EACCES) || !errors.As(tc.err, &pe) || pe.Reason() != tc.reason {
			t.Errorf("%s: %v, want EACCES with reason %q", tc.name, tc.err, tc.reason)
		}
	}
}

func TestVirtualFilesAndList(t *testing.T) {
	c, in, _ := session(t)
	if _, err := c.Create("/tmp/scratch/a.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a file in a missing directory: %v", err)
	}
	if err := c.Mkdir("/tmp/scratch", 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := c.Create("/tmp/scratch/a.txt")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("virtual"))
	f.Close()
	r, err := c.Open("/tmp/scratch/a.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	r.Close()
	if string(b) != "virtual" {
		t.Fatalf("%q", b)
	}
	vf, err := c.VirtualFiles()
	if err != nil || len(vf) != 1 || vf[0].Path != "/tmp/scratch/a.txt" || vf[0].Size != 7 {
		t.Fatalf("virtual files %v %v", vf, err)
	}
	ents, err := c.ReadDir(in)
	if err != nil || len(ents) != 2 || ents[0].Name() != "r.txt" || !ents[1].IsDir() {
		t.Fatalf("readdir %v %v", ents, err)
	}
}

func TestWriteBehindErrorSurfaces(t *testing.T) {
	c, _, _ := session(t)
	f, err := c.Create("/tmp/huge")
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 256<<10)
	var werr error
	for i := 0; i < 8 && werr == nil; i++ {
		_, werr = f.Write(chunk)
	}
	cerr := f.Close()
	err = werr
	if err == nil {
		err = cerr
	}
	var pe *vfsclient.Error
	if !errors.As(err, &pe) || pe.Code != vfsproto.ERange {
		t.Fatalf("want E_RANGE past MaxVirtualBytes, got %v / %v", werr, cerr)
	}
}

// TestFlushReportsLateWriteError: a Write that returned before vfsd
// answered is reported by Flush, and every later Write, Flush and Close
// report it again; a Flush with nothing outstanding is nil.
func TestFlushReportsLateWriteError(t *testing.T) {
	c, _, _ := session(t)
	f, err := c.Create("/tmp/over")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(make([]byte, 1<<20-10)); err != nil {
		t.Fatal(err)
	}
	if err := f.Flush(); err != nil {
		t.Fatalf("Flush after writes that fit: %v", err)
	}
	if _, err := f.Write(make([]byte, 20)); err != nil {
		t.Fatalf("the write is sent without waiting, yet failed at once: %v", err)
	}
	err = f.Flush()
	if !errors.Is(err, syscall.EFBIG) {
		t.Fatalf("Flush: want the budget's EFBIG, got %v", err)
	}
	if _, err := f.Write([]byte("x")); !errors.Is(err, syscall.EFBIG) {
		t.Fatalf("a later Write: want EFBIG, got %v", err)
	}
	if err := f.Close(); !errors.Is(err, syscall.EFBIG) {
		t.Fatalf("Close: want EFBIG, got %v", err)
	}
}

func TestConcurrentClients(t *testing.T) {
	c, _, out := session(t)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			name := filepath.Join(out, fmt.Sprintf("f%d", g))
			want := strings.Repeat(fmt.Sprintf("goroutine %d\n", g), 3000)
			for i := 0; i < 3; i++ {
				f, err := c.Create(name)
				if err != nil {
					t.Error(err)
					return
				}
				f.Write([]byte(want))
				if err := f.Close(); err != nil {
					t.Error(err)
					return
				}
				r, err := c.Open(name)
				if err != nil {
					t.Error(err)
					return
				}
				got, _ := io.ReadAll(r)
				r.Close()
				if string(got) != want {
					t.Errorf("goroutine %d: content mixed", g)
				}
			}
		}(g)
	}
	wg.Wait()
}

func TestServerGone(t *testing.T) {
	srv, err := vfsd.New(vfsd.Config{Inputs: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	reqR, reqW, _ := os.Pipe()
	respR, respW, _ := os.Pipe()
	c := vfsclient.New(respR, reqW)
	// Nobody serves: close the answer side as a dying vfsd would.
	respW.Close()
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("client did not notice vfsd exiting")
	}
	_, err = c.Stat("/x")
	if !errors.Is(err, vfsclient.ErrServerGone) {
		t.Fatalf("got %v", err)
	}
	reqR.Close()
	reqW.Close()
	respR.Close()
}

func TestMuxServesStdioLocally(t *testing.T) {
	c, in, _ := session(t)
	var out, errb bytes.Buffer
	m := vfsclient.NewMux(c, strings.NewReader("input"), &out, &errb)
	before, _ := c.Stats()
	data, eof, err := m.Read(0, 4096)
	if err != nil || eof || string(data) != "input" {
		t.Fatalf("stdin %q %v %v", data, eof, err)
	}
	m.Write(1, []byte("o"))
	m.Write(2, []byte("e"))
	if m.Close(0) != nil || m.Close(1) != nil || m.Close(2) != nil {
		t.Fatal("close of stdio must be a no-op")
	}
	after, _ := c.Stats()
	// Only the stats request itself reached the server in between.
	if after.Requests-before.Requests != 1 || out.String() != "o" || errb.String() != "e" {
		t.Fatalf("requests %d→%d out %q err %q", before.Requests, after.Requests, out.String(), errb.String())
	}
	h, err := m.Open(filepath.Join(in, "r.txt"), vfsproto.ModeRead)
	if err != nil || h < 3 {
		t.Fatalf("open %d %v", h, err)
	}
	data, _, err = m.Read(h, 100)
	if err != nil || string(data) != "readable\n" {
		t.Fatalf("read %q %v", data, err)
	}
	m.Close(h)
}

// A small file costs a small read-ahead (the window starts at 4 requests
// and doubles while data keeps coming): opening many small files must not
// cost a full read-ahead each.
func TestSmallFileFewReads(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "small"), []byte("tiny\n"), 0o644)
	c := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}})
	f, err := c.Open(filepath.Join(dir, "small"))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(f); err != nil || string(b) != "tiny\n" {
		t.Fatalf("%q %v", b, err)
	}
	f.Close()
	st, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Reads > 4 {
		t.Fatalf("a 5-byte file took %d read requests, want at most 4", st.Reads)
	}
}

// TestErrnoOfFullDisk: vfsd's E_IO "no space left on device" is ENOSPC to
// the tools (GNU's "No space left on device"); other E_IO is EIO.
func TestErrnoOfFullDisk(t *testing.T) {
	for _, c := range []struct {
		e    vfsclient.Error
		want syscall.Errno
	}{
		{vfsclient.Error{Code: vfsproto.EIO, Msg: "no space left on device"}, syscall.ENOSPC},
		{vfsclient.Error{Code: vfsproto.EIO, Msg: "input/output error"}, syscall.EIO},
		{vfsclient.Error{Code: vfsproto.ERange, Msg: "file too large"}, syscall.EFBIG},
		// A new virtual name past the virtual budget, as a full tmpfs.
		{vfsclient.Error{Code: vfsproto.ERange, Msg: "no space left on device"}, syscall.ENOSPC},
		{vfsclient.Error{Code: vfsproto.EArg, Msg: "file name too long"}, syscall.ENAMETOOLONG},
		// vfsd's handle limit: "Too many open files", not "File too large".
		{vfsclient.Error{Code: vfsproto.ERange, Msg: "too many open handles"}, syscall.EMFILE},
	} {
		if got := c.e.Errno(); got != c.want || !errors.Is(&c.e, c.want) {
			t.Errorf("%+v: %v, want %v", c.e, got, c.want)
		}
	}
}

// TestReadDirSymlinks: an entry that is a symbolic link follows
// os.ReadDir's contract (Type is fs.ModeSymlink, IsDir false, Info
// describes the link itself, with the link's size), and LinkTarget says
// what vfsd reached through the tree. A link leaving the tree shows
// nothing of its target.
func TestReadDirSymlinks(t *testing.T) {
	c, in, _ := session(t)
	secret := t.TempDir()
	os.Mkdir(filepath.Join(secret, "d"), 0o755)
	for name, to := range map[string]string{
		"lfile": "r.txt", "ldir": "sub", "ldangle": "none",
		"lout": filepath.Join(secret, "d"),
	} {
		if err := os.Symlink(to, filepath.Join(in, name)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := c.ReadDir(in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadDir(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("readdir %v, os %v", got, want)
	}
	targets := map[string]struct {
		isDir bool
		size  int64
	}{"lfile": {false, 9}, "ldir": {true, 0}, "ldangle": {false, 0}, "lout": {false, 0}}
	for i, g := range got {
		w := want[i]
		if g.Name() != w.Name() || g.IsDir() != w.IsDir() || g.Type() != w.Type() {
			t.Errorf("entry %v, os %v", g, w)
		}
		gi, err := g.Info()
		if err != nil {
			t.Fatalf("%s: Info: %v", g.Name(), err)
		}
		wi, _ := w.Info()
		if gi.Mode().Type() != wi.Mode().Type() || gi.IsDir() != wi.IsDir() || gi.Name() != wi.Name() {
			t.Errorf("%s: Info mode %v, os %v", g.Name(), gi.Mode(), wi.Mode())
		}
		isDir, size, ok := vfsclient.LinkTarget(g)
		tw, isLink := targets[g.Name()]
		if ok != isLink {
			t.Errorf("%s: LinkTarget ok %v", g.Name(), ok)
		}
		if !isLink {
			continue
		}
		if gi.Size() != wi.Size() {
			t.Errorf("%s: link size %d, os %d", g.Name(), gi.Size(), wi.Size())
		}
		if isDir != tw.isDir || size != tw.size {
			t.Errorf("%s: LinkTarget %v %d, want %v %d", g.Name(), isDir, size, tw.isDir, tw.size)
		}
	}
}

// Changed says whether the client asked for anything that can make a
// virtual file: reads, stats and listings do not; an open for writing,
// create_temp, mkdir and the other tree changes do.
func TestChanged(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a"), []byte("a\n"), 0o644)
	for _, tc := range []struct {
		name string
		do   func(c *vfsclient.Client)
		want bool
	}{
		{"reads", func(c *vfsclient.Client) {
			f, _ := c.Open(filepath.Join(dir, "a"))
			io.ReadAll(f)
			f.Close()
			c.Stat(dir)
			c.ReadDir(dir)
			c.Lstat(filepath.Join(dir, "nosuch"))
		}, false},
		{"create", func(c *vfsclient.Client) { f, _ := c.Create("/tmp/v"); f.Close() }, true},
		{"append refused", func(c *vfsclient.Client) { c.OpenFile(filepath.Join(dir, "a"), os.O_WRONLY|os.O_APPEND) }, true},
		{"create_temp", func(c *vfsclient.Client) { c.CreateTemp("x") }, true},
		{"mkdir", func(c *vfsclient.Client) { c.Mkdir("/tmp/d", 0o755) }, true},
		{"remove", func(c *vfsclient.Client) { c.Remove("/elsewhere/nosuch") }, true},
	} {
		c := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}})
		tc.do(c)
		if got := c.Changed(); got != tc.want {
			t.Errorf("%s: Changed = %v, want %v", tc.name, got, tc.want)
		}
		if vf, err := c.VirtualFiles(); err != nil || (len(vf) > 0 && !c.Changed()) {
			t.Errorf("%s: virtual files %v (%v) while Changed is false", tc.name, vf, err)
		}
	}
}

// Closing a read-only file does not wait for vfsd's answer, yet vfsd has
// taken the handle out of its table before any later request: opening
// and closing more files than a client may hold at once never meets the
// handle limit.
func TestReadOnlyCloseNotAwaited(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a")
	os.WriteFile(name, []byte("a\n"), 0o644)
	c := vfstest.Session(t, vfsd.Config{Inputs: []string{dir}})
	for i := range vfsd.MaxHandles + 100 {
		f, err := c.Open(name)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		if err := f.Close(); err != nil {
			t.Fatalf("close %d: %v", i, err)
		}
		if err := f.Close(); err == nil {
			t.Fatalf("second close %d: no error", i)
		}
	}
	st, err := c.Stats()
	if err != nil || st.Opens != vfsd.MaxHandles+100 {
		t.Fatalf("stats %+v, %v", st, err)
	}
}
