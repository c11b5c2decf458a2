// llmsh: the descriptor table (not in upstream, which knows only 0, 1
// and 2 and fails on any other with "unsupported redirect fd").

package interp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// Descriptors 0, 1 and 2 are the runner's stdin, stdout and stderr, as
// upstream has them. Descriptors 3 and up are in Runner.fds, a map from
// descriptor to fdObj, which is never changed in place once made (a
// change makes a new map), so a subshell, a handler or a background job
// can hold the map it was given while the shell goes on.
//
// An fdObj is an open file description: what `exec 3>f` opened, or a
// copy of 0, 1 or 2 (`exec 3>&1`). Each descriptor that refers to it
// holds a reference: the table of every (sub)shell that has it, and the
// redirections of a running statement that replaced it (they put it
// back when the statement ends). The file is closed when the last
// reference goes: a subshell's copies are released when it ends, so that
// what it closes is its copy, as in bash.

// fdMax bounds descriptor numbers, as the process's open-file limit
// bounds bash's: it is the 1024 that `ulimit -n` reports (llmsh, session
// 24, red team: it was 65536 and {NAME}>FILE took numbers past it
// without end, each search from 10 walking the table, so descriptors
// kept across a long-lived session's Runs grew its memory for good).
const fdMax = 1024

// fdVarBase is the first descriptor that {NAME}>FILE gives, as in bash.
const fdVarBase = 10

// fdObj is an open file description of a descriptor above 2.
type fdObj struct {
	r    io.Reader // nil: not open for reading
	w    io.Writer // nil: not open for writing
	c    io.Closer // closed with the last reference; nil: not the shell's to close
	refs atomic.Int32
	// what it was opened on, for FdStates
	kind string // "file", "std", or "" (a pipe: here-document, process substitution)
	path string // kind file: the absolute path
	flag int    // kind file: the open flags
	std  int    // kind std: 0, 1 or 2
}

// An FdState describes a descriptor of the shell above 2, for a session
// snapshot (llmsh): Kind "file" for one opened on the file Path with the
// open flags Flag (exec 3>f, exec 3<f); "std" for a copy of the shell's
// own stdin, stdout or stderr (Std: 0, 1, 2), made while they were the
// shell's (exec 3>&1); "pipe" for anything else (a here-document, a
// process substitution, a copy of a redirected stdout), which cannot be
// opened again.
type FdState struct {
	N    int
	Kind string
	Path string
	Flag int
	Std  int
}

// FdStates returns the shell's descriptors above 2, in order.
func (r *Runner) FdStates() []FdState {
	var out []FdState
	for n, o := range r.fds {
		st := FdState{N: n, Kind: o.kind, Path: o.path, Flag: o.flag, Std: o.std}
		if st.Kind == "" {
			st.Kind = "pipe"
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b FdState) int { return a.N - b.N })
	return out
}

// sameIO reports whether a and b are the same reader or writer; values of
// a type that cannot be compared are not the same.
func sameIO(a, b any) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

func newFdObj(r io.Reader, w io.Writer, c io.Closer) *fdObj {
	o := &fdObj{r: r, w: w, c: c}
	o.refs.Store(1)
	return o
}

func (o *fdObj) ref() *fdObj {
	o.refs.Add(1)
	return o
}

func (o *fdObj) release() {
	if o.refs.Add(-1) == 0 && o.c != nil {
		o.c.Close()
	}
}

// writer is where writes to the descriptor go.
func (o *fdObj) writer() io.Writer {
	if o == nil || o.w == nil {
		return badFdWriter{}
	}
	return o.w
}

// badFdWriter is a descriptor that is closed or not open for writing:
// every write fails with EBADF, as in bash ("echo: write error: Bad file
// descriptor"). closed says it is closed (N>&-), so that a duplicate
// of it fails as bash's dup2 does (llmsh).
type badFdWriter struct{ closed bool }

func (badFdWriter) Write([]byte) (int, error) { return 0, syscall.EBADF }

