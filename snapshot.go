package llmsh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
	"github.com/llmsh/llmsh/vfsclient"
)

// Snapshots: a session's state in one file (docs/snapshot.md), restored
// into another session of the same or another machine.
//
// The shell's state travels as the text with which bash itself prints it
// (declare -p, declare -f, shopt -p, set +o, trap -p, alias), which the
// interpreter reads back exactly; the virtual files travel as their bytes.

// SnapshotFormat and SnapshotVersion identify a snapshot file; Restore
// refuses any other format, and versions newer than its own.
const (
	SnapshotFormat  = "llmsh-snapshot"
	SnapshotVersion = 2
)

// ErrSnapshot is wrapped by the errors of Snapshot and Restore that are
// about the snapshot itself: a file that is not one, a version this
// llmsh does not know, state the new session cannot take.
var ErrSnapshot = errors.New("llmsh: snapshot")

// snapshotFile is the snapshot format, version 2 (version 1 lacks Status
// and Fds).
type snapshotFile struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// Cwd is the shell's working directory.
	Cwd string `json:"cwd"`
	// Vars are the variables, each as `declare -p NAME` prints it.
	Vars []snapVar `json:"variables"`
	// Functions is what `declare -f` prints.
	Functions string `json:"functions"`
	// Options are the lines of `set +o` and `shopt -p`.
	Options []string `json:"options"`
	// Traps are the lines of `trap -p`; Aliases what `alias` prints.
	Traps   []string `json:"traps"`
	Aliases string   `json:"aliases"`
	// Args are the positional parameters ($1 …).
	Args []string `json:"args"`
	// Status is $?, the status of the last command.
	Status int `json:"status"`
	// LastArg is $_, and LastArgExported whether _ is still in the
	// environment the session started with (no command has run yet).
	LastArg         string `json:"last_arg,omitempty"`
	LastArgExported bool   `json:"last_arg_exported,omitempty"`
	// Fds are the descriptors above 2 that the shell holds open.
	Fds []snapFd `json:"descriptors,omitempty"`
	// Files are the virtual files and directories, sorted by path (a
	// directory before what it holds).
	Files []snapFile `json:"files"`
}

type snapVar struct {
	Name string `json:"name"`
	Decl string `json:"decl"`
}

// snapFd is a descriptor: Redir is the redirection that opens it again,
// ">>" (a file written: writes go to its end) or "<" or "<>" (a device
// without a position), with Path; or ">&" or "<&" with Dup, a copy of the
// shell's stdin, stdout or stderr.
type snapFd struct {
	Fd    int    `json:"fd"`
	Redir string `json:"redir"`
	Path  string `json:"path,omitempty"`
	Dup   int    `json:"dup,omitempty"`
}

type snapFile struct {
	Path string      `json:"path"`
	Dir  bool        `json:"dir,omitempty"`
	Mode fs.FileMode `json:"mode"` // permission bits
	Data []byte      `json:"data,omitempty"`
}

// dynamicVars change by themselves (or are the shell's own counters):
// a snapshot does not carry them.
var dynamicVars = map[string]bool{
	"_": true, "RANDOM": true, "SRANDOM": true, "SECONDS": true, "EPOCHSECONDS": true,
	"EPOCHREALTIME": true, "LINENO": true, "BASHPID": true, "BASH_SUBSHELL": true,
	"BASH_COMMAND": true, "PIPESTATUS": true, "FUNCNAME": true, "BASH_LINENO": true,
	"BASH_SOURCE": true, "BASH_ARGC": true, "BASH_ARGV": true, "GROUPS": true, "PPID": true,
	"UID": true, "EUID": true,
}

