package shell

import (
	"context"
	"path"
	"strings"

	"github.com/llmsh/llmsh/builtins"
)

// programPath finds name, a command the exec handler is about to run, in
// the PATH of the shell of ctx, as bash does: hash's table first, then
// the directories of PATH (builtins.LookPath); a program found is entered
// in the table with a hit. found is true for a name that is no program
// (a path, the shell's builtin, llmsh); p is a path to run instead of the
// name when a directory of PATH other than llmsh's holds it (a script).
// noPath says that PATH is unset or empty, where bash's message is "No
// such file or directory".
func (s *Shell) programPath(ctx context.Context, name string, shellBuiltin bool) (p string, found, noPath bool) {
	if shellBuiltin || name == "llmsh" || strings.Contains(name, "/") || !builtins.IsProgram(name) && builtinExists(name) {
		return "", true, false
	}
	r := currentRunner(ctx)
	if r == nil {
		return "", true, false
	}
	if h, ok := r.Hashed(name); ok && (strings.HasPrefix(h, "/") || s.executable(ctx, h)) {
		// bash (without checkhash) runs what the table names, whatever
		// is there: `hash -p /usr/bin/cat mycat` makes mycat run cat,
		// and a path that holds nothing fails as that path (a relative
		// one that is no program is passed over, as phash_search does).
		r.HashCommand(name, h, true)
		if abs := absPath(r.Dir, h); builtins.ProgramDir(abs) && path.Base(abs) == name {
			return "", true, false
		}
		if !strings.Contains(h, "/") {
			h = "./" + h
		}
		return h, true, false
	}
	pathVar := r.Path()
	ps := s.searchPathPreferred(ctx, name, false, pathVar)
	if len(ps) == 0 {
		return "", false, pathVar == ""
	}
	r.HashCommand(name, ps[0], true)
	return localPath(r.Dir, ps[0]), true, false
}

// localPath is "" for a path to one of llmsh's programs (the name runs
// it), else p, the script to run.
func localPath(dir, p string) string {
	if builtins.ProgramDir(absPath(dir, p)) {
		return ""
	}
	if !strings.Contains(p, "/") {
		return "./" + p
	}
	return p
}
