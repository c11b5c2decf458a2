package builtins

import "strings"

var _ = register(Builtin{Name: "watch", Summary: "execute a program periodically, showing output fullscreen (refused in llmsh)", Run: watchCmd})

// watchCmd is procps-ng's watch, refused: it repaints a full terminal
// screen until it is interrupted, which a script cannot read and llmsh's
// time limit would only cut short. The options are parsed so that --help
// and mistakes answer as watch does; any run says what to write instead.
func watchCmd(env *Env) int {
	f := NewFlags(env, "Execute a program periodically, showing output fullscreen.\n"+
		"llmsh refuses it: there is no screen to repaint. Write the loop instead:\n"+
		"  while sleep N; do COMMAND; done     (or: until COMMAND; do sleep N; done)",
		"[options] command")
	f.StopAtOperand = true
	f.Bool('b', "beep", "beep if command has a non-zero exit")
	f.Bool('c', "color", "interpret ANSI color and style sequences")
	f.Func('d', "differences", OptionalArg, "permanent", "highlight changes between updates", func(string, bool) error { return nil })
	f.Bool('e', "errexit", "exit if command has a non-zero exit")
	f.Bool('g', "chgexit", "exit when output from command changes")
	f.String('q', "equexit", "cycles", "exit when output from command does not change")
	f.String('n', "interval", "secs", "seconds to wait between updates")
	f.Bool('p', "precise", "attempt run command in precise intervals")
	f.Bool('t', "no-title", "turn off header")
	f.Bool('w', "no-wrap", "turn off line wrapping")
	f.Bool('x', "exec", "pass command to exec instead of \"sh -c\"")
	version := shortHelpVersion(f, 'h', 'v')
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if len(args) == 0 {
		return f.Fail(&UsageError{"no command given"}, 1)
	}
	env.Errorf("llmsh has no screen to repaint; run the command in a loop instead, "+
		"e.g. while sleep 2; do %s; done", strings.Join(args, " "))
	return 1
}
