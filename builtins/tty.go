package builtins

import ()

var _ = register(Builtin{Name: "tty", Summary: "print the file name of the terminal connected to standard input", Run: ttyCmd})

// VirtualTTY is the terminal's name tty gives when llmsh's standard input
// is a terminal: the host's device name is never shown.
const VirtualTTY = "/dev/pts/0"

func ttyCmd(env *Env) int {
	f := NewFlags(env, "Print the file name of the terminal connected to standard input.\n\n"+
		"In llmsh the terminal is always named "+VirtualTTY+".", "[OPTION]...")
	silent := f.Bool('s', "silent", "print nothing, only return an exit status")
	f.Synonym("quiet", "silent")
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 2)
	}
	if len(args) > 0 {
		return f.Fail(&UsageError{"extra operand " + env.Quote(args[0])}, 2)
	}
	if !IsTerminal(env.Stdin) {
		if !*silent {
			if _, err := env.Stdout.Write([]byte("not a tty\n")); err != nil {
				return 3
			}
		}
		return 1
	}
	if !*silent {
		if _, err := env.Stdout.Write([]byte(VirtualTTY + "\n")); err != nil {
			env.Errorf("write error: %s", ErrText(err))
			return 3
		}
	}
	return 0
}