// Snapshot returns the session's state as the bytes of one snapshot file
// (a JSON object, docs/snapshot.md): its virtual files and directories,
// its variables (arrays, associative arrays and attributes included),
// functions, working directory, positional parameters, shell options,
// traps and aliases. It waits for a Run in progress. Files under the
// grants are not in it: they are the host's.
func (s *Session) Snapshot(ctx context.Context) ([]byte, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if s.opts.Isolated {
		if s.iso == nil {
			return nil, fmt.Errorf("%w (Reset starts a new session)", ErrCrashed)
		}
		r := s.iso.call(workerReq{Op: "snapshot"})
		if err := r.snapErr(); err != nil {
			return nil, err
		}
		return r.Data, nil
	}
	if s.sh == nil {
		return nil, fmt.Errorf("%w (Reset starts a new session)", ErrVfsdGone)
	}
	snap, err := s.exportState(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.exportFiles(snap); err != nil {
		return nil, err
	}
	return json.MarshalIndent(snap, "", " ")
}

// Restore starts the session over, as Reset does (a fresh shell and vfsd
// with the session's options), and gives it the state of snap, a
// snapshot file from Snapshot of this or another session. The virtual
// files are made again where the new session's grants allow: a path that
// it may write for real (an Outputs grant) is written there, one under an
// Inputs grant or refused by Strict fails the Restore. On an error the
// session is left fresh, as after Reset, or wraps ErrCrashed/ErrVfsdGone.
func (s *Session) Restore(ctx context.Context, snap []byte) error {
	return s.RestoreHanded(ctx, snap, nil)
}

// RestoreHanded is Restore that calls handed (when not nil) once the
// caller's process no longer needs snap's bytes: an Isolated session's
// process has been sent them (before its state is applied, which runs
// the snapshot's text and may take the session's time limit, or without
// one as long as that text runs), an in-process session's state has
// been applied. A server that admits one snapshot's bytes at a time
// admits the next then (serve: a crafted snapshot's "sleep" held every
// other client's snapshot and restore).
func (s *Session) RestoreHanded(ctx context.Context, snap []byte, handed func()) error {
	if handed == nil {
		handed = func() {}
	}
	var once sync.Once
	defer once.Do(handed)
	var sf snapshotFile
	if err := s.lockToApply(ctx, snap, &sf); err != nil {
		return err
	}
	defer s.unlock()
	s.stop()
	if err := s.start(); err != nil {
		return err
	}
	var err error
	if s.opts.Isolated {
		err = s.iso.apply(ctx, snap, s.opts.Timeout, func() { once.Do(handed) })
	} else {
		err = s.applyState(ctx, &sf)
	}
	if err != nil {
		// Leave no half-restored state behind.
		s.stop()
		if serr := s.start(); serr != nil {
			return errors.Join(err, serr)
		}
	}
	return err
}

// lockToApply decodes snap into sf and locks the open session for
// applying it; the caller unlocks.
func (s *Session) lockToApply(ctx context.Context, snap []byte, sf *snapshotFile) error {
	if err := decodeSnapshot(snap, sf); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	if s.closed {
		s.unlock()
		return ErrClosed
	}
	return nil
}

// apply is Restore in a worker, whose session is fresh.
func (s *Session) apply(ctx context.Context, snap []byte) error {
	var sf snapshotFile
	if err := s.lockToApply(ctx, snap, &sf); err != nil {
		return err
	}
	defer s.unlock()
	if s.sh == nil {
		return fmt.Errorf("%w (Reset starts a new session)", ErrVfsdGone)
	}
	return s.applyState(ctx, &sf)
}

// snapErr is the error of a worker's snapshot or apply answer.
func (r workerResp) snapErr() error {
	if r.Kind == "snapshot" {
		return fmt.Errorf("%w: %s", ErrSnapshot, strings.TrimPrefix(r.Err, ErrSnapshot.Error()+": "))
	}
	return r.err()
}

func decodeSnapshot(b []byte, sf *snapshotFile) error {
	if err := json.Unmarshal(b, sf); err != nil {
		// Go's "cannot unmarshal array into Go value of type
		// llmsh.snapshotFile" names our types: say what the file has.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if te.Field == "" {
				return fmt.Errorf("%w: not a snapshot file (a JSON %s, not an object)", ErrSnapshot, te.Value)
			}
			return fmt.Errorf("%w: not a snapshot file (%s is a JSON %s)", ErrSnapshot, te.Field, te.Value)
		}
		return fmt.Errorf("%w: not a snapshot file: %v", ErrSnapshot, err)
	}
	switch {
	case sf.Format != SnapshotFormat:
		return fmt.Errorf("%w: not a snapshot file (format %q, want %q)", ErrSnapshot, sf.Format, SnapshotFormat)
	case sf.Version < 1 || sf.Version > SnapshotVersion:
		return fmt.Errorf("%w: version %d is not supported (this llmsh reads version 1 to %d)", ErrSnapshot, sf.Version, SnapshotVersion)
	case sf.Status < 0 || sf.Status > 255:
		return fmt.Errorf("%w: status %d is not one of 0 to 255", ErrSnapshot, sf.Status)
	case !strings.HasPrefix(sf.Cwd, "/"):
		return fmt.Errorf("%w: the working directory %q is not absolute", ErrSnapshot, sf.Cwd)
	}
	for _, f := range sf.Files {
		// A path as vfsd holds it: absolute, clean, within PATH_MAX (a
		// crafted 30 MB path kept mkdirParents busy for good).
		p := f.Path
		if f.Dir && len(p) > 1 {
			p = strings.TrimSuffix(p, "/") // a directory is listed as /d/
		}
		if !strings.HasPrefix(p, "/") || path.Clean(p) != p || len(f.Path) >= 4096 {
			return fmt.Errorf("%w: malformed file path %.80q", ErrSnapshot, f.Path)
		}
	}
	for _, v := range sf.Vars {
		if !syntax.ValidName(v.Name) || !strings.HasPrefix(v.Decl, "declare -") {
			return fmt.Errorf("%w: malformed variable %q", ErrSnapshot, v.Name)
		}
	}
	for _, d := range sf.Fds {
		ok := d.Fd > 2 && d.Fd < 1<<16
		switch d.Redir {
		case ">>":
			ok = ok && strings.HasPrefix(d.Path, "/")
		case "<", "<>":
			ok = ok && statelessDevice(d.Path)
		case ">&", "<&":
			ok = ok && d.Dup >= 0 && d.Dup <= 2
		default:
			ok = false
		}
		if !ok {
			return fmt.Errorf("%w: malformed descriptor %d", ErrSnapshot, d.Fd)
		}
	}
	return nil
}

