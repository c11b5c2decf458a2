package vfsclient_test

import (
	"errors"
	"os"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsclient/vfstest"
	"github.com/llmsh/llmsh/vfsd"
)

// TestSendSent: Send sends a command's writes without waiting (corked
// with the next request); Sent confirms them all and names the first
// request that failed. Under write_stop the requests after it are
// refused, none of their bytes written, until Rearm.
func TestSendSent(t *testing.T) {
	for _, shm := range []bool{false, true} {
		cl := vfstest.Session(t, vfsd.Config{Dir: t.TempDir(), MaxVirtualBytes: 10})
		if shm {
			cl, _ = vfstest.SessionShm(t, vfsd.Config{Dir: t.TempDir(), MaxVirtualBytes: 10}, 8)
		}
		f, err := cl.OpenFile("/v", os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
		if err != nil {
			t.Fatal(err)
		}
		var sent []int64
		for _, s := range []string{"abcd", "efgh", "ijkl", "mn"} {
			if _, err := f.Write([]byte(s)); err != nil {
				t.Fatalf("shm %v: Write %q: %v", shm, s, err)
			}
			n, err := f.Send()
			if err != nil {
				t.Fatalf("shm %v: Send: %v", shm, err)
			}
			sent = append(sent, n)
		}
		if sent[3]-sent[0] != 3 {
			t.Fatalf("shm %v: requests %v, want one a Send", shm, sent)
		}
		at, err := f.Sent()
		// "ijkl" passes the budget of 10 bytes: its request is the
		// first to fail; "mn" (which would fit) is refused after it.
		if at != sent[2] || !errors.Is(err, syscall.EFBIG) {
			t.Fatalf("shm %v: Sent = %d, %v; want %d, File too large", shm, at, err, sent[2])
		}
		f.Rearm()
		if at, err := f.Sent(); at != 0 || err != nil {
			t.Fatalf("shm %v: after Rearm, Sent = %d, %v", shm, at, err)
		}
		if _, err := f.Write([]byte("mn")); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Send(); err != nil {
			t.Fatal(err)
		}
		if at, err := f.Sent(); at != 0 || err != nil {
			t.Fatalf("shm %v: mn again: Sent = %d, %v", shm, at, err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := cl.OpenFile("/v", os.O_RDONLY)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 64)
		n, _ := r.Read(b)
		if got := string(b[:n]); got != "abcdefghmn" {
			t.Fatalf("shm %v: the file holds %q", shm, got)
		}
		r.Close()
	}
}
