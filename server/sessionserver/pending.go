package sessionserver

import (
	"bytes"
	"encoding/json"
	"sync"
	"unicode/utf8"
)

// The bytes a client makes the server hold without reading its answers
// (session 26, red team). Lines of at most freeLine bytes were held
// uncounted while their requests were in progress, which lasts until the
// answer is written; a client that does not read its answers blocks that
// write for WriteTimeout, and each answer to an unknown method echoed the
// method six times over (Go's JSON escapes < as \u003c). 50 connections,
// each sending 64 lines of a 60,000-byte method name and reading nothing,
// took the server (which has no memory guard) to 1.4 GB of RSS in 20 s;
// DefaultMaxConns of them would take about 28 GB.
//
// Now a connection's small lines in progress and the answers it has not
// yet taken are counted, for the connection and for the server: the
// reader reads no further line while the connection holds connPending
// bytes, or while the server's connections hold maxPending bytes and this
// one holds any (a client that waits for each answer is never held back).
// A connection's answers are encoded one at a time, a batch's answer one
// response at a time, without escaping HTML characters, and an error's
// message is at most maxMessage bytes (it may quote what the client sent).

// DefaultMaxPending bounds the bytes of small lines in progress and of
// answers not yet written, across all connections, past which a
// connection that holds some reads no further line until they are
// written.
const DefaultMaxPending = 64 << 20

// connPending bounds them for one connection.
const connPending = 1 << 20

// maxMessage bounds the bytes of an error's message, which may quote what
// the client sent (a method name, a session ID, a path).
const maxMessage = 1024

// pendingPool counts the bytes held for the connections of a server.
type pendingPool struct {
	mu   sync.Mutex
	cond *sync.Cond
	n    int64 // held by every connection
	max  int64
}

func newPendingPool(max int64) *pendingPool {
	p := &pendingPool{max: max}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// charge adds n bytes held by cn.
func (p *pendingPool) charge(cn *conn, n int64) {
	p.mu.Lock()
	p.n += n
	cn.pend += n
	p.mu.Unlock()
}

// give gives back n bytes held by cn and wakes the readers that wait.
func (p *pendingPool) give(cn *conn, n int64) {
	if n == 0 {
		return
	}
	p.mu.Lock()
	p.n -= n
	cn.pend -= n
	p.mu.Unlock()
	p.cond.Broadcast()
}

// wait returns once cn may read another line: it holds nothing, or less
// than connPending while the server holds less than max; or once cn's
// context has ended.
func (p *pendingPool) wait(cn *conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for cn.pend > 0 && (cn.pend >= connPending || p.n >= p.max) && cn.ctx.Err() == nil {
		if cn.s.onPendWait != nil {
			cn.s.onPendWait(cn.pend)
		}
		p.cond.Wait()
	}
}

// wake wakes the readers that wait (a connection's context has ended).
// It broadcasts under mu, so that a reader between its look at the
// context and its Wait is not missed.
func (p *pendingPool) wake() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cond.Broadcast()
}

// encode is v's JSON, ending in a newline, with HTML characters as they
// are (json.Marshal writes each of <, > and & as six bytes).
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// jsonLen is the length of s encoded by encode as a JSON string, without
// its quotes.
func jsonLen(s string) int {
	b, _ := encode(s)
	return len(b) - len(`""`+"\n")
}

// cutMessage is s for an error message: at most maxMessage bytes of it,
// cut at a character's start, and "..." after it when it was cut.
func cutMessage(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	i := maxMessage - len("...")
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}
