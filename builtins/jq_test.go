package builtins_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// Expectations checked against jq 1.7.1 (see also jq_golden_test.go).
func TestJq(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		stdin  string
		args   []string
		out    string
		errSub string
		status int
	}{
		{"identity pretty", `{"b":1,"a":[1,2]}`, []string{"jq", "."}, "{\n  \"b\": 1,\n  \"a\": [\n    1,\n    2\n  ]\n}\n", "", 0},
		{"compact", `{"a":[1,2]}`, []string{"jq", "-c", "."}, "{\"a\":[1,2]}\n", "", 0},
		{"raw", `{"a":"x y"}`, []string{"jq", "-r", ".a"}, "x y\n", "", 0},
		{"join", `["a","b"]`, []string{"jq", "-j", ".[]"}, "ab", "", 0},
		{"stream of values", "1 2\n3", []string{"jq", ". * 2"}, "2\n4\n6\n", "", 0},
		{"slurp", "1 2 3", []string{"jq", "-c", "-s", "."}, "[1,2,3]\n", "", 0},
		{"null input", "", []string{"jq", "-n", "1+1"}, "2\n", "", 0},
		{"raw input", "a\nb\n", []string{"jq", "-R", "."}, "\"a\"\n\"b\"\n", "", 0},
		{"raw slurp", "a\nb\n", []string{"jq", "-Rs", "."}, "\"a\\nb\\n\"\n", "", 0},
		{"arg", "", []string{"jq", "-n", "--arg", "x", "1", "$x"}, "\"1\"\n", "", 0},
		{"argjson", "", []string{"jq", "-n", "-c", "--argjson", "x", `{"a":1}`, "$x.a"}, "1\n", "", 0},
		{"ARGS", "", []string{"jq", "-nc", "--arg", "x", "1", "$ARGS"}, "{\"positional\":[],\"named\":{\"x\":\"1\"}}\n", "", 0},
		{"positional args", "", []string{"jq", "-nc", "$ARGS.positional", "--args", "a", "b"}, "[\"a\",\"b\"]\n", "", 0},
		{"tab", "", []string{"jq", "-n", "--tab", "{a:1}"}, "{\n\t\"a\": 1\n}\n", "", 0},
		{"indent 0", "", []string{"jq", "-n", "--indent", "0", "{a:[1]}"}, "{\"a\":[1]}\n", "", 0},
		{"exit falsy", "1 2", []string{"jq", "-e", ". > 5"}, "false\nfalse\n", "", 1},
		{"exit no value", "1", []string{"jq", "-e", "empty"}, "", "", 4},
		{"exit ok", "1", []string{"jq", "-e", "."}, "1\n", "", 0},
		{"runtime error", "{}\n", []string{"jq", ".a[]"}, "", "jq: error (at <stdin>:1): ", 5},
		{"error line", "{\"a\":1}\n{\"a\":2}\n", []string{"jq", `.a|error("x")`}, "", "jq: error (at <stdin>:2): x\n", 5},
		{"compile error", "", []string{"jq", ".["}, "", "jq: 1 compile error\n", 3},
		{"bad json", `{"a":`, []string{"jq", "."}, "", "jq: parse error: Unfinished JSON term at EOF at line 1, column 5\n", 5},
		{"halt_error", "", []string{"jq", "-n", `"bye\n"|halt_error(3)`}, "", "bye\n", 3},
		{"env is the script's", "", []string{"jq", "-n", "-c", "$ENV"}, "{}\n", "", 0},
		{"no filter: .", "[1]", []string{"jq", "-c"}, "[1]\n", "", 0},
		{"big int", `12345678901234567890`, []string{"jq", "."}, "12345678901234567890\n", "", 0},
		{"float", `1.5`, []string{"jq", ". * 2"}, "3\n", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCmd(t, nil, tc.stdin, tc.args...)
			if r.stdout != tc.out || r.status != tc.status || (tc.errSub != "" && !jqContains(r.stderr, tc.errSub)) || (tc.errSub == "" && r.stderr != "") {
				t.Fatalf("got out=%q err=%q status=%d; want out=%q err~%q status=%d", r.stdout, r.stderr, r.status, tc.out, tc.errSub, tc.status)
			}
		})
	}
}

