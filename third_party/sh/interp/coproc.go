// llmsh: coproc as bash 5.2 runs it (LLMSH.md); upstream printed an
// internal message and went on.

package interp

import (
	"context"
	"strconv"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// coproc runs cm's command as a job of the table with its stdin and stdout
// on pipes to the shell: NAME[0] is the descriptor that reads its output,
// NAME[1] the one that writes its input, NAME_PID its pid (and $!).
func (r *Runner) coproc(ctx context.Context, cm *syntax.CoprocClause) {
	name := "COPROC"
	if cm.Name != nil {
		name = r.literal(cm.Name)
	}
	if !syntax.ValidName(name) {
		r.errf("%s%s: not a valid identifier\n", r.errPrefix(), name)
		r.exit.code = 1
		return
	}
	// bash takes the highest free descriptors below 64: 63 to read, the
	// next free one below to write (coprocFd).
	rfd := coprocFd(r.fds, 63, -1)
	wfd := coprocFd(r.fds, rfd-1, rfd)
	if rfd < 0 || wfd < 0 {
		// llmsh: every descriptor below fdMax (ulimit -n) is taken, as
		// pipe(2) fails for bash at its limit.
		r.errf("%scoproc: pipe2: too many open files\n", r.errPrefix()) // as os.Pipe says it
		r.exit.code = 1
		return
	}
	inR, inW, err := newPipe() // the coprocess's stdin
	if err != nil {
		r.errf("%scoproc: %v\n", r.errPrefix(), err)
		r.exit.code = 1
		return
	}
	outR, outW, err := newPipe() // its stdout
	if err != nil {
		inR.Close()
		inW.Close()
		r.errf("%scoproc: %v\n", r.errPrefix(), err)
		r.exit.code = 1
		return
	}
	if cp := r.coprocs; cp != nil {
		if cp.job.finished() {
			r.disposeCoproc() // bash reaped it when it ended
		} else {
			// bash tracks one coprocess: the one running is left
			// to itself, its variables as they are.
			r.errf("%swarning: execute_coproc: coproc [%d:%s] still exists\n", r.errPrefix(), cp.job.pid, cp.name)
		}
	}
	// llmsh: a coprocess, a forked child, has no jobs (bash).
	r2 := r.subshellJobs(true, false)
	r2.jobRun = true
	r2.stdin, r2.stdinSrc, r2.stdout = inR, nil, outW
	shown := cm
	if cm.Name == nil {
		// bash's job text names the default: coproc COPROC cat &.
		named := *cm
		named.Name = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: name}}}
		shown = &named
	}
	bg, jctx := r.startJob(r.jobBase(ctx), &syntax.Stmt{Cmd: shown})
	r2.gate = bg.gate
	// A hung-up coprocess blocked reading its stdin, whose writer the
	// shell's descriptor keeps, or writing its full stdout, cannot see
	// its context: the shell's end of its stdin closes when the context
	// ends, so that it reads the end of its input, as when bash exits
	// (closing its own end gave tee and tr "read error: Bad file
	// descriptor"), and its stdout's writer closes (llmsh).
	hangUp := context.AfterFunc(jctx, func() {
		inW.Close()
		outW.Close()
	})
	go func() {
		defer hangUp()
		r2.Run(jctx, cm.Stmt)
		r2.subshellExit(jctx)
		r2.exit.leaveShell()
		outW.Close()
		inR.Close()
		bg.finish(r2, r2.exit)
	}()
	r.setFd(rfd, newFdObj(outR, nil, outR))
	r.setFd(wfd, newFdObj(nil, inW, inW))
	r.setVar(name, expand.Variable{Set: true, Kind: expand.Indexed,
		List: []string{strconv.Itoa(rfd), strconv.Itoa(wfd)}})
	r.setVarString(name+"_PID", strconv.Itoa(bg.pid))
	r.coprocs = &coprocState{name: name, job: bg, fds: [2]int{rfd, wfd}, objs: [2]*fdObj{r.fds[rfd], r.fds[wfd]}}
	r.exit = exitStatus{}
}

// coprocState is the coprocess the shell tracks (bash's sh_coproc): the
// last one started.
type coprocState struct {
	name string
	job  *bgProc
	fds  [2]int
	objs [2]*fdObj
}

// reapCoproc disposes of the tracked coprocess once wait (or jobs) has
// taken its job out of the table, as bash's reaping does: NAME and
// NAME_PID are unset and its descriptors closed. A coprocess that ends
// with nobody waiting keeps them until the next coproc starts (bash
// reaps it whenever it notices its end).
func (r *Runner) reapCoproc() {
	cp := r.coprocs
	cp.job.mu.Lock()
	reaped := cp.job.reaped
	cp.job.mu.Unlock()
	if reaped {
		r.disposeCoproc()
	}
}

// disposeCoproc forgets the tracked coprocess: its variables are unset
// and the descriptors it opened closed, where they still are its.
func (r *Runner) disposeCoproc() {
	cp := r.coprocs
	r.coprocs = nil
	if vr := r.lookupVar(cp.name + "_PID"); vr.String() == strconv.Itoa(cp.job.pid) {
		r.delVar(cp.name)
		r.delVar(cp.name + "_PID")
	}
	for i, n := range cp.fds {
		if o := r.fds[n]; o != nil && o == cp.objs[i] {
			r.setFd(n, nil)
			o.release()
		}
	}
}

// coprocFd is the highest free descriptor from n down to 4, but not
// except, as bash's move_to_high_fd; when there is none, the lowest free
// one above 2, where bash's pipe(2) put it (llmsh: it returned 3, then 2,
// taking the place of a coprocess's descriptor or of stderr itself once
// 4 to 63 were taken, so the replaced pipes stayed open, unreachable, up
// to the process's own limit on files: about 5000 coprocesses, 20000
// descriptors whose closing made the time limit of `while :; do coproc
// cat; done` 0.3-0.8 s late); -1 when none is free below fdMax.
func coprocFd[V any](fds map[int]V, n, except int) int {
	free := func(n int) bool {
		_, used := fds[n]
		return !used && n != except
	}
	for ; n > 3; n-- {
		if free(n) {
			return n
		}
	}
	for n = 3; n < fdMax; n++ {
		if free(n) {
			return n
		}
	}
	return -1
}
