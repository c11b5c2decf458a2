package vfsclient

// StopShmAt makes c read with read_shm in order, as with a vfsd that does
// not offer read_shm_at, so that tests cover both ways of WriteTo.
func StopShmAt(c *Client) { c.shmAt = false }

// ShmAt reports whether c reads with read_shm_at.
func ShmAt(c *Client) bool { return c.shmAt }

// ShmW reports whether c writes with write_shm.
func ShmW(c *Client) bool { return c.shmW }

// TakeSlots takes up to n free slots of c's region, as a reader would.
func TakeSlots(c *Client, n int) []int { return c.takeSlots(n) }

// PutSlots gives back slots of TakeSlots.
func PutSlots(c *Client, s []int) { c.putSlots(s) }

// ShmFirst is the size of WriteTo's first read_shm.
const ShmFirst = shmFirst

// AheadBytes is the bytes c's files have asked ahead of their readers.
func AheadBytes(c *Client) int64 { return c.aheadBytes.Load() }

// BulkAheadBudget bounds AheadBytes.
const BulkAheadBudget = bulkAheadBudget

// BulkReadChunk is the most a request of Read asks for.
const BulkReadChunk = bulkReadChunk

// ReadChunk is the bytes f's next read_bulk request asks for.
func ReadChunk(f *File) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.chunk
}
