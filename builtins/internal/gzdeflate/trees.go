package gzdeflate

import (
	"io"
)

const (
	maxBits     = 15
	maxBLBits   = 7
	lengthCodes = 29
	literals    = 256
	endBlock    = 256
	lCodes      = literals + 1 + lengthCodes
	dCodes      = 30
	blCodes     = 19
	heapSize    = 2*lCodes + 1
	litBufsize  = 0x8000
	distBufsize = litBufsize
	rep3to6     = 16
	repz3to10   = 17
	repz11to138 = 18
)

var (
	extraLBits  = []int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	extraDBits  = []int{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	extraBLBits = []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7}
	blOrder     = []int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
)

// node is a tree element: a code's frequency, bit string and length, and
// while the tree is built the father of a node.
type node struct {
	freq, code, dad, len int
}

// tables are the fixed tables of deflate: the code of each length and
// distance, and the static trees.
type tables struct {
	lengthCode [256]uint8
	distCode   [512]uint8
	baseLength [lengthCodes]int
	baseDist   [dCodes]int
	staticL    [lCodes + 2]node
	staticD    [dCodes]node
}

var fixedOnce lazy[*tables]

func fixed() *tables { return fixedOnce.get(makeFixed) }

func makeFixed() *tables {
	t := &tables{}
	length := 0
	code := 0
	for ; code < lengthCodes-1; code++ {
		t.baseLength[code] = length
		for n := 0; n < 1<<extraLBits[code]; n++ {
			t.lengthCode[length] = uint8(code)
			length++
		}
	}
	t.lengthCode[length-1] = uint8(code)
	dist := 0
	for code = 0; code < 16; code++ {
		t.baseDist[code] = dist
		for n := 0; n < 1<<extraDBits[code]; n++ {
			t.distCode[dist] = uint8(code)
			dist++
		}
	}
	dist >>= 7
	for ; code < dCodes; code++ {
		t.baseDist[code] = dist << 7
		for n := 0; n < 1<<(extraDBits[code]-7); n++ {
			t.distCode[256+dist] = uint8(code)
			dist++
		}
	}
	var count [maxBits + 1]int
	for n := range t.staticL {
		l := 8
		switch {
		case n >= 144 && n <= 255:
			l = 9
		case n >= 256 && n <= 279:
			l = 7
		}
		t.staticL[n].len = l
		count[l]++
	}
	genCodes(t.staticL[:], lCodes+1, &count)
	for n := range t.staticD {
		t.staticD[n].len = 5
		t.staticD[n].code = reverse(n, 5)
	}
	return t
}

func (t *tables) dCode(dist int) int {
	if dist < 256 {
		return int(t.distCode[dist])
	}
	return int(t.distCode[256+dist>>7])
}

// treeDesc describes one tree being built.
type treeDesc struct {
	dyn       []node
	static    []node // nil for the bit length tree
	extra     []int
	extraBase int
	elems     int
	maxLength int
	maxCode   int
}

// trees is the block being built (trees.c): the symbols tallied, their
// frequencies, and the bits written.
type trees struct {
	fix       *tables
	dynL      [heapSize]node
	dynD      [2*dCodes + 1]node
	bl        [2*blCodes + 1]node
	lDesc     treeDesc
	dDesc     treeDesc
	blDesc    treeDesc
	blCount   [maxBits + 1]int
	heap      [heapSize]int
	heapLen   int
	heapMax   int
	depth     [heapSize]uint8
	lBuf      [litBufsize]uint8
	dBuf      [distBufsize]uint16
	flagBuf   [litBufsize / 8]uint8
	lastLit   int
	lastDist  int
	lastFlags int
	flags     uint8
	flagBit   uint8
	optLen    int64
	staticLen int64
	bitBuf    uint64
	bitCount  uint
	buf       []byte
	out       io.Writer
	werr      error
}

func (t *trees) init() {
	t.fix = fixed()
	t.lDesc = treeDesc{t.dynL[:], t.fix.staticL[:], extraLBits, literals + 1, lCodes, maxBits, 0}
	t.dDesc = treeDesc{t.dynD[:], t.fix.staticD[:], extraDBits, 0, dCodes, maxBits, 0}
	t.blDesc = treeDesc{t.bl[:], nil, extraBLBits, 0, blCodes, maxBLBits, 0}
	t.initBlock()
}

