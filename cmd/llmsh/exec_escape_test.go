package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandRunnersConfined runs find -exec/-execdir, xargs and timeout
// through the real binary and vfsd: the commands they start are builtins
// only (a host program path is not found, in each runner's words; /bin/cat
// names llmsh's cat, virtually), and files outside
// the granted tree stay out of reach.
func TestCommandRunnersConfined(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "d", "e"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "d", "a.txt"), []byte("alpha\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "d", "e", "b.txt"), []byte("beta\n"), 0o644)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("MARKER\n"), 0o644)
	cd := "cd " + dir + " && "
	tests := []struct {
		name       string
		script     string
		out, errIn string
		code       int
	}{
		{"find -exec host program", cd + `find d -name a.txt -exec /usr/bin/python3 {} \; ; echo "status $?"`,
			"status 0\n", "find: '/usr/bin/python3': No such file or directory", 0},
		{"find -exec + host program", cd + `find d -name a.txt -exec /usr/bin/gcc {} +`,
			"", "find: '/usr/bin/gcc': No such file or directory", 1},
		{"find -exec sh host program", cd + `find d -name a.txt -exec sh -c '/usr/bin/gcc' \;`,
			"", "sh: line 1: /usr/bin/gcc: command not found", 0},
		{"find -exec reads outside", cd + `find d -name a.txt -exec cat {} ` + outside + `/secret \;`,
			"alpha\n", "No such file or directory", 0},
		{"find walks outside", `find ` + outside + ` -name secret`,
			"", "No such file or directory", 1},
		{"find -execdir", cd + `find d -type f -execdir cat {} \;`,
			"alpha\nbeta\n", "", 0},
		{"find -execdir +", cd + `find d -type f -execdir echo {} +`,
			"./a.txt\n./b.txt\n", "", 0},
		{"xargs host program", cd + `echo d/a.txt | xargs /usr/bin/python3`,
			"", "xargs: /usr/bin/python3: No such file or directory", 127},
		{"xargs reads outside", cd + `printf '%s\n' d/a.txt ` + outside + `/secret | xargs -n1 cat`,
			"alpha\n", "No such file or directory", 123},
		// GNU xargs: a command that exits 126 or 127 itself is a failed
		// invocation (123); only one xargs cannot run gives 126/127.
		{"xargs -I sh host program", cd + `echo x | xargs -I{} sh -c '/usr/bin/python3 {}'`,
			"", "sh: line 1: /usr/bin/python3: command not found", 123},
		{"timeout host program", `timeout 5 /usr/bin/python3 1`,
			"", "timeout: failed to run command '/usr/bin/python3': No such file or directory", 127},
		{"timeout fires", `timeout 0.2 sleep 30; echo "status $?"`,
			"status 124\n", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runLlmsh(t, "", "-o", dir, "-c", tc.script)
			if out != tc.out || code != tc.code || !strings.Contains(errs, tc.errIn) || strings.Contains(errs, "MARKER") || strings.Contains(out, "MARKER") {
				t.Fatalf("out=%q err=%q code=%d; want out=%q err~%q code=%d", out, errs, code, tc.out, tc.errIn, tc.code)
			}
		})
	}
}
