package main

// prepare.go: building the edge arrays that both backends scan, after the
// article ("The format of the data used" and the permutation and packing
// optimisations of "The implementation of the algorithm on the GPU"; see
// plugin.go for the reference).
//
// The article keeps the graph as two arrays startV[k], endV[k], one entry
// per undirected edge. Here:
//   - Src[k], Dst[k] are the V0, V1 of the Graph500 tuples, in generator
//     order. Self-loops are dropped (our choice): an edge (v, v) can never
//     change a level, since it would need levels[v] == iter and
//     levels[v] > iter at once. Duplicates are kept, as the article scans
//     the list it is given.
//   - permute: the article sorts the edges so that the levels each part of
//     the scan touches fit in the cache ("the optimal cache line is 1024 KB,
//     about 1 million elements of the levels array"). We read that as a
//     stable bucket sort of the edges by destination block,
//     Dst[k] / BlockVertices (2^20 in the paper preset); within a block the
//     generator order is kept.
//   - tiles (ours, for the CUDA dense kernel; TileBits > 0): the edges are
//     grouped by tile, tile (si, ei) holding the edges whose src lies in
//     vertex range si and dst in range ei, ranges of 2^TileBits vertices,
//     tiles in row-major order; within a tile the edges are then sorted by
//     destination block as above (when the block is smaller than a range).
//     Each tile is padded to a multiple of 4 edges with self-loops
//     (si·2^TileBits twice), so that every tile starts on a 16-byte vector;
//     a self-loop never changes a level, so both backends may scan the
//     padding. Not used on packed graphs (at most 65536 vertices: a tile or
//     two).
//   - pack16: when every vertex id fits in 16 bits (at most 65536
//     vertices), each edge becomes one word Dst<<16 | Src ("packing two
//     vertices of one arc into one variable of unsigned int type"), half the
//     bytes per edge.

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/bfsbench/bfsbench/harness/graph500"
)

// Pack16 modes.
const (
	packAuto = "auto"
	packOn   = "on"
	packOff  = "off"
)

// maxPack16Vertices is the most vertices whose ids fit in 16 bits.
const maxPack16Vertices = 1 << 16

// prepOptions selects the host-side layout.
type prepOptions struct {
	Permute       bool
	BlockVertices int64  // destination block size for Permute
	Pack16        string // packAuto, packOn or packOff
	TileBits      int    // 0: no tiles; else tiles of 2^TileBits × 2^TileBits vertices (unpacked only)
	Workers       int    // shares of the edge list sorted in parallel; 0 means GOMAXPROCS
}

// maxTileRanges bounds the ranges per side (tiles = ranges²) so that the
// per-worker tile counts stay small.
const maxTileRanges = 1 << 11

// edgeArrays is the prepared edge list.
type edgeArrays struct {
	NV        int64
	M         int64    // entries of the arrays: edges kept (self-loops dropped) plus Padding
	SelfLoops int64    // input edges dropped
	Padding   int64    // self-loops added to align tiles
	Src, Dst  []uint32 // M ids each, nil when Packed is used
	Packed    []uint32 // M words Dst<<16 | Src, nil when not packed
	Blocks    int64    // destination blocks of the permutation (per tile with tiles); 1 when not permuted
	TileBits  int      // 0 without tiles
	Ranges    int64    // vertex ranges per side with tiles (ranges² tiles)
	TileOff   []int64  // ranges²+1 offsets of the tiles in the arrays, nil without tiles
}

// BytesPerEdge is the edge-array bytes one iteration reads per edge.
func (a *edgeArrays) BytesPerEdge() int64 {
	if a.Packed != nil {
		return 4
	}
	return 8
}

// EdgeBytes is the size of the edge arrays: what every iteration reads.
func (a *edgeArrays) EdgeBytes() int64 { return a.M * a.BytesPerEdge() }

// edge returns edge k as (src, dst).
func (a *edgeArrays) edge(k int64) (uint32, uint32) {
	if a.Packed != nil {
		w := a.Packed[k]
		return w & 0xffff, w >> 16
	}
	return a.Src[k], a.Dst[k]
}

