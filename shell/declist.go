package shell

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/expand"
	"github.com/llmsh/llmsh/third_party/sh/interp"
	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// Listing the variables. interp prints nothing for `set` without
// arguments, nor for `declare`, `declare -p`, `export`, `export -p`,
// `readonly` or `typeset` without names. llmsh lists them as bash does,
// from the runner's own environment: llmsh's defaults and what the script
// set, never the host's (there is none in it). The pre-pass (declListStmt)
// turns such a declaration into the internal command declListCmd; `set`
// alone is caught by the call handler.
//
//	set, declare, typeset             NAME=VALUE (quoted as bash quotes for input)
//	declare -p, typeset -p            declare -FLAGS NAME="VALUE"
//	export, export -p, declare -x     declare -x … (exported names only)
//	readonly, readonly -p, declare -r declare -r … (read-only names only)
//
// The names of llmsh's own rewrites (_llmsh_…) are left out. Functions
// are not listed (bash's `set` and `declare` print them too).
const declListCmd = "\x00declist"

// declListStmt rewrites a declaration with options only (no names) into
// declListCmd VARIANT OPTION...; options other than -p -x -r -a -A -g
// (-f, -F, …) are left to interp.
func declListStmt(st *syntax.Stmt) {
	dc, ok := st.Cmd.(*syntax.DeclClause)
	if !ok || dc.Variant == nil {
		return
	}
	switch dc.Variant.Value {
	case "declare", "typeset", "export", "readonly":
	default:
		return
	}
	args := []*syntax.Word{litWord(declListCmd), litWord(dc.Variant.Value)}
	for _, a := range dc.Args {
		if !a.Naked || a.Name != nil || a.Value == nil {
			return
		}
		opt := a.Value.Lit()
		if len(opt) < 2 || opt[0] != '-' || strings.Trim(opt[1:], "pxraAg") != "" {
			return
		}
		args = append(args, litWord(opt))
	}
	st.Cmd = &syntax.CallExpr{Args: args}
}

// declListCall serves declListCmd and `set` without arguments.
func declListCall(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	variant := args[0]
	if variant == declListCmd && len(args) > 1 {
		variant, args = args[1], args[1:]
	}
	long := variant == "export" || variant == "readonly"
	// The attributes asked for: a name is listed when it has one of them
	// (bash's `declare -rx` lists the read-only and the exported ones).
	want := map[byte]bool{'x': variant == "export", 'r': variant == "readonly"}
	for _, opt := range args[1:] {
		for _, c := range []byte(opt[1:]) {
			if c != 'g' {
				long = true
			}
			if c != 'p' && c != 'g' {
				want[c] = true
			}
		}
	}
	anyWanted := want['x'] || want['r'] || want['a'] || want['A']
	has := func(vr expand.Variable) bool {
		return !anyWanted || want['x'] && vr.Exported || want['r'] && vr.ReadOnly ||
			want['a'] && vr.Kind == expand.Indexed || want['A'] && vr.Kind == expand.Associative
	}
	vars := map[string]expand.Variable{}
	hc.Env.Each(func(name string, vr expand.Variable) bool {
		// Outer scopes come first: a later entry (a local, an unset)
		// replaces an earlier one.
		if vr.Declared() {
			vars[name] = vr
		} else {
			delete(vars, name)
		}
		return true
	})
	names := make([]string, 0, len(vars))
	for name, vr := range vars {
		if strings.HasPrefix(name, "_llmsh_") || !syntax.ValidName(name) || !has(vr) || !long && !vr.IsSet() {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		vr := vars[name]
		if long {
			flags := vr.Flags()
			if flags == "" {
				flags = "-"
			}
			fmt.Fprintf(&b, "declare -%s %s", flags, name)
			if vr.IsSet() {
				b.WriteByte('=')
				writeDeclValue(&b, vr, declQuote)
			}
		} else {
			b.WriteString(name + "=")
			writeDeclValue(&b, vr, setQuote)
		}
		b.WriteByte('\n')
	}
	io.WriteString(hc.Stdout, b.String())
	return statusArgs(0)
}

// writeDeclValue writes vr's value, arrays as ([K]="V" …).
func writeDeclValue(b *strings.Builder, vr expand.Variable, quote func(string) string) {
	switch vr.Kind {
	case expand.Indexed:
		b.WriteByte('(')
		for i, v := range vr.List {
			if i > 0 {
				b.WriteByte(' ')
			}
			idx := i
			if vr.Indexes != nil {
				idx = vr.Indexes[i]
			}
			fmt.Fprintf(b, "[%d]=%s", idx, declQuote(v))
		}
		b.WriteByte(')')
	case expand.Associative:
		keys := make([]string, 0, len(vr.Map))
		for k := range vr.Map {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('(')
		for _, k := range keys {
			key := k
			if strings.ContainsAny(k, " \t\n\"'\\$`[]()|&;<>*?~#") || k == "" {
				key = declQuote(k)
			}
			fmt.Fprintf(b, "[%s]=%s ", key, declQuote(vr.Map[k]))
		}
		b.WriteByte(')')
	default:
		b.WriteString(quote(vr.Str))
	}
}

// hasControl reports whether s holds a control character, which bash
// writes in $'…'.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// declQuote quotes as `declare -p` does: "…" with \ " $ ` escaped, or
// $'…' when s holds a control character.
func declQuote(s string) string {
	if hasControl(s) {
		return bashQuote(s)
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '"', '$', '`':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// setQuote quotes as `set` does: as it is when no character is special to
// the shell, else '…' (or $'…' with a control character).
func setQuote(s string) string {
	if s == "" {
		return ""
	}
	if hasControl(s) || strings.ContainsAny(s, " \t\n\"'\\$`|&;()<>*?[]{}!^") || s[0] == '~' || s[0] == '#' {
		return bashQuote(s)
	}
	return s
}

// splitDeclFlags writes each option of a declaration apart: interp takes
// the first letter of a group and drops the rest (`declare -rx v=1` was
// read-only but not exported, `declare -gA m` global but not an
// associative array).
func splitDeclFlags(dc *syntax.DeclClause) {
	var out []*syntax.Assign
	for _, a := range dc.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if opt := a.Value.Lit(); len(opt) > 2 && (opt[0] == '-' || opt[0] == '+') && opt != "--" {
				for _, c := range opt[1:] {
					out = append(out, &syntax.Assign{Naked: true, Value: &syntax.Word{Parts: []syntax.WordPart{
						&syntax.Lit{ValuePos: a.Value.Pos(), ValueEnd: a.Value.End(), Value: opt[:1] + string(c)}}}})
				}
				continue
			}
		}
		out = append(out, a)
	}
	dc.Args = out
}
