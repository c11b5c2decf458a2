package builtins

// addContextFlags registers GNU's -Z and --context[=CTX] (SELinux security
// contexts) on f. llmsh's files have no security context, as on a kernel
// without SELinux: -Z does nothing and a CTX is ignored with GNU's warning,
// printed by the returned function once f is parsed. withArg is false for
// mv, whose --context takes no argument; kernel names what GNU says the
// option needs ("SELinux", or "SELinux/SMACK" for mkdir).
func addContextFlags(env *Env, f *Flags, withArg bool, kernel string) func() {
	ctx := false
	f.Bool('Z', "", "set SELinux security context of destination file to default type\n"+
		"(accepted: llmsh's files have no security context)")
	if !withArg {
		f.Bool(0, "context", "same as -Z")
		return func() {}
	}
	f.Func(0, "context", OptionalArg, "CTX", "like -Z, or if CTX is specified then set the SELinux or SMACK\n"+
		"security context to CTX (ignored, with a warning)", func(_ string, present bool) error {
		ctx = ctx || present
		return nil
	})
	return func() {
		if ctx {
			env.Errorf("warning: ignoring --context; it requires an %s-enabled kernel", kernel)
		}
	}
}
