package main

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

func TestReferenceValidatesAndMatchesSerialLevels(t *testing.T) {
	for _, scale := range []int{6, 10, 13} {
		edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
		n := graph500.NVertices(scale)
		keys, err := graph500.SearchKeys(edges, n, 4, [2]uint64{2, 3})
		if err != nil {
			t.Fatal(err)
		}
		val := graph500.NewValidator(edges, n)
		for _, dirOpt := range []bool{false, true} {
			cfg := sdk.Config{Backend: "cpu", Ranks: 1, Params: map[string]any{
				"direction_optimizing": dirOpt, "alpha": int64(15), "beta": int64(18)}}
			v, err := plugin{}.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Construct(&sdk.Workload{NVertices: n, NEdges: int64(len(edges)), Edges: edges}); err != nil {
				t.Fatal(err)
			}
			parents := make([]int64, n)
			usedBottomUp := false
			for _, root := range keys {
				if _, err := v.BFS(root); err != nil {
					t.Fatal(err)
				}
				if err := v.Parents(parents); err != nil {
					t.Fatal(err)
				}
				if _, err := val.Validate(root, parents); err != nil {
					t.Fatalf("scale %d dirOpt %v root %d: %v", scale, dirOpt, root, err)
				}
				_, want := graph500.SerialBFS(edges, n, root)
				got := graph500.LevelsOf(parents, root)
				for i := range want {
					if want[i] != got[i] {
						t.Fatalf("scale %d dirOpt %v root %d: vertex %d at level %d, serial BFS says %d", scale, dirOpt, root, i, got[i], want[i])
					}
				}
				usedBottomUp = usedBottomUp || v.(*variant).s.bottomUpUsed
			}
			if dirOpt && scale >= 10 && !usedBottomUp {
				t.Errorf("scale %d: direction-optimizing search never went bottom-up", scale)
			}
			if !dirOpt && usedBottomUp {
				t.Errorf("scale %d: top-down-only search went bottom-up", scale)
			}
			v.Close()
		}
	}
}

// serialLevels is graph500.SerialBFS's levels.
func serialLevels(edges []graph500.Edge, n, root int64) []int64 {
	_, lv := graph500.SerialBFS(edges, n, root)
	return lv
}
