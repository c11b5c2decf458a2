// llmsh: functions exported through the environment, as bash passes them
// (see LLMSH.md).

package interp

import (
	"slices"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// funcEnvPrefix and funcEnvSuffix frame a function's name in the name of
// the variable that exports it: BASH_FUNC_f%%='() { …; }', as bash.
const (
	funcEnvPrefix = "BASH_FUNC_"
	funcEnvSuffix = "%%"
)

// exportedFuncs adds to list, the exported variables, the functions that
// declare -fx / export -f exported, each as bash puts it in a command's
// environment; the result is sorted as list is. list is not changed.
func (r *Runner) exportedFuncs(list []string) []string {
	var add []string
	for name, attrs := range r.funcAttrs {
		if !strings.Contains(attrs, "x") || r.Funcs[name] == nil {
			continue
		}
		body, src := r.Funcs[name], ""
		if b, s := r.writtenBody(name, body); b != nil {
			body, src = b, s
		}
		add = append(add, funcEnvPrefix+name+funcEnvSuffix+"="+bashFuncEnvText(body, src))
	}
	if len(add) == 0 {
		return list
	}
	out := append(slices.Clone(list), add...)
	slices.Sort(out)
	return out
}

// importFuncs defines the functions that the environment exports
// (BASH_FUNC_NAME%%='() …'), as bash does at start-up: each becomes an
// exported function and is no variable. A value that is no function
// definition of NAME is left as a variable. A shell started privileged
// (bash -p) imports none, as bash: the variables stay in the environment
// its commands get, where a shell that is not privileged imports them.
func (r *Runner) importFuncs() {
	if r.opts[optPrivileged] {
		return
	}
	type def struct{ name, fname, src string }
	var defs []def
	r.Env.Each(func(name string, vr expand.Variable) bool {
		if fname, ok := funcEnvName(name); ok && vr.Kind == expand.String && strings.HasPrefix(vr.Str, "() ") {
			defs = append(defs, def{name, fname, fname + " " + vr.Str})
		}
		return true
	})
	for _, d := range defs {
		fd, ok := r.parseFuncEnv(d.fname, d.src)
		if !ok {
			continue
		}
		r.delVar(d.name)
		saved := r.text
		r.text = textPlace{src: d.src} // declare -f prints it as written
		r.setFunc(d.fname, fd.Body)
		r.text = saved
		r.setFuncAttrs(d.fname, "x", false)
	}
}

// funcEnvName returns the function name of variable name when it is one
// that exports a function.
func funcEnvName(name string) (string, bool) {
	fname, ok := strings.CutPrefix(name, funcEnvPrefix)
	if !ok {
		return "", false
	}
	fname, ok = strings.CutSuffix(fname, funcEnvSuffix)
	return fname, ok && fname != ""
}

// parseFuncEnv parses "NAME () …", a function exported through the
// environment; ok is false unless the text is one definition of name.
func (r *Runner) parseFuncEnv(name, src string) (*syntax.FuncDecl, bool) {
	f, err := r.parseText(src, "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	fd, ok := f.Stmts[0].Cmd.(*syntax.FuncDecl)
	if !ok || fd.Name == nil || fd.Name.Value != name || len(f.Stmts[0].Redirs) > 0 {
		return nil, false
	}
	return fd, true
}
