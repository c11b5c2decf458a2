package shell

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/interp"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/internal/memguard"
	"github.com/llmsh/llmsh/vfsclient"
)

// clientFS adapts a vfsclient.Client to the builtins' FS interface.
type clientFS struct {
	c      *vfsclient.Client
	truncs *truncTable // files read as empty (truncs.go); nil: none
	psubs  *psubs      // process substitutions' pipes, served in-process
	// fd opens /dev/fd/N for the builtin (see Shell.fdOpener); nil: none.
	fd func(n int, output bool) (io.ReadWriteCloser, bool)
	// umask is the shell's (the umask builtin): the files and
	// directories the builtin creates get their modes less it.
	umask fs.FileMode
	// ctx is the command's: its reads of an endless device, and of
	// files, stop with it.
	ctx context.Context
}

// devFd serves /dev/fd/N: a descriptor the builtin has, or "No such file
// or directory". ok is false for other names. A descriptor is never a
// file in vfsd (awk's print > "/dev/fd/3" made a virtual one).
func (f clientFS) devFd(name string, flag int) (builtins.File, bool, error) {
	text, ok := strings.CutPrefix(name, "/dev/fd/")
	if !ok {
		return nil, false, nil
	}
	if hc, ok := handlerContext(f.ctx); ok {
		if path, ok := fdFilePath(hc, name); ok {
			// Linux opens a file's descriptor anew, at its start.
			file, err := f.OpenFile(path, flag)
			return file, true, err
		}
	}
	if n, ok := parseFd(text); ok && f.fd != nil {
		if rw, ok := f.fd(n, flag&(os.O_WRONLY|os.O_RDWR) != 0); ok {
			return fdDevFile{rw, name}, true, nil
		}
	}
	return nil, true, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
}

// fdDevFile is a descriptor opened by its /dev/fd/N name: a pipe to the
// builtin, which cannot seek.
type fdDevFile struct {
	io.ReadWriteCloser
	name string
}

func (f fdDevFile) Seek(int64, int) (int64, error) { return 0, syscall.ESPIPE }
func (f fdDevFile) Stat() (fs.FileInfo, error)     { return pipeInfo(f.name), nil }

func (f clientFS) OpenFile(name string, flag int) (builtins.File, error) {
	if err := noTTY(name); err != nil {
		return nil, err
	}
	if fd, ok := stdStreamFd[name]; ok {
		name = "/dev/fd/" + fd // Linux: a link to the descriptor
	}
	if d, ok := openDevice(name); ok {
		if name == procUUID && flag&(os.O_WRONLY|os.O_RDWR) != 0 {
			return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
		}
		if d.endless() && f.ctx != nil {
			return stoppableDev{d, f.ctx, new(memguard.ReadMeter)}, nil
		}
		return d, nil
	}
	if f.psubs != nil {
		if pf, ok := f.psubs.open(name); ok {
			return pf, nil
		}
	}
	if file, ok, err := f.devFd(name, flag); ok {
		return file, err
	}
	if f.psubs != nil {
		if pf, ok := f.psubs.open(name); ok {
			return pf, nil
		}
	}
	if flag&os.O_CREATE != 0 && f.umask != 0o022 {
		createWithUmask(f.c, name, f.umask)
	}
	file, err := f.c.OpenFile(name, flag)
	if err != nil {
		return nil, err
	}
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 && !f.truncs.empty() {
		if fi, err := openedInfo(file); f.truncs.holds(name, fi, err, f.c.Stat) {
			return truncatedFile{file}, nil // `sort f > f`: f is empty
		}
	}
	if flag&os.O_TRUNC != 0 && f.truncs != nil {
		// A builtin's own output file (`uniq f f`, `tee f < f`, sed's
		// `w f`) is truncated at its open, as GNU's are (truncs.go).
		f.truncs.add(name)
		return &truncWriter{File: file, done: func() { f.truncs.done(name) }}, nil
	}
	if f.ctx != nil && flag&os.O_WRONLY == 0 {
		// Its reads end with the command, as an endless device's do.
		file.SetStop(f.ctx, builtins.ErrCancelled)
	}
	return file, nil
}

