package vfsclient_test

import (
	"encoding/json"
	"io"
	"testing"

	. "github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsproto"
)

// SendHello has sent hello when it returns (llmsh works while vfsd
// answers), and its second half takes the answer as Hello does.
func TestSendHello(t *testing.T) {
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	c := New(respR, reqW)
	defer c.Close()
	sent := make(chan vfsproto.Request, 1)
	go func() {
		b, err := vfsproto.ReadFrame(reqR, nil)
		var req vfsproto.Request
		if err == nil {
			err = json.Unmarshal(b, &req)
		}
		if err != nil {
			t.Error(err)
		}
		sent <- req
	}()
	wait := c.SendHello()
	req := <-sent // io.Pipe: the frame was written by SendHello itself
	if req.Op != vfsproto.OpHello {
		t.Fatalf("sent %+v, want hello", req)
	}
	res := vfsproto.HelloResult{Version: vfsproto.Version, Features: []string{vfsproto.FeatureReadEOF}}
	b, err := json.Marshal(vfsproto.Response{ID: req.ID, OK: true, Result: mustRaw(t, res)})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := vfsproto.AppendFrame(nil, b)
		if err == nil {
			_, err = respW.Write(f)
		}
		if err != nil {
			t.Error(err)
		}
	}()
	got, err := wait()
	if err != nil || got.Version != vfsproto.Version || !ForTests.ReadEOF(c) {
		t.Errorf("wait() = %+v, %v (read_eof taken: %v)", got, err, ForTests.ReadEOF(c))
	}
}

func mustRaw(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