func (t *trees) initBlock() {
	for n := 0; n < lCodes; n++ {
		t.dynL[n].freq = 0
	}
	for n := 0; n < dCodes; n++ {
		t.dynD[n].freq = 0
	}
	for n := 0; n < blCodes; n++ {
		t.bl[n].freq = 0
	}
	t.dynL[endBlock].freq = 1
	t.optLen, t.staticLen = 0, 0
	t.lastLit, t.lastDist, t.lastFlags = 0, 0, 0
	t.flags, t.flagBit = 0, 1
}

// smaller orders nodes by frequency, then depth.
func (t *trees) smaller(tree []node, n, m int) bool {
	return tree[n].freq < tree[m].freq || tree[n].freq == tree[m].freq && t.depth[n] <= t.depth[m]
}

func (t *trees) pqdownheap(tree []node, k int) {
	v := t.heap[k]
	j := k << 1
	for j <= t.heapLen {
		if j < t.heapLen && t.smaller(tree, t.heap[j+1], t.heap[j]) {
			j++
		}
		if t.smaller(tree, v, t.heap[j]) {
			break
		}
		t.heap[k] = t.heap[j]
		k = j
		j <<= 1
	}
	t.heap[k] = v
}

// genBitlen gives the tree's codes their lengths, at most maxLength bits.
func (t *trees) genBitlen(d *treeDesc) {
	tree := d.dyn
	clear(t.blCount[:])
	tree[t.heap[t.heapMax]].len = 0
	overflow := 0
	h := t.heapMax + 1
	for ; h < heapSize; h++ {
		n := t.heap[h]
		bits := tree[tree[n].dad].len + 1
		if bits > d.maxLength {
			bits = d.maxLength
			overflow++
		}
		tree[n].len = bits
		if n > d.maxCode {
			continue
		}
		t.blCount[bits]++
		xbits := 0
		if n >= d.extraBase {
			xbits = d.extra[n-d.extraBase]
		}
		f := int64(tree[n].freq)
		t.optLen += f * int64(bits+xbits)
		if d.static != nil {
			t.staticLen += f * int64(d.static[n].len+xbits)
		}
	}
	if overflow == 0 {
		return
	}
	for overflow > 0 {
		bits := d.maxLength - 1
		for t.blCount[bits] == 0 {
			bits--
		}
		t.blCount[bits]--
		t.blCount[bits+1] += 2
		t.blCount[d.maxLength]--
		overflow -= 2
	}
	for bits := d.maxLength; bits != 0; bits-- {
		for n := t.blCount[bits]; n != 0; {
			h--
			m := t.heap[h]
			if m > d.maxCode {
				continue
			}
			if tree[m].len != bits {
				t.optLen += int64(bits-tree[m].len) * int64(tree[m].freq)
				tree[m].len = bits
			}
			n--
		}
	}
}

// genCodes gives the codes of lengths count their bit strings.
func genCodes(tree []node, maxCode int, count *[maxBits + 1]int) {
	var next [maxBits + 1]int
	code := 0
	for bits := 1; bits <= maxBits; bits++ {
		code = (code + count[bits-1]) << 1
		next[bits] = code
	}
	for n := 0; n <= maxCode; n++ {
		l := tree[n].len
		if l == 0 {
			continue
		}
		tree[n].code = reverse(next[l], l)
		next[l]++
	}
}

func reverse(code, l int) int {
	r := 0
	for ; l > 0; l-- {
		r = r<<1 | code&1
		code >>= 1
	}
	return r
}