// BadDescriptor marks the writer for handlers (see [IsBadDescriptor]).
func (badFdWriter) BadDescriptor() {}

// IsBadDescriptor reports whether w is a closed descriptor, or one not
// open for writing, that a redirection made stdout or stderr.
func IsBadDescriptor(w io.Writer) bool {
	_, ok := w.(badFdWriter)
	return ok
}

// fdReader is the shared input of a descriptor whose reader is not a
// pipe: one buffer for all its readers, so that successive `read -u N`
// go on where the last stopped.
type fdReader struct {
	mu sync.Mutex
	br *bufio.Reader
	// pend is a read that a timed read gave up waiting for (llmsh:
	// readByteBefore); its byte is the next one read.
	pend chan byteRead
}

// byteRead is the result of one read of a byte.
type byteRead struct {
	b   byte
	err error
}

// SharedInput makes an fdReader an [InputFile]: a command whose stdin
// is a copy of the descriptor (`read x <&3`) reads it directly, taking
// only what it reads, as bash's read takes a pipe's bytes one by one
// (llmsh: it was copied into a pipe of the command's own, which took
// the whole buffer: `while read -r l <&3; do …; done 3< <(cmd)` read
// one line).
func (*fdReader) SharedInput() {}

func (fr *fdReader) Read(p []byte) (int, error) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.pend != nil {
		if len(p) == 0 {
			return 0, nil
		}
		res := <-fr.pend
		fr.pend = nil
		if res.err != nil {
			return 0, res.err
		}
		p[0] = res.b
		return 1, nil
	}
	return fr.br.Read(p)
}

// readByteBefore reads one byte, giving up at deadline (errReadTimeout)
// or when done is closed (context.Canceled), as read -t on a pipe that
// is no file (llmsh: `exec 3< <(sleep 5); read -t 1 -u 3` waited for the
// list). The read it gave up on goes on, and its byte comes first to
// the next reader, as the byte a pipe keeps.
func (fr *fdReader) readByteBefore(deadline time.Time, done <-chan struct{}) (byte, error) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.pend == nil {
		if fr.br.Buffered() > 0 {
			return fr.br.ReadByte()
		}
		pend, br := make(chan byteRead, 1), fr.br
		go func() {
			b, err := br.ReadByte()
			pend <- byteRead{b, err}
		}()
		fr.pend = pend
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case res := <-fr.pend:
		fr.pend = nil
		return res.b, res.err
	case <-timer.C:
		return 0, errReadTimeout
	case <-done:
		return 0, context.Canceled
	}
}

// fdReaderOf is what reads a descriptor opened on f. One open for
// writing too (N<>FILE) is read as it is, unbuffered, so that a write
// after a read goes where the read stopped.
func fdReaderOf(f io.Reader, writable bool) io.Reader {
	if _, ok := f.(*os.File); ok || writable {
		return f // a pipe: every reader takes its bytes from it
	}
	if _, ok := f.(InputFile); ok {
		return f // shared by its readers already
	}
	return &fdReader{br: bufio.NewReader(f)}
}

// fdError is bash's "WORD: MESSAGE" of a failed redirection. It is an
// [*fs.PathError], which the runner prints and goes on with status 1.
func fdError(word string, msg string) error {
	return &fs.PathError{Op: shellName + ":", Path: word, Err: errors.New(msg)}
}

// errRedirExpand is a redirection whose word could not be expanded: the
// expansion error is already reported.
var errRedirExpand = errors.New("redirection word not expanded")

func badFdError(word string) error { return fdError(word, "Bad file descriptor") }

// ambiguousError is bash's "FILE: line N: WORD: ambiguous redirect" in a
// script file, "llmsh: WORD: …" in -c text (as bash -c says it).
func (r *Runner) ambiguousError(word string) error {
	if r.llmsh.scriptName == "" {
		return fdError(word, "ambiguous redirect")
	}
	return errors.New(r.errPrefix() + word + ": ambiguous redirect")
}

