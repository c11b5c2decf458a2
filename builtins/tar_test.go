package builtins_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// tarRun runs a command with dir as the working directory, granted
// read-write through a real vfsd session.
func tarRun(t *testing.T, dir string, stdin []byte, args ...string) result {
	t.Helper()
	b, ok := Lookup(args[0])
	if !ok {
		t.Fatalf("no builtin %q", args[0])
	}
	var out, errb bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: args, Stdin: bytes.NewReader(stdin),
		Stdout: &out, Stderr: &errb, FS: testFS(t, dir), Dir: dir}
	st := Run(b, env)
	return result{out.String(), errb.String(), st}
}

// tarTree lists the files and directories below dir on the host, with a
// file's content after "=" and a directory marked by a trailing "/".
func tarTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == ".":
		case fi.Mode()&os.ModeSymlink != 0:
			out = append(out, rel+"@")
		case fi.IsDir():
			out = append(out, rel+"/")
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, rel+"="+string(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// tarMake builds a file tree on the host: names ending in "/" are
// directories; every entry gets the modification time mtime.
func tarMake(t *testing.T, dir string, files map[string]string, mtime time.Time) {
	t.Helper()
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	for _, name := range names {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		} else {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, name := range names {
		if err := os.Chtimes(filepath.Join(dir, name), mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
}

// tarArchive builds an archive in memory from headers (Size and content
// taken from body when the type is regular).
func tarArchive(t *testing.T, members []tar.Header, bodies map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range members {
		h := h
		body := bodies[h.Name]
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(body))
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var tarTime = time.Date(2024, 3, 5, 6, 7, 8, 0, time.UTC)

func TestTarRoundTrip(t *testing.T) {
	t.Parallel()
	files := map[string]string{"src/": "", "src/a.txt": "alpha\n", "src/sub/": "", "src/sub/b.txt": "beta\n", "src/empty/": ""}
	for _, tc := range []struct {
		name   string
		create []string
		// extract runs in dir; the tree lands in out/.
		extract []string
		gz      bool
		xz      bool
	}{
		{"plain", []string{"tar", "-cf", "a.tar", "src"}, []string{"tar", "-xf", "a.tar", "-C", "out"}, false, false},
		{"old style", []string{"tar", "cf", "a.tar", "src"}, []string{"tar", "xfC", "a.tar", "out"}, false, false},
		{"gzip", []string{"tar", "czf", "a.tgz", "src"}, []string{"tar", "-xzf", "a.tgz", "-C", "out"}, true, false},
		{"gzip autodetect", []string{"tar", "--create", "--gzip", "--file=a.tgz", "src"}, []string{"tar", "--extract", "--file", "a.tgz", "--directory=out"}, true, false},
		{"stdout", []string{"tar", "-cf", "-", "src"}, []string{"tar", "-x", "-C", "out"}, false, false},
		{"xz", []string{"tar", "-cJf", "a.txz", "src"}, []string{"tar", "-xJf", "a.txz", "-C", "out"}, false, true},
		{"xz by suffix", []string{"tar", "-caf", "a.tar.xz", "src"}, []string{"tar", "-xf", "a.tar.xz", "-C", "out"}, false, true},
		{"gzip by suffix", []string{"tar", "--auto-compress", "-cf", "a.tgz", "src"}, []string{"tar", "-xf", "a.tgz", "-C", "out"}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tarMake(t, dir, files, tarTime)
			os.Mkdir(filepath.Join(dir, "out"), 0o755)
			r := tarRun(t, dir, nil, tc.create...)
			if r.status != 0 || r.stderr != "" {
				t.Fatalf("create: status %d, stderr %q", r.status, r.stderr)
			}
			var archive []byte
			if tc.create[2] == "-" {
				archive = []byte(r.stdout)
			} else {
				var err error
				if archive, err = os.ReadFile(filepath.Join(dir, tc.create[2])); err != nil {
					archive, err = os.ReadFile(filepath.Join(dir, "a.tgz"))
					if err != nil {
						t.Fatal(err)
					}
				}
			}
			if isGz := bytes.HasPrefix(archive, []byte{0x1f, 0x8b}); isGz != tc.gz {
				t.Fatalf("archive gzip-compressed = %v, want %v", isGz, tc.gz)
			}
			if isXz := bytes.HasPrefix(archive, []byte("\xfd7zXZ\x00")); isXz != tc.xz {
				t.Fatalf("archive xz-compressed = %v, want %v", isXz, tc.xz)
			}
			r = tarRun(t, dir, archive, tc.extract...)
			if r.status != 0 || r.stderr != "" || r.stdout != "" {
				t.Fatalf("extract: %+v", r)
			}
			got := strings.Join(tarTree(t, filepath.Join(dir, "out")), "\n")
			want := "src/\nsrc/a.txt=alpha\n\nsrc/empty/\nsrc/sub/\nsrc/sub/b.txt=beta\n"
			if got != want {
				t.Fatalf("extracted tree:\n%s\nwant:\n%s", got, want)
			}
			for _, name := range []string{"src", "src/a.txt", "src/sub", "src/sub/b.txt", "src/empty"} {
				fi, err := os.Stat(filepath.Join(dir, "out", name))
				if err != nil {
					t.Fatal(err)
				}
				if !fi.ModTime().Equal(tarTime) {
					t.Errorf("%s: mtime %v, want %v", name, fi.ModTime(), tarTime)
				}
				if fi.IsDir() && fi.Mode().Perm() != 0o755 {
					t.Errorf("%s: mode %v, want 0755", name, fi.Mode().Perm())
				}
			}
		})
	}
}

// The listings below are GNU tar 1.34's for the same archive
// (TZ=UTC tar -tvf, tar -tf).
func TestTarList(t *testing.T) {
	t.Parallel()
	archive := tarArchive(t, []tar.Header{
		{Name: "d/", Typeflag: tar.TypeDir, Mode: 0o755, ModTime: tarTime, Uname: "alice", Gname: "staff"},
		{Name: "d/a", Typeflag: tar.TypeReg, Mode: 0o644, ModTime: tarTime, Uname: "alice", Gname: "staff"},
		{Name: "d/x", Typeflag: tar.TypeReg, Mode: 0o4755, ModTime: tarTime, Uid: 1000, Gid: 100},
		{Name: "d/l", Typeflag: tar.TypeSymlink, Linkname: "a", Mode: 0o777, ModTime: tarTime},
		{Name: "d/h", Typeflag: tar.TypeLink, Linkname: "d/a", Mode: 0o644, ModTime: tarTime},
		{Name: "d/n\nl", Typeflag: tar.TypeSymlink, Linkname: "t\\\x01", Mode: 0o777, ModTime: tarTime},
		{Name: "d/big", Typeflag: tar.TypeReg, Mode: 0o600, ModTime: tarTime, Uname: "a-rather-long-user", Gname: "grp"},
	}, map[string]string{"d/a": "hello\n", "d/x": "#!\n", "d/big": strings.Repeat("x", 12345)})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tar", "-tf", "a.tar"}, "d/\nd/a\nd/x\nd/l\nd/h\nd/n\\nl\nd/big\n"},
		{[]string{"tar", "tvf", "a.tar"}, "" +
			"drwxr-xr-x alice/staff       0 2024-03-05 06:07 d/\n" +
			"-rw-r--r-- alice/staff       6 2024-03-05 06:07 d/a\n" +
			"-rwsr-xr-x 1000/100          3 2024-03-05 06:07 d/x\n" +
			"lrwxrwxrwx 0/0               0 2024-03-05 06:07 d/l -> a\n" +
			"hrw-r--r-- 0/0               0 2024-03-05 06:07 d/h link to d/a\n" +
			"lrwxrwxrwx 0/0               0 2024-03-05 06:07 d/n\\nl -> t\\\\\\001\n" +
			"-rw------- a-rather-long-user/grp 12345 2024-03-05 06:07 d/big\n"},
		{[]string{"tar", "-tf", "a.tar", "d/x", "d/l"}, "d/x\nd/l\n"},
		{[]string{"tar", "-tf", "a.tar", "--exclude", "a"}, "d/\nd/x\nd/l\nd/h\nd/n\\nl\nd/big\n"},
		{[]string{"tar", "-tf", "a.tar", "--exclude", "?"}, ""},
		{[]string{"tar", "-t", "--file=a.tar", "--strip-components=1"}, "d/\nd/a\nd/x\nd/l\nd/h\nd/n\\nl\nd/big\n"},
	} {
		t.Run(strings.Join(tc.args[1:], " "), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "a.tar"), archive, 0o644); err != nil {
				t.Fatal(err)
			}
			r := tarRun(t, dir, nil, tc.args...)
			if r.status != 0 || r.stderr != "" || r.stdout != tc.want {
				t.Fatalf("got status %d stderr %q stdout\n%s\nwant\n%s", r.status, r.stderr, r.stdout, tc.want)
			}
		})
	}
}

