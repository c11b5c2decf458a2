package vfsd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/llmsh/llmsh/internal/version"
	"github.com/llmsh/llmsh/vfsproto"
)

func TestMainUsage(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name   string
		args   []string
		status int
		out    string // substring of stdout
		errOut string // substring of stderr
	}{
		{"help", []string{"-h"}, 0, "Usage: vfsd [-i PATH]... [-o PATH]... [OPTION]...\n", ""},
		{"long help", []string{"--help"}, 0, "\n      --shm-fd=N     a sealed memory file", ""},
		{"help prefix", []string{"--he"}, 0, "Usage: vfsd", ""},
		{"help lists version", []string{"--help"}, 0, "\n      --version     output version information and exit\n", ""},
		{"version", []string{"--version"}, 0, "vfsd (llmsh) " + version.Number + "\n", ""},
		{"version prefix", []string{"--vers"}, 0, "vfsd (llmsh) ", ""},
		{"unknown flag", []string{"--frob"}, 2, "", "vfsd: unrecognized option '--frob'\nTry 'vfsd --help' for more information.\n"},
		{"go-style flag", []string{"-strict"}, 2, "", "vfsd: invalid option -- 's'\n"},
		{"no argument", []string{"--log"}, 2, "", "vfsd: option '--log' requires an argument\n"},
		{"bad budget", []string{"--max-v=1x"}, 2, "", "vfsd: invalid --max-virtual-bytes '1x'\n"},
		{"bad shm fd", []string{"--shm-fd", "x"}, 2, "", "vfsd: invalid --shm-fd 'x'\n"},
		{"attached and prefixed", []string{"-i" + dir, "--inp", dir, "--st"}, 0, "", ""},
		{"extra argument", []string{"x"}, 2, "", `unexpected argument "x"`},
		{"bad fds", []string{"--vfs-fds", "3"}, 2, "", "--vfs-fds wants R,W"},
		{"negative fds", []string{"--vfs-fds", "-1,4"}, 2, "", "--vfs-fds wants R,W"},
		{"negative budget", []string{"--max-virtual-bytes", "-5"}, 2, "", "must not be negative"},
		{"missing parent", []string{"-i", filepath.Join(dir, "a", "b", "c")}, 2, "", "-i"},
		{"bad log", []string{"--log", filepath.Join(dir, "no", "log")}, 2, "", "vfsd: --log '" + filepath.Join(dir, "no", "log") + "': No such file or directory\n"},
		{"empty session", []string{"-i", dir}, 0, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := Main(tc.args, strings.NewReader(""), &out, &errOut, nil)
			if status != tc.status || !strings.Contains(out.String(), tc.out) || !strings.Contains(errOut.String(), tc.errOut) {
				t.Fatalf("status %d, stdout %q, stderr %q", status, out.String(), errOut.String())
			}
		})
	}
}

// script encodes requests as one input stream.
func script(t testing.TB, reqs ...vfsproto.Request) []byte {
	var b []byte
	for _, r := range reqs {
		var err error
		b, err = vfsproto.AppendFrame(b, mustJSON(t, r))
		if err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// responses decodes every response frame of a stream.
func responses(t testing.TB, r io.Reader) map[string]vfsproto.Response {
	t.Helper()
	out := map[string]vfsproto.Response{}
	for {
		b, err := vfsproto.ReadFrame(r, nil)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		var resp vfsproto.Response
		mustUnmarshal(t, b, &resp)
		out[resp.ID] = resp
	}
}

func TestMainServesStdio(t *testing.T) {
	tr := newTree(t)
	logPath := filepath.Join(t.TempDir(), "vfsd.log")
	in := script(t,
		vfsproto.Request{ID: "h", Op: "hello", Params: mustJSON(t, vfsproto.HelloParams{Version: 1})},
		vfsproto.Request{ID: "o", Op: "open", Params: mustJSON(t, vfsproto.OpenParams{Path: filepath.Join(tr.in, "a.txt"), Mode: "r"})},
		vfsproto.Request{ID: "x", Op: "open", Params: mustJSON(t, vfsproto.OpenParams{Path: filepath.Join(tr.secret, "s.txt"), Mode: "r"})},
		vfsproto.Request{ID: "w", Op: "open", Params: mustJSON(t, vfsproto.OpenParams{Path: "/v/x", Mode: "w"})},
	)
	var out, errOut bytes.Buffer
	status := Main([]string{"-i", tr.in, "--strict", "--log", logPath}, bytes.NewReader(in), &out, &errOut, nil)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut.String())
	}
	got := responses(t, &out)
	if !got["h"].OK || !got["o"].OK || got["x"].Error.Code != vfsproto.ENoEnt || got["w"].Error.Code != vfsproto.EPerm {
		t.Fatalf("responses %+v", got)
	}
	// One JSON log line per request, rejected ones included.
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		lines = append(lines, m)
	}
	if len(lines) != 4 {
		t.Fatalf("%d log lines", len(lines))
	}
	byID := map[string]map[string]any{}
	for _, l := range lines {
		for _, k := range []string{"id", "op", "code", "duration", "bytes"} {
			if _, ok := l[k]; !ok {
				t.Fatalf("log line without %s: %v", k, l)
			}
		}
		byID[l["id"].(string)] = l
	}
	if byID["x"]["code"] != "E_NOENT" || byID["o"]["code"] != "OK" || byID["o"]["handle"] != float64(3) ||
		byID["x"]["path"] != filepath.Join(tr.secret, "s.txt") {
		t.Fatalf("log lines %v", byID)
	}
}

