package main

// plugin.go: the edgescan plugin's description (sdk.Info), its parameters
// and presets, and the choice of backend.
//
// The paper: an untitled, unsigned web article (2014, read in English
// translation) on parallelizing breadth-first search on one NVIDIA GTX
// Titan (Kepler) GPU, a sequel to its author's article on single-source
// shortest paths. Its sections "The format of the data used", "The
// implementation of the algorithm on the GPU" and "Analysis of the results"
// give the kernel, the optimisations (restrict, permutation, 16-bit
// packing) and their ablation. The README calls it "the article".

import (
	"fmt"

	"github.com/bfsbench/bfsbench/harness/sdk"
)

// paperRef is the article as Info.Paper cites it, by its key.
const paperRef = "[Titan] (docs/papers.md): sections 'The format of the data used', 'The implementation of the algorithm on the GPU', 'Analysis of the results'"

// plugin is the sdk.Plugin of edgescan.
type plugin struct{}

// Parameter names.
const (
	pPreset         = sdk.PresetParam
	pRestrict       = "restrict"
	pPermute        = "permute"
	pBlockVertices  = "block_vertices"
	pPack16         = "pack16"
	pThreads        = "threads_per_block"
	pEdgesPerThread = "edges_per_thread"
	pSourceLoads    = "source_loads"
	pWriteCheck     = "write_check"
	pTileBits       = "tile_bits"
	pTileChunk      = "tile_chunk_edges"
	pDenseFrontier  = "dense_frontier"
	pDenseGrowing   = "dense_growing"
)

// Presets. paper is the article's kernel: one thread per edge loading
// both ends' levels, a level write per (frontier, unvisited) edge, the
// permutation by blocks of 2^20 vertices (1 MB of uint8 levels, the
// article's "optimal cache line"), no tiles; restrict, permute and pack16
// keep their defaults (the article's choices) in both presets.
const (
	presetTuned = "tuned"
	presetPaper = "paper"
)

// tileThreads is the dense kernel's block size.
const tileThreads = 1024

// source_loads values (cuda/edgescan.h's EDGESCAN_SOURCE_*).
const (
	sourceEager   = "eager"
	sourceLazy    = "lazy"
	sourceSummary = "summary"
)

