// Copyright (c) 2026, the llmsh authors.
// See LICENSE for licensing information

package interp

// umask and ulimit. The mask is the shell's own (never the process's): it
// is copied to subshells, applied to the mode of the files that
// redirections create (the open handler's perm) and given to handlers in
// [HandlerContext.Umask]. ulimit shows the limits of the session, which
// [Ulimit] sets, and refuses to change them. See LLMSH.md.

import (
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
)

const defaultUmask fs.FileMode = 0o022

// createMode is the mode of a file that a redirection creates: 0666
// less the shell's mask, as bash creates them.
func (r *Runner) createMode() fs.FileMode { return 0o666 &^ r.umask }

// Umask returns the runner's file mode creation mask.
func (r *Runner) Umask() fs.FileMode { return r.umask }

// StartUmask makes mask the file mode creation mask the shell starts
// with, and Reset gives back (llmsh: a nested shell's is its parent's,
// as bash's is the process's it inherits; 022 otherwise).
func StartUmask(mask fs.FileMode) RunnerOption {
	return func(r *Runner) error {
		r.llmsh.entryUmask = mask & 0o777
		r.umask = r.llmsh.entryUmask
		return nil
	}
}

func umaskSymbolic(mask fs.FileMode) string {
	perm := 0o777 &^ mask
	var sb strings.Builder
	for i, who := range []string{"u", "g", "o"} {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(who + "=")
		bits := perm >> (6 - 3*i) & 7
		for j, c := range "rwx" {
			if bits&(4>>j) != 0 {
				sb.WriteRune(c)
			}
		}
	}
	return sb.String()
}

// parseSymbolicUmask applies a symbolic mode (u=rwx,g+w,o-x) to the
// permissions that mask leaves, as bash's umask does.
func parseSymbolicUmask(mask fs.FileMode, s string) (fs.FileMode, string) {
	perm := 0o777 &^ mask
	for _, clause := range strings.Split(s, ",") {
		i := 0
		var who fs.FileMode
		for ; i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0; i++ {
			switch clause[i] {
			case 'u':
				who |= 0o700
			case 'g':
				who |= 0o070
			case 'o':
				who |= 0o007
			case 'a':
				who |= 0o777
			}
		}
		if who == 0 {
			who = 0o777
		}
		if i >= len(clause) {
			return 0, "`" + clause[len(clause)-min(len(clause), 1):] + "': invalid symbolic mode operator"
		}
		op := clause[i]
		if op != '=' && op != '+' && op != '-' {
			return 0, "`" + string(op) + "': invalid symbolic mode operator"
		}
		var bits fs.FileMode
		for _, c := range clause[i+1:] {
			switch c {
			case 'r':
				bits |= 0o444
			case 'w':
				bits |= 0o222
			case 'x':
				bits |= 0o111
			default:
				return 0, "`" + string(c) + "': invalid symbolic mode character"
			}
		}
		bits &= who
		switch op {
		case '=':
			perm = perm&^who | bits
		case '+':
			perm |= bits
		case '-':
			perm &^= bits
		}
	}
	return 0o777 &^ perm, ""
}

