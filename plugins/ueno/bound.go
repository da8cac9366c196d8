package main

// bound.go: the bytes a search must move through device memory, for the
// bandwidth bound (our count; the paper, [Ueno], gives none). A search in the paper's data structures
// must, on each rank, at least
//
//   - read every local edge's target once (4 bytes per local edge: the
//     component of a Graph500 root holds nearly every edge; we count all),
//   - read two column offsets per local column (8 bytes),
//   - clear SV once and read it (2 × n/R bits), and VISITED and NQ
//     likewise (4 × n/P bits),
//   - initialize and write PRED (2 × 8 bytes per own vertex),
//
// summed over the ranks. Exchanged bytes are each level's expand and fold
// Bytes, not device traffic.

import (
	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/partition"
)

// boundBytes is one rank's share of the bound.
func boundBytes(l partition.Layout2D, nnz int64) int64 {
	return 4*nnz + 8*l.LocalCols() + 2*l.LocalRows()/8 + 4*l.B/8 + 16*l.B
}

// caseInfo sums the bound over the grid (collective) and describes the
// partition.
func caseInfo(g *comm.Grid, p *partition.Part2D) (map[string]any, error) {
	nnz := int64(len(p.RowIdx))
	v := []int64{boundBytes(p.Layout, nnz), nnz}
	if err := comm.AllreduceSlice(g.World, v, comm.Sum); err != nil {
		return nil, err
	}
	maxNNZ, err := comm.AllreduceInt64(g.World, nnz, comm.Max)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"grid":                []int{p.Layout.R, p.Layout.C},
		"block_vertices":      p.Layout.B,
		"local_edges_total":   v[1],
		"local_edges_max":     maxNNZ,
		"bytes_fixed_per_bfs": v[0],
		"bytes_formula":       "sum over ranks of 4·local edges (targets) + 8·local columns (offsets) + 2·n/R/8 (SV clear and read) + 4·n/P/8 (VISITED, NQ) + 16·n/P (PRED initialized and written); level Bytes are exchanged and host-device bytes, not device traffic",
	}, nil
}
