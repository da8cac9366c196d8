package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
	"github.com/bfsbench/bfsbench/plugins/diropt/dobfs"
)

// searchAll runs sdktest.SearchAll on diropt, checking each search's
// per-level report (checkPhases).
func searchAll(t *testing.T, cfg sdk.Config, g *sdktest.Graph) []sdk.Search {
	t.Helper()
	return sdktest.SearchAll(t, plugin{}, cfg, g, func(s sdk.Search) { checkPhases(t, s, cfg) })
}

// direction is a level's explore phase (its direction), or "" where it
// has none or more than one.
func direction(ph results.LevelPhase) string {
	dir := ""
	for _, k := range []string{dobfs.PhaseExploreTD, dobfs.PhaseExploreBU, dobfs.PhaseExploreSplit} {
		if _, ok := ph.Times[k]; ok {
			if dir != "" {
				return ""
			}
			dir = k
		}
	}
	return dir
}

// checkPhases checks the per-level report: one entry per level, its
// direction as the explore phase's name, the frontier sizes summing to the
// reached vertices, and the 2D phases on 2D grids.
func checkPhases(t *testing.T, s sdk.Search, cfg sdk.Config) {
	t.Helper()
	twoD := cfg.Ranks > 1
	levels := s.Phases
	if twoD && cfg.Params[pWritePred] != dobfs.WritePredLevel {
		last := levels[len(levels)-1]
		if _, ok := last.Times[dobfs.PhaseWritePred]; !ok || last.Level != s.Levels {
			t.Fatalf("no WritePred entry after the levels: %+v", last)
		}
		levels = levels[:len(levels)-1]
	}
	// With leaves (1×1) the tree may end with a level of leaves below the
	// loop's last level, which has no entry of its own (dobfs/leaves.go).
	leaves := cfg.Params[pLeaves] == true && !twoD
	if len(levels) != s.Levels && !(leaves && len(levels) == s.Levels-1) {
		t.Fatalf("%d level entries for %d levels", len(levels), s.Levels)
	}
	for k, ph := range levels {
		dir := direction(ph)
		if dir == "" {
			t.Fatalf("level %d: want exactly one of explore_td, explore_bu, explore_split: %v", k, ph.Times)
		}
		mode, _ := cfg.Params[pMode].(string)
		if (mode == dobfs.ModeTopDown && dir != dobfs.PhaseExploreTD) || (mode == dobfs.ModeBottomUp && dir != dobfs.PhaseExploreBU) {
			t.Fatalf("level %d: direction %s does not follow mode %s", k, dir, mode)
		}
		if dir == dobfs.PhaseExploreSplit && (k != dobfs.SplitLevel || twoD) {
			t.Fatalf("level %d: a split level on %v (only level %d of a 1×1 grid may be)", k, cfg.Grid, dobfs.SplitLevel)
		}
		if _, ok := ph.Bytes[dobfs.CountEdgesExamined]; !ok {
			t.Fatalf("level %d: no %s", k, dobfs.CountEdgesExamined)
		}
		if ph.Frontier <= 0 {
			t.Fatalf("level %d: frontier %d", k, ph.Frontier)
		}
		if twoD {
			keys := []string{dobfs.PhaseRowExchange, dobfs.PhaseColumnExchange}
			if cfg.Backend == sdk.BackendCPU {
				// The host loop times WritePred apart; the device loop
				// (CUDA, device exchanges) counts a per-level WritePred
				// in the column exchange.
				keys = append(keys, dobfs.PhaseWritePred)
			}
			for _, key := range keys {
				if _, ok := ph.Times[key]; !ok {
					t.Fatalf("level %d: no %s time", k, key)
				}
			}
		}
	}
	if s.BoundBytes <= 0 {
		t.Errorf("bound bytes %d", s.BoundBytes)
	}
}

