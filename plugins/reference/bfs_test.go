package main

import (
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
		Params:      []map[string]any{{"direction_optimizing": false}, {"direction_optimizing": true}},
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
