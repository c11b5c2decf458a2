package builtins

import ()

var _ = register(Builtin{Name: "mkfifo", Summary: "make FIFOs (llmsh has none: refused)", Run: mkfifoCmd})

// mkfifoCmd checks its command line as GNU mkfifo does, then refuses each
// name: vfsd holds regular files, directories and symbolic links only, so
// a named pipe cannot be made (a pipeline or a temporary file serves).
func mkfifoCmd(env *Env) int {
	f := NewFlags(env, "Create named pipes (FIFOs) with the given NAMEs.\n\n"+
		"llmsh has no FIFOs: each NAME is refused (use a pipeline or a file).", "[OPTION]... NAME...")
	mode, modeSet := f.String('m', "mode", "MODE", "set file permission bits to MODE, not a=rw - umask")
	f.Bool('Z', "", "set the SELinux security context to default type")
	f.Func(0, "context", OptionalArg, "CTX", "like -Z, or if CTX is specified then set the SELinux\nor SMACK security context to CTX", func(string, bool) error { return nil })
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(args) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 1)
	}
	if *modeSet {
		if _, ok := compileMode(*mode); !ok {
			env.Errorf("invalid mode")
			return 1
		}
	}
	for _, a := range args {
		if _, err := env.FS.Lstat(env.Abs(a)); err == nil && a != "" {
			env.Errorf("cannot create fifo %s: File exists", env.QuoteAF(a))
			continue
		}
		env.Errorf("cannot create fifo %s: Operation not supported (llmsh has no FIFOs)", env.QuoteAF(a))
	}
	return 1
}