// TestCPU covers the CPU backend over grids, modes, scales and edge
// factors, validating every search.
func TestCPU(t *testing.T) {
	type tc struct {
		grid      [2]int
		scale, ef int
		params    map[string]any
	}
	var cases []tc
	for _, grid := range [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}} {
		for _, mode := range []string{dobfs.ModeHybrid, dobfs.ModeTopDown, dobfs.ModeBottomUp} {
			cases = append(cases, tc{grid, 10, 16, map[string]any{pMode: mode}})
		}
		cases = append(cases,
			tc{grid, 8, 4, nil},
			tc{grid, 12, 4, map[string]any{pPreset: presetPaper}},
			tc{grid, 12, 16, map[string]any{pWritePred: dobfs.WritePredLevel, pOrder: dobfs.OrderID}},
		)
	}
	cases = append(cases,
		tc{[2]int{1, 1}, 14, 16, nil},
		tc{[2]int{1, 1}, 12, 16, map[string]any{pLeaves: false}},
		tc{[2]int{1, 1}, 12, 4, map[string]any{pPreset: presetPaper, pLeaves: true}},
		tc{[2]int{2, 2}, 12, 16, map[string]any{pLeaves: true}}, // ignored on 2D
		tc{[2]int{2, 2}, 14, 16, map[string]any{pWritePred: dobfs.WritePredLevel}},
		tc{[2]int{1, 3}, 9, 8, nil}, // blocks not a multiple of 32 vertices
		tc{[2]int{3, 1}, 9, 8, map[string]any{pMode: dobfs.ModeBottomUp}},
	)
	graphs := map[[2]int]*sdktest.Graph{}
	for _, c := range cases {
		name := fmt.Sprintf("%dx%d/scale%d-ef%d/%v", c.grid[0], c.grid[1], c.scale, c.ef, c.params)
		t.Run(strings.ReplaceAll(name, " ", ","), func(t *testing.T) {
			g := graphs[[2]int{c.scale, c.ef}]
			if g == nil {
				g = sdktest.NewGraph(t, c.scale, c.ef, 4)
				graphs[[2]int{c.scale, c.ef}] = g
			}
			params, err := plugin{}.Info().CheckParams(c.params)
			if err != nil {
				t.Fatal(err)
			}
			cfg := sdk.Config{Backend: sdk.BackendCPU, Params: params, Ranks: c.grid[0] * c.grid[1], Grid: c.grid}
			searchAll(t, cfg, g)
		})
	}
}

// TestHybridSwitches checks that the hybrid mode runs both directions on a
// Kronecker graph (top-down first, bottom-up in the middle) and examines
// fewer edges than top-down alone.
func TestHybridSwitches(t *testing.T) {
	g := sdktest.NewGraph(t, 14, 16, 2)
	examined := func(mode string) (int64, []string) {
		params, _ := plugin{}.Info().CheckParams(map[string]any{pMode: mode})
		ss := searchAll(t, sdk.Config{Backend: sdk.BackendCPU, Params: params, Ranks: 1}, g)
		var total int64
		var dirs []string
		for _, ph := range ss[0].Phases {
			total += ph.Bytes[dobfs.CountEdgesExamined]
			dirs = append(dirs, strings.TrimPrefix(direction(ph), "explore_"))
		}
		return total, dirs
	}
	hy, dirs := examined(dobfs.ModeHybrid)
	td, _ := examined(dobfs.ModeTopDown)
	if dirs[0] != "td" || !slices.Contains(dirs, "bu") {
		t.Errorf("hybrid directions %v: want top-down first and some bottom-up", dirs)
	}
	if hy >= td {
		t.Errorf("hybrid examined %d edges, top-down %d", hy, td)
	}
	t.Logf("directions %v; edges examined: hybrid %d, top-down %d", dirs, hy, td)
}

