package vfsdproc

import (
	"os"

	"golang.org/x/sys/unix"

	"github.com/llmsh/llmsh/vfsproto"
)

// shmSlots is the size of the read_shm region llmsh gives vfsd, in slots
// (of vfsproto.ShmSlot bytes): two files read at once with a full window
// each. Pages cost memory only once vfsd has written to them.
const shmSlots = 8

// newShm makes the read_shm region: a memory file (no host file, no
// name in any file system) of shmSlots slots, sealed so that neither
// side can shrink or grow it, mapped shared. The file goes to vfsd as
// --shm-fd; the mapping stays here. It returns nil, nil, nil where the
// kernel cannot (no memfd or seals): vfsd then sends data on the pipe.
func newShm() (*os.File, []byte, error) {
	fd, err := unix.MemfdCreate("llmsh-read-shm", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, nil, nil
	}
	size := shmSlots * vfsproto.ShmSlot
	if err := unix.Ftruncate(fd, int64(size)); err != nil {
		unix.Close(fd)
		return nil, nil, nil
	}
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS, unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_SEAL); err != nil {
		unix.Close(fd)
		return nil, nil, nil
	}
	mem, err := unix.Mmap(fd, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		unix.Close(fd)
		return nil, nil, nil
	}
	return os.NewFile(uintptr(fd), "llmsh-read-shm"), mem, nil
}

// unmapShm unmaps a region of newShm.
func unmapShm(mem []byte) { unix.Munmap(mem) }
