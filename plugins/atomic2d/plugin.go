package main

// plugin.go: the atomic2d plugin's description (sdk.Info), its parameters
// and presets, and its per-rank variant over grid.NewDistributed. The paper
// is [Bisson] (docs/papers.md).

import (
	"fmt"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/partition"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/harness/sdk/grid"
	"github.com/bfsbench/bfsbench/plugins/atomic2d/bfs2d"
)

// paperRef is the paper as Info.Paper cites it, with the sections the
// plugin implements.
const paperRef = "[Bisson] (docs/papers.md): §2.2, §3 (Algorithms 2 and 3), §5"

// plugin is the sdk.Plugin of atomic2d.
type plugin struct{}

// Parameter names.
const (
	pPreset         = sdk.PresetParam
	pEdgesPerThread = "edges_per_thread"
	pBitmapMessages = "bitmap_messages"
	pAppend         = "append"
	pThreads        = "threads_per_block"
	pFloorReps      = "floor_reps"
	pExchange       = "exchange"
	pOverlap        = "overlap"
)

// Presets: paper is Algorithm 3 as [1] writes it, with §3.4.1's four
// edges per thread and §5's bitmap messages (the defaults of those
// parameters, shared by both presets); tuned reserves the output queue
// slots a block at a time.
const (
	presetTuned = "tuned"
	presetPaper = "paper"
)

// Info implements sdk.Plugin.
func (plugin) Info() sdk.Info {
	return sdk.Info{
		Name:     "atomic2d",
		Paper:    paperRef,
		Summary:  "2D R×C partition with local CSC blocks; one thread per frontier edge by scan + binary search (k edges per thread, interleaved), atomicOr visited bitmap, atomic per-column queues; expand/fold exchanges; bitmap messages past §5's threshold; predecessors resolved after the search",
		Backends: []string{sdk.BackendCPU, sdk.BackendCUDA},
		Params: []sdk.Param{
			{Name: pPreset, Type: sdk.TypeString, Default: presetTuned, Choices: []string{presetTuned, presetPaper},
				Help: "paper, Algorithm 3 as written (append thread: one atomic on dst_cnt per discovered vertex); tuned, a block's queue slots reserved at once (append block). A parameter the config sets wins over its preset value"},
			{Name: pEdgesPerThread, Type: sdk.TypeInt, Default: int64(4), Min: sdk.Bound(1), Max: sdk.Bound(8),
				Help: "§3.4.1: consecutive frontier edges per thread, processed interleaved (1 = Algorithm 3's one thread per edge; 4 is the paper's choice)"},
			{Name: pBitmapMessages, Type: sdk.TypeString, Default: bfs2d.BitmapAuto,
				Choices: []string{bfs2d.BitmapAuto, bfs2d.BitmapOff, bfs2d.BitmapOn},
				Help:    "§5: send a bitmap of the receiver's block instead of a vertex list: auto (past §5's threshold, when the bitmap is smaller), off (lists, §3), on (always)"},
			{Name: pAppend, Type: sdk.TypeString, Default: bfs2d.AppendBlock, Presets: map[string]any{presetPaper: bfs2d.AppendThread}, Choices: []string{bfs2d.AppendThread, bfs2d.AppendBlock},
				Help: "CUDA: how the expansion reserves output queue slots (Algorithm 3 line 10): thread, one atomic on the column's counter per discovered vertex, as written; block, the warps add in shared memory and one atomic per block round and column reserves the block's slots. The CPU backend appends per vertex"},
			{Name: pThreads, Type: sdk.TypeInt, Default: int64(256), Min: sdk.Bound(64), Max: sdk.Bound(1024), Multiple: 32,
				Help: "CUDA: threads per block (a multiple of 32)"},
			{Name: pFloorReps, Type: sdk.TypeInt, Default: int64(0), Min: sdk.Bound(0), Max: sdk.Bound(1000),
				Help: "CUDA: after construction, time the test floor this many times (after a warm-up) on each rank, one rank at a time: one balanced pass over every local edge reading its row index and testing its visited bit, the least per-edge work of Algorithm 3 over a search; the case info gets floor_time_s (the median of the faster of the two testing orders, the slowest rank's) and the medians of each pass kind (test_floor_*_ms); the passes add to the construction time; 0: not measured"},
			{Name: pExchange, Type: sdk.TypeString, Default: comm.ExchangeAuto, Choices: comm.ExchangeModes,
				Help: comm.ExchangeHelp + " (the CPU backend always exchanges through the host)"},
			{Name: pOverlap, Type: sdk.TypeString, Default: bfs2d.OverlapExpand, Choices: []string{bfs2d.OverlapExpand, bfs2d.OverlapOff},
				Help: "CUDA, exchange = device, grids of several rows: expand, the expand exchange runs while the own frontier is expanded (§3.3's overlap of communication with computation; the wait phase is what it leaves exposed); off, the expansion waits for the whole exchange"},
		},
		MultiRank: true,
		// Rough linear estimates (bytes), summed over the ranks: per input
		// edge the CSC row indices of both directions (4 + 4) and the
		// partition's exchange of (column, row) pairs, sent and received
		// (16 + 16); per vertex, for a grid of a few ranks, the column
		// offsets and scans, level and predecessor words, bitmaps, output
		// queues and parents; per rank the exchange buffers. The CUDA
		// backend holds the rank's block, its queues and buffers on the
		// device too.
		Memory: map[string]sdk.Memory{
			sdk.BackendCPU:  {HostPerVertex: 64, HostPerEdge: 40, HostPerRank: 16 << 20},
			sdk.BackendCUDA: {HostPerVertex: 64, HostPerEdge: 40, HostPerRank: 16 << 20, DevicePerVertex: 64, DevicePerEdge: 8, DevicePerRank: 64 << 20},
		},
	}
}

