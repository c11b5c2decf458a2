// Package sessionserver keeps llmsh sessions alive for one-shot callers:
// `llmsh serve` listens on a Unix socket (mode 0600, same-uid peers only)
// and answers session.open, session.run and session.close requests, each
// session being one llmsh.Session with its own vfsd. The framing and the
// envelope are vfsd's (package vfsproto): a 4-byte big-endian length, then
// JSON {id, op, params}; answers {id, ok, result} or {id, ok:false,
// error:{code, message}}. See docs/serve.md.
package sessionserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/llmsh/llmsh/shell"
	"github.com/llmsh/llmsh/vfsproto"
)

// Method names (the op of the request envelope).
const (
	MethodOpen  = "session.open"
	MethodRun   = "session.run"
	MethodClose = "session.close"
)

// Error codes of the session protocol. E_ARG and E_UNSUPPORTED are vfsd's;
// the others are the server's own.
const (
	EArg          vfsproto.Code = vfsproto.EArg         // malformed request or bad params
	EUnsupported  vfsproto.Code = vfsproto.EUnsupported // unknown method
	ENoSession    vfsproto.Code = "E_NO_SESSION"        // unknown, closed or expired session
	ETooMany      vfsproto.Code = "E_TOO_MANY_SESSIONS" // --max-sessions reached
	ESession      vfsproto.Code = "E_SESSION"           // the session could not start, or its vfsd died
	EPeer         vfsproto.Code = "E_PEER"              // the peer's uid is not the server's
	EFrame        vfsproto.Code = "E_FRAME"             // a frame over the maximum size; the connection is closed
	EShuttingDown vfsproto.Code = "E_SHUTTING_DOWN"     // the server is stopping
)

// Output caps of a run: the default, and the most a session may ask for
// (the answer must fit in one frame).
const (
	DefaultMaxOutput = 512 << 10
	MaxOutputLimit   = vfsproto.MaxFrame - 64<<10
)

// Duration is a timeout in JSON: a number of seconds or a Go duration
// string ("30s", "1m30s").
type Duration time.Duration

// UnmarshalJSON accepts 2.5 or "2.5s".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			n, err2 := strconv.ParseFloat(s, 64)
			if err2 != nil {
				return fmt.Errorf("invalid duration %q", s)
			}
			v = time.Duration(n * float64(time.Second))
		}
		*d = Duration(v)
		return nil
	}
	var n float64
	if err := json.Unmarshal(b, &n); err != nil {
		return errors.New("duration must be a number of seconds or a string")
	}
	*d = Duration(n * float64(time.Second))
	return nil
}

// MarshalJSON writes the Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// Limits are the optional per-run limits of session.open; zero fields take
// the shell's defaults.
type Limits struct {
	MaxCommands   int64 `json:"max_commands,omitempty"`
	MaxGoFrames   int   `json:"max_go_frames,omitempty"`
	MaxScriptSize int   `json:"max_script_size,omitempty"`
	MaxNesting    int   `json:"max_nesting,omitempty"`
	MaxGoroutines int   `json:"max_goroutines,omitempty"`
}

func (l *Limits) shell() (shell.Limits, error) {
	if l == nil {
		return shell.Limits{}, nil
	}
	if l.MaxCommands < 0 || l.MaxGoFrames < 0 || l.MaxScriptSize < 0 || l.MaxNesting < 0 || l.MaxGoroutines < 0 {
		return shell.Limits{}, errors.New("limits must not be negative")
	}
	return shell.Limits{
		MaxCommands: l.MaxCommands, MaxGoFrames: l.MaxGoFrames, MaxScriptSize: l.MaxScriptSize,
		MaxNesting: l.MaxNesting, MaxGoroutines: l.MaxGoroutines,
	}, nil
}

