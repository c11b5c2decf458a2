package vfsclient_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestOpenLater: with open_named, OpenLater's open, the file's writes
// and CloseLater's close wait in the cork and are answered later; the
// lines of a loop of them land in order, whatever else is read between;
// a failed open is OpenErr's and every wait's error, never a write's
// that lands elsewhere.
func TestOpenLater(t *testing.T) {
	for _, shm := range []bool{false, true} {
		dir := t.TempDir()
		out := filepath.Join(dir, "out")
		if err := os.Mkdir(out, 0o755); err != nil {
			t.Fatal(err)
		}
		cfg := vfsd.Config{Dir: dir, Outputs: []string{out}, MaxVirtualBytes: 10}
		cl := vfstest.Session(t, cfg)
		if shm {
			cl, _ = vfstest.SessionShm(t, cfg, 8)
		}
		if !cl.NamedOpens() {
			t.Fatal("open_named not negotiated")
		}
		var files []*vfsclient.File
		want := ""
		for i := range 50 {
			f, err := cl.OpenLater(filepath.Join(out, "a"), os.O_WRONLY|os.O_CREATE|os.O_APPEND)
			if err != nil {
				t.Fatal(err)
			}
			if !f.Lazy() {
				t.Fatal("not lazy")
			}
			line := strconv.Itoa(i) + "\n"
			want += line
			if _, err := f.Write([]byte(line)); err != nil {
				t.Fatal(err)
			}
			if _, err := f.Send(); err != nil {
				t.Fatal(err)
			}
			if err := f.CloseLater(); err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
			if i == 25 {
				// A read between: it sees every line before it.
				b, err := readAll(cl, filepath.Join(out, "a"))
				if err != nil || string(b) != want {
					t.Fatalf("shm %v: read in the loop: %q, %v; want %q", shm, b, err, want)
				}
			}
		}
		for _, f := range files {
			if err := f.OpenErr(); err != nil {
				t.Fatal(err)
			}
			if at, err := f.Sent(); at != 0 || err != nil {
				t.Fatalf("Sent = %d, %v", at, err)
			}
			if err := f.CloseErr(); err != nil {
				t.Fatal(err)
			}
		}
		if b, err := os.ReadFile(filepath.Join(out, "a")); err != nil || string(b) != want {
			t.Fatalf("shm %v: a = %q, %v", shm, b, err)
		}

		// A name the fast encoder leaves to encoding/json.
		q, err := cl.OpenLater(filepath.Join(out, "q\"\\x"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
		if err != nil {
			t.Fatal(err)
		}
		q.Write([]byte("q\n"))
		q.CloseLater()
		if err := q.CloseErr(); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join(out, "q\"\\x")); err != nil || string(b) != "q\n" {
			t.Fatalf("q = %q, %v", b, err)
		}

		// Failures of the open: a missing directory, a directory.
		for _, tc := range []struct {
			path string
			want error
		}{
			{filepath.Join(out, "nodir", "f"), fs.ErrNotExist},
			{out, syscall.EISDIR},
		} {
			f, err := cl.OpenLater(tc.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Write([]byte("lost\n")); err != nil {
				t.Fatal(err)
			}
			f.Send()
			f.CloseLater()
			if err := f.OpenErr(); !errors.Is(err, tc.want) {
				t.Fatalf("%s: OpenErr = %v, want %v", tc.path, err, tc.want)
			}
			if _, err := f.Sent(); !errors.Is(err, tc.want) {
				t.Fatalf("%s: Sent = %v, want the open's", tc.path, err)
			}
			if err := f.CloseErr(); err != nil {
				t.Fatalf("%s: CloseErr = %v, want nil (the open's failure is OpenErr's)", tc.path, err)
			}
		}
		// A write over the virtual budget fails; the next file is tried.
		f, _ := cl.OpenLater("/v", os.O_WRONLY|os.O_CREATE|os.O_APPEND)
		f.Write([]byte("0123456789abc"))
		f.Send()
		f.CloseLater()
		if at, err := f.Sent(); at != 1 || !errors.Is(err, syscall.EFBIG) {
			t.Fatalf("over budget: Sent = %d, %v", at, err)
		}
		f.CloseErr()
		g, _ := cl.OpenLater("/v", os.O_WRONLY|os.O_CREATE|os.O_APPEND)
		g.Write([]byte("ok\n"))
		if err := g.Close(); err != nil {
			t.Fatal(err)
		}
		if b, err := readAll(cl, "/v"); err != nil || string(b) != "ok\n" {
			t.Fatalf("/v = %q, %v", b, err)
		}
	}
}

func readAll(cl *vfsclient.Client, name string) ([]byte, error) {
	f, err := cl.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// TestSettled: Settled takes the answers that came to a File of
// OpenLater without waiting or sending the cork, and says true only once
// the open, the writes and the close all came and all succeeded; a
// failed open or close is false, and still OpenErr's or CloseErr's. A
// close left in the cork after Settled took the other answers is sent
// by CloseErr (it waited for it forever).
func TestSettled(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	cl := vfstest.Session(t, vfsd.Config{Dir: dir, Outputs: []string{out}, Strict: true})
	open := func(name string) *vfsclient.File {
		t.Helper()
		f, err := cl.OpenLater(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("x\n")); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Send(); err != nil {
			t.Fatal(err)
		}
		return f
	}
	answered := func() { // a round trip: what was corked is answered
		t.Helper()
		if _, err := cl.Stat(out); err != nil {
			t.Fatal(err)
		}
	}

	f := open(filepath.Join(out, "a"))
	if f.Settled() {
		t.Fatal("Settled before the file was closed")
	}
	answered()
	if err := f.CloseLater(); err != nil {
		t.Fatal(err)
	}
	if f.Settled() {
		t.Fatal("Settled with the close in the cork")
	}
	if err := f.CloseErr(); err != nil {
		t.Fatalf("CloseErr: %v", err)
	}

	g := open(filepath.Join(out, "b"))
	if err := g.CloseLater(); err != nil {
		t.Fatal(err)
	}
	answered()
	if !g.Settled() || g.OpenErr() != nil || g.CloseErr() != nil {
		t.Fatal("not Settled once every answer came")
	}

	h := open(filepath.Join(dir, "outside")) // --strict: the open fails
	if err := h.CloseLater(); err != nil {
		t.Fatal(err)
	}
	answered()
	if h.Settled() {
		t.Fatal("Settled after a failed open")
	}
	if err := h.OpenErr(); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("OpenErr after Settled: %v", err)
	}
	h.CloseErr()
	if b, err := os.ReadFile(filepath.Join(out, "a")); err != nil || string(b) != "x\n" {
		t.Fatalf("a: %q %v", b, err)
	}
}
