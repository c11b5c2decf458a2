package shell

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// File descriptors 3 and up. interp knows only 0, 1 and 2: `exec 3>FILE`,
// `cmd >&3`, `read -u 3`, `{ …; } 3>out` all fail there with "unsupported
// redirect fd". llmsh keeps its own descriptor table, and the pre-pass
// (fdRedirStmt) turns each redirection that names a descriptor above 2
// into a redirection of stdout or stderr to an internal name that the open
// handler serves from that table:
//
//	N>FILE N>>FILE N<FILE N<>FILE N>&M N<&M N>&-   ->  1>>"\x01fd ID N ARG" 2>>"\x01fd sync"
//	>&N 2>&N (N > 2, or a word like $fd)           ->  1>>"\x01fd ID 1 N" (2>>… for 2>&N)
//	<&N                                           ->  0<"\x01fd ID 0 N"
//	read … <&N                                    ->  read -u N …
//	{var}>FILE …                                  ->  { \x00fdalloc var; … "$var">FILE …; }
//
// The table travels with the shell's stdout and stderr: the writer that
// the first redirection installs as stdout is an fdCarrier, the shell's
// stdout as it was with the new table attached, and the "sync" one gives
// stderr the same table. So the table is what bash's is: inherited by
// subshells (interp copies their stdout and stderr), restored when the
// command whose redirections changed it ends (interp restores stdout and
// stderr and closes what the redirections opened: closing a carrier gives
// back the descriptors it added), and kept by exec (interp keeps both).
// Redirections of stdout and stderr to files carry the table on too.
//
// A descriptor is an fdObj: a file opened through the open handler (so
// through vfsd, with writes confirmed as every redirection's), or the
// stdin, stdout or stderr that `N<&0`, `N>&1`, `N>&2` duplicated. Its
// input is read through one buffer shared by every reader of the
// descriptor, so successive `read -u N` continue where the last stopped.

const (
	fdFile     = "\x01fd "
	fdAllocCmd = "\x00fdalloc"
	fdMax      = 1 << 16
)

// fdOpKind is what a rewritten redirection does.
type fdOpKind int

const (
	fdOpen     fdOpKind = iota // N>FILE and the other file redirections
	fdDup                      // N>&M, N<&M: M a descriptor, "-" or "M-"
	fdToStdout                 // >&N, 2>&N: stdout or stderr becomes N
	fdToStdin                  // <&N
)

// fdOp is one rewritten redirection.
type fdOp struct {
	kind       fdOpKind
	flag       int    // os.O_* for fdOpen
	truncate   bool   // N>FILE: truncate first
	clobber    bool   // N>|FILE: even under set -C
	toFile     bool   // >&WORD, 1>&WORD: a WORD that is no descriptor names a file, as &>WORD
	persistent bool   // under exec: the change outlives the command
	src        string // the redirection's word as written, for messages
}

// fdTable maps descriptors to entries. It is never changed once made.
type fdTable struct {
	m     map[int]*fdEntry
	scope *fdScope // the subshell the table belongs to; nil at the top
}

// fdScope is a subshell's own entries: the copies it started with and
// those its exec made. They are released when the subshell ends, so that
// what it closes or replaces is its copy, not its parent's descriptor.
type fdScope struct {
	mu      sync.Mutex
	entries []*fdEntry
}

func (sc *fdScope) add(e *fdEntry) {
	sc.mu.Lock()
	sc.entries = append(sc.entries, e)
	sc.mu.Unlock()
}

func (sc *fdScope) Close() error {
	sc.mu.Lock()
	entries := sc.entries
	sc.entries = nil
	sc.mu.Unlock()
	for _, e := range entries {
		e.release()
	}
	return nil
}

// fork is t for a subshell: every descriptor a new entry of its own.
func (t *fdTable) fork() *fdTable {
	sc := &fdScope{}
	m := map[int]*fdEntry{}
	if t != nil {
		for k, e := range t.m {
			ne := e.obj.entry()
			sc.add(ne)
			m[k] = ne
		}
	}
	return &fdTable{m: m, scope: sc}
}

