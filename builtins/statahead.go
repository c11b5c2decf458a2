package builtins

import (
	"io/fs"
	"path"
	"sync"
)

// statAhead is how many files statAll describes at once: each is a round
// trip to vfsd, and vfsd answers requests that come together in batches.
const statAhead = 16

// statAll describes each of names with stat (an FS's Stat or Lstat), up
// to statAhead at a time, and returns the results in the order of names,
// as a walk that described them one after the other would have them.
func statAll(stat func(string) (fs.FileInfo, error), names []string) ([]fs.FileInfo, []error) {
	return describeAll(len(names), func(i int) (fs.FileInfo, error) { return stat(names[i]) })
}

// entryInfos describes the entries of the directory abs (as ReadDir listed
// them) as lstat does, or as stat does with follow: a symbolic link is
// then followed, anything else is what the entry says. An entry's Info
// comes with the listing where vfsd described the entries in it (no
// round trip at all); else up to statAhead are asked for at once.
func entryInfos(env *Env, abs string, ents []fs.DirEntry, follow bool) ([]fs.FileInfo, []error) {
	return describeAll(len(ents), func(i int) (fs.FileInfo, error) {
		if follow && ents[i].Type()&fs.ModeSymlink != 0 {
			return env.FS.Stat(path.Join(abs, ents[i].Name()))
		}
		return ents[i].Info()
	})
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