func TestMainVFSFds(t *testing.T) {
	tr := newTree(t)
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer respR.Close()
	go func() {
		reqW.Write(script(t, vfsproto.Request{ID: "s", Op: "stat", Params: mustJSON(t, map[string]string{"path": filepath.Join(tr.in, "a.txt")})}))
		reqW.Close()
	}()
	var out, errOut bytes.Buffer
	// Main takes ownership of the descriptors it is given: hand it
	// duplicates so that the *os.File values here keep their own.
	rfd, err := syscall.Dup(int(reqR.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	wfd, err := syscall.Dup(int(respW.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	reqR.Close()
	respW.Close()
	args := []string{"-i", tr.in, "--vfs-fds", fmt.Sprintf("%d,%d", rfd, wfd)}
	status := Main(args, strings.NewReader("unused"), &out, &errOut, nil)
	if status != 0 || out.Len() != 0 {
		t.Fatalf("status %d stdout %q stderr %q", status, out.String(), errOut.String())
	}
	got := responses(t, respR)
	var st vfsproto.StatResult
	mustUnmarshal(t, got["s"].Result, &st)
	if st.Size != 6 {
		t.Fatalf("stat over fds: %+v", got)
	}
}

// TestMainProtocolErrors: a connection closed on a protocol error exits 1
// with one line on stderr that names vfsd once.
func TestMainProtocolErrors(t *testing.T) {
	tooLong := []byte{0x00, 0x10, 0x00, 0x01} // 1 MiB + 1
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"no id", append([]byte{0, 0, 0, 7}, "garbage"...), "vfsd: malformed request without id\n"},
		{"too long", tooLong, "vfsd: vfsproto: frame exceeds maximum size\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := Main([]string{"-i", t.TempDir()}, bytes.NewReader(tc.in), &out, &errOut, nil)
			if status != 1 || errOut.String() != tc.want || out.Len() != 0 {
				t.Fatalf("status %d, stdout %q, stderr %q; want 1, nothing, %q", status, out.String(), errOut.String(), tc.want)
			}
		})
	}
}

// TestMainHidesItsLog: the --log file inside a writable grant is vfsd's
// own record. A client can neither read it (llmsh -o . --log log -c 'cat
// log' fed the log with its own reads forever) nor write, truncate or
// remove it; the log still records those refusals.
func TestMainHidesItsLog(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "vfsd.log")
	var reqs []vfsproto.Request
	for i, mode := range []vfsproto.Mode{vfsproto.ModeRead, vfsproto.ModeWrite, vfsproto.ModeAppend, vfsproto.ModeReadWrite} {
		reqs = append(reqs, vfsproto.Request{ID: fmt.Sprint("o", i), Op: "open", Params: mustJSON(t, vfsproto.OpenParams{Path: logPath, Mode: mode})})
	}
	reqs = append(reqs, vfsproto.Request{ID: "rm", Op: "remove", Params: mustJSON(t, vfsproto.PathParams{Path: logPath})})
	var out, errOut bytes.Buffer
	status := Main([]string{"-o", dir, "--log", logPath}, bytes.NewReader(script(t, reqs...)), &out, &errOut, nil)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut.String())
	}
	got := responses(t, &out)
	for _, r := range reqs {
		if resp := got[r.ID]; resp.OK || resp.Error.Code != vfsproto.EPerm {
			t.Errorf("%s: %+v, want E_PERM", r.ID, resp)
		}
	}
	data, err := os.ReadFile(logPath)
	if err != nil || strings.Count(string(data), "\n") != len(reqs) || !strings.Contains(string(data), `"op":"remove"`) {
		t.Fatalf("log %q %v", data, err)
	}
}