func (t *fdTable) get(n int) *fdEntry {
	if t == nil {
		return nil
	}
	return t.m[n]
}

func (t *fdTable) with(n int, e *fdEntry) *fdTable {
	m := map[int]*fdEntry{}
	var sc *fdScope
	if t != nil {
		for k, v := range t.m {
			m[k] = v
		}
		sc = t.scope
	}
	if e == nil {
		delete(m, n)
	} else {
		m[n] = e
	}
	return &fdTable{m: m, scope: sc}
}

// fdEntry is one descriptor's reference to an fdObj. Releasing an entry
// more than once counts once.
type fdEntry struct {
	obj      *fdObj
	released atomic.Bool
}

func (e *fdEntry) release() {
	if e.released.CompareAndSwap(false, true) {
		e.obj.unref()
	}
}

// fdObj is an open descriptor's file.
type fdObj struct {
	st    *fdState
	w     io.Writer // nil: not open for writing
	r     *fdReader // nil: not open for reading
	close func() error
	refs  atomic.Int32
}

func (st *fdState) newObj(w io.Writer, r *fdReader, close func() error) *fdObj {
	o := &fdObj{st: st, w: w, r: r, close: close}
	if close != nil {
		st.mu.Lock()
		st.open[o] = true
		st.mu.Unlock()
	}
	return o
}

func (o *fdObj) entry() *fdEntry {
	o.refs.Add(1)
	return &fdEntry{obj: o}
}

func (o *fdObj) unref() {
	if o.refs.Add(-1) == 0 {
		o.closeNow()
	}
}

func (o *fdObj) closeNow() {
	if o.close == nil {
		return
	}
	o.st.mu.Lock()
	open := o.st.open[o]
	delete(o.st.open, o)
	o.st.mu.Unlock()
	if open {
		o.close()
	}
}

// writer is where writes to the descriptor go: EBADF if it is not open
// for writing, as in bash.
func (o *fdObj) writer() io.Writer {
	if o.w == nil {
		return badWriter{}
	}
	return o.w
}

type badWriter struct{}

func (badWriter) Write([]byte) (int, error) { return 0, syscall.EBADF }

// fdState is the descriptors of a shell and the shells nested in it.
type fdState struct {
	mu   sync.Mutex
	open map[*fdObj]bool
	last *fdTable // the table of the latest exec: used where neither stdout nor stderr carries one
}

func newFdState() *fdState { return &fdState{open: map[*fdObj]bool{}} }

// closeAll closes every descriptor still open: the script is over.
func (st *fdState) closeAll() {
	st.mu.Lock()
	objs := make([]*fdObj, 0, len(st.open))
	for o := range st.open {
		objs = append(objs, o)
	}
	st.open = map[*fdObj]bool{}
	st.last = nil
	st.mu.Unlock()
	for _, o := range objs {
		o.close()
	}
}

// fdReader is a descriptor's input: one buffer for all its readers.
type fdReader struct {
	mu sync.Mutex
	br *bufio.Reader
	r  io.Reader // unbuffered (a duplicated stdin): one byte at a time
}

func newFdReader(r io.Reader, buffered bool) *fdReader {
	if buffered {
		return &fdReader{br: bufio.NewReader(r)}
	}
	return &fdReader{r: r}
}

// readLocked reads with fr.mu held.
func (fr *fdReader) readLocked(p []byte) (int, error) {
	if fr.br != nil {
		return fr.br.Read(p)
	}
	if len(p) > 1 {
		p = p[:1]
	}
	return fr.r.Read(p)
}

// fdReadEnd is a descriptor's input given to a command as its stdin.
// Closing it ends its reads, not the descriptor.
type fdReadEnd struct {
	obj    *fdObj
	closed atomic.Bool
}