// TestTarEscape extracts a hostile archive into work/, the only granted
// directory: nothing may appear outside it, and no link is created.
func TestTarEscape(t *testing.T) {
	t.Parallel()
	archive := tarArchive(t, []tar.Header{
		{Name: "../evil", Typeflag: tar.TypeReg, Mode: 0o644},
		{Name: "/abs", Typeflag: tar.TypeReg, Mode: 0o644},
		{Name: "x/../../y", Typeflag: tar.TypeReg, Mode: 0o644},
		{Name: "sl", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd", Mode: 0o777},
		{Name: "sl2", Typeflag: tar.TypeSymlink, Linkname: "..", Mode: 0o777},
		{Name: "sl2/z", Typeflag: tar.TypeReg, Mode: 0o644},
		{Name: "hl", Typeflag: tar.TypeLink, Linkname: "../evil", Mode: 0o644},
		{Name: "ff", Typeflag: tar.TypeFifo, Mode: 0o644},
		{Name: "ok", Typeflag: tar.TypeReg, Mode: 0o644},
	}, map[string]string{"../evil": "E", "/abs": "A", "x/../../y": "Y", "sl2/z": "Z", "ok": "K"})
	parent := t.TempDir()
	work := filepath.Join(parent, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "a.tar"), archive, 0o644); err != nil {
		t.Fatal(err)
	}
	r := tarRun(t, work, nil, "tar", "xvf", "a.tar")
	wantErr := "" +
		"tar: Removing leading `../' from member names\n" +
		"tar: ../evil: Member name contains '..'\n" +
		"tar: Removing leading `/' from member names\n" +
		"tar: Removing leading `x/../../' from member names\n" +
		"tar: x/../../y: Member name contains '..'\n" +
		"tar: sl: Cannot create symlink: links are not supported in llmsh\n" +
		"tar: sl2: Cannot create symlink: links are not supported in llmsh\n" +
		"tar: hl: Cannot create hard link: links are not supported in llmsh\n" +
		"tar: ff: Cannot mknod: device and fifo members are not supported in llmsh\n" +
		"tar: Exiting with failure status due to previous errors\n"
	if r.status != 2 || r.stderr != wantErr || r.stdout != "/abs\nsl2/z\nok\n" {
		t.Fatalf("status %d\nstderr:\n%s\nwant:\n%s\nstdout:\n%s", r.status, r.stderr, wantErr, r.stdout)
	}
	if got := strings.Join(tarTree(t, parent), " "); got != "work/ work/a.tar="+string(archive)+" work/abs=A work/ok=K work/sl2/ work/sl2/z=Z" {
		t.Fatalf("tree after extraction: %q", strings.ReplaceAll(got, string(archive), "ARCHIVE"))
	}
	// With -O nothing is written, links are silently passed over, and the
	// '..' members are still refused.
	r = tarRun(t, work, nil, "tar", "-xOf", "a.tar")
	if r.status != 2 || r.stdout != "AZK" || !strings.Contains(r.stderr, "../evil: Member name contains '..'") {
		t.Fatalf("-O: %+v", r)
	}
}

