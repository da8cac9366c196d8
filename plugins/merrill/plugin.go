package main

// plugin.go: the merrill plugin's description (sdk.Info), its parameters
// (the paper's knobs, two presets) and its single-process variant, which
// drives every partition (GPU) itself.

import (
	"fmt"
	"time"

	"github.com/bfsbench/bfsbench/harness/sdk"
	"github.com/bfsbench/bfsbench/plugins/merrill/mgbfs"
)

// paperRef is the paper as Info.Paper cites it, by its key.
const paperRef = "[Mitsuishi] Algorithm 2, §5; gathering after [Merrill] (docs/papers.md)"

// plugin is the sdk.Plugin of merrill.
type plugin struct{}

// Parameter names.
const (
	pPreset       = sdk.PresetParam
	pGPUs         = "gpus"
	pGather       = "gather"
	pOverlap      = "overlap"
	pPeer         = "peer"
	pExpand       = "expand"
	pVisitedCheck = "visited_check"
	pVectorReset  = "vector_reset"
	pHugeLists    = "huge_lists"
)

// Presets. paper is the published configuration: every gathered edge
// scatters its parent (Fig. 3), Vector reset to -1 at every level
// (Algorithm 2), a list expanded by one CTA at most (Merrill et al.).
// tuned, ours: the scatter skips neighbours already visited (a 1-byte
// read instead of a 4-byte random write); UpdateLabels resets the entries
// it reads, so no level sweeps Vector with a memset; the longest lists are
// cut into chunks over the whole GPU, so that a level whose frontier holds
// a few hubs does not leave it to a few CTAs.
const (
	presetTuned = "tuned"
	presetPaper = "paper"
)

// Info implements sdk.Plugin.
func (plugin) Info() sdk.Info {
	return sdk.Info{
		Name:     "merrill",
		Paper:    paperRef,
		Summary:  "single-process multi-GPU BFS, 1D by destination: Merrill CTA/warp/scan gathering of every GPU's queue (own first, then circular left-right peer copies overlapped on a second stream), parents scattered into a vector-type array (no sort, no filter), UpdateLabels, ConvertVtoQ by a scan",
		Backends: []string{sdk.BackendCPU, sdk.BackendCUDA},
		Params: []sdk.Param{
			{Name: pPreset, Type: sdk.TypeString, Default: presetTuned, Choices: []string{presetTuned, presetPaper},
				Help: "paper, Algorithm 2 as published (every gathered edge scatters its parent, Vector reset by a memset each level, a list gathered by one CTA at most); tuned, ours (visited neighbours skipped, Vector reset by UpdateLabels, the longest lists over the whole GPU). A parameter the config sets wins over its preset value"},
			{Name: pGPUs, Type: sdk.TypeInt, Default: int64(1), Min: sdk.Bound(1), Max: sdk.Bound(64),
				Help: "partitions p, one per GPU (1D by destination); where fewer CUDA devices exist, partitions share devices round-robin and peer copies become device copies (case info shared_devices). The CPU backend runs p partitions too"},
			{Name: pGather, Type: sdk.TypeString, Default: mgbfs.GatherMerrill, Choices: []string{mgbfs.GatherMerrill, mgbfs.GatherThread},
				Help: "neighbour gathering: merrill (CTA for lists of at least a block, warp for at least 32, scan-based fine-grained gathering for the rest, Merrill et al.) or thread_per_vertex (each thread reads its vertex's list alone). The CPU backend ignores it"},
			{Name: pOverlap, Type: sdk.TypeBool, Default: true,
				Help: "CUDA, gpus > 1, peer = copy: copy the next queue on a second stream while the compute stream gathers the previous one (§5.3); off: each copy runs on the compute stream before its gather"},
			{Name: pPeer, Type: sdk.TypeString, Default: mgbfs.PeerCopy, Choices: []string{mgbfs.PeerCopy, mgbfs.PeerAccess},
				Help: "how a GPU gets the other GPUs' queues: copy (cudaMemcpyPeerAsync into receive buffers, the paper's UVA-MCP) or access (the gather kernel loads them from the peer's memory, UVA-MAP; fails where the devices cannot access each other)"},
			{Name: pExpand, Type: sdk.TypeString, Default: mgbfs.ExpandScatter, Choices: []string{mgbfs.ExpandScatter, mgbfs.ExpandContract},
				Help: "scatter_parents: parents scattered into Vector, then UpdateLabels and ConvertVtoQ (the paper); expand_contract: Merrill's edge queue of (neighbour, parent) pairs and a contraction claiming each vertex once (the paper's Table 4 comparison; needs 8 bytes per CSR entry more)"},
			{Name: pVisitedCheck, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "scatter_parents: skip neighbours already visited before writing Vector (paper false: every gathered edge writes)"},
			{Name: pVectorReset, Type: sdk.TypeString, Default: mgbfs.ResetUpdate, Presets: map[string]any{presetPaper: mgbfs.ResetMemset}, Choices: []string{mgbfs.ResetMemset, mgbfs.ResetUpdate},
				Help: "scatter_parents: how Vector returns to -1 each level: memset (Algorithm 2's 'Initialize Vector_i to -1') or update (UpdateLabels resets every entry it reads)"},
			{Name: pHugeLists, Type: sdk.TypeString, Default: mgbfs.HugeGrid, Presets: map[string]any{presetPaper: mgbfs.HugeBlock}, Choices: []string{mgbfs.HugeBlock, mgbfs.HugeGrid},
				Help: "CUDA, gather = merrill, scatter_parents: block (every list gathered by one CTA at most, Merrill et al.) or grid (lists of 4096 edges or more cut into 1024-edge chunks over the whole GPU after the level's gathers, and in the floor)"},
		},
		Memory: map[string]sdk.Memory{
			sdk.BackendCPU:  {HostPerVertex: 8 + 8 + 4 + 8 + 1 + 4 + 8, HostPerEdge: 8 + 16},
			sdk.BackendCUDA: {HostPerVertex: 8 + 8 + 4, HostPerEdge: 8, DevicePerVertex: 8 + 4 + 8 + 1 + 4 + 4 + 8 + 1, DevicePerEdge: 8},
		},
	}
}

