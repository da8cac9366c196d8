package dobfs

// split.go is the split level (ours, not in [Krajecki] or [Beamer]): level
// 2 of a 1×1 search explored in both directions at once, divided by the
// degree of the vertex to be found rather than by the level.
//
// Level 2's frontier is the few thousand vertices two steps from the root
// (3-30 K at scale 25), with tens of millions of edges between them (m_f):
// top-down reads every one of those edges, and bottom-up makes every
// unvisited row that is not a frontier vertex's neighbour scan its whole
// list, most of the graph's rows. The rows divide by their degree d at a
// bound D (the split parameter):
//
//   - a row of degree ≥ D scans its list bottom-up, as a bottom-up level
//     does. Its list is ordered by neighbour degree (order = degree), so it
//     meets the frontier's hubs first: at scale 25 such rows (1.8 M of 33 M
//     for D = 64) stop after about 3 entries;
//   - a row of degree < D is marked top-down: each frontier vertex u reads
//     only the tail of its list, the neighbours of degree < D, which the
//     same order puts last (from cut_D(u), the first entry of degree < D),
//     and marks each in out_queue. Since a neighbour u of such a row v
//     holds v in its tail, the marked rows are exactly those of degree < D
//     with a frontier neighbour; the bottom-up side then explores them
//     too (they find a parent, mostly at their first entries), and skips
//     every other row of degree < D, most of the graph's rows.
//
// A first build claimed the marked rows top-down (the visited test, two
// atomics, the predecessor and the degree a row, as Algorithm 3): level 2
// read a third to a half of the entries and took longer at every root
// with a bottom-up level 2 (0.57 -> 0.77 ms at root 8846169, scale 25
// on an H200; results/diropt-1000, split-25 at 5899e3f): the claims cost
// what the entries saved. A mark is one atomic nobody waits for, and the
// bottom-up side writes its rows' words whole, as any bottom-up level.
// The marked rows still scan their lists (most of the level's entries).
// Storing each mark's frontier vertex as the row's candidate parent, for
// its first check to test (split_cand), examined a third fewer entries
// and made level 2 2.3x slower (results/diropt-1000, split-cand-25).
//
// The level finds the frontier the plain level would, with the same m_f;
// only the entries read differ. scripts/degcut counts them on the CPU: at
// scale 25, seed [2, 3], root 33338285 (a frontier of 3,470 vertices and
// m_f 30.9 M, top-down today), the split reads 4.8 M tail entries and 5.8
// M bottom-up ones for D = 64, where bottom-up reads 70.9 M and top-down
// 30.9 M; at root 7222815 (11,211 vertices, m_f 75.5 M, bottom-up today)
// 11.2 M + 2.0 M against 39.3 M. The tail is about 15 % of m_f whatever
// the frontier, so at a large frontier (m_f of hundreds of millions) the
// plain bottom-up level reads fewer: the rule (splitLevel) takes the split
// only for m_f in a window of m_u, and only at level 2 (by its index, as
// the CUDA engine launches level 2's kernels before the device decides its
// direction). After it the queues rotate as after a bottom-up level: the
// top-down side leaves in_queue whole, for the bottom-up side.

import (
	"math/bits"
	"sort"
	"sync/atomic"
)

// SplitLevel is the one level a search may run split: level 2, the first
// whose frontier is two steps from the root.
const SplitLevel = 2

// splitLevel reports whether the rule runs level `level` split, with the
// rule's m_f and m_u for it: with the split on (1×1), at SplitLevel, after
// a top-down level, for m_u / SplitFrom < m_f ≤ m_u / SplitTo. The CUDA
// device loop's Rule (cuda/diropt.cu) is the same arithmetic.
func (rk *Rank) splitLevel(level int, cur Dir, mf, mu int64) bool {
	o := rk.opt
	return o.Split > 0 && rk.single && level == SplitLevel && cur == TopDown &&
		float64(mf) > float64(mu)/o.SplitFrom && float64(mf) <= float64(mu)/o.SplitTo
}

// cut is the start of u's tail in the CSC: the first entry of u's list
// (ordered by decreasing neighbour degree) whose degree is below d.
func (b *Block) cut(u uint32, d uint32) uint32 {
	l := b.BU.List(u)
	k := sort.Search(len(l), func(i int) bool { return b.BU.Deg(l[i]) < d })
	return b.BU.Off[u] + uint32(k)
}

// exploreSplit is the split level on the CPU, as the GPU runs it: the
// top-down side marks every tail entry in out (no visited test, no claim:
// an atomic OR each, which nobody waits for on the GPU); the bottom-up
// side then explores the unvisited rows of degree ≥ D and the marked ones
// (each has a frontier neighbour, usually among its first entries) as a
// bottom-up level does, writing each word of out and visited whole.
func (e *cpuEngine) exploreSplit() Explored {
	d := e.split
	clear(e.out)
	var edges atomic.Int64
	forChunks(int64(len(e.in)), 1, e.workers, func(lo, hi int64) {
		var ed int64
		for w := lo; w < hi; w++ {
			for word := e.in[w]; word != 0; word &= word - 1 {
				u := uint32(w)*32 + uint32(bits.TrailingZeros32(word))
				tail := e.b.BU.Adj[e.b.cut(u, d):e.b.BU.Off[u+1]]
				ed += int64(len(tail))
				for _, v := range tail {
					atomic.OrUint32(&e.out[v>>5], 1<<(v&31))
				}
			}
		}
		edges.Add(ed)
	})
	// The rows of degree below D that no tail marked have no frontier
	// neighbour: the bottom-up side leaves them.
	ex := e.bottomUp(func(w int64) uint32 {
		var low uint32
		for k := range 32 {
			if v := uint32(w)*32 + uint32(k); int(v) < len(e.b.BU.Off)-1 && e.b.BU.Deg(v) < d {
				low |= 1 << k
			}
		}
		return low &^ e.out[w]
	})
	ex.Edges += edges.Load()
	return ex
}
