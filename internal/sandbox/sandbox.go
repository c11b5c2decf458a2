// Package sandbox is llmsh's Landlock layer: the kernel-enforced defence
// in depth under vfsd's allowlists and llmsh's handlers. Every call is best
// effort: on a kernel without Landlock it restricts nothing and says so
// through the ABI version it returns (0).
package sandbox

import (
	"os"
	"path/filepath"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// ABI returns the kernel's Landlock ABI version, 0 if it has none.
func ABI() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// RestrictSelf forbids every thread of this process any file system access
// and TCP bind/connect from now on. Descriptors already open keep working.
// One layer handles both (not RestrictPaths then RestrictNet): each layer
// costs a prctl and a landlock_restrict_self on every thread, which
// without the kernel's TSYNC flag means signalling each thread and
// waiting for it (psx). IPC scopes stay open: llmsh signals vfsd, which
// is outside its domain.
func RestrictSelf() error {
	c := landlock.V8
	c.Scoped = 0
	return c.BestEffort().Restrict()
}

// The rights vfsd keeps: reading, and under -o making and removing regular
// files and directories, truncating and renaming. Never executing a file,
// and never making a symlink, device, fifo or socket.
const (
	readFile = landlock.AccessFSSet(llsys.AccessFSReadFile)
	readDir  = readFile | landlock.AccessFSSet(llsys.AccessFSReadDir)
	writeDir = readDir | landlock.AccessFSSet(llsys.AccessFSWriteFile|llsys.AccessFSRemoveDir|
		llsys.AccessFSRemoveFile|llsys.AccessFSMakeDir|llsys.AccessFSMakeReg|
		llsys.AccessFSRefer|llsys.AccessFSTruncate)
)

// RestrictToGrants limits this process to vfsd's allowlists: reading under
// each readable path, reading and writing under each writable one, no
// execution anywhere, and no TCP. Relative paths are taken from the working directory. A writable
// file grants its parent directory at this layer, because vfsd's atomic
// writes put a temporary file beside the target and rename it over; vfsd's
// own policy still confines the client to the file itself. Paths that do
// not exist, or are neither directories nor regular files, grant nothing here (vfsd cannot create a grant's root either).
// vfsd also loses signals and abstract sockets to processes outside it.
func RestrictToGrants(readable, writable []string) error {
	var rules []landlock.Rule
	for _, p := range readable {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		switch st, err := os.Stat(abs); {
		case err != nil:
		case st.IsDir():
			rules = append(rules, landlock.PathAccess(readDir, abs))
		case st.Mode().IsRegular():
			rules = append(rules, landlock.PathAccess(readFile, abs))
		}
		// Anything else (a pipe, a terminal: -i /dev/stdin) grants
		// nothing here; Landlock cannot add a rule for it.
	}
	for _, p := range writable {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		st, err := os.Stat(abs)
		if err != nil || !st.IsDir() {
			abs = filepath.Dir(abs)
			if st, err := os.Stat(abs); err != nil || !st.IsDir() {
				continue
			}
		}
		rules = append(rules, landlock.PathAccess(writeDir, abs))
	}
	// One layer for files, TCP and IPC scopes: a second layer that did not
	// handle "refer" would forbid every rename across directories.
	return landlock.V8.BestEffort().Restrict(rules...)
}
