package gojq

import (
	"iter"
	"maps"
	"slices"
	"strings"
)

// OrderedMap is a JSON object as jq keeps it: string keys mapped to values,
// remembering the order in which the keys were first added. Setting a key
// that is present keeps its place; a new key goes last; deleting a key
// removes it from the order (added again, it goes last).
//
// Values passed through gojq are never modified in place: an operation that
// changes an object works on a [OrderedMap.Copy]. Only a map that a function
// has just made may be changed with Set and Delete.
type OrderedMap struct {
	kvs []keyVal
	// idx maps keys to their position in kvs once there are more than
	// smallMap keys (below that a linear search is faster). It is built as
	// the map grows, never by a lookup, so that reading is safe from
	// several goroutines.
	idx map[string]int
}

type keyVal struct {
	key string
	val any
}

const smallMap = 8

// NewOrderedMap returns an empty map with room for n keys.
func NewOrderedMap(n int) *OrderedMap {
	return &OrderedMap{kvs: make([]keyVal, 0, n)}
}

// OrderedMapOf returns the keys of m, sorted, with their values; the
// values are converted with [NormalizeValue].
func OrderedMapOf(m map[string]any) *OrderedMap {
	o := NewOrderedMap(len(m))
	for k, v := range m {
		o.kvs = append(o.kvs, keyVal{k, NormalizeValue(v)})
	}
	slices.SortFunc(o.kvs, func(x, y keyVal) int { return strings.Compare(x.key, y.key) })
	if len(o.kvs) > smallMap {
		o.buildIndex()
	}
	return o
}

// NormalizeValue returns v with every map[string]any in it (at any depth)
// replaced by an [OrderedMap] of its keys in sorted order. Values given to
// gojq (inputs, variables) must hold objects as *OrderedMap.
func NormalizeValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return OrderedMapOf(v)
	case []any:
		var w []any
		for i, x := range v {
			if y := NormalizeValue(x); w != nil || !sameValue(x, y) {
				if w == nil {
					w = slices.Clone(v)
				}
				w[i] = y
			}
		}
		if w != nil {
			return w
		}
	case *OrderedMap:
		var w *OrderedMap
		for i, kv := range v.kvs {
			if y := NormalizeValue(kv.val); w != nil || !sameValue(kv.val, y) {
				if w == nil {
					w = v.Copy()
				}
				w.kvs[i].val = y
			}
		}
		if w != nil {
			return w
		}
	}
	return v
}

// sameValue reports whether NormalizeValue left x unchanged.
func sameValue(x, y any) bool {
	switch x := x.(type) {
	case map[string]any:
		return false
	case []any:
		w, _ := y.([]any)
		return len(x) == 0 || len(w) > 0 && &x[0] == &w[0]
	case *OrderedMap:
		return x == y
	}
	return true
}

// Len returns the number of keys.
func (m *OrderedMap) Len() int { return len(m.kvs) }

func (m *OrderedMap) find(k string) int {
	if len(m.kvs) <= smallMap {
		for i := range m.kvs {
			if m.kvs[i].key == k {
				return i
			}
		}
		return -1
	}
	if i, ok := m.idx[k]; ok {
		return i
	}
	return -1
}

// Get returns the value of k and whether k is present.
func (m *OrderedMap) Get(k string) (any, bool) {
	if i := m.find(k); i >= 0 {
		return m.kvs[i].val, true
	}
	return nil, false
}

// Has reports whether k is present.
func (m *OrderedMap) Has(k string) bool { return m.find(k) >= 0 }

// Set sets the value of k: in its place if k is present, else last.
func (m *OrderedMap) Set(k string, v any) {
	if i := m.find(k); i >= 0 {
		m.kvs[i].val = v
		return
	}
	m.kvs = append(m.kvs, keyVal{k, v})
	if m.idx != nil {
		m.idx[k] = len(m.kvs) - 1
	} else if len(m.kvs) > smallMap {
		m.buildIndex()
	}
}

func (m *OrderedMap) buildIndex() {
	m.idx = make(map[string]int, len(m.kvs))
	for i, kv := range m.kvs {
		m.idx[kv.key] = i
	}
}

// Delete removes k, if present.
func (m *OrderedMap) Delete(k string) {
	i := m.find(k)
	if i < 0 {
		return
	}
	m.kvs = slices.Delete(m.kvs, i, i+1)
	if len(m.kvs) <= smallMap {
		m.idx = nil
	} else if m.idx != nil {
		delete(m.idx, k)
		for j := i; j < len(m.kvs); j++ {
			m.idx[m.kvs[j].key] = j
		}
	}
}

// Keys returns the keys in order.
func (m *OrderedMap) Keys() []string {
	ks := make([]string, len(m.kvs))
	for i, kv := range m.kvs {
		ks[i] = kv.key
	}
	return ks
}

// SortedKeys returns the keys in jq's sort order (by code point).
func (m *OrderedMap) SortedKeys() []string {
	ks := m.Keys()
	slices.Sort(ks)
	return ks
}

// All yields the keys and values in order.
func (m *OrderedMap) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, kv := range m.kvs {
			if !yield(kv.key, kv.val) {
				return
			}
		}
	}
}

// Values yields the values in key order.
func (m *OrderedMap) Values() iter.Seq[any] {
	return func(yield func(any) bool) {
		for _, kv := range m.kvs {
			if !yield(kv.val) {
				return
			}
		}
	}
}

// Copy returns a copy of m (the values themselves are shared) with room for
// extra more keys.
func (m *OrderedMap) Copy() *OrderedMap { return m.copyGrow(0) }

func (m *OrderedMap) copyGrow(extra int) *OrderedMap {
	kvs := make([]keyVal, len(m.kvs), len(m.kvs)+extra)
	copy(kvs, m.kvs)
	return &OrderedMap{kvs: kvs, idx: maps.Clone(m.idx)}
}

// ToMap returns the keys and values as a Go map (the order is lost); nil
// for a nil *OrderedMap.
func (m *OrderedMap) ToMap() map[string]any {
	if m == nil {
		return nil
	}
	w := make(map[string]any, len(m.kvs))
	for _, kv := range m.kvs {
		w[kv.key] = kv.val
	}
	return w
}

// sliceObject returns the path element of a slice, {"start":s,"end":e}.
func sliceObject(start, end any) *OrderedMap {
	return &OrderedMap{kvs: []keyVal{{"start", start}, {"end", end}}}
}

// getValue returns the value of k, nil if absent.
func (m *OrderedMap) getValue(k string) any {
	v, _ := m.Get(k)
	return v
}
