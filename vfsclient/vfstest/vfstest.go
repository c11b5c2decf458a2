// Package vfstest gives tests a real vfsd session: an in-process
// vfsd.Server over a pipe pair and a connected vfsclient.Client.
package vfstest

import (
	"os"
	"testing"

	"github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsd"
)

// Session starts a vfsd server with cfg and returns a client connected to
// it. Cleanup closes the client, waits for the server and closes it.
func Session(t testing.TB, cfg vfsd.Config) *vfsclient.Client {
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
		err := srv.Serve(reqR, respW)
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
