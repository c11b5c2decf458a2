// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// bash's hash, written for llmsh (see LLMSH.md, "Builtins' options and
// messages"). llmsh runs no program from a path, so the table holds only
// what `hash -p PATH NAME` put there.

import (
	"cmp"
	"context"
	"slices"
	"strings"
)

const hashUsage = "hash [-lr] [-p pathname] [-dt] [name ...]"

// hashBuiltin is bash's hash: -r empties the table, -p PATH NAME… enters
// names, -d removes them, -t prints them, -l lists the table as input.
func (r *Runner) hashBuiltin(ctx context.Context, args []string) exitStatus {
	if !r.opts[optHashAll] {
		// llmsh: set +h, as bash's hash_builtin.
		r.errf("%shash: hashing disabled\n", r.errPrefix())
		return exitStatus{code: 1}
	}
	opts, names, bad, problem := bashOpts(args, "dlp:rt", false)
	if bad != "" {
		return r.usageFail("hash", bad, problem, hashUsage)
	}
	var del, list, targets, expunge bool
	path, havePath := "", false
	for _, o := range opts {
		switch o.c {
		case 'd':
			del = true
		case 'l':
			list = true
		case 'p':
			path, havePath = o.value, true
		case 'r':
			expunge = true
		case 't':
			targets = true
		}
	}
	if expunge {
		r.hashed, r.hashHits = nil, nil
	}
	if (del || targets) && len(names) == 0 {
		flag := "-t"
		if del {
			flag = "-d"
		}
		r.errf("%shash: %s: option requires an argument\n", r.errPrefix(), flag)
		return exitStatus{code: 1}
	}
	if len(names) == 0 {
		if expunge {
			return exitStatus{}
		}
		if !r.printHashed(list) && !list && !r.opts[optPosix] { // llmsh: posix mode says nothing, as bash
			r.out("hash: hash table empty\n")
		}
		return exitStatus{}
	}
	var exit exitStatus
	for _, name := range names {
		switch {
		case del:
			if _, ok := r.hashed[name]; ok {
				delete(r.hashed, name)
				delete(r.hashHits, name)
			} else if len(r.hashed) > 0 {
				r.errf("%shash: %s: not found\n", r.errPrefix(), name)
				exit.code = 1
			}
		case targets:
			p, ok := r.hashed[name]
			if ok {
				r.HashCommand(name, p, true) // bash's phash_search counts a hit
			}
			switch {
			case !ok:
				r.errf("%shash: %s: not found\n", r.errPrefix(), name)
				exit.code = 1
			case list:
				r.outf("builtin hash -p %s %s\n", p, name)
			case len(names) > 1:
				r.outf("%s\t%s\n", name, p)
			default:
				r.outf("%s\n", p)
			}
		case havePath:
			if r.hashed == nil {
				r.hashed = map[string]string{}
			}
			r.hashed[name] = path
		case strings.Contains(name, "/"), r.isBuiltin(name), r.Funcs[name] != nil:
			// bash hashes no path, builtin or function
		default:
			if _, err := r.lookPath(ctx, name, true); err != nil {
				r.errf("%shash: %s: not found\n", r.errPrefix(), name)
				exit.code = 1
			}
		}
	}
	return exit
}

// printHashed prints the table (as input with -l); it reports whether
// the table holds anything.
func (r *Runner) printHashed(asInput bool) bool {
	if len(r.hashed) == 0 {
		return false
	}
	names := make([]string, 0, len(r.hashed))
	for name := range r.hashed {
		names = append(names, name)
	}
	// llmsh: in the order of bash's table: by bucket (the name's FNV-1
	// hash, 256 buckets), then by name.
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(hashBucket(a), hashBucket(b)), cmp.Compare(a, b))
	})
	if !asInput {
		r.out("hits\tcommand\n")
	}
	for _, name := range names {
		if asInput {
			r.outf("builtin hash -p %s %s\n", r.hashed[name], name)
		} else {
			r.outf("%4d\t%s\n", r.hashHits[name], r.hashed[name])
		}
	}
	return true
}

// Hashed returns the path that hash's table holds for name.
func (r *Runner) Hashed(name string) (string, bool) {
	p, ok := r.hashed[name]
	return p, ok
}

// ForgetHashed removes name from hash's table (llmsh: `hash NAME`
// searches anew).
func (r *Runner) ForgetHashed(name string) {
	delete(r.hashed, name)
	delete(r.hashHits, name)
}

// HashCommand enters name in hash's table as found at path, as bash does
// when its PATH search finds a program (hash NAME too); run counts a hit,
// a run of the command.
func (r *Runner) HashCommand(name, path string, run bool) {
	if !r.opts[optHashAll] {
		return // llmsh: set +h remembers nothing
	}
	if r.hashed == nil {
		r.hashed, r.hashHits = map[string]string{}, map[string]int{}
	}
	if r.hashHits == nil {
		r.hashHits = map[string]int{}
	}
	if r.hashed[name] != path {
		r.hashed[name], r.hashHits[name] = path, 0
	}
	if run {
		r.hashHits[name]++
	}
}

// Path is the value of the shell's PATH, which its search for a command
// uses: the command's own assignments included (PATH=/x cmd), exec -c's
// empty environment not; StandardPath while `command -p` runs a command.
func (r *Runner) Path() string {
	if r.stdPath {
		return StandardPath
	}
	return r.writeEnv.Get("PATH").String()
}

// StandardPath is the PATH that `command -p` searches: bash's, the C
// library's _CS_PATH.
const StandardPath = "/bin:/usr/bin"

// hashBucket is the bucket of bash's command hash table (hashcmd.c: 256
// buckets, hash_string's FNV-1) that holds name (llmsh).
func hashBucket(name string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h *= 16777619
		h ^= uint32(name[i])
	}
	return h & 255
}