// parseFd reads a descriptor number as bash does: digits only.
func parseFd(s string) (int, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n >= fdMax {
		return fdMax, true // a bad descriptor when it is used
	}
	return n, true
}

// dupErrName is what bash's redirection_error names when N>&WORD or
// N<&WORD finds no descriptor: the number written (mtext) when WORD is a
// literal number that fits an int, else WORD as written when N is the
// operator's own default (1 for >&, 0 for <&), else N (llmsh).
func dupErrName(rd *syntax.Redirect, n int, mtext string) string {
	if !dupToWord(rd.Word) {
		return mtext
	}
	if rd.Op == syntax.DplOut && n == 1 || rd.Op == syntax.DplIn && n == 0 {
		return wordText(rd.Word)
	}
	return strconv.Itoa(n)
}

// setFd makes descriptor n (3 and up) refer to o, nil to close it; the
// reference of the descriptor's former object is the caller's.
func (r *Runner) setFd(n int, o *fdObj) {
	m := make(map[int]*fdObj, len(r.fds)+1)
	maps.Copy(m, r.fds)
	if o == nil {
		delete(m, n)
	} else {
		m[n] = o
	}
	if len(m) == 0 {
		m = nil
	}
	r.fds = m
}

// forkFds gives a subshell its copy of the table.
func (r *Runner) forkFds(r2 *Runner) {
	for _, o := range r.fds {
		o.ref()
	}
	r2.fds = r.fds
}

// closeFds releases every descriptor of the (sub)shell, and closes what
// exec opened as its stdin, stdout or stderr: it has ended.
func (r *Runner) closeFds() {
	fds := r.fds
	r.fds = nil
	for _, o := range fds {
		o.release()
	}
	for _, c := range r.execClosers {
		c.Close()
	}
	r.execClosers = nil
	for _, o := range r.execHeld {
		o.release()
	}
	r.execHeld = nil
}

// closeFdsTo releases the descriptors above 2 and puts back saved, the
// table before a pipeline's last command, which runs in the shell itself
// with a copy (see forkFds).
func (r *Runner) closeFdsTo(saved map[int]*fdObj) {
	for _, o := range r.fds {
		o.release()
	}
	r.fds = saved
}

// CloseFds closes the descriptors that the script left open (exec 3>f,
// exec >f): call it when the shell is done, as a process's exit would.
// A Run after it starts with no descriptor above 2.
func (r *Runner) CloseFds() { r.closeFds() }

// Fd is descriptor n (3 and up) of the shell, for a handler: what reads
// it and what writes to it (nil when it is not open that way); ok is
// false when n is not open. 0, 1 and 2 are Stdin, Stdout and Stderr.
func (hc HandlerContext) Fd(n int) (rd io.Reader, wr io.Writer, ok bool) {
	o := hc.fds[n]
	if o == nil {
		return nil, nil, false
	}
	return o.r, o.w, true
}

// FdFile is the absolute name of the file that descriptor n (3 and up)
// was opened on by a redirection (exec 3>FILE, or a copy of it); ok is
// false for any other descriptor: a pipe, a copy of 0, 1 or 2 (llmsh:
// Linux opens /dev/fd/N of a file's descriptor anew, as FILE).
func (hc HandlerContext) FdFile(n int) (path string, ok bool) {
	o := hc.fds[n]
	if o == nil || o.kind != "file" || o.path == "" {
		return "", false
	}
	return o.path, true
}

// redirSaves is what a statement's redirections replaced: stdin,
// stdout and stderr, and the descriptors above 2 that they set.
type redirSaves struct {
	fds     map[int]*fdObj // the table before the statement
	touched []int          // descriptors above 2 that the redirections set
}

func (sv *redirSaves) has(n int) bool {
	for _, m := range sv.touched {
		if m == n {
			return true
		}
	}
	return false
}