// usePack16 resolves the pack16 mode for nv vertices.
func usePack16(mode string, nv int64) (bool, error) {
	switch mode {
	case packAuto:
		return nv <= maxPack16Vertices, nil
	case packOff:
		return false, nil
	case packOn:
		if nv > maxPack16Vertices {
			return false, fmt.Errorf("pack16 = on needs at most %d vertices (16-bit ids), the graph has %d", maxPack16Vertices, nv)
		}
		return true, nil
	}
	return false, fmt.Errorf("pack16 = %q, want auto, on or off", mode)
}

// prepare builds the edge arrays of edges over nv vertices. It fails on a
// vertex id outside [0, nv) or a graph too large for 32-bit ids.
func prepare(edges []graph500.Edge, nv int64, opt prepOptions) (*edgeArrays, error) {
	if nv < 1 || nv > 1<<32-1 {
		return nil, fmt.Errorf("%d vertices: edgescan stores vertex ids in 32 bits (1 to 2^32-1 vertices)", nv)
	}
	pack, err := usePack16(opt.Pack16, nv)
	if err != nil {
		return nil, err
	}
	bv := nv // one block: no permutation
	if opt.Permute {
		if opt.BlockVertices < 1 {
			return nil, fmt.Errorf("block_vertices = %d, want >= 1", opt.BlockVertices)
		}
		bv = opt.BlockVertices
	}
	nblocks := (nv + bv - 1) / bv
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunks := splitRange(int64(len(edges)), workers)

	// Pass 0: check the ids.
	errs := make([]error, len(chunks))
	parallel(len(chunks), func(c int) {
		for i := chunks[c][0]; i < chunks[c][1]; i++ {
			e := edges[i]
			if e.V0 < 0 || e.V0 >= nv || e.V1 < 0 || e.V1 >= nv {
				errs[c] = fmt.Errorf("edge %d (%d,%d) has an end outside [0,%d)", i, e.V0, e.V1, nv)
				return
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if opt.TileBits > 0 && !pack {
		return prepareTiled(edges, nv, opt, chunks, bv)
	}

	// Pass 1: per chunk, count kept edges per destination block.
	counts := make([][]int64, len(chunks))
	parallel(len(chunks), func(c int) {
		cnt := make([]int64, nblocks)
		for i := chunks[c][0]; i < chunks[c][1]; i++ {
			if st, en := edges[i].V0, edges[i].V1; st != en {
				cnt[en/bv]++
			}
		}
		counts[c] = cnt
	})

	// Offsets: block-major, then chunk order, so that the scatter is a
	// stable sort by block.
	var m int64
	for b := int64(0); b < nblocks; b++ {
		for c := range chunks {
			n := counts[c][b]
			counts[c][b] = m
			m += n
		}
	}
	a := &edgeArrays{NV: nv, M: m, SelfLoops: int64(len(edges)) - m, Blocks: nblocks}
	if pack {
		a.Packed = make([]uint32, m)
	} else {
		a.Src = make([]uint32, m)
		a.Dst = make([]uint32, m)
	}

	// Pass 2: scatter.
	parallel(len(chunks), func(c int) {
		off := counts[c]
		for i := chunks[c][0]; i < chunks[c][1]; i++ {
			st, en := edges[i].V0, edges[i].V1
			if st == en {
				continue
			}
			b := en / bv
			k := off[b]
			off[b]++
			if pack {
				a.Packed[k] = uint32(en)<<16 | uint32(st)
			} else {
				a.Src[k] = uint32(st)
				a.Dst[k] = uint32(en)
			}
		}
	})
	return a, nil
}

// prepareTiled is prepare's layout with tiles (see the file comment): a
// stable bucket sort of the kept edges by tile, each tile padded to a
// multiple of 4 entries, then, within each tile, a stable sort by
// destination block of bv vertices when bv is smaller than a range.
func prepareTiled(edges []graph500.Edge, nv int64, opt prepOptions, chunks [][2]int64, bv int64) (*edgeArrays, error) {
	tb := opt.TileBits
	if tb < 1 || tb > 30 {
		return nil, fmt.Errorf("tile_bits = %d, want 1..30", tb)
	}
	ranges := (nv + 1<<tb - 1) >> tb
	if ranges > maxTileRanges {
		return nil, fmt.Errorf("tile_bits = %d gives %d vertex ranges per side for %d vertices, at most %d allowed: use larger tiles", tb, ranges, nv, maxTileRanges)
	}
	ntiles := ranges * ranges
	tile := func(st, en int64) int64 { return (st>>tb)*ranges + en>>tb }

	// Pass 1: per chunk, count kept edges per tile.
	counts := make([][]int64, len(chunks))
	parallel(len(chunks), func(c int) {
		cnt := make([]int64, ntiles)
		for i := chunks[c][0]; i < chunks[c][1]; i++ {
			if st, en := edges[i].V0, edges[i].V1; st != en {
				cnt[tile(st, en)]++
			}
		}
		counts[c] = cnt
	})
	// Offsets: tile-major, then chunk order; each tile padded to 4 entries.
	off := make([]int64, ntiles+1)
	var m, kept int64
	for t := range ntiles {
		off[t] = m
		for c := range chunks {
			n := counts[c][t]
			counts[c][t] = m
			m += n
			kept += n
		}
		m = (m + 3) / 4 * 4
	}
	off[ntiles] = m
	a := &edgeArrays{NV: nv, M: m, SelfLoops: int64(len(edges)) - kept, Padding: m - kept,
		Src: make([]uint32, m), Dst: make([]uint32, m), TileBits: tb, Ranges: ranges, TileOff: off, Blocks: 1}

	// Pass 2: scatter, and fill each tile's padding.
	parallel(len(chunks), func(c int) {
		next := counts[c]
		for i := chunks[c][0]; i < chunks[c][1]; i++ {
			st, en := edges[i].V0, edges[i].V1
			if st == en {
				continue
			}
			t := tile(st, en)
			k := next[t]
			next[t]++
			a.Src[k], a.Dst[k] = uint32(st), uint32(en)
		}
	})
	fill := func(t int64) int64 { // first padding entry of tile t
		if len(counts) == 0 {
			return off[t]
		}
		return counts[len(counts)-1][t]
	}
	for t := range ntiles {
		pad := uint32((t / ranges) << tb)
		for k := fill(t); k < off[t+1]; k++ {
			a.Src[k], a.Dst[k] = pad, pad
		}
	}

	// Pass 3: within each tile, a stable sort by destination block.
	if opt.Permute && bv < 1<<tb {
		sub := (int64(1)<<tb + bv - 1) / bv
		a.Blocks = sub
		var nextTile atomic.Int64
		parallel(len(chunks), func(int) {
			var src, dst []uint32
			cnt := make([]int64, sub+1)
			for t := nextTile.Add(1) - 1; t < ntiles; t = nextTile.Add(1) - 1 {
				lo, hi := off[t], fill(t)
				if hi-lo < 2 {
					continue
				}
				src = append(src[:0], a.Src[lo:hi]...)
				dst = append(dst[:0], a.Dst[lo:hi]...)
				clear(cnt)
				for _, en := range dst {
					cnt[int64(en)&(1<<tb-1)/bv+1]++
				}
				for b := int64(1); b <= sub; b++ {
					cnt[b] += cnt[b-1]
				}
				for k, en := range dst {
					b := int64(en) & (1<<tb - 1) / bv
					a.Src[lo+cnt[b]], a.Dst[lo+cnt[b]] = src[k], en
					cnt[b]++
				}
			}
		})
	}
	return a, nil
}

// splitRange cuts [0, n) into at most parts nearly equal [lo, hi) ranges.
func splitRange(n int64, parts int) [][2]int64 {
	if parts < 1 {
		parts = 1
	}
	if int64(parts) > n {
		parts = int(max(n, 1))
	}
	out := make([][2]int64, parts)
	for p := range parts {
		out[p] = [2]int64{n * int64(p) / int64(parts), n * int64(p+1) / int64(parts)}
	}
	return out
}

// parallel runs f(0..n-1) on n goroutines and waits for them: the passes
// of the stable bucket sorts need fixed shares of the edge list (share c's
// counts decide where its edges go), which harness/par's dynamic chunks
// do not give.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i)
		}()
	}
	wg.Wait()
}
