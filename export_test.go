package llmsh

// SetRunGrowth makes n the heap growth that stops a Run of an in-process
// session without MaxMemory, until the returned restore is called. Not
// for parallel tests: the sessions of other tests would read it.
func SetRunGrowth(n uint64) (restore func()) {
	old := runGrowth
	runGrowth = n
	return func() { runGrowth = old }
}
