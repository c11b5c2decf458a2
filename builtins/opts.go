package builtins

import (
	"fmt"
	"strings"

	"github.com/llmsh/llmsh/internal/getopt"
)

// The builtins' option parser is package getopt's, shared with llmsh's and
// vfsd's own command lines.
type (
	// Flags is a GNU getopt_long style parser for one call of a builtin.
	Flags = getopt.Flags
	// ArgKind says whether an option takes an argument.
	ArgKind = getopt.ArgKind
)

// UsageError is a command-line error, printed GNU style by Fail followed by
// "Try 'NAME --help' for more information."; usageMessage finds it, or the
// parser's own, in an error from Parse.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// UsageMessage makes *UsageError a getopt.Usage.
func (e *UsageError) UsageMessage() string { return e.Msg }

// usageMessage is the message of a usage error in err's chain.
func usageMessage(err error) (string, bool) { return getopt.UsageMessage(err) }

// Argument kinds.
const (
	NoArg       = getopt.NoArg
	RequiredArg = getopt.RequiredArg
	OptionalArg = getopt.OptionalArg
	// OptionalLongArg: an argument only in the long form (--classify=WHEN; -F takes none).
	OptionalLongArg = getopt.OptionalLongArg
)

// ErrHelp is returned by Flags.Parse when --help was given; the help text
// has not been printed yet (Flags.Fail prints it and returns 0).
var ErrHelp = getopt.ErrHelp

// NewFlags starts a parser for env's command. usage holds synopsis lines
// such as "[OPTION]... [FILE]..." (the command name is prepended); summary
// is the one-paragraph description printed under them by --help.
func NewFlags(env *Env, summary string, usage ...string) *Flags {
	f := getopt.New(env.Name(), env.Stdout, env.Stderr, summary, usage...)
	f.Footer = helpFooter
	setLongOrder(f, env.Name())
	return f
}

// helpExamples is GNU's "Examples:" paragraph of --help: each command
// and what it does, the second column two spaces after the widest
// command (pairs holds command, what, command, what, ...).
func helpExamples(pairs ...string) string {
	width := 0
	for i := 0; i < len(pairs); i += 2 {
		width = max(width, len(pairs[i]))
	}
	var b strings.Builder
	b.WriteString("Examples:")
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprintf(&b, "\n  %-*s  %s", width, pairs[i], pairs[i+1])
	}
	return b.String()
}

// helpFooter closes every command's --help where GNU's tools say where
// their documentation is ("GNU coreutils online help: ..."), with what
// is true for llmsh.
const helpFooter = "llmsh online help: 'help' lists every command; 'help NAME' shows its --help\n" +
	"Full documentation: docs/builtins.md in llmsh's source"