// options are one case's parameters, as the SDK resolved them.
type options struct {
	bfs2d.Options
	Exchange  string // the exchange parameter, before SelectExchange
	Overlap   string
	Threads   int
	FloorReps int
}

func parseOptions(cfg sdk.Config) options {
	return options{
		Options: bfs2d.Options{
			EdgesPerThread: int(cfg.Int(pEdgesPerThread)),
			BitmapMessages: cfg.String(pBitmapMessages),
			Append:         cfg.String(pAppend),
		},
		Exchange:  cfg.String(pExchange),
		Overlap:   cfg.String(pOverlap),
		Threads:   int(cfg.Int(pThreads)),
		FloorReps: int(cfg.Int(pFloorReps)),
	}
}

// New implements sdk.Plugin: every grid, 1×1 included, runs through
// grid.NewGridVariant (goroutine ranks, or one rank per MPI process).
func (plugin) New(cfg sdk.Config) (sdk.Variant, error) {
	o := parseOptions(cfg)
	switch cfg.Backend {
	case sdk.BackendCPU, sdk.BackendCUDA:
	default:
		return nil, fmt.Errorf("atomic2d has no backend %q (it has cpu, cuda)", cfg.Backend)
	}
	return grid.NewGridVariant(cfg, func(g *comm.Grid, cfg sdk.Config) sdk.RankVariant { return newRankVariant(g, cfg, o) })
}

// rankVariant is one rank's sdk.RankVariant.
type rankVariant struct {
	grid.RankBase[*bfs2d.Rank]
	opt options
}

func newRankVariant(g *comm.Grid, cfg sdk.Config, o options) *rankVariant {
	if cfg.Backend == sdk.BackendCPU && cfg.Launcher != sdk.LauncherMPIRun {
		// In-process ranks share the machine's cores.
		o.Workers = max(1, defaultWorkers()/(g.R*g.C))
	}
	return &rankVariant{RankBase: grid.RankBase[*bfs2d.Rank]{Cfg: cfg, Grid: g}, opt: o}
}

