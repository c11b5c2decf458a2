package vfsd

import (
	"io"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmsh/llmsh/internal/treesnap"
	"github.com/llmsh/llmsh/vfsproto"
)

// secretSize is the size of every file outside the grants: no stat or list
// answer may ever show it (no granted file or link has that size).
const secretSize = 777

// secretBody is the content of a file outside the grants, of secretSize
// bytes, carrying a marker that no answer may contain.
var secretBody = "SECRET-MARKER\n" + strings.Repeat("s", secretSize-len("SECRET-MARKER\n"))

// resolveTree builds the tree FuzzResolve works in and returns the base
// (the server's working directory) and the root above it:
//
//	root/secret2/S2.txt                 outside, above the base
//	root/w/secret/SECRET-NAME.txt       outside, a sibling of the grants
//	root/w/inx/SECRET-X.txt             outside, a name with a grant's prefix
//	root/w/single/f.txt                 granted (-i), a single file
//	root/w/single/SECRET-G.txt          outside, beside the single file
//	root/w/in/...                       granted (-i), with links in and out
//	root/w/out/...                      granted (-o), with links out
func resolveTree(t *testing.T) (root, base string) {
	root = t.TempDir()
	base = filepath.Join(root, "w")
	for name, body := range map[string]string{
		"secret2/S2.txt":           secretBody,
		"w/secret/SECRET-NAME.txt": secretBody,
		"w/inx/SECRET-X.txt":       secretBody,
		"w/single/SECRET-G.txt":    secretBody,
		"w/single/f.txt":           "single\n",
		"w/in/a.txt":               "in a\n",
		"w/in/sub/b.txt":           "in sub b\n",
		"w/out/o.txt":              "out o\n",
		"w/out/d/e.txt":            "out d e\n",
	} {
		writeFile(t, filepath.Join(root, name), body)
	}
	for name, target := range map[string]string{
		"w/in/inside":     "a.txt",
		"w/in/subdir":     "sub",
		"w/in/relout":     "../secret/SECRET-NAME.txt",
		"w/in/absout":     filepath.Join(base, "secret", "SECRET-NAME.txt"),
		"w/in/dirout":     "../secret",
		"w/in/up":         "..",
		"w/in/upup":       "../..",
		"w/in/toout":      "../out",
		"w/in/procroot":   "/proc/self/root",
		"w/in/proccwd":    "/proc/self/cwd",
		"w/in/loop":       "loop",
		"w/in/dangling":   "nowhere",
		"w/in/sub/back":   "../a.txt",
		"w/in/sub/escape": "../../secret2/S2.txt",
		"w/out/dirout":    "../secret",
		"w/out/absdir":    filepath.Join(root, "secret2"),
		"w/out/toin":      "../in/a.txt",
		"w/out/single":    "../single/SECRET-G.txt",
		"w/out/newout":    "../secret/created-by-link",
		"w/out/up":        "..",
	} {
		mustSymlink(t, target, filepath.Join(root, name))
	}
	return root, base
}