// replaceFd sets descriptor n (3 and up) for a statement's redirection.
// The first time, the former object stays referenced by sv (restored
// when the statement ends); after that, it is released.
func (r *Runner) replaceFd(sv *redirSaves, n int, o *fdObj) {
	if sv.has(n) {
		if cur := r.fds[n]; cur != nil {
			cur.release()
		}
	} else {
		sv.touched = append(sv.touched, n)
	}
	r.setFd(n, o)
}

// restoreFds ends a statement's redirections of descriptors above 2:
// each gets back what it had, or, under exec, keeps what it has now and
// releases what it had.
func (r *Runner) restoreFds(sv *redirSaves, keep bool) {
	for _, n := range sv.touched {
		old := sv.fds[n]
		if keep {
			if old != nil {
				old.release()
			}
			continue
		}
		if cur := r.fds[n]; cur != nil {
			cur.release()
		}
		r.setFd(n, old)
	}
}

// isExecRedirs reports whether st is exec with redirections only, whose
// redirections outlive it.
func isExecRedirs(st *syntax.Stmt) bool {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) == 1 && len(ce.Assigns) == 0 && ce.Args[0].Lit() == "exec"
}

// redirFd is the descriptor that rd sets: its number, or for
// {NAME}>FILE the lowest free one from 10 up, assigned to NAME (or, for
// {NAME}>&-, NAME's value). varFd tells the second.
func (r *Runner) redirFd(rd *syntax.Redirect) (n int, varFd bool, err error) {
	if rd.N == nil {
		switch rd.Op {
		case syntax.RdrIn, syntax.DplIn, syntax.RdrInOut, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			return 0, false, nil
		}
		return 1, false, nil
	}
	text := rd.N.Value
	name, isVar := strings.CutPrefix(text, "{")
	if !isVar {
		n, ok := parseFd(text)
		if !ok {
			return 0, false, r.ambiguousError(text)
		}
		return n, false, nil
	}
	name = strings.TrimSuffix(name, "}")
	if (rd.Op == syntax.DplOut || rd.Op == syntax.DplIn) && rd.Word.Lit() == "-" {
		n, ok := varFdValue(r.fdVarValue(name))
		if !ok {
			return 0, true, r.ambiguousError(name)
		}
		return n, true, nil
	}
	n = fdVarBase
	for r.fds[n] != nil {
		n++
	}
	if n >= fdMax {
		// bash, out of descriptors: its message has no line number.
		return 0, true, errors.New(shellName + ": redirection error: cannot duplicate fd: Too many open files")
	}
	saved := r.exit
	r.exit = exitStatus{}
	if strings.HasSuffix(name, "[@]") || strings.HasSuffix(name, "[*]") {
		// bash's bind_var_to_int: no element @ or *, even of an
		// associative array (read and printf -v take them).
		r.errf("%s%s: bad array subscript\n", r.errPrefix(), name)
		r.exit.code = 1
	} else if strings.HasSuffix(name, "]") {
		r.assignName("", name, strconv.Itoa(n)) // {a[1]}>f, as bash
	} else {
		r.setVarString(name, strconv.Itoa(n))
	}
	if r.exit.code != 0 {
		if r.exit.exiting || r.exit.abandon {
			return 0, true, errRedirExpand
		}
		// bash's BADVAR_REDIRECT, after the assignment's own error.
		return 0, true, fdError(name, "cannot assign fd to variable")
	}
	r.exit = saved
	return n, true, nil
}

// varFdValue is the descriptor that {NAME}>&- closes, NAME's value v read
// as bash's redir_varvalue does: empty or negative is refused, text that
// is no number (legal_number's failure) is 0, a number is cut to a C int.
func varFdValue(v string) (int, bool) {
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimRight(strings.TrimLeft(v, " \t\n\v\f\r"), " \t"), 10, 64)
	if err != nil {
		n = 0
	}
	if i := int32(n); i >= 0 {
		return int(i), true
	}
	return 0, false
}

