package vfsclient

import (
	"io/fs"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/llmsh/llmsh/vfsproto"
)

// Opens that are not waited for (open_named, issue 21). A shell command
// with its own output redirection (`echo $i >> f` in a loop) costs an
// open, its writes and a close: three round trips when each is waited
// for. With open_named the client names the handle, so the writes and
// the close can follow the open unanswered, all three in the cork; vfsd
// runs them in order as it reads them. The answers are had when someone
// needs them: OpenErr, a flush, CloseErr.

// The writes of a File of OpenLater that stay in the cork and keep it
// ordered: each of at most orderedWrite bytes (what the cork takes with
// its data), orderedBytes in all (vfsd writes a write of up to 64 KiB
// on its reader when the handle has nothing queued).
const (
	orderedWrite = 16 << 10
	orderedBytes = 64 << 10
)

// NamedOpens says whether vfsd takes opens the client names
// (OpenLater does not wait then).
func (c *Client) NamedOpens() bool { return c.ready() == nil && c.named }

// OpenLater opens name for writing as OpenFile does, without waiting for
// vfsd's answer when hello negotiated open_named: the request waits in
// the cork, with the file's small writes and CloseLater's close. A
// failure of the open is the error of every later call on the File that
// waits for an answer (Flush, Sent, Stat, Seek, Close), and OpenErr's.
// Without open_named, or for reading or O_EXCL, it is OpenFile.
func (c *Client) OpenLater(name string, flag int) (*File, error) {
	if err := c.ready(); err != nil {
		return nil, pathErr("open", name, err)
	}
	mode := modeFor(flag)
	if !c.named || mode == vfsproto.ModeRead || mode == vfsproto.ModeReadWrite || flag&os.O_EXCL != 0 {
		return c.OpenFile(name, flag)
	}
	c.flushPending()
	h := vfsproto.FirstNamedHandle + c.nextNamed.Add(1) - 1
	if h > vfsproto.MaxNamedHandle {
		return c.OpenFile(name, flag)
	}
	ch, err := c.sendCork(vfsproto.OpOpen, vfsproto.OpenParams{Path: name, Mode: mode, H: &h}, true)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	f := newFile(c, h, name, mode)
	f.openCh, f.ordered = ch, true
	return f, nil
}

// plainString says whether s is a JSON string's content as it stands:
// valid UTF-8 without a quote, a backslash or a control character.
func plainString(s string) bool {
	for _, r := range s {
		if r == '"' || r == '\\' || r < 0x20 || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// appendOpenRequest appends the frame of an open (a named one when h is
// not nil), as encoding/json writes it for a plain path and mode
// (plainString: vfsd's fast path reads it).
func appendOpenRequest(dst []byte, id uint64, path string, mode vfsproto.Mode, h *int64) ([]byte, error) {
	start := len(dst)
	dst = beginRequest(dst, id, vfsproto.OpOpen)
	dst = append(dst, `{"path":"`...)
	dst = append(dst, path...)
	dst = append(dst, `","mode":"`...)
	dst = append(dst, mode...)
	dst = append(dst, '"')
	if h != nil {
		dst = append(dst, `,"h":`...)
		dst = strconv.AppendInt(dst, *h, 10)
	}
	dst = append(dst, '}')
	return finishRequest(dst, start)
}

// resolveOpen waits for the answer to f's open (OpenLater), the first
// time, and takes its failure as f's. The caller holds f.mu.
func (f *File) resolveOpen() {
	if f.openCh == nil {
		return
	}
	f.c.uncork()
	f.takeOpen()
}

// takeOpen receives the answer to f's open (waiting for it if it has not
// come) and takes its failure as f's.
func (f *File) takeOpen() {
	err := recv(f.openCh, nil)
	f.openCh = nil
	if err != nil {
		f.openErr = pathErr("open", f.name, err)
		if f.werr == nil {
			f.werr = f.openErr
		}
	}
}

// OpenErr waits for the answer to f's open and returns its failure (nil
// for a File that OpenLater did not open without waiting).
func (f *File) OpenErr() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resolveOpen()
	return f.openErr
}

// Lazy says whether f's open was sent without waiting for its answer
// (OpenLater with open_named).
func (f *File) Lazy() bool {
	return f.h >= vfsproto.FirstNamedHandle && f.mode != vfsproto.ModeRead
}

// Settled takes the answers that have come to f's open (OpenLater), its
// writes and CloseLater's close, without waiting and without sending
// what the cork holds, and says whether all of them have come and each
// was a success: nothing is left to confirm or report of f (the shell
// then forgets the command whose redirection f was before its barrier).
// False while an answer has yet to come, or when one failed: OpenErr,
// Sent and CloseErr say which, as before. The channels of the answers
// taken are reused.
func (f *File) Settled() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed || len(f.wb) > 0 {
		return false
	}
	if ch := f.openCh; ch != nil {
		if len(ch) == 0 {
			return false
		}
		f.takeOpen()
		putChan(ch)
	}
	for len(f.writes) > 0 && len(f.writes[0]) > 0 {
		putChan(f.takeWrite())
	}
	ch := f.closeCh
	if f.openErr != nil || f.werr != nil || len(f.writes) > 0 || ch == nil || len(ch) == 0 {
		return false
	}
	f.closeCh = nil
	if err := recv(ch, nil); err != nil {
		f.closeErr = pathErr("close", f.name, err)
		return false
	}
	putChan(ch)
	return true
}

