package main

// plugin.go: the edgescan plugin's description (sdk.Info), its parameters
// (the article's optimisations as knobs, seed 002) and the choice of
// backend.

import (
	"fmt"

	"github.com/bfsbench/bfsbench/harness/sdk"
)

// plugin is the sdk.Plugin of edgescan.
type plugin struct{}

// Parameter names.
const (
	pRestrict       = "restrict"
	pPermute        = "permute"
	pBlockVertices  = "block_vertices"
	pPack16         = "pack16"
	pThreads        = "threads_per_block"
	pEdgesPerThread = "edges_per_thread"
	pLazySource     = "lazy_source"
	pSummary        = "frontier_summary"
	pWriteCheck     = "write_check"
	pOrient         = "orient"
	pTileBits       = "tile_bits"
	pTileThreads    = "tile_threads"
	pTileUnroll     = "tile_unroll"
	pTileChunk      = "tile_chunk_edges"
	pDenseFrontier  = "dense_frontier"
	pDenseGrowing   = "dense_growing"
	pDenseClaim     = "dense_claim"
	pTilePipeline   = "tile_pipeline"
	pDevice         = "device"
	pWorkers        = "workers"
)

// dense_claim values (see the parameter's Help).
const (
	claimAtomic  = "atomic"
	claimCheck   = "check"
	claimPublish = "publish"
)