func TestRejectsBadConfigs(t *testing.T) {
	for name, cfg := range map[string]sdk.Config{
		"grid mismatch":   {Backend: sdk.BackendCPU, Ranks: 4, Grid: [2]int{1, 2}},
		"bad backend":     {Backend: "opencl", Ranks: 1},
		"bad mode":        {Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{pMode: "sideways"}},
		"bad td_big":      {Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{pTDBig: int64(8)}},
		"td_batch 2":      {Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{pTDBatch: int64(2)}},
		"bu_compact 2048": {Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{pBUCompact: int64(2048)}},
		"bad threads":     {Backend: sdk.BackendCUDA, Ranks: 1, Params: map[string]any{pThreads: int64(100)}},
		"bad preset":      {Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{pPreset: "fast"}},
		"bu_batch 0":      {Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{pBUBatch: int64(0)}},
		"bu_batch 4":      {Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{pBUBatch: int64(4)}},
		"split_help 16":   {Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{pSplitHelp: int64(16)}},
		"split_help 64":   {Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{pSplitHelp: int64(64)}},
		"bu_queue -1":     {Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{pBUQueue: int64(-1)}},
	} {
		if v, err := sdk.New(plugin{}, cfg); err == nil {
			v.Close()
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestPresets(t *testing.T) {
	for _, tc := range []struct {
		params map[string]any
		want   options
	}{
		{nil, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 3, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, GateClock: true, DevEnd: true, LoopGraph: true, DevClock: true, ResetStmp: true, PredLines: true, L2Window: true, TDIDs: true, SplitHelp: 32, BUQueue: 2, DegPacked: true, Threads: 256, Exchange: "auto"}},
		// loop_graph off: the gated start launched on the stream.
		{map[string]any{pLoopGraph: false}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 3, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, GateClock: true, DevEnd: true, DevClock: true, ResetStmp: true, PredLines: true, L2Window: true, TDIDs: true, SplitHelp: 32, BUQueue: 2, DegPacked: true, Threads: 256, Exchange: "auto"}},
		// dev_end is a form of gate_clock and reset_stamp: unused without either.
		{map[string]any{pResetStmp: false}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 3, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, GateClock: true, DevClock: true, PredLines: true, L2Window: true, TDIDs: true, SplitHelp: 32, BUQueue: 2, DegPacked: true, Threads: 256, Exchange: "auto"}},
		{map[string]any{pGateClock: false}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 3, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, DevClock: true, ResetStmp: true, PredLines: true, L2Window: true, TDIDs: true, SplitHelp: 32, BUQueue: 2, DegPacked: true, Threads: 256, Exchange: "auto"}},
		// gate_clock is a form of the gated start: unused without it.
		{map[string]any{pGated: false}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 3, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, DevClock: true, ResetStmp: true, PredLines: true, L2Window: true, TDIDs: true, SplitHelp: 32, BUQueue: 2, DegPacked: true, Threads: 256, Exchange: "auto"}},
		{map[string]any{pSplitHelp: int64(0)}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 3, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, GateClock: true, DevEnd: true, LoopGraph: true, DevClock: true, ResetStmp: true, PredLines: true, L2Window: true, TDIDs: true, BUQueue: 2, DegPacked: true, Threads: 256, Exchange: "auto"}},
		// bu_queue is an instance of bu_batch 2 with the warp's help (below:
		// unused without either) and of no level bu_deg's instance runs.
		{map[string]any{pBUQueue: int64(3)}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 3, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, GateClock: true, DevEnd: true, LoopGraph: true, DevClock: true, ResetStmp: true, L2Window: true, TDIDs: true, SplitHelp: 32, DegPacked: true, Threads: 256, Exchange: "auto"}},
		{map[string]any{pBUDeg: int64(0), pBUQueue: int64(3)}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 0, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, GateClock: true, DevEnd: true, LoopGraph: true, DevClock: true, ResetStmp: true, PredLines: true, L2Window: true, TDIDs: true, SplitHelp: 32, BUQueue: 3, Threads: 256, Exchange: "auto"}},
		// bu_deg_packed (tuned on) is a form of bu_deg's instance with
		// bu_batch 2 and the warp's help: off, and unused without them.
		{map[string]any{pDegPacked: false}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 3, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, GateClock: true, DevEnd: true, LoopGraph: true, DevClock: true, ResetStmp: true, PredLines: true, L2Window: true, TDIDs: true, SplitHelp: 32, BUQueue: 2, Threads: 256, Exchange: "auto"}},
		{map[string]any{pDegPacked: true, pBUDeg: int64(0)}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 0, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, GateClock: true, DevEnd: true, LoopGraph: true, DevClock: true, ResetStmp: true, PredLines: true, L2Window: true, TDIDs: true, SplitHelp: 32, BUQueue: 2, Threads: 256, Exchange: "auto"}},
		{map[string]any{pDegPacked: true, pBUBatch: int64(1)}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 3, BUBatch: 1, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, GateClock: true, DevEnd: true, LoopGraph: true, DevClock: true, ResetStmp: true, L2Window: true, TDIDs: true, Threads: 256, Exchange: "auto"}},
		// split_help is an instance of bu_batch 2 with the warp's help:
		// unused (0) without either.
		{map[string]any{pBUBatch: int64(1)}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUDeg: 3, BUBatch: 1, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, GateClock: true, DevEnd: true, LoopGraph: true, DevClock: true, ResetStmp: true, L2Window: true, TDIDs: true, Threads: 256, Exchange: "auto"}},
		{map[string]any{pBUSerial: int64(0)}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 24, Beta: 2000, WritePred: "end", Leaves: true, Split: 64, SplitFrom: 60, SplitTo: 9}, Order: "degree", TDBig: 1024, BUSerial: 0, BUFirst: true, BUDeg: 3, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, TDEager: 3, BUCompact: 256, PDL: true, Gated: true, GateClock: true, DevEnd: true, LoopGraph: true, DevClock: true, ResetStmp: true, L2Window: true, TDIDs: true, Threads: 256, Exchange: "auto"}},
		{map[string]any{pPreset: presetPaper}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 14, Beta: 24, WritePred: "end", SplitFrom: 60, SplitTo: 9}, Order: "id", BUBatch: 1, TDBatch: 1, Threads: 256, Exchange: "auto"}},
		{map[string]any{pPreset: presetPaper, pAlpha: 15.0, pBeta: 18.0, pBUSerial: int64(4)}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 15, Beta: 18, WritePred: "end", SplitFrom: 60, SplitTo: 9}, Order: "id", BUSerial: 4, BUBatch: 1, TDBatch: 1, Threads: 256, Exchange: "auto"}},
	} {
		params, err := plugin{}.Info().CheckParams(tc.params)
		if err != nil {
			t.Fatal(err)
		}
		got, err := parseOptions(sdk.Config{Params: params})
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%v: got %+v, want %+v", tc.params, got, tc.want)
		}
	}
}