// ReadHead reads the first bytes of a file in one round trip (vfsd's
// read_file, see builtins.HeadReader); not for what OpenFile serves
// itself (devices, /dev/fd/N, process substitutions).
func (f clientFS) ReadHead(name string, p []byte) (n int, whole, ok bool, err error) {
	if f.servesItself(name) {
		return 0, false, false, nil
	}
	return f.c.ReadFile(name, p)
}

// ReadTail reads the end of a file and its stat in one round trip
// (vfsd's read_tail, see builtins.TailReader); not for what OpenFile
// serves itself.
func (f clientFS) ReadTail(name string, p []byte) (n int, off int64, fi fs.FileInfo, ok bool, err error) {
	if f.servesItself(name) {
		return 0, 0, nil, false, nil
	}
	return f.c.ReadTail(name, p)
}

// servesItself reports whether name is something OpenFile serves without
// vfsd: a device, /dev/fd/N, a process substitution.
func (f clientFS) servesItself(name string) bool {
	if strings.HasPrefix(name, "/dev/") || f.truncs.pending(name) || f.truncs.aliased(f.c.Stat) {
		return true // (truncs.go: another name of a file read as empty)
	}
	if f.psubs != nil {
		if _, isPsub := f.psubs.stat(name); isPsub {
			return true
		}
	}
	return false
}

// ReadHeads reads the first bytes of several files in one round trip
// (vfsd's read_files, see builtins.HeadsReader); not when one of them is
// something OpenFile serves itself.
func (f clientFS) ReadHeads(names []string, max int) ([]builtins.Head, bool) {
	for _, name := range names {
		if f.servesItself(name) {
			return nil, false
		}
	}
	heads, ok, err := f.c.ReadFiles(names, max)
	if !ok || err != nil {
		return nil, false
	}
	out := make([]builtins.Head, len(heads))
	for i, h := range heads {
		out[i] = builtins.Head{Data: h.Data, Whole: h.Whole, Err: h.Err}
	}
	return out, true
}

func (f clientFS) Stat(name string) (fs.FileInfo, error) {
	if info, ok := statDevice(name); ok {
		return info, nil
	}
	if fd, ok := stdStreamFd[name]; ok {
		name = "/dev/fd/" + fd // Linux: a link to the descriptor
	}
	if f.psubs != nil {
		if info, ok := f.psubs.stat(name); ok {
			return info, nil
		}
	}
	if text, ok := strings.CutPrefix(name, "/dev/fd/"); ok {
		if n, ok := parseFd(text); ok && f.fd != nil && n <= 2 {
			return pipeInfo(name), nil
		}
		if n, ok := parseFd(text); ok && f.fd != nil {
			if rw, ok := f.fd(n, false); ok {
				rw.Close()
				return pipeInfo(name), nil
			}
		}
		return nil, &fs.PathError{Op: "stat", Path: name, Err: syscall.ENOENT}
	}
	fi, err := f.c.Stat(name)
	if f.truncs.holds(name, fi, err, f.c.Stat) {
		return emptyInfo{fi}, nil // a truncating redirection writes it now (truncs.go)
	}
	return fi, err
}

func (f clientFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := f.c.ReadDir(name)
	return f.truncs.entries(name, ents), err
}
func (f clientFS) ReadDirTypes(name string, described *atomic.Bool) ([]fs.DirEntry, error) {
	ents, err := f.c.ReadDirTypes(name, described)
	return f.truncs.entries(name, ents), err
}

// ReadTree lists name and the directories below it in one round trip
// (vfsd's walk, see builtins.TreeLister).
func (f clientFS) ReadTree(name, after string, types bool, described *atomic.Bool) (map[string][]fs.DirEntry, string, bool, error) {
	return f.c.Walk(name, after, types, described)
}

func (f clientFS) Lstat(name string) (fs.FileInfo, error) {
	if info, ok := statDevice(name); ok {
		return info, nil
	}
	if _, ok := stdStreamFd[name]; ok {
		return streamLink(name), nil
	}
	fi, err := f.c.Lstat(name)
	if f.truncs.holds(name, fi, err, f.c.Stat) {
		return emptyInfo{fi}, nil // a truncating redirection writes it now (truncs.go)
	}
	return fi, err
}
func (f clientFS) Readlink(name string) (string, error) {
	if fd, ok := stdStreamFd[name]; ok {
		return "/proc/self/fd/" + fd, nil
	}
	if _, ok := statDevice(name); ok {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: syscall.EINVAL}
	}
	return f.c.Readlink(name)
}

