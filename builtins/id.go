package builtins

import (
	"fmt"
	"strconv"
)

// The one identity a script has: llmsh never looks at the host's users.
// The shell's $UID, $EUID and $GROUPS, ls -l's owner and find -ls agree.
const (
	VirtualUser = "llmsh"
	VirtualUID  = 1000
	VirtualGID  = 1000
)

var _ = register(Builtin{Name: "id", Summary: "print the user and group identity", Run: id})
var _ = register(Builtin{Name: "whoami", Summary: "print the user name", Run: whoami})

func id(env *Env) int {
	f := NewFlags(env, "Print user and group information for USER,\nor (when USER is omitted) for the current user.\n\nllmsh has one user, "+VirtualUser+", whose uid and gid are "+strconv.Itoa(VirtualUID)+"; the host's users are never consulted.", "[OPTION]... [USER]...")
	f.Bool('a', "", "ignore, for compatibility with other versions")
	user := f.Bool('u', "user", "print only the effective user ID")
	group := f.Bool('g', "group", "print only the effective group ID")
	groups := f.Bool('G', "groups", "print all group IDs")
	name := f.Bool('n', "name", "print a name instead of a number, for -ugG")
	real := f.Bool('r', "real", "print the real ID instead of the effective ID, with -ugG")
	context := f.Bool('Z', "context", "print only the security context of the process (llmsh has none: an\nerror, as on a kernel without SELinux)")
	zero := f.Bool('z', "zero", "delimit entries with NUL characters, not whitespace;\nnot permitted in default format")
	users, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *context {
		// GNU's first check: there is no context to print.
		env.Errorf("--context (-Z) works only on an SELinux-enabled kernel")
		return 1
	}
	only := 0
	for _, b := range []bool{*user, *group, *groups} {
		if b {
			only++
		}
	}
	switch {
	case only > 1:
		return f.Fail(fmt.Errorf(`cannot print "only" of more than one choice`), 1)
	case only == 0 && (*name || *real):
		return f.Fail(fmt.Errorf("cannot print only names or real IDs in default format"), 1)
	case only == 0 && *zero:
		return f.Fail(fmt.Errorf("option --zero not permitted in default format"), 1)
	}
	if len(users) == 0 {
		users = []string{""}
	}
	w := stdoutWriter(env)
	status := 0
	for _, u := range users {
		if u != "" && u != VirtualUser && u != strconv.Itoa(VirtualUID) {
			if err := w.Flush(); err != nil {
				return writeFailed(env, err)
			}
			env.Errorf("%s: no such user", env.Quote(u))
			status = 1
			continue
		}
		num, nam := strconv.Itoa(VirtualUID), VirtualUser
		if *group || *groups {
			num = strconv.Itoa(VirtualGID)
		}
		switch {
		case only == 0:
			fmt.Fprintf(w, "uid=%d(%s) gid=%d(%s) groups=%d(%s)\n", VirtualUID, VirtualUser, VirtualGID, VirtualUser, VirtualGID, VirtualUser)
			continue
		case *name:
			w.WriteString(nam)
		default:
			w.WriteString(num)
		}
		if *zero {
			w.WriteByte(0)
			if len(users) > 1 {
				w.WriteByte(0)
			}
		} else {
			w.WriteByte('\n')
		}
	}
	return finishOutput(env, w, status)
}

func whoami(env *Env) int {
	return printFixed(env, "Print the user name associated with the current effective user ID.\nIn llmsh that is always "+VirtualUser+".", "[OPTION]...", VirtualUser)
}

// printFixed runs a command that takes no operand and prints one fixed
// line of llmsh's virtual identity (whoami, logname, arch, hostid).
func printFixed(env *Env, summary, usage, value string) int {
	f := NewFlags(env, summary, usage)
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if len(args) > 0 {
		return f.Fail(&UsageError{"extra operand " + env.Quote(args[0])}, 1)
	}
	w := stdoutWriter(env)
	w.WriteString(value + "\n")
	return finishOutput(env, w, 0)
}

var _ = register(Builtin{Name: "groups", Summary: "print the groups a user is in", Run: groupsCmd})
var _ = register(Builtin{Name: "logname", Summary: "print the user's login name", Run: lognameCmd})

func groupsCmd(env *Env) int {
	f := NewFlags(env, "Print group memberships for each USERNAME or, if no USERNAME is specified, for\n"+
		"the current process (which may differ if the groups database has changed).\n\n"+
		"llmsh has one user, "+VirtualUser+", in one group, "+VirtualUser+".", "[OPTION]... [USERNAME]...")
	users, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	w := stdoutWriter(env)
	if len(users) == 0 {
		w.WriteString(VirtualUser + "\n")
	}
	status := 0
	for _, u := range users {
		if u != VirtualUser {
			w.Flush()
			env.Errorf("%s: no such user", env.Quote(u))
			status = 1
			continue
		}
		w.WriteString(u + " : " + VirtualUser + "\n")
	}
	return finishOutput(env, w, status)
}

func lognameCmd(env *Env) int {
	return printFixed(env, "Print the user's login name.\n\nIn llmsh that is always "+VirtualUser+".", "[OPTION]", VirtualUser)
}