func (e *fdReadEnd) Read(p []byte) (int, error) {
	if e.closed.Load() {
		return 0, io.EOF
	}
	fr := e.obj.r
	if fr == nil {
		return 0, syscall.EBADF
	}
	fr.mu.Lock()
	defer fr.mu.Unlock()
	return fr.readLocked(p)
}

func (e *fdReadEnd) Write([]byte) (int, error) { return 0, syscall.EBADF }
func (e *fdReadEnd) Close() error              { e.closed.Store(true); return nil }

// fdCarrier is the shell's stdout or stderr with the descriptor table.
type fdCarrier struct {
	w     io.Writer
	tab   *fdTable
	owned io.Closer  // a redirection's file, closed with the carrier
	rel   []*fdEntry // descriptors a command's redirections added
	// live: installed by exec at the top level, where the table in
	// force is s.fds.last, which a later exec inside a command with
	// redirections of its own ({ exec 4>f; } >log) changes too.
	live bool
}

func (c *fdCarrier) Write(p []byte) (int, error) { return c.w.Write(p) }
func (c *fdCarrier) Read([]byte) (int, error)    { return 0, syscall.EBADF }

// Unwrap is the stream itself (asOutFile looks through it).
func (c *fdCarrier) Unwrap() io.Writer { return c.w }

// Close gives back the descriptors that the redirection added, and closes
// the file it opened.
func (c *fdCarrier) Close() error {
	for _, e := range c.rel {
		e.release()
	}
	if c.owned != nil {
		return c.owned.Close()
	}
	return nil
}

// plainWriter is w without the carrier.
func plainWriter(w io.Writer) io.Writer {
	if c, ok := w.(*fdCarrier); ok {
		return c.w
	}
	return w
}

// fdTableOf is the table in force for a handler.
func (s *Shell) fdTableOf(hc interp.HandlerContext) *fdTable {
	c, ok := hc.Stdout.(*fdCarrier)
	if !ok {
		c, ok = hc.Stderr.(*fdCarrier)
	}
	if ok && !c.live {
		return c.tab
	}
	s.fds.mu.Lock()
	defer s.fds.mu.Unlock()
	return s.fds.last
}

// carry attaches the table in force to a redirection's output file.
func (s *Shell) carry(hc interp.HandlerContext, f io.ReadWriteCloser) io.ReadWriteCloser {
	tab := s.fdTableOf(hc)
	if tab == nil || len(tab.m) == 0 {
		return f
	}
	return &fdCarrier{w: f, tab: tab, owned: f}
}

// fdBadErr is bash's "N: Bad file descriptor".
func fdBadErr(n string) error { return redirError(n, syscall.EBADF) }

// parseFd reads a descriptor number.
func parseFd(s string) (int, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n < fdMax
}