// Info implements sdk.Plugin.
func (plugin) Info() sdk.Info {
	return sdk.Info{
		Name:     "edgescan",
		Paper:    "seed 002: single-GPU BFS on a GTX Titan (Bellman-Ford-style edge scan), sections 'The implementation of the algorithm on the GPU' and 'Analysis of the results'",
		Summary:  "every iteration scans the whole edge list, one thread per edge checking both directions; uint8 levels, read-only-cache loads, edge permutation by destination block, 16-bit packing",
		Backends: []string{sdk.BackendCPU, sdk.BackendCUDA},
		Params: []sdk.Param{
			{Name: pRestrict, Type: sdk.TypeBool, Default: true,
				Help: "CUDA: read levels through a const __restrict__ pointer and the read-only cache (__ldg), write through a second alias (the article's 'restrict')"},
			{Name: pPermute, Type: sdk.TypeBool, Default: true,
				Help: "sort the edges by destination block of block_vertices vertices, for cache locality of the level reads (the article's 'cache' permutation)"},
			{Name: pBlockVertices, Type: sdk.TypeInt, Default: int64(1 << 10), Min: sdk.Bound(1024), Max: sdk.Bound(1 << 31),
				Help: "destination block size of the permutation, in vertices (within each tile when tile_bits > 0) (the article: about 1M, 1 MB of uint8 levels, sized for Kepler's L2; the default, 1K, was the fastest measured on an H200 at scale 24: results/edgescan)"},
			{Name: pOrient, Type: sdk.TypeBool, Default: false,
				Help: "store each edge with its higher-degree end as the source, so that the random source-level loads fall on the few high-degree vertices (not in the article; measured 8 to 10% slower on an H200 at scales 22 to 25, hence off: results/README.md)"},
			{Name: pPack16, Type: sdk.TypeString, Default: packAuto, Choices: []string{packAuto, packOn, packOff},
				Help: "pack both 16-bit ids of an edge into one 32-bit word; auto: when the graph has at most 65536 vertices"},
			{Name: pThreads, Type: sdk.TypeInt, Default: int64(256), Min: sdk.Bound(32), Max: sdk.Bound(1024),
				Help: "CUDA: threads per block (a multiple of 32)"},
			{Name: pEdgesPerThread, Type: sdk.TypeInt, Default: int64(4), Min: sdk.Bound(1), Max: sdk.Bound(4),
				Help: "CUDA: consecutive edges per thread, loaded as one vector: 1 (the article's one thread per edge), 2 or 4"},
			{Name: pLazySource, Type: sdk.TypeBool, Default: true,
				Help: "load the source's level only when the destination's level can make the edge act (not in the article; same results)"},
			{Name: pSummary, Type: sdk.TypeBool, Default: true,
				Help: "skip the source's level when the destination is unvisited and no vertex of the source's group of 64 is in the frontier (a 1-bit-per-group summary; implies lazy_source; not in the article)"},
			{Name: pWriteCheck, Type: sdk.TypeBool, Default: true,
				Help: "re-read a vertex's level before writing it and skip vertices already claimed in this iteration, in the scan kernel and in the dense kernel with dense_claim = check (the article writes once per frontier edge; not in the article)"},
			{Name: pTileBits, Type: sdk.TypeInt, Default: int64(18), Min: sdk.Bound(0), Max: sdk.Bound(18),
				Help: "group the edges in tiles of 2^tile_bits × 2^tile_bits vertices, for the CUDA dense kernel, which tests both ends of an edge in shared memory (2 bits per vertex, 2 × 2^tile_bits/4 bytes per block) in the iterations with a large frontier; 0: no tiles, every iteration runs the article's scan (not in the article; 12..18, unpacked graphs only)"},
			{Name: pTileThreads, Type: sdk.TypeInt, Default: int64(1024), Min: sdk.Bound(32), Max: sdk.Bound(1024),
				Help: "CUDA: threads per block of the dense kernel (a multiple of 32)"},
			{Name: pTileUnroll, Type: sdk.TypeInt, Default: int64(2), Min: sdk.Bound(1), Max: sdk.Bound(4),
				Help: "CUDA: edge groups (of edges_per_thread edges) a dense-kernel thread loads before testing any: 1, 2 or 4 (with tile_pipeline, twice that many are in flight; 4 with tile_pipeline spills registers at 1024 threads)"},
			{Name: pTileChunk, Type: sdk.TypeInt, Default: int64(1 << 17), Min: sdk.Bound(1024), Max: sdk.Bound(1 << 30),
				Help: "CUDA: most edges one dense-kernel block handles (a multiple of 4); a larger tile is split, each part loading the tile's states"},
			{Name: pDenseFrontier, Type: sdk.TypeFloat, Default: 0.01, Min: sdk.Bound(0),
				Help: "CUDA with tiles: an iteration whose frontier holds at least this fraction of the vertices runs the dense kernel (0: every iteration; above 1 with dense_growing off: none); every iteration too when the uint8 levels take more than half of the device's L2 (the scan's random level loads then miss)"},
			{Name: pDenseGrowing, Type: sdk.TypeBool, Default: true,
				Help: "CUDA with tiles: also run the dense kernel while the frontier grows (more than one vertex and more than the iteration before), whatever its size: on the way up a small frontier of hubs discovers millions of vertices, which the scan kernel writes one random access at a time"},
			{Name: pDenseClaim, Type: sdk.TypeString, Default: claimPublish, Choices: []string{claimPublish, claimAtomic, claimCheck},
				Help: "CUDA dense kernel: how a block's claim of a vertex reaches the other blocks; publish: an atomicAnd without return clears the vertex's unvisited bit in the global 2-bit states, which blocks starting later copy, so that they skip it, and the block writes the parent (blocks running together may each write one: the benign race); atomic: the same atomicAnd, waiting for its old value, so exactly one block writes the parent; with both, the next iteration's state build writes the claimed vertices' levels in one streaming pass; check: each block works from the states of the iteration's start and re-reads the level from L2 before writing level and parent (write_check) (not in the article; measured on an H200: results/h200-20261122-claims)"},
			{Name: pTilePipeline, Type: sdk.TypeBool, Default: true,
				Help: "CUDA dense kernel: load a thread's next batch of edges before testing the current one (two register buffers)"},
			{Name: pDevice, Type: sdk.TypeInt, Default: int64(0), Min: sdk.Bound(0),
				Help: "CUDA: device ordinal"},
			{Name: pWorkers, Type: sdk.TypeInt, Default: int64(0), Min: sdk.Bound(0),
				Help: "CPU: goroutines scanning the edge list and preparing it (0: GOMAXPROCS)"},
		},
	}
}