// builtinUmask is the umask builtin: umask [-p] [-S] [mode].
func (r *Runner) builtinUmask(args []string) exitStatus {
	var exit exitStatus
	print, symbolic := false, false
	fp := flagParser{remaining: args}
	for fp.more() {
		switch flag := fp.flag(); flag {
		case "-p":
			print = true
		case "-S":
			symbolic = true
		default:
			r.errf("%sumask: %s: invalid option\n", r.errPrefix(), flag)
			r.errf("umask: usage: umask [-p] [-S] [mode]\n")
			exit.code = 2
			return exit
		}
	}
	args = fp.args()
	if len(args) == 0 {
		prefix := ""
		if print {
			prefix = "umask "
			if symbolic {
				prefix += "-S "
			}
		}
		if symbolic {
			r.outf("%s%s\n", prefix, umaskSymbolic(r.umask))
		} else {
			r.outf("%s%04o\n", prefix, uint32(r.umask))
		}
		return exit
	}
	m := args[0]
	if m == "" { // llmsh: bash reads the string's NUL as the operator
		r.errf("%sumask: `\x00': invalid symbolic mode operator\n", r.errPrefix())
		exit.code = 1
		return exit
	}
	if m[0] >= '0' && m[0] <= '9' {
		n, err := strconv.ParseUint(m, 8, 32)
		if err != nil || n > 0o7777 {
			r.errf("%sumask: %s: octal number out of range\n", r.errPrefix(), m)
			exit.code = 1
			return exit
		}
		r.umask = fs.FileMode(n) & 0o777
	} else {
		mask, msg := parseSymbolicUmask(r.umask, m)
		if msg != "" {
			r.errf("%sumask: %s\n", r.errPrefix(), msg)
			exit.code = 1
			return exit
		}
		r.umask = mask
	}
	if symbolic {
		r.outf("%s\n", umaskSymbolic(r.umask))
	}
	return exit
}

// A ulimit resource as bash lists it.
type ulimitResource struct {
	flag  byte
	name  string
	unit  string
	value int64 // -1: unlimited
}

// ulimitDefaults are the limits ulimit shows unless [Ulimit] says
// otherwise: bash's list, with the values of a fresh Linux session.
var ulimitDefaults = []ulimitResource{
	{'R', "real-time non-blocking time", "microseconds", -1},
	{'c', "core file size", "blocks", 0},
	{'d', "data seg size", "kbytes", -1},
	{'e', "scheduling priority", "", 0},
	{'f', "file size", "blocks", -1},
	{'i', "pending signals", "", -1},
	{'l', "max locked memory", "kbytes", 8192},
	{'m', "max memory size", "kbytes", -1},
	{'n', "open files", "", 1024},
	{'p', "pipe size", "512 bytes", 8},
	{'q', "POSIX message queues", "bytes", 819200},
	{'r', "real-time priority", "", 0},
	{'s', "stack size", "kbytes", 8192},
	{'t', "cpu time", "seconds", -1},
	{'u', "max user processes", "", -1},
	{'v', "virtual memory", "kbytes", -1},
	{'x', "file locks", "", -1},
}

// ulimitNumber reads a limit as bash's ulimit does: its digits into an
// unsigned 64-bit number that wraps past 2^64 (99999999999999999999 is a
// large limit, 18446744073709551616 is 0), in the resource's unit (a
// block of 1024 or 512 bytes), which must not overflow (inRange). A
// number past 2^63 is returned as the largest int64. ok is false for
// anything but digits.
func ulimitNumber(value string, res ulimitResource) (n int64, ok, inRange bool) {
	if value == "" || strings.Trim(value, "0123456789") != "" {
		return 0, false, true
	}
	var u uint64
	for _, c := range []byte(value) {
		u = u*10 + uint64(c-'0')
	}
	factor := uint64(1)
	switch res.unit {
	case "blocks", "kbytes":
		factor = 1024
	case "512 bytes":
		factor = 512
	}
	if u*factor/factor != u {
		return 0, true, false
	}
	if u > math.MaxInt64 {
		return math.MaxInt64, true, true
	}
	return int64(u), true, true
}

// Ulimit sets the value that ulimit shows for the resource of flag (as
// in `ulimit -u`): the limits of the session, which a script can read and
// cannot raise. -1 is unlimited. Other resources show bash's defaults.
func Ulimit(flag byte, value int64) RunnerOption {
	return func(r *Runner) error {
		for _, res := range ulimitDefaults {
			if res.flag == flag {
				if r.llmsh.ulimits == nil {
					r.llmsh.ulimits = make(map[byte]int64)
				}
				r.llmsh.ulimits[flag] = value
				return nil
			}
		}
		return fmt.Errorf("ulimit: no resource -%c", flag)
	}
}