// fdOpen serves the open handler's "\x01fd ID N ARG" names.
func (s *Shell) fdOpen(ctx context.Context, spec string) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	switch spec {
	case "sync":
		out, _ := hc.Stdout.(*fdCarrier)
		return &fdCarrier{w: plainWriter(hc.Stderr), tab: s.fdTableOf(hc), live: out != nil && out.live}, nil
	}
	if arg, ok := strings.CutPrefix(spec, "both "); ok {
		// After >&WORD (op.toFile): stderr goes where stdout now goes
		// when WORD named a file, else stays.
		if _, isFd := parseFd(strings.TrimSuffix(arg, "-")); !isFd && arg != "-" && arg != "" && !strings.HasSuffix(arg, "-") {
			return &fdCarrier{w: plainWriter(hc.Stdout), tab: s.fdTableOf(hc)}, nil
		}
		return &fdCarrier{w: plainWriter(hc.Stderr), tab: s.fdTableOf(hc)}, nil
	}
	switch spec {
	case "fork":
		tab := s.fdTableOf(hc).fork()
		return &fdCarrier{w: plainWriter(hc.Stdout), tab: tab, owned: tab.scope}, nil
	}
	_, rest, _ := strings.Cut(spec, " ")
	target, arg, _ := strings.Cut(rest, " ")
	v, _ := s.state.made(hc.Node)
	op, ok := v.(*fdOp)
	if !ok {
		return nil, redirError(spec, syscall.ENOENT)
	}
	tab := s.fdTableOf(hc)
	switch op.kind {
	case fdToStdout, fdToStdin:
		if arg == "" {
			return nil, redirError(op.src, errAmbiguous)
		}
		m, ok := parseFd(arg)
		if !ok && arg != "-" && op.toFile && !strings.HasSuffix(arg, "-") {
			// bash: >&WORD is &>WORD when WORD is no descriptor (the
			// "both" redirection that follows gives stderr the file).
			f, err := s.openPlain(ctx, arg, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, false)
			if err != nil {
				return nil, err
			}
			return s.carry(hc, f), nil
		}
		if !ok && arg != "-" {
			return nil, redirError(arg, errAmbiguous)
		}
		if op.kind == fdToStdin {
			switch {
			case arg == "-":
				return &fdReadEnd{obj: &fdObj{r: newFdReader(strings.NewReader(""), false)}}, nil
			case m == 0:
				return nil, redirError(op.src, errAmbiguous) // left to interp by the pre-pass
			}
			e := s.fdGet(hc, tab, m)
			if e == nil {
				return nil, fdBadErr(arg)
			}
			return &fdReadEnd{obj: e.obj}, nil
		}
		var w io.Writer
		switch {
		case arg == "-":
			w = io.Discard
		case m == 1:
			w = plainWriter(hc.Stdout)
		case m == 2:
			w = plainWriter(hc.Stderr)
		default:
			e := s.fdGet(hc, tab, m)
			if e == nil {
				return nil, fdBadErr(arg)
			}
			w = e.obj.writer()
		}
		return &fdCarrier{w: w, tab: tab}, nil
	}
	n, ok := parseFd(target)
	if !ok {
		if target != "" && strings.Trim(target, "0123456789") == "" {
			return nil, fdBadErr(target)
		}
		return nil, redirError(target, errAmbiguous)
	}
	var e *fdEntry
	switch op.kind {
	case fdOpen:
		o, err := s.fdOpenFile(ctx, hc, arg, op)
		if err != nil {
			return nil, err
		}
		e = o.entry()
	case fdDup:
		move := false
		if a, ok := strings.CutSuffix(arg, "-"); ok && a != "" {
			arg, move = a, true
		}
		if arg != "-" {
			m, ok := parseFd(arg)
			if !ok {
				return nil, redirError(op.src, errAmbiguous)
			}
			switch m {
			case 0:
				in := hc.Stdin
				if in == nil {
					in = strings.NewReader("")
				}
				e = s.fds.newObj(nil, newFdReader(in, false), nil).entry()
			case 1:
				e = s.fds.newObj(plainWriter(hc.Stdout), nil, nil).entry()
			case 2:
				e = s.fds.newObj(plainWriter(hc.Stderr), nil, nil).entry()
			default:
				old := s.fdGet(hc, tab, m)
				if old == nil {
					return nil, fdBadErr(arg)
				}
				e = old.obj.entry()
			}
			if move && m > 2 {
				if old := tab.get(m); old != nil && op.persistent {
					old.release()
				}
				tab = tab.with(m, nil)
			}
		}
	}
	if old := tab.get(n); old != nil && old != e && op.persistent {
		old.release()
	}
	tab = tab.with(n, e)
	c := &fdCarrier{w: plainWriter(hc.Stdout), tab: tab}
	if op.persistent {
		if tab.scope != nil {
			if e != nil {
				tab.scope.add(e)
			}
		} else {
			s.fds.mu.Lock()
			s.fds.last = tab
			s.fds.mu.Unlock()
			c.live = true
		}
	} else if e != nil {
		c.rel = []*fdEntry{e}
	}
	return c, nil
}