// options are the resolved parameters of one case.
type options struct {
	Restrict       bool
	Permute        bool
	Orient         bool
	BlockVertices  int64
	Pack16         string
	Threads        int
	EdgesPerThread int
	LazySource     bool
	Summary        bool
	WriteCheck     bool
	TileBits       int
	TileThreads    int
	TileUnroll     int
	TileChunk      int64
	DenseFrontier  float64
	DenseGrowing   bool
	DenseClaim     string
	TilePipeline   bool
	Device         int
	Workers        int
}

// parseOptions reads cfg's parameters (defaults filled in by the harness)
// and checks the combinations sdk.Param bounds cannot express.
func parseOptions(cfg sdk.Config) (options, error) {
	// Fill defaults for any parameter the caller left out (tests and the
	// stand-alone check build Configs by hand).
	params, err := plugin{}.Info().CheckParams(cfg.Params)
	if err != nil {
		return options{}, err
	}
	cfg.Params = params
	o := options{
		Restrict:       cfg.Bool(pRestrict),
		Permute:        cfg.Bool(pPermute),
		Orient:         cfg.Bool(pOrient),
		BlockVertices:  cfg.Int(pBlockVertices),
		Pack16:         cfg.String(pPack16),
		Threads:        int(cfg.Int(pThreads)),
		EdgesPerThread: int(cfg.Int(pEdgesPerThread)),
		LazySource:     cfg.Bool(pLazySource),
		Summary:        cfg.Bool(pSummary),
		WriteCheck:     cfg.Bool(pWriteCheck),
		TileBits:       int(cfg.Int(pTileBits)),
		TileThreads:    int(cfg.Int(pTileThreads)),
		TileUnroll:     int(cfg.Int(pTileUnroll)),
		TileChunk:      cfg.Int(pTileChunk),
		DenseFrontier:  cfg.Float(pDenseFrontier),
		DenseGrowing:   cfg.Bool(pDenseGrowing),
		DenseClaim:     cfg.String(pDenseClaim),
		TilePipeline:   cfg.Bool(pTilePipeline),
		Device:         int(cfg.Int(pDevice)),
		Workers:        int(cfg.Int(pWorkers)),
	}
	if o.Threads%32 != 0 {
		return options{}, fmt.Errorf("%s = %d, want a multiple of 32", pThreads, o.Threads)
	}
	if o.EdgesPerThread != 1 && o.EdgesPerThread != 2 && o.EdgesPerThread != 4 {
		return options{}, fmt.Errorf("%s = %d, want 1, 2 or 4", pEdgesPerThread, o.EdgesPerThread)
	}
	if o.TileBits != 0 && o.TileBits < 12 {
		return options{}, fmt.Errorf("%s = %d, want 0 (no tiles) or 12..18", pTileBits, o.TileBits)
	}
	if o.TileThreads%32 != 0 {
		return options{}, fmt.Errorf("%s = %d, want a multiple of 32", pTileThreads, o.TileThreads)
	}
	if o.TileUnroll != 1 && o.TileUnroll != 2 && o.TileUnroll != 4 {
		return options{}, fmt.Errorf("%s = %d, want 1, 2 or 4", pTileUnroll, o.TileUnroll)
	}
	if o.TileChunk%4 != 0 {
		return options{}, fmt.Errorf("%s = %d, want a multiple of 4", pTileChunk, o.TileChunk)
	}
	return o, nil
}

func (o options) prep() prepOptions {
	return prepOptions{Permute: o.Permute, BlockVertices: o.BlockVertices, Orient: o.Orient, Pack16: o.Pack16, TileBits: o.TileBits, Workers: o.Workers}
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
type boundBytes struct {
	PerIteration int64
	Fixed        int64
}

func boundFor(a *edgeArrays) boundBytes {
	return boundBytes{PerIteration: a.EdgeBytes() + a.NV, Fixed: 10 * a.NV}
}

// info is the sdk.Informer map both backends report.
func (b boundBytes) info(a *edgeArrays) map[string]any {
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
