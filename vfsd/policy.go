package vfsd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/vfsproto"
)

// grant is one allowlist entry: a directory tree, or a single file reached
// through an os.Root on its parent.
type grant struct {
	path  string   // cleaned absolute path, as granted
	write bool     // -o (writable and readable) rather than -i
	root  *os.Root // the tree, or the parent of a single file
	file  string   // base name of a single-file grant; "" for a tree
	bn    beneath  // root's directory, for openat2 (vfsd/beneath_linux.go)
}

// errFallback says that openat2 could not answer (not there, or EAGAIN: a
// rename or a mount raced a ".." of the walk) and the os.Root must.
var errFallback = errors.New("vfsd: resolve through the root")

// stat is g.root.Stat, resolved by one openat2 where it can be.
func (g *grant) stat(rel string) (fs.FileInfo, error) {
	fi, err := g.bn.stat(rel)
	if err == errFallback {
		return g.root.Stat(rel)
	}
	return fi, err
}

// contains reports whether the cleaned absolute path p lies in the grant.
func (g *grant) contains(p string) bool {
	if g.file != "" {
		return p == g.path
	}
	if p == g.path || g.path == "/" {
		return true
	}
	return len(p) > len(g.path) && p[len(g.path)] == '/' && strings.HasPrefix(p, g.path)
}

// rel is the name of p (contained in g) relative to g.root.
func (g *grant) rel(p string) string {
	if g.file != "" {
		return g.file
	}
	if p == g.path {
		return "."
	}
	if g.path == "/" {
		return p[1:]
	}
	return p[len(g.path)+1:]
}

// policy holds the allowlists and resolves client paths against them.
type policy struct {
	base   string // absolute, cleaned base for relative paths
	grants []*grant
}

// newPolicy opens one os.Root per granted path.
func newPolicy(base string, inputs, outputs []string) (*policy, error) {
	p := &policy{base: base}
	add := func(name string, write bool) error {
		flag := "-i"
		if write {
			flag = "-o"
		}
		if strings.IndexByte(name, 0) >= 0 {
			// no terminal shows a NUL: Go's quoting spells it out
			return fmt.Errorf("%s %q: invalid path", flag, name)
		}
		if name == "" {
			return fmt.Errorf("%s '': invalid path", flag)
		}
		abs := name
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(base, abs)
		}
		abs = filepath.Clean(abs)
		g := &grant{path: abs, write: write}
		fi, err := os.Stat(abs)
		switch {
		case err == nil && !fi.IsDir() && strings.HasSuffix(name, "/"):
			// "-o out/" asks for a directory: a file there is
			// ENOTDIR, as any tool says of "out/"
			err = syscall.ENOTDIR
		case err == nil && fi.IsDir():
			g.root, err = os.OpenRoot(abs)
		case err == nil || errors.Is(err, fs.ErrNotExist):
			if abs == "/" {
				return fmt.Errorf("%s %s: invalid path", flag, name)
			}
			g.file = filepath.Base(abs)
			g.root, err = os.OpenRoot(filepath.Dir(abs))
		}
		if err != nil {
			return fmt.Errorf("%s '%s': %s", flag, name, errnoText(err))
		}
		g.bn = openBeneath(g.root)
		p.grants = append(p.grants, g)
		return nil
	}
	for _, in := range inputs {
		if err := add(in, false); err != nil {
			p.close()
			return nil, err
		}
	}
	for _, out := range outputs {
		if err := add(out, true); err != nil {
			p.close()
			return nil, err
		}
	}
	return p, nil
}

// CheckGrants opens the allowlists as New does and closes them again: the
// error is the one New would give (without its "vfsd: "), nil when New
// would take them. llmsh runs a script before its vfsd has answered
// hello, and so before vfsd has said that it refuses a grant, only
// when CheckGrants finds nothing to refuse.
func CheckGrants(base string, inputs, outputs []string) error {
	p, err := newPolicy(filepath.Clean(base), inputs, outputs)
	if err != nil {
		return err
	}
	p.close()
	return nil
}

func (p *policy) close() error {
	var first error
	for _, g := range p.grants {
		g.bn.close()
		if err := g.root.Close(); err != nil && first == nil {
			first = err
		}
	}
	p.grants = nil
	return first
}

