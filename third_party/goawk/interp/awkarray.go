// llmsh: AWK arrays that iterate in mawk's order (see LLMSH.md).
//
// mawk 1.3.4 is the reference awk of llmsh's goldens. Its arrays are hash
// tables whose nodes sit on a "string list" (bucket chosen by an FNV hash of
// the key) and/or an "integer list" (bucket chosen by the low bits of an
// integer key). A lookup moves the node it finds to the front of the list it
// searched, new nodes go to the front, and `for (k in a)` walks the string
// lists bucket by bucket. This file models those lists exactly, so that the
// order of `for (k in a)` is deterministic and equal to mawk's.

package interp

import "strconv"

const (
	ayNull  = 0 // empty, no table
	ayInt   = 1 // table has integer lists
	ayStr   = 2 // table has string lists
	aySplit = 4 // made by split(): elements 1..size, no table

	ayStartHmask = 63 // 64 buckets at first
	ayMaxAvgList = 12 // double the table when size > buckets*12

	// ayMaxInt is mawk's Max_Int: only doubles in [-ayMaxInt, ayMaxInt]
	// with an integer value are looked up by integer.
	ayMaxInt = 0x7fffffff
	// ayNoIval marks a node that is not on an integer list.
	ayNoIval = -ayMaxInt - 1
)

// anode is one element of an awkArray.
type anode struct {
	slink, ilink *anode // next node on the string / integer list
	sprev        *anode // previous node on the string list
	sval         string // key (valid when hasS)
	hasS         bool   // on a string list
	hval         uint32 // hash of sval
	ival         int32  // integer key, or ayNoIval
	val          value
}

type abucket struct {
	slink, ilink *anode
}

// awkArray is an AWK associative array. The zero value is an empty array.
type awkArray struct {
	typ   uint8
	size  int
	limit int
	hmask uint32
	table []abucket
	split []*anode // elements 1..size of a split array
	// smap finds the nodes on the string lists without walking them
	// (the order is the lists', the map only saves time).
	smap map[string]*anode
}

func newAwkArray() *awkArray {
	return &awkArray{}
}

// ayHash is the 32-bit FNV hash mawk uses for array keys (xor, then
// multiply, byte by byte).
func ayHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// arrayIval reports whether mawk looks the subscript v up by integer: a
// number (not a string, not a numeric string from input) with an integer
// value in mawk's Int range.
func arrayIval(v value) (int32, bool) {
	if v.typ != typeNum {
		return 0, false
	}
	d := v.n
	if d >= -ayMaxInt && d <= ayMaxInt {
		i := int32(d)
		if float64(i) == d {
			return i, true
		}
	}
	return 0, false
}

// arrayFind returns the node of a for the subscript v, creating it if
// create is set; nil if absent. Like mawk's array_find.
func (p *interp) arrayFind(a *awkArray, v value, create bool) *anode {
	if a.size == 0 && !create {
		return nil
	}
	if ival, ok := arrayIval(v); ok {
		return a.findIntTop(ival, create)
	}
	if v.typ == typeNull {
		return a.findStr("", create)
	}
	return a.findStr(p.toString(v), create)
}

// getStr returns the element with string key s, creating it.
func (a *awkArray) getStr(s string) *anode {
	return a.findStr(s, true)
}

// getInt returns the element with integer key i, creating it.
func (a *awkArray) getInt(i int) *anode {
	if ival, ok := arrayIval(num(float64(i))); ok {
		return a.findIntTop(ival, true)
	}
	return a.findStr(strconv.Itoa(i), true)
}

func (a *awkArray) findIntTop(ival int32, create bool) *anode {
	switch a.typ {
	case aySplit:
		if ival >= 1 && int(ival) <= a.size {
			return a.split[ival-1]
		}
		if !create {
			return nil
		}
		a.convertSplit()
	case ayNull:
		a.makeEmpty(ayInt)
	}
	return a.findInt(ival, create)
}

func (a *awkArray) makeEmpty(typ uint8) {
	a.typ = typ
	a.hmask = ayStartHmask
	a.limit = (ayStartHmask + 1) * ayMaxAvgList
	a.table = make([]abucket, ayStartHmask+1)
	if typ&ayStr != 0 {
		a.smap = make(map[string]*anode)
	}
}