// fdGet is descriptor m of tab; 0, 1 and 2 are the shell's own streams.
func (s *Shell) fdGet(hc interp.HandlerContext, tab *fdTable, m int) *fdEntry {
	return tab.get(m)
}

var errAmbiguous = fmt.Errorf("ambiguous redirect")

// fdOpenFile opens the file of N>FILE (and the others) through the open
// handler's own routes: devices, process substitutions, vfsd.
func (s *Shell) fdOpenFile(ctx context.Context, hc interp.HandlerContext, name string, op *fdOp) (*fdObj, error) {
	if op.truncate {
		// vfsd commits a truncating write on close (a temp file renamed
		// over the target): truncate at once, then write in place, so
		// that what is written is visible as in bash.
		f, err := s.openPlain(ctx, name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, op.clobber)
		if err != nil {
			return nil, err
		}
		o, ok := f.(*outFile)
		if !ok {
			return s.fdObjFor(f, op.flag), nil
		}
		if err := o.Close(); err != nil {
			return nil, redirError(name, err)
		}
	}
	f, err := s.openPlain(ctx, name, op.flag, false)
	if err != nil {
		return nil, err
	}
	return s.fdObjFor(f, op.flag), nil
}

// fdObjFor makes a descriptor of an open file.
func (s *Shell) fdObjFor(f io.ReadWriteCloser, flag int) *fdObj {
	lf := &lockedFile{f: f}
	var w io.Writer
	var r *fdReader
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		w = lf
		if o, ok := f.(*outFile); ok {
			o.f = &lockedFile{f: o.f}
			w = o
		}
	}
	if flag&os.O_WRONLY == 0 {
		r = newFdReader(lf, true)
	}
	return s.fds.newObj(w, r, f.Close)
}

// lockedFile serialises the use of a file that several commands may
// share (vfsclient's File is used by one goroutine at a time).
type lockedFile struct {
	mu sync.Mutex
	f  io.ReadWriteCloser
}

func (l *lockedFile) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Read(p)
}

func (l *lockedFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Write(p)
}

func (l *lockedFile) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if f, ok := l.f.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

func (l *lockedFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}

// fdAllocCall runs `\x00fdalloc NAME...`: each NAME gets the lowest free
// descriptor from 10 up, as bash's {NAME}>FILE does.
func (s *Shell) fdAllocCall(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	tab := s.fdTableOf(hc)
	var src strings.Builder
	n := 10
	for _, name := range args[1:] {
		for tab.get(n) != nil {
			n++
		}
		fmt.Fprintf(&src, "%s=%d; ", name, n)
		n++
	}
	return []string{"eval", src.String()}
}

// fdDevPath serves /dev/fd/N for a descriptor of the table.
func (s *Shell) fdDevPath(hc interp.HandlerContext, name string, output bool) (io.ReadWriteCloser, bool) {
	text, ok := strings.CutPrefix(name, "/dev/fd/")
	if !ok {
		return nil, false
	}
	n, ok := parseFd(text)
	if !ok {
		return nil, false
	}
	switch n {
	case 0:
		return nopRWC{r: hc.Stdin}, true
	case 1:
		return nopRWC{w: plainWriter(hc.Stdout)}, true
	case 2:
		return nopRWC{w: plainWriter(hc.Stderr)}, true
	}
	tab := s.fdTableOf(hc)
	e := tab.get(n)
	if e == nil {
		return nil, false
	}
	if output {
		return &fdCarrier{w: e.obj.writer(), tab: tab}, true
	}
	return &fdReadEnd{obj: e.obj}, true
}

