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
// it); 0 where it is not known here.
var sysMemfdCreate = map[string]uintptr{
	"amd64": 319, "386": 356, "arm": 385, "arm64": 279, "riscv64": 279, "loong64": 279,
	"ppc64": 360, "ppc64le": 360, "s390x": 350, "mips64": 5314, "mips64le": 5314,
	"mips": 4354, "mipsle": 4354,
}[runtime.GOARCH]

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
	if sysMemfdCreate == 0 {
		return -1, syscall.ENOSYS
	}
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return -1, err
	}
	fd, _, errno := syscall.Syscall(sysMemfdCreate, uintptr(unsafe.Pointer(p)), uintptr(flags), 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}
