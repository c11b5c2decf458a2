package builtins

var _ = register(Builtin{Name: "unlink", Summary: "call the unlink function to remove the specified file", Run: unlinkCmd})
var _ = register(Builtin{Name: "link", Summary: "call the link function to create a link to a file", Run: linkCmd})

func unlinkCmd(env *Env) int {
	f := NewFlags(env, "Call the unlink function to remove the specified FILE.", "FILE", "OPTION")
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	switch len(args) {
	case 0:
		return f.Fail(&UsageError{"missing operand"}, 1)
	case 1:
	default:
		return f.Fail(&UsageError{"extra operand " + env.Quote(args[1])}, 1)
	}
	name := env.Abs(args[0])
	if args[0] == "" {
		env.Errorf("cannot unlink %s: No such file or directory", env.QuoteAF(args[0]))
		return 1
	}
	if fi, err := env.FS.Lstat(name); err == nil && fi.IsDir() {
		// unlink(2) never removes a directory.
		env.Errorf("cannot unlink %s: Is a directory", env.QuoteAF(args[0]))
		return 1
	}
	if err := env.FS.Remove(name); err != nil {
		env.Errorf("cannot unlink %s: %s", env.QuoteAF(args[0]), ErrText(err))
		return 1
	}
	return 0
}

func linkCmd(env *Env) int {
	f := NewFlags(env, "Call the link function to create a link named FILE2 to an existing FILE1.\n\n"+
		"llmsh has no links: the operands are checked as GNU link checks them, then\n"+
		"the link is refused as ln refuses it.", "FILE1 FILE2", "OPTION")
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	switch len(args) {
	case 0:
		return f.Fail(&UsageError{"missing operand"}, 1)
	case 1:
		return f.Fail(&UsageError{"missing operand after " + env.Quote(args[0])}, 1)
	case 2:
	default:
		return f.Fail(&UsageError{"extra operand " + env.Quote(args[2])}, 1)
	}
	what := "cannot create link " + env.QuoteAF(args[1]) + " to " + env.QuoteAF(args[0])
	if _, err := env.FS.Stat(env.Abs(args[0])); err != nil {
		env.Errorf("%s: %s", what, ErrText(err))
		return 1
	}
	env.Errorf("%s: %s", what, lnRefusal)
	return 1
}
