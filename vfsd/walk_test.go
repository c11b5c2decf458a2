package vfsd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// walkTree makes a tree of 8 directories of 8 directories, each with 16
// small files, under the returned directory.
func walkTree(t testing.TB) (dir string) {
	dir = t.TempDir()
	for i := range 8 {
		for j := range 8 {
			for k := range 16 {
				writeFile(t, filepath.Join(dir, "in", fmt.Sprintf("d%d", i), fmt.Sprintf("e%d", j), fmt.Sprintf("f%02d.txt", k)), "x\n")
			}
		}
	}
	return dir
}

// walkHello asks for walk, and list_stat (for lists to compare with).
func walkHello(t testing.TB, c *client) {
	t.Helper()
	var h vfsproto.HelloResult
	c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureWalk, vfsproto.FeatureListStat}}, &h)
	if !slices.Contains(h.Features, vfsproto.FeatureWalk) {
		t.Fatalf("hello: %+v", h)
	}
}

// BenchmarkWalk is a walk of a tree of 73 directories and 1024 files:
// one walk request, against a list per directory one after the other
// (the answers only read, not decoded).
func BenchmarkWalk(b *testing.B) {
	dir := walkTree(b)
	in := filepath.Join(dir, "in")
	for _, names := range []bool{true, false} {
		b.Run(fmt.Sprintf("walk/names=%v", names), func(b *testing.B) {
			c := newBenchClient(b, Config{Inputs: []string{in}, Dir: dir})
			walkHello(b, c.client)
			buf := make([]byte, 0, 1<<20)
			for b.Loop() {
				c.sendRaw(vfsproto.OpWalk, fmt.Sprintf(`{"path":%q,"names":%v}`, in, names))
				c.bw.Flush()
				if p := c.recvRaw(b, buf); !bytes.Contains(p, []byte(`"path":"d7/e7"`)) {
					b.Fatalf("walk: %.200s", p)
				}
			}
		})
		b.Run(fmt.Sprintf("list/names=%v", names), func(b *testing.B) {
			c := newBenchClient(b, Config{Inputs: []string{in}, Dir: dir})
			c.ok(vfsproto.OpHello, vfsproto.HelloParams{Version: 1, Features: []string{vfsproto.FeatureListStat}}, nil)
			buf := make([]byte, 0, 1<<20)
			list := func(d string) {
				c.sendRaw(vfsproto.OpList, fmt.Sprintf(`{"path":%q,"names":%v}`, d, names))
				c.bw.Flush()
				c.recvRaw(b, buf)
			}
			for b.Loop() {
				list(in)
				for i := range 8 {
					d := filepath.Join(in, fmt.Sprintf("d%d", i))
					list(d)
					for j := range 8 {
						list(filepath.Join(d, fmt.Sprintf("e%d", j)))
					}
				}
			}
		})
	}
}

// listWalk is what a walk of dir should answer: dir's listing, then
// depth first those of the directories below it that list answers,
// entering directories (not links) named in valid UTF-8, down to depth.
func listWalk(t *testing.T, c *client, dir, rel string, names bool, depth int) []vfsproto.WalkDir {
	t.Helper()
	resp := c.call(vfsproto.OpList, vfsproto.ListParams{Path: dir, Names: names})
	if !resp.OK {
		return nil
	}
	var l vfsproto.ListResult
	mustUnmarshal(t, resp.Result, &l)
	out := []vfsproto.WalkDir{{Path: rel, Entries: l.Entries}}
	if depth == 0 {
		return out
	}
	for i := range l.Entries {
		if en := &l.Entries[i]; walkInto(en, names, false) {
			out = append(out, listWalk(t, c, filepath.Join(dir, en.Name), filepath.Join(rel, en.Name), names, depth-1)...)
		}
	}
	return out
}

