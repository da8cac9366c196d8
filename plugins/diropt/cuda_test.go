package main

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
	"github.com/bfsbench/bfsbench/plugins/diropt/dobfs"
)

// TestMain points the CUDA loader at the repository's lib/.
func TestMain(m *testing.M) {
	sdktest.UseRepoLib()
	os.Exit(m.Run())
}

// needCUDA skips the test where the CUDA backend cannot run.
func needCUDA(t *testing.T) { sdktest.NeedCUDA(t, dobfs.DeviceCount) }

// levelShape is one search's level structure: per level the frontier size,
// its edges (m_f, which the switching rule reads: a wrong degree, e.g. a
// row's degree byte taken for its degree where it is saturated, shows here
// even where no direction changes) and the direction.
func levelShape(s sdk.Search) []string {
	var out []string
	for _, ph := range s.Phases {
		if ph.Frontier == 0 {
			continue // the WritePred entry after the levels
		}
		out = append(out, fmt.Sprintf("%d:%d:%s", ph.Frontier, ph.Bytes[dobfs.CountFrontierEdges], direction(ph)))
	}
	return out
}

// checkLevelsEnd checks a 1×1 CUDA search's device-loop accounting: one
// event a level, so no level has a gap and each level's time is positive
// (level 0's includes the reset and the loop's start), the last level has
// the end, and levels and end tile the search's time. With dev_clock (the
// levels after level 0 by the device's stamps, the end the search's time
// less the levels') the tiling holds by construction, and an end above
// -1 µs is the check that the stamps and the events agree: the search's
// CUDA events less the device's stamps of its levels, the end is exact
// only to the events' resolution (about 0.5 µs each, CUDA's
// cudaEventElapsedTime), and where nothing follows the last decision
// (the paper preset with dev_clock: no gate, no leaves) it was measured
// at -0.54 µs on an H200.
func checkLevelsEnd(t *testing.T, k int, s sdk.Search) {
	t.Helper()
	if len(s.Phases) == 0 {
		t.Fatalf("search %d: no phases", k)
	}
	var sum float64
	for _, ph := range s.Phases {
		if gap, ok := ph.Times[dobfs.PhaseGap]; ok {
			t.Errorf("search %d level %d: gap %v, want none on 1×1 (one event a level)", k, ph.Level, gap)
		}
		var level float64
		for _, x := range ph.Times {
			level += x
		}
		if level <= 0 {
			t.Errorf("search %d level %d: time %v s, want > 0", k, ph.Level, level)
		}
		sum += level
	}
	end, ok := s.Phases[len(s.Phases)-1].Times[dobfs.PhaseEnd]
	if !ok || end <= -1e-6 {
		t.Errorf("search %d: end %v (present %v), want the time after the last level", k, end, ok)
	}
	// The events tile the search (the start, each level's end, then the
	// search's end), up to their resolution.
	if math.Abs(sum-s.TimeS) > 0.02*s.TimeS+20e-6 {
		t.Errorf("search %d: phases sum to %v s, the search took %v s", k, sum, s.TimeS)
	}
}

