package main

// plugin.go: the ueno plugin's description (sdk.Info), its parameters and
// presets, and its per-rank variant over grid.NewDistributed. The paper
// is [Ueno] (docs/papers.md).

import (
	"fmt"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/partition"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/grid"
	"github.com/bfsbench/bfsbench/plugins/ueno/ubfs"
)

const paperRef = "[Ueno] (docs/papers.md): §V (Figure 3's tasks 1–8, Algorithms III–V)"

type plugin struct{}

// Parameter names.
const (
	pPreset      = sdk.PresetParam
	pAlpha       = "alpha"
	pCompression = "compression"
	pShareSV     = "share_sv"
	pSVUpdate    = "sv_update"
	pEdgeBuffer  = "edge_buffer"
	pFoldChunk   = "fold_chunk"
	pGather      = "gather_filter"
	pFloorReps   = "floor_reps"
	pExchange    = "exchange"
)

// Presets: paper is §VI-D's final configuration (expand compression on,
// SV method B, gathering and filtering as two kernels, §V-E) with a 1
// Mi-edge buffer and 256 Ki-pair fold chunks (the paper gives no sizes,
// its GPUs had 2.8 GB); tuned filters each edge in the gathering kernel
// (no buffer traffic) and uses larger parts, so that a level of a
// scale-25 graph takes few launches.
//
// tuned also sends the expand as bitmaps at every level (alpha 0): on two
// H200s joined by NVLink the lists' kernels cost about 0.2 ms a level more
// than all-gathering 4 MiB bitmaps (results/ueno-balanced). Over slower
// links the lists pay: set alpha.
const (
	presetTuned = "tuned"
	presetPaper = "paper"
)

// threadsPerBlock is the CUDA kernels' block size.
const threadsPerBlock = 256

// Info implements sdk.Plugin.
func (plugin) Info() sdk.Info {
	return sdk.Info{
		Name:     "ueno",
		Paper:    paperRef,
		Summary:  "2D R×C partition with CQ/NQ/VISITED bitmaps; expand as bitmaps above α·n, else sorted delta lists in SIMD VLQ; CQ list of non-empty words; Merrill gathering into a bounded edge buffer; shared-visited (SV) filtering; fold sent in chunks while gathering goes on",
		Backends: []string{sdk.BackendCPU, sdk.BackendCUDA},
		Params: []sdk.Param{
			{Name: pPreset, Type: sdk.TypeString, Default: presetTuned, Choices: []string{presetTuned, presetPaper},
				Help: "paper, §VI-D's configuration (alpha 1/16, method B, gathering and filtering split) with a 1 Mi-edge buffer and 256 Ki-pair chunks; tuned, alpha 0 (bitmaps), method B, fused, 16 Mi edges and 4 Mi pairs. A parameter the config sets wins over its preset value"},
			{Name: pAlpha, Type: sdk.TypeFloat, Default: 0.0, Presets: map[string]any{presetPaper: 1.0 / 16}, Min: sdk.Bound(0), Max: sdk.Bound(1),
				Help: "Algorithm III: the expand sends bitmaps when the global |NQ| exceeds alpha·n, else compressed lists (paper 1/16 as §V-B; 0: bitmaps always)"},
			{Name: pCompression, Type: sdk.TypeBool, Default: true,
				Help: "§V-B expand compression (sorted delta lists in SIMD VLQ below alpha·n); false: always bitmaps (Figure 9's base)"},
			{Name: pShareSV, Type: sdk.TypeBool, Default: true,
				Help: "§V-F-2: the expand also all-gathers NQ in the grid row and marks it in SV (shared visited), so edges to vertices just found elsewhere are filtered"},
			{Name: pSVUpdate, Type: sdk.TypeString, Default: ubfs.SVTestTestAndSet, Choices: []string{ubfs.SVTestAndSet, ubfs.SVTestTestAndSet, ubfs.SVTestSet},
				Help: "Algorithm V, how filtering updates SV: A test-and-set (atomicOr), B test then test-and-set (§VI-D's choice), C test and set without atomics. The CPU backend's filter is one goroutine per rank, so the three behave alike there"},
			{Name: pGather, Type: sdk.TypeString, Default: ubfs.GatherFused, Presets: map[string]any{presetPaper: ubfs.GatherSplit}, Choices: []string{ubfs.GatherSplit, ubfs.GatherFused},
				Help: "tasks 5-6: split, gathered into the edge buffer by one kernel and filtered by another (§V-E, the paper's choice); fused, each edge filtered in the gathering kernel where it is read"},
			{Name: pEdgeBuffer, Type: sdk.TypeInt, Default: int64(1 << 24), Presets: map[string]any{presetPaper: int64(1 << 20)}, Min: sdk.Bound(32), Max: sdk.Bound(1 << 30),
				Help: "task 5's bounded buffer in edges: gathering stops when the next CQ list entry would overflow it and resumes after the part is filtered and sent"},
			{Name: pFoldChunk, Type: sdk.TypeInt, Default: int64(1 << 22), Presets: map[string]any{presetPaper: int64(1 << 18)}, Min: sdk.Bound(1), Max: sdk.Bound(1 << 28),
				Help: "most (target, source) pairs per fold message"},
			{Name: pFloorReps, Type: sdk.TypeInt, Default: int64(0), Min: sdk.Bound(0), Max: sdk.Bound(1000),
				Help: "CUDA: after construction, time each floor this many times (after a warm-up): the flat floor reads every local edge's target as one array and tests its SV bit, the gathering floor makes the same test with every local list expanded by the fused kernel's gathering; the case info gets flat_floor_ms, gather_floor_ms (medians, the slowest rank's) and the smaller as floor_time_s; 0: not measured"},
			{Name: pExchange, Type: sdk.TypeString, Default: comm.ExchangeAuto, Choices: comm.ExchangeModes,
				Help: comm.ExchangeHelp + ". The device path sends the fold in rounds, one part of the CQ list each, without the host path's overlap of sends and gathering; the CPU backend always exchanges through the host"},
		},
		MultiRank: true,
		// Rough linear estimates (bytes): the partition's targets (8 per
		// input edge: both directions, 4 bytes each) and its transient
		// exchange, the column offsets and the bitmaps and PRED; per rank
		// the fold messages (host) and the tuned preset's edge buffer and
		// per-column output (device).
		Memory: map[string]sdk.Memory{
			sdk.BackendCPU:  {HostPerVertex: 32, HostPerEdge: 32, HostPerRank: 256 << 20},
			sdk.BackendCUDA: {HostPerVertex: 32, HostPerEdge: 32, HostPerRank: 256 << 20, DevicePerVertex: 24, DevicePerEdge: 8, DevicePerRank: 640 << 20},
		},
	}
}