// TestWalkAsLists: a walk answers what a list of each directory answers,
// in depth-first name order, without the directories list refuses,
// entering no link (one to a directory inside the grant,
// one to a directory outside it, a loop), and no directory whose name
// JSON cannot carry; names with newlines and quotes as list gives them;
// with or without names; a nested grant, and the ancestors of grants
// (the walks of / and of the grants' parent), listed as list lists them. Only after hello asked for it.
func TestWalkAsLists(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	for _, f := range []string{"a/b/c/f.txt", "a/b/g.txt", "a/line\nbreak/h.txt", "a/q\"uote/i.txt", "a/bad\xffname/j.txt",
		"hid/k.txt", "z/l.txt", "nested/m.txt", "deep/1/2/3/4/5/n.txt"} {
		writeFile(t, filepath.Join(in, f), "x\n")
	}
	for link, target := range map[string]string{"in/a/up": "..", "in/a/tob": "b", "in/out": "../outside", "in/z/self": "."} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(dir, "outside", "secret.txt"), "secret\n")
	if err := syscall.Mkfifo(filepath.Join(in, "z", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, Config{Inputs: []string{in, filepath.Join(in, "nested")}, Outputs: []string{filepath.Join(dir, "out")},
		Hidden: []string{filepath.Join(in, "hid", "k.txt")}, Dir: dir})
	c := connect(t, s)
	if code := c.code(vfsproto.OpWalk, vfsproto.WalkParams{Path: in}); code != vfsproto.EUnsupported {
		t.Fatalf("walk before hello: %q, want E_UNSUPPORTED", code)
	}
	walkHello(t, c)
	for _, names := range []bool{true, false} {
		for _, root := range []string{in, filepath.Join(in, "a"), dir, "/", filepath.Join(in, "deep") + "/"} {
			var got vfsproto.WalkResult
			c.ok(vfsproto.OpWalk, vfsproto.WalkParams{Path: root, Names: names}, &got)
			want := listWalk(t, c, root, ".", names, vfsproto.MaxWalkDepth)
			if len(want) < 2 {
				t.Fatalf("walk of %s: the lists found %d directories", root, len(want))
			}
			g, _ := json.Marshal(got.Dirs)
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Errorf("walk %s names=%v:\n%s\nthe lists:\n%s", root, names, g, w)
			}
			if bytes.Contains(g, []byte("secret")) || bytes.Contains(g, []byte("bad")) && bytes.Contains(g, []byte(`"j.txt"`)) {
				t.Errorf("walk %s names=%v entered what it must not: %s", root, names, g)
			}
		}
	}
	for _, path := range []string{filepath.Join(in, "hid", "k.txt"), filepath.Join(dir, "outside"), filepath.Join(in, "out"), filepath.Join(in, "z", "l.txt"), filepath.Join(in, "none")} {
		if code := c.code(vfsproto.OpWalk, vfsproto.WalkParams{Path: path}); code == "" {
			t.Errorf("walk %s: no error", path)
		}
	}
}

