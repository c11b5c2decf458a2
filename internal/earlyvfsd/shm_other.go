//go:build !linux

package earlyvfsd

import "os"

// ShmSize is the size of the read_shm region (none here).
const ShmSize = 8 << 20

// NewShm makes no read_shm region where memfd seals do not exist.
func NewShm() (*os.File, []byte) { return nil, nil }

// UnmapShm does nothing here.
func UnmapShm(mem []byte) {}
