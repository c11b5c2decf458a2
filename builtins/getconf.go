package builtins

import (
	"fmt"
	"sort"
	"strconv"
)

var _ = register(Builtin{Name: "getconf", Summary: "query system configuration variables (glibc's getconf)", Run: getconfCmd})

// getconfSysVars gives the variables getconf answers without a path: those of
// glibc 2.36 on Debian 12 x86-64 whose value is the same on every such
// host. What would tell the host (memory, process limits) is left out
// and is "Unrecognized"; the processor counts are nproc's virtual 1.
func getconfSysVars() map[string]string {
	return map[string]string{
		"ARG_MAX": "2097152", "_POSIX_ARG_MAX": "2097152",
		"_NPROCESSORS_ONLN": strconv.Itoa(virtualCPUs), "_NPROCESSORS_CONF": strconv.Itoa(virtualCPUs),
		"PAGESIZE": "4096", "PAGE_SIZE": "4096", "LONG_BIT": "64", "WORD_BIT": "32",
		"CLK_TCK": "100", "OPEN_MAX": "1024", "HOST_NAME_MAX": "64", "LOGIN_NAME_MAX": "256",
		"LINE_MAX": "2048", "PATH": "/bin:/usr/bin", "GNU_LIBC_VERSION": "glibc 2.36",
		"GNU_LIBPTHREAD_VERSION": "NPTL 2.36", "INT_MAX": "2147483647", "INT_MIN": "-2147483648",
		"UINT_MAX": "4294967295", "ULONG_MAX": "18446744073709551615", "CHAR_BIT": "8",
		"CHAR_MAX": "127", "CHAR_MIN": "-128", "SCHAR_MAX": "127", "SHRT_MAX": "32767",
		"SSIZE_MAX": "32767", "MB_LEN_MAX": "16", "NZERO": "20", "NGROUPS_MAX": "65536",
		"_POSIX_VERSION": "200809", "POSIX2_VERSION": "200809", "_XOPEN_VERSION": "700",
		"STREAM_MAX": "16", "RE_DUP_MAX": "32767", "TZNAME_MAX": "undefined",
		"SYMLOOP_MAX": "undefined", "TTY_NAME_MAX": "32", "IOV_MAX": "1024",
		"ATEXIT_MAX": "2147483647", "NL_ARGMAX": "4096", "EXPR_NEST_MAX": "32",
		"COLL_WEIGHTS_MAX": "255", "BC_BASE_MAX": "99", "BC_DIM_MAX": "2048",
		"BC_SCALE_MAX": "99", "BC_STRING_MAX": "1000", "LEVEL1_DCACHE_LINESIZE": "64",
	}
}

// getconfPathVars gives the variables that need a path (pathconf), with the
// values glibc gives for a file on ext4.
func getconfPathVars() map[string]string {
	return map[string]string{
		"LINK_MAX": "65000", "MAX_CANON": "255", "MAX_INPUT": "255", "NAME_MAX": "255",
		"PATH_MAX": "4096", "PIPE_BUF": "4096", "FILESIZEBITS": "64",
		"POSIX_ALLOC_SIZE_MIN": "4096", "SYMLINK_MAX": "undefined", "_POSIX_NO_TRUNC": "1",
	}
}

// getconfStatfsVars gives the path variables for which glibc asks the file system
// (statfs), so that a missing path is an error; the others are constants.
func getconfStatfsVars() map[string]bool {
	return map[string]bool{"LINK_MAX": true, "NAME_MAX": true, "FILESIZEBITS": true, "POSIX_ALLOC_SIZE_MIN": true}
}

const getconfUsage = "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]\n"

// getconfCmd is glibc's getconf for the variables above: the value and
// status 0; an unknown name is "Unrecognized variable" (2); a path
// variable without a path, or a path with another, is the usage (2); a
// path that does not exist is pathconf's error (3). -a lists them all.
func getconfCmd(env *Env) int {
	args := env.Args[1:]
	switch {
	case len(args) == 1 && args[0] == "--help":
		fmt.Fprint(env.Stdout, "Usage: getconf [-v SPEC] VAR\n  or:  getconf [-v SPEC] PATH_VAR PATH\n\n"+
			"Get the configuration value for variable VAR, or for variable PATH_VAR\n"+
			"for path PATH.  If SPEC is given, give values for compilation\nenvironment SPEC.\n\n"+
			"llmsh answers with fixed values (glibc 2.36, x86-64), never the host's;\n"+
			"_NPROCESSORS_ONLN is nproc's 1.\n")
		return 0
	case len(args) == 1 && args[0] == "--version":
		return printVersion(env)
	}
	if len(args) >= 2 && args[0] == "-v" {
		args = args[2:] // every specification has the same values here
	} else if len(args) >= 1 && len(args[0]) > 2 && args[0][:2] == "-v" {
		args = args[1:]
	}
	if len(args) >= 1 && args[0] == "-a" {
		return getconfAll(env)
	}
	if len(args) == 0 || len(args) > 2 {
		fmt.Fprint(env.Stderr, getconfUsage)
		return 2
	}
	name := args[0]
	if v, ok := getconfPathVars()[name]; ok {
		if len(args) != 2 {
			fmt.Fprint(env.Stderr, getconfUsage)
			return 2
		}
		if !getconfStatfsVars()[name] {
			return getconfPrint(env, v)
		}
		if _, err := env.FS.Stat(env.Abs(args[1])); err != nil {
			env.Errorf("pathconf: %s: %s", args[1], ErrText(err))
			return 3
		}
		return getconfPrint(env, v)
	}
	v, ok := getconfSysVars()[name]
	if !ok {
		env.Errorf("Unrecognized variable `%s'", name)
		return 2
	}
	if len(args) == 2 {
		fmt.Fprint(env.Stderr, getconfUsage)
		return 2
	}
	return getconfPrint(env, v)
}

func getconfPrint(env *Env, v string) int {
	w := stdoutWriter(env)
	w.WriteString(v + "\n")
	return finishOutput(env, w, 0)
}

// getconfAll is getconf -a: every variable, sorted, in glibc's columns.
func getconfAll(env *Env) int {
	names := make([]string, 0, len(getconfSysVars())+len(getconfPathVars()))
	all := map[string]string{}
	for _, m := range []map[string]string{getconfSysVars(), getconfPathVars()} {
		for k, v := range m {
			names = append(names, k)
			all[k] = v
		}
	}
	sort.Strings(names)
	w := stdoutWriter(env)
	for _, n := range names {
		fmt.Fprintf(w, "%-35s%s\n", n, all[n])
	}
	return finishOutput(env, w, 0)
}
