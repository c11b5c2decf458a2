package mcp

import "sync"

// lazy holds a value made on first use. Its zero value is ready, so a
// package variable of it needs no code at start-up, where a
// sync.OnceValue made one in the package's init (llmsh issue 21: every
// package init faults in its page of the binary's text, and the 64 KiB
// around it, in llmsh and in its vfsd).
type lazy[T any] struct {
	once sync.Once
	v    T
}

// get returns the value, made by f the first time.
func (l *lazy[T]) get(f func() T) T {
	l.once.Do(func() { l.v = f() })
	return l.v
}
