package shell

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/builtins"
	"github.com/llmsh/llmsh/internal/memguard"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/vfsclient"
	"golang.org/x/sys/unix"
)

// Write errors are never silent. vfsclient sends writes without waiting
// for their answers, so a write to a redirection may fail after the Write
// call that made it has returned. The shell therefore wraps every output
// redirection in an outFile and, when a command ends, waits for the
// answers to what it wrote (settle): a failure that the command never
// heard of is reported in GNU's words, "NAME: write error: REASON", and
// makes the command's status 1, as a write to /dev/full does in bash. The
// interpreter's own builtins report a write that fails at once as bash
// ("pwd: write error: REASON", status 1); one that fails late is found
// when the redirection is closed, and reported as bash reports a failed
// redirection, "llmsh: FILE: REASON".

// flushWriter is an output whose writes may fail late: Flush reports a
// failure of any write made so far.
type flushWriter interface {
	io.ReadWriteCloser
	Flush() error
}

// outFile is a redirection's output file.
type outFile struct {
	f      flushWriter
	name   string    // as the script wrote it
	stderr io.Writer // where a failure found only on Close is reported

	mu         sync.Mutex
	writes     int64 // Write calls
	told       int64 // failures made known: returned by Write, or reported by the shell
	attributed int64 // told when the last command's settle ended
	settled    int64 // writes when the last command's settle ended
	// capture, while an echo or printf that may defer its settle runs,
	// gathers a copy of what it writes, up to maxCapture bytes (over:
	// more was written), for writing again if vfsd refused it
	// (deferred.go).
	capture *[]byte
	over    bool
	// own is set for the redirection of an echo or printf that may
	// defer (interp.HandlerContext.Lazy); lazy when its open was not
	// waited for (vfsclient.File.Lazy), runner then the runner that
	// opened it, whose "NAME: line N: " starts a failure of the open
	// reported before its statement ends. deferClose is set once its
	// command deferred: Close does not wait. reported: the open's
	// failure has been reported.
	own, lazy, deferClose, reported bool
	runner                          *interp.Runner
	// truncDone, when set, ends the truncation that the open of a
	// truncating redirection noted (truncs.go); Close calls it once.
	// target is then the file's absolute name.
	truncDone func()
	target    string
}

// lazyFile is a file whose open and close may be confirmed later
// (vfsclient.File of OpenLater).
type lazyFile interface {
	OpenErr() error
	CloseLater() error
	CloseErr() error
}

// openFailed waits for the answer to o's open, if it was not waited
// for, and says whether it failed; the failure is reported once, on w,
// as the runner reports a failed redirection ("NAME: line N: FILE:
// REASON", prefix "NAME: line N: ", or the runner's now if "").
func (o *outFile) openFailed(w io.Writer, prefix string) bool {
	if !o.lazy {
		return false
	}
	err := o.f.(lazyFile).OpenErr()
	if err == nil {
		return false
	}
	if !o.reported {
		o.reported = true
		if w != nil {
			if prefix == "" {
				prefix = "llmsh: "
				if o.runner != nil {
					prefix = o.runner.ShellErrPrefix()
				}
			}
			fmt.Fprintf(w, "%s%s: %s\n", prefix, o.name, builtins.ErrText(err))
		}
	}
	return true
}

func (o *outFile) Read(p []byte) (int, error) { return o.f.Read(p) }

// Stat describes the file the redirection writes, when it is one of
// vfsd's (cat's "input file is output file"); it waits for the writes
// made so far.
func (o *outFile) Stat() (fs.FileInfo, error) {
	if st, ok := o.f.(interface{ Stat() (fs.FileInfo, error) }); ok {
		return st.Stat()
	}
	return nil, errors.ErrUnsupported
}

// TruncTarget is the absolute name of the file a truncating redirection
// writes, which reads as empty until it closes (truncs.go); "" for
// another output. grep refuses to read it, as GNU's does its output.
func (o *outFile) TruncTarget() string { return o.target }