func jqContains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestJqInputs: input and inputs read the same sequence of values as the
// main loop, across files, and input_filename names the current file.
// Checked against jq 1.7.1.
func TestJqInputs(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a.json": "1 2\n", "b.json": "3\n", "bad.json": "4 {\n", "l.txt": "x\ny\n", "xy.txt": "x\ny", "z.txt": "z\n"}
	for _, tc := range []struct {
		stdin string
		args  []string
		out   string
		err   string
		st    int
	}{
		{"1 2 3", []string{"jq", "-nc", "[inputs]"}, "[1,2,3]\n", "", 0},
		{"1 2 3", []string{"jq", "-n", "reduce inputs as $x (0; . + $x)"}, "6\n", "", 0},
		// the input is read to its end when input fails: the position is lost
		{"1 2 3", []string{"jq", "-c", "[., input]"}, "[1,2]\n", "jq: error (at <unknown>): break\n", 5},
		{"", []string{"jq", "-nc", "input"}, "", "jq: error (at <stdin>:0): break\n", 5},
		{"", []string{"jq", "-c", "[., input_line_number, (try input catch .)]", "a.json", "b.json"}, "[1,1,2]\n[3,1,\"break\"]\n", "", 0},
		// a last line without a newline runs on into the next file
		{"", []string{"jq", "-Rc", "[., input_line_number]", "xy.txt", "z.txt"}, "[\"x\",1]\n[\"yz\",1]\n", "", 0},
		{"", []string{"jq", "-nc", "[inputs]", "bad.json", "b.json"}, "", "jq: error (at b.json:1): Unfinished JSON term at EOF at line 3, column 0\n", 5},
		{"", []string{"jq", "-n", "1, error(\"x\"), 2"}, "1\n", "jq: error (at <unknown>): x\n", 5},
		{"1 2 3 4", []string{"jq", "-c", "[., input]"}, "[1,2]\n[3,4]\n", "", 0},
		{"", []string{"jq", "-nc", "[inputs]", "a.json", "b.json"}, "[1,2,3]\n", "", 0},
		{"", []string{"jq", "-c", "[., input_filename]", "a.json", "b.json"}, "[1,\"a.json\"]\n[2,\"a.json\"]\n[3,\"b.json\"]\n", "", 0},
		{"1", []string{"jq", "input_filename"}, "\"<stdin>\"\n", "", 0}, // jq 1.7.1: "<stdin>", 1.6: null
		{"", []string{"jq", "-n", "input_filename"}, "null\n", "", 0},
		{"", []string{"jq", "-nR", "[inputs]", "-c", "l.txt"}, "[\"x\",\"y\"]\n", "", 0},
		{"", []string{"jq", "-n", "input", "l.txt", "-R"}, "\"x\"\n", "", 0},
		{"", []string{"jq", "-c", ".", "bad.json", "b.json"}, "4\n", "jq: parse error: Unfinished JSON term at EOF at line 3, column 0\n", 5},
		{"", []string{"jq", "-nc", "[inputs]", "nope", "b.json"}, "[3]\n", "jq: error: Could not open file nope: No such file or directory\n", 2},
		{"", []string{"jq", "-sc", ".", "a.json", "b.json"}, "[1,2,3]\n", "", 0},
		{"", []string{"jq", "-sc", "[., [inputs]]", "a.json"}, "[[1,2],[]]\n", "", 0},
	} {
		r := runCmd(t, files, tc.stdin, tc.args...)
		if r.stdout != tc.out || r.stderr != tc.err || r.status != tc.st {
			t.Errorf("%q: got %q %q %d, want %q %q %d", tc.args, r.stdout, r.stderr, r.status, tc.out, tc.err, tc.st)
		}
	}
}

// TestJqBacktrackTimeout: jq's backtracking engine (look-around,
// back-references), which cannot be cancelled, is given no more time
// for a search than what is left before the run's deadline, never less
// than a millisecond, and jqBacktrackTimeout without a deadline; a
// catastrophic search past the deadline stops with an error.
func TestJqBacktrackTimeout(t *testing.T) {
	t.Parallel()
	if got, err := ForTests.JqBacktrackTimeout(context.Background(), `(?<=a)b`, "ab"); got != jqBacktrackTimeout || err != nil {
		t.Errorf("no deadline: MatchTimeout = %v (err %v), want %v", got, err, jqBacktrackTimeout)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if got, _ := ForTests.JqBacktrackTimeout(ctx, `(?<=a)b`, "ab"); got != jqBacktrackTimeout {
		t.Errorf("deadline in an hour: MatchTimeout = %v, want %v", got, jqBacktrackTimeout)
	}
	past, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Hour))
	defer cancel2()
	got, err := ForTests.JqBacktrackTimeout(past, `(a|aa)+(?=c)\1`, strings.Repeat("a", 40)+"b")
	if got != time.Millisecond || err == nil {
		t.Errorf("deadline passed: MatchTimeout = %v, error %v; want 1ms and an error", got, err)
	}
}

// TestJqModuleErrors: the module errors whose messages name a file, which
// TestJqDifferential's goldens cannot hold (the file is in a temporary
// directory): a circular import is jq 1.7.1's error, not an endless
// compile; a syntax error in a module and a data module that is no JSON
// are told at the module's file.
func TestJqModuleErrors(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"self.jq": "import \"self\" as s; def x: 1;\n",
		"a.jq":    "include \"b\"; def a: 1;\n",
		"b.jq":    "include \"a\"; def b: 1;\n",
		"bad.jq":  "def bad: ;\n",
		"d.json":  "{\n",
	}
	for _, c := range []struct{ prog, file, msg string }{
		{`import "self" as s; s::x`, "self.jq", "jq: error: circular import of %s\n\njq: 1 compile error\n"},
		{`include "a"; a`, "a.jq", "jq: error: circular import of %s\n\njq: 1 compile error\n"},
		{`import "bad" as b; 1`, "bad.jq", "jq: error: syntax error, unexpected ';' (Unix shell quoting issues?) at %s, line 1:\ndef bad: ;         \njq: 1 compile error\n"},
		{`import "d" as $d; $d`, "d.json", "jq: error loading data file %s: Unfinished JSON term at EOF at line 2, column 0\n\njq: 1 compile error\n"},
	} {
		r := runCmd(t, files, "", "jq", "-n", c.prog)
		// the file as the message names it: the word that ends in /FILE
		path := c.file
		if end := strings.Index(r.stderr, "/"+c.file); end >= 0 {
			start := strings.LastIndexByte(r.stderr[:end], ' ') + 1
			path = r.stderr[start : end+1+len(c.file)]
		}
		want := fmt.Sprintf(c.msg, path)
		if r.stdout != "" || r.stderr != want || r.status != 3 || !strings.HasPrefix(path, "/") {
			t.Errorf("jq -n %q: got %q %q %d, want %q status 3", c.prog, r.stdout, r.stderr, r.status, want)
		}
	}
}