// options are one case's parameters, as the SDK resolved them.
type options struct {
	ubfs.Options
	Exchange  string
	FloorReps int
}

func parseOptions(cfg sdk.Config) options {
	return options{
		Options: ubfs.Options{
			Alpha:        cfg.Float(pAlpha),
			Compression:  cfg.Bool(pCompression),
			ShareSV:      cfg.Bool(pShareSV),
			SVUpdate:     cfg.String(pSVUpdate),
			EdgeBuffer:   int(cfg.Int(pEdgeBuffer)),
			FoldChunk:    int(cfg.Int(pFoldChunk)),
			GatherFilter: cfg.String(pGather),
		},
		Exchange:  cfg.String(pExchange),
		FloorReps: int(cfg.Int(pFloorReps)),
	}
}

// New implements sdk.Plugin: every grid, 1×1 included, runs through
// grid.NewGridVariant.
func (plugin) New(cfg sdk.Config) (sdk.Variant, error) {
	o := parseOptions(cfg)
	switch cfg.Backend {
	case sdk.BackendCPU, sdk.BackendCUDA:
	default:
		return nil, fmt.Errorf("ueno has no backend %q (it has cpu, cuda)", cfg.Backend)
	}
	return grid.NewGridVariant(cfg, func(g *comm.Grid, cfg sdk.Config) sdk.RankVariant {
		return &rankVariant{RankBase: grid.RankBase[*ubfs.Rank]{Cfg: cfg, Grid: g}, opt: o}
	})
}

// rankVariant is one rank's sdk.RankVariant.
type rankVariant struct {
	grid.RankBase[*ubfs.Rank]
	opt options
}

// Construct builds the rank's block through the shared 2D partition and
// sets up its backend (Graph500 kernel 1).
func (v *rankVariant) Construct(w *sdk.Workload) error {
	part, err := partition.Build2D(v.Grid, w.NVertices, w.Edges)
	if err != nil {
		return err
	}
	if v.Info, err = caseInfo(v.Grid, part); err != nil {
		return err
	}
	v.Info["exchange"] = comm.ExchangeHost
	if v.Cfg.Backend == sdk.BackendCUDA {
		dev, xch, err := v.PlaceCUDA(ubfs.DeviceCount, v.opt.Exchange)
		if err != nil {
			return err
		}
		v.Rank, v.Device, err = ubfs.NewCUDARank(v.Grid, part, v.opt.Options,
			ubfs.CUDAOptions{Device: dev, ThreadsPerBlock: threadsPerBlock, Exchange: xch})
		if err != nil {
			return err
		}
		if v.opt.FloorReps > 0 {
			return v.measureFloor()
		}
		return nil
	}
	v.Rank, err = ubfs.NewCPURank(v.Grid, part, v.opt.Options)
	return err
}

// measureFloor times the floor kernels of every rank, one rank at a time,
// and records the slowest rank's medians: flat_floor_ms, gather_floor_ms
// and, as the floor (sdk.InfoFloorTimeS, floor_ms), the smaller of the two. A failure is
// recorded as floor_error and the case goes on. Collective.
func (v *rankVariant) measureFloor() error {
	ms, err := v.SlowestRank(func() ([]float64, error) {
		f, err := v.Rank.Floor(v.opt.FloorReps)
		return []float64{f.Flat, f.Gather}, err
	})
	if err != nil {
		v.Info["floor_error"] = err.Error()
		return nil
	}
	// The floor is the faster of the two ways to do the per-edge work.
	v.Info["flat_floor_ms"] = ms[0]
	v.Info["gather_floor_ms"] = ms[1]
	v.Info["floor_ms"] = min(ms[0], ms[1])
	v.Info[sdk.InfoFloorTimeS] = min(ms[0], ms[1]) / 1e3
	return nil
}

// BFS implements sdk.RankVariant.
func (v *rankVariant) BFS(root int64) (sdk.Search, error) {
	if !v.Built() {
		return sdk.Search{}, fmt.Errorf("bfs before construct")
	}
	res, err := v.Rank.BFS(root)
	if err != nil {
		return sdk.Search{}, err
	}
	b, _ := v.Info["bytes_fixed_per_bfs"].(int64)
	return sdk.Search{Levels: res.Levels, Phases: res.Phases, BoundBytes: b}, nil
}

// CaseInfo implements sdk.Informer: the partition, the bound's byte count
// (bound.go), the resolved parameters, the floor when floor_reps > 0 and,
// for the CUDA backend, the device's copy bandwidth.
func (v *rankVariant) CaseInfo() map[string]any {
	v.NoteCopyBandwidth(func(dev int) (float64, error) {
		bw, err := ubfs.CopyBandwidth(dev, 1<<30, 10)
		return bw.CopyGBs, err
	})
	return v.Info
}
