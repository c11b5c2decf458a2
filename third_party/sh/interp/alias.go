// llmsh: aliases as bash 5.2 expands and lists them (LLMSH.md).

package interp

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/llmsh/llmsh/third_party/sh/syntax"
)

// aliasQuote is bash's single-quoting of an alias value in alias's listing.
func aliasQuote(s string) string {
	return shQuoteAlways(s)
}

// aliasLine is one line of alias's listing: alias NAME='VALUE'.
func aliasLine(name string, als alias) string {
	if strings.HasPrefix(name, "-") {
		return "alias -- " + name + "=" + aliasQuote(als.value) + "\n"
	}
	return "alias " + name + "=" + aliasQuote(als.value) + "\n"
}

// aliasBuiltin is bash's alias: define, print one, or list all sorted.
func (r *Runner) aliasBuiltin(args []string) exitStatus {
	var exit exitStatus
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		if strings.Trim(args[0][1:], "p") != "" {
			r.errf("%salias: %s: invalid option\n", r.errPrefix(), args[0])
			r.errf("alias: usage: alias [-p] [name[=value] ... ]\n")
			exit.code = 2
			return exit
		}
		args = args[1:]
	}
	if len(args) == 0 {
		for _, name := range slices.Sorted(maps.Keys(r.alias)) {
			r.out(aliasLine(name, r.alias[name]))
		}
		return exit
	}
	for _, arg := range args {
		name, src, ok := strings.Cut(arg, "=")
		if !ok || name == "" {
			als, found := r.alias[arg]
			if !found {
				r.errf("%salias: %s: not found\n", r.errPrefix(), arg)
				exit.code = 1
				continue
			}
			r.out(aliasLine(arg, als))
			continue
		}
		if strings.ContainsAny(name, "/$`'\"\\ \t\n=<>|&;()") {
			r.errf("%salias: `%s': invalid alias name\n", r.errPrefix(), name)
			exit.code = 1
			continue
		}
		als := alias{
			value:   src,
			blank:   strings.TrimRight(src, " \t\n") != src,
			defSrc:  r.text.src,
			defLine: r.lineEnd,
		}
		// A value of plain words is put in place of the command's word;
		// any other (operators, keywords, redirections) is run as text.
		als.args, als.text = aliasWords(src)
		if r.alias == nil {
			r.alias = make(map[string]alias)
		}
		r.alias[name] = als
	}
	return exit
}

// aliasWords parses an alias value as a list of plain words; text is true
// when the value is more than that and must be parsed with the command.
func aliasWords(src string) (words []*syntax.Word, text bool) {
	parser := syntax.NewParser()
	for w, err := range parser.WordsSeq(strings.NewReader(src)) {
		if err != nil {
			return nil, true
		}
		words = append(words, w)
	}
	if len(words) > 0 {
		if lit := words[0].Lit(); syntax.IsKeyword(lit) || lit == "{" || lit == "}" {
			return nil, true
		}
	}
	return words, false
}

// unaliasBuiltin is bash's unalias.
const unaliasUsage = "unalias [-a] name [name ...]"

func (r *Runner) unaliasBuiltin(args []string) exitStatus {
	var exit exitStatus
	// llmsh: bash's options and usage.
	opts, args, bad, problem := bashOpts(args, "a", false)
	if bad != "" {
		return r.usageFail("unalias", bad, problem, unaliasUsage)
	}
	if len(opts) > 0 {
		clear(r.alias)
		return exit
	}
	if len(args) == 0 {
		r.errf("unalias: usage: %s\n", unaliasUsage)
		exit.code = 2
		return exit
	}
	for _, name := range args {
		if _, ok := r.alias[name]; !ok {
			r.errf("%sunalias: %s: not found\n", r.errPrefix(), name)
			exit.code = 1
			continue
		}
		delete(r.alias, name)
	}
	return exit
}

