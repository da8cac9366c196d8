package main

// dist_test.go: the distributed 1D mode, in process (launcher embedded),
// validated search by search and compared with a serial BFS's levels.

import (
	"fmt"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

func TestDistributedEmbeddedValidates(t *testing.T) {
	for _, tc := range []struct{ scale, ranks int }{{8, 4}, {10, 4}, {10, 3}, {9, 16}} {
		t.Run(fmt.Sprintf("scale%d/ranks%d", tc.scale, tc.ranks), func(t *testing.T) {
			seed := [2]uint64{2, 3}
			edges := graph500.Generate(tc.scale, 16, seed)
			n := graph500.NVertices(tc.scale)
			keys, err := graph500.SearchKeys(edges, n, 4, seed)
			if err != nil {
				t.Fatal(err)
			}
			val := graph500.NewValidator(edges, n)
			cfg := sdk.Config{Backend: sdk.BackendCPU, Ranks: tc.ranks, Launcher: sdk.LauncherEmbedded,
				Params: map[string]any{"direction_optimizing": true, "alpha": int64(15), "beta": int64(18)}}
			v, err := plugin{}.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			w := &sdk.Workload{NVertices: n, NEdges: int64(len(edges)), Edges: edges,
				Graph: results.Graph{Scale: tc.scale, EdgeFactor: 16, Seed: seed, NVertices: n, NEdges: int64(len(edges))}}
			if err := v.Construct(w); err != nil {
				t.Fatal(err)
			}
			parents := make([]int64, n)
			for _, root := range keys {
				s, err := v.BFS(root)
				if err != nil {
					t.Fatal(err)
				}
				for i := range parents {
					parents[i] = -2 // poison, as the SDK does
				}
				if err := v.Parents(parents); err != nil {
					t.Fatal(err)
				}
				if _, err := val.Validate(root, parents); err != nil {
					t.Fatalf("root %d: %v", root, err)
				}
				want, got := serialLevels(edges, n, root), graph500.LevelsOf(parents, root)
				depth := int64(0)
				for i := range want {
					if want[i] != got[i] {
						t.Fatalf("root %d: vertex %d at level %d, serial BFS says %d", root, i, got[i], want[i])
					}
					depth = max(depth, want[i])
				}
				if s.Levels != int(depth)+1 || len(s.Phases) != s.Levels || s.TimeS <= 0 {
					t.Errorf("root %d: %d levels, %d phases, time %v; want %d levels", root, s.Levels, len(s.Phases), s.TimeS, depth+1)
				}
			}
		})
	}
}

func TestDistributedRejectsBadRoot(t *testing.T) {
	v, err := plugin{}.New(sdk.Config{Backend: sdk.BackendCPU, Ranks: 4, Launcher: sdk.LauncherEmbedded,
		Params: map[string]any{"direction_optimizing": true, "alpha": int64(15), "beta": int64(18)}})
	if err != nil {
		t.Fatal(err)
	}
	edges := graph500.Generate(6, 16, [2]uint64{2, 3})
	if err := v.Construct(&sdk.Workload{NVertices: 64, NEdges: int64(len(edges)), Edges: edges}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.BFS(64); err == nil {
		t.Fatal("root 64 of 64 vertices accepted")
	}
	v.Close()
}