func TestTarCases(t *testing.T) {
	t.Parallel()
	files := map[string]string{"d/": "", "d/a": "A\n", "d/b.log": "B\n", "d/s/": "", "d/s/c": "C\n", "d/x.tar": ""}
	archive := tarArchive(t, []tar.Header{
		{Name: "d/", Typeflag: tar.TypeDir, Mode: 0o755, ModTime: tarTime},
		{Name: "d/a", Typeflag: tar.TypeReg, Mode: 0o644, ModTime: tarTime},
		{Name: "d/s/c", Typeflag: tar.TypeReg, Mode: 0o644, ModTime: tarTime},
	}, map[string]string{"d/a": "A\n", "d/s/c": "C\n"})
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(archive)
	zw.Close()
	for _, tc := range []struct {
		name    string
		stdin   []byte
		args    []string
		status  int
		stdout  string
		stderr  string
		treeHas []string // entries expected in the tree afterwards
		treeNot []string // entries that must be absent
	}{
		// GNU tar 1.34: argp's option errors exit 64, a value tar
		// rejects itself 2.
		{name: "bogus option", args: []string{"tar", "--bogus"}, status: 64,
			stderr: "tar: unrecognized option '--bogus'\nTry 'tar --help' or 'tar --usage' for more information.\n"},
		{name: "bad short option", args: []string{"tar", "-q"}, status: 64,
			stderr: "tar: invalid option -- 'q'\nTry 'tar --help' or 'tar --usage' for more information.\n"},
		{name: "missing argument", args: []string{"tar", "-x", "-f"}, status: 64,
			stderr: "tar: option requires an argument -- 'f'\nTry 'tar --help' or 'tar --usage' for more information.\n"},
		{name: "no argument allowed", args: []string{"tar", "--verbose=1", "-tf", "a"}, status: 64,
			stderr: "tar: option '--verbose' doesn't allow an argument\nTry 'tar --help' or 'tar --usage' for more information.\n"},
		{name: "bad strip", args: []string{"tar", "--strip-components=x", "-tf", "a"}, status: 2,
			stderr: "tar: x: Invalid number of elements\nTry 'tar --help' or 'tar --usage' for more information.\n"},
		{name: "no mode", args: []string{"tar", "-f", "x.tar"}, status: 2,
			stderr: "tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\nTry 'tar --help' or 'tar --usage' for more information.\n"},
		{name: "two modes", args: []string{"tar", "-cx"}, status: 2,
			stderr: "tar: You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option\nTry 'tar --help' or 'tar --usage' for more information.\n"},
		{name: "empty create", args: []string{"tar", "cf", "x.tar"}, status: 2,
			stderr: "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n"},
		{name: "missing archive", args: []string{"tar", "xf", "nosuch.tar"}, status: 2,
			stderr: "tar: nosuch.tar: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n"},
		// With a compression option the filter's child opens the
		// archive, and both processes report.
		{name: "missing compressed archive", args: []string{"tar", "-xzf", "nosuch.tgz"}, status: 2,
			stderr: "tar (child): nosuch.tgz: Cannot open: No such file or directory\ntar (child): Error is not recoverable: exiting now\ntar: Child returned status 2\ntar: Error is not recoverable: exiting now\n"},
		{name: "create compressed in missing dir", args: []string{"tar", "-cjf", "nodir/x.tbz", "d/a"}, status: 2,
			stderr: "tar (child): nodir/x.tbz: Cannot open: No such file or directory\ntar (child): Error is not recoverable: exiting now\ntar: Child returned status 2\ntar: Error is not recoverable: exiting now\n", treeNot: []string{"nodir"}},
		{name: "archive is a directory", args: []string{"tar", "-tf", "d"}, status: 2,
			stderr: "tar: d: Cannot read: Is a directory\ntar: At beginning of tape, quitting now\ntar: Error is not recoverable: exiting now\n"},
		{name: "gzip archive is a directory", args: []string{"tar", "-xzf", "d"}, status: 2,
			stderr: "tar (child): d: Cannot read: Is a directory\ntar (child): At beginning of tape, quitting now\ntar (child): Error is not recoverable: exiting now\n\ngzip: stdin: unexpected end of file\ntar: Child returned status 2\ntar: Error is not recoverable: exiting now\n"},
		{name: "create over a directory", args: []string{"tar", "-czf", "d", "d/a"}, status: 2,
			stderr: "tar (child): d: Cannot open: Is a directory\ntar (child): Error is not recoverable: exiting now\ntar: Child returned status 2\ntar: Error is not recoverable: exiting now\n"},
		{name: "missing operand", args: []string{"tar", "cf", "x.tar", "nosuch", "d/a"}, status: 2,
			stderr: "tar: nosuch: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n"},
		{name: "not in archive", stdin: archive, args: []string{"tar", "-x", "nothere", "d/a"}, status: 2,
			stderr:  "tar: nothere: Not found in archive\ntar: Exiting with failure status due to previous errors\n",
			treeHas: []string{"d/a=A\n"}},
		// GNU's names_notfound: a glob given without --wildcards is
		// warned about; names are quoted (escape style, and ':').
		{name: "glob not in archive", stdin: archive, args: []string{"tar", "-t", "d/[ab]", "q\\*", "a:b"}, status: 2,
			stderr: "tar: Pattern matching characters used in file names\ntar: Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning\ntar: d/[ab]: Not found in archive\n" +
				"tar: q\\\\*: Not found in archive\ntar: a\\:b: Not found in archive\ntar: Exiting with failure status due to previous errors\n"},
		{name: "glob not in archive, no-wildcards", stdin: archive, args: []string{"tar", "-t", "--no-wildcards", "x*"}, status: 2,
			stderr: "tar: x*: Not found in archive\ntar: Exiting with failure status due to previous errors\n"},
		{name: "not a tar", stdin: []byte("junk\n"), args: []string{"tar", "-t"}, status: 2,
			stderr: "tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n"},
		{name: "empty input", stdin: nil, args: []string{"tar", "-t"}, status: 2,
			stderr: "tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n"},
		{name: "z on plain", stdin: archive, args: []string{"tar", "-tz"}, status: 2,
			stderr: "\ngzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n"},
		{name: "compressed stdin", stdin: gz.Bytes(), args: []string{"tar", "-t"}, status: 2,
			stderr: "tar: Archive is compressed. Use -z option\ntar: Error is not recoverable: exiting now\n"},
		{name: "gz stdin", stdin: gz.Bytes(), args: []string{"tar", "-tz"}, stdout: "d/\nd/a\nd/s/c\n"},
		{name: "truncated", stdin: archive[:1100], args: []string{"tar", "-t"}, status: 2, stdout: "d/\nd/a\n",
			stderr: "tar: Unexpected EOF in archive\ntar: Error is not recoverable: exiting now\n"},
		{name: "to stdout", stdin: archive, args: []string{"tar", "-xvO"}, stdout: "A\nC\n", stderr: "d/a\nd/s/c\n"},
		{name: "strip", stdin: archive, args: []string{"tar", "-xv", "--strip-components", "1", "-C", "out"},
			stdout: "d/a\nd/s/c\n", treeHas: []string{"out/a=A\n", "out/s/c=C\n"}, treeNot: []string{"out/d/"}},
		{name: "bad strip", args: []string{"tar", "-x", "--strip-components=x"}, status: 2,
			stderr: "tar: x: Invalid number of elements\nTry 'tar --help' or 'tar --usage' for more information.\n"},
		{name: "extract exclude", stdin: archive, args: []string{"tar", "-x", "--exclude=s", "-C", "out"},
			treeHas: []string{"out/d/a=A\n"}, treeNot: []string{"out/d/s/"}},
		{name: "create verbose to stderr", args: []string{"tar", "-cvf", "-", "--exclude=*.log", "d"},
			stderr: "d/\nd/a\nd/s/\nd/s/c\nd/x.tar\n"},
		{name: "create verbose", args: []string{"tar", "-cvf", "x.tar", "d/s", "/d/a"},
			stdout: "d/s/\nd/s/c\nDIR/d/a\n", stderr: "tar: Removing leading `/' from member names\n"},
		{name: "archive inside", args: []string{"tar", "-cf", "d/x.tar", "d"},
			stderr: "tar: d/x.tar: file is the archive; not dumped\n"},
		{name: "missing -C dir", stdin: archive, args: []string{"tar", "-x", "-C", "nosuch"}, status: 2,
			stderr: "tar: nosuch: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n", treeNot: []string{"nosuch"}},
		{name: "bad option", args: []string{"tar", "-cq"}, status: 64,
			stderr: "tar: invalid option -- 'q'\nTry 'tar --help' or 'tar --usage' for more information.\n"},
		{name: "help", args: []string{"tar", "--help"}, stdout: "Usage: tar"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tarMake(t, dir, files, tarTime)
			if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
				t.Fatal(err)
			}
			// "/d/a" stands for the absolute name of d/a.
			args := append([]string(nil), tc.args...)
			for i, a := range args {
				if a == "/d/a" {
					args[i] = dir + "/d/a"
				}
			}
			r := tarRun(t, dir, tc.stdin, args...)
			if tc.name == "help" {
				if r.status != 0 || !strings.HasPrefix(r.stdout, tc.stdout) {
					t.Fatalf("%+v", r)
				}
				return
			}
			if tc.name == "create verbose to stderr" {
				r.stdout = ""
			}
			tc.stdout = strings.ReplaceAll(tc.stdout, "DIR", strings.TrimPrefix(dir, "/"))
			if r.status != tc.status || r.stdout != tc.stdout || r.stderr != tc.stderr {
				t.Fatalf("got status %d\nstdout %q\nstderr %q\nwant status %d\nstdout %q\nstderr %q",
					r.status, r.stdout, r.stderr, tc.status, tc.stdout, tc.stderr)
			}
			tree := strings.Join(tarTree(t, dir), "\x00") + "\x00"
			for _, e := range tc.treeHas {
				if !strings.Contains(tree, e+"\x00") {
					t.Errorf("tree lacks %q: %q", e, tree)
				}
			}
			for _, e := range tc.treeNot {
				if strings.Contains(tree, e) {
					t.Errorf("tree has %q: %q", e, tree)
				}
			}
		})
	}
}

