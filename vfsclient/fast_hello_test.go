package vfsclient_test

import (
	"encoding/binary"
	"encoding/json"
	"reflect"
	"testing"

	. "github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsproto"
)

// TestHelloFastPath: the hand-written hello request is the frame
// encoding/json writes, and an answer as encoding/json writes it (vfsd's
// encoder writes the same bytes: vfsd TestHelloEncoding) decodes without
// encoding/json to the same HelloResult; any other shape falls back.
func TestHelloFastPath(t *testing.T) {
	for _, p := range []vfsproto.HelloParams{
		{Version: 1},
		{Version: 1, Features: []string{vfsproto.FeatureReadBulk}},
		{Version: 12, Features: []string{"read_bulk", "write_bulk", "read_eof", "list_stat", "read_file", "read_shm", "read_shm_at", "write_shm"}},
	} {
		params, _ := json.Marshal(p)
		want, _ := json.Marshal(vfsproto.Request{ID: "42", Op: vfsproto.OpHello, Params: params})
		got, err := ForTests.AppendHelloRequest([]byte("x"), 42, p)
		if err != nil || string(got[5:]) != string(want) || int(binary.BigEndian.Uint32(got[1:5])) != len(want) {
			t.Errorf("appendHelloRequest(%+v) = %q, %v; want the frame of %s", p, got, err, want)
		}
	}
	ops := []string{"open", "read", "write", "close", "read_bulk", "read_shm_at"}
	for _, r := range []vfsproto.HelloResult{
		{Version: 1, Ops: ops, MaxRead: vfsproto.MaxRead, MaxFrame: vfsproto.MaxFrame},
		{Version: 1, Ops: ops, MaxRead: 4096, MaxFrame: 1 << 20, Features: []string{"read_bulk", "write_bulk", "read_eof", "list_stat",
			"read_file", "read_shm", "read_shm_at", "write_shm"}, MaxBulkRead: 1 << 20, MaxBulkWrite: 1 << 20, ShmSlots: 8},
		{Version: 2, Ops: []string{"a"}, MaxRead: 0, MaxFrame: 0, Features: []string{"x9"}, ShmSlots: 16},
		{Version: 1, Ops: []string{"a"}, MaxRead: 1, MaxFrame: 2, MaxBulkWrite: 3},
	} {
		res, _ := json.Marshal(r)
		frame, _ := json.Marshal(vfsproto.Response{ID: "7", OK: true, Result: res})
		id, a, ok := ForTests.ParseFastAnswer(frame)
		if !ok || id != 7 || !a.Fast() || a.Hello() == nil {
			t.Errorf("fast path refused %s", frame)
			continue
		}
		if !reflect.DeepEqual(*a.Hello(), r) {
			t.Errorf("%s decoded to %+v", frame, *a.Hello())
		}
		var got vfsproto.HelloResult
		if err := a.Recv(&got); err != nil || !reflect.DeepEqual(got, r) {
			t.Errorf("recv of %s: %+v, %v", frame, got, err)
		}
	}
	for _, f := range []string{
		`{"id":"7","ok":true,"result":{"version":1,"ops":[],"max_read":1,"max_frame":1}}`,
		`{"id":"7","ok":true,"result":{"version":1,"ops":null,"max_read":1,"max_frame":1}}`,
		`{"id":"7","ok":true,"result":{"version":1,"ops":["Open"],"max_read":1,"max_frame":1}}`,
		`{"id":"7","ok":true,"result":{"version":1,"ops":["op\u0065n"],"max_read":1,"max_frame":1}}`,
		`{"id":"7","ok":true,"result":{"version":1,"ops":["a",],"max_read":1,"max_frame":1}}`,
		`{"id":"7","ok":true,"result":{"version":1,"ops":["a"],"max_frame":1,"max_read":1}}`,
		`{"id":"7","ok":true,"result":{"version":1,"ops":["a"],"max_read":1}}`,
		`{"id":"7","ok":true,"result":{"version":1,"ops":["a"],"max_read":1,"max_frame":1,"shm_slots":1,"max_bulk_read":1}}`,
		`{"id":"7","ok":true,"result":{"version":1,"ops":["a"],"max_read":1,"max_frame":1,"new_field":1}}`,
		`{"id":"7","ok":true,"result":{"version":1,"ops":["a"],"max_read":-1,"max_frame":1}}`,
		`{"id":"7","ok":true,"result":{"version":01,"ops":["a"],"max_read":1,"max_frame":1}}`,
		`{"id":"7","ok":true,"result":{"version":1,"ops":["a"],"max_read":1,"max_frame":1}} `,
		`{"id":"7","ok":true,"result":{"version":1,"ops":["a"],"max_read":1,"max_frame":1}`,
		`{"id":"7","ok":true,"result":{"version":1, "ops":["a"],"max_read":1,"max_frame":1}}`,
		`{"id":"7","ok":true,"result":{"version":1,"ops":["a"],"max_read":1,"max_frame":999999999999999}}`,
	} {
		if _, _, ok := ForTests.ParseFastAnswer([]byte(f)); ok {
			t.Errorf("fast path accepted non-canonical %s", f)
		}
	}
}
