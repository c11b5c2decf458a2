package builtins

import "syscall"

// physMemory is the machine's physical memory in bytes (0 if unknown),
// for sort's default buffer and -S N%.
func physMemory() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}
