package vfsd

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/llmsh/llmsh/vfsproto"
)

// F_GET_SEALS and the seals read_shm needs (fcntl.h; the syscall package
// lacks them).
const (
	fGetSeals  = 1034
	sealShrink = 0x2 // F_SEAL_SHRINK
	sealGrow   = 0x4 // F_SEAL_GROW
)

// MapShm maps the read_shm region that the process starting vfsd passed
// as descriptor fd (vfsd --shm-fd), and closes fd. The region must be
// shared memory (a memfd) sealed against shrinking and growing, so that
// no one can truncate it under vfsd's mapping (a write there would kill
// vfsd with SIGBUS), and its size a whole number of slots, at most
// MaxShmSlots.
func MapShm(fd int) ([]byte, error) {
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("--shm-fd %d: %w", fd, err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, fmt.Errorf("--shm-fd %d: not a memory file", fd)
	}
	seals, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), fGetSeals, 0)
	if errno != 0 {
		return nil, fmt.Errorf("--shm-fd %d: not a sealable memory file: %w", fd, errno)
	}
	if seals&(sealShrink|sealGrow) != sealShrink|sealGrow {
		return nil, errors.New("--shm-fd: the region must be sealed against shrinking and growing")
	}
	size := st.Size
	if size < vfsproto.ShmSlot || size > vfsproto.MaxShmSlots*vfsproto.ShmSlot || size%vfsproto.ShmSlot != 0 {
		return nil, fmt.Errorf("--shm-fd: size %d is not 1 to %d slots of %d bytes", size, vfsproto.MaxShmSlots, vfsproto.ShmSlot)
	}
	mem, err := syscall.Mmap(fd, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("--shm-fd: %w", err)
	}
	return mem, nil
}
