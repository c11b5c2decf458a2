// Package sessionserver keeps llmsh sessions alive for their clients:
// `llmsh serve` listens on a Unix socket (mode 0600, same-uid peers only)
// and speaks JSON-RPC 2.0 over it, one message per line, each session
// being one isolated llmsh.Session with its own vfsd. See docs/serve.md.
package sessionserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/llmsh/llmsh/shell"
)

// Method names.
const (
	MethodOpen     = "open"
	MethodRun      = "run"
	MethodCancel   = "cancel"
	MethodReset    = "reset"
	MethodList     = "list"
	MethodPing     = "ping"
	MethodClose    = "close"
	MethodSnapshot = "snapshot"
	MethodRestore  = "restore"
	// NotifyOutput is the server's notification of a piece of a run's
	// output.
	NotifyOutput = "output"
)

// Error codes: JSON-RPC 2.0's, then the server's own (-32001 …).
const (
	CodeParse          = -32700 // the line is not JSON
	CodeInvalidRequest = -32600 // not a request object, or a line over MaxLine
	CodeNoMethod       = -32601 // unknown method
	CodeInvalidParams  = -32602 // missing, malformed or invalid params
	CodeInternal       = -32603

	CodeNoSession    = -32001 // unknown or closed session
	CodeExpired      = -32002 // the session expired, idle
	CodeTooMany      = -32003 // --max-sessions sessions are open
	CodeSession      = -32004 // the session could not start, or its process or vfsd died
	CodeBusy         = -32005 // the session is running a script
	CodeShuttingDown = -32006 // the server is stopping
	CodePeer         = -32007 // the peer's uid is not the server's; the connection is closed
	CodeSnapshot     = -32008 // a snapshot that cannot be read or restored
	CodeServerBusy   = -32009 // the server holds too many bytes of large requests
)

// MaxLine bounds one message from a client, its newline included: a
// longer line is answered CodeInvalidRequest and skipped.
const MaxLine = 16 << 20

// Output caps of a run: the default, and the most a session may ask for.
const (
	DefaultMaxOutput = 512 << 10
	MaxOutputLimit   = 8 << 20
)

// Error is a JSON-RPC error object; the Client returns the server's as
// *Error.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

func errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: cutMessage(fmt.Sprintf(format, args...))}
}

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
			return d.seconds(n)
		}
		*d = Duration(v)
		return nil
	}
	var n float64
	if err := json.Unmarshal(b, &n); err != nil {
		return errors.New("duration must be a number of seconds or a string")
	}
	return d.seconds(n)
}

// seconds sets d to n seconds. One past what a Duration holds is
// refused: converted, it became the most negative one, so 1e300 was
// "timeout must not be negative" (session 30, red team).
func (d *Duration) seconds(n float64) error {
	v := n * float64(time.Second)
	if v >= math.MaxInt64 || v < math.MinInt64 {
		return fmt.Errorf("duration %g out of range (at most %d seconds)", n, int64(math.MaxInt64/int64(time.Second)))
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// Limits are the optional per-run limits of open; zero fields take the
// shell's defaults.
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

// OpenParams are the params of open (and the session options of
// restore).
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
	// truncated); zero: DefaultMaxOutput; at most MaxOutputLimit.
	MaxOutput int64 `json:"max_output,omitempty"`
	// MaxMemory bounds the heap of the session's process in bytes (a run
	// past it: status 125, "llmsh: memory limit exceeded"); zero: 2 GiB,
	// which is also the most.
	MaxMemory int64 `json:"max_memory,omitempty"`
	// MaxWrite is the session's write budget: the most bytes its runs
	// may add to files under Outputs (past it a write fails with "File
	// too large"); zero: 10 GiB (llmsh.DefaultMaxWrite); -1: none.
	MaxWrite int64   `json:"max_write,omitempty"`
	Limits   *Limits `json:"limits,omitempty"`
}

// OpenResult is the result of open and restore.
type OpenResult struct {
	Session string `json:"session"`
}

// SessionParams are the params of cancel, reset and close.
type SessionParams struct {
	Session string `json:"session"`
}

// RunParams are the params of run.
type RunParams struct {
	Session string `json:"session"`
	Script  string `json:"script"`
	Stdin   string `json:"stdin,omitempty"`
	// Stream: false turns the output notifications off (default on).
	Stream *bool `json:"stream,omitempty"`
}

// RunResult is the result of run: the fields of `llmsh --json`, and
// whether cancel (or the server's shutdown) ended the run.
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
	// Cancelled: cancel stopped the run (exit code 130); the output is
	// what it wrote until then.
	Cancelled bool `json:"cancelled,omitempty"`
}

// OutputParams are the params of an output notification: a piece of the
// output of the run that request ID (the run's own id) started, in the
// order written.
type OutputParams struct {
	ID      json.RawMessage `json:"id"`
	Session string          `json:"session"`
	Stream  string          `json:"stream"` // "stdout" or "stderr"
	Data    string          `json:"data"`
}

// CancelResult is the result of cancel.
type CancelResult struct {
	// Cancelled: a run was in progress, and is being stopped.
	Cancelled bool `json:"cancelled"`
}

// SessionInfo describes a session in the result of list.
type SessionInfo struct {
	Session string    `json:"session"`
	Busy    bool      `json:"busy"`
	Opened  time.Time `json:"opened"`
	LastUse time.Time `json:"last_used"`
	Dir     string    `json:"dir"`
	Inputs  []string  `json:"inputs"`
	Outputs []string  `json:"outputs"`
}

// ListResult is the result of list.
type ListResult struct {
	Sessions []SessionInfo `json:"sessions"`
}

// PingResult is the result of ping.
type PingResult struct {
	Sessions    int `json:"sessions"`
	MaxSessions int `json:"max_sessions"`
}

// SnapshotParams are the params of snapshot. With Path the server writes
// the snapshot file there (mode 0600, a new file) instead of returning
// it.
type SnapshotParams struct {
	Session string `json:"session"`
	Path    string `json:"path,omitempty"`
}

// SnapshotResult is the result of snapshot: the snapshot file itself, or
// where it was written and its size.
type SnapshotResult struct {
	Snapshot json.RawMessage `json:"snapshot,omitempty"`
	Path     string          `json:"path,omitempty"`
	Bytes    int             `json:"bytes"`
}

// RestoreParams are the params of restore: a new session's options (as
// open's) and the snapshot, given inline or as a file's path.
type RestoreParams struct {
	OpenParams
	Snapshot json.RawMessage `json:"snapshot,omitempty"`
	Path     string          `json:"path,omitempty"`
}