// statelessDevice reports whether path is a device that reads the same
// from any position, so that a descriptor reading it can be opened again.
func statelessDevice(path string) bool {
	switch path {
	case "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom":
		return true
	}
	return false
}

// exportFds describes the shell's descriptors above 2, or says which one
// a snapshot cannot carry and why.
func (s *Session) exportFds() ([]snapFd, error) {
	var out []snapFd
	for _, d := range s.sh.Fds() {
		sd := snapFd{Fd: d.N}
		switch {
		case d.Kind == "file" && strings.HasPrefix(d.Path, "/dev/fd/"):
			// a process substitution's pipe, or a copy of a descriptor
			d.Kind = "pipe"
			fallthrough
		case d.Kind == "pipe":
			return nil, fmt.Errorf("%w: descriptor %d is a pipe (a here-document, a process substitution or a copy of a redirected output), which a snapshot cannot carry (close it first: exec %d>&-)", ErrSnapshot, d.N, d.N)
		case d.Kind == "std":
			sd.Redir, sd.Dup = ">&", d.Std
			if d.Std == 0 {
				sd.Redir = "<&"
			}
		case d.Kind == "file" && d.Flag&os.O_WRONLY != 0:
			// Opened to write (> truncates once, then appends; >>
			// appends): writes go to the end, wherever it is.
			sd.Redir, sd.Path = ">>", d.Path
		case d.Kind == "file" && statelessDevice(d.Path):
			sd.Redir, sd.Path = "<", d.Path
			if d.Flag&os.O_RDWR != 0 {
				sd.Redir = "<>"
			}
		default:
			return nil, fmt.Errorf("%w: descriptor %d reads %s, and a snapshot cannot carry how far it has read (close it first: exec %d<&-)", ErrSnapshot, d.N, d.Path, d.N)
		}
		out = append(out, sd)
	}
	return out, nil
}

// shellOut runs script in the shell (it holds sem, between Runs) and
// returns what it wrote; the script's stdin is empty. The session's traps
// do not fire: a DEBUG or ERR trap would run the session's code in the
// middle of the export or the restore (and, in the export, without the
// time limit of a Run).
func (s *Session) shellOut(ctx context.Context, script string) (stdout, stderr string, status int, err error) {
	return s.shellOutWith(ctx, script, s.sh.RunInteractive)
}

