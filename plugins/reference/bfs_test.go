package main

import (
	"runtime"
	"slices"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
)

// TestConformance runs the shared conformance suite on one rank (top-down
// only and direction-optimizing) and on 1D layouts of several ranks.
func TestConformance(t *testing.T) {
	sdktest.Run(t, plugin{}, sdktest.Options{
		Scales:      []int{6, 10, 13},
		EdgeFactors: []int{4, 16},
		Params: []map[string]any{{"direction_optimizing": false}, {"direction_optimizing": true},
			{"direction_optimizing": false, "threads": 1}, {"direction_optimizing": true, "threads": 3}},
	})
	sdktest.Run(t, plugin{}, sdktest.Options{
		Scales:      []int{8, 10},
		EdgeFactors: []int{16},
		Grids:       [][2]int{{4, 1}, {3, 1}, {16, 1}},
		OneD:        true,
	})
}

// TestDirectionOptimizingGoesBottomUp checks the switch itself: the
// direction-optimizing search takes bottom-up steps on a graph large enough
// to have big frontiers, and the top-down-only search never does.
func TestDirectionOptimizingGoesBottomUp(t *testing.T) {
	const scale = 11
	edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
	n := graph500.NVertices(scale)
	keys, err := graph500.SearchKeys(edges, n, 4, [2]uint64{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, dirOpt := range []bool{false, true} {
		params, err := plugin{}.Info().CheckParams(map[string]any{"direction_optimizing": dirOpt})
		if err != nil {
			t.Fatal(err)
		}
		v, err := sdk.New(plugin{}, sdk.Config{Backend: sdk.BackendCPU, Ranks: 1, Params: params})
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Construct(&sdk.Workload{NVertices: n, NEdges: int64(len(edges)), Edges: edges}); err != nil {
			t.Fatal(err)
		}
		usedBottomUp := false
		for _, root := range keys {
			if _, err := v.BFS(root); err != nil {
				t.Fatal(err)
			}
			usedBottomUp = usedBottomUp || v.(*variant).s.bottomUpUsed
		}
		v.Close()
		if dirOpt != usedBottomUp {
			t.Errorf("direction_optimizing = %v, but bottom-up used = %v", dirOpt, usedBottomUp)
		}
	}
}

// queueBFS is the edge-scan article's CPU code: one FIFO queue, each
// vertex's neighbours in adjacency order, the first to reach a vertex its
// parent.
func queueBFS(g *csr, root int64) []int64 {
	parents := make([]int64, g.n)
	for i := range parents {
		parents[i] = -1
	}
	parents[root] = root
	q := []uint32{uint32(root)}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, v := range g.adj[g.offsets[u]:g.offsets[u+1]] {
			if parents[v] < 0 {
				parents[v] = int64(u)
				q = append(q, v)
			}
		}
	}
	return parents
}

// TestThreads: threads = 1 with direction_optimizing = false is the
// sequential queue BFS, parent for parent, on the calling goroutine;
// every thread count gives valid searches (TestConformance) with the
// levels of the queue BFS, and 0 takes every core.
func TestThreads(t *testing.T) {
	const scale = 12
	edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
	n := graph500.NVertices(scale)
	keys, err := graph500.SearchKeys(edges, n, 4, [2]uint64{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		threads     int64
		workers     int
		sameParents bool // as the queue BFS's, exactly
	}{
		{0, runtime.GOMAXPROCS(0), false},
		{1, 1, true},
		{4, 4, false},
	} {
		params, err := plugin{}.Info().CheckParams(map[string]any{"direction_optimizing": false, "threads": tc.threads})
		if err != nil {
			t.Fatal(err)
		}
		v, err := sdk.New(plugin{}, sdk.Config{Backend: sdk.BackendCPU, Ranks: 1, Params: params})
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Construct(&sdk.Workload{NVertices: n, NEdges: int64(len(edges)), Edges: edges}); err != nil {
			t.Fatal(err)
		}
		s := v.(*variant).s
		if s.workers != tc.workers {
			t.Errorf("threads = %d: %d workers, want %d", tc.threads, s.workers, tc.workers)
		}
		got := make([]int64, n)
		for _, root := range keys {
			res, err := v.BFS(root)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Parents(got); err != nil {
				t.Fatal(err)
			}
			want := queueBFS(s.g, root)
			if tc.sameParents && !slices.Equal(got, want) {
				t.Errorf("threads = 1, root %d: the parents differ from the sequential queue BFS's", root)
			}
			if depth(want, root) != res.Levels-1 {
				t.Errorf("threads = %d, root %d: %d levels, the queue BFS's tree is %d deep", tc.threads, root, res.Levels, depth(want, root))
			}
		}
		v.Close()
	}
}

// depth is the deepest level of a parent tree.
func depth(parents []int64, root int64) int {
	d := 0
	for v := range parents {
		k := 0
		for u := int64(v); parents[u] >= 0 && u != root; u = parents[u] {
			k++
		}
		d = max(d, k)
	}
	return d
}
