package sessionserver

import "time"

// ForTests is sessionserver's test-support surface: the internals that
// its own tests check directly. Those tests are an external package
// (sessionserver_test), so that a test run compiles sessionserver once,
// not a second time with its tests; nothing else uses ForTests.
var ForTests forTests

type forTests struct{}

// OnRun, OnBulk, OnFree and OnExpire set s's hooks: a run is about to
// start, a snapshot or restore holds bulk, a run, reset or snapshot has
// ended, a session expired. Set them before s serves.
func (forTests) OnRun(s *Server, f func())             { s.onRun = f }
func (forTests) OnBulk(s *Server, f func())            { s.onBulk = f }
func (forTests) OnFree(s *Server, f func())            { s.onFree = f }
func (forTests) OnExpire(s *Server, f func(id string)) { s.onExpire = f }

// OnClosed sets s's hook: Close has closed the listener, and goes on to
// close the connections and sessions.
func (forTests) OnClosed(s *Server, f func()) { s.onClosed = f }

// BulkWaiting reports whether a request of s waits for bulk.
func (forTests) BulkWaiting(s *Server) bool { return s.bulkWaiting.Load() != 0 }

// SetMaxHeld, SetMaxConns and SetUID lower s's bound of the bytes of
// large request lines held and of the connections served, and set the
// uid its peers must have. Held is the bytes held.
func (forTests) SetMaxHeld(s *Server, n int64) { s.maxHeld = n }
func (forTests) SetMaxConns(s *Server, n int)  { s.maxConns = n }
func (forTests) SetUID(s *Server, uid int)     { s.uid = uid }
func (forTests) Held(s *Server) int64          { return s.held.Load() }

// OnPendWait sets s's hook: a connection's reader waits for its answers
// to be written, the connection holding n bytes (pending.go); it runs
// with the pool's lock held. SetMaxPending lowers s's bound of those
// bytes across connections, and Pending is what they hold.
func (forTests) OnPendWait(s *Server, f func(n int64)) { s.onPendWait = f }
func (forTests) SetMaxPending(s *Server, n int64) {
	s.pend.mu.Lock()
	defer s.pend.mu.Unlock()
	s.pend.max = n
}
func (forTests) Pending(s *Server) int64 {
	s.pend.mu.Lock()
	defer s.pend.mu.Unlock()
	return s.pend.n
}

// ConnPending is the most bytes one connection holds before its reader
// waits.
func (forTests) ConnPending() int64 { return connPending }

// NextExpiry is how long until s's next session may expire.
func (forTests) NextExpiry(s *Server) time.Duration { return s.nextExpiry() }

// Known makes a connection of s, with a session id open in s, and
// returns its learn (what the connection records of an id it is told)
// and whether it still knows an id, and how many it knows.
func (forTests) Known(s *Server, open string) (learn func(id string), knows func(id string) bool, n func() int) {
	cn := &conn{s: s}
	s.sessions[open] = &entry{}
	return cn.learn, func(id string) bool { return cn.known[id] }, func() int { return len(cn.known) }
}
