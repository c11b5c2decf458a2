package builtins

import (
	"fmt"
	"path"
)

var _ = register(Builtin{Name: "sdiff", Summary: "side-by-side merge of file differences", Run: sdiffCmd})

// sdiffCmd is diffutils 3.8's sdiff without -o: as GNU's, it runs diff
// -y with its options renamed (-w is diff's -W, -W diff's -w), so the
// messages about files are diff's. The interactive merge (-o) is refused:
// it reads its commands from a terminal and runs an editor.
func sdiffCmd(env *Env) int {
	f := NewFlags(env, "Side-by-side merge of differences between FILE1 and FILE2.", "[OPTION]... FILE1 FILE2")
	f.Epilog = "If a FILE is '-', read standard input.\nExit status is 0 if inputs are the same, 1 if different, 2 if trouble."
	var diffArgs []string
	pass := func(short rune, long, help, as string) {
		f.Func(short, long, NoArg, "", help, func(string, bool) error {
			diffArgs = append(diffArgs, as)
			return nil
		})
	}
	passArg := func(short rune, long, argName, help, as string) {
		f.Func(short, long, RequiredArg, argName, help, func(v string, _ bool) error {
			diffArgs = append(diffArgs, as+v)
			return nil
		})
	}
	output, outSet := f.String('o', "output", "FILE", "operate interactively, sending output to FILE")
	pass('i', "ignore-case", "consider upper- and lower-case to be the same", "-i")
	pass('E', "ignore-tab-expansion", "ignore changes due to tab expansion", "-E")
	pass('Z', "ignore-trailing-space", "ignore white space at line end", "-Z")
	pass('b', "ignore-space-change", "ignore changes in the amount of white space", "-b")
	pass('W', "ignore-all-space", "ignore all white space", "-w")
	pass('B', "ignore-blank-lines", "ignore changes whose lines are all blank", "-B")
	passArg('I', "ignore-matching-lines", "RE", "ignore changes all whose lines match RE", "--ignore-matching-lines=")
	pass(0, "strip-trailing-cr", "strip trailing carriage return on input", "--strip-trailing-cr")
	pass('a', "text", "treat all files as text", "-a")
	passArg('w', "width", "NUM", "output at most NUM (default 130) print columns", "--width=")
	pass('l', "left-column", "output only the left column of common lines", "--left-column")
	pass('s', "suppress-common-lines", "do not output common lines", "--suppress-common-lines")
	pass('t', "expand-tabs", "expand tabs to spaces in output", "-t")
	passArg(0, "tabsize", "NUM", "tab stops at every NUM (default 8) print columns", "--tabsize=")
	pass('d', "minimal", "try hard to find a smaller set of changes", "-d")
	// -H is a speed hint to GNU diff's search; llmsh's diff has none to give.
	f.Bool('H', "speed-large-files", "assume large files, many scattered small changes")
	program, programSet := f.String(0, "diff-program", "PROGRAM", "use PROGRAM to compare files")
	version := shortHelpVersion(f, 0, 'v')
	ops, err := f.Parse(env.Args[1:])
	if err != nil {
		if msg, ok := usageMessage(err); ok {
			fmt.Fprintf(env.Stderr, "sdiff: %s\nsdiff: Try 'sdiff --help' for more information.\n", msg)
			return 2
		}
		return f.Fail(err, 2)
	}
	if *version {
		return printVersion(env)
	}
	switch {
	case len(ops) < 2:
		// GNU names the last argument, the command's own name when
		// there is none.
		msg := "missing operand after " + env.Quote(env.Args[len(env.Args)-1])
		fmt.Fprintf(env.Stderr, "sdiff: %s\nsdiff: Try 'sdiff --help' for more information.\n", msg)
		return 2
	case len(ops) > 2:
		fmt.Fprintf(env.Stderr, "sdiff: extra operand %s\nsdiff: Try 'sdiff --help' for more information.\n", env.Quote(ops[2]))
		return 2
	}
	if *programSet && path.Base(*program) != "diff" {
		env.Errorf("%s: llmsh runs no program but its own diff", *program)
		return 2
	}
	if *outSet {
		env.Errorf("-o %s: the interactive merge is not available in llmsh (it reads commands from a terminal and runs an editor); use diff3 -m or patch", env.Quote(*output))
		return 2
	}
	denv := *env
	denv.Args = append(append([]string{"diff", "-y"}, diffArgs...), "--", ops[0], ops[1])
	return diff(&denv)
}
