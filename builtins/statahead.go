package builtins

import (
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// statAhead is how many files describeAll describes at once: each is a round
// trip to vfsd, and vfsd answers requests that come together in batches.
const statAhead = 16

// entryInfos describes the entries of the directory abs (as ReadDir listed
// them) as lstat does, or as stat does with follow: a symbolic link is
// then followed, anything else is what the entry says. An entry's Info
// comes with the listing where vfsd described the entries in it (no
// round trip at all); else up to statAhead are asked for at once.
func entryInfos(env *Env, abs string, ents []fs.DirEntry, follow bool) ([]fs.FileInfo, []error) {
	describe := func(i int) (fs.FileInfo, error) {
		if follow && ents[i].Type()&fs.ModeSymlink != 0 {
			return env.FS.Stat(path.Join(abs, ents[i].Name()))
		}
		return ents[i].Info()
	}
	// Entries the listing described are described here, one after the
	// other: a goroutine each cost more than the lookup (du -s over
	// 3292 entries made as many).
	all := true
	for _, e := range ents {
		if d, ok := e.(DescribedEntry); !ok || !d.Described() || follow && e.Type()&fs.ModeSymlink != 0 {
			all = false
			break
		}
	}
	if all {
		infos, errs := make([]fs.FileInfo, len(ents)), make([]error, len(ents))
		for i := range ents {
			infos[i], errs[i] = describe(i)
		}
		return infos, errs
	}
	return describeAll(len(ents), describe)
}

// DescribedEntry is a directory entry that can tell whether its Info
// needs no round trip (the listing described it).
type DescribedEntry interface {
	Described() bool
}

// describeAll runs describe for 0..n-1, up to statAhead at a time, and
// returns the results in order.
func describeAll(n int, describe func(int) (fs.FileInfo, error)) ([]fs.FileInfo, []error) {
	infos, errs := make([]fs.FileInfo, n), make([]error, n)
	if n == 1 {
		infos[0], errs[0] = describe(0)
		return infos, errs
	}
	sem := make(chan struct{}, statAhead)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			infos[i], errs[i] = describe(i)
			<-sem
		}()
	}
	wg.Wait()
	return infos, errs
}

// dirAheadMax is how many directory listings a walk has made ahead of it
// at most (in flight or waiting for their turn).
const dirAheadMax = 16

// treeAheadMax is how many in a walk of whole trees (TreeLister): each
// lists a subtree the walk has not reached, up to a frame of entries.
const treeAheadMax = 2

// dirAhead lists the directories of a walk ahead of it, so that their
// round trips to vfsd overlap: the walk names the subdirectories it is
// about to enter (ahead), and readDir hands over each listing in its
// turn, or lists a directory that was not named then. Output order is
// the walk's own.
type dirAhead struct {
	env *Env
	m   map[string]*dirListing
	// types: the walk lists names and types (TypeLister) until an entry
	// is asked for more (described), then whole listings.
	types     bool
	described atomic.Bool
	// tree: the walk enters every directory it lists (no pruning by
	// depth, no change to the tree on the way), and lists whole
	// subtrees where the FS can (TreeLister); the listings of the
	// directories below go to trees until the walk reaches them.
	tree  bool
	mu    sync.Mutex
	trees map[string][]fs.DirEntry
	// cuts are the walks of trees whose answers were full, each going on
	// where it stopped; goingOn is held by the one taking one (goOn).
	cuts    []*treeCut
	goingOn sync.Mutex
}

// treeCut is a walk of the tree root (listed by types, or in full) whose
// answer was full after the directory last (its path below root), and
// the walk going on from there, made as soon as the cut is known (so
// that vfsd lists the next directories while the walk takes the ones it
// has): done is closed when its answer (dirs, next, ok, err: ReadTree's)
// is there.
type treeCut struct {
	root, last string
	types      bool
	done       chan struct{}
	dirs       map[string][]fs.DirEntry
	next       string
	ok         bool
	err        error
}

// TreeLister is an FS that can list a directory and the directories
// below it in one go: as ReadDirTypes with types, else as ReadDir, each
// keyed by its path (name joined with the path below it). A directory it
// left out, and those below it, the caller lists itself; ok is false when
// it cannot list so at all, and err is the error of listing name. When
// it stopped because its answer was full, last is the path below name of
// the last directory listed, and a ReadTree of name with after set to it
// goes on with the directories after that one, depth first in name
// order (name's own listing is not made again).
type TreeLister interface {
	ReadTree(name, after string, types bool, described *atomic.Bool) (dirs map[string][]fs.DirEntry, last string, ok bool, err error)
}

// TypeLister is an FS that can list a directory with only its entries'
// names and types, and the lstat of its subdirectories; each entry's Info
// still describes it in full, asked for when called (vfsd's list
// "names"). If any entry needed that, described is set.
type TypeLister interface {
	ReadDirTypes(name string, described *atomic.Bool) ([]fs.DirEntry, error)
}

