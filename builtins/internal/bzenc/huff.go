package bzenc

const (
	nGroupsMax = 6
	groupSize  = 50
	nIters     = 4
	maxCodeLen = 17
	lesserCost = 0
	greatCost  = 15
)

// sendMTFValues writes the symbol map, the Huffman tables and their
// selectors, and the block's values, as libbzip2's sendMTFValues chooses
// them: nGroups tables from an initial split of the frequencies, refined
// four times over groups of 50 values.
func sendMTFValues(b *bitWriter, mtfv []uint16, mtfFreq []int, nInUse int, inUse *[256]bool) {
	alphaSize := nInUse + 2
	var length [nGroupsMax][]int
	for t := range length {
		length[t] = make([]int, alphaSize)
		for v := range length[t] {
			length[t][v] = greatCost
		}
	}
	nMTF := len(mtfv)
	nGroups := 6
	switch {
	case nMTF < 200:
		nGroups = 2
	case nMTF < 600:
		nGroups = 3
	case nMTF < 1200:
		nGroups = 4
	case nMTF < 2400:
		nGroups = 5
	}
	initialTables(length[:nGroups], mtfFreq, nMTF, alphaSize)
	var selectors []int
	for range nIters {
		selectors = refineTables(length[:nGroups], mtfv, alphaSize)
	}
	// The selectors, move-to-front coded.
	selMTF := make([]int, len(selectors))
	var pos [nGroupsMax]int
	for i := range pos {
		pos[i] = i
	}
	for i, s := range selectors {
		j := 0
		tmp := pos[0]
		for s != tmp {
			j++
			tmp, pos[j] = pos[j], tmp
		}
		pos[0] = tmp
		selMTF[i] = j
	}
	var code [nGroupsMax][]int
	for t := range nGroups {
		code[t] = assignCodes(length[t])
	}
	writeMap(b, inUse)
	b.put(3, uint32(nGroups))
	b.put(15, uint32(len(selectors)))
	for _, j := range selMTF {
		for range j {
			b.put(1, 1)
		}
		b.put(1, 0)
	}
	for t := range nGroups {
		curr := length[t][0]
		b.put(5, uint32(curr))
		for _, l := range length[t] {
			for ; curr < l; curr++ {
				b.put(2, 2)
			}
			for ; curr > l; curr-- {
				b.put(2, 3)
			}
			b.put(1, 0)
		}
	}
	for g, gs := 0, 0; gs < nMTF; g, gs = g+1, gs+groupSize {
		ge := min(gs+groupSize, nMTF)
		l, c := length[selectors[g]], code[selectors[g]]
		for _, v := range mtfv[gs:ge] {
			b.put(uint(l[v]), uint32(c[v]))
		}
	}
}

// initialTables gives each table a range of symbols of about equal total
// frequency: cost 0 inside it, 15 outside.
func initialTables(length [][]int, mtfFreq []int, nMTF, alphaSize int) {
	nGroups := len(length)
	remF, gs := nMTF, 0
	for nPart := nGroups; nPart > 0; nPart-- {
		tFreq := remF / nPart
		ge, aFreq := gs-1, 0
		for aFreq < tFreq && ge < alphaSize-1 {
			ge++
			aFreq += mtfFreq[ge]
		}
		if ge > gs && nPart != nGroups && nPart != 1 && (nGroups-nPart)%2 == 1 {
			aFreq -= mtfFreq[ge]
			ge--
		}
		for v := range alphaSize {
			if v >= gs && v <= ge {
				length[nPart-1][v] = lesserCost
			} else {
				length[nPart-1][v] = greatCost
			}
		}
		gs = ge + 1
		remF -= aFreq
	}
}

// refineTables gives each group of 50 values the table that codes it
// shortest, then rebuilds each table from the values it was given; it
// returns the choices.
func refineTables(length [][]int, mtfv []uint16, alphaSize int) []int {
	nGroups := len(length)
	rfreq := make([][]int, nGroups)
	for t := range rfreq {
		rfreq[t] = make([]int, alphaSize)
	}
	var selectors []int
	for gs := 0; gs < len(mtfv); gs += groupSize {
		ge := min(gs+groupSize, len(mtfv))
		var cost [nGroupsMax]int
		for _, v := range mtfv[gs:ge] {
			for t := range nGroups {
				cost[t] += length[t][v]
			}
		}
		bc, bt := 999999999, -1
		for t := range nGroups {
			if cost[t] < bc {
				bc, bt = cost[t], t
			}
		}
		selectors = append(selectors, bt)
		for _, v := range mtfv[gs:ge] {
			rfreq[bt][v]++
		}
	}
	for t := range nGroups {
		makeCodeLengths(length[t], rfreq[t], maxCodeLen)
	}
	return selectors
}

