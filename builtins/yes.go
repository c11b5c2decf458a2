package builtins

import "strings"

var _ = register(Builtin{Name: "yes", Summary: "output a string repeatedly until killed", Run: yes})

func yes(env *Env) int {
	f := NewFlags(env, "Repeatedly output a line with all specified STRING(s), or 'y'.", "[STRING]...")
	f.StopAtOperand = true
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	line := "y\n"
	if len(args) > 0 {
		line = strings.Join(args, " ") + "\n"
	}
	// Fill a buffer with whole copies of the line and write it until the
	// reader goes away or the script is cancelled.
	n := max(1, ioBufSize/len(line))
	buf := []byte(strings.Repeat(line, n))
	for {
		if env.Ctx.Err() != nil {
			return 1
		}
		if _, err := env.Stdout.Write(buf); err != nil {
			return outputFailed(env, err, wroteNamed, "standard output", 1)
		}
	}
}
