package builtins

import (
	"fmt"
)

var _ = register(Builtin{Name: "sponge", Summary: "soak up standard input and write to a file", Run: spongeCmd})

// spongeCmd is moreutils' sponge: all of standard input is read before
// the file is opened, so a pipeline can rewrite the file it reads.
func spongeCmd(env *Env) int {
	f := NewFlags(env, "Soak up all input from stdin and write it to <file>\n"+
		"(standard output when no file is named).", "[-a] <file>")
	appendTo := f.Bool('a', "", "append to the file instead of replacing it")
	shortHelpVersion(f, 'h')
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	data, err := readHeld(env, env.Stdin) // held whole: one value
	if quietStop(err) {
		return 1
	}
	if err != nil {
		env.Errorf("read: %s", ErrText(err))
		return 1
	}
	if len(args) == 0 {
		if _, err := env.Stdout.Write(data); err != nil {
			return env.WriteFailed(err, 1)
		}
		return 0
	}
	// moreutils writes the first file only.
	name := args[0]
	var out File
	if *appendTo {
		out, err = env.Append(name)
	} else {
		out, err = env.Create(name)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "Can't open %s: %s\n", name, ErrText(err))
		return 1
	}
	_, werr := out.Write(data)
	cerr := out.Close()
	if werr == nil {
		werr = cerr
	}
	if werr != nil {
		env.Errorf("%s: %s", name, ErrText(werr))
		return 1
	}
	return 0
}