// TestCPUUnalignedBlocks runs the 2D grids on a graph whose vertex count
// is odd, so that no vertex block starts on a 32-bit word: the bitmap
// extraction and placement of the column exchange at unaligned offsets.
func TestCPUUnalignedBlocks(t *testing.T) {
	g := sdktest.NewGraph(t, 12, 16, 3).Truncated(t, 7)
	for _, grid := range [][2]int{{1, 2}, {2, 1}, {2, 2}} {
		full, err := plugin{}.Info().CheckParams(nil)
		if err != nil {
			t.Fatal(err)
		}
		searchAll(t, sdk.Config{Backend: sdk.BackendCPU, Params: full, Ranks: grid[0] * grid[1], Grid: grid}, g)
	}
}

// leafGraph is a small graph of the shapes the leaves step must get right
// (dobfs/leaves.go), searched from every vertex with a neighbour: leaves
// at the deepest level (the ends of a path), a star of leaves, two leaves
// joined only to each other, a leaf left by a dropped self-loop or a
// dropped duplicate edge, a component the root does not reach, and
// isolated vertices.
func leafGraph(t *testing.T) *sdktest.Graph {
	t.Helper()
	type e = graph500.Edge
	edges := []e{
		{V0: 0, V1: 1}, {V0: 1, V1: 2}, {V0: 2, V1: 3}, {V0: 3, V1: 4}, // a path: 0 and 4 are leaves
		{V0: 10, V1: 11}, {V0: 10, V1: 12}, {V0: 13, V1: 10}, {V0: 10, V1: 1}, // a star hung on the path
		{V0: 20, V1: 21},                                                       // two leaves
		{V0: 30, V1: 31}, {V0: 31, V1: 32}, {V0: 32, V1: 30}, {V0: 32, V1: 33}, // a triangle with a leaf
		{V0: 40, V1: 40}, {V0: 40, V1: 41}, // 40's self-loop is dropped: two leaves
		{V0: 50, V1: 51}, {V0: 51, V1: 50}, {V0: 51, V1: 52}, {V0: 52, V1: 53}, {V0: 53, V1: 51}, // 50: a duplicate
		{V0: 60, V1: 61}, {V0: 61, V1: 62}, {V0: 62, V1: 63}, {V0: 63, V1: 64}, {V0: 64, V1: 65}, {V0: 65, V1: 66},
		{V0: 66, V1: 67}, {V0: 67, V1: 68}, {V0: 68, V1: 69}, {V0: 69, V1: 70}, {V0: 70, V1: 71}, // a longer path
	}
	const n = 100
	g := sdktest.GraphOf(t, edges, n, 1)
	g.Keys = nil
	deg := make([]int, n)
	for _, x := range edges {
		if x.V0 != x.V1 {
			deg[x.V0]++
			deg[x.V1]++
		}
	}
	for v := range deg {
		if deg[v] > 0 {
			g.Keys = append(g.Keys, int64(v))
		}
	}
	return g
}

