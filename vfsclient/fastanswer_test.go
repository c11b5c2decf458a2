package vfsclient_test

import (
	"encoding/json"
	"io"
	"reflect"
	"strconv"
	"testing"

	. "github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsproto"
)

// TestFastAnswerResult: a success answer of any other result is taken
// apart as encoding/json takes it (id, ok, the result's bytes, a copy of
// them), and what the fast path declines or cannot decode still fails.
func TestFastAnswerResult(t *testing.T) {
	for _, frame := range []string{
		`{"id":"7","ok":true,"result":{"entries":[{"name":"a","is_dir":false,"size":3}]}}`,
		`{"id":"1844674407370955161","ok":true,"result":{"handle":4}}`,
		`{"id":"9","ok":true,"result":"x}"}`,
		`{"id":"7","ok":true}`,
		// A stat's result starts as a read_bulk's does.
		`{"id":"3","ok":true,"result":{"size":20202021,"mtime":1795780515771794216,"mode":420,"is_dir":false,"id":"94dd"}}`,
		`{"id":"3","ok":true,"result":{"size":5,"mtime":1,"mode":420,"is_dir":false,"type":"x","id":"\"eof\":false}"}}`,
	} {
		b := []byte(frame)
		id, a, ok := ForTests.ParseFastAnswer(b)
		if !ok {
			t.Fatalf("%s: declined", frame)
		}
		var want vfsproto.Response
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if got := a.Resp(); got.OK != want.OK || string(got.Result) != string(want.Result) || want.ID != strconv.FormatUint(id, 10) {
			t.Errorf("%s: id %d, %+v; want %+v", frame, id, got, want)
		}
		clear(b)
		if string(a.Resp().Result) != string(want.Result) {
			t.Errorf("%s: the result shares the frame's bytes", frame)
		}
	}
	for _, frame := range []string{
		`{"id":"7","ok":false,"error":{"code":"E_NOENT","message":"x"}}`,
		`{"id":"7","ok":true} `,
		`{"id":"x","ok":true,"result":{}}`,
		`{"id":"7","ok":true,"result":{} `,
	} {
		if _, _, ok := ForTests.ParseFastAnswer([]byte(frame)); ok {
			t.Errorf("%s: taken by the fast path", frame)
		}
	}
	// A result with something after it is no single value: the caller's
	// decoding refuses it, as encoding/json refused the whole frame.
	_, a, ok := ForTests.ParseFastAnswer([]byte(`{"id":"7","ok":true,"result":{},"x":1}`))
	if !ok {
		t.Fatal("declined")
	}
	var lr vfsproto.ListResult
	if err := a.Recv(&lr); err == nil {
		t.Errorf("recv took %s", a.Resp().Result)
	}
	_, a, _ = ForTests.ParseFastAnswer([]byte(`{"id":"7","ok":true,"result":{"entries":[]}}`))
	if err := a.Recv(&lr); err != nil || !reflect.DeepEqual(lr, vfsproto.ListResult{Entries: []vfsproto.Entry{}}) {
		t.Errorf("recv = %+v, %v", lr, err)
	}
}

