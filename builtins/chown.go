package builtins

import (
	"fmt"
	"strconv"
	"strings"
)

var _ = register(Builtin{Name: "chown", Summary: "change file owner and group", Run: chownCmd})
var _ = register(Builtin{Name: "chgrp", Summary: "change group ownership", Run: chownCmd})

// An owner or group of a chown spec: its id, the name it was given by,
// and whether it was given at all.
type chownID struct {
	set  bool
	id   int
	name string
}

// chownCmd is GNU chown and chgrp in llmsh's world of one user: every file
// belongs to llmsh (uid and gid 1000), so giving it to llmsh succeeds and
// changes nothing, a numeric id of anyone else is refused as the kernel
// refuses an unprivileged chown, and any other name is unknown, as id says.
func chownCmd(env *Env) int {
	isChgrp := env.Name() == "chgrp"
	usage, summary := "[OPTION]... [OWNER][:[GROUP]] FILE...", "Change the owner and/or group of each FILE to OWNER and/or GROUP.\n"+
		"With --reference, change the owner and group of each FILE to those of RFILE."
	examples := "Owner is unchanged if missing.  Group is unchanged if missing, but changed\n" +
		"to login group if implied by a ':' following a symbolic OWNER.\n" +
		"OWNER and GROUP may be numeric as well as symbolic.\n\n" +
		helpExamples("chown "+VirtualUser+" /u", "Change the owner of /u to \""+VirtualUser+"\".",
			"chown "+VirtualUser+":"+VirtualUser+" /u", "Likewise, but also change its group to \""+VirtualUser+"\".",
			"chown -hR "+VirtualUser+" /u", "Change the owner of /u and subfiles to \""+VirtualUser+"\".")
	if isChgrp {
		usage, summary = "[OPTION]... GROUP FILE...", "Change the group of each FILE to GROUP.\n"+
			"With --reference, change the group of each FILE to that of RFILE."
		examples = helpExamples("chgrp "+VirtualUser+" /u", "Change the group of /u to \""+VirtualUser+"\".",
			"chgrp -hR "+VirtualUser+" /u", "Change the group of /u and subfiles to \""+VirtualUser+"\".")
	}
	f := NewFlags(env, summary+"\n\nllmsh has one user and group, "+VirtualUser+", who owns every file.", usage, "[OPTION]... --reference=RFILE FILE...")
	// -c reports changes: llmsh's files never change hands.
	f.Bool('c', "changes", "like verbose but report only when a change is made")
	silent := f.Bool('f', "silent", "suppress most error messages")
	f.Synonym("quiet", "silent")
	verbose := f.Bool('v', "verbose", "output a diagnostic for every file processed")
	f.Bool(0, "dereference", "affect the referent of each symbolic link (this is the default)")
	f.Bool('h', "no-dereference", "affect symbolic links instead of any referenced file")
	from, fromSet := f.String(0, "from", "CURRENT_OWNER:CURRENT_GROUP", "change the owner and/or group of each file only if\nits current owner and/or group match those specified here")
	f.Bool(0, "no-preserve-root", "do not treat '/' specially (the default)")
	f.Bool(0, "preserve-root", "fail to operate recursively on '/'")
	ref, refSet := f.String(0, "reference", "RFILE", "use RFILE's ownership rather than specifying values")
	recursive := f.Bool('R', "recursive", "operate on files and directories recursively")
	f.Section("The following options modify how a hierarchy is traversed when the -R\n" +
		"option is also specified.  If more than one is specified, only the final\n" +
		"one takes effect.")
	f.Gap()
	f.Bool('H', "", "if a command line argument is a symbolic link\nto a directory, traverse it")
	f.Bool('L', "", "traverse every symbolic link to a directory encountered")
	f.Bool('P', "", "do not traverse any symbolic links (default)")
	f.Gap()
	f.Epilog = examples
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	var user, group chownID
	if *refSet {
		if len(args) == 0 {
			return f.Fail(&UsageError{"missing operand"}, 1)
		}
		if _, err := env.FS.Stat(env.Abs(*ref)); err != nil || *ref == "" {
			if err == nil {
				err = errEmptyName
			}
			env.Errorf("failed to get attributes of %s: %s", env.QuoteAF(*ref), ErrText(err))
			return 1
		}
		group = chownID{true, VirtualGID, VirtualUser}
		if !isChgrp {
			user = chownID{true, VirtualUID, VirtualUser}
		}
	} else {
		switch len(args) {
		case 0:
			return f.Fail(&UsageError{"missing operand"}, 1)
		case 1:
			return f.Fail(&UsageError{"missing operand after " + env.Quote(args[0])}, 1)
		}
		spec := args[0]
		args = args[1:]
		if isChgrp {
			var ok bool
			if group, ok = chownLookup(spec, VirtualGID); !ok {
				env.Errorf("invalid group: %s", env.Quote(spec))
				return 1
			}
		} else if user, group, err = chownSpec(env, spec); err != nil {
			env.Errorf("%s", err)
			return 1
		}
	}
	var fromUser, fromGroup chownID
	if *fromSet {
		if fromUser, fromGroup, err = chownSpec(env, *from); err != nil {
			env.Errorf("%s", err)
			return 1
		}
	}
	c := &chownRun{env: env, user: user, group: group, chgrp: isChgrp,
		verbose: *verbose, silent: *silent, recursive: *recursive,
		skip: fromUser.set && fromUser.id != VirtualUID || fromGroup.set && fromGroup.id != VirtualGID}
	status := 0
	for _, a := range args {
		if !c.one(a, true) {
			status = 1
		}
	}
	return status
}

