//go:build unix

package earlyvfsd

import "syscall"

// VfsdAttr puts vfsd in a process group of its own, so that the keys of
// llmsh's terminal (Ctrl-C, Ctrl-Z, Ctrl-\), which signal the terminal's
// foreground process group, never reach it: in llmsh's group, a Ctrl-C
// that came before vfsd's Go runtime had started and ignored SIGINT
// (vfsdmode.Serve) ended it, and llmsh then said "vfsd exited
// unexpectedly" (session 29, shell/repl's TestCtrlCInterruptsCommand
// under load). vfsd still ends with llmsh: its requests' end of file.
func VfsdAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
