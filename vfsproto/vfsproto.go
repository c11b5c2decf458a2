// Package vfsproto is the wire codec of the FS Proxy Protocol spoken between
// llmsh (the client, through vfsclient) and vfsd (the server): framing,
// the request/response envelope, error codes, and the parameter and result
// shapes of every operation. Both sides import it, so nothing of the protocol
// is written twice.
//
// A frame is a 4-byte big-endian length followed by that many bytes of UTF-8
// JSON. Requests are {id, op, params}; responses are {id, ok, result} or
// {id, ok:false, error:{code, message}}. See docs/protocol.md.
//
// docs/architecture.md shows how the packages fit together.
package vfsproto

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Version is the protocol version announced by the hello operation.
const Version = 1

// HomeDir is the home of llmsh's one user ($HOME). Outside the grants
// and without --strict, vfsd shows it (and its parent) as a directory
// from the start, as it does /tmp, so that `cd ~` works.
const HomeDir = "/home/llmsh"

// MaxFrame is the largest frame payload either side accepts, in bytes. A
// longer announced length is a framing error: it is rejected before any
// allocation and the connection is closed.
const MaxFrame = 1 << 20

// MaxRead is the largest value of the read operation's max parameter.
const MaxRead = 4096

// MaxBulkRead is the largest value of read_bulk's max parameter (the
// read_bulk feature, negotiated in hello).
const MaxBulkRead = 1 << 20

// MaxBulkWrite is the largest value of write_bulk's size parameter.
const MaxBulkWrite = 1 << 20

// FeatureWriteBulk is the hello feature that enables write_bulk: the data
// of a write follows the request frame raw instead of base64 inside it.
const FeatureWriteBulk = "write_bulk"

// FeatureReadBulk is the hello feature that enables the read_bulk
// operation on a connection: raw bytes after the answer frame instead of
// base64 inside it.
const FeatureReadBulk = "read_bulk"

// FeatureReadEOF is the hello feature that makes read, read_bulk and
// read_shm say eof with the last bytes of a file: a read that came short
// is followed at once by another, and eof is true when that one found the
// end (its bytes, if any, are added instead). A small file then costs one
// read where it cost two, the second only to learn that nothing follows.
const FeatureReadEOF = "read_eof"

// FeatureReadShm is the hello feature that enables the read_shm
// operation: vfsd reads into a slot of a shared memory region that the
// client gave it when it started it (vfsd --shm-fd), and the answer frame
// says only how many bytes are there. It is granted only on a connection
// that has such a region.
const FeatureReadShm = "read_shm"

// FeatureWriteShm is the hello feature that enables write_shm: the client
// puts the data of a write in a slot of the read_shm region and names the
// slot, and vfsd writes the slot's bytes to the handle (one copy less than
// write_bulk's pipe). It is granted only together with FeatureReadShm.
const FeatureWriteShm = "write_shm"

// FeatureReadShmAt is the hello feature that enables read_shm_at, the
// positional form of read_shm: it names the offset to read from, leaves
// the handle's position alone, and may be answered out of order with the
// other requests on the handle, so that vfsd can copy several chunks of a
// file at once. It is granted only together with FeatureReadShm.
const FeatureReadShmAt = "read_shm_at"

// FeatureReadFile is the hello feature that enables read_file: open a
// file for reading, read up to Max bytes of it and close it, in one
// request, answered as read_bulk is (the bytes follow the frame). A walk
// that reads many small files (grep -r, tar c) pays one round trip for
// each instead of an open, a read and a close. It is granted only
// together with FeatureReadBulk.
const FeatureReadFile = "read_file"

// FeatureReadFiles is the hello feature that enables read_files: what
// read_file does for up to MaxReadFiles files in one request, their bytes
// one after the other after the answer frame. A walk that reads many
// small files (grep -r) pays one round trip for several. It is granted
// only together with FeatureReadFile.
const FeatureReadFiles = "read_files"

// MaxReadFiles is the most paths one read_files may name.
const MaxReadFiles = 64