// TestCUDAMatchesCPU checks that the CUDA backend's searches validate and
// have the CPU backend's level structure (levels, vertices and their edges
// per level and, since the switching rule sees the same counts, the same
// directions).
func TestCUDAMatchesCPU(t *testing.T) {
	needCUDA(t)
	for _, grid := range [][2]int{{1, 1}, {2, 2}} {
		for _, params := range []map[string]any{
			{}, {pPreset: presetPaper}, {pMode: dobfs.ModeTopDown}, {pMode: dobfs.ModeBottomUp},
			{pBUSerial: int64(1), pTDBig: int64(32), pWritePred: dobfs.WritePredLevel},
			{pBUFirst: false, pBUBatch: int64(1)}, {pPreset: presetPaper, pBUFirst: true}, {pMode: dobfs.ModeBottomUp, pBUFirst: false},
			{pBUBatch: int64(1)}, {pPreset: presetPaper, pBUBatch: int64(2)}, {pMode: dobfs.ModeBottomUp, pBUSerial: int64(64)},
			{pBUSkip: false}, {pPreset: presetPaper, pBUSkip: true}, {pMode: dobfs.ModeBottomUp, pBUSkip: true, pBUBatch: int64(1)},
			{pTDLane: int64(0)}, {pPreset: presetPaper, pTDLane: int64(32)}, {pMode: dobfs.ModeTopDown, pTDLane: int64(1), pTDBig: int64(0)},
			{pMode: dobfs.ModeTopDown, pTDLane: int64(1024), pTDBatch: int64(1)}, {pTDBatch: int64(1)}, {pMode: dobfs.ModeTopDown, pTDBatch: int64(4), pTDBig: int64(0)},
			// td_eager (tuned 2): off; every level's visits eager (top-down
			// throughout, with and without the long lists' queue, and td_batch
			// 1); the paper's top-down with the long lists' visits eager.
			{pTDEager: int64(0)}, {pMode: dobfs.ModeTopDown, pTDEager: int64(1 << 20)},
			{pMode: dobfs.ModeTopDown, pTDEager: int64(1 << 20), pTDBig: int64(0), pTDBatch: int64(1)},
			{pPreset: presetPaper, pTDBig: int64(64), pTDEager: int64(3)},
			{pBUCompact: int64(1024)}, {pMode: dobfs.ModeBottomUp, pBUCompact: int64(128)}, {pBUCompact: int64(1024), pBUFirst: false, pBUBatch: int64(1)},
			{pBUCompact: int64(64), pBUSerial: int64(0), pThreads: int64(1024)},
			{pLeaves: false}, {pPreset: presetPaper, pLeaves: true}, {pMode: dobfs.ModeTopDown, pLeaves: false},
			{pPDL: false}, {pPreset: presetPaper, pPDL: true}, {pMode: dobfs.ModeBottomUp, pPDL: false},
			{pGated: false}, {pPreset: presetPaper, pGated: true}, {pMode: dobfs.ModeBottomUp, pGated: false},
			{pGateClock: false}, {pPreset: presetPaper, pGated: true, pGateClock: true},
			{pDevClock: false}, {pPreset: presetPaper, pDevClock: true}, {pMode: dobfs.ModeBottomUp, pDevClock: false},
			{pL2Window: false}, {pPreset: presetPaper, pL2Window: true},
			{pTDIDs: false}, {pPreset: presetPaper, pOrder: dobfs.OrderDegree, pTDIDs: true}, {pMode: dobfs.ModeTopDown, pTDIDs: false},
			{pBUDeg: int64(0)}, {pPreset: presetPaper, pBUFirst: true, pBUSkip: true, pBUDeg: int64(3)}, {pMode: dobfs.ModeBottomUp, pBUDeg: int64(1)},
			{pMode: dobfs.ModeBottomUp, pBUDeg: int64(2), pBUBatch: int64(1), pBUSerial: int64(0)}, {pMode: dobfs.ModeBottomUp, pBUDeg: int64(2), pBUCompact: int64(1024)},
			// bu_queue (tuned on level 2): off; on level 3 instead (with
			// bu_deg 0), with every chunk through it (bu_compact 0); at
			// 1,024 threads a block (96 KB of queues, past the 48 KB a
			// launch gets unasked); with every level bottom-up (on level
			// 1 nearly every row queued; on level 4); and on a split level
			// 2 with its window open (the queue's launch only ends the
			// level).
			{pBUQueue: int64(0)}, {pBUQueue: int64(3), pBUDeg: int64(0), pBUCompact: int64(0)}, {pThreads: int64(1024)},
			{pMode: dobfs.ModeBottomUp, pBUQueue: int64(1), pBUSerial: int64(1)}, {pMode: dobfs.ModeBottomUp, pBUQueue: int64(4)},
			{pSplit: int64(16), pSplitFrom: 1e12, pSplitTo: 1e-3},
			// bu_deg_packed (tuned on): level 3's first entry and degree
			// in one word; off (the degree byte); with every chunk compact
			// (bu_compact 1024) and none (0); with every level bottom-up,
			// on level 1 (most rows miss: the offsets loaded after the
			// check) and level 2. Hubs of 63 neighbours or more (the
			// saturated degree) are in every graph here.
			{pDegPacked: false}, {pDegPacked: true, pBUCompact: int64(1024)},
			{pMode: dobfs.ModeBottomUp, pBUDeg: int64(1), pDegPacked: true},
			{pMode: dobfs.ModeBottomUp, pBUDeg: int64(2), pDegPacked: true, pBUCompact: int64(0)},
			// reset_stamp (tuned on): level 0 by the device's clock too;
			// off; not gated; with every level bottom-up (checkLevelsEnd:
			// each level's time and the end positive, tiling the search).
			{pResetStmp: false}, {pResetStmp: true, pGated: false}, {pMode: dobfs.ModeBottomUp, pResetStmp: true},
			// dev_end (tuned on): off (the start and end events); with
			// every level bottom-up (the leaves' pass in a launch after
			// the last level) and top-down (in the last level's own).
			{pDevEnd: false}, {pMode: dobfs.ModeBottomUp, pDevEnd: true}, {pMode: dobfs.ModeTopDown, pDevEnd: true},
			// loop_graph (tuned on): off (the gated start's launches on the
			// stream); with every level bottom-up (the leaves' pass launched
			// on the stream after the graph's last level).
			{pLoopGraph: false}, {pMode: dobfs.ModeBottomUp, pLoopGraph: true},
			// pred_lines (tuned on): off; level 2's whole sectors and level 3's skipped
			// writes (every search of a case on one handle, so a sector
			// left from the search before would fail validation); level
			// 3 through CompactRows alone (bu_compact 1024) and never
			// (0); with every level bottom-up (levels 0 and 1's rows kept
			// in their sectors); without leaves (the leaves searched as
			// rows); without the packed level 3 (level 2 alone); on level
			// 3 with no level after it (bu_deg 0); and after a split level
			// 2 (level 3 writes every row).
			{pPredLines: false}, {pPredLines: true, pBUCompact: int64(1024)}, {pPredLines: true, pBUCompact: int64(0)},
			{pMode: dobfs.ModeBottomUp, pPredLines: true}, {pMode: dobfs.ModeBottomUp, pPredLines: true, pLeaves: false},
			{pPredLines: true, pDegPacked: false}, {pPredLines: true, pBUQueue: int64(3), pBUDeg: int64(0)},
			{pPredLines: true, pSplit: int64(16), pSplitFrom: 1e12, pSplitTo: 1e-3},
			// The split level with its window wide open (TestSplit), from
			// a bound below every row's degree to one above all, through
			// each instance of its kernel and the BigQueue's tails.
			{pSplit: int64(64), pSplitFrom: 1e12, pSplitTo: 1e-3}, {pSplit: int64(1), pSplitFrom: 1e12, pSplitTo: 1e-3, pBUCompact: int64(1024)},
			{pSplit: int64(1 << 20), pSplitFrom: 1e12, pSplitTo: 1e-3, pTDBig: int64(32)},
			{pSplit: int64(4), pSplitFrom: 1e12, pSplitTo: 1e-3, pBUBatch: int64(1), pBUSerial: int64(0)},
			{pSplit: int64(16), pSplitFrom: 1e12, pSplitTo: 1e-3, pBUSerial: int64(0), pTDBig: int64(32), pGated: false},
			{pSplit: int64(16), pSplitFrom: 1e12, pSplitTo: 1e-3, pBUBatch: int64(1)},
			{pSplit: int64(16), pSplitFrom: 1e12, pSplitTo: 1e-3, pBUCompact: int64(1024), pBUBatch: int64(1), pBUSerial: int64(0)},
			// split_help 0: the split's instance with the other levels'
			// help steps (64 entries), through BottomUpWords and
			// (bu_compact 1024) CompactRows; the cases above run the
			// tuned 32.
			{pSplit: int64(64), pSplitFrom: 1e12, pSplitTo: 1e-3, pSplitHelp: int64(0)},
			{pSplit: int64(16), pSplitFrom: 1e12, pSplitTo: 1e-3, pSplitHelp: int64(0), pBUCompact: int64(1024), pBUSerial: int64(1)},
		} {
			for _, sc := range [][2]int{{12, 16}, {16, 16}} {
				name := fmt.Sprintf("%dx%d/scale%d-ef%d/%v", grid[0], grid[1], sc[0], sc[1], params)
				t.Run(name, func(t *testing.T) {
					g := sdktest.NewGraph(t, sc[0], sc[1], 4)
					full, err := plugin{}.Info().CheckParams(params)
					if err != nil {
						t.Fatal(err)
					}
					cfg := sdk.Config{Params: full, Ranks: grid[0] * grid[1], Grid: grid}
					cfg.Backend = sdk.BackendCPU
					cpu := searchAll(t, cfg, g)
					cfg.Backend = sdk.BackendCUDA
					gpu := searchAll(t, cfg, g)
					for k := range cpu {
						a, b := levelShape(cpu[k]), levelShape(gpu[k])
						if fmt.Sprint(a) != fmt.Sprint(b) {
							t.Errorf("search %d: CPU levels %v, CUDA levels %v", k, a, b)
						}
						if grid == [2]int{1, 1} && gpu[k].TimeS <= 0 {
							t.Errorf("search %d: CUDA time %v, want the events' time", k, gpu[k].TimeS)
						}
						if grid == [2]int{1, 1} {
							checkLevelsEnd(t, k, gpu[k])
						}
					}
				})
			}
		}
	}
}

