package vfsd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmsh/llmsh/vfsproto"
)

func TestAtomicWrite(t *testing.T) {
	tr := newTree(t)
	target := filepath.Join(tr.out, "o.txt")
	if err := os.Chmod(target, 0o600); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, tr.config())

	// A client that disconnects mid-write leaves the old content whole.
	c := connect(t, s)
	h := c.open("out/o.txt", "w")
	c.write(h, "partial new content")
	if got := readFile(t, target); got != "old\n" {
		t.Fatalf("target changed before close: %q", got)
	}
	// The temp file has no name until the close (O_TMPFILE), where the
	// system has them; elsewhere it is hidden beside the target.
	if tmps := tempFiles(t, tr.out); runtime.GOOS == "linux" && len(tmps) != 0 ||
		runtime.GOOS != "linux" && (len(tmps) != 1 || !strings.HasPrefix(tmps[0], ".o.txt.llmsh-tmp-")) {
		t.Fatalf("temp files during write: %v", tmps)
	}
	if err := c.hangUp(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, target); got != "old\n" {
		t.Fatalf("target after disconnect: %q", got)
	}
	if tmps := tempFiles(t, tr.out); len(tmps) != 0 {
		t.Fatalf("temp left behind: %v", tmps)
	}

	// A completed write replaces the content and keeps the mode.
	c = connect(t, s)
	c.put("out/o.txt", "w", "replaced")
	if got := readFile(t, target); got != "replaced" {
		t.Fatalf("target %q", got)
	}
	fi, err := os.Stat(target)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
	// A new file gets 0644; a symlinked target stays a symlink.
	c.put("out/n.txt", "w", "n")
	if fi, err := os.Stat(filepath.Join(tr.out, "n.txt")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("new mode %v %v", fi.Mode(), err)
	}
	mustSymlink(t, "n.txt", filepath.Join(tr.out, "link"))
	c.put("out/link", "w", "via link")
	if got := readFile(t, filepath.Join(tr.out, "n.txt")); got != "via link" {
		t.Fatalf("through link %q", got)
	}
	if fi, err := os.Lstat(filepath.Join(tr.out, "link")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link replaced: %v %v", fi.Mode(), err)
	}
	if tmps := tempFiles(t, tr.out); len(tmps) != 0 {
		t.Fatalf("temp left behind: %v", tmps)
	}
}

// TestAtomicWriteNewTarget: a truncating write of a file that does not
// exist makes the name an empty file as it opens, as a shell's
// redirection does (a listing made meanwhile shows it, a read finds it
// empty); the close puts the content there with the new file's mode, and
// a client gone before its close leaves the empty file and no temp.
func TestAtomicWriteNewTarget(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	c := connect(t, s)
	h := c.open("out/new.txt", "w")
	c.write(h, "content")
	if got := readFile(t, filepath.Join(tr.out, "new.txt")); got != "" {
		t.Fatalf("new target during the write: %q", got)
	}
	if got := c.cat("out/new.txt"); got != "" {
		t.Fatalf("read during the write: %q", got)
	}
	c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
	if got := readFile(t, filepath.Join(tr.out, "new.txt")); got != "content" {
		t.Fatalf("after close: %q", got)
	}
	if fi, err := os.Stat(filepath.Join(tr.out, "new.txt")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
	c.open("out/gone.txt", "w")
	if err := c.hangUp(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(tr.out, "gone.txt")); got != "" {
		t.Fatalf("after disconnect: %q", got)
	}
	if tmps := tempFiles(t, tr.out); len(tmps) != 0 {
		t.Fatalf("temp left behind: %v", tmps)
	}
}

// TestAtomicWriteRemovedTarget: a file removed while a truncating write
// has it open does not come back at the close (`exec 3> f; rm f; exec
// 3>&-` leaves no f, as on Linux); one a directory replaced keeps the
// directory, and the close fails, as a rename over it would.
func TestAtomicWriteRemovedTarget(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	c := connect(t, s)
	for _, name := range []string{"new.txt", "o.txt"} {
		h := c.open("out/"+name, "w")
		c.write(h, "content")
		if err := os.Remove(filepath.Join(tr.out, name)); err != nil {
			t.Fatal(err)
		}
		c.ok(vfsproto.OpClose, vfsproto.HandleParams{H: h}, nil)
		if _, err := os.Lstat(filepath.Join(tr.out, name)); !os.IsNotExist(err) {
			t.Fatalf("%s after its removal and the close: %v", name, err)
		}
	}
	h := c.open("out/d", "w")
	if err := os.Remove(filepath.Join(tr.out, "d")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(tr.out, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if resp := c.call(vfsproto.OpClose, vfsproto.HandleParams{H: h}); resp.OK {
		t.Fatalf("close over a directory: %+v", resp)
	}
	if fi, err := os.Lstat(filepath.Join(tr.out, "d")); err != nil || !fi.IsDir() {
		t.Fatalf("the directory after the close: %v", err)
	}
	if tmps := tempFiles(t, tr.out); len(tmps) != 0 {
		t.Fatalf("temp left behind: %v", tmps)
	}
}

func tempFiles(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".llmsh-tmp-") {
			out = append(out, e.Name())
		}
	}
	return out
}

func countFDs(t testing.TB) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// settle waits (yielding, bounded) until f reports the wanted value.
func settle(want int, f func() int) int {
	deadline := time.Now().Add(5 * time.Second)
	got := f()
	for got != want && time.Now().Before(deadline) {
		runtime.Gosched()
		got = f()
	}
	return got
}

func TestEOFCleanup(t *testing.T) {
	tr := newTree(t)
	s := newServer(t, tr.config())
	baseG := runtime.NumGoroutine()
	baseFD := countFDs(t)

	for round := range 3 {
		c := connect(t, s)
		c.open("in/a.txt", "r")
		c.open("out/o.txt", "w")
		c.open("out/o.txt", "a")
		c.mkdirAll("/virtual")
		c.open("/virtual/x", "w")
		c.ok("create_temp", nil, nil)
		// Leave requests in flight too.
		for i := range 20 {
			_, b := c.request("read", vfsproto.ReadParams{H: 3, Max: 1})
			c.send(b)
			_, b = c.request("list", vfsproto.ListParams{Path: "in"})
			c.send(b)
			_ = i
		}
		if st := s.Stats(); st.OpenHandles != 5 {
			t.Fatalf("round %d: open handles %d", round, st.OpenHandles)
		}
		go drain(c.r)
		if err := c.hangUp(); err != nil {
			t.Fatal(err)
		}
		if st := s.Stats(); st.OpenHandles != 0 {
			t.Fatalf("round %d: open handles after EOF %d", round, st.OpenHandles)
		}
		c.r.Close()
	}
	if got := settle(baseG, runtime.NumGoroutine); got > baseG {
		buf := make([]byte, 1<<16)
		t.Fatalf("goroutines %d > baseline %d\n%s", got, baseG, buf[:runtime.Stack(buf, true)])
	}
	if got := settle(baseFD, func() int { return countFDs(t) }); got > baseFD {
		t.Fatalf("fds %d > baseline %d", got, baseFD)
	}
	if got := readFile(t, filepath.Join(tr.out, "o.txt")); got != "old\n" {
		t.Fatalf("unfinished write reached the target: %q", got)
	}
	if tmps := tempFiles(t, tr.out); len(tmps) != 0 {
		t.Fatalf("temp left: %v", tmps)
	}
}

func drain(f *os.File) {
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Read(buf); err != nil {
			return
		}
	}
}

