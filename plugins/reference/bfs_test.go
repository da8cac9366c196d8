package main

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// serialLevels is an independent serial BFS giving each vertex's level
// (-1 unreached), the yardstick for the level structure.
func serialLevels(edges []graph500.Edge, n, root int64) []int64 {
	adj := make([][]int64, n)
	for _, e := range edges {
		adj[e.V0] = append(adj[e.V0], e.V1)
		adj[e.V1] = append(adj[e.V1], e.V0)
	}
	lv := make([]int64, n)
	for i := range lv {
		lv[i] = -1
	}
	lv[root] = 0
	for q := []int64{root}; len(q) > 0; q = q[1:] {
		for _, w := range adj[q[0]] {
			if lv[w] < 0 {
				lv[w] = lv[q[0]] + 1
				q = append(q, w)
			}
		}
	}
	return lv
}

// levelsOf follows parent pointers to compute each vertex's depth.
func levelsOf(parents []int64, root int64) []int64 {
	lv := make([]int64, len(parents))
	for i := range lv {
		lv[i] = -2
	}
	var depth func(v int64) int64
	depth = func(v int64) int64 {
		if lv[v] != -2 {
			return lv[v]
		}
		switch {
		case parents[v] < 0:
			lv[v] = -1
		case v == root:
			lv[v] = 0
		default:
			lv[v] = depth(parents[v]) + 1
		}
		return lv[v]
	}
	for v := range parents {
		depth(int64(v))
	}
	return lv
}

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
				want := serialLevels(edges, n, root)
				got := levelsOf(parents, root)
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
