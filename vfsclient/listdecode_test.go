package vfsclient_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	. "github.com/llmsh/llmsh/vfsclient"
	"github.com/llmsh/llmsh/vfsproto"
)

// TestDecodeList: decodeList reads what encoding/json writes for a
// ListResult exactly as encoding/json reads it back (names with quotes,
// escapes, control and non-ASCII bytes; links, types, lstat results or
// none), and declines anything of another shape.
func TestDecodeList(t *testing.T) {
	names := []string{"a.go", `q"uote`, `back\slash`, "tab\there", "nl\n", "<&>", "é✓", "\xff\xfe", "", "\u2028"}
	types := []string{"", vfsproto.TypeFIFO, vfsproto.TypeChar}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		var lr vfsproto.ListResult
		lr.Entries = []vfsproto.Entry{}
		for range rng.IntN(6) {
			e := vfsproto.Entry{Name: names[rng.IntN(len(names))], IsDir: rng.IntN(2) == 0, Size: rng.Int64N(1 << 40),
				Symlink: rng.IntN(3) == 0, Type: types[rng.IntN(len(types))]}
			if rng.IntN(4) != 0 {
				e.Lstat = &vfsproto.StatResult{Size: rng.Int64N(1 << 40), Mtime: rng.Int64() - 1<<62, Mode: uint32(rng.IntN(0o1000)),
					IsDir: rng.IntN(2) == 0, Symlink: rng.IntN(3) == 0, Type: types[rng.IntN(len(types))]}
				if rng.IntN(2) == 0 {
					e.Lstat.ID = "0123456789abcdef0123456789abcdef"
				}
			}
			lr.Entries = append(lr.Entries, e)
		}
		raw, err := json.Marshal(lr)
		if err != nil {
			t.Fatal(err)
		}
		var want vfsproto.ListResult
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		got, ok := ForTests.DecodeList(raw)
		if !ok || !reflect.DeepEqual(got, want.Entries) {
			t.Fatalf("round %d: ForTests.DecodeList(%s) = %+v, %v; want %+v", round, raw, got, ok, want.Entries)
		}
	}
	for _, raw := range []string{
		``, `{}`, `{"entries":null}`, `{"entries":[]} `, `{"entries":[{"name":"a","size":1,"is_dir":false}]}`,
		`{"entries":[{"name":"a","is_dir":false,"size":1,"extra":2}]}`, `{"entries":[{"name":"a\"}]}`,
		`{"entries":[{"name":"a","is_dir":false,"size":1.5}]}`, `{"entries":[{"name":"a","is_dir":false,"size":1}`,
	} {
		if got, ok := ForTests.DecodeList([]byte(raw)); ok {
			t.Errorf("decodeList(%s) = %+v, want it declined", raw, got)
		}
	}
}

// TestDecodeListNames: decodeList reads a listing of names and kinds (the
// shape vfsd writes for list's "names": name, lstat for some, kind) as
// encoding/json reads it, and declines a kind that is missing or empty.
func TestDecodeListNames(t *testing.T) {
	names := []string{"a.go", `q"uote`, "nl\n", "é✓", "\xff"}
	kinds := []string{vfsproto.KindFile, vfsproto.KindDir, vfsproto.KindSymlink, vfsproto.TypeFIFO}
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 200 {
		raw := []byte(`{"entries":[`)
		for i := range rng.IntN(5) {
			if i > 0 {
				raw = append(raw, ',')
			}
			raw = append(raw, `{"name":`...)
			raw = vfsproto.AppendJSONString(raw, names[rng.IntN(len(names))])
			if rng.IntN(2) == 0 {
				st, _ := json.Marshal(vfsproto.StatResult{Size: rng.Int64N(1 << 20), Mtime: rng.Int64(), Mode: 0o755, IsDir: true, ID: "00ff"})
				raw = append(append(raw, `,"lstat":`...), st...)
			}
			raw = append(raw, `,"kind":`...)
			raw = vfsproto.AppendJSONString(raw, kinds[rng.IntN(len(kinds))])
			raw = append(raw, '}')
		}
		raw = append(raw, "]}"...)
		var want vfsproto.ListResult
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		got, ok := ForTests.DecodeList(raw)
		if !ok || !reflect.DeepEqual(got, want.Entries) {
			t.Fatalf("round %d: ForTests.DecodeList(%s) = %+v, %v; want %+v", round, raw, got, ok, want.Entries)
		}
	}
	for _, raw := range []string{
		`{"entries":[{"name":"a","kind":""}]}`, `{"entries":[{"name":"a","lstat":{"size":0,"mtime":0,"mode":0,"is_dir":true}}]}`,
		`{"entries":[{"name":"a","kind":"file","size":1}]}`, `{"entries":[{"name":"a","kind":1}]}`,
	} {
		if got, ok := ForTests.DecodeList([]byte(raw)); ok {
			t.Errorf("decodeList(%s) = %+v, want it declined", raw, got)
		}
	}
}

