package builtins

import "fmt"

// versionOption registers --version on f, after the command's own options
// as GNU lists it; the caller prints with printVersion when it is set.
func versionOption(f *Flags) *bool {
	return f.Bool(0, "version", "output version information and exit")
}

// printVersion writes the --version text of env's command: its name, that
// it is llmsh's, and the GNU (or other) tool and version it follows, as
// "sum (llmsh) 9.1" where GNU prints "sum (GNU coreutils) 9.1".
func printVersion(env *Env, follows, version string) int {
	fmt.Fprintf(env.Stdout, "%s (llmsh) %s\nA builtin of llmsh that behaves as %s from %s %s.\n",
		env.Name(), version, env.Name(), follows, version)
	return 0
}
