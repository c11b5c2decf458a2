// Package vfstest gives tests a real vfsd session: an in-process
// vfsd.Server over a pipe pair and a connected vfsclient.Client.
package vfstest

import (
	"os"
	"testing"

	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsd"
	"github.com/llmsh/llmsh/vfsproto"
)

// Session starts a vfsd server with cfg and returns a client connected to
// it, after the hello exchange llmsh makes (so files are read with
// read_bulk, as in llmsh). Cleanup closes the client, waits for the server
// and closes it.
func Session(t testing.TB, cfg vfsd.Config) *vfsclient.Client {
	t.Helper()
	c := SessionNoHello(t, cfg)
	if _, err := c.Hello(); err != nil {
		t.Fatalf("hello: %v", err)
	}
	return c
}

// SessionShm is Session with a read_shm region of the given number of
// slots shared by the client and the server (memory of the test process,
// where llmsh shares a memory file with its vfsd process). It returns
// the region too.
func SessionShm(t testing.TB, cfg vfsd.Config, slots int) (*vfsclient.Client, []byte) {
	t.Helper()
	shm := make([]byte, slots*vfsproto.ShmSlot)
	c := session(t, cfg, shm)
	c.UseShm(shm)
	if _, err := c.Hello(); err != nil {
		t.Fatalf("hello: %v", err)
	}
	return c, shm
}

// SessionNoHello is Session without the hello exchange: the client speaks
// only seed 000's operations (4 KiB base64 reads).
func SessionNoHello(t testing.TB, cfg vfsd.Config) *vfsclient.Client {
	t.Helper()
	return session(t, cfg, nil)
}

// session starts the server, with the read_shm region shm if not nil.
func session(t testing.TB, cfg vfsd.Config, shm []byte) *vfsclient.Client {
	t.Helper()
	srv, err := vfsd.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		err := srv.ServeShm(reqR, respW, shm)
		respW.Close()
		reqR.Close()
		done <- err
	}()
	c := vfsclient.New(respR, reqW)
	t.Cleanup(func() {
		c.Close()
		if err := <-done; err != nil {
			t.Errorf("vfsd: %v", err)
		}
		respR.Close()
		srv.Close()
	})
	return c
}
