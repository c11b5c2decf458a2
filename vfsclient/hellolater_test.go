package vfsclient_test

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"testing"

	. "github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsproto"
)

// readRequest reads one request frame from r.
func readRequest(t *testing.T, r io.Reader) vfsproto.Request {
	t.Helper()
	b, err := vfsproto.ReadFrame(r, nil)
	var req vfsproto.Request
	if err == nil {
		err = json.Unmarshal(b, &req)
	}
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// After HelloLater the first request waits for hello's answer and is
// made as that answer says: a name that is not UTF-8 goes to vfsd in
// byte_names form, where before hello the client would refuse it.
func TestHelloLaterWaits(t *testing.T) {
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	c := New(respR, reqW)
	defer c.Close()
	hello := make(chan vfsproto.Request, 1)
	go func() { hello <- readRequest(t, reqR) }()
	c.HelloLater()
	if req := <-hello; req.Op != vfsproto.OpHello || c.Asked() || !c.Later() {
		t.Fatalf("sent %+v, asked %v, later %v: want hello alone", req, c.Asked(), c.Later())
	} else {
		statErr := make(chan error, 1)
		go func() {
			_, err := c.Stat("\xff")
			statErr <- err
		}()
		res := vfsproto.HelloResult{Version: vfsproto.Version, Features: []string{vfsproto.FeatureByteNames}}
		b, err := json.Marshal(vfsproto.Response{ID: req.ID, OK: true, Result: mustRaw(t, res)})
		if err != nil {
			t.Fatal(err)
		}
		f, _ := vfsproto.AppendFrame(nil, b)
		go respW.Write(f)
		stat := readRequest(t, reqR)
		if stat.Op != vfsproto.OpStat || !c.Asked() {
			t.Fatalf("sent %+v after hello (asked %v), want a stat", stat, c.Asked())
		}
		b, _ = json.Marshal(vfsproto.Response{ID: stat.ID, Error: &vfsproto.Error{Code: vfsproto.ENoEnt}})
		f, _ = vfsproto.AppendFrame(nil, b)
		go respW.Write(f)
		if err := <-statErr; !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("stat: %v, want ENOENT", err)
		}
	}
}

// A hello that fails (vfsd gone before answering) is the error of the
// first request, and of every later one.
func TestHelloLaterFails(t *testing.T) {
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	c := New(respR, reqW)
	defer c.Close()
	go io.Copy(io.Discard, reqR)
	c.HelloLater()
	respW.Close()
	for range 2 {
		if _, err := c.Stat("f"); !errors.Is(err, ErrServerGone) {
			t.Fatalf("stat: %v, want ErrServerGone", err)
		}
	}
	if !c.Asked() {
		t.Fatal("Asked is false after a request")
	}
}