// fdOpener gives a builtin its descriptors by their /dev/fd/N names:
// 0, 1 and 2 are the builtin's own standard streams, others the
// descriptors of the table in force for it (awk's getline < "/dev/fd/3",
// print > "/dev/fd/4", cat /dev/fd/3 after exec 3<file).
func (s *Shell) fdOpener(stdin io.Reader, stdout, stderr io.Writer) func(n int, output bool) (io.ReadWriteCloser, bool) {
	return func(n int, output bool) (io.ReadWriteCloser, bool) {
		switch n {
		case 0:
			return nopRWC{r: stdin}, stdin != nil
		case 1:
			return nopRWC{w: plainWriter(stdout)}, true
		case 2:
			return nopRWC{w: plainWriter(stderr)}, true
		}
		tab := s.fdTableOf(interp.HandlerContext{Stdout: stdout, Stderr: stderr})
		if tab == nil {
			return nil, false
		}
		e := tab.get(n)
		if e == nil {
			return nil, false
		}
		if output {
			return nopRWC{w: e.obj.writer()}, true
		}
		return &fdReadEnd{obj: e.obj}, true
	}
}

// fdRedirStmt rewrites the redirections of st that name descriptors above
// 2 (see the comment at the top of this file).
func (r *rewriter) fdRedirStmt(st *syntax.Stmt) {
	if !hasFdRedir(st) {
		return
	}
	persistent := false
	if ce, ok := st.Cmd.(*syntax.CallExpr); ok && len(ce.Args) == 1 && ce.Args[0].Lit() == "exec" && len(ce.Assigns) == 0 {
		persistent = true
	}
	readToFd(st)
	var allocs []*syntax.Word
	var out []*syntax.Redirect
	for _, rd := range st.Redirs {
		n, isVar, ok := redirFd(rd)
		if !ok {
			out = append(out, rd)
			continue
		}
		op := &fdOp{persistent: persistent, src: wordSource(rd.Word)}
		var target *syntax.Word
		switch {
		case isVar:
			target = quotedParam(n)
		default:
			target = litWord(n)
		}
		fdN, valid := parseFd(n)
		small := !isVar && valid && fdN <= 2
		switch rd.Op {
		case syntax.RdrOut, syntax.RdrClob:
			op.kind, op.flag, op.truncate = fdOpen, os.O_WRONLY|os.O_CREATE|os.O_APPEND, true
			op.clobber = rd.Op == syntax.RdrClob
		case syntax.AppOut:
			op.kind, op.flag = fdOpen, os.O_WRONLY|os.O_CREATE|os.O_APPEND
		case syntax.RdrIn:
			op.kind, op.flag = fdOpen, os.O_RDONLY
		case syntax.RdrInOut:
			op.kind, op.flag = fdOpen, os.O_RDWR|os.O_CREATE
		case syntax.DplOut, syntax.DplIn:
			op.kind = fdDup
			if small {
				op.kind = fdToStdout
				if fdN == 0 {
					op.kind = fdToStdin
				}
			}
		default:
			out = append(out, rd) // interp reports it
			continue
		}
		if isVar && !(op.kind == fdDup && rd.Word.Lit() == "-") {
			allocs = append(allocs, litWord(n))
		}
		word := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: rd.OpPos, ValueEnd: rd.OpPos, Value: fdFile + r.st.next() + " "}}}
		word.Parts = append(word.Parts, target.Parts...)
		word.Parts = append(word.Parts, &syntax.Lit{ValuePos: rd.OpPos, ValueEnd: rd.OpPos, Value: " "})
		word.Parts = append(word.Parts, rd.Word.Parts...)
		var made *syntax.Redirect
		switch op.kind {
		case fdToStdin:
			made = &syntax.Redirect{OpPos: rd.OpPos, Op: syntax.RdrIn, Word: word}
			out = append(out, made)
		case fdToStdout:
			made = &syntax.Redirect{OpPos: rd.OpPos, Op: syntax.AppOut, N: &syntax.Lit{Value: strconv.Itoa(fdN)}, Word: word}
			out = append(out, made)
			if both := bothWord(rd, fdN); both != nil {
				op.toFile = true
				out = append(out, &syntax.Redirect{OpPos: rd.OpPos, Op: syntax.AppOut, N: &syntax.Lit{Value: "2"}, Word: both})
			}
		default:
			made = &syntax.Redirect{OpPos: rd.OpPos, Op: syntax.AppOut, N: &syntax.Lit{Value: "1"}, Word: word}
			out = append(out, made,
				&syntax.Redirect{OpPos: rd.OpPos, Op: syntax.AppOut, N: &syntax.Lit{Value: "2"}, Word: litWord(fdFile + "sync")})
		}
		r.st.put(made, op)
	}
	st.Redirs = out
	if len(allocs) == 0 {
		return
	}
	end := st.End()
	inner := &syntax.Stmt{Position: st.Position, Cmd: st.Cmd, Redirs: st.Redirs}
	alloc := &syntax.Stmt{Position: st.Position, Cmd: &syntax.CallExpr{Args: append([]*syntax.Word{litWord(fdAllocCmd)}, allocs...)}}
	st.Cmd = &syntax.Block{Lbrace: st.Position, Rbrace: end, Stmts: []*syntax.Stmt{alloc, inner}}
	st.Redirs = nil
}

