package builtins

import (
	"io/fs"
	"sync"
)

// statAhead is how many files statAll describes at once: each is a round
// trip to vfsd, and vfsd answers requests that come together in batches.
const statAhead = 16

// statAll describes each of names with stat (an FS's Stat or Lstat), up
// to statAhead at a time, and returns the results in the order of names,
// as a walk that described them one after the other would have them.
func statAll(stat func(string) (fs.FileInfo, error), names []string) ([]fs.FileInfo, []error) {
	infos, errs := make([]fs.FileInfo, len(names)), make([]error, len(names))
	if len(names) == 1 {
		infos[0], errs[0] = stat(names[0])
		return infos, errs
	}
	sem := make(chan struct{}, statAhead)
	var wg sync.WaitGroup
	for i, name := range names {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			infos[i], errs[i] = stat(name)
			<-sem
		}()
	}
	wg.Wait()
	return infos, errs
}