// PathMax and NameMax are Linux's limits on a path (PATH_MAX, its
// terminating NUL included) and on one component of it (NAME_MAX), in
// bytes. vfsd holds every path it is given to them, for real and virtual
// files alike, so that a virtual name costs at most a few KiB.
const (
	PathMax = 4096
	NameMax = 255
)

// tooLong reports whether name, or one of its components, is longer than
// Linux allows (ENAMETOOLONG).
func tooLong(name string) bool {
	if len(name) >= PathMax {
		return true
	}
	for len(name) > NameMax {
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return true
		}
		if i > NameMax {
			return true
		}
		name = name[i+1:]
	}
	return false
}

// clean turns a client path into a cleaned absolute path. Relative paths
// resolve against the base. A NUL byte, or a ".." that leaves a granted
// tree (lexically), is E_PERM; a path or a component over PathMax or
// NameMax (also once made absolute) is E_ARG "file name too long".
func (p *policy) clean(name string) (string, *vfsproto.Error) {
	if name == "" {
		return "", perr(vfsproto.EArg, "missing path")
	}
	if strings.IndexByte(name, 0) >= 0 {
		return "", perr(vfsproto.EPerm, msgPerm)
	}
	if tooLong(name) {
		return "", perr(vfsproto.EArg, msgNameTooLong)
	}
	if name[0] != '/' {
		name = p.base + "/" + name
		if len(name) >= PathMax {
			return "", perr(vfsproto.EArg, msgNameTooLong)
		}
	}
	if !strings.Contains(name, "..") {
		return filepath.Clean(name), nil
	}
	parts := make([]string, 0, 16)
	for c := range strings.SplitSeq(name, "/") {
		switch c {
		case "", ".":
		case "..":
			if len(parts) == 0 {
				continue
			}
			cur := "/" + strings.Join(parts, "/")
			parts = parts[:len(parts)-1]
			up := "/" + strings.Join(parts, "/")
			for _, g := range p.grants {
				if g.contains(cur) && !g.contains(up) {
					return "", perr(vfsproto.EPerm, msgPerm)
				}
			}
		default:
			parts = append(parts, c)
		}
	}
	return "/" + strings.Join(parts, "/"), nil
}

// readable returns the most specific grant containing abs, or nil.
func (p *policy) readable(abs string) *grant {
	var best *grant
	for _, g := range p.grants {
		if g.contains(abs) && (best == nil || len(g.path) > len(best.path)) {
			best = g
		}
	}
	return best
}

// writable returns the most specific writable grant containing abs, or nil.
func (p *policy) writable(abs string) *grant {
	var best *grant
	for _, g := range p.grants {
		if g.write && g.contains(abs) && (best == nil || len(g.path) > len(best.path)) {
			best = g
		}
	}
	return best
}

// ancestorChildren returns, for a directory abs that is a strict ancestor of
// granted paths, the next path component toward each of them, with the
// grant when that component is the granted path itself. It returns nil when
// abs is an ancestor of no grant.
func (p *policy) ancestorChildren(abs string) map[string]*grant {
	var out map[string]*grant
	prefix := abs + "/"
	if abs == "/" {
		prefix = "/"
	}
	for _, g := range p.grants {
		if g.path == abs || !strings.HasPrefix(g.path, prefix) {
			continue
		}
		rest := g.path[len(prefix):]
		name, _, deeper := strings.Cut(rest, "/")
		if out == nil {
			out = make(map[string]*grant)
		}
		if deeper {
			if _, ok := out[name]; !ok {
				out[name] = nil
			}
		} else {
			out[name] = g
		}
	}
	return out
}

// isAncestor reports whether abs is a strict ancestor of a granted path.
func (p *policy) isAncestor(abs string) bool {
	prefix := abs + "/"
	if abs == "/" {
		// The root is the way to everything, even with no grant (or
		// only virtual files) under it: it is a directory (cd /, ls /
		// as anywhere), unless it is a grant itself.
		for _, g := range p.grants {
			if g.path == "/" {
				return false
			}
		}
		return true
	}
	for _, g := range p.grants {
		if g.path != abs && strings.HasPrefix(g.path, prefix) {
			return true
		}
	}
	return false
}

// errnoText is err as GNU tools word a system error ("No such file or
// directory"), without Go's "open PATH:" (the grant is named already).
func errnoText(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	t := errno.Error()
	if t == "" {
		return t
	}
	return strings.ToUpper(t[:1]) + t[1:]
}