// bothWord is the word of the redirection of stderr that follows >&$x
// or 1>&${x} (x a plain name, whose value may name a file: then the
// redirection is &>, see fdOpen), or nil for any other.
func bothWord(rd *syntax.Redirect, fdN int) *syntax.Word {
	if rd.Op != syntax.DplOut || fdN != 1 || len(rd.Word.Parts) != 1 {
		return nil
	}
	p := rd.Word.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 && !dq.Dollar {
		p = dq.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil || !syntax.ValidName(pe.Param.Value) || pe.Excl || pe.Length || pe.Width || pe.Index != nil ||
		pe.Slice != nil || pe.Repl != nil || pe.Names != 0 || pe.Exp != nil {
		return nil
	}
	return &syntax.Word{Parts: []syntax.WordPart{
		&syntax.Lit{ValuePos: rd.OpPos, ValueEnd: rd.OpPos, Value: fdFile + "both "},
		&syntax.DblQuoted{Parts: []syntax.WordPart{&syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: pe.Param.Value}}}},
	}}
}

// redirFd tells whether rd is one that llmsh serves: n is the descriptor
// it sets (a number, or a variable's name if isVar) when that is above 2,
// or when it duplicates one above 2 (or one named by an expansion) into
// 0, 1 or 2.
func redirFd(rd *syntax.Redirect) (n string, isVar, ok bool) {
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.RdrAll, syntax.AppAll:
		return "", false, false
	}
	if rd.N != nil {
		n = rd.N.Value
		if name, found := strings.CutPrefix(n, "{"); found {
			name = strings.TrimSuffix(name, "}")
			return name, true, syntax.ValidName(name)
		}
	} else if rd.Op == syntax.RdrIn || rd.Op == syntax.DplIn || rd.Op == syntax.RdrInOut {
		n = "0"
	} else {
		n = "1"
	}
	if n == "" || strings.Trim(n, "0123456789") != "" {
		return "", false, false
	}
	fd, valid := parseFd(n)
	if !valid || fd > 2 {
		// A number too large is a bad descriptor when it is used.
		return n, false, true
	}
	if rd.Op != syntax.DplOut && rd.Op != syntax.DplIn {
		return "", false, false
	}
	lit := rd.Word.Lit()
	if lit == "" && len(rd.Word.Parts) > 0 {
		return n, false, true // >&$fd: known when it runs
	}
	m, isNum := parseFd(strings.TrimSuffix(lit, "-"))
	return n, false, isNum && m > 2
}

// hasFdRedir reports whether st has a redirection that llmsh serves, or
// is a read from a descriptor above 2.
func hasFdRedir(st *syntax.Stmt) bool {
	for _, rd := range st.Redirs {
		if _, _, ok := redirFd(rd); ok {
			return true
		}
	}
	return false
}

