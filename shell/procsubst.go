package shell

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"

	"github.com/llmsh/llmsh/builtins"
)

// Process substitution without host FIFOs. interp would make a named pipe
// in $TMPDIR; llmsh serves <(LIST) and >(LIST) in-process instead. The
// pre-pass (procSubstStmt) turns a statement S that holds <(LIST) into
//
//	{ \x00psub V <; { LIST; } >"$V_job" & S'; \x00psubdone "$?" "$V"; }
//
// where S' has "$V" in place of <(LIST). \x00psub makes an in-memory pipe
// and sets V to a fresh path /dev/fd/N (as bash's) for its read end and
// V_job to a private name for its write end; the background job opens one,
// the command the other, both through llmsh (redirections and builtins
// alike), and the two run concurrently as in bash. \x00psubdone closes a side nobody opened (so
// the job ends) and returns S's status.

const (
	psubCmd     = "\x00psub"
	psubDoneCmd = "\x00psubdone"
)

// psubs is the registry of the /dev/fd/N paths that process substitutions
// have made and not yet finished with. One registry serves a shell and the
// shells nested in it.
type psubs struct {
	mu    sync.Mutex
	pipes map[string]*psubPipe // by /dev/fd/N: the command's end
	jobs  map[string]*psubPipe // by job key: the background job's end
	seq   int64
}

type psubPipe struct {
	r         *io.PipeReader
	w         *io.PipeWriter
	jobWrites bool // the background job holds the write end: <(LIST)
}

// newPipe registers a fresh pipe under two names: path, the highest free
// /dev/fd/N below 64 (as bash numbers them), for the command, and key
// for the background job.
func (p *psubs) newPipe(jobWrites bool) (path, key string, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pipes == nil {
		p.pipes, p.jobs = map[string]*psubPipe{}, map[string]*psubPipe{}
	}
	for n := 63; n >= 10; n-- {
		path = "/dev/fd/" + strconv.Itoa(n)
		if p.pipes[path] == nil {
			r, w := io.Pipe()
			pp := &psubPipe{r: r, w: w, jobWrites: jobWrites}
			p.seq++
			key = "/dev/fd/llmsh-job-" + strconv.FormatInt(p.seq, 10)
			p.pipes[path], p.jobs[key] = pp, pp
			return path, key, nil
		}
	}
	return "", "", fmt.Errorf("too many process substitutions at once")
}

// open returns the command's end of the pipe at a /dev/fd/N path, or the
// job's end at a job key, once each; ok is false when name is neither.
// The command's path is free for another pipe once it is open.
func (p *psubs) open(name string) (f builtins.File, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pp := p.pipes[name]; pp != nil {
		delete(p.pipes, name)
		if pp.jobWrites {
			return &pipeFile{name: name, r: pp.r}, true
		}
		return &pipeFile{name: name, w: pp.w}, true
	}
	if pp := p.jobs[name]; pp != nil {
		delete(p.jobs, name)
		if pp.jobWrites {
			return &pipeFile{name: name, w: pp.w}, true
		}
		return &pipeFile{name: name, r: pp.r}, true
	}
	return nil, false
}

// stat describes name if it is the command's end of a pipe.
func (p *psubs) stat(name string) (fs.FileInfo, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pipes[name] == nil {
		return nil, false
	}
	return pipeInfo(name), true
}

// done is called when the command has run: if it never opened its end,
// the job's writes fail (or its reads end) at once, and the path is free.
func (p *psubs) done(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pp := p.pipes[name]
	if pp == nil {
		return
	}
	delete(p.pipes, name)
	pp.closeCommandSide()
}

// closeAll ends every pipe left: the script is over. A background job
// may not have opened its end yet (it starts concurrently with the rest
// of the script): its entry stays, with the command's side closed, so the
// job's open still succeeds and its writes fail (or its reads end) as
// they would in bash, instead of the open going to vfsd and failing.
func (p *psubs) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for name, pp := range p.pipes {
		pp.closeCommandSide()
		delete(p.pipes, name)
	}
	for _, pp := range p.jobs {
		pp.closeCommandSide()
	}
}

// closeCommandSide closes the end that the command, not the job, uses.
func (pp *psubPipe) closeCommandSide() {
	if pp.jobWrites {
		pp.r.Close()
	} else {
		pp.w.Close()
	}
}

// pipeFile is one end of a process substitution's pipe.
type pipeFile struct {
	name string
	r    *io.PipeReader
	w    *io.PipeWriter
}

func (f *pipeFile) Read(b []byte) (int, error) {
	if f.r == nil {
		return 0, syscall.EBADF
	}
	return f.r.Read(b)
}

