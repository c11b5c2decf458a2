package vfsd

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestAppendList: appendList writes what encoding/json writes for a
// ListResult, byte for byte where no string needs escaping, and the same
// value where one does (encoding/json escapes <, > and & as well).
func TestAppendList(t *testing.T) {
	st := &vfsproto.StatResult{Size: 5, Mtime: -1, Mode: 0o755, IsDir: true, Symlink: true, Type: "fifo", ID: "00ff"}
	for _, entries := range [][]vfsproto.Entry{
		{},
		{{Name: "a.txt", Size: 6}},
		{{Name: "d", IsDir: true, Lstat: &vfsproto.StatResult{Mode: 0o700, IsDir: true, ID: "ab"}},
			{Name: "l", Symlink: true, Size: 1 << 40, Type: "socket", Lstat: st}},
		{{Name: "q\"b\\s\n\x01\xff<&>é\u2028", Lstat: &vfsproto.StatResult{Type: "t\"y"}}},
	} {
		for _, withStat := range []bool{true, false} {
			in := append(entries[:0:0], entries...)
			if !withStat {
				for i := range in {
					in[i].Lstat = nil
				}
			}
			want, err := json.Marshal(vfsproto.ListResult{Entries: in})
			if err != nil {
				t.Fatal(err)
			}
			got := appendList(nil, entries, withStat)
			var gv, wv vfsproto.ListResult
			if err := json.Unmarshal(got, &gv); err != nil {
				t.Fatalf("%s: %v", got, err)
			}
			mustUnmarshal(t, want, &wv)
			if !reflect.DeepEqual(gv, wv) {
				t.Errorf("appendList = %s, want %s", got, want)
			}
			if len(entries) < 3 && string(got) != string(want) {
				t.Errorf("appendList = %s, want the bytes %s", got, want)
			}
		}
	}
}