// OpenParams are the params of session.open.
type OpenParams struct {
	// Inputs are readable, Outputs writable paths; relative ones resolve
	// against Dir.
	Inputs  []string `json:"inputs,omitempty"`
	Outputs []string `json:"outputs,omitempty"`
	// Dir is the session's working directory, absolute; empty: the
	// server's.
	Dir    string `json:"dir,omitempty"`
	Strict bool   `json:"strict,omitempty"`
	// Timeout bounds each run (exit status 124); zero: none.
	Timeout Duration `json:"timeout,omitempty"`
	// MaxOutput caps the stdout+stderr bytes kept per run (status 125,
	// truncated); zero: 512 KiB. At most MaxFrame less 64 KiB.
	MaxOutput int64 `json:"max_output,omitempty"`
	// MaxMemory bounds the heap of the session's process in bytes (a run
	// past it: status 125, "llmsh: memory limit exceeded"); zero: 2 GiB,
	// which is also the most.
	MaxMemory int64   `json:"max_memory,omitempty"`
	Limits    *Limits `json:"limits,omitempty"`
}

// OpenResult is the result of session.open.
type OpenResult struct {
	Session string `json:"session"`
}

// RunParams are the params of session.run.
type RunParams struct {
	Session string `json:"session"`
	Script  string `json:"script"`
	Stdin   string `json:"stdin,omitempty"`
}

// RunResult is the result of session.run: the fields of `llmsh --json`.
type RunResult struct {
	Stdout       string   `json:"stdout"`
	Stderr       string   `json:"stderr"`
	ExitCode     int      `json:"exit_code"`
	Truncated    bool     `json:"truncated"`
	DurationMS   int64    `json:"duration_ms"`
	VirtualFiles []string `json:"virtual_files"`
	// VirtualFilesOmitted counts the virtual files not named in
	// VirtualFiles (llmsh.Result.VirtualFilesOmitted).
	VirtualFilesOmitted int64 `json:"virtual_files_omitted,omitempty"`
}

// CloseParams are the params of session.close.
type CloseParams struct {
	Session string `json:"session"`
}

// Client speaks the session protocol over one connection. Its methods
// must not be called concurrently.
type Client struct {
	conn net.Conn
	next int
	buf  []byte
}

// Dial connects to the server listening on the socket at path.
func Dial(path string) (*Client, error) {
	c, err := net.Dial("unix", path)
	if err != nil {
		return nil, err
	}
	return &Client{conn: c}, nil
}

// Close closes the connection (the sessions stay open on the server).
func (c *Client) Close() error { return c.conn.Close() }

// Call sends one request and decodes its result into result. A failure
// the server answered is a *vfsproto.Error.
func (c *Client) Call(method string, params, result any) error {
	c.next++
	id := strconv.Itoa(c.next)
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	req, err := json.Marshal(vfsproto.Request{ID: id, Op: method, Params: p})
	if err != nil {
		return err
	}
	if err := vfsproto.WriteFrame(c.conn, req); err != nil {
		return err
	}
	frame, err := vfsproto.ReadFrame(c.conn, c.buf)
	if err != nil {
		return fmt.Errorf("reading the answer: %w", err)
	}
	c.buf = frame[:cap(frame)]
	var resp vfsproto.Response
	if err := json.Unmarshal(frame, &resp); err != nil {
		return fmt.Errorf("malformed answer: %w", err)
	}
	if !resp.OK {
		if resp.Error == nil {
			return errors.New("failed answer without an error")
		}
		return resp.Error
	}
	if resp.ID != id {
		return fmt.Errorf("answer to request %q, want %q", resp.ID, id)
	}
	if result == nil {
		return nil
	}
	return json.Unmarshal(resp.Result, result)
}

// Open opens a session and returns its ID.
func (c *Client) Open(p OpenParams) (string, error) {
	var r OpenResult
	if err := c.Call(MethodOpen, p, &r); err != nil {
		return "", err
	}
	return r.Session, nil
}

// Run runs script in the session.
func (c *Client) Run(session, script, stdin string) (RunResult, error) {
	var r RunResult
	err := c.Call(MethodRun, RunParams{Session: session, Script: script, Stdin: stdin}, &r)
	return r, err
}

// CloseSession closes the session: its vfsd exits and its virtual files
// are gone.
func (c *Client) CloseSession(session string) error {
	return c.Call(MethodClose, CloseParams{Session: session}, nil)
}
