package main

// plugin.go: the atomic2d plugin's description (sdk.Info), its parameters
// (seed 000's knobs) and its per-rank variant over sdk.NewDistributed.

import (
	"fmt"
	"math"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/partition"
	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/plugins/atomic2d/bfs2d"
)

// plugin is the sdk.Plugin of atomic2d.
type plugin struct{}

// Parameter names.
const (
	pEdgesPerThread = "edges_per_thread"
	pBitmapMessages = "bitmap_messages"
	pVisitedTest    = "visited_test"
	pAppend         = "append"
	pThreads        = "threads_per_block"
	pWorkers        = "workers"
)

// Info implements sdk.Plugin.
func (plugin) Info() sdk.Info {
	return sdk.Info{
		Name:     "atomic2d",
		Paper:    "seed 000: Bisson, Bernaschi, Mastrostefano, Parallel Distributed BFS on the Kepler Architecture, §2.2, §3 (Algorithms 2 and 3), §5",
		Summary:  "2D R×C partition with local CSC blocks; one thread per frontier edge by scan + binary search (k edges per thread, interleaved), atomicOr visited bitmap, atomic per-column queues; expand/fold exchanges; bitmap messages past §5's threshold; predecessors resolved after the search",
		Backends: []string{sdk.BackendCPU, sdk.BackendCUDA},
		Params: []sdk.Param{
			{Name: pEdgesPerThread, Type: sdk.TypeInt, Default: int64(4), Min: sdk.Bound(1), Max: sdk.Bound(8),
				Help: "§3.4.1: consecutive frontier edges per thread, processed interleaved (1 = one thread per edge; the paper's best on Kepler is 4)"},
			{Name: pBitmapMessages, Type: sdk.TypeString, Default: bfs2d.BitmapAuto,
				Choices: []string{bfs2d.BitmapAuto, bfs2d.BitmapOff, bfs2d.BitmapOn},
				Help:    "§5: send a bitmap of the receiver's block instead of a vertex list: auto (when smaller), off (lists, §3), on (always)"},
			{Name: pVisitedTest, Type: sdk.TypeString, Default: bfs2d.VisitedL1,
				Choices: []string{bfs2d.VisitedL1, bfs2d.VisitedL2},
				Help:    "CUDA: the visited-bitmap test before the atomicOr: l1 (a plain load, which on sm_90 may return a stale L1 word; a stale zero costs an extra atomic) or l2 (__ldcg, an L2 load that sees bits set by atomics already done); l1 is the default because it measured slightly faster on an H200 at scale 24 (results/atomic2d). The CPU backend ignores it: its loads are sync/atomic loads anyway"},
			{Name: pAppend, Type: sdk.TypeString, Default: bfs2d.AppendBlock,
				Choices: []string{bfs2d.AppendBlock, bfs2d.AppendWarp},
				Help:    "CUDA: how the expansion reserves output queue slots (Algorithm 3 lines 11 and 13, the paper's atomicInc on the per-column counter): block (warps add in shared memory, one global atomic per block round and queue) or warp (one global atomic per warp and queue); on a 1×1 grid every winner goes to one counter, whose same-address atomics are served one at a time (results/h200-20261122-claims). The CPU backend ignores it"},
			{Name: pThreads, Type: sdk.TypeInt, Default: int64(256), Min: sdk.Bound(64), Max: sdk.Bound(1024),
				Help: "CUDA: threads per block (a multiple of 32)"},
			{Name: pWorkers, Type: sdk.TypeInt, Default: int64(0), Min: sdk.Bound(0),
				Help: "CPU: goroutines per rank running the kernels (0: GOMAXPROCS / ranks)"},
		},
		MultiRank: true,
	}
}

// options are one case's resolved parameters.
type options struct {
	bfs2d.Options
	Threads int
}

func parseOptions(cfg sdk.Config) (options, error) {
	params, err := plugin{}.Info().CheckParams(cfg.Params)
	if err != nil {
		return options{}, err
	}
	cfg.Params = params
	o := options{
		Options: bfs2d.Options{
			EdgesPerThread: int(cfg.Int(pEdgesPerThread)),
			BitmapMessages: cfg.String(pBitmapMessages),
			VisitedTest:    cfg.String(pVisitedTest),
			Append:         cfg.String(pAppend),
			Workers:        int(cfg.Int(pWorkers)),
		},
		Threads: int(cfg.Int(pThreads)),
	}
	if o.Threads%32 != 0 {
		return options{}, fmt.Errorf("%s = %d, want a multiple of 32", pThreads, o.Threads)
	}
	return o, nil
}

// gridShape is cfg.Grid, or for an unset grid the R×C with R ≤ C closest to
// square (seed 000 Table 1: 2 ranks 1×2, 8 ranks 2×4).
func gridShape(cfg sdk.Config) (r, c int, err error) {
	ranks := max(cfg.Ranks, 1)
	if cfg.Grid != [2]int{0, 0} {
		r, c = cfg.Grid[0], cfg.Grid[1]
		if r < 1 || c < 1 || r*c != ranks {
			return 0, 0, fmt.Errorf("grid %d×%d does not match %d ranks", r, c, ranks)
		}
		return r, c, nil
	}
	r = int(math.Sqrt(float64(ranks)))
	for ranks%r != 0 {
		r--
	}
	return r, ranks / r, nil
}

