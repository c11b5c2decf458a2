package builtins

import (
	"io"
)

var _ = register(Builtin{Name: "tee", Summary: "read from standard input and write to standard output and files", Run: tee})

func tee(env *Env) (status int) {
	f := NewFlags(env, "Copy standard input to each FILE, and also to standard output.", "[OPTION]... [FILE]...")
	appendMode := f.Bool('a', "append", "append to the given FILEs, do not overwrite")
	f.Bool('i', "ignore-interrupts", "ignore interrupt signals")
	warnPipe, exitMode := false, false
	f.Func('p', "", NoArg, "", "diagnose errors writing to non pipes", func(string, bool) error { warnPipe = true; return nil })
	f.Func(0, "output-error", OptionalArg, "MODE", "set behavior on write error.  See MODE below", func(v string, _ bool) error {
		switch v {
		case "", "warn-nopipe", "exit-nopipe":
			warnPipe, exitMode = true, v == "exit-nopipe"
		case "warn", "exit":
			warnPipe, exitMode = false, v == "exit"
		default:
			return &UsageError{"invalid argument " + env.Quote(v) + " for '--output-error'\nValid arguments are:\n  - 'warn'\n  - 'warn-nopipe'\n  - 'exit'\n  - 'exit-nopipe'"}
		}
		return nil
	})
	f.Epilog = "MODE determines behavior with write errors on the outputs:\n" +
		"  warn           diagnose errors writing to any output\n" +
		"  warn-nopipe    diagnose errors writing to any output not a pipe\n" +
		"  exit           exit on error writing to any output\n" +
		"  exit-nopipe    exit on error writing to any output not a pipe\n" +
		"The default MODE for the -p option is 'warn-nopipe'.\n" +
		"The default operation when --output-error is not specified, is to\n" +
		"exit immediately on error writing to a pipe, and diagnose errors\n" +
		"writing to non pipe outputs.\n\n" +
		"llmsh: with exit or exit-nopipe, a FILE that cannot be opened ends tee\n" +
		"at once, as in GNU, but an error writing to a FILE is diagnosed and tee\n" +
		"goes on with the other outputs, as with warn."
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	type out struct {
		name string
		w    io.Writer
		c    io.Closer
	}
	outs := []*out{{name: "standard output", w: env.Stdout}}
	for _, name := range files {
		var fl File
		var err error
		if *appendMode {
			fl, err = env.Append(name)
		} else {
			fl, err = env.Create(name)
		}
		if err != nil {
			env.PathError(name, err)
			status = 1
			if exitMode {
				break // GNU tee exits before opening the rest
			}
			continue
		}
		outs = append(outs, &out{name: name, w: fl, c: fl})
	}
	quit := status != 0 && exitMode
	defer func() {
		for _, o := range outs {
			if o.c == nil {
				continue
			}
			// A write that failed late (vfsd answers writes
			// asynchronously) shows here: GNU tee's close_stream
			// failure, reported once and status 1.
			if err := o.c.Close(); err != nil && o.w != nil {
				env.PathError(o.name, err)
				status = 1
			}
		}
	}()
	if quit {
		return 1
	}
	buf := make([]byte, ioBufSize)
	live := len(outs)
	for live > 0 {
		if env.Ctx.Err() != nil {
			return 1
		}
		n, rerr := env.Stdin.Read(buf)
		if n > 0 {
			for i, o := range outs {
				if o.w == nil {
					continue
				}
				if _, err := o.w.Write(buf[:n]); err != nil {
					if i == 0 && IsBrokenPipe(err) {
						if !warnPipe {
							return 1
						}
					} else {
						env.PathError(o.name, err)
					}
					status = 1
					o.w = nil
					live--
				}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			env.Errorf("read error: %s", ErrText(rerr))
			return 1
		}
	}
	return status
}
