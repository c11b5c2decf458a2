package builtins

import (
	"strings"
)

var _ = register(Builtin{Name: "uname", Summary: "print system information (llmsh's fixed virtual values)", Run: unameCmd})

// The system llmsh reports: fixed virtual values, never the host's.
const (
	VirtualHostname = "llmsh"
	virtualKernel   = "Linux"
	virtualRelease  = "6.1.0-llmsh"
	virtualVersion  = "#1 SMP PREEMPT_DYNAMIC llmsh"
	virtualMachine  = "x86_64"
	virtualOS       = "GNU/Linux"
)

func unameCmd(env *Env) int {
	f := NewFlags(env, "Print certain system information.  With no OPTION, same as -s.\n"+
		"llmsh reports fixed virtual values, never the host's.", "[OPTION]...")
	var want [8]bool // s n r v m p i o
	all := false
	f.Func('a', "all", NoArg, "", "print all information, in the following order,\n                             except omit -p and -i if unknown:", func(string, bool) error { all = true; return nil })
	for i, o := range []struct {
		short      rune
		long, help string
	}{
		{'s', "kernel-name", "print the kernel name"},
		{'n', "nodename", "print the network node hostname"},
		{'r', "kernel-release", "print the kernel release"},
		{'v', "kernel-version", "print the kernel version"},
		{'m', "machine", "print the machine hardware name"},
		{'p', "processor", "print the processor type (non-portable)"},
		{'i', "hardware-platform", "print the hardware platform (non-portable)"},
		{'o', "operating-system", "print the operating system"},
	} {
		i := i
		f.Func(o.short, o.long, NoArg, "", o.help, func(string, bool) error { want[i] = true; return nil })
	}
	version := versionOption(f)
	operands, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if len(operands) > 0 {
		return f.Fail(&UsageError{"extra operand " + env.Quote(operands[0])}, 1)
	}
	values := [8]string{virtualKernel, VirtualHostname, virtualRelease, virtualVersion, virtualMachine, "unknown", "unknown", virtualOS}
	var out []string
	any := false
	for i, w := range want {
		any = any || w
		// -a omits -p and -i when they are unknown, as GNU does.
		if w || all && values[i] != "unknown" {
			out = append(out, values[i])
		}
	}
	if !any && !all {
		out = []string{values[0]}
	}
	w := stdoutWriter(env)
	w.WriteString(strings.Join(out, " ") + "\n")
	return finishOutput(env, w, 0)
}

var _ = register(Builtin{Name: "arch", Summary: "print machine hardware name (same as uname -m)", Run: archCmd})

func archCmd(env *Env) int {
	return printFixed(env, "Print machine architecture.\n\nIn llmsh that is always "+virtualMachine+", as uname -m says.", "[OPTION]...", virtualMachine)
}
