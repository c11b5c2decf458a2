package vfsclient

// StopShmAt makes c read with read_shm in order, as with a vfsd that does
// not offer read_shm_at, so that tests cover both ways of WriteTo.
func StopShmAt(c *Client) { c.shmAt = false }

// ShmAt reports whether c reads with read_shm_at.
func ShmAt(c *Client) bool { return c.shmAt }
