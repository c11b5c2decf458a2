package builtins

import (
	"io"
	"io/fs"
)

var _ = register(Builtin{Name: "tee", Summary: "read from standard input and write to standard output and files", Run: tee})

func tee(env *Env) (status int) {
	f := NewFlags(env, "Copy standard input to each FILE, and also to standard output.", "[OPTION]... [FILE]...")
	appendMode := f.Bool('a', "append", "append to the given FILEs, do not overwrite")
	f.Bool('i', "ignore-interrupts", "ignore interrupt signals")
	// sigpipe: no -p nor --output-error, so a pipe whose reader has gone
	// kills GNU tee (SIGPIPE), silently.
	warnPipe, exitMode, sigpipe := false, false, true
	f.Func('p', "", NoArg, "", "diagnose errors writing to non pipes", func(string, bool) error { warnPipe, sigpipe = true, false; return nil })
	f.Func(0, "output-error", OptionalArg, "MODE", "set behavior on write error.  See MODE below", func(v string, present bool) error {
		sigpipe = false
		if !present {
			v = "warn-nopipe"
		}
		words := []string{"warn", "warn-nopipe", "exit", "exit-nopipe"}
		i, err := lsArgMatch(env, "--output-error", v, words, lsSeq(len(words)))
		if err != nil {
			return err
		}
		warnPipe, exitMode = i == 1 || i == 3, i >= 2
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
	outs := []*teeOut{{name: "standard output", w: env.Stdout}}
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
		o := &teeOut{name: name, w: fl, c: fl}
		if info, err := fl.Stat(); err == nil && info.Mode()&fs.ModeNamedPipe != 0 {
			o.pipe = true // a process substitution's /dev/fd/N
		}
		outs = append(outs, o)
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
	return teeCopy(env, outs, status, warnPipe, sigpipe)
}

// teeOut is one of tee's outputs: standard output first, then each FILE
// (pipe: a process substitution's /dev/fd/N); w is nil once it failed.
type teeOut struct {
	name string
	w    io.Writer
	c    io.Closer
	pipe bool
}

// teeCopy copies standard input to outs and returns tee's status (status
// so far, or what a failed write makes it).
func teeCopy(env *Env, outs []*teeOut, status int, warnPipe, sigpipe bool) int {
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
					switch {
					case i == 0 && IsBrokenPipe(err):
						if !warnPipe {
							return 1
						}
						status = 1
					case o.pipe && IsBrokenPipe(err) && sigpipe:
						// GNU tee dies of SIGPIPE: 128+13, no message
						// (tee >(head -1)).
						return 128 + 13
					case o.pipe && IsBrokenPipe(err) && warnPipe:
						// -p: a pipe's reader that went is no error.
					default:
						env.PathError(o.name, err)
						status = 1
					}
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
			if env.StdinClosed {
				// GNU closes its standard input: a closed one fails again.
				env.Errorf("standard input: %s", ErrText(rerr))
			}
			return 1
		}
	}
	return status
}