// FeatureReadTail is the hello feature that enables read_tail: open a
// file for reading, stat it and read up to Max bytes of its end, and
// close it, in one request (the bytes follow the frame, as read_file's).
// tail of a regular file pays one round trip instead of an open with its
// stat and a read at the end. It is granted only together with
// FeatureReadFile.
const FeatureReadTail = "read_tail"

// FeatureCopy is the hello feature that enables copy: the bytes of one
// open handle, from an offset, written to another handle by vfsd itself
// (copy_file_range), without crossing to the client and back: `cat big
// > out/copy` costs what GNU cat's copy costs.
const FeatureCopy = "copy"

// MaxCopy is the most bytes one copy moves: a command that copies more
// sends another, and can be stopped in between.
const MaxCopy = 64 << 20

// FeatureWalk is the hello feature that enables walk: the listings of a
// directory and of the directories below it, in one request, as list
// answers each, so that a walk (find, du, ls -R, tar c, grep -r) pays a
// round trip for a whole subtree instead of one per directory.
const FeatureWalk = "walk"

// MaxWalkDirs is the most directories one walk answer lists, and
// MaxWalkDepth how far below its path it goes: the rest is left to
// later requests.
const (
	MaxWalkDirs  = 4096
	MaxWalkDepth = 64
)

// FeatureListStat is the hello feature that makes every list answer on
// the connection describe each entry in full: Entry.Lstat is what lstat
// of the entry's path would answer, so that a walk (find, du, ls -l, tar)
// needs no round trip per file to learn mode, mtime and identity.
const FeatureListStat = "list_stat"

// FeatureWriteStop is the hello feature that makes a failed write stop
// the writes after it: once a write (write, write_bulk, write_shm) to a
// handle failed, the later ones fail with the same error, writing
// nothing, until a seek. A client that sends writes without waiting for
// their answers then never has a later write land where a failed one's
// bytes belonged (a virtual file's budget refuses a 512 KiB write and
// then takes the 50 KiB after it).
const FeatureWriteStop = "write_stop"

// FeatureOpenNamed is the hello feature that lets open name its handle
// (OpenParams.H, from FirstNamedHandle to MaxNamedHandle): the client
// may send requests on the handle before the open's answer arrives. A
// named open runs in the order of the requests, and a failed one leaves
// the name taken until its close, every request on it failing with the
// open's error.
const FeatureOpenNamed = "open_named"

// FirstNamedHandle and MaxNamedHandle bound the handles a client may
// name (FeatureOpenNamed): above any vfsd allocates, and exact in JSON.
const (
	FirstNamedHandle = 1 << 32
	MaxNamedHandle   = 1<<53 - 1
)

// ShmSlot is the size of one slot of the read_shm region, and the
// largest value of read_shm's max parameter.
const ShmSlot = 1 << 20

// MaxShmSlots is the most slots a read_shm region may have.
const MaxShmSlots = 16

// ReadlinkResult is the result of readlink: the text of the symbolic
// link, exactly as stored (it may name a path outside every grant; it is
// not resolved).
type ReadlinkResult struct {
	Target string `json:"target"`
}

// WriteBudgetParams are the params of write_budget: Max, when set,
// lowers the write budget to that many bytes (never raises it).
type WriteBudgetParams struct {
	Max *int64 `json:"max,omitempty"`
}

// WriteBudgetResult is the write budget: the most bytes the session may
// add to real files under its writable trees (-1: no bound) and the
// bytes added so far.
type WriteBudgetResult struct {
	Max  int64 `json:"max"`
	Used int64 `json:"used"`
}

// FirstHandle is the lowest handle vfsd allocates; 0, 1 and 2 are reserved
// for the client's stdin, stdout and stderr and are served by the MUX.
const FirstHandle = 3