func (t *trees) buildTree(d *treeDesc) {
	tree := d.dyn
	maxCode := -1
	nd := d.elems
	t.heapLen, t.heapMax = 0, heapSize
	for n := 0; n < d.elems; n++ {
		if tree[n].freq != 0 {
			t.heapLen++
			t.heap[t.heapLen] = n
			maxCode = n
			t.depth[n] = 0
		} else {
			tree[n].len = 0
		}
	}
	for t.heapLen < 2 {
		nw := 0
		if maxCode < 2 {
			maxCode++
			nw = maxCode
		}
		t.heapLen++
		t.heap[t.heapLen] = nw
		tree[nw].freq = 1
		t.depth[nw] = 0
		t.optLen--
		if d.static != nil {
			t.staticLen -= int64(d.static[nw].len)
		}
	}
	d.maxCode = maxCode
	for n := t.heapLen / 2; n >= 1; n-- {
		t.pqdownheap(tree, n)
	}
	for {
		n := t.heap[1]
		t.heap[1] = t.heap[t.heapLen]
		t.heapLen--
		t.pqdownheap(tree, 1)
		m := t.heap[1]
		t.heapMax--
		t.heap[t.heapMax] = n
		t.heapMax--
		t.heap[t.heapMax] = m
		tree[nd].freq = tree[n].freq + tree[m].freq
		t.depth[nd] = max(t.depth[n], t.depth[m]) + 1
		tree[n].dad, tree[m].dad = nd, nd
		t.heap[1] = nd
		nd++
		t.pqdownheap(tree, 1)
		if t.heapLen < 2 {
			break
		}
	}
	t.heapMax--
	t.heap[t.heapMax] = t.heap[1]
	t.genBitlen(d)
	genCodes(tree, maxCode, &t.blCount)
}

// lengthAt is tree[n]'s length, with gzip's guard past maxCode.
func lengthAt(tree []node, n, maxCode int) int {
	if n > maxCode {
		return 0xffff
	}
	return tree[n].len
}

// scanTree counts how often send would use each bit length code.
func (t *trees) scanTree(tree []node, maxCode int) {
	t.walkTree(tree, maxCode, func(code, _, _ int) { t.bl[code].freq++ })
}

// sendTree writes the lengths of tree with the bit length codes.
func (t *trees) sendTree(tree []node, maxCode int) {
	t.walkTree(tree, maxCode, func(code, extra, nbits int) {
		t.sendCode(code, t.bl[:])
		if nbits > 0 {
			t.sendBits(extra, uint(nbits))
		}
	})
}

// walkTree calls emit for each bit length code (and its extra bits) that
// describes tree's code lengths, runs coded as gzip codes them.
func (t *trees) walkTree(tree []node, maxCode int, emit func(code, extra, nbits int)) {
	prevlen, nextlen := -1, tree[0].len
	count, maxCount, minCount := 0, 7, 4
	if nextlen == 0 {
		maxCount, minCount = 138, 3
	}
	for n := 0; n <= maxCode; n++ {
		curlen := nextlen
		nextlen = lengthAt(tree, n+1, maxCode)
		count++
		if count < maxCount && curlen == nextlen {
			continue
		}
		switch {
		case count < minCount:
			for ; count > 0; count-- {
				emit(curlen, 0, 0)
			}
		case curlen != 0:
			if curlen != prevlen {
				emit(curlen, 0, 0)
				count--
			}
			emit(rep3to6, count-3, 2)
		case count <= 10:
			emit(repz3to10, count-3, 3)
		default:
			emit(repz11to138, count-11, 7)
		}
		count, prevlen = 0, curlen
		switch {
		case nextlen == 0:
			maxCount, minCount = 138, 3
		case curlen == nextlen:
			maxCount, minCount = 6, 3
		default:
			maxCount, minCount = 7, 4
		}
	}
}

func (t *trees) buildBLTree() int {
	t.scanTree(t.dynL[:], t.lDesc.maxCode)
	t.scanTree(t.dynD[:], t.dDesc.maxCode)
	t.buildTree(&t.blDesc)
	maxIndex := blCodes - 1
	for ; maxIndex >= 3; maxIndex-- {
		if t.bl[blOrder[maxIndex]].len != 0 {
			break
		}
	}
	t.optLen += 3*int64(maxIndex+1) + 5 + 5 + 4
	return maxIndex
}

func (t *trees) sendAllTrees(lcodes, dcodes, blcodes int) {
	t.sendBits(lcodes-257, 5)
	t.sendBits(dcodes-1, 5)
	t.sendBits(blcodes-4, 4)
	for rank := 0; rank < blcodes; rank++ {
		t.sendBits(t.bl[blOrder[rank]].len, 3)
	}
	t.sendTree(t.dynL[:], lcodes-1)
	t.sendTree(t.dynD[:], dcodes-1)
}