func (a *awkArray) findInt(ival int32, create bool) *anode {
	indx := uint32(ival) & a.hmask
	p := a.table[indx].ilink
	var q *anode
	for {
		if p == nil {
			if a.typ&ayStr != 0 {
				// Not on the integer list: look for it by string. Like
				// mawk, keep indx even if that doubled the table.
				p = a.findStr(strconv.Itoa(int(ival)), create)
				if p == nil {
					return nil
				}
			} else if create {
				p = &anode{}
				a.size++
				if a.size > a.limit {
					a.double()
					indx = uint32(ival) & a.hmask
				}
			} else {
				return nil
			}
			p.ival = ival
			a.typ |= ayInt
			break
		}
		if p.ival == ival {
			if q == nil {
				return p
			}
			q.ilink = p.ilink
			break
		}
		q = p
		p = p.ilink
	}
	p.ilink = a.table[indx].ilink
	a.table[indx].ilink = p
	return p
}

func (a *awkArray) findStr(s string, create bool) *anode {
	if a.typ&ayStr == 0 {
		a.addStringAssociations()
	}
	p := a.smap[s]
	if p != nil {
		if p.sprev != nil { // not at the front: move it there
			p.sprev.slink = p.slink
			if p.slink != nil {
				p.slink.sprev = p.sprev
			}
			a.pushS(p)
		}
		return p
	}
	if !create {
		return nil
	}
	p = &anode{sval: s, hasS: true, hval: ayHash(s), ival: ayNoIval}
	a.size++
	if a.size > a.limit {
		a.double()
	}
	a.pushS(p)
	a.smap[s] = p
	return p
}

// pushS puts p at the front of its string list.
func (a *awkArray) pushS(p *anode) {
	b := &a.table[p.hval&a.hmask]
	p.slink = b.slink
	p.sprev = nil
	if b.slink != nil {
		b.slink.sprev = p
	}
	b.slink = p
}

// addStringAssociations puts every node of the integer lists on a string
// list too (walking buckets in order, pushing each at the front).
func (a *awkArray) addStringAssociations() {
	if a.typ == ayNull {
		a.makeEmpty(ayStr)
		return
	}
	if a.typ == aySplit {
		a.convertSplit()
	}
	a.smap = make(map[string]*anode, a.size)
	for i := range a.table {
		for p := a.table[i].ilink; p != nil; p = p.ilink {
			p.sval = strconv.Itoa(int(p.ival))
			p.hasS = true
			p.hval = ayHash(p.sval)
			a.pushS(p)
			a.smap[p.sval] = p
		}
	}
	a.typ |= ayStr
}

// convertSplit turns a split array into a table of integer lists.
func (a *awkArray) convertSplit() {
	a.hmask = ayStartHmask
	a.limit = (ayStartHmask + 1) * ayMaxAvgList
	for a.size > a.limit {
		a.hmask = a.hmask<<1 + 1
		a.limit = int(a.hmask+1) * ayMaxAvgList
	}
	a.table = make([]abucket, a.hmask+1)
	for i, p := range a.split {
		p.ival = int32(i + 1)
		j := uint32(i+1) & a.hmask
		p.ilink = a.table[j].ilink
		a.table[j].ilink = p
	}
	a.split = nil
	a.typ = ayInt
}