// UlimitFunc makes the embedder keep the limit of the resource of flag:
// fn(-1) returns it (in the resource's unit; -1 is unlimited) and fn(n),
// n >= 0, lowers it to n and returns it. ulimit shows it and lowers it,
// never raises it. llmsh's ulimit -f is its write budget.
func UlimitFunc(flag byte, fn func(lower int64) (int64, error)) RunnerOption {
	return func(r *Runner) error {
		if r.llmsh.ulimitFns == nil {
			r.llmsh.ulimitFns = make(map[byte]func(int64) (int64, error))
		}
		r.llmsh.ulimitFns[flag] = fn
		return nil
	}
}

func (r *Runner) ulimitValue(res ulimitResource) string {
	v := res.value
	if lv, ok := r.llmsh.ulimits[res.flag]; ok {
		v = lv
	}
	if fn := r.llmsh.ulimitFns[res.flag]; fn != nil {
		if lv, err := fn(-1); err == nil {
			v = lv
		}
	}
	if v < 0 {
		return "unlimited"
	}
	return strconv.FormatInt(v, 10)
}

// ulimitLine is a line of ulimit -a, in bash's columns.
func (r *Runner) ulimitLine(res ulimitResource) string {
	opt := "(-" + string(res.flag) + ") "
	if res.unit != "" {
		opt = "(" + res.unit + ", -" + string(res.flag) + ") "
	}
	return fmt.Sprintf("%-20s %20s%s\n", res.name, opt, r.ulimitValue(res))
}

// builtinUlimit is ulimit: it prints the session's limits (-a, or those
// asked for; -f without a flag) and refuses to change any of them, as
// bash refuses to raise a hard limit; a value equal to the limit is
// accepted.
func (r *Runner) builtinUlimit(args []string) exitStatus {
	var exit exitStatus
	all := false
	var asked []ulimitResource
	var value string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			value = a // llmsh: bash ignores the words after it
			break
		}
		if a == "--" {
			continue
		}
		for _, c := range a[1:] {
			switch c {
			case 'a':
				all = true
			case 'H', 'S':
			default:
				found := false
				for _, res := range ulimitDefaults {
					if rune(res.flag) == c {
						asked, found = append(asked, res), true
					}
				}
				if !found {
					r.errf("%sulimit: -%c: invalid option\n", r.errPrefix(), c)
					r.errf("ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n")
					exit.code = 2
					return exit
				}
			}
		}
	}
	if all {
		for _, res := range ulimitDefaults {
			r.outf("%s", r.ulimitLine(res))
		}
		return exit
	}
	if len(asked) == 0 {
		asked = ulimitDefaults[4:5] // -f
	}
	if value == "" {
		for _, res := range asked {
			if len(asked) > 1 {
				r.outf("%s", r.ulimitLine(res))
				continue
			}
			r.outf("%s\n", r.ulimitValue(asked[0]))
		}
		return exit
	}
	for _, res := range asked {
		cur := r.ulimitValue(res)
		if value == cur || (value == "hard" || value == "soft") {
			continue
		}
		n, ok, inRange := ulimitNumber(value, res)
		if !ok && value != "unlimited" {
			r.errf("%sulimit: %s: %s\n", r.errPrefix(), value, invalidNum(value))
			exit.code = 1
			return exit
		}
		if !inRange {
			r.errf("%sulimit: %s: limit out of range\n", r.errPrefix(), value)
			exit.code = 1
			return exit
		}
		if fn := r.llmsh.ulimitFns[res.flag]; fn != nil && value != "unlimited" {
			// Lowered, never raised, as a hard limit.
			if limit, err := fn(-1); err == nil && (limit < 0 || n <= limit) {
				if _, err := fn(n); err == nil {
					continue
				}
			}
		}
		r.errf("%sulimit: %s: cannot modify limit: Operation not permitted\n", r.errPrefix(), res.name)
		exit.code = 1
	}
	return exit
}
