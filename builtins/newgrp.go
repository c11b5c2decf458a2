package builtins

import (
	"errors"
	"strconv"
)

var _ = register(Builtin{Name: "newgrp", Summary: "log in to a new group", Run: newgrpCmd})

// newgrpCmd is shadow's newgrp, a program on a GNU system (type newgrp:
// /usr/bin/newgrp): llmsh's one user has one group, llmsh, so no new
// shell is ever started. Another group does not exist, in shadow's words;
// a bad option is its usage line.
func newgrpCmd(env *Env) int {
	f := NewFlags(env, "Change the current group ID during a login session.\n\n"+
		"llmsh's one user has one group, "+VirtualUser+" (gid "+strconv.Itoa(VirtualGID)+"): no new shell is started.",
		"[-] [group]")
	f.Bool('l', "", "same as -: a login shell")
	version := versionOption(f)
	args, err := f.Parse(env.Args[1:])
	if errors.Is(err, ErrHelp) {
		return f.Fail(err, 1)
	}
	if err != nil {
		env.Stderr.Write([]byte("Usage: newgrp [-] [group]\n"))
		return 1
	}
	if *version {
		return printVersion(env)
	}
	if len(args) > 0 && args[0] == "-" {
		args = args[1:]
	}
	if len(args) > 0 && args[0] != VirtualUser && args[0] != strconv.Itoa(VirtualGID) {
		env.Errorf("group '%s' does not exist", args[0])
		return 1
	}
	env.Errorf("cannot start a new shell: llmsh's group is %s already", VirtualUser)
	return 1
}
