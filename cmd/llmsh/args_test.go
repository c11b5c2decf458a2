package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestParseArgsGetopt: llmsh's command line is read by the getopt_long
// parser of the builtins: bundles, attached values, unambiguous long
// prefixes, and options that end at the first operand or after -c SCRIPT.
func TestParseArgsGetopt(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want options
	}{
		{[]string{"-c", "echo", "-v", "x"}, options{script: "echo", haveScript: true, operands: []string{"-v", "x"}}},
		{[]string{"-vqc", "echo"}, options{script: "echo", haveScript: true, verbose: true, quiet: true}},
		{[]string{"-iIN", "-o", "OUT", "--inp=IN2", "-cecho"}, options{inputs: []string{"IN", "IN2"}, outputs: []string{"OUT"}, script: "echo", haveScript: true}},
		{[]string{"--str", "--no-h", "--colou=never", "f.sh", "-v"}, options{strict: true, noHistory: true, color: "never", operands: []string{"f.sh", "-v"}}},
		{[]string{"--max-c", "9", "--js", "--", "-c"}, options{maxCommands: 9, json: true, operands: []string{"-c"}}},
		{[]string{"--session", "s1", "--sock=p", "-"}, options{session: "s1", socket: "p", operands: []string{"-"}}},
		// --timeout takes Go's durations and GNU timeout's (1.5d, 90)
		{[]string{"--timeout", "1.5d", "--max-c", "9"}, options{timeout: 36 * time.Hour, maxCommands: 9}},
		{[]string{"--timeout=90", "--timeout=1h30m", "--max-c", "9"}, options{timeout: 90 * time.Minute, maxCommands: 9}},
		// bash's option letters and set -o names (when no such file exists).
		{[]string{"-euo", "pipefail", "-x", "f.sh"}, options{shellOpts: []string{"-e", "-u", "-o", "pipefail", "-x"}, operands: []string{"f.sh"}}},
		{[]string{"-o", "out", "-o", "nounset", "-s", "a"}, options{outputs: []string{"out"}, shellOpts: []string{"-o", "nounset"}, stdinScript: true, operands: []string{"a"}}},
		{[]string{"--norc", "--noprofile", "-xc", "echo"}, options{shellOpts: []string{"-x"}, script: "echo", haveScript: true}},
		// bash -lc, as agent harnesses run a command: a login shell
		// differs only by its start-up files, which llmsh never reads.
		{[]string{"-lc", "echo"}, options{script: "echo", haveScript: true}},
		{[]string{"-O", "extglob", "+O", "nullglob", "-c", "echo"}, options{shellOpts: []string{"-O", "extglob", "+O", "nullglob"}, script: "echo", haveScript: true}},
		{[]string{"--posix", "-c", "echo"}, options{shellOpts: []string{"-o", "posix"}, script: "echo", haveScript: true}},
		{[]string{"--rcfile", "rc", "--rcfile=rc", "--noediting", "-c", "echo"}, options{script: "echo", haveScript: true}},
		{[]string{"--login", "-e", "-l", "-c", "echo"}, options{shellOpts: []string{"-e"}, script: "echo", haveScript: true}},
		// bash's other set letters (session 32); -m is job control,
		// which bash -c without a terminal turns off; --init-file is
		// --rcfile only spelled whole, so --in is still --input.
		{[]string{"-bkpt", "-HP", "+P", "-m", "-c", "echo"}, options{shellOpts: []string{"-b", "-k", "-p", "-t", "-H", "-P", "+P"}, script: "echo", haveScript: true}},
		{[]string{"--init-file", "rc", "--init-file=rc", "--in", "IN", "--i=IN2", "-c", "echo"}, options{inputs: []string{"IN", "IN2"}, script: "echo", haveScript: true}},
	} {
		var stderr bytes.Buffer
		o, st := parseArgs(tc.args, &stderr)
		if st != -1 || stderr.Len() != 0 {
			t.Errorf("%q: status %d, stderr %q", tc.args, st, stderr.String())
			continue
		}
		if !reflect.DeepEqual(*o, tc.want) {
			t.Errorf("%q: got %+v, want %+v", tc.args, *o, tc.want)
		}
	}
	for _, tc := range []struct {
		args []string
		st   int
		err  string
	}{
		{[]string{"--help"}, -3, ""},
		{[]string{"-h", "-c", "x"}, -3, ""},
		{[]string{"--he"}, -3, ""},
		{[]string{"--version"}, -2, ""},
		{[]string{"-c"}, 2, "llmsh: option requires an argument -- 'c'\n" + usageLine + "\n"},
		{[]string{"--timeout"}, 2, "llmsh: option '--timeout' requires an argument\n" + usageLine + "\n"},
		{[]string{"--bogus"}, 2, "llmsh: unrecognized option '--bogus'\n" + usageLine + "\n"},
		{[]string{"-X"}, 2, "llmsh: invalid option -- 'X'\n" + usageLine + "\n"},
		{[]string{"-r", "-c", "x"}, 2, "llmsh: -r: restricted mode is not supported (llmsh confines a script by its -i and -o grants)\n" + usageLine + "\n"},
		{[]string{"--init", "x"}, 2, "llmsh: unrecognized option '--init'\n" + usageLine + "\n"},
		{[]string{"--s", "x"}, 2, "llmsh: option '--s' is ambiguous; possibilities: '--strict' '--session' '--socket'\n" + usageLine + "\n"},
		{[]string{"+Z", "-c", "true"}, 2, "llmsh: +Z: invalid option\n" + usageLine + "\n"},
		{[]string{"-e", "+o", "bogus", "-c", "true"}, 2, "llmsh: bogus: invalid option name\n" + usageLine + "\n"},
		{[]string{"--json=1"}, 2, "llmsh: option '--json' doesn't allow an argument\n" + usageLine + "\n"},
		{[]string{"--timeout=0"}, 2, "llmsh: invalid --timeout '0'\n" + usageLine + "\n"},
		{[]string{"-O", "nosuch", "-c", "x"}, 2, "llmsh: nosuch: invalid shell option name\n" + usageLine + "\n"},
		{[]string{"-e", "+O", "nosuch", "-c", "x"}, 2, "llmsh: nosuch: invalid shell option name\n" + usageLine + "\n"},
		{[]string{"--col=sometimes"}, 2, "llmsh: invalid --color 'sometimes' (want auto, always or never)\n" + usageLine + "\n"},
		// An ID left empty by a failed `session open` ran the script here.
		{[]string{"--session", "", "-c", "true"}, 2, "llmsh: invalid --session '' (an empty ID: did 'llmsh session open' fail?)\n" + usageLine + "\n"},
	} {
		var stderr bytes.Buffer
		_, st := parseArgs(tc.args, &stderr)
		if st != tc.st || stderr.String() != tc.err {
			t.Errorf("%q: status %d, stderr %q; want %d, %q", tc.args, st, stderr.String(), tc.st, tc.err)
		}
	}
}

