// Package mcpserver serves an llmsh Session over the Model Context
// Protocol (github.com/modelcontextprotocol/go-sdk): a bash tool whose
// calls share the session, and the granted trees as resources read
// through the session's vfsd.
package mcpserver

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/llmsh/llmsh/third_party/go-sdk/jsonrpc"
	"github.com/llmsh/llmsh/third_party/go-sdk/mcp"
	"github.com/llmsh/llmsh/third_party/jsonschema-go/jsonschema"

	"github.com/llmsh/llmsh"
	"github.com/llmsh/llmsh/builtins"
)

// Config describes the session to the model; it must match the Options
// the Session was made with.
type Config struct {
	// Inputs and Outputs are the session's grants, as given.
	Inputs, Outputs []string
	// Strict says writes outside Outputs are refused (else they go to
	// scratch virtual files).
	Strict bool
	// Timeout is the session's limit per call, zero for none.
	Timeout time.Duration
	// MaxOutput is the session's cap on a call's stdout+stderr bytes,
	// zero for none.
	MaxOutput int64
	// MaxWrite is the session's write budget (llmsh.Options.MaxWrite):
	// zero for the default, negative for none.
	MaxWrite int64
	// Version is llmsh's version, for the server's Implementation.
	Version string
	// MaxResources bounds how many files of the granted trees are listed
	// as resources (all of them stay readable through the template);
	// zero means 1000.
	MaxResources int
	// ProgressInterval is how often a bash call that runs long sends
	// notifications/progress, when its request asked for them with a
	// progressToken; zero means every 2 seconds.
	ProgressInterval time.Duration
}

// CodeBusy is the JSON-RPC error code of a tool call refused because
// another is running: the shell runs one call at a time, and a call that
// arrives meanwhile is refused rather than queued (a queue would run calls
// in whatever order their goroutines woke, not the order they were sent).
const CodeBusy = -32001

// busyMessage is the words of a CodeBusy refusal.
const busyMessage = "llmsh: refused: a bash call is still running, and the shell runs one call at a time; send this call again once its answer has come (or cancel it)"

// oneCall admits one tool call at a time. Over Transport the calls are
// admitted as they are read, in the order sent (lockedWriter.admit);
// oneCall guards the handlers on any other transport.
type oneCall struct {
	mu   sync.Mutex
	busy bool
}

// begin admits a call, or returns the JSON-RPC error that refuses it.
func (o *oneCall) begin() (end func(), err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.busy {
		return nil, &jsonrpc.Error{Code: CodeBusy, Message: busyMessage}
	}
	o.busy = true
	return func() {
		o.mu.Lock()
		o.busy = false
		o.mu.Unlock()
	}, nil
}

// BashInput is the bash tool's input.
type BashInput struct {
	Command   string `json:"command" jsonschema:"the bash script to run (one command or many lines)"`
	Stdin     string `json:"stdin,omitempty" jsonschema:"text given to the script as its standard input"`
	TimeoutMS int64  `json:"timeout_ms,omitempty" jsonschema:"stop the script after this many milliseconds (exit code 124)"`
}

// maxTimeoutMS is the largest timeout_ms: the most milliseconds a
// time.Duration holds.
const maxTimeoutMS = int64(math.MaxInt64 / int64(time.Millisecond))

// bashInputSchema is BashInput's schema with timeout_ms bounded: a
// negative one was silently no timeout, and one past int64 answered Go's
// "cannot unmarshal number ... into Go struct field
// mcpserver.BashInput.timeout_ms"; the schema's validation now names the
// bound.
func bashInputSchema() *jsonschema.Schema {
	s, err := jsonschema.For[BashInput](nil)
	if err != nil {
		panic(err) // a static type: a failure is a bug, found by any test
	}
	lo, hi := 0.0, float64(maxTimeoutMS)
	p := s.Properties["timeout_ms"]
	p.Minimum, p.Maximum = &lo, &hi
	p.Description += "; 0 or absent: the server's limit"
	return s
}

// BashOutput is the bash tool's structured output.
type BashOutput struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exit_code"`
	// Truncated: the output cap cut the output (the call was stopped).
	Truncated bool `json:"truncated"`
	// VirtualFiles are the session's scratch files and directories after
	// the call (paths; a directory's ends in /… as llmsh lists it).
	VirtualFiles []string `json:"virtual_files"`
	DurationMS   int64    `json:"duration_ms"`
}

// ResetOutput is the reset tool's structured output.
type ResetOutput struct {
	Dir string `json:"dir" jsonschema:"the working directory the new shell starts in"`
}

