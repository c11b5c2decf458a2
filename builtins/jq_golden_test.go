package builtins

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/llmsh/llmsh/third_party/gojq"
)

// jqGolden is one run of real jq 1.7.1 recorded by
// testdata/jq/regen-jq.sh: the command line, standard input and files it
// had, and what it printed.
type jqGolden struct {
	Name   string            `json:"name"`
	Args   []string          `json:"args"`
	Stdin  *string           `json:"stdin"`
	Files  map[string]string `json:"files"`
	Out    string            `json:"out"`
	Err    string            `json:"err"`
	Status int               `json:"status"`
}

// jqKnownDiffs names the golden cases where llmsh's jq is known to differ
// from jq 1.7.1, and why. Each is a decision or a documented gap (see
// docs/builtins.md), not an accident.
var jqKnownDiffs = map[string]string{
	`cli ["--version"]`: "the jq-wasm build calls itself jq-1.7.1-dirty; llmsh prints jq-1.7.1",
	// jq 1.8's builtins, which jq 1.7.1 has not and llmsh keeps (gojq has
	// them): a script written for jq 1.8 runs
	`- - "  ab  " | trim, ltrim, rtrim`: "trim, ltrim and rtrim are jq 1.8's",
	`- - trimstr("a")`:                  "trimstr is jq 1.8's",
	`- - [1, 2] | add(.[])`:             "add/1 is jq 1.8's",
	`- - [skip(1; 1, 2, 3)]`:            "skip/2 is jq 1.8's",
	`- - "x" | @urid`:                   "@urid is jq 1.8's",
	// jq's exp10 (musl's in the jq-wasm build) gives 10^x correctly
	// rounded; Go's math.Pow is an ulp off for some fractional powers
	// (integer powers use math.Pow10, exact)
	`numbers.json - map(exp10?)`: "exp10(1.5) is 31.622776601683796 in Go, 31.62277660168379 in jq",
}

// jqStderrDiffs are cases whose stdout and status agree but whose message
// differs in wording or in the position jq gives: syntax errors where
// gojq's grammar and jq's part ways.
var jqStderrDiffs = map[string]string{}

// TestJqGolden runs every recorded case through llmsh's jq and compares
// stdout, stderr and the exit status with jq 1.7.1's.
func TestJqGolden(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/jq/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []jqGolden
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 300 {
		t.Fatalf("only %d golden cases", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.Name] {
			t.Errorf("duplicate case %s", c.Name)
		}
		seen[c.Name] = true
		if reason, ok := jqKnownDiffs[c.Name]; ok {
			t.Logf("skipped %s: %s", c.Name, reason)
			continue
		}
		stdin := ""
		if c.Stdin != nil {
			stdin = *c.Stdin
		}
		files := c.Files
		if files == nil {
			files = map[string]string{}
		}
		r := runCmd(t, files, stdin, append([]string{"jq"}, c.Args...)...)
		_, stderrDiff := jqStderrDiffs[c.Name]
		if r.stdout != c.Out || r.status != c.Status || (!stderrDiff && r.stderr != c.Err) {
			t.Errorf("%s\n got: out=%q err=%q status=%d\nwant: out=%q err=%q status=%d",
				c.Name, r.stdout, r.stderr, r.status, c.Out, c.Err, c.Status)
		}
	}
	for name := range jqKnownDiffs {
		if !seen[name] {
			t.Errorf("jqKnownDiffs names %q, which is not a golden case", name)
		}
	}
	for name := range jqStderrDiffs {
		if !seen[name] {
			t.Errorf("jqStderrDiffs names %q, which is not a golden case", name)
		}
	}
}

// TestJqParsePrefixes parses every prefix of every filter in filters.txt:
// jq's error recovery, copied into the grammar, must end and must not
// panic on a program cut anywhere, and a program that parses must
// compile or fail with an error.
func TestJqParsePrefixes(t *testing.T) {
	b, err := os.ReadFile("testdata/jq/filters.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) < 3 || strings.HasPrefix(line, "#") {
			continue
		}
		for i := 0; i <= len(f[2]); i++ {
			q, err := gojq.Parse(f[2][:i])
			if err == nil {
				_, _ = gojq.Compile(q)
			} else if err.Error() == "" {
				t.Errorf("Parse(%q): an error without a message", f[2][:i])
			}
			n++
		}
	}
	if n < 5000 {
		t.Fatalf("only %d prefixes", n)
	}
}

// TestJqColors: -C takes its colours from the script's JQ_COLORS, the
// first eight colon-separated, as jq 1.7.1 does; a bad one leaves jq's
// own, with jq's warning; -M wins over -C.
func TestJqColors(t *testing.T) {
	for _, c := range []struct{ colors, out, err string }{
		{"", "\x1b[1;39m[\x1b[0;90mnull\x1b[0m\x1b[1;39m,\x1b[0;32m\"s\"\x1b[0m\x1b[1;39m\x1b[1;39m]\x1b[0m\n", ""},
		{"1;31", "\x1b[1;39m[\x1b[1;31mnull\x1b[0m\x1b[1;39m,\x1b[0;32m\"s\"\x1b[0m\x1b[1;39m\x1b[1;39m]\x1b[0m\n", ""},
		{"::::4;32:", "\x1b[1;39m[\x1b[mnull\x1b[0m\x1b[1;39m,\x1b[4;32m\"s\"\x1b[0m\x1b[1;39m\x1b[1;39m]\x1b[0m\n", ""},
		{"1;31:x", "\x1b[1;39m[\x1b[0;90mnull\x1b[0m\x1b[1;39m,\x1b[0;32m\"s\"\x1b[0m\x1b[1;39m\x1b[1;39m]\x1b[0m\n", "Failed to set $JQ_COLORS\n"},
		{"1234567890123", "\x1b[1;39m[\x1b[0;90mnull\x1b[0m\x1b[1;39m,\x1b[0;32m\"s\"\x1b[0m\x1b[1;39m\x1b[1;39m]\x1b[0m\n", "Failed to set $JQ_COLORS\n"},
	} {
		var environ []string
		if c.colors != "" {
			environ = []string{"JQ_COLORS=" + c.colors}
		}
		r := runCmdWith(t, nil, environ, "", "jq", "-n", "-c", "-C", `[null, "s"]`)
		if r.stdout != c.out || r.stderr != c.err || r.status != 0 {
			t.Errorf("JQ_COLORS=%q: got %q %q %d, want %q %q", c.colors, r.stdout, r.stderr, r.status, c.out, c.err)
		}
	}
	r := runCmdWith(t, nil, []string{"JQ_COLORS=1;31"}, "", "jq", "-n", "-c", "-C", "-M", `[null]`)
	if r.stdout != "[null]\n" {
		t.Errorf("-C -M: got %q", r.stdout)
	}
}
