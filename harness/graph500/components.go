package graph500

// components.go: the TEPS edge count of any root without a search. The
// Graph500 v3 count of a search is the number of input tuples, self-loops
// excluded, with both ends in the root's connected component; an edge
// always has both ends in one component, so the count is the number of
// non-self-loop tuples of that component. The harness uses it for searches
// it does not validate (config validate = N), so their TEPS never depends
// on the variant's own output.

import (
	"sync/atomic"

	"github.com/bfsbench/bfsbench/harness/par"
)

// ComponentEdges holds, for every vertex, its connected component's
// Graph500 TEPS edge count.
type ComponentEdges struct {
	root  []int64 // union-find forest, fully compressed: root[v] is v's component's representative
	count []int64 // count[r]: non-self-loop tuples of the component represented by r
}

// NewComponentEdges finds the connected components of the edge list with a
// concurrent union-find (link by index with compare-and-swap, path
// halving) and counts each component's non-self-loop tuples.
func NewComponentEdges(edges []Edge, nvertices int64) *ComponentEdges {
	p := make([]int64, nvertices)
	for i := range p {
		p[i] = int64(i)
	}
	find := func(x int64) int64 {
		for {
			px := atomic.LoadInt64(&p[x])
			if px == x {
				return x
			}
			gp := atomic.LoadInt64(&p[px])
			if gp != px {
				atomic.CompareAndSwapInt64(&p[x], px, gp) // path halving; losing the race is harmless
			}
			x = gp
		}
	}
	union := func(a, b int64) {
		for {
			ra, rb := find(a), find(b)
			if ra == rb {
				return
			}
			if ra < rb {
				ra, rb = rb, ra
			}
			// Link the larger index under the smaller: roots only ever
			// decrease, so concurrent links cannot form a cycle.
			if atomic.CompareAndSwapInt64(&p[ra], ra, rb) {
				return
			}
		}
	}
	par.For(int64(len(edges)), func(lo, hi int64) {
		for _, e := range edges[lo:hi] {
			if e.V0 != e.V1 {
				union(e.V0, e.V1)
			}
		}
	})
	par.For(nvertices, func(lo, hi int64) {
		for v := lo; v < hi; v++ {
			p[v] = find(v) // no union runs any more: plain stores of roots are safe
		}
	})
	count := make([]int64, nvertices)
	par.For(int64(len(edges)), func(lo, hi int64) {
		for _, e := range edges[lo:hi] {
			if e.V0 != e.V1 {
				atomic.AddInt64(&count[atomic.LoadInt64(&p[e.V0])], 1)
			}
		}
	})
	return &ComponentEdges{root: p, count: count}
}

// NEdge is the Graph500 v3 TEPS edge count of a search from root.
func (c *ComponentEdges) NEdge(root int64) int64 {
	return c.count[c.root[root]]
}