// New returns an MCP server for sess. Its bash tool runs every call in
// sess, one at a time (a tool call sent while another runs is refused
// with CodeBusy); closing sess is the caller's business.
func New(sess *llmsh.Session, cfg Config) *mcp.Server {
	desc := Description(sess.Dir(), cfg)
	one := &oneCall{}
	srv := mcp.NewServer(&mcp.Implementation{Name: "llmsh", Title: "llmsh restricted shell", Version: cfg.Version},
		&mcp.ServerOptions{Instructions: desc})
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "bash",
		Title:       "Run a bash script in llmsh",
		Description: desc,
		InputSchema: bashInputSchema(),
	}, func(ctx context.Context, req *mcp.CallToolRequest, in BashInput) (*mcp.CallToolResult, BashOutput, error) {
		end, err := one.begin()
		if err != nil {
			return nil, BashOutput{}, err
		}
		defer end()
		var live *liveOutput
		if tok := req.Params.GetProgressToken(); tok != nil {
			live = &liveOutput{}
			defer progress(ctx, req, tok, cfg.ProgressInterval, live)()
		}
		return runBash(ctx, sess, in, live)
	})
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "reset",
		Title:       "Start the llmsh shell anew",
		Description: "Start the shell anew, as a new terminal: its variables, functions, working directory, background jobs and scratch files are discarded. Files written under the writable paths stay.",
	}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, ResetOutput, error) {
		end, err := one.begin()
		if err != nil {
			return nil, ResetOutput{}, err
		}
		defer end()
		if err := sess.Reset(); err != nil {
			return nil, ResetOutput{}, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "The shell was started anew in " + sess.Dir() + "."}}},
			ResetOutput{Dir: sess.Dir()}, nil
	})
	addResources(srv, sess, cfg)
	return srv
}

// progress sends notifications/progress for the call req, with token,
// every interval until the returned function is called: the seconds the
// call has run as the progress, and as the message the output seen so
// far (bytes of stdout and stderr, and the last line written), so that a
// client (and its user) sees what it is doing.
func progress(ctx context.Context, req *mcp.CallToolRequest, token any, interval time.Duration, live *liveOutput) (stop func()) {
	if interval <= 0 {
		interval = 2 * time.Second
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			secs := time.Since(start).Seconds()
			req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token, Progress: secs,
				Message: fmt.Sprintf("running for %.0fs%s", secs, live.summary()),
			})
		}
	}()
	return func() {
		close(done)
		<-finished // no notification after the answer
	}
}

// liveOutput collects a call's output as it is written, for its progress
// notifications and, once it ends, its answer.
type liveOutput struct {
	mu         sync.Mutex
	stdout     strings.Builder
	stderr     strings.Builder
	both       strings.Builder // in the order written, as Result.Output
	lastLine   string          // the last complete line written, on either stream
	partial    []byte          // what was written after it, per stream
	partialErr []byte
	nOut, nErr int64
}

// maxProgressLine bounds the line a progress message quotes.
const maxProgressLine = 200

// writer is the live writer of stdout (err false) or stderr.
func (l *liveOutput) writer(err bool) io.Writer {
	return liveWriter{l, err}
}

type liveWriter struct {
	l   *liveOutput
	err bool
}

func (w liveWriter) Write(p []byte) (int, error) {
	l := w.l
	l.mu.Lock()
	defer l.mu.Unlock()
	l.both.Write(p)
	partial := &l.partial
	if w.err {
		l.stderr.Write(p)
		l.nErr += int64(len(p))
		partial = &l.partialErr
	} else {
		l.stdout.Write(p)
		l.nOut += int64(len(p))
	}
	if i := bytes.LastIndexByte(p, '\n'); i >= 0 {
		line := append(*partial, p[:i]...)
		if j := bytes.LastIndexByte(line, '\n'); j >= 0 {
			line = line[j+1:]
		}
		l.lastLine = string(line)
		*partial = append((*partial)[:0], p[i+1:]...)
	} else if len(*partial) < maxProgressLine {
		*partial = append(*partial, p...)
	}
	return len(p), nil
}

// summary is the output seen so far, for a progress message: "" for a
// call without live output.
func (l *liveOutput) summary() string {
	if l == nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	s := fmt.Sprintf("; %d bytes of stdout, %d of stderr", l.nOut, l.nErr)
	if l.lastLine != "" {
		line := strings.ToValidUTF8(l.lastLine, "\uFFFD")
		if len(line) > maxProgressLine {
			line = strings.ToValidUTF8(line[:maxProgressLine], "") + "…"
		}
		s += "; last line: " + line
	}
	return s
}