// New implements sdk.Plugin: every grid, 1×1 included, runs through
// sdk.NewDistributed (goroutine ranks, or one rank per MPI process).
func (plugin) New(cfg sdk.Config) (sdk.Variant, error) {
	o, err := parseOptions(cfg)
	if err != nil {
		return nil, err
	}
	if _, _, err := gridShape(cfg); err != nil {
		return nil, err
	}
	switch cfg.Backend {
	case sdk.BackendCPU, sdk.BackendCUDA:
	default:
		return nil, fmt.Errorf("atomic2d has no backend %q (it has cpu, cuda)", cfg.Backend)
	}
	return sdk.NewDistributed(cfg, func(c comm.Comm, cfg sdk.Config) (sdk.RankVariant, error) {
		return newRankVariant(c, cfg, o)
	})
}

// rankVariant is one rank's sdk.RankVariant.
type rankVariant struct {
	cfg    sdk.Config
	opt    options
	grid   *comm.Grid
	rank   *bfs2d.Rank
	device string
	devOrd int // CUDA device ordinal of this rank
	info   map[string]any
}

func newRankVariant(c comm.Comm, cfg sdk.Config, o options) (*rankVariant, error) {
	r, cc, err := gridShape(cfg)
	if err != nil {
		return nil, err
	}
	g, err := comm.NewGrid(c, r, cc)
	if err != nil {
		return nil, err
	}
	if o.Workers == 0 && cfg.Backend == sdk.BackendCPU && cfg.Launcher != sdk.LauncherMPIRun {
		// In-process ranks share the machine's cores.
		o.Workers = max(1, defaultWorkers()/(r*cc))
	}
	return &rankVariant{cfg: cfg, opt: o, grid: g}, nil
}

// Construct builds the rank's CSC block through the shared 2D partition and
// sets up its backend (Graph500 kernel 1).
func (v *rankVariant) Construct(w *sdk.Workload) error {
	part, err := partition.Build2D(v.grid, w.NVertices, w.Edges)
	if err != nil {
		return err
	}
	l, csc, err := bfs2d.FromPartition(part)
	if err := comm.Agree(v.grid.World, err); err != nil {
		return err
	}
	part = nil
	if v.cfg.Backend == sdk.BackendCUDA {
		dev, err := cudaDeviceFor(v.grid.World.Rank())
		if err := comm.Agree(v.grid.World, err); err != nil {
			return err
		}
		v.devOrd = dev
		v.rank, v.device, err = bfs2d.NewCUDARank(v.grid, l, csc, v.opt.Options, bfs2d.CUDAOptions{Device: dev, ThreadsPerBlock: v.opt.Threads})
		if err != nil {
			return err
		}
	} else {
		if v.rank, err = bfs2d.NewCPURank(v.grid, l, csc, v.opt.Options); err != nil {
			return err
		}
	}
	v.info, err = caseInfo(v.grid, l, csc)
	return err
}

// cudaDeviceFor is one rank per GPU where there are enough GPUs: world rank
// r uses device r mod the device count (ranks share GPUs otherwise).
func cudaDeviceFor(rank int) (int, error) {
	n, err := bfs2d.DeviceCount()
	if err != nil {
		return 0, err
	}
	if n < 1 {
		return 0, fmt.Errorf("no CUDA device")
	}
	return rank % n, nil
}

// BFS implements sdk.RankVariant.
func (v *rankVariant) BFS(root int64) (sdk.Search, error) {
	if v.rank == nil {
		return sdk.Search{}, fmt.Errorf("bfs before construct")
	}
	res, err := v.rank.BFS(root)
	if err != nil {
		return sdk.Search{}, err
	}
	return sdk.Search{Levels: res.Levels, Phases: res.Phases, BoundBytes: v.searchBoundBytes()}, nil
}

// searchBoundBytes is what every search must move through device memory
// (bound.go's count, summed over the ranks).
func (v *rankVariant) searchBoundBytes() int64 {
	b, _ := v.info["bytes_fixed_per_bfs"].(int64)
	return b
}

// Parents implements sdk.RankVariant.
func (v *rankVariant) Parents(dst []int64) error {
	if v.rank == nil {
		return fmt.Errorf("parents before construct")
	}
	return v.rank.Parents(dst)
}

// Close implements sdk.RankVariant.
func (v *rankVariant) Close() error {
	var err error
	if v.rank != nil {
		err = v.rank.Close()
		v.rank = nil
	}
	if v.grid != nil {
		if e := v.grid.Close(); err == nil {
			err = e
		}
		v.grid = nil
	}
	return err
}

// Devices implements sdk.Devicer: this rank's GPU ("cuda:N name"); ranks
// sharing a GPU report the same string, so the union counts distinct GPUs.
func (v *rankVariant) Devices() []string {
	if v.device == "" {
		return nil
	}
	return []string{v.device}
}

// CaseInfo implements sdk.Informer.
// For the CUDA backend it adds the copy bandwidth of this rank's device,
// measured here (after the timed construction) for the bandwidth bound.
func (v *rankVariant) CaseInfo() map[string]any {
	if v.cfg.Backend == sdk.BackendCUDA && v.info != nil && v.info[sdk.InfoCopyBandwidthGBs] == nil {
		if bw, err := bfs2d.CopyBandwidth(v.devOrd, 1<<30, 10); err == nil {
			v.info[sdk.InfoCopyBandwidthGBs] = bw.CopyGBs
		} else {
			v.info["device_copy_error"] = err.Error()
		}
	}
	return v.info
}

// setOptions changes the algorithm parameters of a constructed rank (used
// by gridcheck's parameter sweeps; every rank gets the same options).
func (v *rankVariant) setOptions(o options) error {
	if o.Threads != v.opt.Threads {
		return fmt.Errorf("%s cannot change after construction (%d, then %d)", pThreads, v.opt.Threads, o.Threads)
	}
	if v.rank == nil {
		return fmt.Errorf("set options before construct")
	}
	o.Workers = v.opt.Workers
	if err := v.rank.SetOptions(o.Options); err != nil {
		return err
	}
	v.opt = o
	return nil
}
