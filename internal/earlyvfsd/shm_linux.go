package earlyvfsd

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// ShmSize is the size of the read_shm region llmsh gives vfsd: eight
// slots of vfsproto.ShmSlot (1 MiB), two files read at once with a full
// window each. Pages cost memory only once vfsd has written to them.
const ShmSize = 8 << 20

const (
	mfdCloexec      = 0x1
	mfdAllowSealing = 0x2
	fAddSeals       = 1033
	sealSeal        = 0x1
	sealShrink      = 0x2
	sealGrow        = 0x4
)

// sysMemfdCreate is memfd_create's number (the syscall package predates
// it); 0 where it is not known here. A switch on the constant GOARCH, not
// a map built in package init, which runs at every start of llmsh and of
// its vfsd.
func sysMemfdCreate() uintptr {
	switch runtime.GOARCH {
	case "amd64":
		return 319
	case "386":
		return 356
	case "arm":
		return 385
	case "arm64", "riscv64", "loong64":
		return 279
	case "ppc64", "ppc64le":
		return 360
	case "s390x":
		return 350
	case "mips64", "mips64le":
		return 5314
	case "mips", "mipsle":
		return 4354
	}
	return 0
}

// NewShm makes the read_shm region: a memory file (no host file, no name
// in any file system) of ShmSize bytes, sealed so that neither side can
// shrink or grow it, mapped shared. The file goes to vfsd as --shm-fd; the
// mapping stays here. It returns nil, nil where the kernel cannot (no
// memfd or seals): vfsd then sends data on the pipe.
func NewShm() (*os.File, []byte) {
	fd, err := memfdCreate("llmsh-read-shm", mfdCloexec|mfdAllowSealing)
	if err != nil {
		return nil, nil
	}
	if err := syscall.Ftruncate(fd, ShmSize); err != nil {
		syscall.Close(fd)
		return nil, nil
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), fAddSeals, sealShrink|sealGrow|sealSeal); errno != 0 {
		syscall.Close(fd)
		return nil, nil
	}
	mem, err := syscall.Mmap(fd, 0, ShmSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		syscall.Close(fd)
		return nil, nil
	}
	return os.NewFile(uintptr(fd), "llmsh-read-shm"), mem
}

// UnmapShm unmaps a region of NewShm.
func UnmapShm(mem []byte) { syscall.Munmap(mem) }

func memfdCreate(name string, flags int) (int, error) {
	if sysMemfdCreate() == 0 {
		return -1, syscall.ENOSYS
	}
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return -1, err
	}
	fd, _, errno := syscall.Syscall(sysMemfdCreate(), uintptr(unsafe.Pointer(p)), uintptr(flags), 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}
