package builtins_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	. "github.com/llmsh/llmsh/builtins"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/builtins.md from the registry")

// TestBuiltinDocs keeps docs/builtins.md in step with the registry: every
// builtin is listed with its summary. Run with -update-docs to rewrite it.
func TestBuiltinDocs(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("# Builtin reference\n\n")
	b.WriteString("Every command llmsh runs is one of these builtins (or one of the shell's own: see `help`).\n")
	b.WriteString("Each accepts `--help`, which prints its options. Behaviour, output bytes, messages and exit\n")
	b.WriteString("statuses follow the GNU tools (coreutils 9.1, grep 3.8, sed 4.9 as on Debian) unless a line\n")
	b.WriteString("below or the conformance notes at the end say otherwise. All file access goes through vfsd.\n\n")
	b.WriteString("The table is generated: `go test ./builtins -run TestBuiltinDocs -update-docs`; the\n")
	b.WriteString("conformance notes are written by hand.\n\n")
	b.WriteString("| command | what it does |\n|---|---|\n")
	for _, bi := range All() {
		b.WriteString("| `" + bi.Name + "` | " + bi.Summary + " |\n")
	}
	// The conformance notes under the table are written by hand: kept as
	// they are, never generated.
	const path, notes = "../docs/builtins.md", "\n## Conformance notes\n"
	old, _ := os.ReadFile(path)
	_, tail, _ := strings.Cut(string(old), notes)
	if *updateDocs {
		if err := os.MkdirAll("../docs", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()+notes+tail), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./builtins -run TestBuiltinDocs -update-docs)", err)
	}
	if !strings.Contains(string(got), notes) {
		t.Errorf("docs/builtins.md has no %q section", strings.TrimSpace(notes))
	}
	if generated, _, _ := strings.Cut(string(got), notes); generated != b.String() {
		t.Fatalf("docs/builtins.md is stale: run go test ./builtins -run TestBuiltinDocs -update-docs")
	}
}

// TestEveryBuiltinHasHelp walks every command: --help exits 0 with a usage
// line, --version exits 0 naming the command, and an option it does not
// know fails with the command's name and the option in the message, as
// GNU's tools do (issue 23).
func TestEveryBuiltinHasHelp(t *testing.T) {
	t.Parallel()
	// GNU's expr and xxd take an unknown --option as an operand, and so
	// do echo (GNU's and bash's) and coreutils' printf (a format); GNU's
	// egrep and fgrep are grep and say so; gunzip and zcat, scripts
	// around gzip, let gzip name itself.
	operand := map[string]bool{"expr": true, "xxd": true, "echo": true, "printf": true, "true": true, "false": true}
	says := map[string]string{"egrep": "grep", "fgrep": "grep", "zgrep": "grep", "zegrep": "grep", "zfgrep": "grep", "gunzip": "gzip", "zcat": "gzip"}
	// gzip's zgrep scripts hand options they do not know to grep, after
	// taking the first operand as the pattern.
	pattern := map[string]bool{"zgrep": true, "zegrep": true, "zfgrep": true}
	// less names an unknown option and goes on, status 0 (less 590).
	warnOnly := map[string]bool{"less": true}
	// shadow's newgrp answers any bad option with its usage line alone.
	usageOnly := map[string]bool{"newgrp": true}
	// Debian's which (a sh script) reads options one character at a
	// time: "--no-such..." is "Illegal option --", its usage on stdout.
	illegal := map[string]bool{"which": true}
	for _, bi := range All() {
		if bi.Summary == "" {
			t.Errorf("%s: no summary", bi.Name)
		}
		r := runCmd(t, nil, "", bi.Name, "--help")
		// GNU's false fails even when it prints its --help.
		if r.status != exitStatus(bi.Name != "false") || !strings.Contains(r.stdout, "Usage:") {
			t.Errorf("%s --help: status %d, stdout %.80q, stderr %.80q", bi.Name, r.status, r.stdout, r.stderr)
		}
		helpLayout(t, bi.Name, usageOf[bi.Name], r.stdout)
		r = runCmd(t, nil, "", bi.Name, "--version")
		if r.status != exitStatus(bi.Name != "false") || !ownVersion[bi.Name] && r.stdout != bi.Name+" (llmsh) "+Version+"\n" {
			t.Errorf("%s --version: status %d, stdout %.80q, stderr %.80q", bi.Name, r.status, r.stdout, r.stderr)
		}
		if pattern[bi.Name] {
			r = runCmd(t, nil, "", bi.Name, "--no-such-option-x", "x")
		} else {
			r = runCmd(t, nil, "", bi.Name, "--no-such-option-x")
		}
		name := bi.Name
		if s, ok := says[name]; ok {
			name = s
		}
		if illegal[bi.Name] {
			if r.status != 2 || r.stderr != "Illegal option --\n" || !strings.HasPrefix(r.stdout, "Usage: ") {
				t.Errorf("%s --no-such-option-x: status %d, stdout %.80q, stderr %.120q", bi.Name, r.status, r.stdout, r.stderr)
			}
			continue
		}
		if usageOnly[bi.Name] {
			if r.status != 1 || !strings.HasPrefix(r.stderr, "Usage: "+bi.Name) {
				t.Errorf("%s --no-such-option-x: status %d, stderr %.120q", bi.Name, r.status, r.stderr)
			}
			continue
		}
		if !operand[bi.Name] && (r.status == 0 && !warnOnly[bi.Name] || !strings.Contains(r.stderr, name) || !strings.Contains(r.stderr, "no-such-option-x")) {
			t.Errorf("%s --no-such-option-x: status %d, stderr %.120q", bi.Name, r.status, r.stderr)
		}
	}
}