// TestTarCreateSymlinks: a symbolic link met while creating is stored as
// a link (type 2, its text as the link name, its own mode 0777, size 0),
// also one whose text points out of the grants; --transform applies to
// link targets unless its S flag says not. Checked against GNU tar 1.34
// (tar -tvf of its archive, and Python's tarfile on the headers).
func TestTarCreateSymlinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tarMake(t, dir, map[string]string{"d/": "", "d/a": "A"}, tarTime)
	for name, to := range map[string]string{"link": "/etc/passwd", "rel": "a"} {
		if err := os.Symlink(to, filepath.Join(dir, "d", name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tar", "-cf", "-", "d"}, `d/ 5 "" 755 0|d/a 0 "" 644 1|d/link 2 "/etc/passwd" 777 0|d/rel 2 "a" 777 0`},
		{[]string{"tar", "-cf", "-", "--transform", "s/a/b/", "d"}, `d/ 5 "" 755 0|d/b 0 "" 644 1|d/link 2 "/etc/pbsswd" 777 0|d/rel 2 "b" 777 0`},
		{[]string{"tar", "-cf", "-", "--transform", "s/a/b/S", "d"}, `d/ 5 "" 755 0|d/b 0 "" 644 1|d/link 2 "/etc/passwd" 777 0|d/rel 2 "a" 777 0`},
	} {
		r := tarRun(t, dir, nil, tc.args...)
		if r.status != 0 || r.stderr != "" {
			t.Fatalf("%q: %+v", tc.args, r)
		}
		tr := tar.NewReader(strings.NewReader(r.stdout))
		var got []string
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%s %c %q %o %d", h.Name, h.Typeflag, h.Linkname, h.Mode, h.Size))
		}
		want := strings.Split(tc.want, "|")
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q: members\n%s\nwant\n%s", tc.args, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	r := tarRun(t, dir, nil, "tar", "-cvvf", "x.tar", "d/rel")
	if !strings.HasSuffix(r.stdout+r.stderr, " d/rel -> a\n") || !strings.HasPrefix(r.stdout+r.stderr, "lrwxrwxrwx ") {
		t.Errorf("tar -cvv: %+v", r)
	}
}

// TestTarCreateDereference: with -h a link is archived as what it leads
// to; a dangling one named on the command line cannot be stat-ed (status
// 2), one met in a directory was "removed before we read it" (status 1).
// Checked against GNU tar 1.34, which stores lf as a hard link to ld/a
// (the same inode; vfsd shows no inodes, so llmsh stores it again).
func TestTarCreateDereference(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args    []string
		members string
		stderr  string
		status  int
	}{
		{[]string{"tar", "-chf", "-", "ld", "lf", "dangle"}, "ld/ ld/a lf",
			"tar: dangle: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n", 2},
		{[]string{"tar", "-chf", "-", "."}, "./ ./d/ ./d/a ./ld/ ./ld/a ./lf",
			"tar: ./dangle: File removed before we read it\n", 1},
	} {
		dir := t.TempDir()
		tarMake(t, dir, map[string]string{"d/": "", "d/a": "A"}, tarTime)
		for name, to := range map[string]string{"ld": "d", "lf": "d/a", "dangle": "nowhere"} {
			if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		r := tarRun(t, dir, nil, tc.args...)
		if r.status != tc.status || r.stderr != tc.stderr {
			t.Errorf("%q: %d %q", tc.args, r.status, r.stderr)
		}
		tr := tar.NewReader(strings.NewReader(r.stdout))
		var names []string
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if h.Typeflag == tar.TypeSymlink {
				t.Errorf("%q: %s stored as a link", tc.args, h.Name)
			}
			names = append(names, h.Name)
		}
		if got := strings.Join(names, " "); got != tc.members {
			t.Errorf("%q: members %q, want %q", tc.args, got, tc.members)
		}
	}
}

