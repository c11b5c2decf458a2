package vfsd

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/vfsproto"
)

// TestProtocolDocCoversOps keeps docs/protocol.md in step with the server:
// every operation hello can announce has a section with an example
// exchange, the reserved ones are named, every error code is in the table,
// and every command-line flag of vfsd is in the synopsis.
func TestProtocolDocCoversOps(t *testing.T) {
	b, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	// Sections start at "### op" or "#### op"; the tree operations share
	// one introduction but each has its own heading.
	sections := map[string]string{}
	heads := regexp.MustCompile(`(?m)^#{3,4} (\S+)`).FindAllStringSubmatchIndex(doc, -1)
	for i, h := range heads {
		end := len(doc)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		sections[doc[h[2]:h[3]]] = doc[h[0]:end]
	}
	ops := append(append([]string{}, supportedOps...), vfsproto.OpReadBulk, vfsproto.OpWriteBulk, vfsproto.OpReadShm, vfsproto.OpReadShmAt, vfsproto.OpReadFile, vfsproto.OpReadTail)
	for _, op := range ops {
		sec, ok := sections[op]
		if !ok {
			t.Errorf("docs/protocol.md has no section for op %q", op)
			continue
		}
		if !strings.Contains(sec, `"op":"`+op+`"`) {
			t.Errorf("docs/protocol.md: section %q has no example request", op)
		}
		if !strings.Contains(sec, `← {"id":`) {
			t.Errorf("docs/protocol.md: section %q has no example response", op)
		}
	}
	// Every field of a list entry and of a stat result is named in the
	// sections that return them.
	for op, v := range map[string]any{vfsproto.OpList: vfsproto.Entry{}, vfsproto.OpStat: vfsproto.StatResult{}, vfsproto.OpLstat: vfsproto.StatResult{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if op == vfsproto.OpStat && name == "symlink" {
				continue // stat follows links; only lstat and list set it
			}
			if !strings.Contains(sections[op], `"`+name+`"`) {
				t.Errorf("docs/protocol.md: section %q does not name the field %q", op, name)
			}
		}
	}
	for _, op := range []string{vfsproto.OpLLMCMD, vfsproto.OpQUOTA} {
		if !strings.Contains(doc, op) {
			t.Errorf("docs/protocol.md does not name the reserved op %s", op)
		}
	}
	for _, code := range []vfsproto.Code{vfsproto.EArg, vfsproto.ENoEnt, vfsproto.EPerm, vfsproto.EIO, vfsproto.EClosed, vfsproto.EUnsupported, vfsproto.ERange} {
		if !strings.Contains(doc, "| `"+string(code)+"` |") {
			t.Errorf("docs/protocol.md: error table lacks %s", code)
		}
	}
	_, cmdline, _ := strings.Cut(doc, "\n## Command line\n")
	for _, flag := range []string{"-i PATH", "-o PATH", "--strict", "--log FILE", "--max-virtual-bytes N", "--hide FILE", "--vfs-fds R,W"} {
		if !strings.Contains(cmdline, flag) {
			t.Errorf("docs/protocol.md: command line lacks %s", flag)
		}
	}
}
