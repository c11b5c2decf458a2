package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestJSON runs llmsh --json in its own process and decodes the one
// object it prints.
func TestJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "in.txt"), []byte("b\na\n"), 0o644)
	script := filepath.Join(dir, "s.sh")
	os.WriteFile(script, []byte("echo \"file:$1\"\n"), 0o644)
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  jsonResult // DurationMS is not compared
		code  int
	}{
		{"streams and status", []string{"--json", "-c", "echo out; echo err >&2; exit 3"}, "",
			jsonResult{Stdout: "out\n", Stderr: "err\n", ExitCode: 3, VirtualFiles: []string{}}, 3},
		{"pipeline over a grant", []string{"--json", "-i", dir, "-c", "sort " + dir + "/in.txt | head -1"}, "",
			jsonResult{Stdout: "a\n", VirtualFiles: []string{}}, 0},
		{"virtual files listed, not announced", []string{"--json", "-c", "echo v > /tmp/x; echo w > /y"}, "",
			jsonResult{VirtualFiles: []string{"/tmp/x", "/y"}}, 0},
		{"script on stdin", []string{"--json"}, "echo from-stdin",
			jsonResult{Stdout: "from-stdin\n", VirtualFiles: []string{}}, 0},
		{"script file", []string{"--json", script, "arg"}, "",
			jsonResult{Stdout: "file:arg\n", VirtualFiles: []string{}}, 0},
		{"output cap", []string{"--json", "--max-output", "1000", "-c", "yes"}, "",
			jsonResult{Stdout: strings.Repeat("y\n", 500), Stderr: "llmsh: output limit exceeded (1000 bytes)\n", ExitCode: 125, Truncated: true, VirtualFiles: []string{}}, 125},
		// a cut stdout line does not begin the stderr field with a newline;
		// a cut stderr line ends before the message
		{"output cap mid-line", []string{"--json", "--max-output", "5", "-c", "echo abcdefgh"}, "",
			jsonResult{Stdout: "abcde", Stderr: "llmsh: output limit exceeded (5 bytes)\n", ExitCode: 125, Truncated: true, VirtualFiles: []string{}}, 125},
		{"output cap mid-line on stderr", []string{"--json", "--max-output", "5", "-c", "echo abcdefgh >&2"}, "",
			jsonResult{Stderr: "abcde\nllmsh: output limit exceeded (5 bytes)\n", ExitCode: 125, Truncated: true, VirtualFiles: []string{}}, 125},
		{"denied path", []string{"--json", "-c", "cat /etc/passwd"}, "",
			jsonResult{Stderr: "cat: /etc/passwd: No such file or directory\n", ExitCode: 1, VirtualFiles: []string{}}, 1},
		// vfsd's reason is in the object, not on llmsh's stderr
		{"grant refused", []string{"--json", "-i", filepath.Join(dir, "no", "such"), "-c", "echo not-run"}, "",
			jsonResult{Stderr: "llmsh: -i '" + filepath.Join(dir, "no", "such") + "': No such file or directory\n" + usageLine + "\n", ExitCode: 2, VirtualFiles: []string{}}, 2},
		{"not JSON-escaped HTML, invalid UTF-8 replaced", []string{"--json", "-c", `printf '<&>\xff\n'`}, "",
			jsonResult{Stdout: "<&>\uFFFD\n", VirtualFiles: []string{}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runLlmsh(t, tc.stdin, tc.args...)
			if errs != "" || code != tc.code {
				t.Fatalf("stderr %q, status %d (want %d)", errs, code, tc.code)
			}
			if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "}\n") {
				t.Fatalf("not one JSON line: %q", out)
			}
			var got jsonResult
			dec := json.NewDecoder(strings.NewReader(out))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("%v in %q", err, out)
			}
			if got.DurationMS < 0 {
				t.Errorf("duration_ms %d", got.DurationMS)
			}
			got.DurationMS = 0
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			for _, key := range []string{`"stdout":`, `"stderr":`, `"exit_code":`, `"truncated":`, `"duration_ms":`, `"virtual_files":`} {
				if !strings.Contains(out, key) {
					t.Errorf("no %s in %s", key, out)
				}
			}
		})
	}
}

// manyLongNames makes 300 virtual files with 4000-byte names (1.2 MB of
// names, more than one answer of vfsd holds) and /tmp/important.
const manyLongNames = `d=/tmp/$(printf "%0250d/" $(seq 15)); mkdir -p "$d"; for i in $(seq 300); do : > "$d$(printf %0230d $i)"; done; echo x > /tmp/important`

// TestVirtualFilesTruncated: when the virtual files' names do not fit
// one listing, llmsh names the shortest and counts the others, on stderr
// and in --json; a flood of long names never hides /tmp/important (the
// listing was empty then: issue 18).
func TestVirtualFilesTruncated(t *testing.T) {
	t.Parallel()
	_, errs, code := runLlmsh(t, "", "-c", manyLongNames)
	last := errs[strings.LastIndex(strings.TrimSuffix(errs, "\n"), "\n")+1:]
	if code != 0 || !strings.HasPrefix(errs, "llmsh: discarded virtual files: ") || strings.Count(errs, "\n") != 1 ||
		!strings.Contains(errs, " /tmp/important ") || !strings.HasSuffix(last, " more not named)\n") {
		t.Fatalf("status %d, stderr %.200q … %q", code, errs, last[max(0, len(last)-100):])
	}
	out, errs, code := runLlmsh(t, "", "--json", "-c", manyLongNames)
	var got jsonResult
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q, %v", code, errs, err)
	}
	if !slices.Contains(got.VirtualFiles, "/tmp/important") || got.VirtualFilesOmitted == 0 ||
		int(got.VirtualFilesOmitted)+len(got.VirtualFiles) != 301 {
		t.Fatalf("%d named (/tmp/important among them: %v), %d omitted", len(got.VirtualFiles),
			slices.Contains(got.VirtualFiles, "/tmp/important"), got.VirtualFilesOmitted)
	}
}