func (o *outFile) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	o.mu.Lock()
	o.writes++
	if err != nil {
		o.told++
	}
	if o.capture != nil {
		if len(*o.capture)+n > maxCapture {
			o.over = true
		} else {
			*o.capture = append(*o.capture, p[:n]...)
		}
	}
	o.mu.Unlock()
	return n, err
}

// CopyFileFrom has vfsd copy up to max bytes of r to the file, when r is
// a file of vfsd's too (builtins.FileCopier; vfsclient.File.CopyFrom).
// The copy counts as a write: it is waited for, so a failure is the
// command's to report, as a Write's that fails at once.
func (o *outFile) CopyFileFrom(r io.Reader, max int64) (int64, bool, error) {
	dst, ok := o.f.(*vfsclient.File)
	o.mu.Lock()
	capturing := o.capture != nil
	o.mu.Unlock()
	if !ok || capturing {
		return 0, false, nil
	}
	n, ok, err := dst.CopyFileFrom(r, max)
	if !ok {
		return 0, false, nil
	}
	o.mu.Lock()
	o.writes++
	if err != nil {
		o.told++
	}
	o.mu.Unlock()
	return n, true, err
}

// Close closes the file and reports, on the stderr of the redirection, a
// failure that no command was told of: a write made by one of the
// interpreter's builtins, or the close itself (where a real file is
// renamed into place).
func (o *outFile) Close() error {
	if done := o.truncDone; done != nil {
		o.truncDone = nil
		defer done()
	}
	if o.deferClose {
		return o.f.(lazyFile).CloseLater() // confirmed with its writes
	}
	if o.openFailed(o.stderr, "") {
		return o.f.Close()
	}
	werr := o.f.Flush()
	err := o.f.Close()
	if err == nil {
		err = werr
	}
	o.mu.Lock()
	// A write that failed at once was the writer's to report (the
	// interpreter's builtins say "NAME: write error"); one that failed
	// late, after the last command's settle, is reported here.
	unsettled := o.writes > o.settled && o.told < o.writes
	o.mu.Unlock()
	if err != nil && (werr == nil || unsettled) {
		fmt.Fprintf(o.stderr, "llmsh: %s: %s\n", o.name, builtins.ErrText(err))
	}
	return err
}

// outMark is an outFile's counters when a command starts, the number
// of write requests its file had sent (see sender), and its offset.
type outMark struct{ writes, told, sent, pos int64 }