// Operation names.
const (
	OpOpen        = "open"
	OpRead        = "read"
	OpWrite       = "write"
	OpClose       = "close"
	OpSeek        = "seek"
	OpStat        = "stat"
	OpCreateTemp  = "create_temp"
	OpList        = "list"
	OpHello       = "hello"
	OpStats       = "stats"
	OpVirtuals    = "virtual_files"
	OpLstat       = "lstat"
	OpMkdir       = "mkdir"
	OpRemove      = "remove"
	OpRename      = "rename"
	OpUtimes      = "utimes"
	OpChmod       = "chmod"
	OpReadlink    = "readlink"
	OpWriteBudget = "write_budget"
	OpReadBulk    = "read_bulk"   // only after hello negotiated FeatureReadBulk
	OpWriteBulk   = "write_bulk"  // only after hello negotiated FeatureWriteBulk
	OpReadShm     = "read_shm"    // only after hello negotiated FeatureReadShm
	OpWriteShm    = "write_shm"   // only after hello negotiated FeatureWriteShm
	OpReadShmAt   = "read_shm_at" // only after hello negotiated FeatureReadShmAt
	OpReadFile    = "read_file"   // only after hello negotiated FeatureReadFile
	OpReadFiles   = "read_files"  // only after hello negotiated FeatureReadFiles
	OpReadTail    = "read_tail"   // only after hello negotiated FeatureReadTail
	OpWalk        = "walk"        // only after hello negotiated FeatureWalk
	OpCopy        = "copy"        // only after hello negotiated FeatureCopy
	OpLLMCMD      = "LLMCMD"      // reserved: always E_UNSUPPORTED
	OpQUOTA       = "QUOTA"       // reserved: always E_UNSUPPORTED
)

// Code is a protocol error code.
type Code string

// The error codes of seed 000, exactly.
const (
	EArg         Code = "E_ARG"         // invalid or missing parameter
	ENoEnt       Code = "E_NOENT"       // no such file, handle or path
	EPerm        Code = "E_PERM"        // permission or allowlist violation
	EIO          Code = "E_IO"          // underlying I/O failure
	EClosed      Code = "E_CLOSED"      // handle already closed
	EUnsupported Code = "E_UNSUPPORTED" // operation not supported
	ERange       Code = "E_RANGE"       // size or limit exceeded
)

// Valid reports whether c is one of the protocol's error codes.
func (c Code) Valid() bool {
	switch c {
	case EArg, ENoEnt, EPerm, EIO, EClosed, EUnsupported, ERange:
		return true
	}
	return false
}

// MsgHardLinks is the message of the E_PERM that refuses a write (open
// for writing, chmod, utimes) through a regular file with more than one
// hard link: its other names may lie outside the grants.
const MsgHardLinks = "file has other hard links, which may lie outside the grants"

// MsgOutside is the message of the E_PERM that refuses to create or
// change something outside every grant under --strict (where it would
// otherwise be virtual). Reads there are E_NOENT instead: a path outside
// the grants that is not virtual is absent.
const MsgOutside = "path outside the allowlist"

