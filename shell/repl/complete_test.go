package repl

import (
	"io/fs"
	"path"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// fakeSource is a small session: a tree of granted files, some variables,
// a few commands.
type fakeSource struct {
	dir   string
	files map[string]bool // absolute path -> is a directory
	links map[string]bool // absolute path of a symbolic link -> leads to a directory
	roots []string
}

func (f fakeSource) Dir() string            { return f.dir }
func (f fakeSource) CommandNames() []string { return []string{"cat", "cd", "echo", "grep", "sort"} }
func (f fakeSource) VarNames() []string     { return []string{"HOME", "HOSTNAME_X", "PWD"} }
func (f fakeSource) Roots() []string        { return f.roots }

func (f fakeSource) ReadDir(dir string) ([]fs.DirEntry, error) {
	isDir, ok := f.files[dir]
	if !ok || !isDir {
		return nil, &fs.PathError{Op: "readdir", Path: dir, Err: fs.ErrPermission}
	}
	var out []fs.DirEntry
	for p, d := range f.files {
		if path.Dir(p) == dir && p != dir {
			out = append(out, entry{name: path.Base(p), dir: d})
		}
	}
	for p := range f.links {
		if path.Dir(p) == dir {
			out = append(out, entry{name: path.Base(p), link: true})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func (f fakeSource) Stat(name string) (fs.FileInfo, error) {
	d, ok := f.files[name]
	if ld, isLink := f.links[name]; isLink {
		d, ok = ld, true
	}
	if !ok {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return entry{name: path.Base(name), dir: d}, nil
}

type entry struct {
	name      string
	dir, link bool
}

func (e entry) Name() string               { return e.name }
func (e entry) IsDir() bool                { return e.dir && !e.link }
func (e entry) Type() fs.FileMode          { return e.Mode().Type() }
func (e entry) Info() (fs.FileInfo, error) { return e, nil }
func (e entry) Size() int64                { return 0 }
func (e entry) ModTime() time.Time         { return time.Time{} }
func (e entry) Sys() any                   { return nil }
func (e entry) Mode() fs.FileMode {
	if e.link {
		return fs.ModeSymlink | 0o777
	}
	if e.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}

func testSource() fakeSource {
	return fakeSource{
		dir: "/work/proj",
		files: map[string]bool{
			"/work/proj":               true,
			"/work/proj/notes.txt":     false,
			"/work/proj/notebook":      true,
			"/work/proj/notebook/a.md": false,
			"/work/proj/my file.txt":   false,
			"/work/proj/.hidden":       false,
			"/tmp/virt.txt":            false,
		},
		links: map[string]bool{"/work/proj/linkdir": true, "/work/proj/linkfile": false},
		roots: []string{"/work/proj", "/tmp/virt.txt"},
	}
}

func TestComplete(t *testing.T) {
	c := NewCompleter(testSource())
	tests := []struct {
		line string
		want []string
	}{
		{"ca", []string{"cat "}},
		{"c", []string{"cat ", "cd "}},
		{"echo x | gr", []string{"grep "}},
		{"for i in 1; do ec", []string{"echo "}},
		{"X=1 so", []string{"sort "}},
		{"cat no", []string{"notebook/", "notes.txt "}},
		{"cat notebook/", []string{"notebook/a.md "}},
		{"cat my", []string{`my\ file.txt `}},
		{"cat lin", []string{"linkdir/", "linkfile "}},
		{"cat 'my", []string{`'my file.txt' `}},
		{"cat .h", []string{".hidden "}},
		{"cat /wo", []string{"/work/"}},
		{"cat /work/p", []string{"/work/proj/"}},
		{"cat /tmp/v", []string{"/tmp/virt.txt "}},
		{"cat < no", []string{"notebook/", "notes.txt "}},
		{"echo $HO", []string{"$HOME ", "$HOSTNAME_X "}},
		{"echo ${PW", []string{"${PWD} "}},
		{"echo a$P", []string{"a$PWD "}},
		{"sort --rev", []string{"--reverse "}},
		{"sort --key", []string{"--key="}},
		{"nosuch --x", nil},
		{"cat --file=no", []string{"--file=notebook/", "--file=notes.txt "}},
		{"x=no", []string{"x=notebook/", "x=notes.txt "}},
	}
	for _, tc := range tests {
		start := wordStart(tc.line)
		got := c.Complete(tc.line[:start], tc.line[start:])
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestDoReturnsSuffixes(t *testing.T) {
	c := NewCompleter(testSource())
	got, n := c.Do([]rune("cat no"), 6)
	want := [][]rune{[]rune("tebook/"), []rune("tes.txt ")}
	if n != 2 || !reflect.DeepEqual(got, want) {
		t.Fatalf("Do: %q %d", got, n)
	}
	// The cursor in the middle of the line completes the word before it.
	got, n = c.Do([]rune("ca | sort"), 2)
	if n != 2 || len(got) != 1 || string(got[0]) != "t " {
		t.Fatalf("Do mid-line: %q %d", got, n)
	}
}

func TestParseOptions(t *testing.T) {
	help := `Usage: x [OPTION]... [FILE]...
Do x.
  -n, --lines=NUM       print NUM lines; -q is mentioned here
      --color[=WHEN]    colour
  -z                    end with NUL
Not an --option line.
`
	got := parseOptions(help)
	want := []string{"--color", "--lines=", "-n", "-z"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestWordStartAndCommand(t *testing.T) {
	for _, tc := range []struct {
		line, word string
		cmd        string
		cmdPos     bool
	}{
		{"", "", "", true},
		{"cat a b", "b", "cat", false},
		{`echo "a b`, `"a b`, "echo", false},
		{`echo a\ b`, `a\ b`, "echo", false},
		{"a && b", "b", "", true},
		{"(cd", "cd", "", true},
		{"if grep x f; then ec", "ec", "", true},
		{"echo $(ca", "ca", "", true},
		{"FOO=1 BAR=2 sort -", "-", "sort", false},
	} {
		start := wordStart(tc.line)
		if w := tc.line[start:]; w != tc.word {
			t.Errorf("%q: word %q, want %q", tc.line, w, tc.word)
		}
		cmd, pos := commandOf(tc.line[:start])
		if cmd != tc.cmd || pos != tc.cmdPos {
			t.Errorf("%q: command %q %v, want %q %v", tc.line, cmd, pos, tc.cmd, tc.cmdPos)
		}
	}
}

func TestEscapeRoundTrip(t *testing.T) {
	for _, s := range []string{"plain", "a b", `q"uote`, "$x*", "semi;colon"} {
		if got := unescape(escape(s)); got != s {
			t.Errorf("%q -> %q -> %q", s, escape(s), got)
		}
		if !strings.HasPrefix(escape(s), string(s[0])) && s[0] != '$' {
			t.Errorf("escape(%q) = %q", s, escape(s))
		}
	}
}