func (o *outFile) mark() outMark {
	var sent, pos int64
	if sd, ok := o.f.(sender); ok {
		sent, pos = sd.Written()
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return outMark{o.writes, o.told, sent, pos}
}

// settle waits for what was written since m and returns the failure that
// the command (which ended with status st) must be charged with: one it
// wrote into and nobody was told of, or one it was told of and ignored
// (it ended with status 0). Nil means nothing to report.
func (o *outFile) settle(m outMark, st int) error {
	ferr := o.f.Flush()
	o.mu.Lock()
	defer o.mu.Unlock()
	var charge error
	switch {
	case ferr == nil || o.writes == m.writes:
	case o.told == m.told, o.told > o.attributed && st == 0:
		o.told++
		charge = ferr
	}
	o.attributed, o.settled = o.told, o.writes
	if ferr != nil && o.writes > m.writes {
		// Charged to this command: the next one's writes are tried
		// again, as bash's after a write that failed (File too large).
		if r, ok := o.f.(rearmer); ok {
			defer r.Rearm()
		}
	}
	return charge
}

// rearmer is a file whose failed write stops its later writes until
// Rearm (vfsclient.File, under write_stop).
type rearmer interface{ Rearm() }

// asOutFile returns the redirection that w is, or that w writes to
// through writers that tell theirs with an Unwrap method (xargs' watch on
// the output of the commands it runs).
func asOutFile(w io.Writer) (*outFile, bool) {
	for range 8 {
		switch x := w.(type) {
		case *outFile:
			return x, true
		case interface{ Unwrap() io.Writer }:
			w = x.Unwrap()
		default:
			return nil, false
		}
	}
	return nil, false
}

// settleOutputs charges a command that ended with status st with the
// failures of its redirected stdout and stderr (see settle). prefix
// starts the message of the shell's own builtins, as bash words them
// ("NAME: line N: echo: write error: …"); "" for other commands.
func settleOutputs(name, prefix string, stdout, stderr io.Writer, marks [2]outMark, st int) int {
	out, _ := asOutFile(stdout)
	for i, w := range [2]io.Writer{stdout, stderr} {
		o, ok := asOutFile(w)
		if !ok || (i == 1 && o == out) {
			continue
		}
		err := o.settle(marks[i], st)
		if err == nil {
			continue
		}
		if st == 0 {
			st = 1
		}
		if i == 1 {
			continue // stderr is what failed: nowhere to say so
		}
		fmt.Fprintf(stderr, "%s%s: write error: %s\n", prefix, name, builtins.ErrText(err))
	}
	return st
}

// markOutputs records the counters of stdout and stderr, when they are
// redirections, before a command runs.
func markOutputs(stdout, stderr io.Writer) (marks [2]outMark) {
	if o, ok := asOutFile(stdout); ok {
		marks[0] = o.mark()
	}
	if o, ok := asOutFile(stderr); ok {
		marks[1] = o.mark()
	}
	return marks
}

// Devices that llmsh serves itself, for redirections and for builtins:
// /dev/null (reads nothing, swallows writes), /dev/full (reads zero
// bytes without end, fails every write with ENOSPC, as Linux's does),
// /dev/zero (reads zero bytes, swallows writes) and /dev/urandom and
// /dev/random (read bytes from Go's crypto/rand, swallow writes): none
// of them is the host's device or tells anything of the host.

// procUUID is Linux's /proc/sys/kernel/random/uuid, which llmsh serves
// as it serves the devices (the rest of /proc is absent): a new random
// (version 4) UUID and a newline at each open, from crypto/rand.
const procUUID = "/proc/sys/kernel/random/uuid"

// devFile is an open device of openDevice.
type devFile struct {
	name   string
	mu     sync.Mutex
	failed bool   // a write to /dev/full was made
	uuid   []byte // procUUID's text not read yet
}

// openDevice returns the local device called name, if it is one.
func openDevice(name string) (*devFile, bool) {
	switch name {
	case "/dev/null", "/dev/full", "/dev/zero", "/dev/urandom", "/dev/random":
		return &devFile{name: name}, true
	case procUUID:
		return &devFile{name: name, uuid: newUUID()}, true
	}
	return nil, false
}

func (d *devFile) full() bool { return d.name == "/dev/full" }

// SharedInput makes `< /dev/zero` the interpreter's InputFile: its
// readers read the device itself, not a pipe that a goroutine fills from
// it without end, so a builtin's reads of it stop with the builtin's
// context (stoppable).
func (d *devFile) SharedInput() {}

// endless reports whether reading d never comes to an end: /dev/zero,
// /dev/full, /dev/urandom and /dev/random.
func (d *devFile) endless() bool { return d.name != "/dev/null" && d.name != procUUID }

// stoppableDev is an endless device read by one command: a read fails
// with builtins.ErrCancelled once the command's context is done, so a builtin
// that gathers one endless line (rev, sed, cut, uniq, nl, look, envsubst
// of /dev/zero) ends with its run instead of growing until memory is
// gone (session 20, red team).
//
// Every 16 MiB it gives, it has the memory guards look at the heap at
// once (memguard.ReadMeter): a command gathering the device's one
// endless line grows it faster than the guards' ticks come on a loaded
// machine (session 30: `rev /dev/zero` under --max-memory 64M reached
// 787 MB of heap; now about twice the limit).
type stoppableDev struct {
	*devFile
	ctx   context.Context
	meter *memguard.ReadMeter
}

func (d stoppableDev) Read(p []byte) (int, error) {
	if d.ctx.Err() != nil {
		return 0, builtins.ErrCancelled
	}
	n, err := d.devFile.Read(p)
	if d.meter.Add(n); d.ctx.Err() != nil {
		return 0, builtins.ErrCancelled // the guard has stopped the run
	}
	return n, err
}

// stoppable gives a command's reader of an endless device, of a file
// redirected to it, of the session's own stdin pipe (own), or of the pipe
// a script is read from, the command's context (see stoppableDev,
// stoppableRedir, stoppablePipe, stoppableScriptPipe); any other reader
// is returned as it is.
func stoppable(ctx context.Context, r io.Reader, own *os.File) io.Reader {
	if d, ok := r.(*devFile); ok && d.endless() {
		return stoppableDev{d, ctx, new(memguard.ReadMeter)}
	}
	if f, ok := r.(*os.File); ok && f == own && nonBlocking(f) {
		return stoppablePipe{f, ctx}
	}
	if rf, ok := r.(*redirFile); ok {
		return stoppableRedir{rf, ctx}
	}
	if p, ok := r.(*scriptPipe); ok {
		return stoppableScriptPipe{p, ctx}
	}
	return r
}

// stoppablePipe is the session's own stdin, a pipe in non-blocking mode
// (the llmsh command opens its stdin pipe so), read by one command: its
// reads wait for input in poll(2), a tenth of a second at a time, and
// fail with builtins.ErrCancelled once the command's context is done, so
// that `cat` or `x=$(cat)` waiting on a pipe that stays open and empty
// end with the run (session 27: they ended a second late, when stopStuck
// ended the process). A read of the file itself waits in Go's poller,
// which its context cannot end; a deadline would be the file's, shared
// with the commands that read it later or at once.
type stoppablePipe struct {
	f   *os.File
	ctx context.Context
}

func (p stoppablePipe) Read(b []byte) (int, error) {
	rc, err := p.f.SyscallConn()
	if err != nil || len(b) == 0 {
		return p.f.Read(b)
	}
	for {
		if p.ctx.Err() != nil {
			return 0, builtins.ErrCancelled
		}
		var n int
		var rerr error
		if err := rc.Control(func(fd uintptr) {
			n, rerr = syscall.Read(int(fd), b)
			if rerr == syscall.EAGAIN {
				pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
				unix.Poll(pfd, 100)
			}
		}); err != nil {
			return 0, err
		}
		switch {
		case rerr == syscall.EAGAIN || rerr == syscall.EINTR:
			continue
		case rerr != nil:
			return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: rerr}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// nonBlocking reports whether f's descriptor is in non-blocking mode.
func nonBlocking(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	nb := false
	rc.Control(func(fd uintptr) {
		fl, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
		nb = err == nil && fl&unix.O_NONBLOCK != 0
	})
	return nb
}

// stoppableRedir is a file redirected to one command's stdin (`cut -c1 <
// FILE`): its reads fail with builtins.ErrCancelled once the command's
// context is done, as the command's own opens of files do (SetStop;
// session 22, red team: a line of a 6 GB file without a newline was
// gathered whatever the run's limit, up to the kernel's out-of-memory
// killer). The file itself, which later commands share, is not changed.
type stoppableRedir struct {
	*redirFile
	ctx context.Context
}

func (r stoppableRedir) Read(p []byte) (int, error) {
	if r.ctx.Err() != nil {
		return 0, builtins.ErrCancelled
	}
	return r.redirFile.Read(p)
}

// WriteTo stops at the first write after the context is done.
func (r stoppableRedir) WriteTo(w io.Writer) (int64, error) {
	return r.redirFile.WriteTo(cancelWriter{w, r.ctx})
}

// Reopen opens the file anew (/dev/stdin), its reads stopping likewise.
func (r stoppableRedir) Reopen() (io.ReadCloser, error) {
	f, err := r.c.OpenFile(r.f.Name(), os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	f.SetStop(r.ctx, builtins.ErrCancelled)
	return f, nil
}

// cancelWriter fails with builtins.ErrCancelled once ctx is done.
type cancelWriter struct {
	w   io.Writer
	ctx context.Context
}

func (w cancelWriter) Write(p []byte) (int, error) {
	if w.ctx.Err() != nil {
		return 0, builtins.ErrCancelled
	}
	return w.w.Write(p)
}

func (d *devFile) Read(p []byte) (int, error) {
	switch d.name {
	case procUUID:
		d.mu.Lock()
		defer d.mu.Unlock()
		if len(d.uuid) == 0 {
			return 0, io.EOF
		}
		n := copy(p, d.uuid)
		d.uuid = d.uuid[n:]
		return n, nil
	case "/dev/null":
		return 0, io.EOF
	case "/dev/urandom", "/dev/random":
		return rand.Read(p)
	}
	clear(p)
	return len(p), nil
}

func (d *devFile) Write(p []byte) (int, error) {
	if d.name == procUUID {
		return 0, &fs.PathError{Op: "write", Path: d.name, Err: syscall.EACCES}
	}
	if !d.full() {
		return len(p), nil
	}
	if len(p) == 0 {
		return 0, nil
	}
	d.mu.Lock()
	d.failed = true
	d.mu.Unlock()
	return 0, &fs.PathError{Op: "write", Path: d.name, Err: syscall.ENOSPC}
}

// Flush reports ENOSPC once a write to /dev/full was made.
func (d *devFile) Flush() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.failed {
		return &fs.PathError{Op: "write", Path: d.name, Err: syscall.ENOSPC}
	}
	return nil
}

func (d *devFile) Seek(int64, int) (int64, error) { return 0, nil }
func (d *devFile) Close() error                   { return nil }
func (d *devFile) Stat() (fs.FileInfo, error)     { return deviceInfo(d.name), nil }

// deviceInfo describes a local device: a character device anyone may read
// and write.
func deviceInfo(name string) fs.FileInfo {
	if name == procUUID {
		return procFileInfo("uuid")
	}
	return devInfo(name[len("/dev/"):])
}

// statDevice describes name if it is a local device.
func statDevice(name string) (fs.FileInfo, bool) {
	if _, ok := openDevice(name); ok || name == devTTY {
		return deviceInfo(name), true
	}
	return nil, false
}

// devTTY is the controlling terminal, which a script run by llmsh never
// has: it is there (test -c), but opening it fails as Linux's open does
// for a process with no terminal ("No such device or address", ENXIO;
// bash -c 'echo x > /dev/tty' under setsid).
const devTTY = "/dev/tty"

// noTTY is the error of opening /dev/tty, nil for another name.
func noTTY(name string) error {
	if name != devTTY {
		return nil
	}
	return &fs.PathError{Op: "open", Path: name, Err: syscall.ENXIO}
}

type devInfo string

func (d devInfo) Name() string     { return string(d) }
func (devInfo) Size() int64        { return 0 }
func (devInfo) Mode() fs.FileMode  { return fs.ModeDevice | fs.ModeCharDevice | 0o666 }
func (devInfo) ModTime() time.Time { return time.Time{} }
func (devInfo) IsDir() bool        { return false }
func (devInfo) Sys() any           { return nil }

// DeviceNumbers are the device's major and minor numbers, Linux's for
// these devices (stat -c '%t %T', file: "character special (1/3)").
func (d devInfo) DeviceNumbers() (major, minor uint32) {
	switch d {
	case "null":
		return 1, 3
	case "zero":
		return 1, 5
	case "full":
		return 1, 7
	case "random":
		return 1, 8
	case "urandom":
		return 1, 9
	case "tty":
		return 5, 0
	}
	return 0, 0
}

// newUUID is a random version 4 UUID as the kernel writes it, with its
// newline.
func newUUID() []byte {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Appendf(nil, "%x-%x-%x-%x-%x\n", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// procFileInfo describes a file of /proc: regular, empty by its size,
// readable by all.
type procFileInfo string

func (p procFileInfo) Name() string     { return string(p) }
func (procFileInfo) Size() int64        { return 0 }
func (procFileInfo) Mode() fs.FileMode  { return 0o444 }
func (procFileInfo) ModTime() time.Time { return time.Time{} }
func (procFileInfo) IsDir() bool        { return false }
func (procFileInfo) Sys() any           { return nil }
