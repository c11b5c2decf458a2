package vfsd

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/llmsh/llmsh/vfsproto"
)

// memfd makes a memory file of size bytes with the given seals (0: none)
// and returns its descriptor (closed at the end of the test unless MapShm
// takes it).
func memfd(t *testing.T, size int, seals int) int {
	t.Helper()
	fd, err := unix.MemfdCreate("shm-test", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		t.Fatalf("memfd_create: %v", err)
	}
	if err := unix.Ftruncate(fd, int64(size)); err != nil {
		t.Fatal(err)
	}
	if seals != 0 {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS, seals); err != nil {
			t.Fatal(err)
		}
	}
	return fd
}

const sealed = unix.F_SEAL_SHRINK | unix.F_SEAL_GROW

// MapShm takes only a sealed memory file of whole slots: a region that
// could shrink under vfsd's mapping would let its client kill vfsd with
// SIGBUS.
func TestMapShm(t *testing.T) {
	regular := filepath.Join(t.TempDir(), "region")
	writeFile(t, regular, strings.Repeat("x", vfsproto.ShmSlot))
	open := func() int {
		f, err := os.Open(regular)
		if err != nil {
			t.Fatal(err)
		}
		fd, err := unix.Dup(int(f.Fd()))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		return fd
	}
	for _, tc := range []struct {
		name string
		fd   func() int
		want string // "" for success
	}{
		{"sealed", func() int { return memfd(t, 2*vfsproto.ShmSlot, sealed) }, ""},
		{"sealed and closed to more seals", func() int { return memfd(t, vfsproto.ShmSlot, sealed|unix.F_SEAL_SEAL) }, ""},
		{"unsealed", func() int { return memfd(t, vfsproto.ShmSlot, 0) }, "sealed against shrinking and growing"},
		{"may shrink", func() int { return memfd(t, vfsproto.ShmSlot, unix.F_SEAL_GROW) }, "sealed against shrinking and growing"},
		{"regular file", open, "not a sealable memory file"},
		{"empty", func() int { return memfd(t, 0, sealed) }, "is not 1 to"},
		{"not whole slots", func() int { return memfd(t, vfsproto.ShmSlot+1, sealed) }, "is not 1 to"},
		{"too many slots", func() int { return memfd(t, (vfsproto.MaxShmSlots+1)*vfsproto.ShmSlot, sealed) }, "is not 1 to"},
		{"not open", func() int { return 1 << 20 }, "bad file descriptor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fd := tc.fd()
			mem, err := MapShm(fd)
			if tc.want == "" {
				if err != nil || len(mem) == 0 {
					t.Fatalf("MapShm = %d bytes, %v", len(mem), err)
				}
				mem[len(mem)-1] = 1 // writable
				unix.Munmap(mem)
			} else if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("MapShm = %v, want an error with %q", err, tc.want)
			}
			// MapShm closes the descriptor whatever happens.
			if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil {
				t.Fatalf("descriptor %d left open", fd)
			}
		})
	}
}

// vfsd --shm-fd: a client that asks for read_shm finds the file's bytes in
// the memory file it passed.
func TestMainShmFD(t *testing.T) {
	tr := newTree(t)
	fd := memfd(t, 2*vfsproto.ShmSlot, sealed)
	mine, err := unix.Mmap(fd, 0, 2*vfsproto.ShmSlot, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mine)
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, w: reqW, r: respR, done: make(chan error, 1)}
	var errOut bytes.Buffer
	status := make(chan int, 1)
	go func() {
		status <- Main([]string{"-i", tr.in, "--shm-fd", strconv.Itoa(fd)}, reqR, respW, &errOut, nil)
		respW.Close()
	}()
	hr := c.helloShm()
	if hr.ShmSlots != 2 {
		t.Fatalf("hello = %+v", hr)
	}
	h := c.open(filepath.Join(tr.in, "sub", "b.txt"), vfsproto.ModeRead)
	if r := c.readShm(h, 100, 1); string(mine[vfsproto.ShmSlot:][:r.Size]) != "bee\n" {
		t.Fatalf("read_shm through --shm-fd = %+v %q", r, mine[vfsproto.ShmSlot:][:4])
	}
	reqW.Close()
	if st := <-status; st != 0 {
		t.Fatalf("status %d, stderr %q", st, errOut.String())
	}
	respR.Close()
	reqR.Close()

	// Usage errors.
	for _, tc := range []struct{ fd, want string }{
		{"2", "--shm-fd must be 3 or more"},
		{strconv.Itoa(memfd(t, vfsproto.ShmSlot, 0)), "sealed against shrinking"},
	} {
		var out, errb bytes.Buffer
		if st := Main([]string{"--shm-fd", tc.fd}, strings.NewReader(""), &out, &errb, nil); st != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("--shm-fd %s: status %d, stderr %q", tc.fd, st, errb.String())
		}
	}
}