// Mkdir makes a directory; the builtins' default mode (0755, which is
// 0777 less the default umask) becomes 0777 less the shell's umask.
func (f clientFS) Mkdir(name string, perm fs.FileMode) error {
	if perm == 0o755 && f.umask != 0o022 {
		perm = 0o777 &^ f.umask
	}
	return f.c.Mkdir(name, perm)
}
func (f clientFS) Remove(name string) error             { return f.c.Remove(name) }
func (f clientFS) Rename(oldname, newname string) error { return f.c.Rename(oldname, newname) }
func (f clientFS) Chtimes(name string, atime, mtime time.Time) error {
	return f.c.Chtimes(name, atime, mtime)
}
func (f clientFS) Chmod(name string, perm fs.FileMode) error { return f.c.Chmod(name, perm) }

// absPath makes name absolute against dir, cleaned. A name that ends in
// "/" or "/." keeps one trailing slash (the root excepted): vfsd then
// wants a directory there, so that `cat f/`, `> f/` and `test -e f/` fail
// with "Not a directory" on a file, as on Linux.
func absPath(dir, name string) string {
	var p string
	if strings.HasPrefix(name, "/") {
		p = path.Clean(name)
	} else {
		p = path.Join(dir, name)
	}
	if p != "/" && (strings.HasSuffix(name, "/") || strings.HasSuffix(name, "/.")) {
		p += "/"
	}
	return p
}

// hidden reports whether err means "not there, as far as the script may
// know": outside the grants is the same as not existing.
func hidden(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)
}

type nopRWC struct {
	r io.Reader
	w io.Writer
}

func (n nopRWC) Read(p []byte) (int, error) {
	if n.r == nil {
		return 0, io.EOF
	}
	return n.r.Read(p)
}
func (n nopRWC) Write(p []byte) (int, error) {
	if n.w == nil {
		return 0, syscall.EBADF
	}
	return n.w.Write(p)
}
func (nopRWC) Close() error { return nil }

// openHandler routes every redirection through vfsd; the /dev names that
// a script may use are served locally. An output redirection is an
// outFile, so that its write errors are never lost (see writes.go).
func (s *Shell) openHandler(ctx context.Context, name string, flag int, _ fs.FileMode) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	if hc.Persist && flag&os.O_TRUNC != 0 {
		return s.openPersistent(ctx, name, flag)
	}
	f, err := s.openPlain(ctx, name, flag)
	if err != nil && flag == os.O_RDONLY && errors.Is(err, syscall.EISDIR) {
		// bash opens a directory; reading it fails (wc < DIR).
		if fi, serr := s.client.Stat(absPath(hc.Dir, name)); serr == nil && fi.IsDir() {
			return dirInput{fi}, nil
		}
	}
	if err != nil {
		return f, err
	}
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		if vf, ok := f.(*vfsclient.File); ok {
			if !s.state.truncs.empty() {
				if fi, err := openedInfo(vf); s.state.truncs.holds(vf.Name(), fi, err, s.client.Stat) {
					return truncatedFile{vf}, nil // `cat > f < f`: f is empty
				}
			}
			rf := newRedirFile(s.client, vf) // shared by the descriptor's readers
			rf.truncs = &s.state.truncs
			return rf, nil
		}
		return f, nil
	}
	o, ok := f.(*outFile)
	if ok && hc.Persist {
		o.f = &lockedFile{f: o.f} // a descriptor that commands may share
	}
	if ok && !hc.Persist && flag&os.O_TRUNC != 0 {
		// bash's truncation at the open: readers of the file see it
		// empty until the redirection closes (truncs.go).
		abs := absPath(hc.Dir, name)
		s.state.truncs.add(abs)
		o.truncDone, o.target = func() { s.state.truncs.done(abs) }, abs
	}
	if ok && flag&(os.O_WRONLY|os.O_RDWR) == os.O_RDWR {
		return rdwrFile{o}, nil
	}
	return f, nil
}