// flushBlock writes the block of storedLen input bytes (buf, if still in
// the window) coded the shortest way.
func (t *trees) flushBlock(buf []byte, storedLen int, eof bool) {
	t.flagBuf[t.lastFlags] = t.flags
	t.buildTree(&t.lDesc)
	t.buildTree(&t.dDesc)
	maxIndex := t.buildBLTree()
	optLenb := (t.optLen + 3 + 7) >> 3
	staticLenb := (t.staticLen + 3 + 7) >> 3
	if staticLenb <= optLenb {
		optLenb = staticLenb
	}
	last := 0
	if eof {
		last = 1
	}
	switch {
	case int64(storedLen)+4 <= optLenb && buf != nil:
		t.sendBits(last, 3)
		t.windup()
		t.buf = append(t.buf, byte(storedLen), byte(storedLen>>8), ^byte(storedLen), ^byte(storedLen>>8))
		t.buf = append(t.buf, buf...)
	case staticLenb == optLenb:
		t.sendBits(2+last, 3)
		t.compressBlock(t.fix.staticL[:], t.fix.staticD[:])
	default:
		t.sendBits(4+last, 3)
		t.sendAllTrees(t.lDesc.maxCode+1, t.dDesc.maxCode+1, maxIndex+1)
		t.compressBlock(t.dynL[:], t.dynD[:])
	}
	t.initBlock()
	if eof {
		t.windup()
	}
}

// tally records a literal lc (dist 0) or a match of length lc+3 at
// distance dist; true when the block should end (inLen is its input).
func (t *trees) tally(dist, lc, level, inLen int) bool {
	t.lBuf[t.lastLit] = uint8(lc)
	t.lastLit++
	if dist == 0 {
		t.dynL[lc].freq++
	} else {
		dist--
		t.dynL[int(t.fix.lengthCode[lc])+literals+1].freq++
		t.dynD[t.fix.dCode(dist)].freq++
		t.dBuf[t.lastDist] = uint16(dist)
		t.lastDist++
		t.flags |= t.flagBit
	}
	t.flagBit <<= 1
	if t.lastLit&7 == 0 {
		t.flagBuf[t.lastFlags] = t.flags
		t.lastFlags++
		t.flags, t.flagBit = 0, 1
	}
	if level > 2 && t.lastLit&0xfff == 0 {
		out := int64(t.lastLit) * 8
		for d := 0; d < dCodes; d++ {
			out += int64(t.dynD[d].freq) * int64(5+extraDBits[d])
		}
		out >>= 3
		if t.lastDist < t.lastLit/2 && out < int64(inLen)/2 {
			return true
		}
	}
	return t.lastLit == litBufsize-1 || t.lastDist == distBufsize
}

func (t *trees) compressBlock(ltree, dtree []node) {
	var flag uint8
	dx, fx := 0, 0
	for lx := 0; lx < t.lastLit; lx++ {
		if lx&7 == 0 {
			flag = t.flagBuf[fx]
			fx++
		}
		lc := int(t.lBuf[lx])
		if flag&1 == 0 {
			t.sendCode(lc, ltree)
		} else {
			code := int(t.fix.lengthCode[lc])
			t.sendCode(code+literals+1, ltree)
			if extra := extraLBits[code]; extra != 0 {
				t.sendBits(lc-t.fix.baseLength[code], uint(extra))
			}
			dist := int(t.dBuf[dx])
			dx++
			code = t.fix.dCode(dist)
			t.sendCode(code, dtree)
			if extra := extraDBits[code]; extra != 0 {
				t.sendBits(dist-t.fix.baseDist[code], uint(extra))
			}
		}
		flag >>= 1
	}
	t.sendCode(endBlock, ltree)
}

func (t *trees) sendCode(c int, tree []node) { t.sendBits(tree[c].code, uint(tree[c].len)) }

// sendBits writes the low n bits of v, the first bit first.
func (t *trees) sendBits(v int, n uint) {
	t.bitBuf |= uint64(v) & (1<<n - 1) << t.bitCount
	t.bitCount += n
	for t.bitCount >= 8 {
		t.buf = append(t.buf, byte(t.bitBuf))
		t.bitBuf >>= 8
		t.bitCount -= 8
	}
}

// windup writes the bits left, padded to a byte.
func (t *trees) windup() {
	if t.bitCount > 0 {
		t.buf = append(t.buf, byte(t.bitBuf))
	}
	t.bitBuf, t.bitCount = 0, 0
}

// flushOut writes the whole bytes made so far.
func (t *trees) flushOut() {
	if len(t.buf) == 0 || t.werr != nil {
		t.buf = t.buf[:0]
		return
	}
	_, t.werr = t.out.Write(t.buf)
	t.buf = t.buf[:0]
}
