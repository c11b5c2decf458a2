package builtins

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/llmsh/llmsh/third_party/gojq"
)

// jqModules loads jq's modules (import, include, modulemeta) through the
// file service, as jq 1.7.1's linker finds them: a module NAME is
// DIR/NAME.jq, DIR/NAME/jq/main.jq or DIR/NAME/BASE.jq (BASE: NAME's last
// element; .json for a data module, import "NAME" as $v), DIR taken from
// the import's search metadata (relative to the importing file's
// directory), else the current directory, then the -L directories
// (~/.jq without -L). ~/.jq, when it is a file, is included in the
// program.
type jqModules struct {
	env    *Env
	files  map[*gojq.Query]string // the file of each module loaded
	lib    []string               // absolute
	search []any                  // get_search_list
	home   string                 // $HOME, "" when unset
}

func newJqModules(env *Env, libs []string) *jqModules {
	m := &jqModules{env: env}
	m.home, _ = envLookup(env.Environ, "HOME")
	if libs == nil {
		// jq's default; $ORIGIN, jq's own directory, is none here
		m.search = []any{"~/.jq", "$ORIGIN/../lib/jq", "$ORIGIN/../lib"}
		if m.home != "" {
			m.lib = []string{path.Join(m.home, ".jq")}
		}
		return m
	}
	for _, l := range libs {
		abs := m.resolve(l, "")
		m.lib = append(m.lib, abs)
		if fi, err := m.stat(abs); err == nil && fi.IsDir() {
			m.search = append(m.search, abs) // jq's realpath
		} else {
			m.search = append(m.search, l)
		}
	}
	return m
}

// searchList is get_search_list: the library's directories.
func (m *jqModules) searchList(any, []any) any { return append([]any{}, m.search...) }

// jqModuleError is an error in the module file at path, whose text is src.
type jqModuleError struct {
	path, src string
	err       error
}

func (e *jqModuleError) Error() string { return e.err.Error() }
func (e *jqModuleError) Unwrap() error { return e.err }

// resolve makes dir absolute: ~/ is $HOME, a relative one is under base
// (the current directory when base is "").
func (m *jqModules) resolve(dir, base string) string {
	if rest, ok := strings.CutPrefix(dir, "~/"); ok && m.home != "" {
		return path.Join(m.home, rest)
	}
	if base != "" && !path.IsAbs(dir) {
		return path.Join(base, dir)
	}
	return m.env.Abs(dir)
}

func (m *jqModules) stat(name string) (fs.FileInfo, error) {
	if m.env.FS == nil {
		return nil, fs.ErrNotExist
	}
	return m.env.FS.Stat(name)
}

func (m *jqModules) isFile(name string) bool {
	fi, err := m.stat(name)
	return err == nil && !fi.IsDir()
}

// jqModuleNotFound is jq's error for a module it cannot find (or that
// names a parent directory: dotdot).
type jqModuleNotFound struct {
	name   string
	dotdot bool
}

func (e *jqModuleNotFound) Error() string {
	if e.dotdot {
		return "Relative paths to modules may not traverse to parent directories (" + e.name + ")"
	}
	return "module not found: " + e.name
}

// jqDataError is jq's error for a data module that is no JSON.
type jqDataError struct {
	path string
	err  error
}

func (e *jqDataError) Error() string {
	return "error loading data file " + e.path + ": " + e.err.Error()
}

// find is the file of the module name with the extension ext, looked for
// in the directories of meta's search (else the current one) and in the
// library's; only in the library's for libOnly (modulemeta).
func (m *jqModules) find(name, ext string, meta map[string]any, libOnly bool) (string, error) {
	if name == ".." || strings.HasPrefix(name, "../") || strings.Contains(name, "/../") || strings.HasSuffix(name, "/..") {
		return "", &jqModuleNotFound{name: name, dotdot: true}
	}
	var dirs []string
	switch s := meta["search"].(type) {
	case string:
		dirs = append(dirs, m.resolve(s, ""))
	case []any:
		for _, d := range s {
			if d, ok := d.(string); ok {
				dirs = append(dirs, m.resolve(d, ""))
			}
		}
	default:
		if !libOnly {
			dirs = append(dirs, m.env.Abs("."))
		}
	}
	for _, dir := range append(dirs, m.lib...) {
		for _, p := range []string{
			path.Join(dir, name+ext),
			path.Join(dir, name, "jq", "main"+ext),
			path.Join(dir, name, path.Base(name)+ext),
		} {
			if m.isFile(p) {
				return p, nil
			}
		}
	}
	return "", &jqModuleNotFound{name: name}
}

