package vfsd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestReadlinkOp checks readlink: the text of a link inside a grant,
// verbatim also when it points out of the grants (docs/security.md,
// T-LINK-3), "not a symbolic link" for anything else, and the policy of
// lstat for the path itself.
func TestReadlinkOp(t *testing.T) {
	tr, c := treeLayout(t)
	// A link in a read-only tree, a dangling one, and a directory link
	// through which the leading components would leave the tree.
	for _, l := range [][2]string{
		{"../in/a.txt", filepath.Join(tr.in, "up")},
		{"no/such", filepath.Join(tr.in, "dangling")},
		{tr.secret, filepath.Join(tr.in, "secretdir")},
	} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("x", filepath.Join(tr.secret, "l")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path, target string
		code               vfsproto.Code
		msg                string
	}{
		{"link out of the tree", "out/esc", tr.secret, "", ""},
		{"link inside", "out/inlink", "d", "", ""},
		{"absolute name", filepath.Join(tr.out, "inlink"), "d", "", ""},
		{"read-only tree", "in/up", "../in/a.txt", "", ""},
		{"dangling", "in/dangling", "no/such", "", ""},
		{"through a link leaving the tree", "in/secretdir/l", "", vfsproto.EPerm, ""},
		{"outside", "secret/l", "", vfsproto.ENoEnt, "no such file or directory"},
		{"dotdot out", "out/../secret/l", "", vfsproto.EPerm, ""},
		{"missing", "out/none", "", vfsproto.ENoEnt, ""},
		{"file", "out/x.txt", "", vfsproto.EArg, "not a symbolic link"},
		{"directory", "out/d", "", vfsproto.EArg, "not a symbolic link"},
		{"grant root", "out", "", vfsproto.EArg, "not a symbolic link"},
		{"ancestor of a grant", ".", "", vfsproto.EArg, "not a symbolic link"},
		{"virtual file", "/virt/v.txt", "", vfsproto.EArg, "not a symbolic link"},
		{"virtual directory", "/virt", "", vfsproto.EArg, "not a symbolic link"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := c.call(vfsproto.OpReadlink, map[string]string{"path": tc.path})
			if tc.code != "" {
				if resp.OK || resp.Error.Code != tc.code {
					t.Fatalf("got %+v, want %s", resp, tc.code)
				}
				if tc.msg != "" && resp.Error.Message != tc.msg {
					t.Fatalf("message %q, want %q", resp.Error.Message, tc.msg)
				}
				if strings.Contains(resp.Error.Message, tr.dir) {
					t.Fatalf("message reveals a host path: %q", resp.Error.Message)
				}
				return
			}
			if !resp.OK {
				t.Fatalf("error %+v", resp.Error)
			}
			var r vfsproto.ReadlinkResult
			mustUnmarshal(t, resp.Result, &r)
			if r.Target != tc.target {
				t.Fatalf("target %q, want %q", r.Target, tc.target)
			}
		})
	}
	for _, params := range []string{`{}`, `{"path":3}`, `null`} {
		resp := c.call(vfsproto.OpReadlink, json.RawMessage(params))
		if resp.OK || resp.Error.Code != vfsproto.EArg {
			t.Errorf("params %s: %+v, want E_ARG", params, resp)
		}
	}
}