// usageOf names the tool whose usage line a command prints: GNU's egrep
// and fgrep are grep, zegrep and zfgrep are zgrep.
var usageOf = map[string]string{"egrep": "grep", "fgrep": "grep", "zegrep": "zgrep", "zfgrep": "zgrep"}

// helpLayout checks a --help text as GNU's: the first line the usage
// line of name (or of the tool it says it is, as egrep says grep; xxd's
// "Usage:" stands alone, as xxd's; util-linux's tools put an empty line
// first, then "Usage:" and the synopsis on lines of their own), and no line wider than 80 columns
// with tabs at every eighth column (none of the GNU tools' own has one
// that llmsh's must keep).
func helpLayout(t *testing.T, name, says, help string) {
	t.Helper()
	if says == "" {
		says = name
	}
	first, _, _ := strings.Cut(help, "\n")
	utilLinux := strings.HasPrefix(help, "\nUsage:\n "+says+" ") // util-linux's layout
	if first != "Usage: "+says && !strings.HasPrefix(first, "Usage: "+says+" ") && !utilLinux && (name != "xxd" || first != "Usage:") {
		t.Errorf("%s --help: first line %q is not a usage line", name, first)
	}
	for _, l := range strings.Split(help, "\n") {
		col := 0
		for _, r := range l {
			if col++; r == '\t' {
				col = (col + 7) / 8 * 8
			}
		}
		if col > 80 {
			t.Errorf("%s --help: a line of %d columns: %q", name, col, l)
		}
	}
}

// TestShortHelpVersion: the GNU and util-linux tools that also take a short
// option for --help or --version (gzip -h -V -L, grep -V, bc -v, …) answer
// it as the long one.
func TestShortHelpVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		help  string
		versn string
	}{
		{"gzip", "h", "VL"}, {"gunzip", "h", "V"}, {"zcat", "h", "V"}, {"hexdump", "h", "V"}, {"rev", "h", "V"},
		{"strings", "h", "vV"}, {"xz", "hH", "V"}, {"bc", "h", "v"}, {"cmp", "", "v"}, {"diff", "", "v"},
		{"grep", "", "V"}, {"egrep", "", "V"},
	} {
		for _, h := range tc.help {
			r := runCmd(t, nil, "", tc.name, "-"+string(h))
			if r.status != 0 || !strings.HasPrefix(r.stdout, "Usage: "+tc.name) && !strings.HasPrefix(r.stdout, "\nUsage:\n "+tc.name) {
				t.Errorf("%s -%c: status %d, stdout %.60q, stderr %.80q", tc.name, h, r.status, r.stdout, r.stderr)
			}
		}
		for _, v := range tc.versn {
			r := runCmd(t, nil, "", tc.name, "-"+string(v))
			if r.status != 0 || !strings.HasSuffix(r.stdout, " (llmsh) "+Version+"\n") {
				t.Errorf("%s -%c: status %d, stdout %.60q, stderr %.80q", tc.name, v, r.status, r.stdout, r.stderr)
			}
		}
	}
}
