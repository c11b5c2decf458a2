package builtins

import (
	"context"
	"errors"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "stdbuf", Summary: "run a command with modified buffering of its standard streams", Run: stdbufCmd})

func stdbufCmd(env *Env) int {
	f := NewFlags(env, "Run COMMAND, with modified buffering operations for its standard streams.", "OPTION... COMMAND")
	f.StopAtOperand = true
	set, lineOut := false, false
	mode := func(stdin bool) func(string, bool) error {
		return func(v string, _ bool) error {
			if v == "L" {
				if stdin {
					return &UsageError{"line buffering stdin is meaningless"}
				}
				lineOut = true
			} else if v == "0" && !stdin {
				lineOut = true
			} else if _, e := gnu.ParseSize(v, 10, "EGkKMPTYZ0"); e != gnu.SizeOK {
				msg := "invalid mode " + env.Quote(v)
				if e&gnu.SizeOverflow != 0 && e&gnu.SizeInvalidSuffix == 0 {
					msg += ": Value too large for defined data type"
				}
				return &stdbufInvalid{msg}
			}
			set = true
			return nil
		}
	}
	f.Func('i', "input", RequiredArg, "MODE", "adjust standard input stream buffering", mode(true))
	outMode := mode(false)
	f.Func('o', "output", RequiredArg, "MODE", "adjust standard output stream buffering", func(v string, b bool) error {
		lineOut = false
		return outMode(v, b)
	})
	f.Func('e', "error", RequiredArg, "MODE", "adjust standard error stream buffering", mode(false))
	f.Epilog = "If MODE is 'L' the corresponding stream will be line buffered.\n" +
		"This option is invalid with standard input.\n\n" +
		"If MODE is '0' the corresponding stream will be unbuffered.\n\n" +
		"Otherwise MODE is a number which may be followed by one of the following:\n" +
		"KB 1000, K 1024, MB 1000*1000, M 1024*1024, and so on for G,T,P,E,Z,Y,R,Q.\n" +
		"In this case the corresponding stream will be fully buffered with the buffer\n" +
		"size set to MODE bytes.\n\n" +
		"NOTE: If COMMAND adjusts the buffering of its standard streams ('tee' does\n" +
		"for example) then that will override corresponding changes by 'stdbuf'.\n" +
		"Also some filters (like 'dd' and 'cat' etc.) don't use streams for I/O,\n" +
		"and are thus unaffected by 'stdbuf' settings.\n\n" +
		"In llmsh -oL and -o0 make sed, grep, tr and cut write each line as they\n" +
		"make it; other modes are checked and accepted, and change nothing."
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		if bad, ok := asStdbufInvalid(err); ok {
			env.Errorf("%s", bad.msg)
			return 125
		}
		return f.Fail(err, 125)
	}
	if len(args) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 125)
	}
	if !set {
		return f.Fail(&UsageError{"you must specify a buffering mode option"}, 125)
	}
	if env.Exec == nil {
		env.Errorf("cannot run commands here")
		return 126
	}
	ctx := env.Ctx
	if lineOut {
		ctx = context.WithValue(ctx, lineBufferedKey{}, true)
	}
	return env.Exec(ctx, args, env.Stdin, env.Stdout, env.Stderr)
}

// lineBufferedKey marks the context of a command that stdbuf -oL or -o0
// runs: the tools that buffer their output (sed, grep, tr, cut) write
// each line as they make it, as stdio's line buffering makes GNU's.
type lineBufferedKey struct{}

// LineBuffered reports whether the command runs under stdbuf -oL or -o0.
func (e *Env) LineBuffered() bool {
	on, _ := e.Ctx.Value(lineBufferedKey{}).(bool)
	return on
}

// stdbufInvalid is a MODE stdbuf cannot read: a plain error, without the
// usage hint.
type stdbufInvalid struct{ msg string }

func (e *stdbufInvalid) Error() string { return e.msg }

func asStdbufInvalid(err error) (*stdbufInvalid, bool) {
	var bad *stdbufInvalid
	ok := errors.As(err, &bad)
	return bad, ok
}