// TestWalkBounds: a walk stops at MaxWalkDepth below its path and before
// its answer would outgrow a frame; what it left out the client lists.
func TestWalkBounds(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	deep := in
	for range vfsproto.MaxWalkDepth + 3 {
		deep = filepath.Join(deep, "d")
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	// Two directories of 400 entries of names JSON writes in 1.4 KB
	// (a control character is 6 bytes there): about 580 KB each.
	long := strings.Repeat("\x01", 240)
	for _, sub := range []string{"w1", "w2"} {
		if err := os.MkdirAll(filepath.Join(in, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range 400 {
			if err := os.Symlink("x", filepath.Join(in, sub, fmt.Sprintf("%s%05d", long, i))); err != nil {
				t.Fatal(err)
			}
		}
	}
	c := connect(t, newServer(t, Config{Inputs: []string{in}, Dir: dir}))
	walkHello(t, c)
	var r vfsproto.WalkResult
	c.ok(vfsproto.OpWalk, vfsproto.WalkParams{Path: in, Names: true}, &r)
	var paths []string
	for _, d := range r.Dirs {
		paths = append(paths, d.Path)
	}
	// Depth first: ".", then d down to MaxWalkDepth, then w1; w2 would
	// not fit.
	if len(paths) != vfsproto.MaxWalkDepth+2 || paths[len(paths)-1] != "w1" ||
		paths[vfsproto.MaxWalkDepth] != strings.TrimSuffix(strings.Repeat("d/", vfsproto.MaxWalkDepth), "/") {
		t.Fatalf("walk: %d directories: %q", len(paths), paths)
	}
	if !r.Cut {
		t.Errorf("walk: a full answer not cut")
	}
	r = vfsproto.WalkResult{}
	c.ok(vfsproto.OpWalk, vfsproto.WalkParams{Path: filepath.Join(in, "w2"), Names: true}, &r)
	if len(r.Dirs) != 1 || len(r.Dirs[0].Entries) != 400 || r.Cut {
		t.Fatalf("walk of w2: %d directories, cut %v", len(r.Dirs), r.Cut)
	}
	// Going on after w1 lists w2; after the deepest d, the walk goes up
	// to in and lists w1, and is cut again before w2.
	for _, names := range []bool{true, false} {
		r = vfsproto.WalkResult{}
		c.ok(vfsproto.OpWalk, vfsproto.WalkParams{Path: in, Names: names, After: "w1"}, &r)
		if len(r.Dirs) != 1 || r.Dirs[0].Path != "w2" || len(r.Dirs[0].Entries) != 400 || r.Cut {
			t.Errorf("walk after w1, names %v: %d directories, cut %v", names, len(r.Dirs), r.Cut)
		}
		r = vfsproto.WalkResult{}
		c.ok(vfsproto.OpWalk, vfsproto.WalkParams{Path: in, Names: names, After: paths[vfsproto.MaxWalkDepth]}, &r)
		if len(r.Dirs) != 1 || r.Dirs[0].Path != "w1" || !r.Cut {
			t.Errorf("walk after the deepest d, names %v: %d directories, cut %v", names, len(r.Dirs), r.Cut)
		}
	}
	r = vfsproto.WalkResult{}
	c.ok(vfsproto.OpWalk, vfsproto.WalkParams{Path: in, Names: true, After: "."}, &r)
	if len(r.Dirs) == 0 || r.Dirs[0].Path != "d" || !r.Cut {
		t.Errorf("walk after .: %d directories, cut %v", len(r.Dirs), r.Cut)
	}
	// After a directory that is not there: what comes after it in name
	// order. After anything but a path below: E_ARG.
	r = vfsproto.WalkResult{}
	c.ok(vfsproto.OpWalk, vfsproto.WalkParams{Path: in, Names: true, After: "e/x"}, &r)
	if len(r.Dirs) != 1 || r.Dirs[0].Path != "w1" || !r.Cut {
		t.Errorf("walk after e/x: %d directories, cut %v", len(r.Dirs), r.Cut)
	}
	for _, after := range []string{"..", "../in/w1", "/w1", "w1/", "./w1", "d//d", "d/../w1"} {
		if code := c.code(vfsproto.OpWalk, vfsproto.WalkParams{Path: in, After: after}); code != vfsproto.EArg {
			t.Errorf("walk after %q: %q, want E_ARG", after, code)
		}
	}
	if code := c.code(vfsproto.OpWalk, vfsproto.WalkParams{Path: filepath.Join(in, "none"), After: "w1"}); code != vfsproto.ENoEnt {
		t.Errorf("walk of a missing path after w1: %q, want E_NOENT", code)
	}
}

// TestWalkMaxGoesOn: a walk with max answers a directory at least and
// stops listing once its answer holds max bytes, says it was cut, and
// walks going on after the last directory answered (from the stack kept,
// or, for another connection, by listing again) answer the rest: the
// same directories as one walk, in the same order.
func TestWalkMaxGoesOn(t *testing.T) {
	dir := walkTree(t)
	in := filepath.Join(dir, "in")
	s := newServer(t, Config{Inputs: []string{in}, Dir: dir})
	c, other := connect(t, s), connect(t, s)
	walkHello(t, c)
	walkHello(t, other)
	for _, names := range []bool{true, false} {
		var whole vfsproto.WalkResult
		c.ok(vfsproto.OpWalk, vfsproto.WalkParams{Path: in, Names: names}, &whole)
		if len(whole.Dirs) != 73 || whole.Cut {
			t.Fatalf("walk names=%v: %d directories, cut %v", names, len(whole.Dirs), whole.Cut)
		}
		for _, max := range []int{1, 2000} {
			var got []vfsproto.WalkDir
			after, answers := "", 0
			for {
				var r vfsproto.WalkResult
				conn := c
				if answers%2 == 1 {
					conn = other // no stack kept there
				}
				conn.ok(vfsproto.OpWalk, vfsproto.WalkParams{Path: in, Names: names, After: after, Max: max}, &r)
				answers++
				if len(r.Dirs) == 0 || (max == 1 && len(r.Dirs) != 1) {
					t.Fatalf("walk names=%v max=%d after %q: %d directories", names, max, after, len(r.Dirs))
				}
				got = append(got, r.Dirs...)
				if !r.Cut {
					break
				}
				after = r.Dirs[len(r.Dirs)-1].Path
			}
			if len(got) != len(whole.Dirs) || (max == 1 && answers != 73) || (max == 2000 && answers < 3) {
				t.Fatalf("walk names=%v max=%d: %d directories in %d answers", names, max, len(got), answers)
			}
			for i := range got {
				if got[i].Path != whole.Dirs[i].Path || len(got[i].Entries) != len(whole.Dirs[i].Entries) {
					t.Fatalf("walk names=%v max=%d: directory %d is %q (%d entries), want %q (%d)", names, max, i,
						got[i].Path, len(got[i].Entries), whole.Dirs[i].Path, len(whole.Dirs[i].Entries))
				}
			}
		}
	}
}