// list lists the directory abs, by names and types while that has done;
// in a walk of whole trees, with the directories below it.
func (d *dirAhead) list(abs string) ([]fs.DirEntry, error) {
	tl, typed := d.env.FS.(TypeLister)
	types := typed && d.types && !d.described.Load()
	if tr, ok := d.env.FS.(TreeLister); ok && d.tree {
		if ents, ok := d.goOn(tr, abs); ok {
			return ents, nil
		}
		dirs, last, ok, err := tr.ReadTree(abs, "", types, &d.described)
		if err != nil {
			return nil, err
		}
		if ents, listed := dirs[abs]; ok && listed {
			delete(dirs, abs)
			d.mu.Lock()
			d.keep(dirs)
			if last != "" {
				d.cutAt(tr, abs, last, types)
			}
			d.mu.Unlock()
			return ents, nil
		}
	}
	if types {
		return tl.ReadDirTypes(abs, &d.described)
	}
	return d.env.FS.ReadDir(abs)
}

// keep keeps the listings of a walk of a tree until the walk reaches
// them; d.mu is held.
func (d *dirAhead) keep(dirs map[string][]fs.DirEntry) {
	if d.trees == nil {
		d.trees = dirs
	} else {
		maps.Copy(d.trees, dirs)
	}
}

// cutAt notes that the walk of the tree root was cut after last, and
// starts going on with it; d.mu is held.
func (d *dirAhead) cutAt(tr TreeLister, root, last string, types bool) {
	c := &treeCut{root: root, last: last, types: types, done: make(chan struct{})}
	d.cuts = append(d.cuts, c)
	go func() {
		defer close(c.done)
		c.dirs, c.next, c.ok, c.err = tr.ReadTree(root, last, types, &d.described)
	}()
}

// goOn lists abs, a directory a walk of a tree above it left out because
// its answer was full, from the walk going on where it stopped (cutAt):
// one request for the next frame of directories, made while the walk
// took the ones before, where a walk of abs alone would list only its
// subtree, and each directory after it one more round trip. A lister
// ahead of the walk may ask for a directory past the next answer: the
// walk goes on until it reaches it. ok is false when no such walk is
// there to go on with, or it went past abs without it (a directory it
// could not list, or the walk's order is not vfsd's).
func (d *dirAhead) goOn(tr TreeLister, abs string) ([]fs.DirEntry, bool) {
	d.goingOn.Lock()
	defer d.goingOn.Unlock()
	for {
		// Another lister may have gone on while this one waited.
		if ents, ok := d.listed(abs, true); ok {
			return ents, true
		}
		d.mu.Lock()
		i := len(d.cuts) - 1
		for i >= 0 && !ahead(d.cuts[i], abs) {
			i--
		}
		if i < 0 {
			d.mu.Unlock()
			return nil, false
		}
		c := d.cuts[i]
		d.cuts = slices.Delete(d.cuts, i, i+1)
		d.mu.Unlock()
		<-c.done
		if c.err != nil || !c.ok {
			return nil, false
		}
		d.mu.Lock()
		d.keep(c.dirs)
		if c.next != "" {
			d.cutAt(tr, c.root, c.next, c.types)
		}
		d.mu.Unlock()
	}
}

// ahead reports whether the directory abs comes after where the walk c
// stopped, depth first in name order: below c.root, and after c.last
// comparing one name at a time (a directory before those below it).
func ahead(c *treeCut, abs string) bool {
	rel, ok := strings.CutPrefix(abs, strings.TrimSuffix(c.root, "/")+"/")
	if !ok {
		return false
	}
	if c.last == "." {
		return true
	}
	a, b := strings.Split(rel, "/"), strings.Split(c.last, "/")
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return len(a) > len(b)
}

