package builtins

var _ = register(Builtin{Name: "hostname", Summary: "show the system's host name (llmsh's virtual name)", Run: hostnameCmd})

// hostnameCmd prints llmsh's virtual host name. It has no domain and no
// addresses, and it cannot be changed: llmsh never reads or sets the
// host's.
func hostnameCmd(env *Env) int {
	f := NewFlags(env, "Show the system's host name: llmsh's virtual name, "+VirtualHostname+", never the host's.\n"+
		"It has no DNS domain, alias or address, and cannot be set.", "[-a|-A|-d|-f|-i|-I|-s|-y]")
	name := VirtualHostname
	empty := func(string, bool) error { name = ""; return nil }
	full := func(string, bool) error { name = VirtualHostname; return nil }
	f.Func('a', "alias", NoArg, "", "alias names (none)", empty)
	f.Func('A', "all-fqdns", NoArg, "", "all long host names (FQDNs)", full)
	f.Func('d', "domain", NoArg, "", "DNS domain name (none)", empty)
	f.Func('f', "fqdn", NoArg, "", "long host name (FQDN)", full)
	f.Func(0, "long", NoArg, "", "", full)
	f.Func('i', "ip-address", NoArg, "", "addresses for the host name (none)", empty)
	f.Func('I', "all-ip-addresses", NoArg, "", "all addresses for the host (none)", empty)
	f.Func('s', "short", NoArg, "", "short host name", full)
	f.Func('y', "yp", NoArg, "", "NIS/YP domain name (none)", empty)
	f.Func(0, "nis", NoArg, "", "", empty)
	version := f.Bool('V', "version", "print version information and exit")
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if len(operands) > 0 {
		env.Errorf("you must be root to change the host name")
		return 1
	}
	w := stdoutWriter(env)
	w.WriteString(name + "\n")
	return finishOutput(env, w, 0)
}

var _ = register(Builtin{Name: "hostid", Summary: "print the numeric identifier for the current host", Run: hostidCmd})

// VirtualHostID is hostid's answer: what glibc derives for a host whose
// name resolves to 127.0.1.1, as Debian's does; never the host's.
const VirtualHostID = "007f0101"

func hostidCmd(env *Env) int {
	return printFixed(env, "Print the numeric identifier (in hexadecimal) for the current host.\n\n"+
		"In llmsh that is always "+VirtualHostID+".", "[OPTION]", VirtualHostID)
}
