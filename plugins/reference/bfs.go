package main

// The reference variant: a parallel CPU breadth-first search, the baseline
// every GPU variant is compared with. It is the direction-optimizing BFS
// of [1], written after the GAP Benchmark Suite's src/bfs.cc.
//
// Data representation: the undirected graph as CSR (offsets into one array
// of neighbours, each input edge stored in both directions, self-loops
// dropped, duplicates kept) with uint32 vertex ids. The frontier is a
// queue of vertex ids in top-down steps and a bitmap in bottom-up steps.
// Parents are int64: -1 for a vertex not reached yet, else its parent (the
// root is its own parent). A top-down step claims a vertex with
// compare-and-swap, so each vertex gets exactly one parent; a vertex's
// level is not stored.
//
// Top-down step (topDownStep): every frontier vertex tries to claim its
// unvisited neighbours. Bottom-up step (bottomUpStep): every unvisited
// vertex looks for any neighbour in the frontier and stops at the first.
// The search (bfs) switches to bottom-up when the edges to check from the
// frontier (m_f) exceed the edges of unexplored vertices (m_u) divided by
// alpha, and back to top-down when the frontier shrinks below n/beta
// vertices (GAP's defaults, 15 and 18).
//
// [1] [Beamer] (docs/papers.md).

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/par"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// csr is the undirected graph in compressed sparse rows.
type csr struct {
	n       int64
	offsets []int64  // n+1
	adj     []uint32 // offsets[n] entries
}

// buildCSR counts degrees, prefix-sums them and scatters both directions
// of every non-self-loop edge, in parallel.
func buildCSR(edges []graph500.Edge, n int64) (*csr, error) {
	if n > 1<<32 {
		return nil, fmt.Errorf("reference: %d vertices do not fit 32-bit ids", n)
	}
	deg := make([]int64, n+1)
	par.For(int64(len(edges)), func(lo, hi int64) {
		for _, e := range edges[lo:hi] {
			if e.V0 != e.V1 {
				atomic.AddInt64(&deg[e.V0], 1)
				atomic.AddInt64(&deg[e.V1], 1)
			}
		}
	})
	offsets := make([]int64, n+1)
	var sum int64
	for v := int64(0); v < n; v++ {
		offsets[v] = sum
		sum += deg[v]
	}
	offsets[n] = sum
	cursor := deg[:n]
	copy(cursor, offsets[:n])
	adj := make([]uint32, sum)
	par.For(int64(len(edges)), func(lo, hi int64) {
		for _, e := range edges[lo:hi] {
			if e.V0 != e.V1 {
				adj[atomic.AddInt64(&cursor[e.V0], 1)-1] = uint32(e.V1)
				adj[atomic.AddInt64(&cursor[e.V1], 1)-1] = uint32(e.V0)
			}
		}
	})
	return &csr{n: n, offsets: offsets, adj: adj}, nil
}

func (g *csr) degree(v uint32) int64 { return g.offsets[v+1] - g.offsets[v] }

// search is one configured CPU BFS over a graph.
type search struct {
	g            *csr
	dirOpt       bool
	alpha, beta  int64
	parents      []int64
	front, next  bitmap
	workers      int // goroutines of a search (the threads parameter; 1: on the calling one)
	levelPhases  []results.LevelPhase
	levels       int
	bottomUpUsed bool
}

func newSearch(cfg sdk.Config) *search {
	workers := int(cfg.Int("threads"))
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &search{
		dirOpt:  cfg.Bool("direction_optimizing"),
		alpha:   cfg.Int("alpha"),
		beta:    cfg.Int("beta"),
		workers: workers,
	}
}

func (s *search) construct(w *sdk.Workload) error {
	g, err := buildCSR(w.Edges, w.NVertices)
	if err != nil {
		return err
	}
	s.g = g
	s.parents = make([]int64, g.n)
	s.front = newBitmap(g.n)
	s.next = newBitmap(g.n)
	return nil
}