// listed takes the listing of abs a walk of a tree above it made.
func (d *dirAhead) listed(abs string, take bool) ([]fs.DirEntry, bool) {
	if !d.tree {
		return nil, false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	ents, ok := d.trees[abs]
	if ok && take {
		delete(d.trees, abs)
	}
	return ents, ok
}

// dirListing is a listing made ahead; done is closed when it is made.
type dirListing struct {
	done chan struct{}
	ents []fs.DirEntry
	err  error
}

// newDirAhead makes the lister of a walk; types is set for a walk that
// may need no more of most entries than their names and types (find,
// grep -r), and lists them so until one needs more.
func newDirAhead(env *Env, types bool) *dirAhead {
	return &dirAhead{env: env, m: map[string]*dirListing{}, types: types}
}

// ahead starts listing the directories abss (absolute), in that order, as
// far as dirAheadMax allows, and returns those it started, for forget.
func (d *dirAhead) ahead(abss []string) []string {
	var started []string
	most := dirAheadMax
	if _, ok := d.env.FS.(TreeLister); ok && d.tree {
		most = treeAheadMax
	}
	for _, abs := range abss {
		if len(d.m) >= most {
			break
		}
		if _, ok := d.m[abs]; ok {
			continue
		}
		if _, ok := d.listed(abs, false); ok {
			continue
		}
		l := &dirListing{done: make(chan struct{})}
		d.m[abs] = l
		started = append(started, abs)
		go func() {
			defer close(l.done)
			l.ents, l.err = d.list(abs)
		}()
	}
	return started
}

// readDir lists the directory abs: the listing made ahead, if any.
func (d *dirAhead) readDir(abs string) ([]fs.DirEntry, error) {
	if l, ok := d.m[abs]; ok {
		delete(d.m, abs)
		<-l.done
		return l.ents, l.err
	}
	if ents, ok := d.listed(abs, true); ok {
		return ents, nil
	}
	return d.list(abs)
}

// forget drops the listings of abss that the walk did not take (a
// directory pruned or excluded, or the walk stopped), once they are made.
func (d *dirAhead) forget(abss []string) {
	for _, abs := range abss {
		if l, ok := d.m[abs]; ok {
			delete(d.m, abs)
			<-l.done
		}
	}
}

// headAheadMax is how many small files a walk reads ahead of it at most;
// where the FS reads several in one request (HeadsReader), they are
// asked for headBatch at a time, and headBatchBytes in all at most.
const (
	headAheadMax   = 32
	headBatch      = 16
	headBatchBytes = 1 << 20
)

// headAhead reads small files of a walk ahead of it (Env.ReadHead, one
// round trip each), so that their round trips to vfsd overlap; the walk
// takes each in its turn.
type headAhead struct {
	env *Env
	m   map[string]*headRead
}

// headRead is a file read ahead; done is closed when it has been. size
// is the size the file was described with: buf holds its first n bytes
// (up to size+1: a file that grew is not whole).
type headRead struct {
	done  chan struct{}
	size  int64
	buf   []byte
	n     int
	whole bool
	ok    bool // Env.ReadHead could (else the walk opens the file)
	err   error
}

func newHeadAhead(env *Env) *headAhead { return &headAhead{env: env, m: map[string]*headRead{}} }

// room reports whether another read may start.
func (h *headAhead) room() bool { return len(h.m) < headAheadMax }

// start reads the first size+1 bytes of the file abs in the background
// (one more than it was described with: a file that grew is not whole).
func (h *headAhead) start(abs string, size int64) {
	if _, ok := h.m[abs]; ok {
		return
	}
	r := &headRead{done: make(chan struct{}), size: size, buf: make([]byte, size+1)}
	h.m[abs] = r
	go func() {
		defer close(r.done)
		r.n, r.whole, r.ok, r.err = h.env.ReadHead(abs, r.buf)
	}()
}

// fill starts reading ahead the first files of abss, each of the size
// size gives, as far as there is room, and returns how many it started.
// Where the FS reads several files in one request, it starts them a
// batch at a time, and waits for room for a whole batch unless the rest
// fits.
func (h *headAhead) fill(abss []string, size func(string) int64) int {
	if !h.env.CanReadHeads() {
		n := 0
		for ; n < len(abss) && h.room(); n++ {
			h.start(abss[n], size(abss[n]))
		}
		return n
	}
	started := 0
	for started < len(abss) {
		room, rest := headAheadMax-len(h.m), len(abss)-started
		if room < headBatch && room < rest {
			break
		}
		n, most := 0, int64(0)
		for n < min(room, rest, headBatch) {
			m := max(most, size(abss[started+n])+1)
			if int64(n+1)*m > headBatchBytes {
				break
			}
			n, most = n+1, m
		}
		if n == 0 {
			break
		}
		h.startMany(abss[started:started+n], size, int(most))
		started += n
	}
	return started
}

// startMany reads the first size+1 bytes of each file of abss in the
// background, in one request of max bytes a file (Env.ReadHeads); each
// that request could not read is read by itself.
func (h *headAhead) startMany(abss []string, size func(string) int64, max int) {
	reads := make([]*headRead, 0, len(abss))
	names := make([]string, 0, len(abss))
	for _, abs := range abss {
		if _, ok := h.m[abs]; ok {
			continue
		}
		r := &headRead{done: make(chan struct{}), size: size(abs)}
		h.m[abs] = r
		reads, names = append(reads, r), append(names, abs)
	}
	if len(reads) == 0 {
		return
	}
	go func() {
		heads, ok := h.env.ReadHeads(names, max)
		for i, r := range reads {
			if !ok {
				r.buf = make([]byte, r.size+1)
				r.n, r.whole, r.ok, r.err = h.env.ReadHead(names[i], r.buf)
			} else {
				// The bytes as the request read them (no copy); more
				// than size+1 is not the whole file as it was
				// described: a file that grew.
				hd := heads[i]
				r.buf, r.ok, r.err = hd.Data[:min(len(hd.Data), int(r.size)+1)], true, hd.Err
				r.n, r.whole = len(r.buf), hd.Whole && len(hd.Data) <= int(r.size)+1
			}
			close(r.done)
		}
	}()
}

// take returns the read of abs started ahead, once it is done.
func (h *headAhead) take(abs string) (*headRead, bool) {
	r, ok := h.m[abs]
	if ok {
		delete(h.m, abs)
		<-r.done
	}
	return r, ok
}

// forget drops the reads of abss the walk did not take, once they are done.
func (h *headAhead) forget(abss []string) {
	for _, abs := range abss {
		h.take(abs)
	}
}
