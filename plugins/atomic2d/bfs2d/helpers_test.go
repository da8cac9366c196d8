package bfs2d

// helpers_test.go: test fixtures — a local CSC built straight from an edge
// list (an independent, obviously-correct construction to check the kernels
// against; the plugin itself takes its blocks from harness/partition), a
// serial BFS, and an in-process grid runner.

import (
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
)

// naiveCSC builds P(i,j)'s local CSC from the whole edge list: for every
// input edge {a,b} (self-loops dropped), the directed edges a→b and b→a,
// stored at column LOCAL_COL(source), row LOCAL_ROW(destination) when this
// rank holds that block.
func naiveCSC(l Layout, edges []graph500.Edge) *LocalCSC {
	cols := make([][]uint32, l.LocalCols())
	add := func(u, v int64) {
		c, ok1 := l.LocalColOf(u)
		r, ok2 := l.LocalRowOf(v)
		if ok1 && ok2 {
			cols[c] = append(cols[c], r)
		}
	}
	for _, e := range edges {
		if e.V0 == e.V1 {
			continue
		}
		add(e.V0, e.V1)
		add(e.V1, e.V0)
	}
	g := &LocalCSC{ColOff: make([]uint32, len(cols)+1)}
	for c, rows := range cols {
		sort.Slice(rows, func(a, b int) bool { return rows[a] < rows[b] })
		g.RowIdx = append(g.RowIdx, rows...)
		g.ColOff[c+1] = uint32(len(g.RowIdx))
	}
	return g
}

// serialLevels is graph500.SerialBFS's levels as int32: the level of
// every vertex, -1 when unreached.
func serialLevels(edges []graph500.Edge, n, root int64) []int32 {
	_, lv64 := graph500.SerialBFS(edges, n, root)
	lv := make([]int32, n)
	for i, l := range lv64 {
		lv[i] = int32(l)
	}
	return lv
}

// gridRun is one search's output on an in-process grid.
type gridRun struct {
	parents []int64
	levels  []int32 // all vertices, in vertex order
	res     SearchResult
}

// runGrid builds an R×C in-process grid of CPU ranks over edges and runs a
// search from each root, returning rank 0's view of each.
func runGrid(t *testing.T, r, c int, n int64, edges []graph500.Edge, roots []int64, opt Options) []gridRun {
	t.Helper()
	out := make([]gridRun, len(roots))
	var mu sync.Mutex
	levels := make([][][]int32, len(roots)) // [root][rank]
	for k := range levels {
		levels[k] = make([][]int32, r*c)
	}
	err := comm.RunLocal(r*c, func(w comm.Comm) error {
		g, err := comm.NewGrid(w, r, c)
		if err != nil {
			return err
		}
		defer g.Close()
		l, err := NewLayout(r, c, g.I, g.J, n)
		if err != nil {
			return err
		}
		eng, err := newCPUEngine(l, naiveCSC(l, edges), opt.EdgesPerThread, opt.Workers)
		if err != nil {
			return err
		}
		rk, err := newRank(g, l, eng, opt)
		if err != nil {
			return err
		}
		for k, root := range roots {
			res, err := rk.BFS(root)
			if err != nil {
				return fmt.Errorf("bfs from %d: %w", root, err)
			}
			var par []int64
			if w.Rank() == 0 {
				par = make([]int64, n)
			}
			if err := rk.Parents(par); err != nil {
				return err
			}
			lv, err := rk.Levels()
			if err != nil {
				return err
			}
			mu.Lock()
			levels[k][w.Rank()] = lv
			if w.Rank() == 0 {
				out[k].parents = par
				out[k].res = res
			}
			mu.Unlock()
		}
		return rk.Close()
	})
	if err != nil {
		t.Fatalf("grid %d×%d: %v", r, c, err)
	}
	for k := range out {
		for _, lv := range levels[k] { // rank r owns block r: vertex order
			out[k].levels = append(out[k].levels, lv...)
		}
	}
	return out
}
