package vfsclient

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/llmsh/llmsh/vfsproto"
)

// A walk (find, du, ls -R, tar c, grep -r) lists every directory it meets,
// and with list_stat each entry carries its lstat: decoding the listing
// with encoding/json was a fifth of such a walk's CPU. decodeList reads
// exactly the shape vfsd's encoder gives a ListResult (fields in their
// order, the optional ones absent or set), and reports false on anything
// else, for encoding/json to decode: the fast path changes speed, never
// meaning.

// listDec is a cursor over a listing.
type listDec struct {
	b  []byte
	ok bool
	// stats are the lstat results of entries, made statSlab at a time
	// (a walk's answer has thousands: one allocation each was a sixth
	// of the client's allocations in du -s).
	stats []vfsproto.StatResult
}

// statSlab is how many lstat results a listDec allocates at once.
const statSlab = 64

// newStat returns a new lstat result for an entry.
func (d *listDec) newStat() *vfsproto.StatResult {
	if len(d.stats) == cap(d.stats) {
		d.stats = make([]vfsproto.StatResult, 0, statSlab)
	}
	d.stats = d.stats[:len(d.stats)+1]
	return &d.stats[len(d.stats)-1]
}

// lit consumes s, or fails.
func (d *listDec) lit(s string) {
	if d.ok && bytes.HasPrefix(d.b, []byte(s)) {
		d.b = d.b[len(s):]
		return
	}
	d.ok = false
}

// opt consumes s if it is next and reports whether it was.
func (d *listDec) opt(s string) bool {
	if d.ok && bytes.HasPrefix(d.b, []byte(s)) {
		d.b = d.b[len(s):]
		return true
	}
	return false
}

func (d *listDec) str() string {
	if !d.ok || len(d.b) == 0 || d.b[0] != '"' {
		d.ok = false
		return ""
	}
	for i := 1; i < len(d.b); i++ {
		switch c := d.b[i]; {
		case c == '"':
			s := string(d.b[1:i])
			d.b = d.b[i+1:]
			return s
		case c == '\\':
			// Escapes: the whole string by encoding/json.
			end := i
			for end < len(d.b) && d.b[end] != '"' {
				if d.b[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(d.b) {
				d.ok = false
				return ""
			}
			var s string
			if json.Unmarshal(d.b[:end+1], &s) != nil {
				d.ok = false
				return ""
			}
			d.b = d.b[end+1:]
			return s
		case c < 0x20:
			d.ok = false
			return ""
		}
	}
	d.ok = false
	return ""
}

func (d *listDec) int() int64 {
	i := 0
	if i < len(d.b) && d.b[i] == '-' {
		i++
	}
	for i < len(d.b) && d.b[i] >= '0' && d.b[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(string(d.b[:i]), 10, 64)
	if !d.ok || err != nil {
		d.ok = false
		return 0
	}
	d.b = d.b[i:]
	return n
}

func (d *listDec) bool() bool {
	switch {
	case d.opt("true"):
		return true
	case d.opt("false"):
		return false
	}
	d.ok = false
	return false
}

// stat reads a StatResult after its opening brace.
func (d *listDec) stat(st *vfsproto.StatResult) {
	d.lit(`"size":`)
	st.Size = d.int()
	d.lit(`,"mtime":`)
	st.Mtime = d.int()
	d.lit(`,"mode":`)
	mode := d.int()
	if mode < 0 || mode > 0xffffffff {
		d.ok = false
	}
	st.Mode = uint32(mode)
	d.lit(`,"is_dir":`)
	st.IsDir = d.bool()
	if d.opt(`,"symlink":`) {
		st.Symlink = d.bool()
	}
	if d.opt(`,"type":`) {
		st.Type = d.str()
	}
	if d.opt(`,"id":`) {
		st.ID = d.str()
	}
	if d.opt(`,"atime":`) {
		st.Atime = d.int()
	}
	d.lit(`}`)
}

// decodeList decodes a list result of exactly vfsd's shape.
func decodeList(raw []byte) ([]vfsproto.Entry, bool) {
	d := &listDec{b: raw, ok: true}
	d.lit(`{"entries":`)
	out := d.entries()
	d.lit(`}`)
	if !d.ok || len(d.b) != 0 {
		return nil, false
	}
	return out, true
}

// decodeWalk decodes a walk result of exactly vfsd's shape.
func decodeWalk(raw []byte) (vfsproto.WalkResult, bool) {
	d := &listDec{b: raw, ok: true}
	d.lit(`{"dirs":[`)
	var out []vfsproto.WalkDir
	for d.ok && !d.opt(`]`) {
		if len(out) > 0 {
			d.lit(`,`)
		}
		var w vfsproto.WalkDir
		d.lit(`{"path":`)
		w.Path = d.str()
		d.lit(`,"entries":`)
		w.Entries = d.entries()
		d.lit(`}`)
		out = append(out, w)
	}
	cut := d.opt(`,"cut":true`)
	d.lit(`}`)
	if !d.ok || len(d.b) != 0 {
		return vfsproto.WalkResult{}, false
	}
	return vfsproto.WalkResult{Dirs: out, Cut: cut}, true
}

// entries reads a listing's array of entries (never nil when d.ok).
func (d *listDec) entries() []vfsproto.Entry {
	d.lit(`[`)
	var out []vfsproto.Entry
	for d.ok && !d.opt(`]`) {
		if len(out) > 0 {
			d.lit(`,`)
		}
		var e vfsproto.Entry
		d.lit(`{"name":`)
		e.Name = d.str()
		if d.opt(`,"lstat":{`) {
			// An entry of a listing of names and kinds.
			e.Lstat = d.newStat()
			d.stat(e.Lstat)
		}
		if e.Lstat != nil || d.ok && bytes.HasPrefix(d.b, []byte(`,"kind":`)) {
			d.lit(`,"kind":`)
			if e.Kind = d.str(); d.ok && e.Kind == "" {
				d.ok = false
			}
			d.lit(`}`)
			out = append(out, e)
			continue
		}
		d.lit(`,"is_dir":`)
		e.IsDir = d.bool()
		d.lit(`,"size":`)
		e.Size = d.int()
		if d.opt(`,"symlink":`) {
			e.Symlink = d.bool()
		}
		if d.opt(`,"type":`) {
			e.Type = d.str()
		}
		if d.opt(`,"lstat":{`) {
			e.Lstat = d.newStat()
			d.stat(e.Lstat)
		}
		d.lit(`}`)
		out = append(out, e)
	}
	if out == nil {
		out = []vfsproto.Entry{}
	}
	return out
}