// openRedir opens a redirection's file through the open handler. keep
// says the descriptor may outlive the command (exec, or above 2): the
// handler is told, as HandlerContext.Persist. Under set -C, > and &>
// refuse an existing regular file.
func (r *Runner) openRedir(ctx context.Context, rd *syntax.Redirect, op syntax.RedirOperator, arg string, flag int, keep bool) (io.ReadWriteCloser, error) {
	if r.opts[optNoClobber] && (op == syntax.RdrOut || op == syntax.RdrAll) {
		if info, err := r.stat(ctx, arg); err == nil && info.Mode().IsRegular() {
			return nil, fdError(arg, "cannot overwrite existing file")
		}
	}
	r.node = rd
	r.persist = keep
	f, err := r.open(ctx, arg, flag, r.createMode(), false)
	r.persist = false
	return f, err
}

// setStdin makes stdin read rd (nil: closed, or open for writing only
// when writeOnly).
func (r *Runner) setStdin(rd io.Reader, writeOnly bool) error {
	r.stdinWO = rd == nil && writeOnly
	return r.setStdinTo(rd)
}

// dupFd makes descriptor n a copy of m, as N>&M and N<&M do. keep is
// true under exec. A copy of a descriptor above 2 as stdin, stdout or
// stderr for one command holds its object (the closer returned releases
// it): the command's `exec M>&-` closes only M, as bash's close(2) of one
// of two descriptors (llmsh: the file was closed under the command, whose
// later writes were lost).
func (r *Runner) dupFd(sv *redirSaves, n, m int, word string, keep bool) (io.Closer, error) {
	var src *fdObj
	var rd io.Reader
	var wr io.Writer
	switch m {
	case 0:
		rd = r.stdinReader()
	case 1:
		wr = r.stdout
	case 2:
		wr = r.stderr
	default:
		src = r.fds[m]
		if src == nil {
			return nil, badFdError(word)
		}
		rd, wr = src.r, src.w
	}
	if bw, ok := wr.(badFdWriter); ok && bw.closed && n != m {
		// llmsh: 2>&1 with 1 closed fails, as bash's dup2.
		return nil, badFdError(word)
	}
	switch n {
	case 0:
		if err := r.setStdin(rd, wr != nil); err != nil {
			return nil, err
		}
	case 1:
		r.stdout = writerOrBad(wr)
	case 2:
		r.stderr = writerOrBad(wr)
	default:
		if n == m {
			return nil, nil
		}
		o := src
		if o == nil {
			o = newFdObj(rd, wr, nil)
			if m == 0 && sameIO(r.stdin, r.origStdin) || m == 1 && sameIO(r.stdout, r.origStdout) ||
				m == 2 && sameIO(r.stderr, r.origStderr) {
				o.kind, o.std = "std", m
			}
		} else {
			o.ref()
		}
		r.replaceFd(sv, n, o)
		return nil, nil
	}
	if src == nil {
		return nil, nil
	}
	if keep {
		// stdin, stdout or stderr uses the object for the rest of the
		// shell: keep it open until then.
		r.execHeld = append(r.execHeld, src.ref())
		return nil, nil
	}
	return fdHold{src.ref()}, nil
}

// wordStd is the statement's stdout and stderr before its redirections
// (Runner.wordStd); set is false outside a statement.
type wordStd struct {
	out, err io.Writer
	set      bool
}

// psubStd is the stdout and stderr of a >(LIST) or <(LIST) that starts
// now: those of the statement before its redirections when the list is
// in its words, the current ones when it is in a redirection's word.
func (r *Runner) psubStd() (io.Writer, io.Writer) {
	if r.wordStd.set && !r.redirWord {
		return r.wordStd.out, r.wordStd.err
	}
	return r.stdout, r.stderr
}

