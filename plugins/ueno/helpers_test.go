package main

import (
	"slices"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/plugins/ueno/ubfs"
)

// testGraph is one generated workload with its validator and keys.
type testGraph struct {
	scale, ef int
	edges     []graph500.Edge
	n         int64
	keys      []int64
	val       *graph500.Validator
}

func newTestGraph(t *testing.T, scale, ef, roots int) *testGraph {
	t.Helper()
	seed := [2]uint64{2, 3}
	edges := graph500.Generate(scale, ef, seed)
	n := graph500.NVertices(scale)
	keys, err := graph500.SearchKeys(edges, n, roots, seed)
	if err != nil {
		t.Fatal(err)
	}
	return &testGraph{scale: scale, ef: ef, edges: edges, n: n, keys: keys, val: graph500.NewValidator(edges, n)}
}

func (g *testGraph) workload() *sdk.Workload {
	return &sdk.Workload{NVertices: g.n, NEdges: int64(len(g.edges)), Edges: g.edges,
		Graph: results.Graph{Scale: g.scale, EdgeFactor: g.ef, NVertices: g.n, NEdges: int64(len(g.edges))}}
}

// searchAll constructs g on cfg and validates a search from every key and
// the first key again, the parent buffer poisoned before each Parents call.
func searchAll(t *testing.T, cfg sdk.Config, g *testGraph) []sdk.Search {
	t.Helper()
	v, err := plugin{}.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.Construct(g.workload()); err != nil {
		t.Fatal(err)
	}
	parents := make([]int64, g.n)
	var out []sdk.Search
	for i, root := range append(slices.Clone(g.keys), g.keys[0]) {
		s, err := v.BFS(root)
		if err != nil {
			t.Fatalf("search %d from %d: %v", i, root, err)
		}
		for k := range parents {
			parents[k] = -2
		}
		if err := v.Parents(parents); err != nil {
			t.Fatalf("parents of search %d: %v", i, err)
		}
		res, err := g.val.Validate(root, parents)
		if err != nil {
			t.Fatalf("search %d from %d (params %v): %v", i, root, cfg.Params, err)
		}
		if s.Levels != res.Levels {
			t.Errorf("root %d: %d levels reported, the tree has %d", root, s.Levels, res.Levels)
		}
		out = append(out, s)
	}
	return out
}

// levelShape is a search's frontier size per level.
func levelShape(s sdk.Search) []int64 {
	var out []int64
	for _, ph := range s.Phases {
		out = append(out, ph.Frontier)
	}
	return out
}

// TestLevelReport checks the per-level report on a 2×2 grid: frontiers,
// and the bytes of the expand and the fold, which compression and SV
// sharing shrink (alpha 0 sends bitmaps at every level, like no compression).
func TestLevelReport(t *testing.T) {
	g := newTestGraph(t, 12, 16, 2)
	run := func(params map[string]any) (expand, fold int64) {
		full, err := plugin{}.Info().CheckParams(params)
		if err != nil {
			t.Fatal(err)
		}
		cfg := sdk.Config{Backend: sdk.BackendCPU, Params: full, Ranks: 4, Grid: [2]int{2, 2}}
		for _, s := range searchAll(t, cfg, g) {
			for _, ph := range s.Phases {
				if ph.Frontier <= 0 {
					t.Fatalf("level %d has frontier %d", ph.Level, ph.Frontier)
				}
				for _, k := range []string{ubfs.PhaseKernelExpand, ubfs.PhaseWaitExpand, ubfs.PhaseKernelGather, ubfs.PhaseWaitFold} {
					if _, ok := ph.Times[k]; !ok {
						t.Fatalf("level %d has no %s time: %v", ph.Level, k, ph.Times)
					}
				}
				expand += ph.Bytes[ubfs.BytesExpand]
				fold += ph.Bytes[ubfs.BytesFold]
			}
		}
		return
	}
	e0, f0 := run(map[string]any{pCompression: false})
	e1, f1 := run(map[string]any{})
	ea, _ := run(map[string]any{pAlpha: 0.0}) // bitmaps at every level
	_, f2 := run(map[string]any{pShareSV: false})
	if ea != e0 {
		t.Errorf("expand bytes with alpha 0: %d, without compression %d", ea, e0)
	}
	if e1 >= e0 {
		t.Errorf("expand bytes %d with compression, %d without", e1, e0)
	}
	if f0 != f1 || f2 < f1 {
		t.Errorf("fold bytes: %d (bitmaps), %d (lists), %d without SV sharing", f0, f1, f2)
	}
	t.Logf("expand bytes %d → %d with compression; fold %d, %d without SV sharing", e0, e1, f1, f2)
}