// TestCUDACaseInfo checks the bandwidth and the measured floor, and that
// the info says what the L2 window holds (l2_window: at scale 16 the
// bitmaps, 32 KiB, fit the set-aside wherever the GPU has one), and
// nothing without the step.
func TestCUDACaseInfo(t *testing.T) {
	needCUDA(t)
	info := sdktest.CheckCUDACaseInfo(t, plugin{}, nil)
	w, _ := info[infoL2Window].(string)
	if !strings.HasSuffix(w, "MiB of bitmaps persisting") && !strings.HasPrefix(w, "none:") {
		t.Errorf("%s = %q, want what the window holds", infoL2Window, w)
	}
	t.Logf("%s: %s", infoL2Window, w)
	if w, ok := sdktest.CheckCUDACaseInfo(t, plugin{}, map[string]any{pL2Window: false})[infoL2Window]; ok {
		t.Errorf("l2_window false: %s = %v, want none", infoL2Window, w)
	}
}

// needDeviceExchange skips the test where the device path of the exchanges
// cannot run (fewer than two GPUs, or no NCCL), unless BFSBENCH_REQUIRE
// names nccl.
func needDeviceExchange(t *testing.T) {
	t.Helper()
	needCUDA(t)
	if _, _, err := comm.SelectExchange(comm.ExchangeDevice, true, 2, 2); err != nil {
		if slices.Contains(strings.Split(os.Getenv("BFSBENCH_REQUIRE"), ","), "nccl") {
			t.Fatalf("device exchange required: %v", err)
		}
		t.Skip("no device exchange here: ", err, " (set BFSBENCH_REQUIRE=nccl to make this a failure)")
	}
}

