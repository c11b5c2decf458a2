package builtins

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"syscall"

	"github.com/llmsh/llmsh/builtins/internal/gnu"
)

var _ = register(Builtin{Name: "tsort", Summary: "perform topological sort", Run: tsortCmd})

// tsortItem is a node of GNU tsort's graph.
type tsortItem struct {
	str     string
	count   int          // predecessors not yet output
	top     []*tsortItem // successors, most recent relation last
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
		return f.Fail(&UsageError{"extra operand " + env.Quote(files[1])}, 1)
	}
	name := "-"
	if len(files) == 1 {
		name = files[0]
	}
	r, err := env.Open(name)
	if errors.Is(err, syscall.EISDIR) {
		r, err = nopReadCloser{errReader{syscall.EISDIR}}, nil // fopen opens it; getc fails
	}
	if err != nil {
		env.PathError(env.QuoteF(name), err)
		return 1
	}
	data, err := readHeld(env, r)
	r.Close()
	if err == gnu.ErrCancelled {
		return 1
	}
	// GNU's token reader takes a failed read for the end of its input
	// (a directory, a standard input open write-only); a closed
	// standard input (<&-) fails at its close.
	if err != nil && name == "-" && env.StdinClosed && errors.Is(err, syscall.EBADF) {
		env.Errorf("standard input: %s", gnu.Strerror(syscall.EBADF))
		return 1
	}
	items, err := tsortGraph(env, data)
	switch {
	case err == gnu.ErrCancelled:
		return 1
	case err != nil:
		env.Errorf("%s: input contains an odd number of tokens", env.QuoteF(name))
		return 1
	}

	w := stdoutWriter(env)
	status := 0
	left := len(items)
	for left > 0 {
		var head, tail *tsortItem
		for i, k := range items { // T4: scan for zeros
			if i&0xffff == 0xffff && env.Ctx.Err() != nil {
				return 1
			}
			if k.count == 0 && !k.printed {
				if head == nil {
					head = k
				} else {
					tail.qlink = k
				}
				tail = k
			}
		}
		for n := 1; head != nil; n++ {
			if n&0xffff == 0 && env.Ctx.Err() != nil {
				w.Flush()
				return 1
			}
			w.WriteString(head.str + "\n")
			head.printed = true
			left--
			for i := len(head.top) - 1; i >= 0; i-- { // the most recent first
				s := head.top[i]
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
			env.Errorf("%s: input contains a loop:", env.QuoteF(name))
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

// errTsortOdd is an input of an odd number of tokens.
var errTsortOdd = errors.New("odd number of tokens")

// tsortGraph reads the pairs of data into GNU's graph and returns its
// items in strcmp order; gnu.ErrCancelled once the context is done (session
// 23, red team: tsort of the 20 million numbers of a 169 MB file in a
// library Session.Run with a 1 s limit answered after 6 minutes, in
// bytes.Fields, the graph and its sort). A successor is appended, not
// prepended (each prepend copied the node's list: quadratic).
func tsortGraph(env *Env, data []byte) ([]*tsortItem, error) {
	byName := map[string]*tsortItem{}
	var items []*tsortItem
	get := func(s []byte) *tsortItem {
		it := byName[string(s)]
		if it == nil {
			it = &tsortItem{str: string(s)}
			byName[it.str] = it
			items = append(items, it)
		}
		return it
	}
	var first *tsortItem
	n := 0
	for tok := range bytes.FieldsSeq(data) {
		if n++; n&0xffff == 0 && env.Ctx.Err() != nil {
			return nil, gnu.ErrCancelled
		}
		it := get(tok)
		if first == nil {
			first = it
			continue
		}
		if first != it {
			it.count++
			first.top = append(first.top, it)
		}
		first = nil
	}
	if first != nil {
		return nil, errTsortOdd
	}
	if err := sortCtx(env.Ctx, items, func(a, b *tsortItem) int { return strings.Compare(a.str, b.str) }); err != nil {
		return nil, err
	}
	return items, nil
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
		for i := len(k.top) - 1; i >= 0; i-- { // the most recent first
			s := k.top[i]
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

// errSortStopped unwinds sortCtx's sort once its context is done.
var errSortStopped = errors.New("sort stopped")

// sortCtx sorts s by cmp as slices.SortFunc does, and stops with
// gnu.ErrCancelled (s then in some order) once ctx is done: a sort of
// millions of items takes seconds.
func sortCtx[T any](ctx context.Context, s []T, cmp func(a, b T) int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if r != errSortStopped {
				panic(r)
			}
			err = gnu.ErrCancelled
		}
	}()
	n := 0
	slices.SortFunc(s, func(a, b T) int {
		if n++; n&0xffff == 0 && ctx.Err() != nil {
			panic(errSortStopped)
		}
		return cmp(a, b)
	})
	return nil
}