// notePsub records bg, the job of a >(LIST) writing to out: a command
// substitution whose output it is waits for it, as bash reads until its
// pipe closes (`$(tee >(sed s/a/b/) <<< a >/dev/null)`), and so does a
// subshell when it ends (waitPsubs).
func (r *Runner) notePsub(bg *bgProc, out io.Writer) {
	r.subst.hold(out, &syntax.Stmt{}, bg)
	r.psubJobs = slices.DeleteFunc(r.psubJobs, (*bgProc).finished)
	r.psubJobs = append(r.psubJobs, bg)
}

// waitPsubs waits for the >(LIST)s that the subshell started, or for ctx
// to end: bash's outlive the subshell and write on to its output, where
// llmsh's were lost (`( echo a > >(sed s/a/b/) )`, `x | tee >(sed …)`
// printed nothing: the pipe closed, or the run ended, first).
func (r *Runner) waitPsubs(ctx context.Context) {
	for _, j := range r.psubJobs {
		select {
		case <-j.done:
		case <-ctx.Done():
			return
		}
	}
	r.psubJobs = nil
}

// orphanPsubs hands the >(LIST)s that a job started and that still run
// to the session: bash's job ends without waiting for them (`echo a >
// >(sleep 1; cat) & wait` returns at once), and they write on as
// orphans, which the end of the script waits for as for its own
// (drainProcSubsts).
func (r *Runner) orphanPsubs() {
	s := r.llmsh
	s.orphanMu.Lock()
	s.orphans = slices.DeleteFunc(s.orphans, (*bgProc).finished)
	for _, j := range r.psubJobs {
		if !j.finished() {
			s.orphans = append(s.orphans, j)
		}
	}
	s.orphanMu.Unlock()
	r.psubJobs = nil
}

// stdRedirected tells which of stdin, stdout and stderr redirs set
// (N>&WORD with WORD no number sets stdout and stderr, as &>WORD; N>&M-
// sets M, which it closes).
func stdRedirected(redirs []*syntax.Redirect) (set [3]bool) {
	for _, rd := range redirs {
		if rd.Op == syntax.DplOut || rd.Op == syntax.DplIn {
			// N>&M- and N<&M- close M too: it comes back with the
			// rest when N is 0, 1 or 2 (bash undoes the close only
			// when N was open before; 3 and up usually are not).
			if m, ok := strings.CutSuffix(rd.Word.Lit(), "-"); ok && stdTarget(rd) {
				if n, ok := parseFd(m); ok && n <= 2 {
					set[n] = true
				}
			}
		}
		if rd.N != nil {
			if n, ok := parseFd(rd.N.Value); ok && n <= 2 {
				set[n] = true
			}
			if rd.Op == syntax.DplOut {
				set[2] = set[2] || rd.N.Value == "1" && !isFdWord(rd.Word)
			}
			continue
		}
		switch rd.Op {
		case syntax.RdrIn, syntax.DplIn, syntax.RdrInOut, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			set[0] = true
		case syntax.RdrAll, syntax.AppAll:
			set[1], set[2] = true, true
		case syntax.DplOut:
			set[1] = true
			set[2] = set[2] || !isFdWord(rd.Word)
		default:
			set[1] = true
		}
	}
	return set
}

// stdTarget reports whether rd sets descriptor 0, 1 or 2.
func stdTarget(rd *syntax.Redirect) bool {
	if rd.N == nil {
		return true
	}
	n, ok := parseFd(rd.N.Value)
	return ok && n <= 2
}

// endsInDash reports whether w, as written, ends in an unquoted "-" (a
// move: N>&M-).
func endsInDash(w *syntax.Word) bool {
	if w == nil || len(w.Parts) == 0 {
		return false
	}
	lit, ok := w.Parts[len(w.Parts)-1].(*syntax.Lit)
	return ok && strings.HasSuffix(lit.Value, "-")
}

// isFdWord reports whether w is a literal descriptor number (with or
// without a trailing "-") or "-", which N>&W never reads as a file.
func isFdWord(w *syntax.Word) bool {
	lit := w.Lit()
	if lit == "-" {
		return true
	}
	_, ok := parseFd(strings.TrimSuffix(lit, "-"))
	return ok
}