// TestTarOverSymlink: a member extracted where the target tree holds a
// symbolic link replaces the link and never writes through it.
func TestTarOverSymlink(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	work := filepath.Join(parent, "work")
	outside := filepath.Join(parent, "outside")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(work, "f")); err != nil {
		t.Fatal(err)
	}
	archive := tarArchive(t, []tar.Header{{Name: "f", Typeflag: tar.TypeReg, Mode: 0o644}}, map[string]string{"f": "new"})
	r := tarRun(t, work, archive, "tar", "-x")
	if r.status != 0 || r.stderr != "" {
		t.Fatalf("%+v", r)
	}
	if got := strings.Join(tarTree(t, parent), " "); got != "outside=keep work/ work/f=new" {
		t.Fatalf("tree %q", got)
	}
}

// TestTarCancelled: a cancelled context stops tar with status 2.
func TestTarCancelled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tarMake(t, dir, map[string]string{"d/": "", "d/a": strings.Repeat("x", 1<<20)}, tarTime)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b, _ := Lookup("tar")
	var out, errb bytes.Buffer
	env := &Env{Ctx: ctx, Args: []string{"tar", "-cf", "-", "d"}, Stdin: strings.NewReader(""),
		Stdout: &out, Stderr: &errb, FS: testFS(t, dir), Dir: dir}
	if st := Run(b, env); st != 2 || out.Len() > 0 {
		t.Fatalf("status %d, %d bytes written, stderr %q", st, out.Len(), errb.String())
	}
}

