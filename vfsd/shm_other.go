//go:build !linux

package vfsd

import (
	"errors"
	"syscall"
)

// MapShm reports that read_shm regions need Linux (memfd seals).
func MapShm(fd int) ([]byte, error) {
	syscall.Close(fd)
	return nil, errors.New("--shm-fd is only supported on Linux")
}
