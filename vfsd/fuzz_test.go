package vfsd

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// FuzzDispatch serves a session whose third frame is the fuzzed payload,
// after an open for reading (handle 3) and one for writing (handle 4), and
// a stats request after it. Serve must not panic, every response must be a
// valid envelope with a known code, and a connection may only close on a
// payload without a recoverable id.
func FuzzDispatch(f *testing.F) {
	dir := f.TempDir()
	writeFile(f, filepath.Join(dir, "in", "a.txt"), "hello\n")
	writeFile(f, filepath.Join(dir, "out", "o.txt"), "old\n")
	for _, seed := range []string{
		`{"id":"1","op":"read","params":{"h":3,"max":4096}}`,
		`{"id":"1","op":"read","params":{"h":3,"max":0}}`,
		`{"id":"1","op":"write","params":{"h":4,"data":"aGVsbG8="}}`,
		`{"id":"1","op":"write","params":{"h":3,"data":"aGVsbG8=","final":true}}`,
		`{"id":"1","op":"seek","params":{"h":3,"offset":2,"whence":"SEEK_SET"}}`,
		`{"id":"1","op":"stat","params":{"path":"in/a.txt"}}`,
		`{"id":"1","op":"stat","params":{"h":3}}`,
		`{"id":"1","op":"list","params":{"path":"/"}}`,
		`{"id":"1","op":"open","params":{"path":"in/../../etc/passwd","mode":"r"}}`,
		`{"id":"1","op":"open","params":{"path":"out/new","mode":"w"}}`,
		`{"id":"1","op":"create_temp","params":{"prefix":"x"}}`,
		`{"id":"1","op":"close","params":{"h":3}}`,
		`{"id":"1","op":"hello","params":{"version":1}}`,
		`{"id":"1","op":"hello","params":{"version":1,"features":["read_bulk","read_shm","write_shm"]}}`,
		`{"id":"1","op":"read_shm_at","params":{"h":3,"off":2,"max":10,"slot":0}}`,
		`{"id":"1","op":"virtual_files"}`,
		`{"id":"1","op":"LLMCMD"}`,
		`{"id":"1","op":`,
		`{"id":5}`,
		`[]`,
		``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		if len(payload) > vfsproto.MaxFrame {
			return
		}
		s, err := New(Config{Inputs: []string{"in"}, Outputs: []string{"out"}, Dir: dir, MaxVirtualBytes: 1 << 16})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var in []byte
		for _, p := range [][]byte{
			[]byte(`{"id":"open-r","op":"open","params":{"path":"in/a.txt","mode":"r"}}`),
			[]byte(`{"id":"open-w","op":"open","params":{"path":"/v/x","mode":"w"}}`),
			payload,
			[]byte(`{"id":"after","op":"stats"}`),
		} {
			in, _ = vfsproto.AppendFrame(in, p)
		}
		var out bytes.Buffer
		serveErr := s.Serve(bytes.NewReader(in), &out)
		ids := map[string]bool{}
		for {
			b, err := vfsproto.ReadFrame(&out, nil)
			if err != nil {
				break
			}
			var resp vfsproto.Response
			if err := json.Unmarshal(b, &resp); err != nil {
				t.Fatalf("invalid response %q", b)
			}
			if !resp.OK && (resp.Error == nil || !resp.Error.Code.Valid()) {
				t.Fatalf("bad error response %q", b)
			}
			if !resp.OK && resp.Error.Message == msgInternal {
				t.Fatalf("internal error for %q", payload)
			}
			ids[resp.ID] = true
		}
		if serveErr != nil {
			if !errors.Is(serveErr, ErrMalformed) {
				t.Fatalf("Serve = %v", serveErr)
			}
			if _, ok := lenientID(payload); ok {
				t.Fatalf("closed on a payload with an id: %q", payload)
			}
			return
		}
		if !ids["after"] || !ids["open-r"] {
			t.Fatalf("missing responses: %v", ids)
		}
	})
}