// TestTarListsAndModes: -T and -X read names and patterns from files
// (--null for NUL-terminated lists, "-" for standard input); extraction
// restores permission bits less the umask, exactly with -p, and never the
// setuid, setgid or sticky bits. Messages checked against GNU tar 1.34.
func TestTarListsAndModes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, content := range map[string]string{"a": "A", "b.log": "B", "c": "C"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "list"), []byte("a\n\nc\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "list0"), []byte("c\x00a\x00"), 0o644)
	os.WriteFile(filepath.Join(dir, "ex"), []byte("*.log\nlist*\n"), 0o644)
	for _, tc := range []struct {
		args   []string
		stdin  string
		out    string
		err    string
		status int
	}{
		{[]string{"tar", "cvf", "1.tar", "-T", "list"}, "", "a\nc\n", "", 0},
		{[]string{"tar", "cvf", "2.tar", "--null", "-T", "list0"}, "", "c\na\n", "", 0},
		{[]string{"tar", "cvf", "3.tar", "-T", "-"}, "c\n", "c\n", "", 0},
		{[]string{"tar", "cvfT", "4.tar", "list"}, "", "a\nc\n", "", 0},
		{[]string{"tar", "-cvf", "5.tar", "-X", "ex", "a", "b.log", "list"}, "", "a\n", "", 0},
		{[]string{"tar", "-cvf", "6.tar", "--exclude-from=ex", "--exclude=a", "a", "b.log", "c"}, "", "c\n", "", 0},
		{[]string{"tar", "-tf", "1.tar", "-T", "list0", "--null"}, "", "a\nc\n", "", 0},
		{[]string{"tar", "cf", "x.tar", "-T", "nolist"}, "", "", "tar: nolist: Cannot stat: No such file or directory\ntar: Error is not recoverable: exiting now\n", 2},
		{[]string{"tar", "cf", "x.tar", "-X", "noex", "a"}, "", "", "tar: noex: No such file or directory\ntar: Error is not recoverable: exiting now\n", 2},
	} {
		r := tarRun(t, dir, []byte(tc.stdin), tc.args...)
		if r.stdout != tc.out || r.stderr != tc.err || r.status != tc.status {
			t.Errorf("%q: got %q %q %d, want %q %q %d", tc.args, r.stdout, r.stderr, r.status, tc.out, tc.err, tc.status)
		}
	}

	// Modes: an archive with 0775 d/, 0666 d/f, 0750 d/x, 04755 d/s.
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range []struct {
		name string
		mode int64
	}{{"d/", 0o775}, {"d/f", 0o666}, {"d/x", 0o750}, {"d/s", 0o4755}, {"d/ro/", 0o555}, {"d/ro/g", 0o444}} {
		hdr := &tar.Header{Name: m.name, Mode: m.mode, Typeflag: tar.TypeReg, Size: 1, ModTime: time.Unix(1e9, 0)}
		if strings.HasSuffix(m.name, "/") {
			hdr.Typeflag, hdr.Size = tar.TypeDir, 0
		}
		tw.WriteHeader(hdr)
		if hdr.Size > 0 {
			tw.Write([]byte("z"))
		}
	}
	tw.Close()
	for _, tc := range []struct {
		flags string
		want  map[string]os.FileMode
	}{
		{"-xf", map[string]os.FileMode{"d": 0o755, "d/f": 0o644, "d/x": 0o750, "d/s": 0o755, "d/ro": 0o555, "d/ro/g": 0o444}},
		{"-xpf", map[string]os.FileMode{"d": 0o775, "d/f": 0o666, "d/x": 0o750, "d/s": 0o755, "d/ro": 0o555, "d/ro/g": 0o444}},
	} {
		out := t.TempDir()
		r := tarRun(t, out, buf.Bytes(), "tar", tc.flags, "-")
		if r.status != 0 || r.stderr != "" {
			t.Fatalf("%s: %+v", tc.flags, r)
		}
		for name, want := range tc.want {
			fi, err := os.Stat(filepath.Join(out, name))
			if err != nil || fi.Mode()&(os.ModePerm|os.ModeSetuid) != want {
				t.Errorf("%s: %s mode %v (%v), want %o", tc.flags, name, fi.Mode(), err, want)
			}
		}
		os.Chmod(filepath.Join(out, "d/ro"), 0o755)
	}
}

// TestTarTransform: --transform parsing and application; messages are
// GNU tar 1.34's.
func TestTarTransform(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		expr, in, out, err string
	}{
		{"s/a/A/", "a/b/a", "A/b/a", ""},
		{"s/a/A/g", "a/b/a", "A/b/A", ""},
		{"s/a/A/2", "a/b/a", "a/b/A", ""},
		{"s,^,pre/,", "x", "pre/x", ""},
		{`s/\(.*\)\.txt/\1.md/`, "d/f.txt", "d/f.md", ""},
		{`s/(.*)\.txt/\1.md/x`, "d/f.txt", "d/f.md", ""},
		{"s/A/<&>/i", "a", "<a>", ""},
		{`s/\//_/g`, "a/b", "a_b", ""},
		{"s|x|y|;s|y|z|", "x", "z", ""},
		{"s/q/r/", "abc", "abc", ""},
		{"bad", "", "", "Invalid transform expression"},
		{"s/a/b", "", "", "Invalid transform expression"},
		{"s/a/b/q", "", "", "Unknown flag in transform expression: q"},
		{`s/a/\1/`, "", "", "Invalid transform replacement: back reference out of range"},
	} {
		transform, msg := ForTests.TarTransform(tc.expr)
		if msg != tc.err {
			t.Errorf("%q: error %q, want %q", tc.expr, msg, tc.err)
			continue
		}
		if msg != "" {
			continue
		}
		if got := transform(tc.in); got != tc.out {
			t.Errorf("%q on %q = %q, want %q", tc.expr, tc.in, got, tc.out)
		}
	}
	// A transformed name cannot leave the base directory.
	dir := t.TempDir()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: "f", Mode: 0o644, Size: 1, Typeflag: tar.TypeReg})
	tw.Write([]byte("z"))
	tw.Close()
	r := tarRun(t, dir, buf.Bytes(), "tar", "-x", "--transform=s,^,/../../x/,")
	if r.status != 0 || r.stderr != "tar: Removing leading `/../../' from member names\n" {
		t.Errorf("escape: %+v", r)
	}
	if got := tarTree(t, dir); strings.Join(got, " ") != "x/ x/f=z" {
		t.Errorf("escape: tree %q", got)
	}
	if r := tarRun(t, dir, nil, "tar", "-cf", "o.tar", "--transform=s/a/b/q", "x"); r.status != 2 ||
		r.stderr != "tar: Unknown flag in transform expression: q\nTry 'tar --help' or 'tar --usage' for more information.\n" {
		t.Errorf("bad flag: %+v", r)
	}
}

