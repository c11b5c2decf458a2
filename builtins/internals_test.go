package builtins_test

import (
	"time"

	. "github.com/llmsh/llmsh/builtins"
)

// The tests are package builtins_test, so that a test run compiles
// builtins once: what they check inside it goes through ForTests
// (fortests.go), and the texts and bounds they expect are copies here,
// each named as the constant it copies.

// awkVersion is awk.go's: printed by --version.
const awkVersion = `awk (llmsh) based on GoAWK v1.29.1 by Ben Hoyt (BSD licence)
Files are read and written through llmsh's file service only; system(),
"cmd" | getline and print | "cmd" run llmsh's own commands (sh -c).
`

// helpFooter is opts.go's: the end of every command's --help.
const helpFooter = "llmsh online help: 'help' lists every command; 'help NAME' shows its --help\n" +
	"Full documentation: docs/builtins.md in llmsh's source"

// getconfUsage is getconf.go's.
const getconfUsage = "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]\n"

// ownVersion is builtin.go's: the commands whose --version is their own.
var ownVersion = map[string]bool{"echo": true, "printf": true, "jq": true, "awk": true, "help": true}

const (
	cutTableMax        = 1 << 16          // cut.go's: positions past it are answered from the ranges
	exprMaxDepth       = 10000            // expr.go's nesting bound
	findMaxParens      = 10000            // find.go's nesting bound of parentheses
	grepBatch          = 16               // grep_prefetch.go's: files of a read_files request
	grepPerlTimeout    = 10 * time.Second // grep_match.go's: a -P match's time without a deadline
	jqBacktrackTimeout = 2 * time.Second  // jq_regexp.go's: a search's time without a deadline
)

// exitStatus is a command's status for ok: 0, or 1.
func exitStatus(ok bool) int {
	if ok {
		return 0
	}
	return 1
}

var (
	compileMode = ForTests.CompileMode
	parseMode   = ForTests.ParseMode
	lsTime      = ForTests.LsTime
	grepSetFits = ForTests.GrepSetFits
)

// adjustMode applies a mode compiled by compileMode.
func adjustMode(apply func(old uint32, isDir bool, umask uint32) uint32, old uint32, isDir bool, umask uint32) uint32 {
	return apply(old, isDir, umask)
}
