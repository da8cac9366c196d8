package main

// bound.go: the bytes a search must move, for the bandwidth bound (our
// count; the paper, [Bisson], gives none). A top-down search in the paper's data
// structures must, on each rank, at least
//
//   - read every CSC row index once (4 bytes per local edge: the component
//     of an R-MAT root holds nearly every edge; we count them all),
//   - read two column offsets per local column (8 bytes),
//   - clear and read the visited bitmap once (2 × LocalRows/8 bytes),
//   - initialize and write the level array (2 × 4 bytes per local row),
//   - initialize and write the predecessor array (2 × 4 bytes per local row)
//     (Algorithm 2 lines 1-3 and Algorithm 3 lines 15 and 17),
//
// summed over the ranks. Exchanged messages are not device traffic and are
// not counted here (they are each level's Bytes).

import (
	"runtime"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/plugins/atomic2d/bfs2d"
)

// boundBytes is one rank's share of the bound.
func boundBytes(l bfs2d.Layout, nnz int64) int64 {
	rows := l.LocalRows()
	return 4*nnz + 8*l.LocalCols() + 2*(rows/8) + 16*rows
}

// caseInfo sums the bound over the grid (collective) and describes the
// partition.
func caseInfo(g *comm.Grid, l bfs2d.Layout, csc *bfs2d.LocalCSC) (map[string]any, error) {
	nnz := int64(len(csc.RowIdx))
	v := []int64{boundBytes(l, nnz), nnz}
	if err := comm.AllreduceSlice(g.World, v, comm.Sum); err != nil {
		return nil, err
	}
	maxNNZ, err := comm.AllreduceInt64(g.World, nnz, comm.Max)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"grid":                []int{l.R, l.C},
		"block_vertices":      l.BlockN,
		"local_edges_total":   v[1],
		"local_edges_max":     maxNNZ,
		"bytes_fixed_per_bfs": v[0],
		"bytes_formula":       "sum over ranks of 4·local edges (row indices) + 8·local columns (offsets) + 2·local rows/8 (bitmap clear and read) + 16·local rows (level and predecessor, initialized and written); level Bytes are exchanged message bytes, not device traffic",
	}, nil
}

func defaultWorkers() int { return runtime.GOMAXPROCS(0) }