// rdwrFile is the file of N<>FILE: an output redirection's file that is
// also the interpreter's InputFile, so that its readers (read, cat <&N)
// read it where they are, not through a pipe that a copy fills with the
// whole file: a write after a read goes where the read stopped, and a
// command after `read` starts just past what it took, as in bash.
type rdwrFile struct{ *outFile }

// SharedInput marks an interp.InputFile.
func (rdwrFile) SharedInput() {}

// Unwrap gives the redirection to asOutFile, for settling its writes.
func (f rdwrFile) Unwrap() io.Writer { return f.outFile }

// openPersistent opens the file of a truncating redirection whose
// descriptor may outlive its command (exec >FILE, exec 3>FILE, 3>FILE):
// vfsd commits a truncating write on close (a temp file renamed over the
// target), so the file is truncated at once, then opened to write in
// place from offset 0 (vfsd's "rw"): what is written to the descriptor is
// visible as it is, at the descriptor's own offset, as in bash (another
// writer's appends are overwritten where the descriptor writes next).
func (s *Shell) openPersistent(ctx context.Context, name string, flag int) (io.ReadWriteCloser, error) {
	f, err := s.openPlain(ctx, name, flag)
	if err != nil {
		return nil, err
	}
	o, ok := f.(*outFile)
	if !ok {
		return f, nil // a device, a pipe
	}
	if err := o.Close(); err != nil {
		return nil, redirError(name, err)
	}
	f, err = s.openPlain(ctx, name, flag&^os.O_TRUNC)
	if err != nil {
		return nil, err
	}
	if o, ok := f.(*outFile); ok {
		o.f = &lockedFile{f: o.f}
	}
	return f, nil
}

// createWithUmask creates abs, if it does not exist, with the mode that
// the shell's umask gives a new file (0666 less the mask), as bash
// creates it: vfsd creates files 0644, and a truncating write keeps the
// mode of the file it replaces. Errors are left to the open that follows.
func createWithUmask(c *vfsclient.Client, abs string, umask fs.FileMode) {
	if _, err := c.Stat(abs); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	f, err := c.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
	if err != nil {
		return
	}
	f.Close()
	c.Chmod(abs, 0o666&^umask&0o777)
}

// openPlain opens a redirection's file: a device, a process
// substitution's pipe, a descriptor of the table as /dev/fd/N, or a file
// through vfsd.
func (s *Shell) openPlain(ctx context.Context, name string, flag int) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	output := flag&(os.O_WRONLY|os.O_RDWR) != 0
	if name == "" {
		return nil, redirError(name, syscall.ENOENT) // `> ""`: open("") fails
	}
	abs := absPath(hc.Dir, name)
	if noTTY(abs) != nil {
		return nil, redirError(name, syscall.ENXIO)
	}
	if d, ok := openDevice(abs); ok {
		if output && abs == procUUID {
			return nil, redirError(name, syscall.EACCES)
		}
		if output && d.full() {
			return &outFile{f: d, name: name, stderr: hc.Stderr}, nil
		}
		return d, nil
	}
	switch name {
	case "/dev/stdin", "/dev/fd/0":
		if rf, ok := hc.Stdin.(*redirFile); ok && !output {
			// Linux opens the file of a descriptor anew, at its start,
			// when the descriptor is a file's.
			return s.openPlain(ctx, rf.f.Name(), flag)
		}
		if hc.Stdin == nil {
			// <&-: /dev/stdin names no open file.
			return nil, redirError(name, syscall.ENOENT)
		}
		if rwc, ok, err := reopen(hc.Stdin); ok && !output {
			if err != nil {
				return nil, redirError(name, err)
			}
			return rwc, nil
		}
		return nopRWC{r: hc.Stdin}, nil
	case "/dev/stdout", "/dev/fd/1":
		return nopRWC{w: hc.Stdout}, nil
	case "/dev/stderr", "/dev/fd/2":
		return nopRWC{w: hc.Stderr}, nil
	}
	if pf, ok := s.psubs.open(abs); ok {
		return pf, nil
	}
	if path, ok := fdFilePath(hc, abs); ok {
		return s.openPlain(ctx, path, flag)
	}
	if f, ok := fdDevPath(hc, abs, output); ok {
		return f, nil
	}
	if strings.HasPrefix(abs, "/dev/fd/") {
		// Descriptors are not files: never a virtual file in vfsd.
		return nil, redirError(name, syscall.ENOENT)
	}
	if flag&os.O_CREATE != 0 && hc.Umask != 0o022 {
		createWithUmask(s.client, abs, hc.Umask)
	}
	if hc.Lazy && output {
		// The redirection of an echo or printf that may defer: its
		// open is confirmed with its writes (deferred.go).
		f, err := s.client.OpenLater(abs, flag)
		if err != nil {
			return nil, redirError(name, err)
		}
		return &outFile{f: f, name: name, stderr: hc.Stderr, own: true, lazy: f.Lazy(), runner: hc.Runner()}, nil
	}
	f, err := s.client.OpenFile(abs, flag)
	if err != nil {
		return nil, redirError(name, err)
	}
	if output {
		return &outFile{f: f, name: name, stderr: hc.Stderr}, nil
	}
	return f, nil
}

