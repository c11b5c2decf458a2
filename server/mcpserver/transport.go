package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/llmsh/llmsh/third_party/go-sdk/jsonrpc"
	"github.com/llmsh/llmsh/third_party/go-sdk/mcp"
)

// MaxLine is the longest message Transport accepts, in bytes.
const MaxLine = 16 << 20

// JSON-RPC 2.0 error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// Transport is llmsh mcp's transport: newline-delimited JSON-RPC 2.0 read
// from r and written to w. A line that is not a JSON-RPC message gets an
// error answer and the session goes on: -32700 for bytes that are not
// JSON, -32600 for JSON that is not one request, response or notification
// (a batch included: MCP has none since 2025-06-18) and for a line over
// MaxLine. The SDK's own transports end the session on such a line.
//
// At the end of r the session ends once every request read has been
// answered, so that `printf … | llmsh mcp` gets all its answers.
func Transport(r io.Reader, w io.Writer) mcp.Transport {
	pr, pw := io.Pipe()
	lw := &lockedWriter{w: w, pending: map[string]int{}, cancelled: map[string]int{}}
	lw.cond = sync.NewCond(&lw.mu)
	go func() {
		err := filterLines(r, &requestCounter{pw, lw}, lw)
		if err == nil {
			lw.drain()
		}
		pw.CloseWithError(err)
	}()
	return &mcp.IOTransport{Reader: pr, Writer: lw}
}

// requestCounter records the ids of the requests passed to the SDK.
type requestCounter struct {
	w  io.Writer
	lw *lockedWriter
}

func (c *requestCounter) Write(line []byte) (int, error) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if json.Unmarshal(line, &m) == nil && m.ID == nil && string(m.Method) == `"notifications/cancelled"` {
		c.lw.cancel(line)
	}
	if json.Unmarshal(line, &m) == nil && m.ID != nil && m.Method != nil {
		if string(m.Method) == `"tools/call"` && !c.lw.admit(line, m.ID) {
			return len(line), answer(c.lw, m.ID, CodeBusy, busyMessage)
		}
		c.lw.mu.Lock()
		// At most maxPending requests in the SDK at once: it serves them
		// concurrently, and each answer waits in memory for the client
		// to read it (200 resources/read of a 2 MiB file from a client
		// that read nothing: 678 MB; session 21, red team).
		for c.lw.n >= maxPending && !c.lw.failed {
			c.lw.waiting = true
			c.lw.cond.Wait()
			c.lw.waiting = false
		}
		c.lw.pending[idKey(m.ID)]++
		c.lw.n++
		c.lw.mu.Unlock()
	}
	return c.w.Write(line)
}

// maxPending bounds the requests passed to the SDK and not yet answered;
// reading the next message waits for an answer.
const maxPending = 16

// filterLines copies the JSON-RPC messages of r to out, one per line, and
// answers every other line on errw. It returns nil at r's end.
func filterLines(r io.Reader, out io.Writer, errw io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br)
		if len(line) > 0 || tooLong {
			if werr := filterLine(line, tooLong, out, errw); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine returns the next line of br without its newline; a line over
// MaxLine is read to its end and dropped (tooLong).
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > MaxLine+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSpace(line), tooLong, err
	}
}

func filterLine(line []byte, tooLong bool, out, errw io.Writer) error {
	switch {
	case tooLong:
		return answer(errw, nil, codeInvalidRequest, "Invalid Request: message over 16 MiB")
	case !json.Valid(line):
		return answer(errw, nil, codeParseError, "Parse error")
	case line[0] == '[':
		return answer(errw, nil, codeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported")
	}
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	json.Unmarshal(line, &probe)
	_, err := jsonrpc.DecodeMessage(line)
	if err == nil && probe.Method == nil && probe.Result == nil && probe.Error == nil {
		// The SDK takes it for a response with neither result nor error.
		err = errors.New("neither a method nor a result nor an error")
	}
	if err != nil {
		return answer(errw, probe.ID, codeInvalidRequest, "Invalid Request: "+err.Error())
	}
	_, err = out.Write(append(line, '\n'))
	return err
}

// answer writes a JSON-RPC error response with id (null when nil or not
// an id).
func answer(w io.Writer, id json.RawMessage, code int, msg string) error {
	if len(id) == 0 || !(id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	if errors.Is(err, io.ErrClosedPipe) {
		return nil
	}
	return err
}

// lockedWriter serialises the SDK's messages and Transport's answers, one
// whole line per Write, and strikes off the requests answered.
type lockedWriter struct {
	mu      sync.Mutex
	cond    *sync.Cond
	w       io.Writer
	pending map[string]int // ids of requests not yet answered (a client may repeat one)
	// cancelled counts the requests of an id pending that the client
	// cancelled: their answers are not sent.
	cancelled map[string]int
	// toolCall is the id of the bash or reset call passed to the SDK
	// and not yet answered, "" when none: one that is read meanwhile is
	// refused (CodeBusy) here, in the order the calls were sent. The SDK
	// serves requests concurrently, so a refusal decided in its handlers
	// alone went to whichever goroutine came second: of two calls piped
	// in together, the second ran now and then and the first was refused.
	toolCall string
	n        int  // the requests not yet answered
	failed   bool // a write failed: nobody reads the answers
	waiting  bool // the reader waits for an answer (maxPending)
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	json.Unmarshal(p, &m)
	l.mu.Lock()
	defer l.mu.Unlock()
	id := idKey(m.ID)
	answer := m.ID != nil && m.Method == nil && l.pending[id] > 0
	if answer && l.cancelled[id] > 0 {
		// MCP: the receiver of notifications/cancelled SHOULD stop
		// the request and not answer it (the SDK stopped it).
		if l.cancelled[id]--; l.cancelled[id] == 0 {
			delete(l.cancelled, id)
		}
		l.answered(id)
		return len(p), nil
	}
	n, err := l.w.Write(p)
	if answer {
		l.answered(id)
	}
	if err != nil {
		l.failed = true
	}
	l.cond.Broadcast()
	return n, err
}

// admit tells whether the tools/call request line of id may be passed
// to the SDK: any but bash and reset may, and those when no other of
// them waits for its answer.
func (l *lockedWriter) admit(line []byte, id json.RawMessage) bool {
	var c struct {
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &c) != nil || c.Params.Name != "bash" && c.Params.Name != "reset" {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.toolCall != "" {
		return false
	}
	l.toolCall = idKey(id)
	return true
}

// answered strikes off a request of id; l.mu is held.
func (l *lockedWriter) answered(id string) {
	if id == l.toolCall {
		l.toolCall = ""
	}
	l.n--
	if l.pending[id]--; l.pending[id] == 0 {
		delete(l.pending, id)
	}
}

// cancel notes the request that a notifications/cancelled line names, if
// it is pending and not all its requests are cancelled already (session
// 23's leftover, red team: llmsh mcp stopped a cancelled call but still
// answered it).
func (l *lockedWriter) cancel(line []byte) {
	var c struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &c) != nil || c.Params.RequestID == nil {
		return
	}
	id := idKey(c.Params.RequestID)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending[id] > l.cancelled[id] {
		l.cancelled[id]++
	}
}

// idKey is a JSON-RPC id as the pending requests are keyed: its JSON,
// compacted.
func idKey(id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}

// drain waits until every request passed on has been answered.
func (l *lockedWriter) drain() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.n > 0 && !l.failed {
		l.cond.Wait()
	}
}

func (l *lockedWriter) Close() error { return nil }
