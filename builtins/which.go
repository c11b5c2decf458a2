package builtins

import "strings"

var _ = register(Builtin{Name: "which", Summary: "locate a command (llmsh: prints the name of each command it has)", Run: whichCmd})

// programNames are the shell's own commands that a GNU system also has as
// programs in /usr/bin, and so which and type -P find there.
var programNames = map[string]bool{
	"test": true, "[": true, "true": true, "false": true, "pwd": true, "kill": true,
	"sh": true, "bash": true,
}

// CommandPath is what which and `type -P` print for name: llmsh has no
// program files, so a command that would be a program on a GNU system
// (every llmsh command, and test, true, pwd, sh, …) answers with its own
// name, which runs it, rather than a path such as /usr/bin/NAME that
// would not. Functions, keywords and the shell's other builtins (cd,
// read, export) are not programs: bash's type -P and which(1) find
// nothing for them, and neither does llmsh. ok is false for those.
func CommandPath(name string) (path string, ok bool) {
	if strings.Contains(name, "/") {
		return "", false // no file is executable in llmsh
	}
	if _, found := Lookup(name); found || programNames[name] {
		return name, true
	}
	return "", false
}

func whichCmd(env *Env) int {
	f := NewFlags(env, "Print the name that runs each COMMAND, as which(1) prints its path.\n"+
		"llmsh's commands are built in, not files: each one found is printed by\n"+
		"its name, which runs it. Shell functions and builtins such as cd are\n"+
		"not programs and are not found, as with which(1) and bash's type -P.\n\n"+
		"Exit status: 0 if every COMMAND was found, 1 otherwise.", "[-a] COMMAND...")
	f.Bool('a', "all", "print all matching names of each command (one in llmsh)")
	version := versionOption(f)
	names, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 2)
	}
	if *version {
		return printVersion(env)
	}
	w := stdoutWriter(env)
	status := 0
	if len(names) == 0 {
		status = 1
	}
	for _, n := range names {
		if p, ok := CommandPath(n); ok {
			w.WriteString(p + "\n")
		} else {
			status = 1
		}
	}
	return finishOutput(env, w, status)
}