// parse reads the module file p; the search paths of its imports become
// absolute, from its directory, unless raw.
func (m *jqModules) parse(p string, raw bool) (*gojq.Query, error) {
	b, err := jqReadAll(m.env, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", p, ErrText(err))
	}
	src := string(b)
	q, err := gojq.Parse(src)
	if err != nil {
		return nil, &jqModuleError{path: p, src: src, err: err}
	}
	for _, i := range q.Imports {
		if raw || i.Meta == nil {
			continue
		}
		for _, e := range i.Meta.KeyVals {
			if e.Key == "search" || e.KeyString == "search" {
				if e.Val != nil && e.Val.Str != "" {
					e.Val.Str = m.resolve(e.Val.Str, path.Dir(p))
				}
			}
		}
	}
	return q, nil
}

// LoadInitModules is ~/.jq when it is a file.
func (m *jqModules) LoadInitModules() ([]*gojq.Query, error) {
	if m.home == "" || !m.isFile(path.Join(m.home, ".jq")) {
		return nil, nil
	}
	q, err := m.parse(path.Join(m.home, ".jq"), false)
	if err != nil {
		return nil, err
	}
	return []*gojq.Query{q}, nil
}

// LoadModuleWithMeta is gojq's loader of a jq module.
func (m *jqModules) LoadModuleWithMeta(name string, meta map[string]any) (*gojq.Query, error) {
	p, err := m.find(name, ".jq", meta, false)
	if err != nil {
		return nil, err
	}
	q, err := m.parse(p, false)
	if err == nil {
		if m.files == nil {
			m.files = map[*gojq.Query]string{}
		}
		m.files[q] = p
	}
	return q, err
}

// ModulePath is the file of the module q, for gojq's check of circular
// imports.
func (m *jqModules) ModulePath(q *gojq.Query) string { return m.files[q] }

// LoadModuleMeta is the module name for modulemeta.
func (m *jqModules) LoadModuleMeta(name string) (*gojq.Query, error) {
	p, err := m.find(name, ".jq", nil, true)
	if err != nil {
		return nil, err
	}
	return m.parse(p, true)
}

// LoadJSONWithMeta is gojq's loader of a data module: its JSON values.
func (m *jqModules) LoadJSONWithMeta(name string, meta map[string]any) (any, error) {
	p, err := m.find(name, ".json", meta, false)
	if err != nil {
		return nil, err
	}
	b, err := jqReadAll(m.env, p)
	if err != nil {
		return nil, &jqDataError{p, errors.New(ErrText(err))}
	}
	vals, err := jqDecodeAll(b)
	if err != nil {
		return nil, &jqDataError{p, err}
	}
	if vals == nil {
		vals = []any{}
	}
	return vals, nil
}

// jqModuleCompileError reports err, an error in a module's file, as jq
// does: at the file's name instead of <top-level>.
func jqModuleCompileError(env *Env, me *jqModuleError) {
	if me.src == "" {
		fmt.Fprintf(env.Stderr, "jq: error: %s\n", me.err)
		jqCompileErrorCount(env, 1)
		return
	}
	var pe *gojq.ParseError
	if !errors.As(me.err, &pe) {
		fmt.Fprintf(env.Stderr, "jq: error: %s\n", me.err)
		jqCompileErrorCount(env, 1)
		return
	}
	for _, e := range pe.Errors {
		place := jqPlace(me.src, e.Start)
		if place != "" {
			place = " at " + me.path + strings.TrimPrefix(place, " at <top-level>")
		}
		fmt.Fprintf(env.Stderr, "jq: error: %s%s\n", e.Msg, place)
	}
	jqCompileErrorCount(env, len(pe.Errors))
}
