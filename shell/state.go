package shell

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// The package-level variables left in shell hold no session's data: the
// command tables (commands.go, loops.go, setopts.go), regular
// expressions, sentinel errors and the parsed `wait` statement are never
// changed; ecfgOffset, runnerOffset and handlingTrapField are field
// offsets looked up once; framePool lends scratch buffers for
// runtime.Callers.

// sessionState is what llmsh's rewrites keep for one session: the nodes
// they made, with the data that some of those carry, the text of the
// script's functions, and the counter that names hidden variables. A
// shell makes one (New); its nested shells and the runners they start
// share it. Nothing of it is global, so no session can reach another's
// text, and it goes away with the session. A run's nodes are released
// when the run ends (release, prune), but for those of the functions
// that outlive it.
type sessionState struct {
	seq atomic.Int64 // ids and hidden variables' numbers

	mu sync.Mutex
	// nodes are the CallExprs and Redirects that the rewrites made, the
	// only ones whose internal command and file names are honoured (see
	// internalName), with the data of each (an *arithExpr, the parts of a
	// split word, an *fdOp) or nil.
	nodes map[syntax.Node]any

	redirInfos sync.Map // weak.Pointer[os.File] -> *redirInfo (see redirin.go)
}

func newSessionState() *sessionState {
	return &sessionState{nodes: map[syntax.Node]any{}}
}

// next returns a new number, for a hidden variable's name or an id.
func (st *sessionState) next() string { return strconv.FormatInt(st.seq.Add(1), 10) }

// put records n as made by the rewrites, with its data.
func (st *sessionState) put(n syntax.Node, data any) {
	st.mu.Lock()
	st.nodes[n] = data
	st.mu.Unlock()
}

// made reports whether the rewrites made n, and its data.
func (st *sessionState) made(n syntax.Node) (any, bool) {
	if n == nil {
		return nil, false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	d, ok := st.nodes[n]
	return d, ok
}

// release forgets the nodes of a run that has ended.
func (st *sessionState) release(nodes []syntax.Node) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, n := range nodes {
		delete(st.nodes, n)
	}
}

// prune keeps, of the nodes and function texts, only those of the
// functions still defined (funcs: the session's top-level runner's, the
// only ones that outlive a run).
func (st *sessionState) prune(funcs map[string]*syntax.Stmt) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.nodes) == 0 {
		return
	}
	nodes := map[syntax.Node]any{}
	for _, body := range funcs {
		syntax.Walk(body, func(n syntax.Node) bool {
			if d, ok := st.nodes[n]; ok {
				if _, seen := nodes[n]; seen {
					return false
				}
				nodes[n] = d
			}
			return true
		})
	}
	st.nodes = nodes
}

// size reports how many nodes are kept (tests).
func (st *sessionState) size() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.nodes)
}

// internal reports whether name is one of llmsh's internal command or
// file names (they begin with a NUL or a \x01 byte).
func internal(name string) bool { return name != "" && (name[0] == 0 || name[0] == 1) }

// notFoundCmd NAME prints that NAME is no command, with status 127: the
// call handler's answer to an internal name that no rewrite made.
const notFoundCmd = "\x00notfound"

// notFound returns the command that reports name as not found.
func notFound(name string) []string { return []string{notFoundCmd, name} }

// notFoundStatus reports name as not found on w, as bash does (a name
// with control characters quoted as $'…'), and returns 127.
func notFoundStatus(w io.Writer, name string) int {
	fmt.Fprintf(w, "llmsh: %s: command not found\n", commandText(name))
	return 127
}

// commandText is name as bash prints a command's name in a message: as
// it is, or as $'…' when it holds a control character.
func commandText(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == 0x7f {
			return bashQuote(name)
		}
	}
	return name
}

// execName returns the name of the command that args run, past the
// words `command`, `builtin` and `exec` in front of it; "" when
// there is none or `command -v`/`-V` only looks names up.
func execName(args []string) string {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "command":
			for i+1 < len(args) && len(args[i+1]) > 1 && args[i+1][0] == '-' {
				i++
				if args[i] == "--" {
					break
				}
				if strings.ContainsAny(args[i], "vV") {
					return ""
				}
			}
		case "builtin", "exec":
			if i+1 < len(args) && args[i+1] == "--" {
				i++
			}
		default:
			return args[i]
		}
	}
	return ""
}

// gate refuses an internal command name that the call's node does not
// hold from the rewrites: the script made it from data (a NUL that
// mapfile kept, $'\x01…', printf -v, eval text), so it is no command.
func (s *Shell) gate(ctx context.Context, args []string) ([]string, bool) {
	name := execName(args)
	if !internal(name) {
		return nil, false
	}
	if _, ok := s.state.made(interp.HandlerCtx(ctx).Node); ok && name == args[0] {
		return nil, false
	}
	return notFound(name), true
}

// register records as made by the rewrites every node of root that
// holds an internal name, a CallExpr's first word or a Redirect's file
// (after neutralize, no node of the script's own text does), and returns
// those and the nodes of root recorded already (with their data).
func (st *sessionState) register(root syntax.Node) []syntax.Node {
	var out []syntax.Node
	st.mu.Lock()
	defer st.mu.Unlock()
	visit := func(n syntax.Node) bool {
		var w *syntax.Word
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				w = n.Args[0]
			}
		case *syntax.Redirect:
			w = n.Word
		}
		if _, ok := st.nodes[n]; ok {
			out = append(out, n)
			return true
		}
		if w != nil && len(w.Parts) > 0 {
			if lit, ok := w.Parts[0].(*syntax.Lit); ok && internal(lit.Value) {
				st.nodes[n] = nil
				out = append(out, n)
			}
		}
		return true
	}
	syntax.Walk(root, visit)
	return out
}

// neutralize keeps the script's own text from holding an internal name
// that the rewrites would take for theirs: a word that begins with a NUL
// or \x01 byte written as is in the script (not $'\x01'), which bash
// runs as a command of that name, gets that byte single-quoted, which
// changes nothing of its value.
func neutralize(root syntax.Node) {
	syntax.Walk(root, func(n syntax.Node) bool {
		w, ok := n.(*syntax.Word)
		if !ok || len(w.Parts) == 0 {
			return true
		}
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && internal(lit.Value) {
			first := &syntax.SglQuoted{Left: lit.ValuePos, Right: lit.ValuePos, Value: lit.Value[:1]}
			parts := []syntax.WordPart{first}
			if len(lit.Value) > 1 {
				parts = append(parts, &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: lit.Value[1:]})
			}
			w.Parts = append(parts, w.Parts[1:]...)
		}
		return true
	})
}

// refuseInternalFuncs refuses a function whose name begins with a NUL or
// \x01 byte: it would stand in for one of llmsh's internal commands.
func refuseInternalFuncs(root syntax.Node) error {
	var err error
	syntax.Walk(root, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil && internal(fd.Name.Value) {
			err = fmt.Errorf("`%s': not a valid identifier", commandText(fd.Name.Value))
		}
		return err == nil
	})
	return err
}
