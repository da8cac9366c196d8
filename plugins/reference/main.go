// Command reference is the CPU baseline plugin of bfsbench: a parallel,
// direction-optimizing BFS in Go (bfs.go), and a distributed 1D mode over
// the communicator layer when run with more than one rank (dist.go).
package main

import (
	"errors"
	"time"

	"github.com/bfsbench/bfsbench/harness/sdk"
)

func main() { sdk.Serve(plugin{}) }

type plugin struct{}

func (plugin) Info() sdk.Info {
	return sdk.Info{
		Name:      "reference",
		Paper:     "[Beamer] (docs/papers.md), as the GAP Benchmark Suite writes it",
		Summary:   "CPU baseline: parallel top-down/bottom-up BFS over CSR, 1D-distributed over ranks",
		Backends:  []string{sdk.BackendCPU},
		MultiRank: true,
		Params: []sdk.Param{
			{Name: "direction_optimizing", Type: sdk.TypeBool, Default: true, Help: "switch to bottom-up steps on large frontiers (single rank)"},
			{Name: "alpha", Type: sdk.TypeInt, Default: int64(15), Min: sdk.Bound(1), Help: "go bottom-up when mf > mu/alpha"},
			{Name: "beta", Type: sdk.TypeInt, Default: int64(18), Min: sdk.Bound(1), Help: "go back top-down when the frontier < n/beta"},
			{Name: "threads", Type: sdk.TypeInt, Default: int64(0), Min: sdk.Bound(0), Max: sdk.Bound(4096), Help: "goroutines a search runs on (single rank): 0, all the host's cores (GOMAXPROCS); 1, one core, each level's queue in order (with direction_optimizing = false, the sequential queue BFS the edge-scan article's CPU series runs)"},
		},
		// Rough linear estimates (bytes), for the harness's memory
		// preflight: per vertex the CSR offsets and the degree count that
		// builds them (8 + 8), the parents (8), two frontier queues (4 + 4)
		// and two bitmaps; per input edge both directions of the adjacency,
		// 4 bytes each on one rank, 8 each in the 1D mode over ranks (the
		// partition's transient exchange is not counted).
		Memory: map[string]sdk.Memory{
			sdk.BackendCPU: {HostPerVertex: 40, HostPerEdge: 16},
		},
	}
}

// newDistributed is set by dist.go: the 1D-distributed mode for ranks > 1.
var newDistributed func(cfg sdk.Config) (sdk.Variant, error)

func (plugin) New(cfg sdk.Config) (sdk.Variant, error) {
	if cfg.Ranks > 1 || cfg.Launcher == "mpirun" {
		if newDistributed == nil {
			return nil, errors.New("reference: distributed mode is not built into this binary")
		}
		return newDistributed(cfg)
	}
	return &variant{s: newSearch(cfg)}, nil
}

// variant adapts search to sdk.Variant.
type variant struct{ s *search }

func (v *variant) Construct(w *sdk.Workload) error { return v.s.construct(w) }

func (v *variant) BFS(root int64) (sdk.Search, error) {
	t0 := time.Now()
	v.s.bfs(root)
	return sdk.Search{TimeS: time.Since(t0).Seconds(), Levels: v.s.levels, Phases: clonePhases(v.s.levelPhases)}, nil
}

func (v *variant) Parents(dst []int64) error {
	copy(dst, v.s.parents)
	return nil
}

func (v *variant) Close() error { v.s = nil; return nil }
