package earlyvfsd

import (
	"os"
	"syscall"
)

// start runs this executable in server mode with argv, in the working
// directory and a process group of its own (VfsdAttr), over a pipe pair,
// with ChildEnv, a pipe for its stderr (Take's caller passes it on where
// it wants), and a read_shm region where the kernel has sealed memory
// files.
func start(argv []string) (*Proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var wd syscall.Stat_t
	if err := syscall.Stat(".", &wd); err != nil {
		return nil, err
	}
	var req, resp, errp [2]int
	if err := syscall.Pipe2(req[:], syscall.O_CLOEXEC); err != nil {
		return nil, err
	}
	if err := syscall.Pipe2(resp[:], syscall.O_CLOEXEC); err != nil {
		syscall.Close(req[0])
		syscall.Close(req[1])
		return nil, err
	}
	if err := syscall.Pipe2(errp[:], syscall.O_CLOEXEC); err != nil {
		for _, fd := range []int{req[0], req[1], resp[0], resp[1]} {
			syscall.Close(fd)
		}
		return nil, err
	}
	full := append([]string{self, ServerModeArg}, argv...)
	files := []uintptr{uintptr(req[0]), uintptr(resp[1]), uintptr(errp[1])}
	shmFile, shm := NewShm()
	if shmFile != nil {
		files = append(files, shmFile.Fd())
		full = append(full, "--shm-fd", "3")
	}
	pid, err := syscall.ForkExec(self, full, &syscall.ProcAttr{Env: VfsdEnv(), Files: files, Sys: VfsdAttr()})
	syscall.Close(req[0])
	syscall.Close(resp[1])
	syscall.Close(errp[1])
	if shmFile != nil {
		shmFile.Close() // vfsd has its own; the mapping stays
	}
	if err != nil {
		syscall.Close(req[1])
		syscall.Close(resp[0])
		syscall.Close(errp[0])
		if shm != nil {
			UnmapShm(shm)
		}
		return nil, err
	}
	// Non-blocking, so that the os package polls them as it does the
	// pipes of os.Pipe (a Close then ends a Read waiting on another
	// goroutine).
	syscall.SetNonblock(req[1], true)
	syscall.SetNonblock(resp[0], true)
	syscall.SetNonblock(errp[0], true)
	return &Proc{
		Pid: pid, Argv: full[1:], Shm: shm, dev: uint64(wd.Dev), ino: uint64(wd.Ino),
		R: os.NewFile(uintptr(resp[0]), "vfsd-r"), W: os.NewFile(uintptr(req[1]), "vfsd-w"),
		Stderr: os.NewFile(uintptr(errp[0]), "vfsd-stderr"),
	}, nil
}
