package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmsh/llmsh/internal/treesnap"
	"github.com/llmsh/llmsh/vfsproto"
)

// protoPeer is a raw client of a real vfsd (the llmsh binary in server
// mode) attached, as --vfs-fds does, to inherited pipe descriptors 3 and 4.
type protoPeer struct {
	t      *testing.T
	cmd    *exec.Cmd
	w      *os.File // requests (vfsd's fd 3)
	r      *os.File // answers (vfsd's fd 4)
	stderr *bytes.Buffer
	seen   bytes.Buffer // every byte vfsd answered
	exited chan error
}

func startProtoPeer(t *testing.T, bin string, ar *arena) *protoPeer {
	t.Helper()
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &protoPeer{t: t, w: reqW, r: respR, stderr: new(bytes.Buffer), exited: make(chan error, 1)}
	p.cmd = exec.Command(bin, serverModeArg, "-i", ar.ro, "-o", ar.rw, "--vfs-fds", "3,4")
	p.cmd.Dir = ar.rw
	p.cmd.Env = []string{"LLMSH_ATTACK_CANARY=" + ar.envValue}
	p.cmd.ExtraFiles = []*os.File{reqR, respW}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reqR.Close()
	respW.Close()
	go func() { p.exited <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.w.Close()
		p.r.Close()
		p.cmd.Process.Kill()
	})
	return p
}

func (p *protoPeer) raw(b []byte) {
	if _, err := p.w.Write(b); err != nil {
		p.t.Logf("write: %v", err)
	}
}

func (p *protoPeer) frame(payload string) {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(payload)))
	p.raw(append(b, payload...))
}

// recv reads one answer; nil when vfsd closed the connection.
func (p *protoPeer) recv() *vfsproto.Response {
	b, err := vfsproto.ReadFrame(p.r, nil)
	if err != nil {
		return nil
	}
	p.seen.Write(b)
	var resp vfsproto.Response
	if err := json.Unmarshal(b, &resp); err != nil {
		p.t.Fatalf("vfsd answered a frame that is not JSON: %q", b)
	}
	return &resp
}

// call sends a request (params as raw JSON) and returns the answer.
func (p *protoPeer) call(id, op, params string) *vfsproto.Response {
	p.frame(fmt.Sprintf(`{"id":%q,"op":%q,"params":%s}`, id, op, params))
	return p.recv()
}

// finish hangs up and waits for vfsd to exit (a hang is reported after
// hardKill, and vfsd killed).
func (p *protoPeer) finish() error {
	p.w.Close()
	io.Copy(&p.seen, p.r)
	select {
	case err := <-p.exited:
		return err
	case <-time.After(hardKill):
		p.cmd.Process.Kill()
		p.t.Errorf("BREACH: vfsd did not exit after its client hung up")
		return <-p.exited
	}
}

