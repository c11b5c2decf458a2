// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// memFS is an in-memory file system for the open and stat handlers: it
// records every open (with HandlerContext.Persist) and counts closes.
type memFS struct {
	mu     sync.Mutex
	files  map[string]*bytes.Buffer
	opens  []memOpen
	closes map[*memFile]int
}

type memOpen struct {
	name    string
	persist bool
	file    *memFile
}

type memFile struct {
	fs   *memFS
	name string
	rd   *bytes.Reader // nil: opened for writing
}

func (f *memFile) Read(p []byte) (int, error) {
	if f.rd == nil {
		return 0, errors.New("not open for reading")
	}
	return f.rd.Read(p)
}

func (f *memFile) Write(p []byte) (int, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	return f.fs.files[f.name].Write(p)
}

func (f *memFile) Close() error {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	f.fs.closes[f]++
	return nil
}

func newMemFS() *memFS {
	return &memFS{files: map[string]*bytes.Buffer{}, closes: map[*memFile]int{}}
}

func (m *memFS) open(ctx context.Context, name string, flag int, _ os.FileMode) (io.ReadWriteCloser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	buf := m.files[name]
	if buf == nil {
		if flag&os.O_CREATE == 0 {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		buf = new(bytes.Buffer)
		m.files[name] = buf
	}
	if flag&os.O_TRUNC != 0 {
		buf.Reset()
	}
	f := &memFile{fs: m, name: name}
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		f.rd = bytes.NewReader(bytes.Clone(buf.Bytes()))
	}
	m.opens = append(m.opens, memOpen{name: name, persist: HandlerCtx(ctx).Persist, file: f})
	return f, nil
}

func (m *memFS) stat(_ context.Context, name string, _ bool) (fs.FileInfo, error) {
	name = strings.TrimPrefix(name, "/") // the runner's directory is /
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.files[name] == nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return memInfo{name}, nil
}

type memInfo struct{ name string }

func (i memInfo) Name() string     { return i.name }
func (memInfo) Size() int64        { return 0 }
func (memInfo) Mode() fs.FileMode  { return 0o644 }
func (memInfo) ModTime() time.Time { return time.Time{} }
func (memInfo) IsDir() bool        { return false }
func (memInfo) Sys() any           { return nil }
func (m *memFS) content(name string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b := m.files[name]; b != nil {
		return b.String()
	}
	return "<none>"
}

// unclosed lists the files opened and not closed exactly once.
func (m *memFS) unclosed() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var bad []string
	for _, o := range m.opens {
		if n := m.closes[o.file]; n != 1 {
			bad = append(bad, o.name)
		}
	}
	return bad
}

// runFds runs src on a runner over m, then closes its descriptors.
func runFds(t *testing.T, m *memFS, src string) (string, string) {
	t.Helper()
	var out, errb strings.Builder
	r, err := New(StdIO(nil, &out, &errb), OpenHandler(m.open), StatHandler(m.stat))
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), f); err != nil {
		if _, ok := err.(ExitStatus); !ok {
			t.Fatal(err)
		}
	}
	r.CloseFds()
	return out.String(), errb.String()
}

// TestFdTable: writes reach the file a descriptor names, copies in
// subshells and pipelines are theirs to close, a statement's
// redirections are undone when it ends, and every file the table opened
// is closed exactly once by the end.
func TestFdTable(t *testing.T) {
	tests := []struct {
		name, src  string
		out, errs  string
		files      map[string]string
		persistent []string // files opened with HandlerContext.Persist
	}{
		{
			name: "exec and copies",
			src: `exec 3>a; echo x >&3; ( exec 3>&- ); x=$(exec 3>&-); echo | { exec 3>&-; read -r l; }
echo y >&3; exec 4>&3; exec 3>&-; echo z >&4; exec 4>&-; echo gone >&4`,
			errs:  "llmsh: line 2: 4: Bad file descriptor\n",
			files: map[string]string{"a": "x\ny\nz\n"}, persistent: []string{"a"},
		},
		{
			name: "statement restores",
			src: `exec 3>a; { exec 3>b; echo in-b >&3; } 3>c; echo in-a >&3; { exec 5>d; } 3>&-; echo in-d >&5
echo once 6>e; echo later >&6`,
			out:   "once\n",
			errs:  "llmsh: line 2: 6: Bad file descriptor\n",
			files: map[string]string{"a": "in-a\n", "b": "in-b\n", "c": "", "d": "in-d\n", "e": ""},
		},
		{
			name:  "named descriptors outlive the command",
			src:   `echo first {v}>a; echo "v=$v" >&$v; exec {w}>b; echo "w=$w" >&$w; exec {v}>&- {w}>&-; echo no >&10`,
			out:   "first\n",
			errs:  "llmsh: line 1: 10: Bad file descriptor\n",
			files: map[string]string{"a": "v=10\n", "b": "w=11\n"},
		},
		{
			name:  "reads share the offset",
			src:   `printf '1\n2\n3\n' >in; exec 3<in; read -r -u 3 a; read -r -u 3 b; ( read -r -u 3 c; echo "$a$b$c" ); read -r -u 3 d; echo "[$d]"`,
			out:   "123\n[]\n",
			files: map[string]string{"in": "1\n2\n3\n"},
		},
		{
			name:       "noclobber and persist",
			src:        "echo a >f; set -C; echo b >f; echo c >|f; exec >g; echo d; exec 2>&1 3>h",
			errs:       "llmsh: line 1: f: cannot overwrite existing file\n",
			files:      map[string]string{"f": "c\n", "g": "d\n", "h": ""},
			persistent: []string{"g", "h"},
		},
		{
			name: "ambiguous and bad",
			src:  `x=word; echo 2>&$x; e=; echo >&$e; echo >&99999999999; echo >&3; echo x 3>&-`,
			out:  "x\n",
			errs: "llmsh: line 1: word: ambiguous redirect\nllmsh: line 1: $e: ambiguous redirect\nllmsh: line 1: 99999999999: Bad file descriptor\nllmsh: line 1: 3: Bad file descriptor\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newMemFS()
			out, errs := runFds(t, m, tc.src)
			if out != tc.out {
				t.Errorf("stdout %q, want %q", out, tc.out)
			}
			if errs != tc.errs {
				t.Errorf("stderr %q, want %q", errs, tc.errs)
			}
			for name, want := range tc.files {
				if got := m.content(name); got != want {
					t.Errorf("%s holds %q, want %q", name, got, want)
				}
			}
			if bad := m.unclosed(); len(bad) > 0 {
				t.Errorf("not closed exactly once: %q", bad)
			}
			persist := map[string]bool{}
			for _, o := range m.opens {
				if o.persist {
					persist[o.name] = true
				}
			}
			for _, name := range tc.persistent {
				if !persist[name] {
					t.Errorf("%s opened without Persist", name)
				}
				delete(persist, name)
			}
			if tc.persistent != nil && len(persist) > 0 {
				t.Errorf("opened with Persist too: %v", persist)
			}
		})
	}
}