// readToFd turns `read ARG... <&N` into `read -u N ARG...`: read then
// takes its line from the descriptor's buffer, and no more.
func readToFd(st *syntax.Stmt) {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || ce.Args[0].Lit() != "read" {
		return
	}
	idx := -1
	for i, rd := range st.Redirs {
		n, _, ok := redirFd(rd)
		input := rd.Op == syntax.RdrIn || rd.Op == syntax.DplIn || rd.Op == syntax.RdrInOut || rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc || rd.Op == syntax.WordHdoc
		if input && (rd.N == nil || rd.N.Value == "0") {
			idx = -1
			if ok && n == "0" && rd.Op == syntax.DplIn && !strings.HasSuffix(rd.Word.Lit(), "-") {
				idx = i
			}
		}
	}
	if idx < 0 {
		return
	}
	rd := st.Redirs[idx]
	st.Redirs = append(st.Redirs[:idx:idx], st.Redirs[idx+1:]...)
	ce.Args = append([]*syntax.Word{ce.Args[0], litWord("-u"), rd.Word}, ce.Args[1:]...)
}

// wordSource is w as written, for messages.
func wordSource(w *syntax.Word) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// subshellStmts returns the statements of n when it is a ( … ) or a
// $( … ), for the rewrites that put a statement in front of them; nil
// for anything else.
func subshellStmts(n syntax.Node) *[]*syntax.Stmt {
	switch n := n.(type) {
	case *syntax.Subshell:
		return &n.Stmts
	case *syntax.CmdSubst:
		return &n.Stmts
	}
	return nil
}

// forkFds gives a subshell (a ( … ), a $( … ), a pipeline's first
// commands, a background job) whose text runs exec on a descriptor a copy
// of the table of its own (see fdScope). execFd holds the nodes whose
// text does (see execFdNodes).
func forkFds(n syntax.Node, execFd map[syntax.Node]bool) {
	stmts := subshellStmts(n)
	switch n := n.(type) {
	case *syntax.BinaryCmd:
		if n.Op != syntax.Pipe && n.Op != syntax.PipeAll {
			return
		}
		// interp runs the last command in the shell itself; bash, as
		// the others, in a subshell.
		for _, st := range []*syntax.Stmt{n.X, n.Y} {
			if execFd[st] {
				st.Redirs = append(forkRedirs(st.Pos()), st.Redirs...)
			}
		}
		return
	case *syntax.Stmt:
		if n.Background && execFd[n] {
			n.Redirs = append(forkRedirs(n.Pos()), n.Redirs...)
		}
		return
	}
	if stmts == nil || len(*stmts) == 0 || !execFd[n] {
		return
	}
	pos := n.Pos()
	*stmts = []*syntax.Stmt{{Position: pos, Cmd: &syntax.Block{Lbrace: pos, Rbrace: n.End(), Stmts: *stmts}, Redirs: forkRedirs(pos)}}
}

func forkRedirs(pos syntax.Pos) []*syntax.Redirect {
	return []*syntax.Redirect{
		{OpPos: pos, Op: syntax.AppOut, N: &syntax.Lit{Value: "1"}, Word: litWord(fdFile + "fork")},
		{OpPos: pos, Op: syntax.AppOut, N: &syntax.Lit{Value: "2"}, Word: litWord(fdFile + "sync")},
	}
}

// execFdNodes returns the nodes of root that hold an exec with a
// redirection of a descriptor above 2, in one walk.
func execFdNodes(root syntax.Node) map[syntax.Node]bool {
	marked := map[syntax.Node]bool{}
	var stack []syntax.Node
	syntax.Walk(root, func(n syntax.Node) bool {
		if n == nil {
			done := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if marked[done] && len(stack) > 0 {
				marked[stack[len(stack)-1]] = true
			}
			return true
		}
		stack = append(stack, n)
		if st, ok := n.(*syntax.Stmt); ok {
			ce, isCall := st.Cmd.(*syntax.CallExpr)
			if isCall && len(ce.Args) == 1 && ce.Args[0].Lit() == "exec" && hasFdRedir(st) {
				marked[st] = true
			}
		}
		return true
	})
	return marked
}
