package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/cuda"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/results"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/sdktest"
	"github.com/bfsbench/bfsbench/plugins/atomic2d/bfs2d"
)

// TestConformance runs the shared conformance suite over grids and both
// presets, on the CPU backend and, where a GPU and lib/libatomic2d.so are
// present, on CUDA (ranks sharing the GPUs there are).
func TestConformance(t *testing.T) {
	if os.Getenv(cuda.LibDirEnv) == "" {
		lib, _ := filepath.Abs(filepath.Join("..", "..", "lib"))
		t.Setenv(cuda.LibDirEnv, lib)
	}
	sdktest.Run(t, plugin{}, sdktest.Options{
		Scales:      []int{8, 11},
		EdgeFactors: []int{4, 16},
		Grids:       [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}},
		Params:      []map[string]any{{pPreset: presetTuned}, {pPreset: presetPaper, "edges_per_thread": int64(3)}},
	})
}

// TestPluginReportsLevelsAndBytes checks what the plugin reports beside
// its parents: the level count of each search and the bytes of its bound.
func TestPluginReportsLevelsAndBytes(t *testing.T) {
	edges := graph500.Generate(10, 16, [2]uint64{2, 3})
	nv := graph500.NVertices(10)
	keys, err := graph500.SearchKeys(edges, nv, 4, [2]uint64{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	params, err := plugin{}.Info().CheckParams(nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := sdk.New(plugin{}, sdk.Config{Backend: sdk.BackendCPU, Params: params, Ranks: 4, Grid: [2]int{2, 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.Construct(&sdk.Workload{NVertices: nv, NEdges: int64(len(edges)), Edges: edges}); err != nil {
		t.Fatal(err)
	}
	if b, _ := v.(sdk.Informer).CaseInfo()["bytes_fixed_per_bfs"].(int64); b < 4*int64(len(edges)) {
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
		"removed visited test": {cfg: sdk.Config{Backend: sdk.BackendCUDA, Ranks: 1, Params: map[string]any{"visited_test": "l2"}},
			want: `has no parameter "visited_test"`},
		"bad preset": {cfg: sdk.Config{Backend: sdk.BackendCPU, Ranks: 1, Params: map[string]any{"preset": int64(2)}},
			want: `parameter "preset": want a string`},
		"bad append": {cfg: sdk.Config{Backend: sdk.BackendCUDA, Ranks: 1, Params: map[string]any{"append": "grid"}},
			want: `parameter "append": want one of [thread block], got "grid"`},
	}
	for name, tc := range cases {
		v, err := sdk.New(plugin{}, tc.cfg)
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
// included, a preset's value applies where the config leaves the
// parameter to it, and an explicit value wins.
func TestParseOptions(t *testing.T) {
	in := plugin{}.Info()
	for _, tc := range []struct {
		name   string
		params map[string]any
		want   bfs2d.Options
	}{
		{"defaults", nil, bfs2d.Options{EdgesPerThread: 4, BitmapMessages: bfs2d.BitmapAuto, Append: bfs2d.AppendBlock}},
		{"paper", map[string]any{pPreset: presetPaper}, bfs2d.Options{EdgesPerThread: 4, BitmapMessages: bfs2d.BitmapAuto, Append: bfs2d.AppendThread}},
		{"paper, block append", map[string]any{pPreset: presetPaper, pAppend: bfs2d.AppendBlock, pEdgesPerThread: int64(1)},
			bfs2d.Options{EdgesPerThread: 1, BitmapMessages: bfs2d.BitmapAuto, Append: bfs2d.AppendBlock}},
		{"tuned, thread append, lists", map[string]any{pAppend: bfs2d.AppendThread, pBitmapMessages: bfs2d.BitmapOff},
			bfs2d.Options{EdgesPerThread: 4, BitmapMessages: bfs2d.BitmapOff, Append: bfs2d.AppendThread}},
	} {
		params, err := in.CheckParams(tc.params)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if o := parseOptions(sdk.Config{Params: params}); o.Options != tc.want {
			t.Errorf("%s: options %+v, want %+v", tc.name, o.Options, tc.want)
		}
	}
	for _, removed := range []string{"visited_test", "gridcheck", "workers"} {
		if _, err := in.CheckParams(map[string]any{removed: "l2"}); err == nil {
			t.Errorf("parameter %q accepted", removed)
		}
	}
}

// TestPluginCPUPresets: the CPU backend of both presets constructs and
// reports no floor (floor_reps is CUDA's); the conformance suite validates
// both presets' searches.
func TestPluginCPUPresets(t *testing.T) {
	edges := graph500.Generate(8, 16, [2]uint64{2, 3})
	nv := graph500.NVertices(8)
	for _, preset := range []string{presetTuned, presetPaper} {
		v, err := sdk.New(plugin{}, sdk.Config{Backend: sdk.BackendCPU, Ranks: 2, Grid: [2]int{1, 2}, Params: map[string]any{pPreset: preset, pFloorReps: int64(3)}})
		if err != nil {
			t.Fatalf("%s: %v", preset, err)
		}
		if err := v.Construct(&sdk.Workload{NVertices: nv, NEdges: int64(len(edges)), Edges: edges}); err != nil {
			v.Close()
			t.Fatalf("%s: %v", preset, err)
		}
		info := v.(sdk.Informer).CaseInfo()
		if _, ok := info[sdk.InfoFloorTimeS]; ok {
			t.Errorf("%s: the CPU backend reported a floor", preset)
		}
		if err := v.Close(); err != nil {
			t.Errorf("%s: close: %v", preset, err)
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
		v, err := sdk.New(plugin{}, sdk.Config{Backend: sdk.BackendCUDA, Ranks: ranks})
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

// requireTwoGPUs skips unless two CUDA devices, libatomic2d.so and NCCL
// are present; where BFSBENCH_REQUIRE names nccl it fails instead.
func requireTwoGPUs(t *testing.T) {
	t.Helper()
	if os.Getenv(cuda.LibDirEnv) == "" {
		lib, _ := filepath.Abs(filepath.Join("..", "..", "lib"))
		t.Setenv(cuda.LibDirEnv, lib)
	}
	miss := func(msg string) {
		t.Helper()
		if slices.Contains(strings.Split(os.Getenv(sdktest.RequireEnv), ","), "nccl") {
			t.Fatal(msg)
		}
		t.Skip(msg + " (set BFSBENCH_REQUIRE=nccl to make this a failure)")
	}
	if n, err := bfs2d.DeviceCount(); err != nil || n < 2 {
		miss(fmt.Sprintf("two GPUs and lib/libatomic2d.so needed: %d devices, %v", n, err))
	}
	if _, err := comm.NCCLVersion(); err != nil {
		miss(err.Error())
	}
}

// TestCUDADeviceExchange runs both 2-rank grids on two GPUs with each
// exchange path (the device path with and without overlap) and bitmap mode, every search validated (the first key
// again at the end, after the others), and compares the two paths level
// by level: the same frontiers, and the device path's bytes are the host
// path's less the header words (one per message: the device path sends
// payloads only). The device path's levels of a 2×1 grid report the
// overlap's wait phase.
func TestCUDADeviceExchange(t *testing.T) {
	requireTwoGPUs(t)
	const scale = 11
	edges := graph500.Generate(scale, 16, [2]uint64{2, 3})
	nv := graph500.NVertices(scale)
	keys, err := graph500.SearchKeys(edges, nv, 4, [2]uint64{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	keys = append(keys, keys[0])
	val := graph500.NewValidator(edges, nv)
	for _, grid := range [][2]int{{2, 1}, {1, 2}} {
		for _, mode := range []string{bfs2d.BitmapAuto, bfs2d.BitmapOff, bfs2d.BitmapOn} {
			name := fmt.Sprintf("%dx%d/%s", grid[0], grid[1], mode)
			runs := map[string][]sdk.Search{}
			paths := [][2]string{{comm.ExchangeDevice, bfs2d.OverlapExpand}, {comm.ExchangeDevice, bfs2d.OverlapOff}, {comm.ExchangeHost, bfs2d.OverlapExpand}}
			if grid[0] == 1 { // no expand exchange: overlap changes nothing
				paths = slices.Delete(paths, 1, 2)
			}
			for _, path := range paths {
				xch, label := path[0], path[0]+"/overlap="+path[1]
				v, err := sdk.New(plugin{}, sdk.Config{Backend: sdk.BackendCUDA, Ranks: 2, Grid: grid,
					Params: map[string]any{pExchange: xch, pOverlap: path[1], pBitmapMessages: mode}})
				if err != nil {
					t.Fatalf("%s %s: %v", name, label, err)
				}
				if err := v.Construct(&sdk.Workload{NVertices: nv, NEdges: int64(len(edges)), Edges: edges}); err != nil {
					v.Close()
					t.Fatalf("%s %s: %v", name, label, err)
				}
				if got := v.(sdk.Informer).CaseInfo()["exchange"]; got != xch {
					t.Errorf("%s: exchange %v ran, %s asked for", name, got, xch)
				}
				parents := make([]int64, nv)
				for _, root := range keys {
					s, err := v.BFS(root)
					if err != nil {
						v.Close()
						t.Fatalf("%s %s: root %d: %v", name, label, root, err)
					}
					for k := range parents {
						parents[k] = -7
					}
					if err := v.Parents(parents); err != nil {
						v.Close()
						t.Fatalf("%s %s: root %d: parents: %v", name, label, root, err)
					}
					if _, err := val.Validate(root, parents); err != nil {
						t.Errorf("%s %s: root %d: %v", name, label, root, err)
					}
					checkPhaseKeys(t, s.Phases)
					runs[label] = append(runs[label], s)
				}
				if err := v.Close(); err != nil {
					t.Errorf("%s %s: close: %v", name, label, err)
				}
			}
			host := runs[comm.ExchangeHost+"/overlap="+bfs2d.OverlapExpand]
			for _, path := range paths[:len(paths)-1] {
				label := path[0] + "/overlap=" + path[1]
				for k, dev := range runs[label] {
					compareExchangePaths(t, fmt.Sprintf("%s %s root %d", name, label, keys[k]), grid, dev, host[k])
				}
			}
		}
	}
}

// compareExchangePaths checks one search's device-path report against the
// host path's (see TestCUDADeviceExchange).
func compareExchangePaths(t *testing.T, name string, grid [2]int, dev, host sdk.Search) {
	t.Helper()
	if dev.Levels != host.Levels || len(dev.Phases) != len(host.Phases) {
		t.Errorf("%s: device path %d levels (%d phase entries), host path %d (%d)", name, dev.Levels, len(dev.Phases), host.Levels, len(host.Phases))
		return
	}
	r, c := int64(grid[0]), int64(grid[1])
	ranks := r * c
	for k, d := range dev.Phases[:len(dev.Phases)-1] {
		h := host.Phases[k]
		if d.Frontier != h.Frontier {
			t.Errorf("%s: level %d: frontier %d on the device path, %d on the host path", name, d.Level, d.Frontier, h.Frontier)
		}
		// One header word per message: to R-1 peers (expand), C-1 (fold).
		if want := h.Bytes[bfs2d.BytesExpand] - 4*ranks*(r-1); d.Bytes[bfs2d.BytesExpand] != want {
			t.Errorf("%s: level %d: device path sent %d expand bytes, want %d (host path %d)", name, d.Level, d.Bytes[bfs2d.BytesExpand], want, h.Bytes[bfs2d.BytesExpand])
		}
		if want := h.Bytes[bfs2d.BytesFold] - 4*ranks*(c-1); d.Bytes[bfs2d.BytesFold] != want {
			t.Errorf("%s: level %d: device path sent %d fold bytes, want %d (host path %d)", name, d.Level, d.Bytes[bfs2d.BytesFold], want, h.Bytes[bfs2d.BytesFold])
		}
		_, dw := d.Times[bfs2d.PhaseWait]
		_, hw := h.Times[bfs2d.PhaseWait]
		if dw != (r > 1) || hw {
			t.Errorf("%s: level %d: wait phase on the device path %v, on the host path %v", name, d.Level, dw, hw)
		}
		for key, x := range d.Times {
			if x < 0 {
				t.Errorf("%s: level %d: phase %s of %g s", name, d.Level, key, x)
			}
		}
	}
	if db, hb := dev.Phases[len(dev.Phases)-1].Bytes[bfs2d.BytesPred], host.Phases[len(host.Phases)-1].Bytes[bfs2d.BytesPred]; db != hb {
		t.Errorf("%s: predecessor exchange: %d bytes on the device path, %d on the host path", name, db, hb)
	}
}