// runBash runs one call of the bash tool; with live set, its output
// goes there as it is written (for progress notifications) and the
// answer is made from it.
func runBash(ctx context.Context, sess *llmsh.Session, in BashInput, live *liveOutput) (*mcp.CallToolResult, BashOutput, error) {
	ro := llmsh.RunOptions{
		Stdin: strings.NewReader(in.Stdin), Timeout: time.Duration(in.TimeoutMS) * time.Millisecond,
	}
	if live != nil {
		ro.Stdout, ro.Stderr = live.writer(false), live.writer(true)
	}
	res, err := sess.RunWith(ctx, in.Command, ro)
	if live != nil {
		live.mu.Lock()
		res.Stdout, res.Stderr, res.Output = live.stdout.String(), live.stderr.String(), live.both.String()
		live.mu.Unlock()
	}
	if errors.Is(err, llmsh.ErrCrashed) || errors.Is(err, llmsh.ErrVfsdGone) {
		// The session's process (or its vfsd) died: start it anew so that
		// the next call works, and say what was lost.
		if rerr := sess.Reset(); rerr != nil {
			return nil, BashOutput{}, fmt.Errorf("%v; starting the session anew: %w", err, rerr)
		}
		res = llmsh.Result{ExitCode: 125, Stderr: fmt.Sprintf("%v\nllmsh: the session was started anew: its variables, functions, working directory and virtual files are gone\n", err)}
		err = nil
	}
	if err != nil {
		return nil, BashOutput{}, err
	}
	out := BashOutput{Stdout: res.Stdout, Stderr: res.Stderr, ExitCode: res.ExitCode, Truncated: res.Truncated,
		VirtualFiles: res.VirtualFiles, DurationMS: res.Duration.Milliseconds()}
	if out.VirtualFiles == nil {
		out.VirtualFiles = []string{}
	}
	var text strings.Builder
	// stdout and stderr as a terminal shows them, each message beside the
	// output of the command that wrote it.
	output := res.Output
	if output == "" {
		output = res.Stdout + res.Stderr
	}
	text.WriteString(output)
	if res.Truncated {
		text.WriteString("[output truncated]\n")
	}
	if res.ExitCode != 0 {
		if text.Len() > 0 && !strings.HasSuffix(text.String(), "\n") {
			text.WriteByte('\n')
		}
		fmt.Fprintf(&text, "[exit code %d]", res.ExitCode)
	}
	if text.Len() == 0 {
		text.WriteString("(no output)")
	}
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: text.String()}},
		IsError: res.ExitCode != 0,
	}, out, nil
}

// Description tells the model what the bash tool can and cannot do.
func Description(dir string, cfg Config) string {
	abs := func(ps []string) string {
		if len(ps) == 0 {
			return "nothing"
		}
		out := make([]string, len(ps))
		for i, p := range ps {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			out[i] = filepath.Clean(p)
		}
		return strings.Join(out, ", ")
	}
	elsewhere := "A write anywhere else (or mkdir, mktemp -d: /tmp is there for them) creates a scratch file or directory that only this shell sees: later calls can read it, and it is discarded when the server exits (it never reaches the disk)."
	if cfg.Strict {
		elsewhere = "A write anywhere else fails with \"Permission denied (outside the writable paths)\"."
	}
	timeout := ""
	if cfg.Timeout > 0 {
		timeout = fmt.Sprintf(" Each call stops after %s at most (exit code 124); timeout_ms can shorten that, not extend it.", cfg.Timeout)
	}
	if cfg.MaxOutput > 0 {
		timeout += fmt.Sprintf(" A call keeps at most %d bytes of output; past that it is stopped (exit code 125, truncated).", cfg.MaxOutput)
	}
	if cfg.MaxWrite >= 0 {
		timeout += fmt.Sprintf(" The session may add at most %d bytes to the writable paths (each file's growth; rewriting a file counts again); past that a write fails with \"File too large\".", cmp.Or(cfg.MaxWrite, llmsh.DefaultMaxWrite))
	}
	timeout += " Calls run one at a time: a call (bash or reset) sent while another runs is refused with an error, never queued; send it again once the answer has come. The reset tool starts the shell anew."
	return fmt.Sprintf(`Run a bash script in llmsh, a restricted shell. The bash language works in full (pipes, redirections, variables, functions, loops, conditionals, here-documents), but every command is one of llmsh's builtins: the common text and file tools (cat, ls, grep, sed, awk, jq, find, sort, uniq, cut, tr, head, tail, wc, diff, xargs, tar and more; run "help" for the list). No other program exists: python, node, git, curl, make, compilers and package managers cannot be run, there is no network, and the host's environment variables are not visible.

Readable: %s. Writable (and readable): %s. Everything else is absent ("No such file or directory") until the script makes it; a write to a readable path that is not writable is "Permission denied". %s

The shell persists across calls, like a terminal: variables, functions, the working directory (initially %s) and scratch files carry over. Background jobs (&) end when the call returns; use wait to collect them.%s`,
		abs(append(append([]string{}, cfg.Inputs...), cfg.Outputs...)), abs(cfg.Outputs), elsewhere, dir, timeout)
}

