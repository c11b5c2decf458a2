package builtins

var (
	_ = register(Builtin{Name: "true", Summary: "do nothing, successfully (the program, for env, xargs, find -exec; scripts use the shell's true)", Run: trueCmd})
	_ = register(Builtin{Name: "false", Summary: "do nothing, unsuccessfully (the program, for env, xargs, find -exec; scripts use the shell's false)", Run: falseCmd})
)

func trueCmd(env *Env) int { return trueFalse(env, 0, "success") }

func falseCmd(env *Env) int { return trueFalse(env, 1, "failure") }

// trueFalse is GNU's true and false: arguments are ignored but a lone
// --help, which prints and still exits with status (--version is every
// command's, status 0).
func trueFalse(env *Env, status int, what string) int {
	args := env.Args[1:]
	if len(args) != 1 || args[0] != "--help" {
		return status
	}
	f := NewFlags(env, "Exit with a status code indicating "+what+".\n", "[ignored command line arguments]", "OPTION")
	f.PrintHelp(env.Stdout)
	return status
}