// Info implements sdk.Plugin.
func (plugin) Info() sdk.Info {
	return sdk.Info{
		Name:     "edgescan",
		Paper:    paperRef,
		Summary:  "every iteration scans the whole edge list, one thread per edge checking both directions; uint8 levels, read-only-cache loads, edge permutation by destination block, 16-bit packing",
		Backends: []string{sdk.BackendCPU, sdk.BackendCUDA},
		Params: []sdk.Param{
			{Name: pPreset, Type: sdk.TypeString, Default: presetTuned, Choices: []string{presetTuned, presetPaper},
				Help: "paper, the article's kernel (blocks of 2^20 vertices, 1 edge per thread, eager source loads, no write check, no tiles); tuned, ours (blocks of 1024 vertices, 4 edges per thread, the frontier summary, the write check, tiles of 2^18 vertices with the dense kernel). A parameter the config sets wins over its preset value"},
			{Name: pRestrict, Type: sdk.TypeBool, Default: true,
				Help: "CUDA: read levels through a const __restrict__ pointer and the read-only cache (__ldg), write through a second alias (the article's 'restrict')"},
			{Name: pPermute, Type: sdk.TypeBool, Default: true,
				Help: "sort the edges by destination block of block_vertices vertices, for cache locality of the level reads (the article's 'cache' permutation)"},
			{Name: pBlockVertices, Type: sdk.TypeInt, Default: int64(1 << 10), Presets: map[string]any{presetPaper: int64(1 << 20)}, Min: sdk.Bound(1024), Max: sdk.Bound(1 << 31),
				Help: "destination block size of the permutation, in vertices, at least 1024 (within each tile when tile_bits > 0); paper 2^20, about 1 MB of uint8 levels, the article's choice for Kepler's L2"},
			{Name: pPack16, Type: sdk.TypeString, Default: packAuto, Choices: []string{packAuto, packOn, packOff},
				Help: "pack both 16-bit ids of an edge into one 32-bit word (the article's packing); auto: when the graph has at most 65536 vertices"},
			{Name: pThreads, Type: sdk.TypeInt, Default: int64(256), Min: sdk.Bound(32), Max: sdk.Bound(1024), Multiple: 32,
				Help: "CUDA: threads per block of the scan kernel (a multiple of 32)"},
			{Name: pEdgesPerThread, Type: sdk.TypeInt, Default: int64(4), Presets: map[string]any{presetPaper: int64(1)}, Min: sdk.Bound(1), Max: sdk.Bound(4),
				Help: "CUDA: consecutive edges per thread, loaded as one vector: 1 (the article's one thread per edge), 2 or 4"},
			{Name: pSourceLoads, Type: sdk.TypeString, Default: sourceSummary, Presets: map[string]any{presetPaper: sourceEager}, Choices: []string{sourceEager, sourceLazy, sourceSummary},
				Help: "when the source's level is loaded: eager, for every edge (the article); lazy, only when the destination's level lets the edge act; summary, lazy and also not when the destination is unvisited and no vertex of the source's group of 64 is in the frontier (a 1-bit-per-group frontier summary)"},
			{Name: pWriteCheck, Type: sdk.TypeBool, Default: true, Presets: map[string]any{presetPaper: false},
				Help: "re-read a vertex's level before writing it and skip vertices already claimed in this iteration (paper false: the article writes once per frontier edge)"},
			{Name: pTileBits, Type: sdk.TypeInt, Default: int64(18), Presets: map[string]any{presetPaper: int64(0)}, Min: sdk.Bound(0), Max: sdk.Bound(18),
				Help: "group the edges in tiles of 2^tile_bits × 2^tile_bits vertices (12..18, unpacked graphs only), for the CUDA dense kernel, which tests both ends of an edge in shared memory (2 bits per vertex, 2 × 2^tile_bits/4 bytes per block) in the iterations with a large frontier; 0: no tiles, every iteration runs the article's scan (paper)"},
			{Name: pTileChunk, Type: sdk.TypeInt, Default: int64(1 << 17), Min: sdk.Bound(1024), Max: sdk.Bound(1 << 30), Multiple: 4,
				Help: "CUDA with tiles: most edges one dense-kernel block handles (a multiple of 4); a larger tile is split, each part loading the tile's states"},
			{Name: pDenseFrontier, Type: sdk.TypeFloat, Default: 0.01, Min: sdk.Bound(0),
				Help: "CUDA with tiles: an iteration whose frontier holds at least this fraction of the vertices runs the dense kernel (0: every iteration; above 1 with dense_growing off: none); every iteration too when the uint8 levels take more than half of the device's L2 (the scan's random level loads then miss)"},
			{Name: pDenseGrowing, Type: sdk.TypeBool, Default: true,
				Help: "CUDA with tiles: also run the dense kernel while the frontier grows (more than one vertex and more than the iteration before), whatever its size: on the way up a small frontier of hubs discovers millions of vertices, which the scan kernel writes one random access at a time"},
		},
		// Rough linear estimates (bytes): the prepared edge arrays (source
		// and destination, 4 bytes each) and the copy that permuting or
		// tiling them makes; per vertex the uint8 levels, the parents
		// (8) and the summaries and tile counts. The CUDA backend frees its
		// host arrays once uploaded; on the device the edges, the levels,
		// 32- and 64-bit parents and the tiles' states.
		Memory: map[string]sdk.Memory{
			sdk.BackendCPU:  {HostPerVertex: 16, HostPerEdge: 16},
			sdk.BackendCUDA: {HostPerVertex: 16, HostPerEdge: 16, DevicePerVertex: 16, DevicePerEdge: 8},
		},
	}
}

// options are one case's parameters, as the SDK resolved them.
type options struct {
	Restrict       bool
	Permute        bool
	BlockVertices  int64
	Pack16         string
	Threads        int
	EdgesPerThread int
	SourceLoads    string
	WriteCheck     bool
	TileBits       int
	TileChunk      int64
	DenseFrontier  float64
	DenseGrowing   bool
}