func (f *pipeFile) Write(b []byte) (int, error) {
	if f.w == nil {
		return 0, syscall.EBADF
	}
	n, err := f.w.Write(b)
	if err == io.ErrClosedPipe {
		err = syscall.EPIPE
	}
	return n, err
}

func (f *pipeFile) Seek(int64, int) (int64, error) { return 0, syscall.ESPIPE }
func (f *pipeFile) Stat() (fs.FileInfo, error)     { return pipeInfo(f.name), nil }

func (f *pipeFile) Close() error {
	if f.r != nil {
		return f.r.Close()
	}
	return f.w.Close()
}

type pipeInfo string

func (p pipeInfo) Name() string     { return string(p)[len("/dev/fd/"):] }
func (pipeInfo) Size() int64        { return 0 }
func (pipeInfo) Mode() fs.FileMode  { return fs.ModeNamedPipe | 0o600 }
func (pipeInfo) ModTime() time.Time { return time.Time{} }
func (pipeInfo) IsDir() bool        { return false }
func (pipeInfo) Sys() any           { return nil }

// psubCall runs the two internal commands of process substitution.
func (s *Shell) psubCall(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	switch args[0] {
	case psubCmd:
		path, key, err := s.psubs.newPipe(args[2] == "<")
		if err != nil {
			fmt.Fprintf(hc.Stderr, "llmsh: %v\n", err)
			return statusArgs(1)
		}
		return []string{"eval", args[1] + "=" + path + " " + args[1] + "_job=" + key}
	default: // psubDoneCmd
		st, _ := strconv.Atoi(args[1])
		for _, name := range args[2:] {
			s.psubs.done(name)
		}
		return statusArgs(st)
	}
}

// procSubstStmt rewrites st if its own words (not those of statements
// nested in it) hold process substitutions; see the comment above.
func (r *rewriter) procSubstStmt(st *syntax.Stmt) {
	type found struct {
		v   string
		ps  *syntax.ProcSubst
		out bool
	}
	var subs []found
	visit := func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			return n == st
		case *syntax.Word:
			for i, p := range n.Parts {
				ps, ok := p.(*syntax.ProcSubst)
				if !ok {
					continue
				}
				v := "_llmsh_psub" + r.st.next()
				subs = append(subs, found{v, ps, ps.Op == syntax.CmdOut})
				n.Parts[i] = &syntax.DblQuoted{Left: ps.OpPos, Right: ps.Rparen, Parts: []syntax.WordPart{paramExp(v)}}
			}
		}
		return true
	}
	syntax.Walk(st, visit)
	if len(subs) == 0 {
		return
	}
	var stmts []*syntax.Stmt
	done := []*syntax.Word{litWord(psubDoneCmd), {Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp("?")}}}}}
	for _, f := range subs {
		dir, op := "<", syntax.RdrOut
		if f.out {
			dir, op = ">", syntax.RdrIn
		}
		stmts = append(stmts,
			&syntax.Stmt{Position: st.Position, Cmd: &syntax.CallExpr{Args: []*syntax.Word{litWord(psubCmd), litWord(f.v), litWord(dir)}}},
			&syntax.Stmt{
				Position:   st.Position,
				Background: true,
				Cmd:        &syntax.Block{Lbrace: f.ps.OpPos, Rbrace: f.ps.Rparen, Stmts: f.ps.Stmts, Last: f.ps.Last},
				Redirs:     []*syntax.Redirect{{OpPos: f.ps.OpPos, Op: op, Word: quotedParam(f.v + "_job")}},
			})
		done = append(done, quotedParam(f.v))
	}
	end := st.End()
	inner := &syntax.Stmt{Position: st.Position, Cmd: st.Cmd, Redirs: st.Redirs}
	stmts = append(stmts, inner, &syntax.Stmt{Position: st.Position, Cmd: &syntax.CallExpr{Args: done}})
	st.Cmd = &syntax.Block{Lbrace: st.Position, Rbrace: end, Stmts: stmts}
	st.Redirs = nil
}

func litWord(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

func paramExp(name string) *syntax.ParamExp {
	return &syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: name}}
}

func quotedParam(name string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{paramExp(name)}}}}
}

// procSubstHandler serves the process substitutions that interp makes
// itself (in eval, source and trap text, which the pre-pass does not
// rewrite) from the same registry: the command gets /dev/fd/N, the list
// the other end, and the command's end is closed when it has run.
func (s *Shell) procSubstHandler(ctx context.Context, jobWrites bool) (string, io.ReadWriteCloser, func(), error) {
	path, key, err := s.psubs.newPipe(jobWrites)
	if err != nil {
		return "", nil, nil, err
	}
	job, _ := s.psubs.open(key)
	return path, job, func() { s.psubs.done(path) }, nil
}