// dropExecStd lets go of what exec opened or copied as stdout or stderr
// (oldOut and oldErr, their values before the exec that has just run)
// when no descriptor of the shell uses it any more: `exec >&3` or `exec
// >&-` after `exec > >(tee log)` closes the pipe, as bash's dup2 or close
// of descriptor 1 does, so that tee reads its end and `wait` returns.
// llmsh kept every such file open until the shell ended. A statement
// still running whose redirections put one of them back when it ends
// (r.stdSaves), or a job that holds it (holdRedirs), keeps it open.
func (r *Runner) dropExecStd(oldOut, oldErr io.Writer) {
	unused := func(f any) bool {
		if f == nil || !sameIO(f, oldOut) && !sameIO(f, oldErr) {
			return false
		}
		if sameIO(f, r.stdout) || sameIO(f, r.stderr) || sameIO(f, r.stdin) {
			return false
		}
		for _, o := range r.fds {
			if sameIO(f, o.w) {
				return false
			}
		}
		for _, w := range r.stdSaves {
			if sameIO(f, w) {
				return false
			}
		}
		return true
	}
	closers := r.execClosers[:0]
	for _, c := range r.execClosers {
		if h, ok := c.(*heldCloser); ok && unused(h.c) {
			h.Close()
			continue
		}
		closers = append(closers, c)
	}
	clear(r.execClosers[len(closers):])
	r.execClosers = closers
	held := r.execHeld[:0]
	for _, o := range r.execHeld {
		if o.w != nil && unused(o.w) {
			o.release()
			continue
		}
		held = append(held, o)
	}
	clear(r.execHeld[len(held):])
	r.execHeld = held
}

// fdHold is a command's hold on a descriptor's object (dupFd).
type fdHold struct{ o *fdObj }

func (h fdHold) Close() error {
	h.o.release()
	return nil
}

func writerOrBad(w io.Writer) io.Writer {
	if w == nil {
		return badFdWriter{}
	}
	return w
}

// closeFd closes descriptor n, as N>&- and N<&- do. Closing the
// descriptor of BASH_XTRACEFD sends the trace to stderr again, as bash's
// xtrace_fdchk.
func (r *Runner) closeFd(sv *redirSaves, n int) {
	if r.xtraceSet && r.xtraceFd == n {
		r.xtraceFd, r.xtraceSet = 0, false
	}
	switch n {
	case 0:
		r.stdin, r.stdinSrc, r.stdinWO = nil, nil, false
	case 1:
		r.stdout = badFdWriter{closed: true}
	case 2:
		r.stderr = badFdWriter{closed: true}
	default:
		if r.fds[n] != nil || sv.has(n) {
			r.replaceFd(sv, n, nil)
		}
	}
}

// wordText is a redirection's word as written, for messages.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// InheritFds gives the Runner the descriptors above 2 of the shell that
// hc is from, as a child process inherits its parent's (llmsh's nested
// `sh -c`, `bash FILE`). [Runner.CloseFds] lets them go.
func InheritFds(hc HandlerContext) RunnerOption {
	return func(r *Runner) error {
		for _, o := range hc.fds {
			o.ref()
		}
		old := r.fds
		r.fds = hc.fds
		for _, o := range old {
			o.release()
		}
		return nil
	}
}

// fdVarValue is the value of {NAME}'s variable, which may be an array
// element ({COPROC[1]}>&-).
func (r *Runner) fdVarValue(name string) string {
	if !strings.HasSuffix(name, "]") {
		return r.envGet(name)
	}
	w, err := syntax.NewParser().Document(strings.NewReader("${" + name + "}"))
	if err != nil {
		return ""
	}
	s, err := expand.Literal(r.ecfg, w)
	if err != nil {
		return ""
	}
	return s
}