// makeCodeLengths is BZ2_hbMakeCodeLengths: Huffman code lengths for
// freq, the depth breaking ties; when a code is longer than maxLen the
// frequencies are halved and the tree built again.
func makeCodeLengths(length, freq []int, maxLen int) {
	alphaSize := len(freq)
	heap := make([]int, alphaSize+2)
	weight := make([]int, alphaSize*2+2)
	parent := make([]int, alphaSize*2+2)
	for i := range alphaSize {
		f := freq[i]
		if f == 0 {
			f = 1
		}
		weight[i+1] = f << 8
	}
	for {
		nNodes, nHeap := alphaSize, 0
		heap[0], weight[0], parent[0] = 0, 0, -2
		up := func(z int) {
			tmp := heap[z]
			for weight[tmp] < weight[heap[z>>1]] {
				heap[z] = heap[z>>1]
				z >>= 1
			}
			heap[z] = tmp
		}
		down := func(z int) {
			tmp := heap[z]
			for {
				y := z << 1
				if y > nHeap {
					break
				}
				if y < nHeap && weight[heap[y+1]] < weight[heap[y]] {
					y++
				}
				if weight[tmp] < weight[heap[y]] {
					break
				}
				heap[z] = heap[y]
				z = y
			}
			heap[z] = tmp
		}
		for i := 1; i <= alphaSize; i++ {
			parent[i] = -1
			nHeap++
			heap[nHeap] = i
			up(nHeap)
		}
		for nHeap > 1 {
			n1 := heap[1]
			heap[1] = heap[nHeap]
			nHeap--
			down(1)
			n2 := heap[1]
			heap[1] = heap[nHeap]
			nHeap--
			down(1)
			nNodes++
			parent[n1], parent[n2] = nNodes, nNodes
			w1, w2 := weight[n1], weight[n2]
			weight[nNodes] = (w1&^0xff + w2&^0xff) | (1 + max(w1&0xff, w2&0xff))
			parent[nNodes] = -1
			nHeap++
			heap[nHeap] = nNodes
			up(nHeap)
		}
		tooLong := false
		for i := 1; i <= alphaSize; i++ {
			j := 0
			for k := i; parent[k] >= 0; k = parent[k] {
				j++
			}
			length[i-1] = j
			if j > maxLen {
				tooLong = true
			}
		}
		if !tooLong {
			return
		}
		for i := 1; i <= alphaSize; i++ {
			j := weight[i] >> 8
			weight[i] = (1 + j/2) << 8
		}
	}
}

// assignCodes gives the codes of the lengths, shortest first.
func assignCodes(length []int) []int {
	minLen, maxLen := 32, 0
	for _, l := range length {
		minLen, maxLen = min(minLen, l), max(maxLen, l)
	}
	code := make([]int, len(length))
	vec := 0
	for n := minLen; n <= maxLen; n++ {
		for i, l := range length {
			if l == n {
				code[i] = vec
				vec++
			}
		}
		vec <<= 1
	}
	return code
}

// writeMap writes which byte values the block uses: a bit for each 16,
// then a bit for each value of the 16s used.
func writeMap(b *bitWriter, inUse *[256]bool) {
	var inUse16 [16]bool
	for i := range 16 {
		for j := range 16 {
			if inUse[i*16+j] {
				inUse16[i] = true
			}
		}
	}
	for i := range 16 {
		b.put(1, bit(inUse16[i]))
	}
	for i := range 16 {
		if !inUse16[i] {
			continue
		}
		for j := range 16 {
			b.put(1, bit(inUse[i*16+j]))
		}
	}
}

func bit(v bool) uint32 {
	if v {
		return 1
	}
	return 0
}

// sortRotations sorts the rotations of b (prefix doubling with counting
// sorts) and returns their starts in order. The loop ends when all
// classes differ or 2k >= n, so rank then tells equal rotations.
func sortRotations(b []byte) []int32 {
	n := len(b)
	sa := make([]int32, n)
	rank := make([]int32, n)
	tmp := make([]int32, n)
	var cnt [257]int32
	for _, c := range b {
		cnt[int(c)+1]++
	}
	for i := 1; i < 257; i++ {
		cnt[i] += cnt[i-1]
	}
	for i, c := range b {
		sa[cnt[c]] = int32(i)
		cnt[c]++
	}
	classes := int32(0)
	for i := range n {
		if i > 0 && b[sa[i]] != b[sa[i-1]] {
			classes++
		}
		rank[sa[i]] = classes
	}
	count := make([]int32, n+1)
	for k := 1; k < n && int(classes) < n-1; k <<= 1 {
		// Order by the second half: the rotation k further on.
		for i, s := range sa {
			p := int(s) - k
			if p < 0 {
				p += n
			}
			tmp[i] = int32(p)
		}
		clear(count[:classes+2])
		for _, p := range tmp {
			count[rank[p]+1]++
		}
		for i := int32(1); i <= classes+1; i++ {
			count[i] += count[i-1]
		}
		for _, p := range tmp {
			sa[count[rank[p]]] = p
			count[rank[p]]++
		}
		// New classes: equal first and second halves.
		classes = 0
		prevA, prevB := int32(-1), int32(-1)
		for i, s := range sa {
			a, bb := rank[s], rank[(int(s)+k)%n]
			if i > 0 && (a != prevA || bb != prevB) {
				classes++
			}
			prevA, prevB = a, bb
			tmp[s] = classes
		}
		copy(rank, tmp)
	}
	// A block whose rotations repeat: libbzip2's sorts leave rotation 0
	// last of those equal to it (only origPtr tells).
	for i, s := range sa {
		if s == 0 {
			for ; i+1 < n && rank[sa[i+1]] == rank[0]; i++ {
				sa[i], sa[i+1] = sa[i+1], sa[i]
			}
			break
		}
	}
	return sa
}