// bfs runs one search from root, alternating top-down and bottom-up steps,
// on s.workers goroutines (one: the queue of each level in order on the
// calling goroutine).
func (s *search) bfs(root int64) {
	g := s.g
	par.ForWorkers(g.n, 1, s.workers, func(lo, hi int64) {
		for i := lo; i < hi; i++ {
			s.parents[i] = -1
		}
	})
	s.parents[root] = root
	s.levelPhases = s.levelPhases[:0]
	queue := []uint32{uint32(root)}
	edgesToCheck := g.offsets[g.n]  // mu: edges of unexplored vertices
	scout := g.degree(uint32(root)) // mf: edges out of the frontier
	level := 0
	for len(queue) > 0 {
		t0 := time.Now()
		phase := "top_down"
		if s.dirOpt && scout > edgesToCheck/s.alpha {
			// Bottom-up until the frontier is small again.
			phase = "bottom_up"
			s.bottomUpUsed = true
			s.front.clear()
			s.front.setAll(queue)
			awake := int64(len(queue))
			for {
				prev := awake
				awake = s.bottomUpStep()
				s.front, s.next = s.next, s.front
				s.levelPhases = append(s.levelPhases, results.LevelPhase{Level: level, Frontier: prev,
					Times: map[string]float64{phase: time.Since(t0).Seconds()}})
				level++
				t0 = time.Now()
				if awake == 0 || (awake < prev && awake <= g.n/s.beta) {
					break
				}
			}
			queue = s.front.toQueue(queue[:0])
			scout = 1 // recomputed by the next top-down step
			if len(queue) == 0 {
				break
			}
			continue
		}
		var next []uint32
		next, scout = s.topDownStep(queue)
		edgesToCheck -= scout
		s.levelPhases = append(s.levelPhases, results.LevelPhase{Level: level, Frontier: int64(len(queue)),
			Times: map[string]float64{phase: time.Since(t0).Seconds()}})
		queue = next
		level++
	}
	s.levels = level
}

// topDownStep claims the unvisited neighbours of the frontier; it returns
// the next frontier and the sum of its degrees (mf of the next level).
func (s *search) topDownStep(queue []uint32) ([]uint32, int64) {
	g := s.g
	chunks := make([][]uint32, 0, s.workers*4)
	var mu sync.Mutex
	var scout int64
	par.ForWorkers(int64(len(queue)), 1, s.workers, func(lo, hi int64) {
		var local []uint32
		var sc int64
		for _, u := range queue[lo:hi] {
			for _, v := range g.adj[g.offsets[u]:g.offsets[u+1]] {
				if atomic.LoadInt64(&s.parents[v]) < 0 && atomic.CompareAndSwapInt64(&s.parents[v], -1, int64(u)) {
					local = append(local, v)
					sc += g.degree(v)
				}
			}
		}
		mu.Lock()
		chunks = append(chunks, local)
		scout += sc
		mu.Unlock()
	})
	var next []uint32
	for _, c := range chunks {
		next = append(next, c...)
	}
	return next, scout
}

// bottomUpStep lets every unvisited vertex find a parent in s.front; the
// found vertices form s.next. It returns how many were found.
func (s *search) bottomUpStep() int64 {
	g := s.g
	s.next.clear()
	var awake int64
	// Chunks are multiples of 64 vertices so that each worker owns whole
	// words of s.next and can set bits without atomics.
	par.ForWorkers(g.n, 64, s.workers, func(lo, hi int64) {
		var found int64
		for v := lo; v < hi; v++ {
			if s.parents[v] >= 0 {
				continue
			}
			for _, u := range g.adj[g.offsets[v]:g.offsets[v+1]] {
				if s.front.get(int64(u)) {
					s.parents[v] = int64(u)
					s.next.set(v)
					found++
					break
				}
			}
		}
		atomic.AddInt64(&awake, found)
	})
	return awake
}

// bitmap is a dense set of vertices.
type bitmap []uint64

func newBitmap(n int64) bitmap    { return make(bitmap, (n+63)/64) }
func (b bitmap) get(v int64) bool { return b[v>>6]&(1<<(uint(v)&63)) != 0 }
func (b bitmap) set(v int64)      { b[v>>6] |= 1 << (uint(v) & 63) }
func (b bitmap) clear()           { clear(b) }
func (b bitmap) setAll(q []uint32) {
	for _, v := range q {
		b.set(int64(v))
	}
}
func (b bitmap) toQueue(q []uint32) []uint32 {
	for w, word := range b {
		for word != 0 {
			t := word & -word
			q = append(q, uint32(w*64+bits.TrailingZeros64(t)))
			word ^= t
		}
	}
	return q
}

// clonePhases copies the per-level records so the next search can reuse
// the slice.
func clonePhases(p []results.LevelPhase) []results.LevelPhase {
	return append([]results.LevelPhase(nil), p...)
}