// redirError words a failed redirection as bash does: "llmsh: FILE:
// reason". It is an *fs.PathError because interp prints those and goes on
// with status 1, as bash does; any other error would end the script.
func redirError(name string, err error) error {
	return &fs.PathError{Op: "llmsh:", Path: name, Err: redirReason{err}}
}

// redirReason is err in GNU's words.
type redirReason struct{ err error }

func (r redirReason) Error() string { return builtins.ErrText(r.err) }
func (r redirReason) Unwrap() error { return r.err }

func (s *Shell) statHandler(ctx context.Context, name string, follow bool) (fs.FileInfo, error) {
	hc := interp.HandlerCtx(ctx)
	if info, ok := statDevice(absPath(hc.Dir, name)); ok {
		return ownedInfo{info}, nil
	}
	if info, err, ok := stdStreamStat(hc, absPath(hc.Dir, name), follow); ok {
		if err != nil {
			return nil, err
		}
		return ownedInfo{info}, nil
	}
	if info, ok := s.psubs.stat(absPath(hc.Dir, name)); ok {
		return ownedInfo{info}, nil
	}
	stat := s.client.Stat
	if !follow {
		stat = s.client.Lstat // test -L and -h
	}
	info, err := stat(absPath(hc.Dir, name))
	if err != nil {
		if hidden(err) {
			return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
		}
		return nil, err
	}
	if s.state.truncs.holds(absPath(hc.Dir, name), info, nil, s.client.Stat) {
		info = emptyInfo{info} // `[ -s f ] > f` (truncs.go)
	}
	return ownedInfo{info}, nil
}

// stdStreamStat describes /dev/stdin, /dev/stdout, /dev/stderr and
// /dev/fd/0 to 2 as Linux does for test (-p, -f, -e, -L): symbolic links
// to the command's own stream, which is the file a redirection opened,
// the pipe or terminal llmsh was given, or a pipe (a pipeline's, a
// command substitution's, llmsh's output); a closed one does not exist.
// ok is false for any other name.
func stdStreamStat(hc interp.HandlerContext, abs string, follow bool) (info fs.FileInfo, err error, ok bool) {
	var stream any
	switch abs {
	case "/dev/stdin", "/dev/fd/0":
		if hc.Stdin != nil {
			stream = hc.Stdin
		}
	case "/dev/stdout", "/dev/fd/1":
		if hc.Stdout != nil {
			stream = hc.Stdout
		}
	case "/dev/stderr", "/dev/fd/2":
		if hc.Stderr != nil {
			stream = hc.Stderr
		}
	default:
		return nil, nil, false
	}
	if !follow {
		return streamLink(abs), nil, true
	}
	type stater interface{ Stat() (fs.FileInfo, error) }
	switch v := stream.(type) {
	case nil:
		return nil, &fs.PathError{Op: "stat", Path: abs, Err: syscall.ENOENT}, true
	case *redirFile:
		info, err = v.f.Stat()
		return info, err, true
	case *devFile:
		return deviceInfo(v.name), nil, true
	case *outFile:
		if d, ok := v.f.(*devFile); ok {
			return deviceInfo(d.name), nil, true
		}
		if st, ok := v.f.(stater); ok {
			info, err = st.Stat()
			return info, err, true
		}
	case stater:
		info, err = v.Stat()
		return info, err, true
	}
	fd := stdStreamFd[abs]
	if fd != "" {
		abs = "/dev/fd/" + fd
	}
	return pipeInfo(abs), nil, true
}

