package builtins

import (
	"fmt"
	"path"
	"strings"
)

var _ = register(Builtin{Name: "which", Summary: "locate a command (llmsh: prints the name of each command it has)", Run: whichCmd})

// programNames are the shell's own commands that a GNU system also has as
// programs in /usr/bin, and so which and type -P find there.
var programNames = map[string]bool{
	"test": true, "[": true, "true": true, "false": true, "pwd": true, "kill": true,
	"sh": true, "bash": true,
}

// DefaultPath is the PATH a script starts with. llmsh's programs (its
// commands that a GNU system has as files) are in /usr/bin and /bin,
// virtually: these are llmsh's directories, not the host's (a listing of
// /usr/bin shows what vfsd grants, never a host file); /usr/local/bin,
// /usr/local/sbin, /usr/sbin and /sbin hold none of them.
const DefaultPath = "/usr/local/bin:/usr/bin:/bin"

// programDir reports whether dir (absolute, clean) holds llmsh's programs.
func programDir(dir string) bool { return dir == "/usr/bin" || dir == "/bin" }

// ProgramDir reports whether the directory of the absolute path p holds
// llmsh's programs: /usr/bin/cat names llmsh's cat.
func ProgramDir(p string) bool { return programDir(path.Dir(path.Clean(p))) }

// systemDir reports whether dir is a standard directory of programs that
// holds none of llmsh's: searched without asking vfsd.
func systemDir(dir string) bool {
	switch dir {
	case "/usr/local/bin", "/usr/local/sbin", "/usr/sbin", "/sbin":
		return true
	}
	return false
}

// IsProgram reports whether name is one of llmsh's programs: every
// registered command but help and history (bash's builtins), and the
// shell's own commands that a GNU system also has as programs (test,
// true, kill, sh, bash, …).
func IsProgram(name string) bool {
	if name == "help" || name == "history" || strings.Contains(name, "/") {
		return false
	}
	_, found := Lookup(name)
	return found || programNames[name]
}

// LookPath searches the directories of pathVar (PATH's value) for the
// program name as bash and execvp do, and returns the paths found: the
// first, or every one with all. An empty entry is the working directory
// dir. llmsh's programs are found in /usr/bin and /bin; another directory
// holds what exec, asked about a path (through vfsd), says is an
// executable file there (a script).
func LookPath(name, pathVar, dir string, all bool, exec func(p string) bool) []string {
	if name == "" || strings.Contains(name, "/") {
		return nil
	}
	var found []string
	for rest := pathVar; ; {
		elem, more, cut := strings.Cut(rest, ":")
		d := elem
		if d == "" {
			d = "."
		}
		abs := path.Clean(path.Join(dir, d))
		if path.IsAbs(d) {
			abs = path.Clean(d)
		}
		p := d + "/" + name
		if strings.HasSuffix(d, "/") {
			p = d + name
		}
		switch {
		case programDir(abs):
			if IsProgram(name) {
				found = append(found, p)
			}
		case systemDir(abs):
		case exec != nil && exec(path.Join(abs, name)):
			found = append(found, p)
		}
		if len(found) > 0 && !all || !cut {
			return found
		}
		rest = more
	}
}

// CommandPath is what which and `type -P` print for name when the PATH
// is llmsh's default: its path in /usr/bin. Functions, keywords and the
// shell's other builtins (cd, read, export) are not programs: bash's
// type -P and which(1) find nothing for them, and neither does llmsh. ok
// is false for those.
func CommandPath(name string) (path string, ok bool) {
	if p := LookPath(name, DefaultPath, "/", false, nil); len(p) > 0 {
		return p[0], true
	}
	return "", false
}

func whichCmd(env *Env) int {
	f := NewFlags(env, "Print the path of each COMMAND that the PATH finds, as which(1).\n"+
		"llmsh's commands are programs in /usr/bin and /bin (virtually: nothing of the\n"+
		"host); a directory of PATH in the granted files may hold scripts. Shell\n"+
		"functions and builtins such as cd are not programs and are not found, as\n"+
		"with which(1) and bash's type -P.\n\n"+
		"Exit status: 0 if every COMMAND was found, 1 otherwise.", "[-a] COMMAND...")
	every := f.Bool('a', "all", "print all matching pathnames of each command")
	version := versionOption(f)
	f.StopAtOperand = true // Debian's which is a sh script: getopts
	if bad, ok := whichBadOption(env.Args[1:]); ok {
		// dash's getopts says so (no name first), then the script's usage.
		fmt.Fprintf(env.Stderr, "Illegal option %s\n", bad)
		self := "/usr/bin/which"
		if strings.Contains(env.Args[0], "/") {
			self = env.Args[0]
		}
		fmt.Fprintf(env.Stdout, "Usage: %s [-a] args\n", self)
		return 2
	}
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
	pathVar, ok := EnvironValue(env.Environ, "PATH")
	if !ok {
		pathVar = DefaultPath // as execvp without a PATH
	}
	for _, n := range names {
		var found []string
		if strings.Contains(n, "/") {
			if isExecutable(env, n) {
				found = []string{n}
			}
		} else {
			found = LookPath(n, pathVar, env.Dir, *every, func(p string) bool { return isExecutable(env, p) })
		}
		for _, p := range found {
			w.WriteString(p + "\n")
		}
		if len(found) == 0 {
			status = 1
		}
	}
	return finishOutput(env, w, status)
}

// whichBadOption finds, as Debian's which (a sh script) does with
// getopts, the first option that is not -a, up to the first operand or
// "--": "-y", or "--" for a long option (getopts reads its "-" as the
// letter). llmsh's own --help, --version and --all (and their prefixes)
// are not bad.
func whichBadOption(args []string) (string, bool) {
	for _, a := range args {
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			return "", false
		}
		if long, ok := strings.CutPrefix(a, "--"); ok {
			name, _, _ := strings.Cut(long, "=")
			if !strings.HasPrefix("help", name) && !strings.HasPrefix("version", name) && !strings.HasPrefix("all", name) {
				return "--", true
			}
			continue
		}
		for _, c := range a[1:] {
			if c != 'a' {
				return "-" + string(c), true
			}
		}
	}
	return "", false
}

// isExecutable reports whether p (relative to the working directory) is
// a file with an execute bit, through vfsd.
func isExecutable(env *Env, p string) bool {
	if !path.IsAbs(p) {
		p = path.Join(env.Dir, p)
	}
	if ProgramDir(p) && IsProgram(path.Base(p)) {
		return true // one of llmsh's programs (/usr/bin/cat)
	}
	if env.FS == nil {
		return false
	}
	info, err := env.FS.Stat(p)
	return err == nil && !info.IsDir() && info.Mode().Perm()&0o111 != 0
}

// EnvironValue is the value of the variable name in environ ("NAME=value"
// entries); ok is false when it is not there.
func EnvironValue(environ []string, name string) (string, bool) {
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v, true
		}
	}
	return "", false
}
