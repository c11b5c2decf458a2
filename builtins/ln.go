package builtins

var _ = register(Builtin{Name: "ln", Summary: "make links (refused: llmsh never creates links)", Run: ln})

// ln refuses every call: symbolic links could point out of a granted tree
// for whoever follows them later, and hard links would alias files across
// the allowlists, so llmsh creates neither.
func ln(env *Env) int {
	f := NewFlags(env, "Make links between files: refused in llmsh.\n\n"+
		"llmsh never creates symbolic or hard links; copy the file (cp) instead.",
		"[OPTION]... [-T] TARGET LINK_NAME", "[OPTION]... TARGET... DIRECTORY")
	for _, o := range []struct {
		short rune
		long  string
	}{{'s', "symbolic"}, {'f', "force"}, {'n', "no-dereference"}, {'v', "verbose"}, {'r', "relative"},
		{'L', "logical"}, {'P', "physical"}, {'T', "no-target-directory"}, {'i', "interactive"},
		{'b', ""}, {'d', "directory"}, {'F', ""}} {
		f.Bool(o.short, o.long, "accepted; ln is refused")
	}
	f.String('t', "target-directory", "DIRECTORY", "accepted; ln is refused")
	f.String('S', "suffix", "SUFFIX", "accepted; ln is refused")
	f.Func(0, "backup", OptionalArg, "CONTROL", "accepted; ln is refused", func(string, bool) error { return nil })
	if _, err := f.Parse(env.Args[1:]); err != nil {
		return f.Fail(err, 1)
	}
	env.Errorf("links are not supported in llmsh")
	return 1
}