// options are one case's parameters, as the SDK resolved them.
type options struct {
	mgbfs.Options
	GPUs int
}

func parseOptions(cfg sdk.Config) options {
	return options{
		Options: mgbfs.Options{Gather: cfg.String(pGather), Overlap: cfg.Bool(pOverlap), Peer: cfg.String(pPeer),
			Expand: cfg.String(pExpand), VisitedCheck: cfg.Bool(pVisitedCheck), VectorReset: cfg.String(pVectorReset),
			HugeLists: cfg.String(pHugeLists)},
		GPUs: int(cfg.Int(pGPUs)),
	}
}

// New implements sdk.Plugin.
func (plugin) New(cfg sdk.Config) (sdk.Variant, error) {
	o := parseOptions(cfg)
	if cfg.Ranks > 1 {
		return nil, fmt.Errorf("merrill is one process driving its GPUs (parameter gpus), not %d ranks", cfg.Ranks)
	}
	switch cfg.Backend {
	case sdk.BackendCPU:
	case sdk.BackendCUDA:
		if _, err := mgbfs.DeviceCount(); err != nil { // fail early and clearly without a GPU
			return nil, err
		}
	default:
		return nil, fmt.Errorf("merrill has no backend %q (it has cpu, cuda)", cfg.Backend)
	}
	return &variant{cfg: cfg, opt: o}, nil
}

// variant is one case: the partition and the searcher over an engine.
type variant struct {
	cfg  sdk.Config
	opt  options
	pt   *mgbfs.Partition
	s    *mgbfs.Searcher
	gpu  *mgbfs.CUDAEngine
	info map[string]any
}

// Construct builds the partition's CSRs and uploads them (Graph500 kernel 1).
func (v *variant) Construct(w *sdk.Workload) error {
	pt, err := mgbfs.Build(w.NVertices, w.Edges, v.opt.GPUs, 0) // 0 workers: GOMAXPROCS
	if err != nil {
		return err
	}
	v.pt = pt
	var eng mgbfs.Engine
	if v.cfg.Backend == sdk.BackendCUDA {
		g, err := mgbfs.NewCUDAEngine(pt, v.opt.Options, true)
		if err != nil {
			return err
		}
		v.gpu, eng = g, g
	} else {
		eng = mgbfs.NewCPUEngine(pt, v.opt.Options, 0)
	}
	v.s = mgbfs.NewSearcher(pt, eng)
	v.info = caseInfo(v, w.NEdges)
	return nil
}

// BFS implements sdk.Variant: the time ends when the last level's kernels
// are complete, every Label in device memory.
func (v *variant) BFS(root int64) (sdk.Search, error) {
	if v.s == nil {
		return sdk.Search{}, fmt.Errorf("bfs before construct")
	}
	t0 := time.Now()
	res, err := v.s.BFS(root)
	if err != nil {
		return sdk.Search{}, err
	}
	t := time.Since(t0).Seconds()
	return sdk.Search{TimeS: t, Levels: res.Levels, Phases: res.Phases, BoundBytes: searchBoundBytes(res, v.pt.P, v.devices())}, nil
}

// Parents implements sdk.Variant: the Label transfer, timed by the SDK
// apart from the search (the paper's Fig. 8).
func (v *variant) Parents(dst []int64) error {
	if v.s == nil {
		return fmt.Errorf("parents before construct")
	}
	return v.s.Parents(dst)
}

// Close implements sdk.Variant.
func (v *variant) Close() error {
	if v.s != nil {
		err := v.s.Close()
		v.s, v.gpu = nil, nil
		return err
	}
	return nil
}

// Devices implements sdk.Devicer.
func (v *variant) Devices() []string {
	if v.gpu == nil {
		return nil
	}
	return v.gpu.Devices()
}

func (v *variant) devices() int { return max(1, len(v.Devices())) }

// CaseInfo implements sdk.Informer. For the CUDA backend it adds, measured
// here (after the timed construction), the copy bandwidth of partition 0's
// device and the measured floor.
func (v *variant) CaseInfo() map[string]any {
	if v.gpu != nil && v.info != nil && v.info[sdk.InfoCopyBandwidthGBs] == nil {
		if bw, err := mgbfs.CopyBandwidth(v.gpu.DeviceOf(0), 1<<30, 10); err == nil {
			v.info[sdk.InfoCopyBandwidthGBs] = bw.CopyGBs
		} else {
			v.info["device_copy_error"] = err.Error()
		}
		if s, err := v.gpu.Floor(floorReps); err == nil {
			v.info[sdk.InfoFloorTimeS] = s
			v.info["floor_formula"] = floorFormula
			if v.opt.Expand == mgbfs.ExpandScatter && v.opt.VisitedCheck {
				v.info["floor_formula"] = floorCheckFormula
			}
		} else {
			v.info["floor_error"] = err.Error()
		}
	}
	return v.info
}