// aliasFor returns the alias a command word names, if it is to be expanded
// there: expand_aliases is on, the alias is not already being expanded, and
// it was defined before the line being run was read.
func (r *Runner) aliasFor(word *syntax.Word, line uint, busy map[string]bool) (string, alias, bool) {
	name := word.Lit()
	als, ok := r.alias[name]
	if !ok || busy[name] || r.aliasBusy[name] {
		return "", alias{}, false
	}
	if als.defSrc == r.text.src && r.lineBase+line <= als.defLine {
		return "", alias{}, false // not read after the alias was defined
	}
	return name, als, true
}

// expandAliases expands the aliases of a simple command's words as bash:
// the first word, the first word of each replacement (but not an alias
// within its own expansion), and the word after a value ending in a blank.
// A value that is more than words is run, with the rest of the command, as
// text; ran then reports that the command has been run.
func (r *Runner) expandAliases(ctx context.Context, cm *syntax.CallExpr) (args []*syntax.Word, ran bool) {
	args = cm.Args
	if !r.opts[optExpandAliases] || len(args) == 0 {
		return args, false
	}
	line := cm.Args[0].Pos().Line()
	busy := map[string]bool{}
	for i := 0; i < len(args); {
		name, als, ok := r.aliasFor(args[i], line, busy)
		if !ok {
			break
		}
		busy[name] = true
		if als.text {
			r.runAliasText(ctx, cm, args[:i], als.value, args[i+1:], busy)
			return nil, true
		}
		// Build new slices, to not modify the caller's AST nor the
		// slices in the alias map.
		args = slices.Concat(args[:i], als.args, args[i+1:])
		if i >= len(args) {
			break
		}
		if _, _, again := r.aliasFor(args[i], line, busy); again {
			// the replacement's first word is an alias, or (an empty
			// value) the next word is still in command position
			continue
		}
		if !als.blank {
			break
		}
		i += len(als.args)
		busy = map[string]bool{} // the next word may be any alias
	}
	return args, false
}

// runAliasText runs a command whose alias value is more than words: the
// words before it, the value and the words after it, as one text, as bash
// reads it.
func (r *Runner) runAliasText(ctx context.Context, cm *syntax.CallExpr, before []*syntax.Word, value string, after []*syntax.Word, busy map[string]bool) {
	var sb strings.Builder
	printer := syntax.NewPrinter()
	if len(cm.Assigns) > 0 || len(before) > 0 {
		printer.Print(&sb, &syntax.CallExpr{Assigns: cm.Assigns, Args: before})
		sb.WriteByte(' ')
	}
	sb.WriteString(value)
	if len(after) > 0 {
		sb.WriteByte(' ')
		printer.Print(&sb, &syntax.CallExpr{Args: after})
	}
	src := sb.String()
	oldText := r.text
	r.setText(textPlace{lineOffset: int(r.lineBase+cm.Pos().Line()) - 1, src: src})
	defer r.setText(oldText)
	file, err := r.parseText(src, "")
	if err != nil {
		if perr, ok := err.(syntax.ParseError); ok {
			_, msgs := SyntaxError(perr, src)
			for _, m := range msgs {
				r.errf("%s%s\n", r.errPrefix(), m)
			}
		} else {
			r.errf("%s%v\n", r.errPrefix(), err)
		}
		r.exit = exitStatus{code: 2}
		return
	}
	oldBusy := r.aliasBusy
	r.aliasBusy = maps.Clone(oldBusy)
	if r.aliasBusy == nil {
		r.aliasBusy = map[string]bool{}
	}
	maps.Copy(r.aliasBusy, busy)
	r.stmts(ctx, file.Stmts)
	r.aliasBusy = oldBusy
}

// Alias returns the value of alias name, when aliases are expanded (bash's
// type and command -v name aliases only then).
func (r *Runner) Alias(name string) (string, bool) {
	als, ok := r.alias[name]
	if !ok || !r.opts[optExpandAliases] {
		return "", false
	}
	return als.value, true
}
