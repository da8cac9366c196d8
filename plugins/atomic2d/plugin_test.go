package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/plugins/atomic2d/bfs2d"
)

// TestPluginCPUGrids drives the plugin as the harness does (New, Construct
// with the whole edge list, BFS, Parents) on the CPU backend through
// sdk.NewDistributed, and validates every search.
func TestPluginCPUGrids(t *testing.T) {
	for _, tc := range []struct {
		ranks int
		grid  [2]int
	}{{1, [2]int{0, 0}}, {2, [2]int{1, 2}}, {2, [2]int{2, 1}}, {4, [2]int{2, 2}}, {4, [2]int{0, 0}}} {
		for scale := 8; scale <= 12; scale += 2 {
			t.Run(fmt.Sprintf("ranks%d_grid%dx%d/scale%d", tc.ranks, tc.grid[0], tc.grid[1], scale), func(t *testing.T) {
				edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
				nv := graph500.NVertices(scale)
				keys, err := graph500.SearchKeys(edges, nv, 4, [2]uint64{2, 3})
				if err != nil {
					t.Fatal(err)
				}
				cfg := sdk.Config{Backend: sdk.BackendCPU, Params: map[string]any{"edges_per_thread": int64(3)}, Ranks: tc.ranks, Grid: tc.grid}
				v, err := plugin{}.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				defer v.Close()
				if err := v.Construct(&sdk.Workload{NVertices: nv, NEdges: int64(len(edges)), Edges: edges}); err != nil {
					t.Fatal(err)
				}
				info := v.(sdk.Informer).CaseInfo()
				if b, _ := info["bytes_fixed_per_bfs"].(int64); b < 4*int64(len(edges)) {
					t.Errorf("bound bytes %d below the row indices alone (%d)", b, 4*len(edges))
				}
				val := graph500.NewValidator(edges, nv)
				parents := make([]int64, nv)
				for _, root := range keys {
					s, err := v.BFS(root)
					if err != nil {
						t.Fatal(err)
					}
					if err := v.Parents(parents); err != nil {
						t.Fatal(err)
					}
					res, err := val.Validate(root, parents)
					if err != nil {
						t.Fatalf("root %d: %v", root, err)
					}
					if s.Levels != res.Levels {
						t.Errorf("root %d: %d levels reported, the tree has %d", root, s.Levels, res.Levels)
					}
					checkPhaseKeys(t, s.Phases)
				}
			})
		}
	}
}

func checkPhaseKeys(t *testing.T, phases []results.LevelPhase) {
	t.Helper()
	for _, ph := range phases[:len(phases)-1] {
		for _, k := range []string{bfs2d.PhaseExpandExchange, bfs2d.PhaseExpansion, bfs2d.PhaseFoldExchange, bfs2d.PhaseUpdate} {
			if _, ok := ph.Times[k]; !ok {
				t.Fatalf("level %d has no %q time", ph.Level, k)
			}
		}
		for _, k := range []string{bfs2d.BytesExpand, bfs2d.BytesFold} {
			if _, ok := ph.Bytes[k]; !ok {
				t.Fatalf("level %d has no %q bytes", ph.Level, k)
			}
		}
	}
}

func TestPluginRejectsBadConfigs(t *testing.T) {
	cases := map[string]struct {
		cfg  sdk.Config
		want string // a substring of the error ("" : any error)
	}{
		"grid mismatch":   {cfg: sdk.Config{Backend: sdk.BackendCPU, Ranks: 4, Grid: [2]int{1, 2}}},
		"bad backend":     {cfg: sdk.Config{Backend: "opencl", Ranks: 1}},
		"bad k":           {cfg: sdk.Config{Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{"edges_per_thread": int64(9)}}},
		"bad bitmap mode": {cfg: sdk.Config{Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{"bitmap_messages": "sometimes"}}},
		"bad threads":     {cfg: sdk.Config{Backend: sdk.BackendCUDA, Ranks: 1, Params: map[string]any{"threads_per_block": int64(100)}}},
		"bad visited test": {cfg: sdk.Config{Backend: sdk.BackendCUDA, Ranks: 1, Params: map[string]any{"visited_test": "l3"}},
			want: `parameter "visited_test": want one of [l1 l2], got "l3"`},
		"visited test not a string": {cfg: sdk.Config{Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{"visited_test": int64(2)}},
			want: `parameter "visited_test": want a string`},
		"bad append": {cfg: sdk.Config{Backend: sdk.BackendCUDA, Ranks: 1, Params: map[string]any{"append": "grid"}},
			want: `parameter "append": want one of [block warp], got "grid"`},
	}
	for name, tc := range cases {
		v, err := (plugin{}).New(tc.cfg)
		if err == nil {
			v.Close()
			t.Errorf("%s: accepted", name)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q does not say %q", name, err, tc.want)
		}
	}
}

