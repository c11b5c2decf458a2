// llmsh: a small cache for compiled patterns (see LLMSH.md).

package internal

import "sync"

// Cache keeps up to Max values by key, for values that are costly to
// make and never changed once made (compiled patterns), safe for use by
// several goroutines. When Max is reached every value is dropped: the
// ones a loop uses are made again at once.
type Cache[K comparable, V any] struct {
	Max int

	mu sync.Mutex
	m  map[K]V
}

// Get returns the value kept for key, or makes it with mk and keeps it.
func (c *Cache[K, V]) Get(key K, mk func() V) V {
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = mk()
	c.mu.Lock()
	if len(c.m) >= c.Max {
		clear(c.m)
	}
	if c.m == nil {
		c.m = make(map[K]V)
	}
	c.m[key] = v
	c.mu.Unlock()
	return v
}