// stdStreamFd is the descriptor each of /dev/stdin, /dev/stdout and
// /dev/stderr links to (on Linux, /proc/self/fd/N).
var stdStreamFd = map[string]string{"/dev/stdin": "0", "/dev/stdout": "1", "/dev/stderr": "2"}

// streamLink is /dev/stdin and its kin as lstat sees them: symbolic links.
type streamLink string

func (l streamLink) Name() string     { return path.Base(string(l)) }
func (streamLink) Size() int64        { return 0 }
func (streamLink) Mode() fs.FileMode  { return fs.ModeSymlink | 0o777 }
func (streamLink) ModTime() time.Time { return time.Time{} }
func (streamLink) IsDir() bool        { return false }
func (streamLink) Sys() any           { return nil }

// ownedInfo is a file as interp's tests see it. interp's -O and -G read
// the owner from Sys() as a *syscall.Stat_t and panic on anything else;
// its -N reads the access time there. vfsd reports neither owners nor
// access times, so every file it reaches counts as the user's own, and
// was last read when it was last written.
type ownedInfo struct{ fs.FileInfo }

// FileID is vfsd's identity of the file, which the interpreter's -ef
// compares (empty for a file without one).
func (i ownedInfo) FileID() string {
	if f, ok := i.FileInfo.(interface{ FileID() string }); ok {
		return f.FileID()
	}
	return ""
}

// Sys is a Stat_t with the owner, the modification time and the access
// time (the modification time when vfsd keeps none, so that test -N is
// false for a virtual file).
func (i ownedInfo) Sys() any {
	t := syscall.NsecToTimespec(i.ModTime().UnixNano())
	at := t
	if f, ok := i.FileInfo.(interface{ AccessTime() (time.Time, bool) }); ok {
		if a, ok := f.AccessTime(); ok {
			at = syscall.NsecToTimespec(a.UnixNano())
		}
	}
	return &syscall.Stat_t{Uid: uint32(os.Getuid()), Gid: uint32(os.Getgid()), Atim: at, Mtim: t}
}

func (s *Shell) readDirHandler(ctx context.Context, name string) ([]fs.DirEntry, error) {
	hc := interp.HandlerCtx(ctx)
	ents, err := s.client.ReadDir(absPath(hc.Dir, name))
	if err != nil && hidden(err) {
		// A directory outside the grants matches nothing, silently, as a
		// directory that does not exist does in bash.
		return nil, nil
	}
	for i, e := range ents {
		if isDir, _, ok := vfsclient.LinkTarget(e); ok {
			ents[i] = globLink{e, isDir}
		}
	}
	return ents, err
}

// globLink is a symbolic link as the glob sees it: of its target's kind,
// which vfsd already reported in the listing. bash's "*/" matches a link
// to a directory; interp would find that out by listing the link, which
// readDirHandler answers with no error for a link that dangles or leaves
// the grants (hidden), so such a link would wrongly match "*/". A link
// whose target leaves the tree is no directory here: vfsd does not say
// what it leads to.
type globLink struct {
	fs.DirEntry
	isDir bool
}

func (g globLink) IsDir() bool { return g.isDir }

// IsSymlink tells the expander that the entry is a link all the same:
// globstar's ** lists it but does not descend into it, as bash.
func (g globLink) IsSymlink() bool { return true }
func (g globLink) Type() fs.FileMode {
	if g.isDir {
		return fs.ModeDir
	}
	return 0
}

// accessHandler answers cd and test -r/-w/-x from vfsd, never access(2):
// a file is executable when an execute bit is set (runPath runs it).
func (s *Shell) accessHandler(ctx context.Context, name string, mode interp.AccessMode) error {
	info, err := s.statHandler(ctx, name, true)
	if err != nil {
		return err
	}
	if mode&interp.AccessExec != 0 && !info.IsDir() && info.Mode().Perm()&0o111 == 0 {
		return &fs.PathError{Op: "access", Path: name, Err: fs.ErrPermission}
	}
	return nil
}
