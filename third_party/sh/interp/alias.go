// llmsh: aliases as bash 5.2 expands and lists them (LLMSH.md).

package interp

import (
	"maps"
	"slices"
	"strings"
)

// aliasQuote is bash's single-quoting of an alias value in alias's listing.
func aliasQuote(s string) string {
	return shQuoteAlways(s)
}

// aliasLine is one line of alias's listing: alias NAME='VALUE';
// NAME='VALUE' alone in posix mode without -p (bare), as bash.
func aliasLine(name string, als alias, bare bool) string {
	if bare {
		return name + "=" + aliasQuote(als.value) + "\n"
	}
	if strings.HasPrefix(name, "-") {
		return "alias -- " + name + "=" + aliasQuote(als.value) + "\n"
	}
	return "alias " + name + "=" + aliasQuote(als.value) + "\n"
}

// aliasBuiltin is bash's alias: define, print one, or list all sorted.
func (r *Runner) aliasBuiltin(args []string) exitStatus {
	var exit exitStatus
	bare, printAll := r.opts[optPosix], false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		if bad := badOption(args[0], "p"); bad != "" {
			r.errf("%salias: %s: invalid option\n", r.errPrefix(), bad)
			r.errf("alias: usage: alias [-p] [name[=value] ... ]\n")
			exit.code = 2
			return exit
		}
		bare, printAll = false, strings.Contains(args[0], "p") // -p
		args = args[1:]
	}
	if len(args) == 0 || printAll {
		// -p lists them all before doing what its arguments say, as bash.
		for _, name := range slices.Sorted(maps.Keys(r.alias)) {
			r.out(aliasLine(name, r.alias[name], bare))
		}
		if len(args) == 0 {
			return exit
		}
	}
	for _, arg := range args {
		name, src, ok := strings.Cut(arg, "=")
		if !ok || name == "" {
			als, found := r.alias[arg]
			if !found {
				r.errf("%salias: %s: not found\n", r.errPrefix(), arg)
				exit.code = 1
				continue
			}
			r.out(aliasLine(arg, als, bare))
			continue
		}
		if strings.ContainsAny(name, "/$`'\"\\ \t\n=<>|&;()") {
			r.errf("%salias: `%s': invalid alias name\n", r.errPrefix(), name)
			exit.code = 1
			continue
		}
		als := alias{value: src, blank: strings.TrimRight(src, " \t\n") != src}
		if r.alias == nil {
			r.alias = make(map[string]alias)
		}
		r.alias[name] = als
	}
	return exit
}

// unaliasBuiltin is bash's unalias.
const unaliasUsage = "unalias [-a] name [name ...]"

func (r *Runner) unaliasBuiltin(args []string) exitStatus {
	var exit exitStatus
	// llmsh: bash's options and usage.
	opts, args, bad, problem := bashOpts(args, "a", false)
	if bad != "" {
		return r.usageFail("unalias", bad, problem, unaliasUsage)
	}
	if len(opts) > 0 {
		clear(r.alias)
		return exit
	}
	if len(args) == 0 {
		r.errf("unalias: usage: %s\n", unaliasUsage)
		exit.code = 2
		return exit
	}
	for _, name := range args {
		if _, ok := r.alias[name]; !ok {
			r.errf("%sunalias: %s: not found\n", r.errPrefix(), name)
			exit.code = 1
			continue
		}
		delete(r.alias, name)
	}
	return exit
}

// Alias returns the value of alias name, when aliases are expanded (bash's
// type and command -v name aliases only then).
func (r *Runner) Alias(name string) (string, bool) {
	als, ok := r.alias[name]
	if !ok || !r.opts[optExpandAliases] {
		return "", false
	}
	return als.value, true
}
