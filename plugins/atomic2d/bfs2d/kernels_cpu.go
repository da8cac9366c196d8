package bfs2d

// kernels_cpu.go is the CPU backend's version of the two kernels of seed
// 000: expand_frontier (Algorithm 3, with the §3.4.1 optimisation of k
// consecutive edges per thread) and update_frontier (§3.5). They run the
// same thread-to-data mapping as the CUDA kernels, with goroutines playing
// groups of GPU threads and sync/atomic playing atomicOr and atomicInc, so
// that the CPU backend exercises the algorithm the GPU runs.

import (
	"github.com/bfsbench/bfsbench/harness/par"
	"sort"
	"sync/atomic"
)

// Predecessor encoding (32-bit, per local row). A vertex discovered by this
// rank's expansion stores its predecessor's local column u (< 2^31, see
// NewLayout); a vertex this rank owns but learnt of from the fold exchange
// stores predRemote|m, the grid column m of the sender, which holds the real
// predecessor (§3.5, resolved after the search in pred.go).
const (
	predNone   = ^uint32(0)
	predRemote = uint32(1) << 31
)

// LocalCSC is a rank's local matrix in compressed sparse column form (seed
// 000 §3.1): column u's rows are RowIdx[ColOff[u]:ColOff[u+1]], all local
// 32-bit indices.
type LocalCSC struct {
	ColOff []uint32 // LocalCols+1 offsets
	RowIdx []uint32 // local rows, len ColOff[LocalCols]
}

// searchState is the per-rank search data of Algorithm 2 ([1] §3.1):
// level and predecessor per local row, the visited bitmap over every local
// row, and the output queues of Algorithm 3 (dst_verts with their counters
// dst_cnt), whose own block j is the next frontier.
type searchState struct {
	Level []int32  // LocalRows entries, -1 = unvisited; set for own rows only
	Pred  []uint32 // LocalRows entries, predNone / local column / predRemote|m
	Bmap  []uint32 // ⌈LocalRows/32⌉ words
	Out   []uint32 // C blocks of BlockN: block m = dst_verts[m]
	Cnt   []uint32 // C counters: dst_cnt
}

func newSearchState(l Layout) *searchState {
	rows := l.LocalRows()
	return &searchState{
		Level: make([]int32, rows),
		Pred:  make([]uint32, rows),
		Bmap:  make([]uint32, BitmapWords(int(rows))),
		Out:   make([]uint32, int64(l.C)*l.BlockN),
		Cnt:   make([]uint32, l.C),
	}
}

// reset is lines 1-4 of Algorithm 2 and clears the output queues.
func (s *searchState) reset() {
	for i := range s.Level {
		s.Level[i] = -1
	}
	for i := range s.Pred {
		s.Pred[i] = predNone
	}
	clear(s.Bmap)
	clear(s.Cnt)
}

// block returns dst_verts[m] as filled so far.
func (s *searchState) block(l Layout, m int) []uint32 {
	lo := int64(m) * l.BlockN
	return s.Out[lo : lo+int64(s.Cnt[m])]
}

// parallelFor runs body(lo, hi) over [0, n) on up to workers goroutines in
// contiguous chunks (the CPU's stand-in for a CUDA grid).
func parallelFor(n int, workers int, body func(lo, hi int)) {
	par.ForWorkers(int64(n), 1, workers, func(lo, hi int64) { body(int(lo), int(hi)) })
}

// binsearchMaxLE returns the largest k < len(cumul)-1 with cumul[k] ≤ x
// (binsearch_maxle of Algorithm 3 line 2); cumul is non-decreasing and
// cumul[0] = 0 ≤ x.
func binsearchMaxLE(cumul []uint32, x uint32) int {
	// sort.Search finds the first index with cumul[k] > x; the answer is
	// the one before it, capped so that a trailing run of equal totals
	// (zero-degree vertices at the end) cannot push k past the last vertex.
	k := sort.Search(len(cumul), func(k int) bool { return cumul[k] > x }) - 1
	return min(k, len(cumul)-2)
}

// expandArgs are the inputs of expand_frontier.
type expandArgs struct {
	G       *LocalCSC
	Front   []uint32 // all_front: local columns
	Cumul   []uint32 // scratch of len(Front)+1
	Level   int32    // the current BFS level (lvl of Algorithm 2)
	K       int      // edges per thread (§3.4.1)
	Workers int      // goroutines; ≤ 0 means GOMAXPROCS
	Layout  Layout
}