// parseOptions reads cfg's parameters and checks the combinations
// sdk.Param bounds cannot express.
func parseOptions(cfg sdk.Config) (options, error) {
	o := options{
		Restrict:       cfg.Bool(pRestrict),
		Permute:        cfg.Bool(pPermute),
		BlockVertices:  cfg.Int(pBlockVertices),
		Pack16:         cfg.String(pPack16),
		Threads:        int(cfg.Int(pThreads)),
		EdgesPerThread: int(cfg.Int(pEdgesPerThread)),
		SourceLoads:    cfg.String(pSourceLoads),
		WriteCheck:     cfg.Bool(pWriteCheck),
		TileBits:       int(cfg.Int(pTileBits)),
		TileChunk:      cfg.Int(pTileChunk),
		DenseFrontier:  cfg.Float(pDenseFrontier),
		DenseGrowing:   cfg.Bool(pDenseGrowing),
	}
	if o.EdgesPerThread == 3 {
		return options{}, fmt.Errorf("%s = 3, want 1, 2 or 4", pEdgesPerThread)
	}
	if o.TileBits != 0 && o.TileBits < 12 {
		return options{}, fmt.Errorf("%s = %d, want 0 (no tiles) or 12..18", pTileBits, o.TileBits)
	}
	return o, nil
}

// lazy and summary are the source-load modes as the kernels test them.
func (o options) lazy() bool    { return o.SourceLoads != sourceEager }
func (o options) summary() bool { return o.SourceLoads == sourceSummary }

func (o options) prep() prepOptions {
	return prepOptions{Permute: o.Permute, BlockVertices: o.BlockVertices, Pack16: o.Pack16, TileBits: o.TileBits}
}

// New implements sdk.Plugin.
func (plugin) New(cfg sdk.Config) (sdk.Variant, error) {
	if cfg.Ranks > 1 {
		return nil, fmt.Errorf("edgescan runs on one process (ranks = %d)", cfg.Ranks)
	}
	o, err := parseOptions(cfg)
	if err != nil {
		return nil, err
	}
	switch cfg.Backend {
	case sdk.BackendCPU:
		return newCPU(o), nil
	case sdk.BackendCUDA:
		return newGPU(o)
	}
	return nil, fmt.Errorf("edgescan has no backend %q (it has cpu, cuda)", cfg.Backend)
}

// boundBytes describes the bytes a search must move, for the bandwidth
// bound (our count; the article gives none):
//
//	bytes(search) = iterations × (edge bytes + nv) + 10·nv
//
// Every iteration reads the whole edge array (M edges × 8 bytes, or 4
// packed) and, at the least, every vertex's level once (nv bytes; the
// levels are read at random but each byte must be fetched at least once).
// Once per search the levels (1 byte) and parents (4 bytes) are
// initialized, and each reached vertex's level and parent is written
// (at most 5·nv more).
//
// edgescan reports no measured floor (sdk.InfoFloorTimeS): its least work
// is this byte count, one stream of the edge list per iteration, and the
// number of iterations depends on the root, so the bound already says what
// a timed floor would.
type boundBytes struct {
	PerIteration int64
	Fixed        int64
}

func boundFor(a *edgeArrays) boundBytes {
	return boundBytes{PerIteration: a.EdgeBytes() + a.NV, Fixed: 10 * a.NV}
}

// info is the sdk.Informer map both backends report: the layout and the
// bound's byte count.
func (b boundBytes) info(a *edgeArrays, o options) map[string]any {
	return map[string]any{
		"edges_scanned":       a.M,
		"self_loops_dropped":  a.SelfLoops,
		"bytes_per_edge":      a.BytesPerEdge(),
		"packed16":            a.Packed != nil,
		"permute_blocks":      a.Blocks,
		"tile_bits":           a.TileBits,
		"tile_ranges":         a.Ranges,
		"padding_self_loops":  a.Padding,
		"bytes_per_iteration": b.PerIteration,
		"bytes_fixed_per_bfs": b.Fixed,
		"bytes_formula":       "iterations × bytes_per_iteration + bytes_fixed_per_bfs; bytes_per_iteration = edge arrays + one byte of level per vertex (each LevelPhase's bytes); fixed = init and final writes of uint8 levels and int32 parents",
	}
}

// phaseBytes is the Bytes of one iteration's LevelPhase.
func phaseBytes(a *edgeArrays) map[string]int64 {
	return map[string]int64{"edges": a.EdgeBytes(), "levels": a.NV}
}
