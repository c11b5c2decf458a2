package builtins

import "fmt"

// versionOption registers --version on f, so that the option is listed
// and also works beside others (a lone --version is answered by Run);
// the caller prints with printVersion when it is set.
func versionOption(f *Flags) *bool {
	return f.Bool(0, "version", "output version information and exit")
}

// printVersion writes the line Run answers a lone --version with, for a
// command that takes --version (or its own -V) among other options.
func printVersion(env *Env) int {
	fmt.Fprintf(env.Stdout, "%s (llmsh) %s\n", env.Name(), Version)
	return 0
}

// shortHelpVersion registers the short forms of --help and --version a
// GNU tool has besides the long ones (gzip's -h and -V; 0: none), not
// listed by --help beside them; the caller prints with printVersion when the result
// is set. The help option ends the parse with ErrHelp.
func shortHelpVersion(f *Flags, help rune, version ...rune) *bool {
	v := new(bool)
	f.HelpShort = help
	if len(version) > 0 {
		f.VersionShort = version[0]
	}
	if help != 0 {
		f.Func(help, "", NoArg, "", "", func(string, bool) error { return ErrHelp })
	}
	for _, r := range version {
		f.BoolVar(v, r, "", "")
	}
	return v
}
