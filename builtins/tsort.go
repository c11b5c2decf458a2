package builtins

import (
	"bytes"
	"sort"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "tsort", Summary: "perform topological sort", Run: tsortCmd})

// tsortItem is a node of GNU tsort's graph.
type tsortItem struct {
	str     string
	count   int          // predecessors not yet output
	top     []*tsortItem // successors, most recent relation first
	qlink   *tsortItem   // the queue of zeros, or the path of a loop
	printed bool
}

// tsortCmd is GNU tsort 9.1: Knuth's algorithm T over items visited in
// the order of its search tree (strcmp order), so that the output, and the
// loops it reports, are GNU's.
func tsortCmd(env *Env) int {
	f := NewFlags(env, "Write totally ordered list consistent with the partial ordering in FILE.\n\nWith no FILE, or when FILE is -, read standard input.", "[OPTION] [FILE]")
	version := versionOption(f)
	files, err := f.Parse(env.Args[1:])
	if err != nil {
		return f.Fail(err, 1)
	}
	if *version {
		return printVersion(env)
	}
	if len(files) > 1 {
		return f.Fail(&UsageError{"extra operand " + gnu.Quote(files[1])}, 1)
	}
	name := "-"
	if len(files) == 1 {
		name = files[0]
	}
	r, err := env.Open(name)
	if err != nil {
		env.PathError(gnu.QuoteF(name), err)
		return 1
	}
	data, err := readAllCtx(env, r)
	r.Close()
	if err != nil {
		if err == gnu.ErrCancelled {
			return 1
		}
		env.PathError(gnu.QuoteF(name), err)
		return 1
	}
	tokens := bytes.Fields(data)
	if len(tokens)%2 != 0 {
		env.Errorf("%s: input contains an odd number of tokens", gnu.QuoteF(name))
		return 1
	}
	byName := map[string]*tsortItem{}
	var items []*tsortItem
	get := func(s string) *tsortItem {
		it := byName[s]
		if it == nil {
			it = &tsortItem{str: s}
			byName[s] = it
			items = append(items, it)
		}
		return it
	}
	for i := 0; i < len(tokens); i += 2 {
		j, k := get(string(tokens[i])), get(string(tokens[i+1]))
		if j != k {
			k.count++
			j.top = append([]*tsortItem{k}, j.top...)
		}
	}
	sort.Slice(items, func(a, b int) bool { return items[a].str < items[b].str })

	w := stdoutWriter(env)
	status := 0
	left := len(items)
	for left > 0 {
		var head, tail *tsortItem
		for _, k := range items { // T4: scan for zeros
			if k.count == 0 && !k.printed {
				if head == nil {
					head = k
				} else {
					tail.qlink = k
				}
				tail = k
			}
		}
		for head != nil {
			w.WriteString(head.str + "\n")
			head.printed = true
			left--
			for _, s := range head.top {
				s.count--
				if s.count == 0 {
					tail.qlink = s
					tail = s
				}
			}
			head = head.qlink
		}
		if _, err := w.Write(nil); err != nil {
			return writeFailed(env, err)
		}
		if left > 0 {
			w.Flush()
			env.Errorf("%s: input contains a loop:", gnu.QuoteF(name))
			status = 1
			var loop *tsortItem
			for {
				loop = tsortDetectLoop(env, items, loop)
				if loop == nil {
					break
				}
			}
		}
		if env.Ctx.Err() != nil {
			w.Flush()
			return 1
		}
	}
	return finishOutput(env, w, status)
}

// tsortDetectLoop is one walk of GNU's detect_loop over the items: it
// extends the path that starts at loop, and when the path closes it
// prints the loop, removes one of its relations and returns nil.
func tsortDetectLoop(env *Env, items []*tsortItem, loop *tsortItem) *tsortItem {
	for _, k := range items {
		if k.count <= 0 {
			continue
		}
		if loop == nil {
			loop = k
			continue
		}
		for i, s := range k.top {
			if s != loop {
				continue
			}
			if k.qlink == nil {
				k.qlink = loop
				loop = k
				break
			}
			for loop != nil {
				next := loop.qlink
				env.Errorf("%s", loop.str)
				if loop == k {
					s.count--
					k.top = append(k.top[:i:i], k.top[i+1:]...)
					break
				}
				loop.qlink = nil
				loop = next
			}
			for loop != nil {
				next := loop.qlink
				loop.qlink = nil
				loop = next
			}
			return nil
		}
	}
	return loop
}