// TestCUDADeviceExchange checks the device path of the 2D exchanges (NCCL
// between two GPUs) and the device loop that comes with it: every search
// validates and has the host path's (and host loop's) level structure, on
// 1×2 and 2×1, blocks aligned and not, WritePred at the end and per
// level.
func TestCUDADeviceExchange(t *testing.T) {
	needDeviceExchange(t)
	for _, grid := range [][2]int{{1, 2}, {2, 1}} {
		for _, drop := range []int64{0, 7} {
			for _, wp := range []string{dobfs.WritePredEnd, dobfs.WritePredLevel} {
				name := fmt.Sprintf("%dx%d/drop%d/%s", grid[0], grid[1], drop, wp)
				t.Run(name, func(t *testing.T) {
					g := sdktest.NewGraph(t, 14, 16, 3)
					if drop > 0 {
						g = g.Truncated(t, drop)
					}
					full, err := plugin{}.Info().CheckParams(map[string]any{pWritePred: wp, pExchange: comm.ExchangeHost})
					if err != nil {
						t.Fatal(err)
					}
					cfg := sdk.Config{Backend: sdk.BackendCUDA, Params: full, Ranks: 2, Grid: grid}
					host := searchAll(t, cfg, g)
					full[pExchange] = comm.ExchangeDevice
					dev := searchAll(t, cfg, g) // and the device loop
					for k := range host {
						a, b := levelShape(host[k]), levelShape(dev[k])
						if fmt.Sprint(a) != fmt.Sprint(b) {
							t.Errorf("search %d: host-path levels %v, device-path levels %v", k, a, b)
						}
					}
				})
			}
		}
	}
}