// TestHelpLayout: llmsh --help is in GNU's layout, as the builtins' is.
func TestHelpLayout(t *testing.T) {
	var out bytes.Buffer
	newFlags(&options{}, &out, &out).PrintHelp(&out)
	s := out.String()
	for _, want := range []string{
		"Usage: llmsh [OPTION]... SCRIPT_FILE [ARG]...\n  or:  llmsh [OPTION]... -c SCRIPT [NAME [ARG]...]\n  or:  llmsh mcp ",
		"\nMandatory arguments to long options are mandatory for short options too.\n",
		"\n  -i, --input=PATH      PATH may be read",
		"\n  -c SCRIPT             run SCRIPT",
		"\n      --color[=WHEN]    colour",
		"\n      --help        display this help and exit\n",
		"\n\nLimits: ",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("--help lacks %q:\n%s", want, s)
		}
	}
	for _, line := range strings.Split(s, "\n") {
		if len(line) > 80 {
			t.Errorf("line wider than 80 columns: %q", line)
		}
	}
}

// TestSubcommandFlags: llmsh serve and llmsh test read their command lines
// with the same parser (prefixes, --help, --version, GNU's messages).
func TestSubcommandFlags(t *testing.T) {
	const serveTry = "Try 'llmsh serve --help' for more information.\n"
	for _, tc := range []struct {
		args          []string
		st            int
		outIn, errOut string
	}{
		{[]string{"serve", "--he"}, 0, "Usage: llmsh serve [--socket PATH] [--idle DUR] [--max-sessions N]\nKeep shell", ""},
		{[]string{"serve", "-h"}, 0, "\n      --max-sessions=N  sessions open at once (default 16)\n", ""},
		{[]string{"session", "--help"}, 0, "Usage: llmsh session open [--socket PATH] [OPTION]...\n  or:  llmsh session close", ""},
		{[]string{"session", "restore", "-h"}, 0, "\n      --max-commands=N  cap on the commands of each run\n", ""},
		{[]string{"session", "close", "--version"}, 0, "llmsh " + version + "\n", ""},
		{[]string{"serve", "--max-s", "0"}, 2, "", "llmsh: serve: invalid --max-sessions '0'\n" + serveTry},
		{[]string{"serve", "--idle"}, 2, "", "llmsh: serve: option '--idle' requires an argument\n" + serveTry},
		{[]string{"serve", "-x"}, 2, "", "llmsh: serve: invalid option -- 'x'\n" + serveTry},
		{[]string{"serve", "--idle=1m", "extra"}, 2, "", "llmsh: serve: extra operand 'extra'\n" + serveTry},
		{[]string{"serve", "--version"}, 0, "llmsh " + version + "\n", ""},
		{[]string{"test", "-h"}, 0, "Usage: llmsh test [--update] PATH...\nRun each", ""},
		{[]string{"test", "--update=1", "x"}, 2, "", "llmsh: test: option '--update' doesn't allow an argument\nTry 'llmsh test --help' for more information.\n"},
		{[]string{"test", "--up"}, 2, "", "llmsh: test: no fixture PATH given\nTry 'llmsh test --help' for more information.\n"},
	} {
		var stdout, stderr bytes.Buffer
		st := run(tc.args, strings.NewReader(""), &stdout, &stderr)
		if st != tc.st || !strings.Contains(stdout.String(), tc.outIn) || stderr.String() != tc.errOut {
			t.Errorf("%q: status %d, stdout %q, stderr %q", tc.args, st, stdout.String(), stderr.String())
		}
	}
}