// TestDecodeFiles: decodeFiles reads what encoding/json writes for a
// ReadFilesResult as encoding/json reads it back, and declines other
// shapes.
func TestDecodeFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	msgs := []string{"no such file or directory", `q"uote`, "é\n"}
	for round := range 200 {
		var res vfsproto.ReadFilesResult
		res.Files = []vfsproto.FileRead{}
		for range rng.IntN(5) {
			f := vfsproto.FileRead{Size: rng.IntN(1 << 16), EOF: rng.IntN(2) == 0}
			if rng.IntN(3) == 0 {
				f = vfsproto.FileRead{Error: &vfsproto.Error{Code: vfsproto.ENoEnt, Message: msgs[rng.IntN(len(msgs))]}}
			}
			res.Files = append(res.Files, f)
		}
		raw, _ := json.Marshal(res)
		var want vfsproto.ReadFilesResult
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		got, ok := ForTests.DecodeFiles(raw)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: ForTests.DecodeFiles(%s) = %+v %v, want %+v", round, raw, got, ok, want)
		}
	}
	for _, raw := range []string{``, `{}`, `{"files":null}`, `{"files":[{"eof":true,"size":1}]}`, `{"files":[{"size":-1,"eof":true}]}`,
		`{"files":[{"size":1,"eof":true}]} `, `{"files":[{"size":1,"eof":true,"x":1}]}`, `{"files":[{"size":99999999,"eof":true}]}`} {
		if got, ok := ForTests.DecodeFiles([]byte(raw)); ok {
			t.Errorf("decodeFiles(%s) = %+v, want it declined", raw, got)
		}
	}
}

// TestDecodeWalk: decodeWalk reads what encoding/json writes for a
// WalkResult of full listings (paths needing escapes, empty directories)
// exactly as encoding/json reads it back, and vfsd's shape of a walk of
// names (name, lstat for directories, kind); it declines anything of
// another shape.
func TestDecodeWalk(t *testing.T) {
	paths := []string{".", "a", "a/b c", `q"uote/d`, "nl\n/x", "é✓"}
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 200 {
		r := vfsproto.WalkResult{Dirs: []vfsproto.WalkDir{}}
		for range 1 + rng.IntN(5) {
			d := vfsproto.WalkDir{Path: paths[rng.IntN(len(paths))], Entries: []vfsproto.Entry{}}
			for range rng.IntN(4) {
				// An lstat result with an id, one without, or none.
				st := &vfsproto.StatResult{Size: rng.Int64N(1 << 30), Mtime: rng.Int64N(1 << 62), Mode: 0o755, IsDir: true, ID: paths[rng.IntN(len(paths))]}
				switch rng.IntN(3) {
				case 1:
					st.ID = ""
				case 2:
					st = nil
				}
				d.Entries = append(d.Entries, vfsproto.Entry{Name: paths[rng.IntN(len(paths))], IsDir: rng.IntN(2) == 0,
					Size: rng.Int64N(1 << 20), Symlink: rng.IntN(4) == 0, Lstat: st})
			}
			r.Dirs = append(r.Dirs, d)
		}
		r.Cut = rng.IntN(2) == 0
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var want vfsproto.WalkResult
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		got, ok := ForTests.DecodeWalk(raw)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: ForTests.DecodeWalk(%s) = %+v, %v; want %+v", round, raw, got, ok, want)
		}
	}
	names := `{"dirs":[{"path":".","entries":[{"name":"f","kind":"file"},{"name":"s","lstat":{"size":4096,"mtime":7,"mode":493,"is_dir":true,"id":"0a"},"kind":"dir"}]},{"path":"s","entries":[]}]}`
	want := []vfsproto.WalkDir{{Path: ".", Entries: []vfsproto.Entry{{Name: "f", Kind: vfsproto.KindFile},
		{Name: "s", Kind: vfsproto.KindDir, Lstat: &vfsproto.StatResult{Size: 4096, Mtime: 7, Mode: 0o755, IsDir: true, ID: "0a"}}}},
		{Path: "s", Entries: []vfsproto.Entry{}}}
	if got, ok := ForTests.DecodeWalk([]byte(names)); !ok || got.Cut || !reflect.DeepEqual(got.Dirs, want) {
		t.Errorf("decodeWalk(%s) = %+v, %v; want %+v", names, got, ok, want)
	}
	for _, raw := range []string{
		``, `{}`, `{"dirs":null}`, `{"dirs":[]} `, `{"dirs":[{"path":"."}]}`, `{"dirs":[{"entries":[],"path":"."}]}`,
		`{"dirs":[{"path":".","entries":[]},]}`, `{"dirs":[{"path":".","entries":[{"name":"a"}]}]}`,
		`{"dirs":[{"path":".","entries":[]}]`, `{"dirs":[{"path":7,"entries":[]}]}`,
		`{"dirs":[],"cut":false}`, `{"dirs":[],"cut":true,"cut":true}`, `{"dirs":[{"path":".","entries":[]},"cut":true]}`,
	} {
		if got, ok := ForTests.DecodeWalk([]byte(raw)); ok {
			t.Errorf("decodeWalk(%s) = %+v, want it declined", raw, got)
		}
	}
}
