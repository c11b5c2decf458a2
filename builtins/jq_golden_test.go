package builtins

import (
	"encoding/json"
	"os"
	"testing"
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
	`cli ["--version"]`:                              "the jq-wasm build calls itself jq-1.7.1-dirty; llmsh prints jq-1.7.1",
	`cli ["-C","-c","."] <<< "{\"b\":1}"`:            "llmsh's jq never colours its output",
	`nested.json --seq .zeta, .alpha`:                "--seq only marks the outputs; jq 1.7 also reads the input as RS-separated",
	`cli ["--seq","-c",".[]"] <<< "[1, {\"b\": 2}]"`: "--seq only marks the outputs; jq 1.7 also reads the input as RS-separated",
	`- - .a ?// .b`:                                  "gojq reads ?// outside a pattern as .a? // .b; jq's lexer has ?// as one token, an error there",
}

// jqStderrDiffs are cases whose stdout and status agree but whose message
// differs in wording or in the position jq gives: syntax errors where
// gojq's grammar and jq's part ways.
var jqStderrDiffs = map[string]string{
	`- - "\(1"`:        "a string in an interpolation: jq's lexer sees a new QQSTRING_START",
	`- - $`:            "jq's grammar has '$' '$' … for $__loc__: it wants another '$'",
	`- - $$`:           "jq's grammar has '$' '$' … for $__loc__: it wants another '$'",
	`- - {(1):2`:       "jq checks a constant key while parsing, before the syntax error",
	`- - {a:1 b:2}`:    "jq's error recovery adds May need parentheses around object key expression",
	`- - {@base64: 1}`: "jq's grammar has FORMAT as a key before a string; gojq's has not",
}

// TestJqGolden runs every recorded case through llmsh's jq and compares
// stdout, stderr and the exit status with jq 1.7.1's.
func TestJqGolden(t *testing.T) {
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