// TestParseOptions: each parameter reaches bfs2d.Options, defaults
// included (visited_test resolves to l2).
func TestParseOptions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params map[string]any
		want   bfs2d.Options
	}{
		{"defaults", nil, bfs2d.Options{EdgesPerThread: 4, BitmapMessages: bfs2d.BitmapAuto, VisitedTest: bfs2d.VisitedL1, Append: bfs2d.AppendBlock}},
		{"visited l1", map[string]any{"visited_test": "l1"}, bfs2d.Options{EdgesPerThread: 4, BitmapMessages: bfs2d.BitmapAuto, VisitedTest: bfs2d.VisitedL1, Append: bfs2d.AppendBlock}},
		{"visited l2", map[string]any{"visited_test": "l2", "edges_per_thread": int64(2)}, bfs2d.Options{EdgesPerThread: 2, BitmapMessages: bfs2d.BitmapAuto, VisitedTest: bfs2d.VisitedL2, Append: bfs2d.AppendBlock}},
		{"append warp", map[string]any{"append": "warp"}, bfs2d.Options{EdgesPerThread: 4, BitmapMessages: bfs2d.BitmapAuto, VisitedTest: bfs2d.VisitedL1, Append: bfs2d.AppendWarp}},
	} {
		o, err := parseOptions(sdk.Config{Params: tc.params})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if o.Options != tc.want {
			t.Errorf("%s: options %+v, want %+v", tc.name, o.Options, tc.want)
		}
	}
	if p, _ := (plugin{}).Info().Param("visited_test"); p.Default != bfs2d.VisitedL1 {
		t.Errorf("visited_test default %v, want %q", p.Default, bfs2d.VisitedL1)
	}
}

// TestPluginCPUVisitedTest: the CPU backend accepts both visited_test
// modes (and ignores them): valid searches either way.
func TestPluginCPUVisitedTest(t *testing.T) {
	edges := graph500.Generate(8, 16, [2]uint64{2, 3})
	nv := graph500.NVertices(8)
	keys, err := graph500.SearchKeys(edges, nv, 2, [2]uint64{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	val := graph500.NewValidator(edges, nv)
	for _, mode := range []string{bfs2d.VisitedL1, bfs2d.VisitedL2} {
		v, err := plugin{}.New(sdk.Config{Backend: sdk.BackendCPU, Ranks: 2, Grid: [2]int{1, 2}, Params: map[string]any{"visited_test": mode}})
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if err := v.Construct(&sdk.Workload{NVertices: nv, NEdges: int64(len(edges)), Edges: edges}); err != nil {
			v.Close()
			t.Fatalf("%s: %v", mode, err)
		}
		parents := make([]int64, nv)
		for _, root := range keys {
			if _, err := v.BFS(root); err != nil {
				t.Fatalf("%s: %v", mode, err)
			}
			if err := v.Parents(parents); err != nil {
				t.Fatalf("%s: %v", mode, err)
			}
			if _, err := val.Validate(root, parents); err != nil {
				t.Errorf("%s: root %d: %v", mode, root, err)
			}
		}
		if err := v.Close(); err != nil {
			t.Errorf("%s: close: %v", mode, err)
		}
	}
}

// TestCUDAWithoutLibraryFails: where libatomic2d.so or a GPU is missing,
// the CUDA backend fails Construct with an error (no panic, no hang).
func TestCUDAWithoutLibraryFails(t *testing.T) {
	if _, err := bfs2d.DeviceCount(); err == nil {
		t.Skip("a CUDA device is present")
	}
	edges := graph500.Generate(6, 8, [2]uint64{2, 3})
	for _, ranks := range []int{1, 2} {
		v, err := plugin{}.New(sdk.Config{Backend: sdk.BackendCUDA, Ranks: ranks})
		if err != nil {
			t.Fatal(err)
		}
		err = v.Construct(&sdk.Workload{NVertices: 64, NEdges: int64(len(edges)), Edges: edges})
		if err == nil {
			t.Fatalf("ranks %d: CUDA construct succeeded without a device", ranks)
		}
		t.Logf("ranks %d: %v", ranks, err)
		if cerr := v.Close(); cerr != nil && !errors.Is(cerr, err) {
			t.Logf("close after failure: %v", cerr)
		}
	}
}