// tar c describes a directory's entries all together (statAhead) and
// archives them in order: with more entries than entryInfos' 16 at once,
// -v names them in order, and the message about a dangling link under -h
// comes at its place among them.
func TestTarStatAheadOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := []string{"d/"}
	for i := range 40 {
		name := fmt.Sprintf("d/f%02d", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Repeat("x", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, name)
		if i == 20 {
			if err := os.Symlink("missing", filepath.Join(dir, "d/f20x")); err != nil {
				t.Fatal(err)
			}
			want = append(want, "tar: d/f20x: File removed before we read it")
		}
	}
	b, _ := Lookup("tar")
	var out bytes.Buffer
	env := &Env{Ctx: context.Background(), Args: []string{"tar", "-chvf", "a.tar", "d"}, Stdin: strings.NewReader(""),
		Stdout: &out, Stderr: &out, FS: testFS(t, dir), Dir: dir}
	st := Run(b, env)
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if st != 1 || len(got) < len(want) || strings.Join(got[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Fatalf("tar -chvf a.tar d: status %d, output\n%s\nwant first\n%s", st, out.String(), strings.Join(want, "\n"))
	}
	data, err := os.ReadFile(filepath.Join(dir, "a.tar"))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(bytes.NewReader(data))
	for i := 0; ; i++ {
		h, err := tr.Next()
		if err == io.EOF {
			if i != 41 {
				t.Fatalf("%d members, want 41", i)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && h.Size != int64(i-1) {
			t.Fatalf("member %s: size %d, want %d", h.Name, h.Size, i-1)
		}
	}
}

// tarBz2 is GNU tar 1.34's `tar --owner=0 --group=0 --mtime=@0 -cjf`
// of d/f holding "hello\n".
const tarBz2 = "QlpoOTFBWSZTWW9pFvsAAI37hMmQAFBAAOeAAANnRJ4AAACACCAAdQlI1Gmg0A2oNAFUkj9SGTT1AA9J6ll/WddJTEDLdCIhWaY8DPnRLEqoiDAO3opQeci3QERJtAQmVBW2EcV3i91jg1G+o2FtXY7mrJZdtLrpRB/F3JFOFCQb2kW+wA=="

// -j and -J, and the compression GNU tar 1.34 finds by itself in a named
// archive (not on standard input); the messages are GNU tar's with its
// filter programs (bzip2 1.0.8, xz 5.4).
func TestTarCompressions(t *testing.T) {
	t.Parallel()
	bz, err := base64.StdEncoding.DecodeString(tarBz2)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tarMake(t, dir, map[string]string{"src/": "", "src/a": "a\n"}, tarTime)
	if err := os.WriteFile(filepath.Join(dir, "d.tbz"), bz, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := tarRun(t, dir, nil, "tar", "-cf", "plain.tar", "src"); r.status != 0 {
		t.Fatalf("create: %+v", r)
	}
	for _, c := range []struct {
		args        []string
		stdin       []byte
		out, errOut string
		status      int
	}{
		{[]string{"tar", "-tjf", "d.tbz"}, nil, "d/\nd/f\n", "", 0},
		{[]string{"tar", "-tf", "d.tbz"}, nil, "d/\nd/f\n", "", 0},
		{[]string{"tar", "-xOf", "d.tbz", "d/f"}, nil, "hello\n", "", 0},
		{[]string{"tar", "-tf", "-"}, bz, "", "tar: Archive is compressed. Use -j option\ntar: Error is not recoverable: exiting now\n", 2},
		{[]string{"tar", "-tjf", "-"}, bz, "d/\nd/f\n", "", 0},
		{[]string{"tar", "-tjf", "plain.tar"}, nil, "", "bzip2: (stdin) is not a bzip2 file.\ntar: Child returned status 2\ntar: Error is not recoverable: exiting now\n", 2},
		{[]string{"tar", "-tJf", "d.tbz"}, nil, "", "xz: (stdin): File format not recognized\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n", 2},
		{[]string{"tar", "-tzf", "plain.tar"}, nil, "", "\ngzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n", 2},
		{[]string{"tar", "-cjf", "x.tbz", "src"}, nil, "", "", 0},
		{[]string{"tar", "-tf", "x.tbz"}, nil, "src/\nsrc/a\n", "", 0},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := tarRun(t, dir, c.stdin, c.args...)
			if r.stdout != c.out || r.stderr != c.errOut || r.status != c.status {
				t.Errorf("got %q %q %d, want %q %q %d", r.stdout, r.stderr, r.status, c.out, c.errOut, c.status)
			}
		})
	}
}

// TestTarRecordPadding: GNU tar 1.34 fills the last 10240-byte record, so
// an archive's size (before compression) is a multiple of 10240: 10240 for
// one small file or one of 8704 bytes, 20480 for 8705, 30720 for 20000,
// as `tar cf - F | wc -c` says with GNU tar.
func TestTarRecordPadding(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		size int
		want int
	}{{6, 10240}, {20000, 30720}, {8704, 10240}, {8705, 20480}} {
		dir := t.TempDir()
		tarMake(t, dir, map[string]string{"f": strings.Repeat("x", tc.size)}, tarTime)
		r := tarRun(t, dir, nil, "tar", "cf", "-", "f")
		if r.status != 0 || len(r.stdout) != tc.want {
			t.Errorf("%d-byte file: archive of %d bytes (status %d, %q), want %d", tc.size, len(r.stdout), r.status, r.stderr, tc.want)
		}
		zr := tarRun(t, dir, nil, "tar", "czf", "-", "f")
		g, err := gzip.NewReader(strings.NewReader(zr.stdout))
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := io.Copy(io.Discard, g); n != int64(tc.want) {
			t.Errorf("%d-byte file, -z: %d bytes inside, want %d", tc.size, n, tc.want)
		}
	}
}

// TestTarMissingProgram: the filters and commands llmsh cannot run fail
// in GNU tar's words for a program that cannot be executed.
func TestTarMissingProgram(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		prog string
	}{
		{[]string{"tar", "--zstd", "-cf", "a.tar.zst", "src"}, "zstd"},
		{[]string{"tar", "--lzip", "-cf", "a.tar.lz", "src"}, "lzip"},
		{[]string{"tar", "--lzma", "-xf", "a.tar"}, "lzma"},
		{[]string{"tar", "--lzop", "-tf", "a.tar"}, "lzop"},
		{[]string{"tar", "-I", "pigz -9", "-cf", "a.tgz", "src"}, "pigz"},
		{[]string{"tar", "--use-compress-program=brotli", "-xf", "a.tar"}, "brotli"},
		{[]string{"tar", "--to-command=md5sum", "-xf", "a.tar"}, "md5sum"},
	} {
		dir := t.TempDir()
		tarMake(t, dir, map[string]string{"src/": "", "src/a": "a\n"}, tarTime)
		r := tarRun(t, dir, nil, "tar", "-cf", "a.tar", "src")
		if r.status != 0 {
			t.Fatalf("create: %d %q", r.status, r.stderr)
		}
		r = tarRun(t, dir, nil, tc.args...)
		want := "tar (child): " + tc.prog + ": Cannot exec: No such file or directory\n" +
			"tar (child): Error is not recoverable: exiting now\n" +
			"tar: Child returned status 2\ntar: Error is not recoverable: exiting now\n"
		if r.status != 2 || r.stderr != want {
			t.Errorf("%q: status %d, stderr %q; want 2, %q", tc.args, r.status, r.stderr, want)
		}
	}
}