// Construct builds the rank's CSC block through the shared 2D partition and
// sets up its backend (Graph500 kernel 1).
func (v *rankVariant) Construct(w *sdk.Workload) error {
	part, err := partition.Build2D(v.Grid, w.NVertices, w.Edges)
	if err != nil {
		return err
	}
	l, csc, err := bfs2d.FromPartition(part)
	if err := comm.Agree(v.Grid.World, err); err != nil {
		return err
	}
	part = nil
	if v.Info, err = caseInfo(v.Grid, l, csc); err != nil {
		return err
	}
	if v.Cfg.Backend == sdk.BackendCUDA {
		dev, xch, err := v.PlaceCUDA(bfs2d.DeviceCount, v.opt.Exchange)
		if err != nil {
			return err
		}
		v.Rank, v.Device, err = bfs2d.NewCUDARank(v.Grid, l, csc, v.opt.Options,
			bfs2d.CUDAOptions{Device: dev, ThreadsPerBlock: v.opt.Threads, Exchange: xch, Overlap: v.opt.Overlap != bfs2d.OverlapOff})
		if err != nil {
			return err
		}
	} else if v.Rank, err = bfs2d.NewCPURank(v.Grid, l, csc, v.opt.Options); err != nil {
		return err
	}
	if v.Cfg.Backend == sdk.BackendCUDA && v.opt.FloorReps > 0 {
		return v.measureFloor()
	}
	return nil
}

// floorModes are the test floor's passes, as measureFloor records them.
var floorModes = []bfs2d.FloorMode{bfs2d.FloorStream, bfs2d.FloorThread, bfs2d.FloorWarp}

// measureFloor times the test floor (bfs2d.Rank.TestFloor) of every rank,
// one rank at a time (ranks may share a GPU), floor_reps passes of each
// kind, and records the slowest rank's medians in the case info:
// test_floor_<kind>_ms for each kind, and sdk.InfoFloorTimeS, the faster
// of the two passes that test the bitmap (thread and warp order), in
// seconds. A failed pass is recorded as test_floor_error, and the case
// goes on without a floor. Collective.
func (v *rankVariant) measureFloor() error {
	ms, err := v.SlowestRank(func() ([]float64, error) {
		ms := make([]float64, len(floorModes))
		for i, mode := range floorModes {
			var err error
			if ms[i], _, err = v.Rank.TestFloor(mode, v.opt.FloorReps); err != nil {
				return nil, fmt.Errorf("test floor (%s) of rank %d: %w", mode, v.Grid.World.Rank(), err)
			}
		}
		return ms, nil
	})
	if err != nil {
		// The construction is done: the case goes on without a floor.
		v.Info["test_floor_error"] = err.Error()
		return nil
	}
	for i, mode := range floorModes {
		v.Info["test_floor_"+mode.String()+"_ms"] = ms[i]
	}
	v.Info[sdk.InfoFloorTimeS] = min(ms[1], ms[2]) / 1e3 // thread, warp
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
	return sdk.Search{Levels: res.Levels, Phases: res.Phases, BoundBytes: v.searchBoundBytes()}, nil
}

// searchBoundBytes is what every search must move through device memory
// (bound.go's count, summed over the ranks).
func (v *rankVariant) searchBoundBytes() int64 {
	b, _ := v.Info["bytes_fixed_per_bfs"].(int64)
	return b
}

// CaseInfo implements sdk.Informer: the partition and the bound's byte
// count (bound.go), the resolved parameters, the test floor when
// floor_reps > 0, and for the CUDA backend the copy bandwidth of this
// rank's device, measured here (after the timed construction).
func (v *rankVariant) CaseInfo() map[string]any {
	v.NoteCopyBandwidth(func(dev int) (float64, error) {
		bw, err := bfs2d.CopyBandwidth(dev, 1<<30, 10)
		return bw.CopyGBs, err
	})
	return v.Info
}