// shellOutWith is shellOut with run (the shell's RunInteractive or
// RunState) running script.
func (s *Session) shellOutWith(ctx context.Context, script string, run func(context.Context, string) (int, error)) (stdout, stderr string, status int, err error) {
	s.sh.SetTrapsOff(true)
	defer s.sh.SetTrapsOff(false)
	out := newCapture()
	s.stdout.set(&out.stdout)
	s.stderr.set(&out.stderr)
	defer s.stdout.set(nil)
	defer s.stderr.set(nil)
	in, err := stdinPipe(nil)
	if err != nil {
		return "", "", 0, err
	}
	defer in.Close()
	if err := s.sh.SetStdin(in); err != nil {
		return "", "", 0, err
	}
	status, err = run(ctx, script)
	out.mu.Lock()
	stdout, stderr = string(out.stdout.buf), string(out.stderr.buf)
	out.mu.Unlock()
	if err != nil {
		return stdout, stderr, status, fmt.Errorf("llmsh: %w", err)
	}
	return stdout, stderr, status, nil
}

// lines splits text into its lines, without empty ones.
func lines(text string) []string {
	var out []string
	for l := range strings.SplitSeq(text, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// exportState reads the shell's state (not the files).
func (s *Session) exportState(ctx context.Context) (*snapshotFile, error) {
	// $? as the session has it; the export's commands leave it as it was.
	status := s.sh.LastStatus()
	defer s.sh.SetLastStatus(status)
	lastArg, lastExported := s.sh.LastArg() // and $_
	defer s.sh.SetLastArg(lastArg, lastExported)
	pre, err := s.builtinPrefix()
	if err != nil {
		return nil, err
	}
	sf := &snapshotFile{Format: SnapshotFormat, Version: SnapshotVersion, Created: time.Now().UTC(), Cwd: s.sh.Dir(), Status: status,
		LastArg: lastArg, LastArgExported: lastExported}
	if sf.Fds, err = s.exportFds(); err != nil {
		return nil, err
	}
	// One script, its parts split by NUL bytes (which no shell string
	// holds): functions, options, traps, aliases, then $# and "$@".
	parts := strings.NewReplacer("B ", pre).Replace(`B declare -f; B printf '\0'; B set +o; B shopt -p; B printf '\0'; B trap -p; B printf '\0'; B alias; B printf '\0%s\0' "$#"; B printf '%s\0' "$@"`)
	out, errOut, _, err := s.shellOut(ctx, parts)
	if err != nil {
		return nil, err
	}
	f := strings.Split(out, "\x00")
	if len(f) < 5 {
		return nil, fmt.Errorf("%w: cannot read the shell's state: %s", ErrSnapshot, strings.TrimSpace(errOut))
	}
	sf.Functions, sf.Options, sf.Traps, sf.Aliases = f[0], lines(f[1]), lines(f[2]), f[3]
	n, err := strconv.Atoi(f[4])
	if err != nil || len(f) < 5+n {
		return nil, fmt.Errorf("%w: cannot read the positional parameters", ErrSnapshot)
	}
	sf.Args = append([]string{}, f[5:5+n]...)
	if sf.Vars, err = s.exportVars(ctx, pre); err != nil {
		return nil, err
	}
	return sf, nil
}

// builtinPrefix is what runs a builtin whatever functions the session
// has (bash lets a function be named declare, set, trap …): \builtin, or
// \command when a function is named builtin. (Quoted, neither is an
// alias.)
func (s *Session) builtinPrefix() (string, error) {
	switch {
	case !s.sh.HasFunc("builtin"):
		return `\builtin `, nil
	case !s.sh.HasFunc("command"):
		return `\command `, nil
	}
	return "", fmt.Errorf("%w: functions named builtin and command hide the builtins a snapshot reads the state with (unset -f one of them first)", ErrSnapshot)
}

// exportVars is every variable as declare -p prints it.
func (s *Session) exportVars(ctx context.Context, pre string) ([]snapVar, error) {
	var names []string
	var b strings.Builder
	for _, n := range s.sh.VarNames() {
		if dynamicVars[n] || !syntax.ValidName(n) {
			continue
		}
		names = append(names, n)
		fmt.Fprintf(&b, "%sdeclare -p %s; %sprintf '\\0'\n", pre, n, pre)
	}
	out, _, _, err := s.shellOut(ctx, b.String())
	if err != nil {
		return nil, err
	}
	decls := strings.Split(out, "\x00")
	if len(decls) != len(names)+1 {
		return nil, fmt.Errorf("%w: cannot read the variables", ErrSnapshot)
	}
	var vars []snapVar
	for i, n := range names {
		// A name without a declaration (unset since) is left out.
		if d := strings.TrimSuffix(decls[i], "\n"); strings.HasPrefix(d, "declare -") {
			vars = append(vars, snapVar{Name: n, Decl: d})
		}
	}
	return vars, nil
}

// exportFiles adds the virtual files to sf.
func (s *Session) exportFiles(sf *snapshotFile) error {
	c := s.proc.Client
	vl, err := c.VirtualListing()
	if err != nil {
		return fmt.Errorf("llmsh: listing the virtual files: %w", err)
	}
	if vl.Omitted > 0 {
		return fmt.Errorf("%w: %d virtual files have names too long to list", ErrSnapshot, vl.Omitted)
	}
	sf.Files = []snapFile{}
	for _, v := range vl.Files {
		f := snapFile{Path: v.Path, Dir: v.Dir, Mode: 0o755}
		if fi, err := c.Stat(v.Path); err == nil {
			f.Mode = fi.Mode().Perm()
		}
		if !v.Dir {
			fh, err := c.Open(v.Path)
			if err != nil {
				return fmt.Errorf("llmsh: reading the virtual file: %w", err)
			}
			f.Data, err = io.ReadAll(fh)
			fh.Close()
			if err != nil {
				return fmt.Errorf("llmsh: reading the virtual file %s: %w", v.Path, err)
			}
		}
		sf.Files = append(sf.Files, f)
	}
	return nil
}

// mkdirParents makes the missing directories above the virtual path name
// (a snapshot lists a directory only when it is empty; a new file needs
// its directory).
func mkdirParents(c *vfsclient.Client, name string) error {
	dir := path.Dir(strings.TrimSuffix(name, "/"))
	if dir == "/" || dir == "." {
		return nil
	}
	if fi, err := c.Stat(dir); err == nil && fi.IsDir() {
		return nil
	}
	if err := mkdirParents(c, dir); err != nil {
		return err
	}
	return c.Mkdir(dir, 0o755)
}

// restoreFiles makes the virtual files and directories of a snapshot
// again, parents first.
func (s *Session) restoreFiles(ctx context.Context, files []snapFile) error {
	c := s.proc.Client
	for _, f := range files {
		if err := s.restoreStopped(ctx); err != nil {
			return err
		}
		if _, err := c.Lstat(f.Path); err == nil {
			return fmt.Errorf("%w: %s already exists in the new session", ErrSnapshot, f.Path)
		}
		if err := mkdirParents(c, f.Path); err != nil {
			return fmt.Errorf("%w: %v", ErrSnapshot, err)
		}
		if f.Dir {
			if err := c.Mkdir(f.Path, f.Mode.Perm()); err != nil {
				return fmt.Errorf("%w: %v", ErrSnapshot, err)
			}
			continue
		}
		fh, err := c.OpenFile(f.Path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrSnapshot, err)
		}
		_, err = fh.Write(f.Data)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = c.Chmod(f.Path, f.Mode.Perm())
		}
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrSnapshot, f.Path, err)
		}
	}
	return nil
}

