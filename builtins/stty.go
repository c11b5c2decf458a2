package builtins

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/term"
)

var _ = register(Builtin{Name: "stty", Summary: "print or change terminal characteristics (llmsh: a script has no terminal)", Run: sttyCmd})

// sttyModes are GNU stty's mode names: "-" before one negates it, but
// for those marked with a leading '=' (no negation).
var sttyModes = strings.Fields(`parenb parodd cmspar =cs5 =cs6 =cs7 =cs8 hupcl hup cstopb cread clocal
crtscts ignbrk brkint ignpar parmrk inpck istrip inlcr igncr icrnl ixon ixoff tandem iuclc ixany
imaxbel iutf8 opost olcuc ocrnl onlcr onocr onlret ofill ofdel =nl0 =nl1 =cr0 =cr1 =cr2 =cr3 =tab0
=tab1 =tab2 =tab3 =bs0 =bs1 =vt0 =vt1 =ff0 =ff1 isig icanon iexten echo echoe crterase echok echonl
noflsh xcase tostop echoprt prterase echoctl ctlecho echoke crtkill flusho extproc evenp parity oddp
nl =ek =sane cooked raw pass8 litout cbreak decctlq tabs lcase LCASE =crt =dec drain`)

// sttyArgSettings take the argument after them.
var sttyArgSettings = strings.Fields(`intr quit erase kill eof eol eol2 swtch start stop susp rprnt
werase lnext discard min time ispeed ospeed rows cols columns line`)

// sttySpeeds are the speeds a bare number (or speed's argument) may be.
var sttySpeeds = strings.Fields(`0 50 75 110 134 134.5 150 200 300 600 1200 1800 2400 4800 9600 19200
38400 57600 115200 230400 460800 500000 576000 921600 1000000 1152000 1500000 2000000 2500000
3000000 3500000 4000000 exta extb`)

// sttyCmd is GNU stty 9.1 as far as a script can use it: a script's
// standard input is never a terminal (llmsh runs no terminal for it), so
// after checking its arguments as GNU's does, stty fails with GNU's
// words for that ("'standard input': Inappropriate ioctl for device").
// At llmsh's own prompt, on a terminal, `stty size` prints its size;
// llmsh does not show or change the terminal's other settings.
func sttyCmd(env *Env) int {
	f := NewFlags(env, "Print or change terminal characteristics.\n\n"+
		"llmsh: a script's standard input is never a terminal, so stty fails as GNU's does\n"+
		"there (\"Inappropriate ioctl for device\"); at llmsh's prompt `stty size` prints the\n"+
		"terminal's size, and the other settings are neither shown nor changed.",
		"[-F DEVICE | --file=DEVICE] [SETTING]...", "[-F DEVICE | --file=DEVICE] [-a|--all]", "[-F DEVICE | --file=DEVICE] [-g|--save]")
	f.Bool('a', "all", "print all current settings in human-readable form")
	f.Bool('g', "save", "print all current settings in a stty-readable form")
	f.String('F', "file", "DEVICE", "open and use the specified DEVICE instead of stdin")
	o := sttyParse(env.Args[1:])
	switch {
	case o.help:
		return f.Fail(ErrHelp, 0)
	case o.version:
		return printVersion(env)
	}
	all, save, settings := &o.all, &o.save, o.settings
	if *all && *save {
		env.Errorf("the options for verbose and stty-readable output styles are\nmutually exclusive")
		return 1
	}
	if (*all || *save) && len(settings) > 0 {
		env.Errorf("when specifying an output style, modes may not be set")
		return 1
	}
	if msg := sttyCheck(env, settings); msg != "" {
		return f.Fail(&UsageError{msg}, 1)
	}
	if o.fileSet {
		return sttyDevice(env, o.file)
	}
	if IsTerminal(env.Stdin) && len(settings) == 1 && settings[0] == "size" {
		if fd, ok := sttyFd(env.Stdin); ok {
			if w, h, err := term.GetSize(fd); err == nil {
				fmt.Fprintf(env.Stdout, "%d %d\n", h, w)
				return 0
			}
		}
	}
	if IsTerminal(env.Stdin) {
		env.Errorf("llmsh does not show or change the terminal's settings")
		return 1
	}
	env.Errorf("%s: %s", env.Quote("standard input"), ErrText(syscall.ENOTTY))
	return 1
}

// sttyOpts are stty's options and settings.
type sttyOpts struct {
	all, save, fileSet, help, version bool
	file                              string
	settings                          []string
}

// sttyParse reads the arguments as GNU's stty: its options (-a, -g, -F,
// --all, --save, --file and their prefixes, --help, --version) wherever
// they are; every other argument is a setting (-echo, --foo), checked
// later.
func sttyParse(args []string) sttyOpts {
	var o sttyOpts
	long := func(a, name string) bool { return len(a) > 2 && strings.HasPrefix("--"+name, a) }
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			o.settings = append(o.settings, args[i+1:]...)
			return o
		case a == "--help":
			o.help = true
		case a == "--version":
			o.version = true
		case a == "-a", long(a, "all"):
			o.all = true
		case a == "-g", long(a, "save"):
			o.save = true
		case a == "-ag", a == "-ga":
			o.all, o.save = true, true
		case strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--fil=") || strings.HasPrefix(a, "--fi="):
			_, o.file, _ = strings.Cut(a, "=")
			o.fileSet = true
		case (a == "-F" || long(a, "file")) && i+1 < len(args):
			i++
			o.file, o.fileSet = args[i], true
		case strings.HasPrefix(a, "-F") && len(a) > 2:
			o.file, o.fileSet = a[2:], true
		default:
			o.settings = append(o.settings, a)
		}
	}
	return o
}

// sttyCheck is GNU's first pass over the settings: an unknown one, or
// one missing its argument, is a usage error.
func sttyCheck(env *Env, settings []string) string {
	for i := 0; i < len(settings); i++ {
		s := settings[i]
		if slices.Contains(sttyArgSettings, s) {
			if i+1 >= len(settings) {
				return "missing argument to " + env.Quote(s)
			}
			i++
			continue
		}
		switch {
		case s == "size", s == "speed":
			continue
		case slices.Contains(sttyModes, s), slices.Contains(sttyModes, "="+s), slices.Contains(sttySpeeds, s):
			continue
		case strings.HasPrefix(s, "-") && slices.Contains(sttyModes, s[1:]):
			continue
		}
		return "invalid argument " + env.Quote(s)
	}
	return ""
}

// sttyDevice is -F DEVICE: a file that is there is no terminal. A
// directory is one too: GNU stty opens it read-only (Linux allows it)
// and its ioctl fails ("Inappropriate ioctl for device"), where llmsh's
// open of a directory fails first with "Is a directory".
func sttyDevice(env *Env, name string) int {
	r, err := env.Open(name)
	if err == nil {
		r.Close()
		err = syscall.ENOTTY
	} else if errors.Is(err, syscall.EISDIR) {
		err = syscall.ENOTTY
	}
	env.Errorf("%s: %s", name, ErrText(err))
	return 1
}

// sttyFd is the descriptor of a terminal standard input.
func sttyFd(v any) (int, bool) {
	sc, ok := v.(syscall.Conn)
	if !ok {
		return 0, false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, false
	}
	fd := -1
	rc.Control(func(u uintptr) { fd = int(u) })
	return fd, fd >= 0
}