func jsonStr(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestProtocolAttacks sends malformed and hostile traffic straight to a
// real vfsd over inherited pipes, bypassing llmsh's shell and client. For
// each: no stack trace, no marker or canary in any answer, nothing outside
// -o changes, and vfsd exits once its client hangs up.
func TestProtocolAttacks(t *testing.T) {
	t.Parallel()
	bin := realLlmsh(t)
	type attackFn func(t *testing.T, p *protoPeer, ar *arena)
	// wantErr checks an answer is a refusal with one of the codes.
	wantErr := func(t *testing.T, resp *vfsproto.Response, codes ...vfsproto.Code) {
		t.Helper()
		if resp == nil {
			t.Fatalf("connection closed, want an error answer %v", codes)
		}
		if resp.OK || resp.Error == nil {
			t.Fatalf("BREACH: request accepted: %+v (result %s)", resp, resp.Result)
		}
		for _, c := range codes {
			if resp.Error.Code == c {
				return
			}
		}
		t.Fatalf("error %v, want one of %v", resp.Error, codes)
	}
	// usable checks the connection still serves a granted file.
	usable := func(t *testing.T, p *protoPeer, ar *arena) {
		t.Helper()
		resp := p.call("u", "stat", `{"path":`+jsonStr(filepath.Join(ar.ro, "in.txt"))+`}`)
		if resp == nil || !resp.OK {
			t.Fatalf("connection unusable after the attack: %+v", resp)
		}
	}
	closed := func(t *testing.T, p *protoPeer) {
		t.Helper()
		if resp := p.recv(); resp != nil {
			t.Fatalf("want the connection closed, got %+v", resp)
		}
	}
	cases := []struct {
		name string
		fn   attackFn
	}{
		{"truncated_header", func(t *testing.T, p *protoPeer, ar *arena) {
			p.raw([]byte{0, 0})
		}},
		{"truncated_body", func(t *testing.T, p *protoPeer, ar *arena) {
			p.raw(append(binary.BigEndian.AppendUint32(nil, 100), `{"id":"1"`...))
		}},
		{"length_4GiB", func(t *testing.T, p *protoPeer, ar *arena) {
			// Closed before the body is read (none is sent): vfsd
			// neither waits for 4 GiB nor allocates it.
			p.raw([]byte{0xff, 0xff, 0xff, 0xff})
			closed(t, p)
		}},
		{"length_over_max", func(t *testing.T, p *protoPeer, ar *arena) {
			p.raw(binary.BigEndian.AppendUint32(nil, vfsproto.MaxFrame+1))
			closed(t, p)
		}},
		{"not_json", func(t *testing.T, p *protoPeer, ar *arena) {
			p.frame("\x00\x01garbage")
			closed(t, p)
		}},
		{"invalid_utf8_path", func(t *testing.T, p *protoPeer, ar *arena) {
			for _, path := range []string{ar.ro + "/\xff\xfe", ar.secret + "\xff", ar.ro + "/../out/secret\xc0\xaf"} {
				resp := p.call("1", "open", `{"path":"`+path+`","mode":"r"}`)
				if resp == nil {
					t.Fatal("connection closed on invalid UTF-8")
				}
				if resp.OK {
					h := string(resp.Result)
					t.Fatalf("BREACH? invalid UTF-8 path %q opened: %s", path, h)
				}
			}
			usable(t, p, ar)
		}},
		{"byte_names_escapes", func(t *testing.T, p *protoPeer, ar *arena) {
			// With byte_names, a NUL and two hex digits in a name stand
			// for a byte that is not UTF-8 (docs/protocol.md). No
			// spelling reaches outside the grants: escapes of '.', '/'
			// or of a character that stands for itself are E_ARG before
			// any policy, an escaped NUL is a NUL (E_PERM), an overlong
			// '/' is two bytes of a name, and text that looks like an
			// escape is that text.
			resp := p.call("hi", "hello", `{"version":1,"features":["byte_names","walk","read_bulk","read_file","read_files","read_tail"]}`)
			if resp == nil || !resp.OK || !strings.Contains(string(resp.Result), `"byte_names"`) || !strings.Contains(string(resp.Result), `"read_tail"`) {
				t.Fatalf("hello: %+v", resp)
			}
			const nul = `\u0000`
			up := filepath.Dir(ar.secret)
			cases := []struct {
				path  string
				codes []vfsproto.Code
			}{
				{ar.rw + "/" + nul + "2e" + nul + "2e/out/secret", []vfsproto.Code{vfsproto.EArg}},
				{ar.rw + "/.." + nul + "2fout" + nul + "2fsecret", []vfsproto.Code{vfsproto.EArg}},
				{ar.rw + "/.." + nul + "2F" + "out/secret", []vfsproto.Code{vfsproto.EArg}},
				{up + "/secr" + nul + "65t", []vfsproto.Code{vfsproto.EArg}},
				{up + "/secret" + nul, []vfsproto.Code{vfsproto.EArg}},
				{up + "/secret" + nul + "0", []vfsproto.Code{vfsproto.EArg}},
				{up + "/secret" + nul + nul + "ff", []vfsproto.Code{vfsproto.EArg}},
				{ar.secret + nul + "00", []vfsproto.Code{vfsproto.EPerm}},
				{ar.rw + "/" + nul + "00/../../out/secret", []vfsproto.Code{vfsproto.EPerm}},
				{ar.rw + "/" + nul + "c0" + nul + "af.." + nul + "c0" + nul + "afout" + nul + "c0" + nul + "afsecret", []vfsproto.Code{vfsproto.ENoEnt}},
				{ar.rw + "/" + nul + "fe\xfe/../../out/secret", []vfsproto.Code{vfsproto.EPerm, vfsproto.ENoEnt}},
				{ar.rw + `/\\u00002e\\u00002e/../out/secret`, []vfsproto.Code{vfsproto.ENoEnt, vfsproto.EPerm}},
			}
			for _, c := range cases {
				path := strings.ReplaceAll(c.path, `\xfe`, "\xfe")
				for _, op := range []string{"open", "stat", "lstat", "list", "walk", "readlink", "remove", "chmod", "utimes", "read_file", "read_tail", "mkdir"} {
					if op == "mkdir" && c.codes[0] == vfsproto.ENoEnt {
						continue // a name inside the grant: mkdir may make it
					}
					params := `{"path":"` + path + `","mode":"r","max":64}`
					switch op {
					case "chmod":
						params = `{"path":"` + path + `","mode":420}`
					case "mkdir":
						params = `{"path":"` + path + `"}`
					case "utimes":
						params = `{"path":"` + path + `","mtime":0}`
					}
					wantErr(t, p.call("b", op, params), c.codes...)
				}
				resp := p.call("b", "read_files", `{"paths":["`+path+`"],"max":64}`)
				var fr vfsproto.ReadFilesResult
				if resp != nil && resp.OK && json.Unmarshal(resp.Result, &fr) == nil && len(fr.Files) == 1 && fr.Files[0].Error != nil {
					resp = &vfsproto.Response{Error: fr.Files[0].Error} // refused file by file
				}
				wantErr(t, resp, c.codes...)
				wantErr(t, p.call("b", "rename", `{"from":"`+path+`","to":"`+ar.rw+`/stolen"}`), c.codes...)
			}
			usable(t, p, ar)
		}},
		{"invalid_utf8_id", func(t *testing.T, p *protoPeer, ar *arena) {
			p.frame("{\"id\":\"\xff\xfe\",\"op\":\"stats\",\"params\":{}}")
			if resp := p.recv(); resp == nil {
				t.Fatal("connection closed")
			}
			usable(t, p, ar)
		}},
		{"wrong_types", func(t *testing.T, p *protoPeer, ar *arena) {
			in := jsonStr(filepath.Join(ar.ro, "in.txt"))
			for _, c := range []struct{ op, params string }{
				{"open", `{"path":7,"mode":"r"}`},
				{"open", `{"path":` + in + `,"mode":["r"]}`},
				{"open", `{"path":` + in + `,"mode":"x"}`},
				{"open", `[1,2,3]`},
				{"open", `"` + ar.secret + `"`},
				{"read", `{"h":"3","max":10}`},
				{"read", `{"h":3.5,"max":10}`},
				{"read", `{"h":3,"max":-1}`},
				{"read", `{"h":3,"max":99999999999}`},
				{"write", `{"h":3,"data":"not base64!"}`},
				{"seek", `{"h":3,"offset":-9223372036854775808,"whence":"SEEK_SET"}`},
				{"seek", `{"h":3,"offset":0,"whence":"SEEK_NOWHERE"}`},
				{"stat", `{}`},
				{"stat", `{"h":3,"path":` + in + `}`},
				{"list", `{"path":null}`},
				{"rename", `{"from":` + in + `}`},
				{"hello", `{"version":"x","features":7}`},
			} {
				resp := p.call("w", c.op, c.params)
				if resp == nil {
					t.Fatalf("%s %s: connection closed", c.op, c.params)
				}
				if resp.OK && c.op != "hello" {
					t.Fatalf("BREACH? %s %s accepted: %s", c.op, c.params, resp.Result)
				}
			}
			usable(t, p, ar)
		}},
		{"unknown_and_reserved_ops", func(t *testing.T, p *protoPeer, ar *arena) {
			for _, op := range []string{"LLMCMD", "QUOTA", "exec", "spawn", "chmod", "symlink", "link", ""} {
				wantErr(t, p.call("o", op, `{"cmd":"`+ar.canary+`","path":"`+ar.secret+`"}`), vfsproto.EUnsupported, vfsproto.EArg)
			}
			usable(t, p, ar)
		}},
		{"read_shm_without_region", func(t *testing.T, p *protoPeer, ar *arena) {
			// This vfsd was started without --shm-fd: asking for read_shm
			// gets nothing, and read_shm stays an unknown operation
			// whatever slot it names.
			in := jsonStr(filepath.Join(ar.ro, "in.txt"))
			resp := p.call("o", "open", `{"path":`+in+`,"mode":"r"}`)
			if resp == nil || !resp.OK {
				t.Fatalf("open: %+v", resp)
			}
			var or vfsproto.OpenResult
			json.Unmarshal(resp.Result, &or)
			h := fmt.Sprint(or.Handle)
			resp = p.call("hi", "hello", `{"version":1,"features":["read_shm"]}`)
			var hr vfsproto.HelloResult
			if resp == nil || !resp.OK || json.Unmarshal(resp.Result, &hr) != nil || hr.ShmSlots != 0 || len(hr.Features) != 0 {
				t.Fatalf("BREACH: hello granted read_shm without a region: %+v", resp)
			}
			for _, slot := range []string{"0", "1", "-1", "16", "4611686018427387904"} {
				wantErr(t, p.call("s", "read_shm", `{"h":`+h+`,"max":100,"slot":`+slot+`}`), vfsproto.EUnsupported)
			}
			usable(t, p, ar)
		}},
		{"handles_never_issued", func(t *testing.T, p *protoPeer, ar *arena) {
			for _, h := range []string{"0", "1", "2", "3", "4", "-1", "4611686018427387904"} {
				wantErr(t, p.call("h", "read", `{"h":`+h+`,"max":100}`), vfsproto.ENoEnt, vfsproto.EClosed, vfsproto.EArg, vfsproto.EPerm)
				wantErr(t, p.call("h", "write", `{"h":`+h+`,"data":"eA=="}`), vfsproto.ENoEnt, vfsproto.EClosed, vfsproto.EArg, vfsproto.EPerm)
			}
			usable(t, p, ar)
		}},
		{"handles_of_another_client", func(t *testing.T, p *protoPeer, ar *arena) {
			// Another client (its own vfsd) opens a granted file; its handle
			// number means nothing here, and closing it here leaves it open
			// there.
			other := startProtoPeer(t, bin, ar)
			resp := other.call("o", "open", `{"path":`+jsonStr(filepath.Join(ar.ro, "in.txt"))+`,"mode":"r"}`)
			if resp == nil || !resp.OK {
				t.Fatalf("open in the other client: %+v", resp)
			}
			var or vfsproto.OpenResult
			json.Unmarshal(resp.Result, &or)
			h := fmt.Sprint(or.Handle)
			wantErr(t, p.call("x", "read", `{"h":`+h+`,"max":100}`), vfsproto.ENoEnt, vfsproto.EClosed)
			wantErr(t, p.call("x", "close", `{"h":`+h+`}`), vfsproto.ENoEnt, vfsproto.EClosed)
			if resp := other.call("r", "read", `{"h":`+h+`,"max":100}`); resp == nil || !resp.OK {
				t.Fatalf("the other client's handle was disturbed: %+v", resp)
			}
			if err := other.finish(); err != nil {
				t.Fatalf("other vfsd: %v %s", err, other.stderr)
			}
		}},
		{"named_handles", func(t *testing.T, p *protoPeer, ar *arena) {
			// open_named (issue 21): handles the client names. Names
			// out of range, of another type, in use, or another
			// client's are refused; a failed open's name refuses every
			// request; a read-only file stays read-only.
			if resp := p.call("h", "hello", `{"version":1,"features":["open_named"]}`); resp == nil || !resp.OK {
				t.Fatalf("hello: %+v", resp)
			}
			in := jsonStr(filepath.Join(ar.ro, "in.txt"))
			for _, h := range []string{"-1", "0", "2", "3", "4294967295", "9007199254740992", "1e30", "18446744073709551616", `"4294967296"`, "null", "[]"} {
				wantErr(t, p.call("n", "open", `{"path":`+in+`,"mode":"r","h":`+h+`}`), vfsproto.ERange, vfsproto.EArg)
			}
			first := fmt.Sprint(vfsproto.FirstNamedHandle)
			if resp := p.call("a", "open", `{"path":`+in+`,"mode":"r","h":`+first+`}`); resp == nil || !resp.OK {
				t.Fatalf("named open: %+v", resp)
			}
			wantErr(t, p.call("b", "open", `{"path":`+jsonStr(filepath.Join(ar.rw, "x"))+`,"mode":"w","h":`+first+`}`), vfsproto.EArg)
			wantErr(t, p.call("w", "write", `{"h":`+first+`,"data":"cHdu"}`), vfsproto.EPerm)
			if resp := p.call("r", "read", `{"h":`+first+`,"max":4}`); resp == nil || !resp.OK {
				t.Fatalf("the named handle lost its file: %+v", resp)
			}
			// A write-mode open of the read-only file fails and keeps
			// its name: every request on it fails, nothing is written.
			second := fmt.Sprint(vfsproto.FirstNamedHandle + 1)
			p.frame(`{"id":"o2","op":"open","params":{"path":` + in + `,"mode":"a","h":` + second + `}}`)
			p.frame(`{"id":"w2","op":"write","params":{"h":` + second + `,"data":"cHdu"}}`)
			for range 2 {
				wantErr(t, p.recv(), vfsproto.EPerm)
			}
			wantErr(t, p.call("c2", "close", `{"h":`+second+`}`), vfsproto.EPerm)
			wantErr(t, p.call("w3", "write", `{"h":`+second+`,"data":"cHdu"}`), vfsproto.ENoEnt)
			// Another client's name is not this one's.
			other := startProtoPeer(t, bin, ar)
			other.call("h", "hello", `{"version":1,"features":["open_named"]}`)
			wantErr(t, other.call("r", "read", `{"h":`+first+`,"max":4}`), vfsproto.ENoEnt)
			if err := other.finish(); err != nil {
				t.Fatalf("other vfsd: %v %s", err, other.stderr)
			}
			p.call("c", "close", `{"h":`+first+`}`)
			usable(t, p, ar)
		}},
		{"named_open_stat", func(t *testing.T, p *protoPeer, ar *arena) {
			// A client's read-only open (issue 21): a named open with a
			// stat of its handle in the same write, before the open's
			// answer. Outside the grants the open fails as any open
			// does, and the stat behind it fails with the open's error,
			// telling nothing of the file; the close frees the name.
			if resp := p.call("h", "hello", `{"version":1,"features":["open_named","byte_names"]}`); resp == nil || !resp.OK {
				t.Fatalf("hello: %+v", resp)
			}
			for i, path := range []string{ar.secret, ar.rw + "/link-abs", ar.rw + "/dirlink/secret", ar.ro + "/../out/secret", "/proc/self/environ", ar.secret + "\x00" + ar.ro + "/in.txt"} {
				h := fmt.Sprint(vfsproto.FirstNamedHandle + int64(i))
				p.frame(`{"id":"o","op":"open","params":{"path":` + jsonStr(path) + `,"mode":"r","h":` + h + `}}`)
				p.frame(`{"id":"s","op":"stat","params":{"h":` + h + `}}`)
				open := p.recv()
				wantErr(t, open, vfsproto.ENoEnt, vfsproto.EPerm, vfsproto.EArg)
				st := p.recv()
				if open.Error.Code == vfsproto.EArg {
					// Refused before any open (a NUL in the path):
					// the name was not taken.
					wantErr(t, st, vfsproto.ENoEnt)
					continue
				}
				wantErr(t, st, open.Error.Code)
				if st.Error.Message != open.Error.Message {
					t.Fatalf("stat behind a failed open of %q: %v, want the open's %v", path, st.Error, open.Error)
				}
				wantErr(t, p.call("c", "close", `{"h":`+h+`}`), open.Error.Code)
				wantErr(t, p.call("s2", "stat", `{"h":`+h+`}`), vfsproto.ENoEnt)
			}
			usable(t, p, ar)
		}},
		{"handle_mode_confusion", func(t *testing.T, p *protoPeer, ar *arena) {
			resp := p.call("o", "open", `{"path":`+jsonStr(filepath.Join(ar.ro, "in.txt"))+`,"mode":"r"}`)
			if resp == nil || !resp.OK {
				t.Fatalf("open: %+v", resp)
			}
			var or vfsproto.OpenResult
			json.Unmarshal(resp.Result, &or)
			h := fmt.Sprint(or.Handle)
			wantErr(t, p.call("w", "write", `{"h":`+h+`,"data":"cHdu"}`), vfsproto.EPerm, vfsproto.EArg, vfsproto.EUnsupported)
			p.call("c", "close", `{"h":`+h+`}`)
			wantErr(t, p.call("r", "read", `{"h":`+h+`,"max":10}`), vfsproto.ENoEnt, vfsproto.EClosed)
		}},
		{"paths_outside", func(t *testing.T, p *protoPeer, ar *arena) {
			// (First, before the "rw" opens below make virtual files.)
			// Outside the grants the secret is absent, as a name that
			// exists nowhere; a link in a grant leading to it, and a ".."
			// out of a grant, are refused.
			for _, path := range []string{ar.secret, ar.out + "/nosuch", "/etc/passwd"} {
				wantErr(t, p.call("s", "stat", `{"path":`+jsonStr(path)+`}`), vfsproto.ENoEnt)
			}
			for _, path := range []string{ar.rw + "/link-abs", ar.rw + "/dirlink/secret", ar.ro + "/../out/secret"} {
				wantErr(t, p.call("s", "stat", `{"path":`+jsonStr(path)+`}`), vfsproto.EPerm)
			}
			for _, path := range []string{
				ar.secret, ar.ro + "/../out/secret", "/proc/self/root" + ar.secret,
				ar.rw + "/dirlink/secret", ar.rw + "/link-abs", ar.rw + "/link-rel", ar.ro + "/ro-link",
				"../out/secret", ar.secret + "\x00" + ar.ro + "/in.txt", "/proc/self/environ", "/proc/self/fd/3",
				"/dev/zero", "/etc/passwd",
			} {
				// A link inside a grant may be lstat'ed and read itself
				// (readlink: its text, docs/security.md T-LINK-3); nothing
				// may be stat'ed or listed through it. (stat first: an "rw" open outside the grants makes a
				// virtual file of that name, which stat then shows.)
				for _, op := range []string{"stat", "lstat", "readlink", "list"} {
					if resp := p.call("s", op, `{"path":`+jsonStr(path)+`}`); resp != nil && resp.OK && !((op == "lstat" || op == "readlink") && (strings.HasPrefix(path, ar.rw) || strings.HasPrefix(path, ar.ro))) {
						t.Fatalf("BREACH: %s %q answered: %s", op, path, resp.Result)
					}
				}
				for _, mode := range []string{"r", "rw"} {
					resp := p.call("p", "open", `{"path":`+jsonStr(path)+`,"mode":"`+mode+`"}`)
					if resp != nil && resp.OK && mode == "r" {
						t.Fatalf("BREACH: %q opened for reading: %s", path, resp.Result)
					}
				}
			}
			usable(t, p, ar)
		}},
		{"tree_ops_outside", func(t *testing.T, p *protoPeer, ar *arena) {
			work := jsonStr(filepath.Join(ar.rw, "work.txt"))
			for _, c := range []struct{ op, params string }{
				{"remove", `{"path":` + jsonStr(ar.secret) + `}`},
				{"remove", `{"path":` + jsonStr(ar.rw+"/dirlink/secret") + `}`},
				{"remove", `{"path":` + jsonStr(ar.out) + `,"recursive":true}`},
				{"rename", `{"from":` + jsonStr(ar.secret) + `,"to":` + work + `}`},
				{"rename", `{"from":` + work + `,"to":` + jsonStr(ar.out+"/moved") + `}`},
				{"rename", `{"from":` + work + `,"to":` + jsonStr(ar.rw+"/dirlink/moved") + `}`},
				{"mkdir", `{"path":` + jsonStr(ar.out+"/d") + `}`},
				{"mkdir", `{"path":` + jsonStr(ar.rw+"/dirlink/d") + `}`},
				{"utimes", `{"path":` + jsonStr(ar.secret) + `,"atime":0,"mtime":0}`},
				{"utimes", `{"path":` + jsonStr(ar.rw+"/link-abs") + `,"atime":0,"mtime":0}`},
				{"create_temp", `{"dir":` + jsonStr(ar.out) + `}`},
			} {
				if resp := p.call("t", c.op, c.params); resp == nil {
					t.Fatalf("%s %s: connection closed", c.op, c.params)
				}
			}
			usable(t, p, ar)
		}},
		{"write_through_link", func(t *testing.T, p *protoPeer, ar *arena) {
			for _, mode := range []string{"w", "a", "rw"} {
				resp := p.call("o", "open", `{"path":`+jsonStr(ar.rw+"/link-abs")+`,"mode":"`+mode+`"}`)
				if resp == nil || !resp.OK {
					continue
				}
				var or vfsproto.OpenResult
				json.Unmarshal(resp.Result, &or)
				h := fmt.Sprint(or.Handle)
				p.call("w", "write", `{"h":`+h+`,"data":"cHdu"}`)
				p.call("c", "close", `{"h":`+h+`}`)
			}
		}},
		{"copy_abuse", func(t *testing.T, p *protoPeer, ar *arena) {
			// The copy op (session 23, red team): both ends must be
			// handles this client opened, the source readable and the
			// target writable, a copy moves at most MaxCopy, and only
			// between two real files (a virtual target is refused, not
			// written on the host).
			if resp := p.call("hi", "hello", `{"version":1,"features":["copy"]}`); resp == nil || !resp.OK || !strings.Contains(string(resp.Result), `"copy"`) {
				t.Fatalf("hello: %+v", resp)
			}
			open := func(path, mode string) string {
				t.Helper()
				resp := p.call("o", "open", `{"path":`+jsonStr(path)+`,"mode":"`+mode+`"}`)
				if resp == nil || !resp.OK {
					t.Fatalf("open %s %s: %+v", path, mode, resp)
				}
				var or vfsproto.OpenResult
				json.Unmarshal(resp.Result, &or)
				return fmt.Sprint(or.Handle)
			}
			copyReq := func(h, from string, off, max int64) *vfsproto.Response {
				return p.call("c", "copy", fmt.Sprintf(`{"h":%s,"from":%s,"off":%d,"max":%d}`, h, from, off, max))
			}
			hr := open(filepath.Join(ar.ro, "in.txt"), "r")
			hw := open(filepath.Join(ar.rw, "copied.txt"), "w")
			hrw := open(filepath.Join(ar.rw, "both.txt"), "rw")
			hv := open("/llmsh-attack-virtual.txt", "w") // never on the host
			wantErr(t, copyReq(hr, hr, 0, 10), vfsproto.EPerm)
			wantErr(t, copyReq(hw, hw, 0, 10), vfsproto.EPerm)
			for _, from := range []string{"0", "1", "2", "-1", "99999", "9223372036854775807"} {
				wantErr(t, copyReq(hw, from, 0, 10), vfsproto.ENoEnt, vfsproto.EArg)
			}
			wantErr(t, copyReq(hw, hr, 0, 0), vfsproto.EArg)
			wantErr(t, copyReq(hw, hr, 0, -5), vfsproto.EArg)
			wantErr(t, copyReq(hw, hr, -1, 10), vfsproto.EArg)
			wantErr(t, copyReq(hw, hr, 0, vfsproto.MaxCopy+1), vfsproto.ERange)
			wantErr(t, copyReq(hv, hr, 0, 10), vfsproto.EUnsupported)
			if resp := copyReq(hw, hr, 1<<62, 10); resp == nil || !resp.OK || !strings.Contains(string(resp.Result), `"size":0`) {
				t.Fatalf("copy past the end: %+v", resp)
			}
			if resp := copyReq(hrw, hrw, 0, 10); resp == nil {
				t.Fatal("copy of a handle onto itself: connection closed")
			}
			if resp := copyReq(hw, hr, 0, 1<<20); resp == nil || !resp.OK {
				t.Fatalf("copy: %+v", resp)
			}
			for _, h := range []string{hr, hw, hrw, hv} {
				p.call("x", "close", `{"h":`+h+`}`)
			}
			usable(t, p, ar)
		}},
		{"hello_frames_and_read_file", func(t *testing.T, p *protoPeer, ar *arena) {
			// Hello in shapes next to the canonical one that vfsd reads
			// by hand (session 11): each is answered (or refused) with
			// the connection kept, nothing taken for a feature that was
			// not named exactly.
			for _, params := range []string{
				`{"version":0}`, `{"version":-1}`, `{"version":99999999999999}`,
				`{"version":1,"features":[]}`, `{"version":1,"features":["read_bulk",]}`,
				`{"version":1,"features":["read_bulk""read_file"]}`, `{"version":1,"features":["READ_BULK"]}`,
				`{"version":1,"features":["read_bulk\u0000"]}`, `{"version":1,"features":"read_bulk"}`,
				`{"version":1,"features":[1]}`, `{"version":01}`, `{"version":1,"features":["read_file"]}`,
			} {
				p.frame(`{"id":"h","op":"hello","params":` + params + `}`)
				resp := p.recv()
				if resp == nil {
					t.Fatalf("connection closed by hello %s", params)
				}
				if resp.OK && strings.Contains(string(resp.Result), `"read_file"`) {
					t.Fatalf("hello %s granted read_file: %s", params, resp.Result)
				}
			}
			// read_file and read_tail are refused before hello grants
			// them, and read_tail without read_file.
			for _, op := range []string{"read_file", "read_tail"} {
				wantErr(t, p.call("f", op, `{"path":`+jsonStr(ar.ro+"/in.txt")+`,"max":4096}`), vfsproto.EUnsupported)
			}
			if resp := p.call("h", "hello", `{"version":1,"features":["read_bulk","read_tail"]}`); resp == nil || !resp.OK || strings.Contains(string(resp.Result), `"read_tail"`) {
				t.Fatalf("hello with read_tail but not read_file: %+v", resp)
			}
			wantErr(t, p.call("f", "read_tail", `{"path":`+jsonStr(ar.ro+"/in.txt")+`,"max":4096}`), vfsproto.EUnsupported)
			if resp := p.call("h", "hello", `{"version":1,"features":["read_bulk","read_file","read_tail"]}`); resp == nil || !resp.OK || !strings.Contains(string(resp.Result), `"read_file"`) || !strings.Contains(string(resp.Result), `"read_tail"`) {
				t.Fatalf("hello with read_file and read_tail: %+v", resp)
			}
			// read_tail of a granted file: its last bytes after the
			// answer, and no other.
			resp := p.call("t", "read_tail", `{"path":`+jsonStr(ar.ro+"/in.txt")+`,"max":4}`)
			var rt vfsproto.ReadTailResult
			if resp == nil || !resp.OK || json.Unmarshal(resp.Result, &rt) != nil || rt.Off != 5 || rt.Size != 4 || rt.Stat.Size != 9 {
				t.Fatalf("read_tail of in.txt: %+v", resp)
			}
			if b := make([]byte, 4); func() error { _, err := io.ReadFull(p.r, b); return err }() != nil || string(b) != "ble\n" {
				t.Fatalf("read_tail of in.txt: %q", b)
			}
			// A directory is open's E_ARG, with no byte after the answer.
			for _, op := range []string{"read_file", "read_tail"} {
				wantErr(t, p.call("f", op, `{"path":`+jsonStr(ar.ro)+`,"max":4096}`), vfsproto.EArg)
			}
			// Every path that open refuses, read_file and read_tail
			// refuse, in the canonical shape (vfsd's hand-read path) and
			// another.
			for _, path := range []string{
				ar.secret, ar.ro + "/../out/secret", "/proc/self/root" + ar.secret, ar.rw + "/dirlink/secret",
				ar.rw + "/link-abs", ar.rw + "/link-rel", ar.ro + "/ro-link", "../out/secret", "/proc/self/environ",
				"/proc/self/fd/3", "/dev/zero", "/etc/passwd", ar.rw + "/./link-abs", ar.rw + "//dirlink/../dirlink/secret",
				ar.rw + "/" + strings.Repeat("a/../", 900) + "link-abs",
			} {
				for _, op := range []string{"read_file", "read_tail"} {
					wantErr(t, p.call("f", op, `{"path":`+jsonStr(path)+`,"max":4096}`), vfsproto.EPerm, vfsproto.ENoEnt, vfsproto.EArg)
					p.frame(`{"id":"g","op":"` + op + `","params":{"max":4096,"path":` + jsonStr(path) + `}}`)
					wantErr(t, p.recv(), vfsproto.EPerm, vfsproto.ENoEnt, vfsproto.EArg)
				}
			}
			for _, max := range []string{"0", "-1", "1048577", "99999999999999", "1.5", `"1"`} {
				for _, op := range []string{"read_file", "read_tail"} {
					wantErr(t, p.call("f", op, `{"path":`+jsonStr(ar.ro+"/in.txt")+`,"max":`+max+`}`), vfsproto.EArg, vfsproto.ERange)
				}
			}
			usable(t, p, ar)
		}},
		{"read_files_and_list_names", func(t *testing.T, p *protoPeer, ar *arena) {
			// read_files is refused before hello grants it (and with
			// read_bulk alone); granted, each path open refuses is an
			// error of its own, with no byte after the answer, and a
			// request out of bounds is refused whole.
			refused := []string{
				ar.secret, ar.ro + "/../out/secret", "/proc/self/root" + ar.secret, ar.rw + "/dirlink/secret",
				ar.rw + "/link-abs", ar.rw + "/link-rel", ar.ro + "/ro-link", "../out/secret", "/proc/self/environ",
				"/proc/self/fd/3", "/dev/zero", "/etc/passwd", ar.rw + "/./link-abs", ar.rw + "//dirlink/../dirlink/secret",
				ar.rw + "/" + strings.Repeat("a/../", 900) + "link-abs", ar.ro + "/in\u0000.txt",
			}
			paths := make([]string, len(refused))
			for i, path := range refused {
				paths[i] = jsonStr(path)
			}
			req := `{"paths":[` + strings.Join(paths, ",") + `],"max":4096}`
			wantErr(t, p.call("m", "read_files", req), vfsproto.EUnsupported)
			if resp := p.call("h", "hello", `{"version":1,"features":["read_bulk","read_files"]}`); resp == nil || !resp.OK || strings.Contains(string(resp.Result), `"read_files"`) {
				t.Fatalf("hello with read_files but not read_file: %+v", resp)
			}
			wantErr(t, p.call("m", "read_files", req), vfsproto.EUnsupported)
			if resp := p.call("h", "hello", `{"version":1,"features":["read_bulk","read_file","read_files"]}`); resp == nil || !resp.OK || !strings.Contains(string(resp.Result), `"read_files"`) {
				t.Fatalf("hello with read_files: %+v", resp)
			}
			resp := p.call("m", "read_files", req)
			if resp == nil || !resp.OK {
				t.Fatalf("read_files of refused paths: %+v", resp)
			}
			var rf vfsproto.ReadFilesResult
			if err := json.Unmarshal(resp.Result, &rf); err != nil || len(rf.Files) != len(refused) {
				t.Fatalf("read_files answer %s: %v", resp.Result, err)
			}
			for i, f := range rf.Files {
				if f.Error == nil || f.Size != 0 {
					t.Fatalf("BREACH: read_files of %q: %+v", refused[i], f)
				}
			}
			many := strings.TrimSuffix(strings.Repeat(jsonStr(ar.ro+"/in.txt")+",", vfsproto.MaxReadFiles+1), ",")
			for _, bad := range []string{
				`{"paths":[],"max":1}`, `{"paths":[` + many + `],"max":1}`, `{"paths":[` + jsonStr(ar.ro+"/in.txt") + `],"max":1048577}`,
				`{"paths":[` + jsonStr(ar.ro+"/in.txt") + `,` + jsonStr(ar.ro+"/in.txt") + `],"max":524289}`,
				`{"paths":` + jsonStr(ar.ro+"/in.txt") + `,"max":1}`, `{"paths":[1],"max":1}`,
				`{"max":1}`, `{"paths":[` + jsonStr(ar.ro+"/in.txt") + `],"max":"1"}`,
			} {
				wantErr(t, p.call("m", "read_files", bad), vfsproto.EArg, vfsproto.ERange)
			}
			// A listing of names says no more than the full one: every
			// directory open refuses is refused.
			for _, path := range []string{ar.secret, ar.ro + "/../out", "/proc/self/root" + ar.secret, ar.rw + "/dirlink",
				ar.rw + "/link-abs", "/proc/self/fd", "/etc", ar.ro + "/in.txt"} {
				wantErr(t, p.call("l", "list", `{"path":`+jsonStr(path)+`,"names":true}`), vfsproto.EPerm, vfsproto.ENoEnt, vfsproto.EArg)
			}
			for _, names := range []string{`"true"`, "1", "[]", "{}"} {
				wantErr(t, p.call("l", "list", `{"path":`+jsonStr(ar.rw)+`,"names":`+names+`}`), vfsproto.EArg)
			}
			usable(t, p, ar)
		}},
		{"walk", func(t *testing.T, p *protoPeer, ar *arena) {
			// walk is refused before hello grants it; granted, it
			// refuses what list refuses, enters no link (dirlink,
			// rootlink lead out of the grants) and says of every
			// directory no more than list of it would.
			walk := func(path string, names bool) *vfsproto.Response {
				return p.call("w", "walk", fmt.Sprintf(`{"path":%s,"names":%v}`, jsonStr(path), names))
			}
			wantErr(t, walk(ar.rw, true), vfsproto.EUnsupported)
			if resp := p.call("h", "hello", `{"version":1,"features":["walk"]}`); resp == nil || !resp.OK || !strings.Contains(string(resp.Result), `"walk"`) {
				t.Fatalf("hello with walk: %+v", resp)
			}
			for _, path := range []string{ar.secret, ar.out, ar.ro + "/../out", "/proc/self/root" + ar.out, ar.rw + "/dirlink",
				ar.rw + "/dirlink/", ar.rw + "/rootlink/etc", "/proc/self/fd", "/etc", ar.ro + "/in.txt", ar.rw + "/link-abs", ar.ro + "/in\u0000"} {
				for _, names := range []bool{true, false} {
					wantErr(t, walk(path, names), vfsproto.EPerm, vfsproto.ENoEnt, vfsproto.EArg)
				}
			}
			for _, bad := range []string{`{}`, `{"path":7}`, `{"path":["x"]}`, `{"path":` + jsonStr(ar.rw) + `,"names":"yes"}`, `[1]`,
				`{"path":` + jsonStr(ar.rw) + `,"after":7}`, `{"path":` + jsonStr(ar.rw) + `,"max":"x"}`, `{"path":` + jsonStr(ar.rw) + `,"max":1e99}`} {
				wantErr(t, p.call("w", "walk", bad), vfsproto.EArg)
			}
			// after (going on where a cut walk stopped) leads neither out
			// of the path nor through a link.
			for _, after := range []string{"..", "../out", "/etc", "sub/../..", "./sub", "sub/", "a\u0000"} {
				wantErr(t, p.call("w", "walk", fmt.Sprintf(`{"path":%s,"after":%s}`, jsonStr(ar.rw), jsonStr(after))), vfsproto.EArg)
			}
			for _, after := range []string{"dirlink", "dirlink/x", "rootlink", "rootlink/etc", "link-abs", "link-abs/x"} {
				for _, names := range []bool{true, false} {
					resp := p.call("w", "walk", fmt.Sprintf(`{"path":%s,"names":%v,"after":%s}`, jsonStr(ar.rw), names, jsonStr(after)))
					var r vfsproto.WalkResult
					if resp == nil || !resp.OK || json.Unmarshal(resp.Result, &r) != nil {
						t.Fatalf("walk after %s: %+v", after, resp)
					}
					for _, d := range r.Dirs {
						if strings.Contains(d.Path, "link") || strings.HasPrefix(d.Path, ".") {
							t.Fatalf("BREACH: walk of %s after %s listed %s: %+v", ar.rw, after, d.Path, d.Entries)
						}
					}
				}
			}
			for _, root := range []string{ar.rw, ar.ro, ar.root, "/"} {
				for _, names := range []bool{true, false} {
					resp := walk(root, names)
					if resp == nil || !resp.OK {
						t.Fatalf("walk %s: %+v", root, resp)
					}
					var r vfsproto.WalkResult
					if err := json.Unmarshal(resp.Result, &r); err != nil {
						t.Fatalf("walk answer %s: %v", resp.Result, err)
					}
					if root == ar.ro && (len(r.Dirs) != 2 || r.Dirs[0].Path != "." || r.Dirs[1].Path != "sub") {
						t.Fatalf("walk of %s: %s", root, resp.Result)
					}
					for _, d := range r.Dirs {
						dir := filepath.Join(root, d.Path)
						if strings.HasPrefix(dir, ar.out) || strings.Contains(d.Path, "link") || strings.HasPrefix(dir, "/etc") {
							t.Fatalf("BREACH: walk of %s listed %s: %+v", root, dir, d.Entries)
						}
						// The same entries as list of the directory.
						lr := p.call("l", "list", fmt.Sprintf(`{"path":%s,"names":%v}`, jsonStr(dir), names))
						var l vfsproto.ListResult
						if lr == nil || !lr.OK || json.Unmarshal(lr.Result, &l) != nil || len(l.Entries) != len(d.Entries) {
							t.Fatalf("walk of %s: %s has %d entries, list answers %+v", root, dir, len(d.Entries), lr)
						}
						for i := range l.Entries {
							if l.Entries[i].Name != d.Entries[i].Name {
								t.Fatalf("walk of %s: %s: entry %q, list has %q", root, dir, d.Entries[i].Name, l.Entries[i].Name)
							}
						}
					}
				}
			}
			usable(t, p, ar)
		}},
		{"pipelined_flood_then_hangup", func(t *testing.T, p *protoPeer, ar *arena) {
			// Many requests without reading an answer, then a hang-up in the
			// middle of a frame: vfsd must still exit.
			var mu sync.Mutex
			go func() { mu.Lock(); defer mu.Unlock(); io.Copy(io.Discard, p.r) }()
			req := `{"id":"f","op":"open","params":{"path":` + jsonStr(ar.secret) + `,"mode":"r"}}`
			var b []byte
			for range 2000 {
				b = binary.BigEndian.AppendUint32(b, uint32(len(req)))
				b = append(b, req...)
			}
			p.raw(b)
			p.raw([]byte{0, 0, 1})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ar := newArena(t)
			before := ar.snapshot(t)
			p := startProtoPeer(t, bin, ar)
			tc.fn(t, p, ar)
			err := p.finish()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatalf("vfsd: %v", err)
			}
			seen, errs := p.seen.String(), p.stderr.String()
			if strings.Contains(seen+errs, ar.marker) {
				t.Errorf("BREACH: the marker reached the client: %.500q", seen)
			}
			if strings.Contains(seen+errs, ar.envValue) {
				t.Errorf("BREACH: the canary environment variable reached the client")
			}
			for _, s := range []string{"goroutine ", "panic:", "fatal error:"} {
				if strings.Contains(errs, s) {
					t.Errorf("BREACH: vfsd stderr has %q: %.2000s", s, errs)
				}
			}
			if d := treesnap.Diff(before, ar.snapshot(t)); len(d) > 0 {
				t.Errorf("BREACH: files outside -o changed: %v", d)
			}
			if _, err := os.Lstat(ar.ranFile); err == nil {
				t.Errorf("BREACH: a host program ran")
			}
		})
	}
}