// fileURI is the file: URI of an absolute path.
func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// uriPath is the absolute path of a file: URI.
func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || !path.IsAbs(u.Path) {
		return "", fmt.Errorf("not a file URI with an absolute path: %q", uri)
	}
	return path.Clean(u.Path), nil
}

// MaxResourceBytes bounds the file a resources/read answers with: a file
// the script wrote may be as big as the write budget (10 GiB by default),
// and its answer is one JSON message, built in several copies (a NUL
// becomes six bytes of each): 300 MB of NULs took llmsh mcp to 12.7 GB
// and 2.5 minutes, 8 MiB to 367 MB (session 21, red team). A larger file
// is refused with CodeInvalidParams; the bash tool reads it in parts.
const MaxResourceBytes = 2 << 20

// addResources lists the files of the granted trees (up to a bound) as
// resources, and adds a template through which any file the session may
// read (virtual files included) can be read by its file: URI.
func addResources(srv *mcp.Server, sess *llmsh.Session, cfg Config) {
	// One read at a time: the SDK serves requests concurrently, and 200
	// reads of a 2 MiB file at once took llmsh mcp to 3.9 GB.
	one := make(chan struct{}, 1)
	read := func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		p, err := uriPath(uri)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		select {
		case one <- struct{}{}:
			defer func() { <-one }()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		b, err := sess.ReadFileMax(p, MaxResourceBytes)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		if errors.Is(err, syscall.EFBIG) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(
				"%s: file too large for a resource (more than %d bytes): read it with the bash tool (head, sed -n, grep)", p, MaxResourceBytes)}
		}
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EISDIR) {
			// A JSON-RPC error with a code (the SDK would send 0), in
			// GNU's words ("PATH: Is a directory"), not Go's ("open
			// PATH: is a directory", -32603)
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: p + ": " + builtins.ErrText(err)}
		}
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: p + ": " + builtins.ErrText(err)}
		}
		c := &mcp.ResourceContents{URI: uri}
		// A NUL is no text (GNU grep's test of a binary file), and six
		// bytes of JSON each as text: such a file goes as base64.
		if utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 {
			c.MIMEType, c.Text = "text/plain", string(b)
		} else {
			c.MIMEType, c.Blob = "application/octet-stream", b
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
	}
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "file",
		Title:       "A file as the shell sees it",
		Description: "Any file the shell may read: under the granted paths, or a scratch file it wrote.",
		URITemplate: "file:///{+path}",
	}, read)

	limit := cfg.MaxResources
	if limit <= 0 {
		limit = 1000
	}
	n := 0
	add := func(p string, size int64) {
		n++
		srv.AddResource(&mcp.Resource{URI: fileURI(p), Name: filepath.Base(p), Title: p, Size: size}, read)
	}
	var walk func(dir string)
	walk = func(dir string) {
		ents, err := sess.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents {
			if n >= limit {
				return
			}
			p := filepath.Join(dir, e.Name())
			// A symbolic link is neither: each file is listed once, by
			// its own path, and a link loop makes no endless tree.
			switch {
			case e.IsDir():
				walk(p)
			case e.Type().IsRegular():
				var size int64
				if info, err := e.Info(); err == nil {
					size = info.Size()
				}
				add(p, size)
			}
		}
	}
	for _, g := range append(append([]string{}, cfg.Inputs...), cfg.Outputs...) {
		if !filepath.IsAbs(g) {
			g = filepath.Join(sess.Dir(), g)
		}
		g = filepath.Clean(g)
		info, err := sess.Stat(g)
		switch {
		case err != nil:
		case info.IsDir():
			walk(g)
		case info.Mode().IsRegular() && n < limit:
			add(g, info.Size())
		}
	}
}