// TestCUDALeaves runs TestLeaves's graph on the CUDA backend, in each mode
// (and top-down with a warp per in_queue word) and with the leaves' launch in the levels' batch or after it (the first
// search of a run, whose batch has no room for it; a run's searches after
// a deeper one): every search validates, reports the tree's levels
// (sdktest.SearchAll) and runs the CPU backend's levels.
func TestCUDALeaves(t *testing.T) {
	needCUDA(t)
	g := leafGraph(t)
	for _, params := range []map[string]any{
		{pMode: dobfs.ModeHybrid}, {pMode: dobfs.ModeTopDown}, {pMode: dobfs.ModeBottomUp},
		{pMode: dobfs.ModeTopDown, pTDLane: int64(0)}, // FrontierLeaves a word at a time
	} {
		params[pLeaves] = true
		t.Run(fmt.Sprint(params), func(t *testing.T) {
			params, err := plugin{}.Info().CheckParams(params)
			if err != nil {
				t.Fatal(err)
			}
			cfg := sdk.Config{Backend: sdk.BackendCPU, Params: params, Ranks: 1, Grid: [2]int{1, 1}}
			cpu := searchAll(t, cfg, g)
			cfg.Backend = sdk.BackendCUDA
			gpu := searchAll(t, cfg, g)
			for k := range cpu {
				if a, b := levelShape(cpu[k]), levelShape(gpu[k]); fmt.Sprint(a) != fmt.Sprint(b) {
					t.Errorf("search %d: CPU levels %v, CUDA levels %v", k, a, b)
				}
				checkLevelsEnd(t, k, gpu[k])
				if cpu[k].BoundBytes != gpu[k].BoundBytes { // the vertices reached, the leaves' count in it
					t.Errorf("search %d: byte bound %d on the CPU, %d on CUDA", k, cpu[k].BoundBytes, gpu[k].BoundBytes)
				}
			}
		})
	}
}

// TestCUDAGated checks the gated start's other paths on 1×1 (the plain
// one, a search after its parents were read, is every tuned search after
// the first in the other tests): the parents read twice (the second read
// cancels the queued start, reads the parents the search left, and queues
// another), the measured floor between searches (it cancels the queued
// start), and Close with a start queued. Every search validates, has the
// vertices and levels of the same root's search before, and its phases
// tile its time. It runs with the start event recorded by the host,
// queued behind the gate (gate_clock), and with no events, the search
// timed by the device's clock (dev_end), its queued launches on the
// stream and as one CUDA graph (loop_graph).
func TestCUDAGated(t *testing.T) {
	needCUDA(t)
	g := sdktest.NewGraph(t, 14, 16, 4)
	for _, m := range []struct{ clock, devEnd, graph bool }{{false, false, false}, {true, false, false}, {true, true, false}, {true, true, true}} {
		t.Run(fmt.Sprintf("gate_clock=%v,dev_end=%v,loop_graph=%v", m.clock, m.devEnd, m.graph), func(t *testing.T) {
			testGated(t, g, m.clock, m.devEnd, m.graph)
		})
	}
}

