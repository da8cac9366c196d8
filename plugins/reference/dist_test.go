package main

// dist_test.go: the distributed 1D mode, beyond the conformance suite
// (bfs_test.go), which validates it search by search.

import (
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

func TestDistributedRejectsBadRoot(t *testing.T) {
	v, err := sdk.New(plugin{}, sdk.Config{Backend: sdk.BackendCPU, Ranks: 4, Launcher: sdk.LauncherEmbedded,
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