// TestSendShape: send writes the frame json.Marshal gives the Request.
func TestSendShape(t *testing.T) {
	r, w := io.Pipe()
	answers, _ := io.Pipe() // no answer comes: the client stays up
	c := New(answers, w)
	p := "/a b/<é>\x01\"q\""
	for _, rq := range []struct {
		op     string
		params any
	}{
		{vfsproto.OpList, vfsproto.ListParams{Path: p}},
		{vfsproto.OpStat, vfsproto.StatParams{Path: &p}},
		{vfsproto.OpStats, nil},
		{vfsproto.OpLstat, (*vfsproto.PathParams)(nil)},
		{vfsproto.OpOpen, vfsproto.OpenParams{Path: "in/big.txt", Mode: vfsproto.ModeRead}},
		{vfsproto.OpOpen, vfsproto.OpenParams{Path: "/a b/é", Mode: vfsproto.ModeReadWrite}},
		{vfsproto.OpOpen, vfsproto.OpenParams{Path: "out/x", Mode: vfsproto.ModeAppend, H: ptr(int64(vfsproto.FirstNamedHandle))}},
		{vfsproto.OpOpen, vfsproto.OpenParams{Path: p, Mode: vfsproto.ModeRead}},
		{vfsproto.OpStat, vfsproto.StatParams{H: ptr(int64(3))}},
		{vfsproto.OpStat, vfsproto.StatParams{Path: ptr("in/a b/é")}},
		{vfsproto.OpStat, vfsproto.StatParams{Path: ptr("")}},
		{vfsproto.OpStat, vfsproto.StatParams{}},
		{vfsproto.OpClose, vfsproto.HandleParams{H: 1 << 40}},
	} {
		go ForTests.Send(c, rq.op, rq.params)
		got, err := vfsproto.ReadFrame(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		var req vfsproto.Request
		if err := json.Unmarshal(got, &req); err != nil {
			t.Fatal(err)
		}
		if rq.params != nil {
			req.Params, _ = json.Marshal(rq.params)
		}
		want, _ := json.Marshal(req)
		if string(got) != string(want) {
			t.Errorf("send %s: %s, want %s", rq.op, got, want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestParseHandleResult: an open's result decoded by hand is what
// encoding/json decodes, and anything but vfsd's own shape is left to it.
func TestParseHandleResult(t *testing.T) {
	for _, h := range []int64{0, 3, 42, 1 << 32, vfsproto.MaxNamedHandle} {
		b, _ := json.Marshal(vfsproto.OpenResult{Handle: h})
		got, ok := ForTests.ParseHandleResult(b)
		if !ok || got != h {
			t.Errorf("parseHandleResult(%s) = %d, %v", b, got, ok)
		}
	}
	for _, b := range []string{`{"handle":}`, `{"handle":03}`, `{"handle":-3}`, `{"handle":3.0}`, `{"handle":3 }`,
		`{"handle":3,"x":1}`, `{"handle":"3"}`, `{"handle":99999999999999999}`, `{"Handle":3}`, `{"handle":3}}`, `{"handle":3`} {
		if h, ok := ForTests.ParseHandleResult([]byte(b)); ok {
			t.Errorf("parseHandleResult(%s) = %d, took a shape vfsd does not write", b, h)
		}
	}
	// recv still decodes the others with encoding/json.
	var r vfsproto.OpenResult
	if err := ForTests.Answer(vfsproto.Response{OK: true, Result: []byte(`{ "handle" : 7 }`)}).Recv(&r); err != nil || r.Handle != 7 {
		t.Errorf("recv = %+v, %v", r, err)
	}
}

// TestDecodeStat: a stat result decoded by hand is what encoding/json
// decodes, and anything but vfsd's shape is left to it.
func TestDecodeStat(t *testing.T) {
	for _, st := range []vfsproto.StatResult{
		{},
		{Size: 20202021, Mtime: 1795780515771794216, Mode: 0o644, ID: "64c6bbc00ede7e3f4913cb4bbbb73422"},
		{Size: 1, Mtime: -5, Mode: 0xffffffff, IsDir: true},
		{Mode: 0o777, Symlink: true, Type: vfsproto.TypeFIFO, ID: "q\"é"},
	} {
		b, _ := json.Marshal(st)
		got, ok := ForTests.DecodeStat(b)
		if !ok || got != st {
			t.Errorf("decodeStat(%s) = %+v, %v", b, got, ok)
		}
		var r vfsproto.StatResult
		if err := ForTests.Answer(vfsproto.Response{OK: true, Result: b}).Recv(&r); err != nil || r != st {
			t.Errorf("recv(%s) = %+v, %v", b, r, err)
		}
	}
	for _, b := range []string{`{"mtime":1,"size":2,"mode":3,"is_dir":false}`, `{"size":1,"mtime":1,"mode":1,"is_dir":false,"x":1}`,
		`{"size":1,"mtime":1,"mode":1}`, `{"size":1,"mtime":1,"mode":1,"is_dir":false}}`, ` {"size":1,"mtime":1,"mode":1,"is_dir":false}`} {
		if st, ok := ForTests.DecodeStat([]byte(b)); ok {
			t.Errorf("decodeStat(%s) = %+v, took a shape vfsd does not write", b, st)
		}
	}
	// recv decodes the others with encoding/json, from a clean result.
	var r vfsproto.StatResult
	if err := ForTests.Answer(vfsproto.Response{OK: true, Result: []byte(`{"size":1,"mtime":2,"mode":3,"is_dir":true,"x":1}`)}).Recv(&r); err != nil || r != (vfsproto.StatResult{Size: 1, Mtime: 2, Mode: 3, IsDir: true}) {
		t.Errorf("recv = %+v, %v", r, err)
	}
}
