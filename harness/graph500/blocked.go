package graph500

import "math/bits"

// blockedEdges is the edge list as the validator's edge pass reads it: the
// non-self-loop tuples as (a, b) pairs of 32-bit ids, grouped by the blocks
// of their two ends (a vertex's block is v >> shift; a's block at most
// b's), block pairs in row-major order. Within a group both ends' entries
// (levelEntry) lie in two blocks of the entry array small enough for a
// core's L2, where the list's own order (the generator's, random) made two
// misses an edge the pass's whole cost. Built once per graph; a search
// that breaks an edge rule is checked again in the list's own order
// (firstEdgeFailure), so that its error names the same edge.
type blockedEdges struct {
	pairs []uint32 // a0, b0, a1, b1, ...
}

// blockedSideBits bounds the blocks a side to 2^8 (the groups are its
// square: 65,536 at most).
const blockedSideBits = 8

// blockedMinShift gives blocks of 2^18 vertices at least (512 KB of 16-bit
// entries). A variable so that tests can cut small graphs into many
// blocks.
var blockedMinShift = 18

// blockShift is the block size (log2) for nv vertices: 2^blockedMinShift,
// or larger where that would make more than 2^blockedSideBits blocks.
func blockShift(nv int64) uint {
	need := bits.Len64(uint64(max(nv-1, 0))) // bits of the largest id
	return uint(max(blockedMinShift, need-blockedSideBits))
}

// newBlockedEdges groups edges (every end in [0, nv)) with blocks of
// 2^shift vertices: a count of each group's edges a chunk of the list,
// then each chunk writes its edges at its offsets, in parallel.
func newBlockedEdges(edges []Edge, nv int64, shift uint) *blockedEdges {
	nb := int((max(nv-1, 0) >> shift) + 1)
	groups := nb * nb
	// ends gives a tuple's ends, the smaller first; group, their group.
	ends := func(e Edge) (int64, int64) { return min(e.V0, e.V1), max(e.V0, e.V1) }
	group := func(a, b int64) int { return int(a>>shift)*nb + int(b>>shift) }
	nchunks := valChunkCount(len(edges))
	counts := make([][]int64, nchunks)
	valRunChunks(len(edges), nchunks, func(c, lo, hi int) {
		n := make([]int64, groups)
		for _, e := range edges[lo:hi] {
			if e.V0 != e.V1 {
				n[group(ends(e))]++
			}
		}
		counts[c] = n
	})
	// Offsets: group-major, chunk-minor, so that each group's edges keep
	// the list's order within it.
	var total int64
	for g := range groups {
		for c := range nchunks {
			n := counts[c][g]
			counts[c][g] = total
			total += n
		}
	}
	pairs := make([]uint32, 2*total)
	valRunChunks(len(edges), nchunks, func(c, lo, hi int) {
		at := counts[c]
		for _, e := range edges[lo:hi] {
			if e.V0 == e.V1 {
				continue
			}
			a, b := ends(e)
			g := group(a, b)
			k := at[g]
			at[g] = k + 1
			pairs[2*k], pairs[2*k+1] = uint32(a), uint32(b)
		}
	})
	return &blockedEdges{pairs: pairs}
}

// scanPairs is the edge pass over the blocked list: it checks the two edge
// rules against the levels of es (fillEntries), marks in conf every vertex
// whose edge to its parent is seen, and counts the TEPS edges (see
// scanEdges, which it replaces). It says whether every edge kept the
// rules; where one did not, firstEdgeFailure finds which, in the input's
// order. An edge between adjacent levels is looked up in parents only
// where its upper end matches the lower end's parent hash, and then only
// while the lower end is not confirmed: a vertex's parent is read about
// once, not once per edge to the level above it.
func scanPairs[E levelEntry](be *blockedEdges, es []E, parents []int64, conf []uint32) (int64, bool) {
	none := unreachedLevel[E]()
	n := len(be.pairs) / 2
	nchunks := valChunkCount(n)
	counts := make([]int64, nchunks)
	ok := make([]bool, nchunks)
	valRunChunks(n, nchunks, func(c, lo, hi int) {
		var count int64
		p := be.pairs[2*lo : 2*hi]
		for i := 0; i+1 < len(p); i += 2 {
			a, b := int64(p[i]), int64(p[i+1])
			ea, eb := es[a], es[b]
			la, lb := entryLevel(ea), entryLevel(eb)
			if la == none && lb == none {
				continue
			}
			if !edgeLevelsOK(la, lb, none) {
				return // ok[c] stays false
			}
			count++
			if la == lb+1 {
				if uint8(ea) == parentHash(b) {
					confirm(conf, parents, a, b)
				}
			} else if lb == la+1 {
				if uint8(eb) == parentHash(a) {
					confirm(conf, parents, b, a)
				}
			}
		}
		counts[c], ok[c] = count, true
	})
	var total int64
	for c := range nchunks {
		if !ok[c] {
			return 0, false
		}
		total += counts[c]
	}
	return total, true
}

// edgeLevelsOK says whether an edge whose ends have level fields la and lb
// (not both none) keeps the two edge rules: both ends reached, their
// levels at most one apart.
func edgeLevelsOK[E levelEntry](la, lb, none E) bool {
	// Past the first two tests la and lb are levels, below none: la+1 and
	// lb+1 do not overflow.
	return la != none && lb != none && la <= lb+1 && lb <= la+1
}

// firstEdgeFailure finds the first edge of the input's order that breaks
// an edge rule against the levels of es, for a search that scanPairs
// found to break one; nil if none does.
func firstEdgeFailure[E levelEntry](edges []Edge, es []E) *ValidationError {
	none := unreachedLevel[E]()
	bad := valFirstFailure(len(edges), func(lo, hi int) int {
		for i := lo; i < hi; i++ {
			a, b := edges[i].V0, edges[i].V1
			if a == b {
				continue
			}
			la, lb := entryLevel(es[a]), entryLevel(es[b])
			if (la != none || lb != none) && !edgeLevelsOK(la, lb, none) {
				return i
			}
		}
		return -1
	})
	if bad < 0 {
		return nil
	}
	a, b := edges[bad].V0, edges[bad].V1
	return edgeRuleError(bad, a, b, levelOrNone(entryLevel(es[a]), none), levelOrNone(entryLevel(es[b]), none))
}