// chownLookup resolves an owner or group: llmsh's name or any number.
func chownLookup(s string, own int) (chownID, bool) {
	if s == VirtualUser {
		return chownID{true, own, VirtualUser}, true
	}
	n, err := strconv.ParseUint(s, 10, 31)
	if err != nil {
		return chownID{}, false
	}
	return chownID{true, int(n), s}, true
}

// chownSpec parses OWNER[:[GROUP]] (or OWNER.GROUP) as gnulib's
// parse_user_spec does, with llmsh's one user.
func chownSpec(env *Env, spec string) (user, group chownID, err error) {
	u, g, colon := strings.Cut(spec, ":")
	if !colon {
		if _, ok := chownLookup(spec, VirtualUID); !ok && strings.Contains(spec, ".") {
			u, g, colon = strings.Cut(spec, ".")
		}
	}
	if u != "" {
		var ok bool
		if user, ok = chownLookup(u, VirtualUID); !ok {
			return user, group, fmt.Errorf("invalid user: %s", env.Quote(spec))
		}
		if colon && g == "" {
			// OWNER: is the owner's login group: only llmsh has one.
			if user.id != VirtualUID {
				return user, group, fmt.Errorf("invalid spec: %s", env.Quote(spec))
			}
			group = chownID{true, VirtualGID, VirtualUser}
		}
	}
	if g != "" {
		var ok bool
		if group, ok = chownLookup(g, VirtualGID); !ok {
			return user, group, fmt.Errorf("invalid group: %s", env.Quote(spec))
		}
	}
	return user, group, nil
}

type chownRun struct {
	env                        *Env
	user, group                chownID
	chgrp                      bool
	verbose, silent, recursive bool
	skip                       bool // --from names someone else
}

// one applies the change to name (and, with -R, what is under it).
func (c *chownRun) one(name string, top bool) bool {
	env := c.env
	fi, err := env.FS.Lstat(env.Abs(name))
	if err == nil && name == "" {
		err = errEmptyName
	}
	if err != nil {
		if !c.silent || top {
			env.Errorf("cannot access %s: %s", env.QuoteAF(name), ErrText(err))
		}
		return false
	}
	ok := true
	if c.recursive && fi.IsDir() {
		ents, err := env.FS.ReadDir(env.Abs(name))
		if err != nil {
			if !c.silent {
				env.Errorf("cannot read directory %s: %s", env.QuoteAF(name), ErrText(err))
			}
			return false
		}
		for _, e := range ents {
			if !c.one(strings.TrimSuffix(name, "/")+"/"+e.Name(), false) {
				ok = false
			}
		}
	}
	// A directory after what it holds, as GNU's walk does.
	return c.apply(name) && ok
}

// apply changes one file: nothing to do for llmsh, EPERM for anyone else.
func (c *chownRun) apply(name string) bool {
	env := c.env
	if c.skip {
		return true
	}
	what := "ownership"
	if c.chgrp || !c.user.set && c.group.set {
		what = "group"
	}
	if c.user.set && c.user.id != VirtualUID || c.group.set && c.group.id != VirtualGID {
		if !c.silent {
			env.Errorf("changing %s of %s: Operation not permitted", what, env.QuoteAF(name))
		}
		if c.verbose {
			fmt.Fprintf(env.Stdout, "failed to change %s of %s from %s to %s\n", what, env.QuoteAF(name), c.names(true), c.names(false))
		}
		return false
	}
	if c.verbose {
		if to := c.names(false); to != "" {
			fmt.Fprintf(env.Stdout, "%s of %s retained as %s\n", what, env.QuoteAF(name), to)
		} else {
			fmt.Fprintf(env.Stdout, "%s of %s retained\n", what, env.QuoteAF(name))
		}
	}
	return true
}

// names is the owner and group as chown -v writes them: the file's
// current ones (llmsh's) or those asked for.
func (c *chownRun) names(current bool) string {
	u, g := c.user.name, c.group.name
	if current {
		u, g = VirtualUser, VirtualUser
	}
	switch {
	case c.user.set && c.group.set:
		return u + ":" + g
	case c.user.set:
		return u
	case c.group.set:
		return g
	}
	return ""
}
