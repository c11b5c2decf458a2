//go:build linux

package repl

import "golang.org/x/sys/unix"

// quietTerminal returns what turns the echo of the terminal fd off while
// a command's read -s reads it, as bash's read -s does (the terminal
// stays in its normal mode: line editing, Ctrl-C), and turns it back on.
func quietTerminal(fd int) func() (restore func()) {
	return func() func() {
		t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != nil {
			return func() {}
		}
		saved := *t
		t.Lflag &^= unix.ECHO
		if unix.IoctlSetTermios(fd, unix.TCSETS, t) != nil {
			return func() {}
		}
		return func() { _ = unix.IoctlSetTermios(fd, unix.TCSETS, &saved) }
	}
}
