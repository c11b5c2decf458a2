package builtins

import (
	"fmt"
	"strings"
)

var _ = register(Builtin{Name: "basename", Summary: "strip directory and suffix from filenames", Run: basename})

func basename(env *Env) int {
	f := NewFlags(env, "Print NAME with any leading directory components removed.\nIf specified, also remove a trailing SUFFIX.", "NAME [SUFFIX]", "OPTION... NAME...")
	multi := f.Bool('a', "multiple", "support multiple arguments and treat each as a NAME")
	suffix, hasSuffix := f.String('s', "suffix", "SUFFIX", "remove a trailing SUFFIX; implies -a")
	zero := f.Bool('z', "zero", "end each output line with NUL, not newline")
	f.Epilog = helpExamples("basename /usr/bin/sort", `-> "sort"`, "basename include/stdio.h .h", `-> "stdio"`,
		"basename -s .h include/stdio.h", `-> "stdio"`, "basename -a any/str1 any/str2", `-> "str1" followed by "str2"`)
	f.StopAtOperand = true // GNU's "+as:z": `basename a.py -a` names two files
	names, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(names) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 1)
	}
	if *hasSuffix {
		*multi = true
	}
	if !*multi {
		if len(names) > 2 {
			return f.Fail(&UsageError{"extra operand " + env.Quote(names[2])}, 1)
		}
		if len(names) == 2 {
			*suffix = names[1]
		}
		names = names[:1]
	}
	end := "\n"
	if *zero {
		end = "\x00"
	}
	w := stdoutWriter(env)
	for _, n := range names {
		fmt.Fprint(w, basenameOf(n, *suffix), end)
	}
	return finishOutput(env, w, 0)
}

// basenameOf is GNU basename's result for name with suffix removed.
func basenameOf(name, suffix string) string {
	trimmed := strings.TrimRight(name, "/")
	if trimmed == "" {
		if name == "" {
			return ""
		}
		return "/"
	}
	base := trimmed[strings.LastIndexByte(trimmed, '/')+1:]
	if suffix != "" && base != suffix && strings.HasSuffix(base, suffix) {
		base = base[:len(base)-len(suffix)]
	}
	return base
}