// Error is the error object of a failed response. It implements error.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string {
	if e.Message == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Message
}

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Request is the envelope of a request. Params is kept raw so that the
// server decodes it into the operation's own parameter type.
type Request struct {
	ID     string          `json:"id"`
	Op     string          `json:"op"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Response is the envelope of a response. Exactly one of Result (when OK)
// and Error (when not OK) is meaningful.
type Response struct {
	ID     string          `json:"id"`
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Framing errors.
var (
	// ErrFrameTooLarge means a frame announced a length over MaxFrame.
	ErrFrameTooLarge = errors.New("vfsproto: frame exceeds maximum size")
	// ErrShortFrame means the stream ended inside a frame.
	ErrShortFrame = errors.New("vfsproto: truncated frame")
)

// ReadFrame reads one frame from r and returns its payload. The length is
// checked against MaxFrame before anything is allocated. buf is reused when
// it is large enough; the returned slice aliases it in that case.
//
// At a clean end of stream (no byte of a new frame read) it returns io.EOF;
// a stream that ends inside a frame gives ErrShortFrame.
func ReadFrame(r io.Reader, buf []byte) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return nil, ErrShortFrame
		}
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > MaxFrame {
		return nil, ErrFrameTooLarge
	}
	if uint32(cap(buf)) >= n {
		buf = buf[:n]
	} else {
		buf = make([]byte, n)
	}
	if _, err := io.ReadFull(r, buf); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, ErrShortFrame
		}
		return nil, err
	}
	return buf, nil
}

// AppendFrame appends the frame of payload (header and body) to dst.
func AppendFrame(dst, payload []byte) ([]byte, error) {
	if len(payload) > MaxFrame {
		return dst, ErrFrameTooLarge
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(payload)))
	return append(dst, payload...), nil
}

// WriteFrame writes payload to w as one frame, in a single Write call.
func WriteFrame(w io.Writer, payload []byte) error {
	b, err := AppendFrame(make([]byte, 0, 4+len(payload)), payload)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Mode is the mode parameter of open.
type Mode string

// The open modes of seed 000.
const (
	ModeRead      Mode = "r"  // read-only; the path must exist
	ModeWrite     Mode = "w"  // write-only; create or truncate
	ModeAppend    Mode = "a"  // write-only; create, writes go to the end
	ModeReadWrite Mode = "rw" // read and write; create without truncating
)

// Whence values of seek.
const (
	SeekSet = "SEEK_SET"
	SeekCur = "SEEK_CUR"
	SeekEnd = "SEEK_END"
)

// OpenParams are the parameters of open.
type OpenParams struct {
	Path string `json:"path"`
	Mode Mode   `json:"mode"`
	// H, once hello negotiated FeatureOpenNamed, is the handle the
	// client names for the file; ignored before.
	H *int64 `json:"h,omitempty"`
}

// OpenResult is the result of open.
type OpenResult struct {
	Handle int64 `json:"handle"`
}

// ReadParams are the parameters of read. Max must be in 1..MaxRead.
type ReadParams struct {
	H   int64 `json:"h"`
	Max int   `json:"max"`
}

// ReadResult is the result of read. Data is base64 on the wire.
type ReadResult struct {
	Data []byte `json:"data"`
	EOF  bool   `json:"eof"`
}

// WriteParams are the parameters of write. Data is base64 on the wire.
type WriteParams struct {
	H     int64  `json:"h"`
	Data  []byte `json:"data"`
	Final bool   `json:"final,omitempty"`
}

// WriteResult is the result of write.
type WriteResult struct {
	Written int `json:"written"`
}

// HandleParams are the parameters of the operations that name only a
// handle (close).
type HandleParams struct {
	H int64 `json:"h"`
}

// SeekParams are the parameters of seek.
type SeekParams struct {
	H      int64  `json:"h"`
	Offset int64  `json:"offset"`
	Whence string `json:"whence"`
}

// CopyParams are the parameters of copy: up to Max bytes of the handle
// From, read from offset Off, written to the handle H at its offset.
type CopyParams struct {
	H    int64 `json:"h"`
	From int64 `json:"from"`
	Off  int64 `json:"off"`
	Max  int64 `json:"max"`
}

// CopyResult is the result of copy: the bytes copied (0: From has no
// bytes at Off).
type CopyResult struct {
	Size int64 `json:"size"`
}

// SeekResult is the result of seek: the new absolute offset.
type SeekResult struct {
	Offset int64 `json:"offset"`
}

// StatParams are the parameters of stat: exactly one of H and Path.
type StatParams struct {
	H    *int64  `json:"h,omitempty"`
	Path *string `json:"path,omitempty"`
}

// StatResult is the result of stat and lstat. Mtime is Unix time in
// nanoseconds; Mode holds the permission bits (and is_dir tells
// directories). Symlink is set only by lstat, on a symbolic link.
type StatResult struct {
	Size    int64  `json:"size"`
	Mtime   int64  `json:"mtime"`
	Mode    uint32 `json:"mode"`
	IsDir   bool   `json:"is_dir"`
	Symlink bool   `json:"symlink,omitempty"`
	// Type is the kind of a file that is neither regular, nor a
	// directory, nor a symbolic link: TypeFIFO, TypeSocket, TypeChar or
	// TypeBlock. Empty otherwise.
	Type string `json:"type,omitempty"`
	// ID is an opaque identity of a real file: equal for two names of
	// the same file within one vfsd process, unrelated across processes,
	// revealing nothing of the host's device and inode. Absent for
	// virtual files and synthesised directories.
	ID string `json:"id,omitempty"`
	// Atime is the last access time of a real file, Unix time in
	// nanoseconds (test -N compares it with Mtime), in stat and lstat
	// results only: absent in listings, for virtual files and for
	// synthesised directories.
	Atime int64 `json:"atime,omitempty"`
}

// PathParams are the parameters of the operations that name only a path
// (lstat, readlink, remove).
type PathParams struct {
	Path string `json:"path"`
}

// MkdirParams are the parameters of mkdir. Mode, when present, is set
// exactly (permission bits only); otherwise the directory gets 0777 less
// vfsd's umask.
type MkdirParams struct {
	Path string  `json:"path"`
	Mode *uint32 `json:"mode,omitempty"`
}

// RenameParams are the parameters of rename.
type RenameParams struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// UtimesParams are the parameters of utimes: Unix times in nanoseconds;
// an absent time is left unchanged.
type UtimesParams struct {
	Path  string `json:"path"`
	Atime *int64 `json:"atime,omitempty"`
	Mtime *int64 `json:"mtime,omitempty"`
}

// ChmodParams are the parameters of chmod: the permission bits to set
// (0 to 0777; setuid, setgid and sticky bits are refused).
type ChmodParams struct {
	Path string `json:"path"`
	Mode uint32 `json:"mode"`
}

// CreateTempParams are the parameters of create_temp.
type CreateTempParams struct {
	Prefix string `json:"prefix,omitempty"`
}

// CreateTempResult is the result of create_temp: a read-write handle on a
// new virtual file, and the path by which it can be opened again.
type CreateTempResult struct {
	Handle int64  `json:"handle"`
	Path   string `json:"path"`
}

// ListParams are the parameters of list.
type ListParams struct {
	Path string `json:"path"`
	// Names asks for a listing of names and kinds (Entry.Kind): no
	// size, and an lstat only for the entries that are directories. A
	// server that does not know it answers the full listing.
	Names bool `json:"names,omitempty"`
}

// Entry is one directory entry in a list result. For a symbolic link,
// Symlink is set and IsDir and Size describe the link's target as it is
// reached through the granted tree (false and 0 when the target is
// missing or leaves the tree), so a client that ignores Symlink sees the
// followed entry as before.
type Entry struct {
	Name    string `json:"name"`
	IsDir   bool   `json:"is_dir"`
	Size    int64  `json:"size"`
	Symlink bool   `json:"symlink,omitempty"`
	Type    string `json:"type,omitempty"` // as StatResult.Type
	// Lstat is the entry's lstat result, set only on a connection whose
	// hello negotiated FeatureListStat (and then left out of an answer
	// that would not fit in MaxFrame with it, and of an entry that
	// lstat would not describe).
	Lstat *StatResult `json:"lstat,omitempty"`
	// Kind is set, and IsDir, Size, Symlink and Type are not, in the
	// entries of a listing asked for with ListParams.Names: the entry's
	// own type, a symbolic link not followed (one of the Kind values).
	Kind string `json:"kind,omitempty"`
}

// The values of Entry.Kind.
const (
	KindFile    = "file" // a regular file
	KindDir     = "dir"
	KindSymlink = "symlink"
	// and TypeFIFO, TypeSocket, TypeChar, TypeBlock
)

// The values of StatResult.Type and Entry.Type.
const (
	TypeFIFO   = "fifo"   // a named pipe
	TypeSocket = "socket" // a Unix domain socket
	TypeChar   = "char"   // a character device
	TypeBlock  = "block"  // a block device
)

// ListResult is the result of list, entries sorted by name.
type ListResult struct {
	Entries []Entry `json:"entries"`
}

// WalkParams are the parameters of walk: Path and the directories below
// it, listed as list{Path, Names} lists each (with Names false, every
// entry with its lstat, as with FeatureListStat). With After (a
// directory below Path, relative to it, or "." for Path itself), the walk
// goes on where an answer that was Cut stopped: with the directories that
// come after After's listing, depth first, Path's listing not repeated.
// With Max (> 0) the walk lists no further once its answer holds Max
// bytes (it answers one directory at least, and never more than a
// frame), and says it was cut.
type WalkParams struct {
	Path  string `json:"path"`
	Names bool   `json:"names,omitempty"`
	After string `json:"after,omitempty"`
	Max   int    `json:"max,omitempty"`
}

// WalkResult is the result of walk: the listing of Path first, then
// those of the directories below it, depth first, each directory's
// entries in name order; symbolic links are not followed. A directory
// that list would not answer, or that did not fit, is not there, nor are
// the directories below it.
//
// Cut is set when the walk stopped with directories left to list (the
// answer would have outgrown a frame, or MaxWalkDirs were listed): a walk
// with After the last of Dirs' paths lists them.
type WalkResult struct {
	Dirs []WalkDir `json:"dirs"`
	Cut  bool      `json:"cut,omitempty"`
}

// WalkDir is one directory of a WalkResult: its path relative to the
// walk's ("." for the walk's own), and its entries as list answers them.
type WalkDir struct {
	Path    string  `json:"path"`
	Entries []Entry `json:"entries"`
}

// ReadFileParams are the parameters of read_file: the first Max bytes
// (1..MaxBulkRead) of the file Path, opened for reading as open does. The
// answer is a ReadBulkResult followed by Size raw bytes; EOF is true when
// they are the whole file. read_tail takes the same parameters for the
// last Max bytes, answered by a ReadTailResult and its bytes.
type ReadFileParams struct {
	Path string `json:"path"`
	Max  int    `json:"max"`
}

// ReadTailResult is the answer frame of read_tail: Stat describes the
// open file (as stat of its handle would); when it is a regular file (or
// a virtual one), the Size bytes that follow the frame are the file's
// from offset Off (Stat.Size minus Max, or 0), read after the stat, so
// Off+Size is Stat.Size unless the file changed in between. Any other
// file (a FIFO, a device) is not read: Off and Size are 0.
type ReadTailResult struct {
	Off  int64      `json:"off"`
	Size int        `json:"size"`
	Stat StatResult `json:"stat"`
}

// ReadFilesParams are the parameters of read_files: the first Max bytes
// (1..MaxBulkRead) of each file of Paths (1..MaxReadFiles of them, and
// len(Paths)*Max at most MaxBulkRead), each opened for reading as open
// does. The answer is a ReadFilesResult followed by the bytes of each
// file in turn (Files[i].Size of them).
type ReadFilesParams struct {
	Paths []string `json:"paths"`
	Max   int      `json:"max"`
}

// ReadFilesResult is the answer frame of read_files: one FileRead per
// path, in their order.
type ReadFilesResult struct {
	Files []FileRead `json:"files"`
}

// FileRead is what read_files read of one file: Size bytes, EOF when
// they are the whole file, or the Error read_file would have answered
// (then Size is 0).
type FileRead struct {
	Size  int    `json:"size"`
	EOF   bool   `json:"eof"`
	Error *Error `json:"error,omitempty"`
}

// ReadBulkResult is the answer frame of read_bulk: exactly Size raw bytes
// of data follow the frame on the stream (none when Size is 0).
type ReadBulkResult struct {
	Size int  `json:"size"`
	EOF  bool `json:"eof"`
}

// ReadShmParams are the parameters of read_shm: read up to Max bytes
// (1..ShmSlot) of handle H into slot Slot (0..ShmSlots-1) of the shared
// region, that is at byte Slot*ShmSlot. The answer is a ReadBulkResult
// with no data after the frame: Size bytes are in the slot.
type ReadShmParams struct {
	H    int64 `json:"h"`
	Max  int   `json:"max"`
	Slot int   `json:"slot"`
}

// ReadShmAtParams are the parameters of read_shm_at: read up to Max
// bytes (1..ShmSlot) of handle H from byte Off of the file into slot
// Slot, as read_shm does, without moving the handle's position. The
// answer is a ReadBulkResult; EOF is set when the file ends within the
// range asked for (fewer than Max bytes are there).
type ReadShmAtParams struct {
	H    int64 `json:"h"`
	Off  int64 `json:"off"`
	Max  int   `json:"max"`
	Slot int   `json:"slot"`
}

// WriteBulkParams are the parameters of write_bulk: exactly Size raw
// bytes of data follow the request frame on the stream.
type WriteBulkParams struct {
	H    int64 `json:"h"`
	Size int   `json:"size"`
}

// WriteShmParams are the parameters of write_shm: write the first Size
// bytes (1..ShmSlot) of slot Slot of the shared region to handle H, as
// write does. The answer is a WriteResult; the client must not change the
// slot before it came.
type WriteShmParams struct {
	H    int64 `json:"h"`
	Slot int   `json:"slot"`
	Size int   `json:"size"`
}

// HelloParams are the parameters of hello. Features asks for optional
// protocol extensions on this connection (FeatureReadBulk); unknown names
// are ignored.
type HelloParams struct {
	Version  int      `json:"version"`
	Features []string `json:"features,omitempty"`
}

// HelloResult is the result of hello. Features lists the requested
// features the server enabled; MaxBulkRead is set when read_bulk is one,
// MaxBulkWrite when write_bulk is, ShmSlots when read_shm is.
type HelloResult struct {
	Version      int      `json:"version"`
	Ops          []string `json:"ops"`
	MaxRead      int      `json:"max_read"`
	MaxFrame     int      `json:"max_frame"`
	Features     []string `json:"features,omitempty"`
	MaxBulkRead  int      `json:"max_bulk_read,omitempty"`
	MaxBulkWrite int      `json:"max_bulk_write,omitempty"`
	// ShmSlots is the number of read_shm slots, set when read_shm is
	// one of the features.
	ShmSlots int `json:"shm_slots,omitempty"`
}

// StatsResult is the result of stats: the server's counters.
type StatsResult struct {
	Opens           int64 `json:"opens"`
	Reads           int64 `json:"reads"`
	Writes          int64 `json:"writes"`
	Closes          int64 `json:"closes"`
	BytesIn         int64 `json:"bytes_in"`
	BytesOut        int64 `json:"bytes_out"`
	AllowlistReject int64 `json:"allowlist_rejects"`
	Requests        int64 `json:"requests"`
	Errors          int64 `json:"errors"`
	OpenHandles     int64 `json:"open_handles"`
	VirtualFiles    int64 `json:"virtual_files"`
	VirtualBytes    int64 `json:"virtual_bytes"`
	// VirtualDirs is the number of virtual directories (ancestors of a
	// virtual file outside every grant).
	VirtualDirs int64 `json:"virtual_dirs"`
	// VirtualNames is what the names of the virtual files and
	// directories take of their budget: their lengths plus a fixed cost
	// per entry.
	VirtualNames int64 `json:"virtual_names"`
}

// VirtualFile describes one session-scoped virtual file, or an empty
// virtual directory made by mkdir (Dir set, Path ending in "/").
type VirtualFile struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
	Dir  bool   `json:"dir,omitempty"`
}

// VirtualsResult is the result of virtual_files: the virtual files of the
// session, sorted by path. When naming them all would not fit a frame,
// Files names the shortest paths that fit and Omitted counts the others.
type VirtualsResult struct {
	Files   []VirtualFile `json:"files"`
	Omitted int64         `json:"omitted,omitempty"`
}

// AppendJSONString appends s as a JSON string. Plain printable ASCII is
// copied directly; anything else goes through encoding/json.
func AppendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			enc, _ := json.Marshal(s)
			return append(b, enc...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// AppendJSONStrings appends a JSON array of strings (null for nil, as
// encoding/json writes it).
func AppendJSONStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, s)
	}
	return append(b, ']')
}