// within reports whether the cleaned absolute p lies in the tree dir.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// FuzzResolve sends one path operation with fuzzed paths to a server whose
// grants sit beside files that are not granted (siblings, a name sharing a
// grant's prefix, the neighbour of a single-file grant, a directory above
// the base) and whose trees hold symbolic links pointing inside and out.
// Whatever the paths, the operation is refused with a valid code or it
// stays inside the grants: a read never returns a file outside them (by
// content, and by the lexical path the server must have resolved), stat
// and list never show an outside file, and nothing on disk outside the -o
// tree changes.
func FuzzResolve(f *testing.F) {
	for _, s := range []struct {
		op     uint8
		p1, p2 string
	}{
		{0, "in/a.txt", ""},
		{0, "in/../secret/SECRET-NAME.txt", ""},
		{0, "in/relout", ""},
		{0, "in/absout", ""},
		{0, "in/dirout/SECRET-NAME.txt", ""},
		{0, "in/up/secret/SECRET-NAME.txt", ""},
		{0, "in/procroot/etc/passwd", ""},
		{0, "in/proccwd/secret/SECRET-NAME.txt", ""},
		{0, "in/sub/escape", ""},
		{0, "in/sub/../a.txt", ""},
		{0, "inx/SECRET-X.txt", ""},
		{0, "single/f.txt", ""},
		{0, "single/f.txt/../SECRET-G.txt", ""},
		{0, "/proc/self/cwd/secret/SECRET-NAME.txt", ""},
		{0, "../secret2/S2.txt", ""},
		{0, "in/loop", ""},
		{1, "out/dirout/x", ""},
		{1, "out/newout", ""},
		{1, "out/single", ""},
		{1, "out/toin", ""},
		{2, "out/absdir/S2.txt", ""},
		{3, "out/up/in/a.txt", ""},
		{1, "in/a.txt", ""},
		{1, "/v/virtual", ""},
		{4, "in/absout", ""},
		{4, "secret/SECRET-NAME.txt", ""},
		{5, "in/relout", ""},
		{6, "in/dirout", ""},
		{6, "out/absdir", ""},
		{6, "/", ""},
		{6, "..", ""},
		{7, "out/dirout/newdir", ""},
		{7, "out/new", ""},
		{8, "out/dirout/SECRET-NAME.txt", ""},
		{8, "out/dirout", ""},
		{8, "in/a.txt", ""},
		{9, "out/o.txt", "out/dirout/stolen"},
		{9, "out/dirout/SECRET-NAME.txt", "out/got"},
		{9, "out/o.txt", "../moved"},
		{10, "out/dirout/SECRET-NAME.txt", ""},
		{10, "out/o.txt", ""},
	} {
		f.Add(s.op, s.p1, s.p2)
	}
	f.Fuzz(func(t *testing.T, op uint8, p1, p2 string) {
		root, base := resolveTree(t)
		out := filepath.Join(base, "out")
		before, err := treesnap.Take(root, out)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(Config{
			Inputs:          []string{"in", "single/f.txt"},
			Outputs:         []string{"out"},
			Dir:             base,
			MaxVirtualBytes: 1 << 12,
		})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()

		// lexical is the path the client named, cleaned without any regard
		// to the grants: a successful read must lie in a grant by it.
		lexical := func(p string) string {
			if !strings.HasPrefix(p, "/") {
				p = base + "/" + p
			}
			return path.Clean(p)
		}
		readableLex := func(p string) bool {
			l := lexical(p)
			return within(l, filepath.Join(base, "in")) || within(l, out) || l == filepath.Join(base, "single", "f.txt")
		}
		check := func(what string, e *vfsproto.Error) {
			t.Helper()
			if e == nil {
				return
			}
			if !e.Code.Valid() || e.Message == msgInternal {
				t.Fatalf("%s %q %q: %v", what, p1, p2, e)
			}
			if strings.Contains(e.Message, "SECRET") || strings.Contains(e.Message, "/") {
				t.Fatalf("%s %q: message reveals a path: %q", what, p1, e.Message)
			}
		}
		checkStat := func(what string, st vfsproto.StatResult) {
			t.Helper()
			if st.Size == secretSize {
				t.Fatalf("%s %q: stat shows an outside file: %+v", what, p1, st)
			}
		}

		switch op % 11 {
		case 0, 1, 2, 3:
			mode := []vfsproto.Mode{vfsproto.ModeRead, vfsproto.ModeWrite, vfsproto.ModeAppend, vfsproto.ModeReadWrite}[op%11]
			fl, canRead, canWrite, e := s.openPath(p1, mode)
			check("open "+string(mode), e)
			if e != nil {
				break
			}
			if mode == vfsproto.ModeRead && !readableLex(p1) {
				t.Fatalf("open %q r succeeded outside the grants", p1)
			}
			if canWrite {
				if _, err := fl.Write([]byte("written by the fuzzer\n")); err != nil {
					t.Logf("write %q: %v", p1, err)
				}
				if _, err := fl.Seek(0, io.SeekStart); err != nil {
					t.Logf("seek %q: %v", p1, err)
				}
			}
			if canRead {
				b, err := io.ReadAll(io.LimitReader(fl, 1<<16))
				if err != nil {
					t.Logf("read %q: %v", p1, err)
				}
				if strings.Contains(string(b), "SECRET") || len(b) == secretSize {
					t.Fatalf("open %q %s read an outside file: %.40q", p1, mode, b)
				}
			}
			if st, err := fl.stat(); err == nil {
				checkStat("fstat", st)
			}
			if err := fl.commit(); err != nil {
				t.Logf("close %q: %v", p1, err)
			}
		case 4:
			st, e := s.statPath(p1)
			check("stat", e)
			if e == nil {
				checkStat("stat", st)
			}
		case 5:
			st, e := s.lstatPath(p1)
			check("lstat", e)
			if e == nil {
				checkStat("lstat", st)
			}
		case 6:
			ents, e := s.list(p1, false)
			check("list", e)
			for _, en := range ents {
				if strings.Contains(en.Name, "SECRET") || en.Size == secretSize || en.Name == "secret" || en.Name == "secret2" || en.Name == "inx" {
					t.Fatalf("list %q shows an outside entry: %+v", p1, en)
				}
			}
		case 7:
			check("mkdir", s.mkdir(p1, nil))
		case 8:
			check("remove", s.remove(p1))
		case 9:
			check("rename", s.rename(p1, p2))
		case 10:
			check("utimes", s.utimes(p1, time.Unix(1, 0), time.Unix(2, 0)))
		}

		after, err := treesnap.Take(root, out)
		if err != nil {
			t.Fatal(err)
		}
		if d := treesnap.Diff(before, after); len(d) > 0 {
			t.Fatalf("op %d %q %q changed the tree outside the -o grant: %v", op%11, p1, p2, d)
		}
	})
}