// TestConcurrentPipelinedClients runs several clients at once, each
// pipelining reads on several handles without waiting; responses are
// matched by id and every handle's data must come back in order.
func TestConcurrentPipelinedClients(t *testing.T) {
	tr := newTree(t)
	content := map[string][]byte{}
	for i := range 4 {
		name := fmt.Sprintf("f%d.txt", i)
		data := bytes.Repeat([]byte(fmt.Sprintf("<%d:%s>", i, strings.Repeat("z", i))), 500+i*37)
		content[name] = data
		writeFile(t, filepath.Join(tr.in, name), string(data))
	}
	s := newServer(t, tr.config())
	var wg sync.WaitGroup
	for ci := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := connect(t, s)
			handles := map[int64]string{}
			for name := range content {
				handles[c.open("in/"+name, "r")] = name
			}
			// Pipeline: for each handle, enough 7-byte reads to pass EOF.
			type want struct {
				h   int64
				seq int
			}
			ids := map[string]want{}
			var frames [][]byte
			for h, name := range handles {
				for k := 0; k <= len(content[name])/7+1; k++ {
					id, b := c.request("read", vfsproto.ReadParams{H: h, Max: 7})
					ids[id] = want{h, k}
					frames = append(frames, b)
				}
			}
			// A virtual file per client, opened concurrently with the reads.
			_, b := c.request("open", vfsproto.OpenParams{Path: fmt.Sprintf("/tmp/v%d", ci), Mode: "w"})
			frames = append(frames, b)
			go func() {
				for _, b := range frames {
					c.send(b)
				}
			}()
			got := map[int64][][]byte{}
			for range frames {
				resp := c.recv()
				if !resp.OK {
					t.Errorf("client %d: %+v %v", ci, resp, resp.Error)
					return
				}
				w, ok := ids[resp.ID]
				if !ok {
					continue
				}
				var rr vfsproto.ReadResult
				if err := json.Unmarshal(resp.Result, &rr); err != nil {
					t.Error(err)
					return
				}
				for len(got[w.h]) <= w.seq {
					got[w.h] = append(got[w.h], nil)
				}
				got[w.h][w.seq] = rr.Data
			}
			for h, name := range handles {
				if all := bytes.Join(got[h], nil); !bytes.Equal(all, content[name]) {
					t.Errorf("client %d handle %d: got %d bytes, want %d", ci, h, len(all), len(content[name]))
				}
			}
		}()
	}
	wg.Wait()
	if st := s.Stats(); st.VirtualFiles != 4 {
		t.Fatalf("virtual files %d", st.VirtualFiles)
	}
}

func TestHangUpWithoutReading(t *testing.T) {
	tr := newTree(t)
	c := connect(t, newServer(t, tr.config()))
	c.r.Close()
	for range 200 {
		_, b := c.request("list", vfsproto.ListParams{Path: "in"})
		c.send(b)
	}
	if err := c.hangUp(); err != nil {
		t.Fatalf("Serve = %v", err)
	}
}