// TestLeaves checks the leaves step on the CPU backend (the CUDA backend:
// TestCUDALeaves) from every root of leafGraph: every search validates, its
// levels are the serial BFS's and the reported level count is the tree's
// (sdktest.SearchAll), and the level loop runs the same levels as without
// the step, or one fewer where the last level held only leaves.
func TestLeaves(t *testing.T) {
	g := leafGraph(t)
	for _, mode := range []string{dobfs.ModeHybrid, dobfs.ModeTopDown, dobfs.ModeBottomUp} {
		t.Run(mode, func(t *testing.T) {
			var runs [2][]sdk.Search
			for k, leaves := range []bool{false, true} {
				params, err := plugin{}.Info().CheckParams(map[string]any{pMode: mode, pLeaves: leaves})
				if err != nil {
					t.Fatal(err)
				}
				runs[k] = searchAll(t, sdk.Config{Backend: sdk.BackendCPU, Params: params, Ranks: 1, Grid: [2]int{1, 1}}, g)
			}
			shorter := 0
			for i := range runs[0] {
				without, with := runs[0][i], runs[1][i]
				if len(with.Phases) < len(without.Phases) {
					shorter++
				}
				if with.Levels != without.Levels {
					t.Errorf("root %d: %d levels with leaves, %d without", g.Keys[i%len(g.Keys)], with.Levels, without.Levels)
				}
				// The byte bound counts the vertices reached: the leaves'
				// pass must count those it gives parents, the root once.
				if with.BoundBytes != without.BoundBytes {
					t.Errorf("root %d: byte bound %d with leaves, %d without (a miscount of the vertices reached)", g.Keys[i%len(g.Keys)], with.BoundBytes, without.BoundBytes)
				}
				if d := len(without.Phases) - len(with.Phases); d != 0 && d != 1 {
					t.Errorf("root %d: the loop ran %d levels with leaves, %d without", g.Keys[i%len(g.Keys)], len(with.Phases), len(without.Phases))
				}
			}
			if shorter == 0 {
				t.Errorf("no search ran fewer levels with leaves: the graph's deepest leaves were not left out")
			}
		})
	}
}

// TestSplit runs the split level (dobfs/split.go) on the CPU backend with
// its window wide open, so that a search whose level 1 is top-down runs
// level 2 split (unless its m_f exceeds 1000 m_u), for degree bounds from none of the rows (1: only
// the isolated ones are below it) to all of them: each search validates,
// level 2 is split, and every level finds the vertices and m_f of the
// same search without the split (the level structure but level 2's
// direction).
func TestSplit(t *testing.T) {
	g := sdktest.NewGraph(t, 14, 16, 4)
	shape := func(s sdk.Search) []string {
		var out []string
		for _, ph := range s.Phases {
			out = append(out, fmt.Sprintf("%d:%d", ph.Frontier, ph.Bytes[dobfs.CountFrontierEdges]))
		}
		return out
	}
	run := func(params map[string]any) []sdk.Search {
		full, err := plugin{}.Info().CheckParams(params)
		if err != nil {
			t.Fatal(err)
		}
		return searchAll(t, sdk.Config{Backend: sdk.BackendCPU, Params: full, Ranks: 1}, g)
	}
	plain := run(map[string]any{pSplit: int64(0)})
	for _, d := range []int64{1, 4, 64, 1 << 20} {
		t.Run(fmt.Sprint(d), func(t *testing.T) {
			split := run(map[string]any{pSplit: d, pSplitFrom: 1e12, pSplitTo: 1e-3})
			var splits int
			for k, s := range split {
				if a, b := shape(plain[k]), shape(s); fmt.Sprint(a) != fmt.Sprint(b) {
					t.Errorf("search %d: levels %v with the split, %v without", k, b, a)
				}
				if len(s.Phases) > dobfs.SplitLevel && direction(s.Phases[dobfs.SplitLevel-1]) == dobfs.PhaseExploreTD {
					// bottom-up only where m_f > 1000 m_u; never top-down
					switch dir := direction(s.Phases[dobfs.SplitLevel]); dir {
					case dobfs.PhaseExploreSplit:
						splits++
					case dobfs.PhaseExploreTD:
						t.Errorf("search %d: level %d %s, want split or bottom-up", k, dobfs.SplitLevel, dir)
					}
				}
			}
			if splits == 0 {
				t.Fatal("no search ran a split level")
			}
		})
	}
}
