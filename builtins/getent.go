package builtins

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/llmsh/llmsh/vfsproto"
)

var _ = register(Builtin{Name: "getent", Summary: "get entries from administrative database (llmsh's own: its one user and group)", Run: getentCmd})

// getentShell is the login shell of llmsh's user: the shell's own $SHELL
// (shell/shell.go), so that getent and the variable agree.
const getentShell = "llmsh"

// getentDatabases are glibc 2.36's databases, in getent's order.
var getentDatabases = []string{"ahosts", "ahostsv4", "ahostsv6", "aliases", "ethers", "group", "gshadow", "hosts",
	"initgroups", "netgroup", "networks", "passwd", "protocols", "rpc", "services", "shadow"}

// getentCmd is glibc 2.36's getent over what llmsh has: a system whose
// user database holds one user and one group, llmsh (uid and gid 1000,
// home /home/llmsh, $SHELL's shell), and no other file of /etc, no
// network and no name service. So `getent passwd`, `group`, `initgroups`
// answer for llmsh as glibc would from such files; shadow and gshadow
// show nothing (llmsh is not root: glibc cannot read them); every host,
// service, protocol, network, rpc, ethers and aliases key is not found
// (status 2) and their listings are empty, as on a system without those
// files or a resolver. Messages, options (-A, -i, -s CONFIG, --usage)
// and statuses are glibc's: 1 for an unknown database or a missing one,
// 2 when a key is not found, 3 for a listing the database does not
// support, 64 for a bad option.
func getentCmd(env *Env) int {
	f := NewFlags(env, "Get entries from administrative database.\n\nllmsh's databases hold its one user and group, llmsh (uid and gid "+strconv.Itoa(VirtualUID)+");\nit has no other file of /etc, no network and no name service: hosts,\nservices and the others find nothing.", "[OPTION...] database [key ...]")
	f.Bool('A', "no-addrconfig", "do not filter out unsupported IPv4/IPv6 addresses\n(with ahosts*)")
	f.Bool('i', "no-idn", "disable IDN encoding")
	service, _ := f.String('s', "service", "CONFIG", "Service configuration to be used")
	usage := f.Bool(0, "usage", "Give a short usage message")
	version := f.Bool('V', "version", "Print program version")
	f.HelpShort = '?'
	f.Func('?', "", NoArg, "", "", func(string, bool) error { return ErrHelp })
	f.SetOrder("no-idn no-addrconfig")
	args, err := f.Parse(env.Args[1:])
	if err != nil {
		if msg, ok := usageMessage(err); ok {
			return getentUsageError(env, "getent: "+msg, 64)
		}
		return f.Fail(err, 64)
	}
	switch {
	case *usage:
		fmt.Fprint(env.Stdout, "Usage: getent [-Ai?V] [-s CONFIG] [--no-addrconfig] [--no-idn]\n            [--service=CONFIG] [--help] [--usage] [--version]\n            database [key ...]\n")
		return 0
	case *version:
		return printVersion(env)
	case len(args) == 0:
		return getentUsageError(env, "getent: wrong number of arguments", 1)
	}
	db, keys := args[0], args[1:]
	found := false
	for _, d := range getentDatabases {
		found = found || d == db
	}
	if !found {
		return getentUsageError(env, "Unknown database: "+db, 1)
	}
	answers := true // the service configuration reaches llmsh's files
	if *service != "" {
		cfg := *service
		if d, s, ok := strings.Cut(cfg, ":"); ok {
			if !slices.Contains(getentDatabases, d) {
				env.Errorf("Unknown database name")
				return 1
			}
			if d != db {
				s = "files"
			}
			cfg = s
		}
		answers = slices.Contains(strings.Fields(cfg), "files") || slices.Contains(strings.Fields(cfg), "compat")
	}
	return getentLookup(env, db, keys, answers)
}

// getentUsageError is argp's report of a bad command line.
func getentUsageError(env *Env, msg string, status int) int {
	fmt.Fprintf(env.Stderr, "%s\nTry `getent --help' or `getent --usage' for more information.\n", msg)
	return status
}

// getentLookup lists db (no keys) or looks each key up: llmsh's user and
// group when answers, nothing else.
func getentLookup(env *Env, db string, keys []string, answers bool) int {
	user := fmt.Sprintf("%s:x:%d:%d::%s:%s\n", VirtualUser, VirtualUID, VirtualGID, vfsproto.HomeDir, getentShell)
	group := fmt.Sprintf("%s:x:%d:\n", VirtualUser, VirtualGID)
	if len(keys) == 0 {
		switch db {
		case "initgroups", "netgroup":
			fmt.Fprintf(env.Stdout, "Enumeration not supported on %s\n", db)
			return 3
		case "passwd":
			if answers {
				fmt.Fprint(env.Stdout, user)
			}
		case "group":
			if answers {
				fmt.Fprint(env.Stdout, group)
			}
		}
		return 0
	}
	w := stdoutWriter(env)
	status := 0
	for _, k := range keys {
		switch {
		case db == "initgroups":
			// the groups k is a member of besides its own: none
			fmt.Fprintf(w, "%-21s\n", k)
		case db == "netgroup" && len(keys) > 1:
			// glibc's innetgr(NETGROUP, HOST, USER, DOMAIN): no netgroup
			return finishOutput(env, w, 0)
		case answers && db == "passwd" && getentMatch(k, VirtualUser, VirtualUID):
			w.WriteString(user)
		case answers && db == "group" && getentMatch(k, VirtualUser, VirtualGID):
			w.WriteString(group)
		default:
			status = 2
		}
	}
	return finishOutput(env, w, status)
}

// getentMatch is glibc getent's choice between a name and an id: a key
// strtoul reads whole is an id (its value as an id_t: "-4294966296" is
// 1000), anything else a name.
func getentMatch(key, name string, id int) bool {
	s := strings.TrimLeft(key, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return key == name
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return false // ULONG_MAX: no id
	}
	if neg {
		v = -v
	}
	return uint32(v) == uint32(id)
}
