package vfsd

import (
	"path"
	"unicode/utf8"

	"github.com/llmsh/llmsh/vfsproto"
)

// walk answers a walk: the listing of the path, then those of the
// directories below it, depth first in name order, each as list answers
// it (list's policy and checks for every directory: each is opened from
// its grant by openat2 RESOLVE_BENEATH), until the answer would not fit
// in a frame, MaxWalkDirs are listed or MaxWalkDepth is reached. A
// directory list refuses (gone, unreadable, outside the grants) is left
// out with all below it, for the client to list and see the error; an
// error of the path itself is the answer. Symbolic links are not
// followed: only entries that are directories themselves are entered
// (walkInto).
//
// The directories are listed one after the other: listing the next ones
// on other goroutines while the answer is written made a walk of 73
// directories 2.1 → 5.5 ms on the loaded 2-core VM (BenchmarkWalk), each
// listing handed over costing a wake-up.
func (c *conn) walk(j *job) (*frameBuf, *vfsproto.Error, int) {
	var p vfsproto.WalkParams
	if e := c.decodeNamed(j.raw, &p, "path"); e != nil {
		return nil, e, 0
	}
	j.path = p.Path
	// An answer of up to a frame held: as a read_bulk's buffer, one of
	// the client's few.
	c.bulkSem <- struct{}{}
	handed := false
	defer func() {
		if !handed {
			<-c.bulkSem
		}
	}()
	f := beginFrame(j.id)
	f.b = append(f.b, `,"ok":true,"result":{"dirs":[`...)
	limit := len(f.b) + vfsproto.MaxFrame - len(j.id) - 96
	type dir struct {
		name, rel string // as the client would name it; below the path
		depth     int
	}
	stack := []dir{{p.Path, ".", 0}}
	for n := 0; len(stack) > 0 && n < vfsproto.MaxWalkDirs; {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var entries []vfsproto.Entry
		var e *vfsproto.Error
		if p.Names {
			entries, e = c.s.listNames(d.name)
		} else {
			entries, e = c.s.list(d.name, true)
		}
		if e != nil {
			if n == 0 {
				putFrame(f)
				return nil, e, 0
			}
			continue
		}
		mark := len(f.b)
		if n > 0 {
			f.b = append(f.b, ',')
		}
		f.b = append(f.b, `{"path":`...)
		f.b = vfsproto.AppendJSONString(f.b, c.wireName(d.rel))
		f.b = append(f.b, `,"entries":`...)
		if p.Names {
			f.b = appendNamesEntries(f.b, c.wireEntries(entries), true)
		} else {
			f.b = appendListEntries(f.b, c.wireEntries(entries), true)
		}
		f.b = append(f.b, '}')
		if len(f.b) > limit {
			f.b = f.b[:mark]
			break
		}
		n++
		if d.depth >= vfsproto.MaxWalkDepth {
			continue
		}
		for i := len(entries) - 1; i >= 0; i-- {
			if en := &entries[i]; walkInto(en, p.Names, c.byteNames.Load()) {
				stack = append(stack, dir{path.Join(d.name, en.Name), path.Join(d.rel, en.Name), d.depth + 1})
			}
		}
	}
	f.b = append(f.b, "]}"...)
	f = f.finish(j.id)
	f.release = func() { <-c.bulkSem }
	handed = true
	return f, nil, 0
}

// walkInto reports whether a walk enters the entry en: a directory
// itself, not a link to one, and named in valid UTF-8 unless byteNames
// (without byte_names JSON cannot carry another name: the client would
// ask list for one with U+FFFD in it, and the walk says no more than
// those lists would).
func walkInto(en *vfsproto.Entry, names, byteNames bool) bool {
	if !byteNames && !utf8.ValidString(en.Name) {
		return false
	}
	if names {
		return en.Kind == vfsproto.KindDir
	}
	return en.Lstat != nil && en.Lstat.IsDir && !en.Lstat.Symlink
}
