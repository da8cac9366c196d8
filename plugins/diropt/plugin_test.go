package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

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
	if len(levels) != s.Levels {
		t.Fatalf("%d level entries for %d levels", len(levels), s.Levels)
	}
	for k, ph := range levels {
		_, td := ph.Times[dobfs.PhaseExploreTD]
		_, bu := ph.Times[dobfs.PhaseExploreBU]
		if td == bu {
			t.Fatalf("level %d: want exactly one of explore_td, explore_bu: %v", k, ph.Times)
		}
		mode, _ := cfg.Params[pMode].(string)
		if (mode == dobfs.ModeTopDown && bu) || (mode == dobfs.ModeBottomUp && td) {
			t.Fatalf("level %d: direction does not follow mode %s", k, mode)
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
			if _, ok := ph.Times[dobfs.PhaseExploreBU]; ok {
				dirs = append(dirs, "bu")
			} else {
				dirs = append(dirs, "td")
			}
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
		{nil, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 14, Beta: 24, WritePred: "end"}, Order: "degree", TDBig: 1024, BUSerial: 4, BUFirst: true, BUBatch: 2, BUSkip: true, TDLane: 32, TDBatch: 4, BUCompact: 256, Threads: 256, Exchange: "auto"}},
		{map[string]any{pPreset: presetPaper}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 14, Beta: 24, WritePred: "end"}, Order: "id", BUBatch: 1, TDBatch: 1, Threads: 256, Exchange: "auto"}},
		{map[string]any{pPreset: presetPaper, pAlpha: 15.0, pBeta: 18.0, pBUSerial: int64(4)}, options{Options: dobfs.Options{Mode: "hybrid", Alpha: 15, Beta: 18, WritePred: "end"}, Order: "id", BUSerial: 4, BUBatch: 1, TDBatch: 1, Threads: 256, Exchange: "auto"}},
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
