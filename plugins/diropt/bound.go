package main

// bound.go: the byte bound and the measured floor (our counts; the paper
// gives neither).

import (
	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/plugins/diropt/dobfs"
)

// searchBoundBytes is the fewest bytes a search must move through device
// memory in this variant's data layout, summed over the ranks: every
// vertex the search reaches (but the root) must have its parent found and
// written, which takes at least
//
//   - its CSC offset (4 bytes; the next vertex's offset is its end),
//   - one CSC entry, the neighbour that becomes its parent (4 bytes),
//   - its 32-bit predecessor, written (4 bytes),
//
// and the visited bitmap must be read and written once (2 · n/8 bytes).
// Adjacency entries read past the first, the top-down levels' whole lists,
// the frontier bitmaps' traffic and the int64 parents the SDK copies out
// are not counted: the bound is what no search in this layout can avoid.
func searchBoundBytes(reached, n int64) int64 {
	return 12*max(reached-1, 0) + 2*((n+7)/8)
}

// floorReps is the number of timed passes of the measured floor.
const floorReps = 20

// floorFormula says what InfoFloorTimeS measures. With bu_first the first
// entry is read from the dense array the search's first check reads, so
// the floor is the least work in the layout the search uses (about 8
// bytes a vertex instead of 36: the floor drops with the layout); with
// bu_deg (deg) the check of level bu_deg reads a degree byte instead of
// the offsets (5 bytes a vertex), and so does the floor.
func floorFormula(buFirst, deg, leaves bool) string {
	entry := "one read of its CSC offsets, of its first CSC entry (a 32-byte sector of its list)"
	switch {
	case buFirst && deg:
		entry = "one read of its degree byte (bu_deg), of its first CSC entry from the dense first-entry array (bu_first)"
	case buFirst:
		entry = "one read of its CSC offsets, of its first CSC entry from the dense first-entry array (bu_first)"
	}
	f := "median of 20 passes of FloorKernel (cuda/diropt.cu): for every vertex with a neighbour, " +
		entry + " and of that entry's in_queue bit, a lane per vertex and a warp per 32 vertices as the bottom-up kernel maps them, words of isolated vertices skipped: the least work of the bottom-up step that gives each vertex its parent, done once (rank 0's block on 2D grids)"
	if leaves {
		f += "; with leaves, over the vertices that are not leaves, then LeafKernel: for each group of leaves by neighbour its bounds and the neighbour's visited bit read (the pass every search ends with, where every leaf is reached)"
	}
	return f
}

// caseInfo describes the partition (collective: sums over the grid).
func caseInfo(g *comm.Grid, b *dobfs.Block, edges, inputEdges int64) (map[string]any, error) {
	csc := []int64{int64(len(b.BU.Adj))}
	if err := comm.AllreduceSlice(g.World, csc, comm.Sum); err != nil {
		return nil, err
	}
	return map[string]any{
		"grid":                   []int{b.L.R, b.L.C},
		"block_vertices":         b.L.B,
		"input_edges":            inputEdges,
		"directed_edges":         edges,
		"csc_entries":            csc[0],
		"csr_csc_shared":         b.Shared,
		"csr_csc_offsets_shared": b.OffsetsShared(),
		"leaves":                 b.NumLeaves(),
		"bound_formula":          "12 bytes per reached vertex but the root (CSC offset, one CSC entry, its 32-bit predecessor written) + 2·n/8 (visited bitmap read and written once), summed over the ranks",
		"duplicates_note":        "self-loops and duplicate edges are removed in construction; directed_edges counts both directions of each remaining edge",
	}, nil
}