// applyState gives the fresh shell and vfsd of the session (it holds
// sem) the state of sf.
func (s *Session) applyState(ctx context.Context, sf *snapshotFile) error {
	// A snapshot's text runs as a script would, so within the session's
	// time limit: a crafted one (or a trap) that loops must not keep the
	// session, a CPU and (serve) a pending session's slot for good.
	// The memory guard stops it as it stops a Run.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	if s.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, s.opts.Timeout, ErrTimedOut)
		defer cancel()
	}
	lim := &limiter{stderr: io.Discard}
	lim.begin(stop)
	defer lim.end()
	s.setLimiter(lim)
	defer s.setLimiter(nil)
	err := s.applyWithin(ctx, sf)
	if serr := s.restoreStopped(ctx); err != nil && serr != nil {
		return serr // what stopped it, rather than what it left half done
	}
	return err
}

// applyWithin is applyState within its limits (ctx).
func (s *Session) applyWithin(ctx context.Context, sf *snapshotFile) error {
	if err := s.restoreFiles(ctx, sf.Files); err != nil {
		return err
	}
	// The working directory as the snapshot's shell had it, entered or
	// not: a session may start in a directory it cannot read, and the
	// snapshot's may not exist here (the shell is then where bash is
	// when its directory was removed). The variables below set PWD and
	// OLDPWD. (The no-op first: the shell's first command sets it up.)
	if _, _, _, err := s.shellOut(ctx, ":"); err != nil {
		return err
	}
	s.sh.SetDir(sf.Cwd)
	// The fresh shell's variables: what equals the
	// snapshot's is left alone (the read-only ones among them), what the
	// snapshot lacks is unset.
	// The fresh shell has no functions: the builtins answer by name.
	fresh, err := s.exportVars(ctx, "")
	if err != nil {
		return err
	}
	have := map[string]string{}
	for _, v := range fresh {
		have[v.Name] = v.Decl
	}
	var b strings.Builder
	want := map[string]bool{}
	for _, v := range sf.Vars {
		want[v.Name] = true
		if have[v.Name] != v.Decl {
			b.WriteString(v.Decl + "\n")
		}
	}
	for _, v := range fresh {
		if !want[v.Name] {
			b.WriteString("unset -v " + v.Name + "\n")
		}
	}
	for _, d := range sf.Fds {
		if d.Path != "" {
			fmt.Fprintf(&b, "exec %d%s%s\n", d.Fd, d.Redir, quote(d.Path))
		} else {
			fmt.Fprintf(&b, "exec %d%s%d\n", d.Fd, d.Redir, d.Dup)
		}
	}
	for _, t := range sf.Traps {
		b.WriteString(t + "\n")
	}
	b.WriteString("set --")
	for _, a := range sf.Args {
		b.WriteString(" " + quote(a))
	}
	b.WriteString("\n")
	// Options after the variables: errexit or nounset must not act on
	// the restoring itself. Only the lines that change something (shopt
	// cannot set the read-only ones, which are equal).
	opts, _, _, err := s.shellOut(ctx, "set +o; shopt -p")
	if err != nil {
		return err
	}
	now := lines(opts)
	for _, o := range sf.Options {
		if !slices.Contains(now, o) {
			b.WriteString(o + "\n")
		}
	}
	// The functions and aliases after the builtins above, which they
	// could hide.
	b.WriteString(sf.Functions)
	if !strings.HasSuffix(sf.Functions, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(sf.Aliases)
	b.WriteString("\n")
	// A declaration may be longer than a script may be (RunState).
	_, errOut, st, err := s.shellOutWith(ctx, b.String(), s.sh.RunState)
	if err := s.restoreStopped(ctx); err != nil {
		return err
	}
	if err != nil || st != 0 || errOut != "" {
		return fmt.Errorf("%w: the shell's state: %s", ErrSnapshot, firstLine(errOut, err))
	}
	s.sh.SetLastStatus(sf.Status)
	s.sh.SetLastArg(sf.LastArg, sf.LastArgExported)
	return nil
}

// restoreStopped is the error of a restore that ctx stopped (the time
// limit, the memory guard, the caller), nil while it goes on.
func (s *Session) restoreStopped(ctx context.Context) error {
	switch cause := context.Cause(ctx); cause {
	case nil:
		return nil
	case ErrTimedOut:
		return restoreTimedOut(s.opts.Timeout)
	case ErrMemoryLimit:
		return fmt.Errorf("%w: restoring the shell's state: %v", ErrSnapshot, cause)
	default:
		return cause
	}
}

// restoreTimedOut is the error of a Restore that its session's time
// limit stopped.
func restoreTimedOut(limit time.Duration) error {
	return fmt.Errorf("%w: restoring the shell's state did not end within the time limit (%s)", ErrSnapshot, limit)
}

// quote quotes s for the shell.
func quote(s string) string {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		// Only strings with NUL bytes cannot be quoted; the shell has none.
		return "''"
	}
	return q
}

func firstLine(text string, err error) string {
	if err != nil {
		return err.Error()
	}
	text = strings.TrimSpace(text)
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		return text[:i] + " …"
	}
	if text == "" {
		return "failed"
	}
	return text
}