// openStat opens name for reading with a handle it names (open_named)
// and sends a stat of that handle behind the open, in the same write:
// vfsd runs a named open on its reader before it reads the stat, so both
// answers come in one round trip, and the File's first Stat (tail's,
// cat's, wc -c's, sort's, cp's, made right after the open) is had
// without another. A failed open is the error, its name freed by a
// close not waited for (the stat fails with the open's error). ok is
// false when no name is left: the caller opens as usual then.
func (c *Client) openStat(name string) (f *File, ok bool, err error) {
	h := vfsproto.FirstNamedHandle + c.nextNamed.Add(1) - 1
	if h > vfsproto.MaxNamedHandle {
		return nil, false, nil
	}
	och, err := c.sendCork(vfsproto.OpOpen, vfsproto.OpenParams{Path: name, Mode: vfsproto.ModeRead, H: &h}, true)
	if err != nil {
		return nil, true, pathErr("open", name, err)
	}
	sch, serr := c.sendCork(vfsproto.OpStat, vfsproto.StatParams{H: &h}, false)
	if serr != nil {
		c.uncork() // the open, corked: its answer is waited for below
	}
	if err := recv(och, nil); err != nil {
		if serr == nil {
			recv(sch, nil) // the open's error again
		}
		c.send(vfsproto.OpClose, vfsproto.HandleParams{H: h})
		return nil, true, pathErr("open", name, err)
	}
	f = newFile(c, h, name, vfsproto.ModeRead)
	if serr == nil {
		var st vfsproto.StatResult
		if recv(sch, &st) == nil {
			f.opened = &st // else File.Stat asks again
		}
	}
	return f, true, nil
}

// CloseLater closes f as Close does, without waiting: what the
// write-behind slot holds is sent, and the close waits in the cork (a
// File of OpenLater) or goes at once. CloseErr has its answer.
func (f *File) CloseLater() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return pathErr("close", f.name, fs.ErrClosed)
	}
	f.closed = true
	if f.wb != nil {
		f.sendWriteSlot()
	}
	h := f.h
	ch, err := f.c.sendFrameCork(func(dst []byte, id uint64) ([]byte, error) {
		start := len(dst)
		dst = beginRequest(dst, id, vfsproto.OpClose)
		dst = append(dst, `{"h":`...)
		dst = strconv.AppendInt(dst, h, 10)
		dst = append(dst, '}')
		return finishRequest(dst, start)
	}, nil, f.ordered)
	if err != nil {
		return pathErr("close", f.name, err)
	}
	f.closeCh = ch
	return nil
}

// CloseErr waits for the answers to f's writes and to CloseLater's close
// and returns the close's failure: a truncating write's commit, say.
// The failures of the open and the writes are OpenErr's and Sent's.
func (f *File) CloseErr() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.flushWrites()
	if f.closeCh == nil {
		return f.closeErr
	}
	// The close may be in the cork still: Settled may have taken the
	// answers to the open and the writes, whose waits sent it.
	f.c.uncork()
	err := recv(f.closeCh, nil)
	f.closeCh = nil
	if err != nil && f.openErr == nil {
		return pathErr("close", f.name, err)
	}
	return nil
}