// TestTarCreateOwner: members belong to llmsh's one user, as ls -l shows,
// unless --owner, --group, --numeric-owner or v7 (-o) say otherwise.
func TestTarCreateOwner(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args         []string
		uname, gname string
		uid, gid     int
	}{
		{nil, VirtualUser, VirtualUser, VirtualUID, VirtualGID},
		{[]string{"--owner=alice:7", "--group=staff:9"}, "alice", "staff", 7, 9},
		{[]string{"--numeric-owner"}, "", "", VirtualUID, VirtualGID},
		// v7 headers have no owner names (llmsh writes ustar without them)
		{[]string{"--format=v7"}, "", "", VirtualUID, VirtualGID},
		{[]string{"--old-archive"}, "", "", VirtualUID, VirtualGID},
		{[]string{"--portability"}, "", "", VirtualUID, VirtualGID},
		{[]string{"-o"}, "", "", VirtualUID, VirtualGID},
		{[]string{"-o", "--format=gnu"}, VirtualUser, VirtualUser, VirtualUID, VirtualGID},
	} {
		r := tarRun(t, dir, nil, append(append([]string{"tar"}, c.args...), "-cf", "-", "f")...)
		if r.status != 0 {
			t.Fatalf("%v: status %d: %s", c.args, r.status, r.stderr)
		}
		hdr, err := tar.NewReader(strings.NewReader(r.stdout)).Next()
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Uname != c.uname || hdr.Gname != c.gname || hdr.Uid != c.uid || hdr.Gid != c.gid {
			t.Errorf("%v: owner %s(%d)/%s(%d), want %s(%d)/%s(%d)", c.args, hdr.Uname, hdr.Uid,
				hdr.Gname, hdr.Gid, c.uname, c.uid, c.gname, c.gid)
		}
	}
}

// readsFS is clientFS noting every file whose data is asked for.
type readsFS struct {
	clientFS
	mu    sync.Mutex
	reads []string
}

func (f *readsFS) note(names ...string) {
	f.mu.Lock()
	f.reads = append(f.reads, names...)
	f.mu.Unlock()
}

func (f *readsFS) OpenFile(name string, flag int) (File, error) {
	if flag == os.O_RDONLY {
		f.note(name)
	}
	return f.clientFS.OpenFile(name, flag)
}

func (f *readsFS) ReadHead(name string, p []byte) (int, bool, bool, error) {
	f.note(name)
	return f.clientFS.ReadHead(name, p)
}

func (f *readsFS) ReadHeads(names []string, max int) ([]Head, bool) {
	f.note(names...)
	return f.clientFS.ReadHeads(names, max)
}

// TestTarExcludedNotRead: tar c reads ahead the small files of a
// directory, but not those --exclude leaves out (it read each of them
// for nothing).
func TestTarExcludedNotRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{"d/": ""}
	for i := range 30 {
		files[fmt.Sprintf("d/f%02d", i)] = "x\n"
	}
	tarMake(t, dir, files, tarTime)
	fsys := &readsFS{clientFS: testFS(t, dir).(clientFS)}
	b, _ := Lookup("tar")
	var out strings.Builder
	env := &Env{Ctx: context.Background(), Args: []string{"tar", "cvf", "a.tar", "--exclude=*[1-9]", "d"},
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, FS: fsys, Dir: dir}
	if st := Run(b, env); st != 0 || out.String() != "d/\nd/f00\nd/f10\nd/f20\n" {
		t.Fatalf("status %d, output %q", st, out.String())
	}
	for _, r := range fsys.reads {
		if !strings.HasSuffix(r, "0") && !strings.HasSuffix(r, ".tar") {
			t.Errorf("%s read", r)
		}
	}
}