// expandFrontier is Algorithm 3 on the CPU. It computes the cumulative
// degree array of the frontier by an exclusive scan, then runs
// ⌈total/K⌉ "threads", thread t taking the K consecutive frontier edges
// t·K..t·K+K-1: one binary search (binsearch_maxle) for the first edge, a
// linear advance for the following ones (§3.4.1). Each edge (u,v) tests the
// visited bit of v, sets it with an atomic OR and, if this thread set it,
// appends v to dst_verts[tgtj] through an atomic increment of
// dst_cnt[tgtj], sets level[v] when v is an own vertex (storing ROW2COL(v),
// its local column, in the next frontier), and sets pred[v] = u. It
// returns the number of edges scanned.
func expandFrontier(a *expandArgs, s *searchState) int64 {
	cumul := a.Cumul[:len(a.Front)+1]
	var total uint32
	for k, u := range a.Front {
		cumul[k] = total
		total += a.G.ColOff[u+1] - a.G.ColOff[u]
	}
	cumul[len(a.Front)] = total
	if total == 0 {
		return 0
	}
	k := uint32(max(a.K, 1))
	threads := int((total + k - 1) / k)
	l := a.Layout
	parallelFor(threads, a.Workers, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			first := uint32(t) * k
			c := binsearchMaxLE(cumul, first)
			for e := first; e < first+k && e < total; e++ {
				for e >= cumul[c+1] { // §3.4.1: the group overlaps the next column
					c++
				}
				u := a.Front[c]
				v := a.G.RowIdx[a.G.ColOff[u]+e-cumul[c]]
				visit(s, l, v, u, a.Level)
			}
		}
	})
	return int64(total)
}

// visit is Algorithm 3 lines 5-17 for one edge (u,v).
func visit(s *searchState, l Layout, v, u uint32, lvl int32) {
	w := &s.Bmap[v>>5]
	m := uint32(1) << (v & 31)
	if atomic.LoadUint32(w)&m != 0 { // line 6: already visited
		return
	}
	if atomic.OrUint32(w, m)&m != 0 { // lines 7-8: another thread won
		return
	}
	tgt := l.RowOwnerCol(v)                     // line 9
	off := atomic.AddUint32(&s.Cnt[tgt], 1) - 1 // line 10: atomicInc(&dst_cnt[tgtj])
	base := int64(tgt) * l.BlockN
	if tgt != l.J {
		s.Out[base+int64(off)] = v // line 12
	} else {
		s.Out[base+int64(off)] = l.RowToCol(v) // line 14
		s.Level[v] = lvl                       // line 15
	}
	s.Pred[v] = u // line 17
}

// updateFrontier is the frontier update of [1] §3.5 on the CPU: one
// "thread" per received vertex (offsets within this rank's block, grouped by
// sender: recv[segs[m]:segs[m+1]] came from grid column m). An unvisited
// vertex gets its visited bit, its level, the sender's grid column as a
// temporary predecessor (predRemote|m), and its local column appended to
// the next frontier (dst_verts[j], whose counter the expansion left at the
// vertices it found locally). It returns the number of vertices added.
func updateFrontier(recv []uint32, segs []int, lvl int32, workers int, l Layout, s *searchState) int {
	before := atomic.LoadUint32(&s.Cnt[l.J])
	row0 := l.OwnRow0()
	base := int64(l.J) * l.BlockN
	parallelFor(len(recv), workers, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			// The sender of vertex t: the last segment starting at or
			// before t (a binary search over C+1 offsets).
			m := sort.Search(len(segs), func(x int) bool { return segs[x] > t }) - 1
			v := row0 + recv[t]
			w := &s.Bmap[v>>5]
			mask := uint32(1) << (v & 31)
			if atomic.LoadUint32(w)&mask != 0 {
				continue
			}
			if atomic.OrUint32(w, mask)&mask != 0 {
				continue
			}
			off := atomic.AddUint32(&s.Cnt[l.J], 1) - 1
			s.Out[base+int64(off)] = l.RowToCol(v)
			s.Level[v] = lvl
			s.Pred[v] = predRemote | uint32(m)
		}
	})
	return int(atomic.LoadUint32(&s.Cnt[l.J]) - before)
}