func testGated(t *testing.T, g *sdktest.Graph, clock, devEnd, graph bool) {
	full, err := plugin{}.Info().CheckParams(map[string]any{pGated: true, pGateClock: clock, pDevEnd: devEnd, pLoopGraph: graph})
	if err != nil {
		t.Fatal(err)
	}
	cfg := sdk.Config{Backend: sdk.BackendCUDA, Params: full, Ranks: 1, Grid: [2]int{1, 1}}
	o, err := parseOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	err = comm.RunLocal(1, func(w comm.Comm) error {
		grid, err := comm.NewGrid(w, 1, 1)
		if err != nil {
			return err
		}
		defer grid.Close()
		v := newRankVariant(grid, cfg, o)
		if err := v.Construct(&sdk.Workload{NVertices: g.N, NEdges: int64(len(g.Edges)), Edges: g.Edges}); err != nil {
			return err
		}
		defer v.Close() // with a start queued: Close cancels it
		rk := v.Rank
		parents := make([]int64, g.N)
		check := func(step string, root int64) error {
			for k := range parents {
				parents[k] = -2
			}
			if err := rk.Parents(parents); err != nil {
				return fmt.Errorf("%s: parents: %w", step, err)
			}
			if _, err := g.Val.Validate(root, parents); err != nil {
				return fmt.Errorf("%s: %w", step, err)
			}
			return nil
		}
		first := map[int64]dobfs.Result{}
		search := func(step string, root int64) error {
			res, err := rk.BFS(root)
			if err != nil {
				return fmt.Errorf("%s: %w", step, err)
			}
			checkLevelsEnd(t, int(root), sdk.Search{TimeS: res.TimeS, Phases: res.Phases})
			if r, ok := first[root]; ok && (r.Levels != res.Levels || r.Reached != res.Reached) {
				t.Errorf("%s: %d levels, %d vertices; the same root's search before: %d, %d", step, res.Levels,
					res.Reached, r.Levels, r.Reached)
			}
			first[root] = res
			return check(step, root)
		}
		a, b := g.Keys[0], g.Keys[1]
		for _, st := range []struct {
			step string
			do   func() error
		}{
			{"the first search (not gated)", func() error { return search("first", a) }},
			{"the parents read again", func() error { return check("parents again", a) }},
			{"a gated search", func() error { return search("gated", b) }},
			{"the floor", func() error { _, err := rk.Floor(2); return err }},
			{"a search after the floor (not gated)", func() error { return search("after the floor", a) }},
			{"a gated search again", func() error { return search("gated again", b) }},
			{"a gated search of the first root", func() error { return search("gated, first root", a) }},
		} {
			if err := st.do(); err != nil {
				return fmt.Errorf("%s: %w", st.step, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCUDADeepGraph runs a graph of thousands of levels (a path with a
// Kronecker graph hanging off one end), so that the device loop enqueues
// many batches of levels, at its 32-level limit: every search validates
// and has the CPU backend's level structure, on 1×1 and, where two GPUs
// and NCCL are present, on 2×1 with the device exchanges. On 1×1 it also
// runs every level bottom-up: thousands of bottom-up levels whose
// frontier is one vertex, each a full pass of BottomUpKernel.
func TestCUDADeepGraph(t *testing.T) {
	needCUDA(t)
	const path = 2000
	k := sdktest.NewGraph(t, 10, 8, 1)
	edges := slices.Clone(k.Edges)
	prev := k.Edges[0].V0 // a vertex of the Kronecker graph's big component
	for v := k.N; v < k.N+path; v++ {
		edges = append(edges, graph500.Edge{V0: prev, V1: v})
		prev = v
	}
	g := sdktest.GraphOf(t, edges, k.N+path, 3)
	type run struct {
		grid   [2]int
		params map[string]any
	}
	runs := []run{{[2]int{1, 1}, nil}, {[2]int{1, 1}, map[string]any{pMode: dobfs.ModeBottomUp}}}
	if _, _, err := comm.SelectExchange(comm.ExchangeDevice, true, 2, 2); err == nil {
		runs = append(runs, run{[2]int{2, 1}, nil})
	}
	for _, r := range runs {
		grid := r.grid
		t.Run(fmt.Sprintf("%dx%d/%v", grid[0], grid[1], r.params), func(t *testing.T) {
			full, err := plugin{}.Info().CheckParams(r.params)
			if err != nil {
				t.Fatal(err)
			}
			cfg := sdk.Config{Backend: sdk.BackendCPU, Params: full, Ranks: grid[0] * grid[1], Grid: grid}
			cpu := searchAll(t, cfg, g)
			cfg.Backend = sdk.BackendCUDA
			gpu := searchAll(t, cfg, g)
			for k := range cpu {
				if a, b := levelShape(cpu[k]), levelShape(gpu[k]); fmt.Sprint(a) != fmt.Sprint(b) {
					t.Errorf("search %d: CPU %d levels, CUDA %d levels (or their frontiers differ)", k, len(a), len(b))
				}
				if gpu[k].Levels < path/2 {
					t.Errorf("search %d: %d levels, want the path's (at least %d)", k, gpu[k].Levels, path/2)
				}
			}
		})
	}
}