// double doubles the table, splitting each list in two and keeping the
// relative order of the nodes in both halves.
func (a *awkArray) double() {
	old := a.hmask
	nmask := old<<1 + 1
	table := make([]abucket, nmask+1)
	copy(table, a.table)
	for i := uint32(0); i <= old; i++ {
		if a.typ&ayStr != 0 {
			var keep, move abucket
			kt, mt := &keep.slink, &move.slink
			for p := table[i].slink; p != nil; p = p.slink {
				if p.hval&nmask != i {
					*mt = p
					mt = &p.slink
				} else {
					*kt = p
					kt = &p.slink
				}
			}
			*kt, *mt = nil, nil
			table[i].slink, table[i+old+1].slink = keep.slink, move.slink
			relinkPrev(table[i].slink)
			relinkPrev(table[i+old+1].slink)
		}
		if a.typ&ayInt != 0 {
			var keep, move abucket
			kt, mt := &keep.ilink, &move.ilink
			for p := table[i].ilink; p != nil; p = p.ilink {
				if uint32(p.ival)&nmask != i {
					*mt = p
					mt = &p.ilink
				} else {
					*kt = p
					kt = &p.ilink
				}
			}
			*kt, *mt = nil, nil
			table[i].ilink, table[i+old+1].ilink = keep.ilink, move.ilink
		}
	}
	a.table = table
	a.hmask = nmask
	a.limit = int(nmask+1) * ayMaxAvgList
}

// relinkPrev sets the sprev links of the string list starting at p.
func relinkPrev(p *anode) {
	var prev *anode
	for ; p != nil; p = p.slink {
		p.sprev = prev
		prev = p
	}
}

// arrayDelete removes the element of a with subscript v, if present.
func (p *interp) arrayDelete(a *awkArray, v value) {
	if a.size == 0 {
		return
	}
	if ival, ok := arrayIval(v); ok {
		if a.typ == aySplit {
			if ival < 1 || int(ival) > a.size {
				return
			}
			a.convertSplit()
		}
		ap := a.findInt(ival, false)
		if ap == nil {
			return
		}
		// findInt left it at the front of its integer list.
		a.table[uint32(ap.ival)&a.hmask].ilink = ap.ilink
		if ap.hasS {
			a.unlinkS(ap)
		}
		a.dropOne()
		return
	}
	var ap *anode
	if v.typ == typeNull {
		ap = a.findStr("", false)
	} else {
		ap = a.findStr(p.toString(v), false)
	}
	if ap == nil {
		return
	}
	a.unlinkS(ap) // at the front of its string list
	if ap.ival != ayNoIval {
		a.unlinkI(ap)
	}
	a.dropOne()
}

func (a *awkArray) unlinkS(ap *anode) {
	if ap.sprev == nil {
		a.table[ap.hval&a.hmask].slink = ap.slink
	} else {
		ap.sprev.slink = ap.slink
	}
	if ap.slink != nil {
		ap.slink.sprev = ap.sprev
	}
	delete(a.smap, ap.sval)
}

func (a *awkArray) unlinkI(ap *anode) {
	b := &a.table[uint32(ap.ival)&a.hmask].ilink
	for *b != nil && *b != ap {
		b = &(*b).ilink
	}
	if *b != nil {
		*b = ap.ilink
	}
}

func (a *awkArray) dropOne() {
	a.size--
	if a.size == 0 {
		a.clear()
	}
}

// clear empties the array (`delete a`).
func (a *awkArray) clear() {
	*a = awkArray{}
}

// load makes a the split array of parts (elements 1..n).
func (a *awkArray) load(parts []value) {
	a.clear()
	a.typ = aySplit
	a.size = len(parts)
	a.split = make([]*anode, len(parts))
	for i := range parts {
		a.split[i] = &anode{ival: ayNoIval, val: parts[i]}
	}
}

// loopKeys returns the keys in the order of `for (k in a)`.
func (a *awkArray) loopKeys() []string {
	if a.size == 0 {
		return nil
	}
	if a.typ&ayStr == 0 {
		a.addStringAssociations()
	}
	keys := make([]string, 0, a.size)
	for i := range a.table {
		for p := a.table[i].slink; p != nil; p = p.slink {
			keys = append(keys, p.sval)
		}
	}
	return keys
}

// each calls f for every element without changing the array's order.
func (a *awkArray) each(f func(key string, v value)) {
	for i, p := range a.split {
		f(strconv.Itoa(i+1), p.val)
	}
	for i := range a.table {
		if a.typ&ayStr != 0 {
			for p := a.table[i].slink; p != nil; p = p.slink {
				f(p.sval, p.val)
			}
		} else {
			for p := a.table[i].ilink; p != nil; p = p.ilink {
				f(strconv.Itoa(int(p.ival)), p.val)
			}
		}
	}
}
