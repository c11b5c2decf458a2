package builtins

import (
	"strings"
)

var _ = register(Builtin{Name: "dirname", Summary: "strip last component from file name", Run: dirname})

func dirname(env *Env) int {
	f := NewFlags(env, "Output each NAME with its last non-slash component and trailing slashes\nremoved; if NAME contains no /'s, output '.' (meaning the current directory).", "[OPTION] NAME...")
	zero := f.Bool('z', "zero", "end each output line with NUL, not newline")
	f.Epilog = helpExamples("dirname /usr/bin/", `-> "/usr"`, "dirname dir1/str dir2/str", `-> "dir1" followed by "dir2"`,
		"dirname stdio.h", `-> "."`)
	names, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(names) == 0 {
		return f.Fail(&UsageError{"missing operand"}, 1)
	}
	end := byte('\n')
	if *zero {
		end = 0
	}
	w := stdoutWriter(env)
	for _, n := range names {
		w.WriteString(dirnameOf(n))
		w.WriteByte(end)
	}
	return finishOutput(env, w, 0)
}

// dirnameOf is GNU dirname's result for name.
func dirnameOf(name string) string {
	t := strings.TrimRight(name, "/")
	if t == "" {
		if strings.HasPrefix(name, "/") {
			return "/"
		}
		return "."
	}
	i := strings.LastIndexByte(t, '/')
	if i < 0 {
		return "."
	}
	d := strings.TrimRight(t[:i], "/")
	if d == "" {
		return "/"
	}
	return d
}
