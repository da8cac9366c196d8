package bfs2d

import (
	"fmt"
	"slices"
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/graph500"
	"github.com/bfsbench/bfsbench/harness/partition"
)

// TestFromPartitionMatchesNaive: the shared distributed 2D partition, built
// from per-rank edge shares, gives every rank exactly the CSC block that
// the layout arithmetic of layout.go predicts.
func TestFromPartitionMatchesNaive(t *testing.T) {
	edges := graph500.Generate(9, 8, [2]uint64{3, 4})
	n := graph500.NVertices(9)
	for _, grid := range [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {2, 3}} {
		t.Run(fmt.Sprintf("%dx%d", grid[0], grid[1]), func(t *testing.T) {
			p := grid[0] * grid[1]
			err := comm.RunLocal(p, func(c comm.Comm) error {
				g, err := comm.NewGrid(c, grid[0], grid[1])
				if err != nil {
					return err
				}
				defer g.Close()
				lo, hi := graph500.Share(int64(len(edges)), p, c.Rank())
				part, err := partition.Build2D(g, n, edges[lo:hi])
				if err != nil {
					return err
				}
				l, got, err := FromPartition(part)
				if err != nil {
					return err
				}
				want := naiveCSC(l, edges)
				if !slices.Equal(got.ColOff, want.ColOff) || !slices.Equal(got.RowIdx, want.RowIdx) {
					return fmt.Errorf("P(%d,%d): partition CSC (%d entries) differs from the layout's (%d entries)", l.I, l.J, len(got.RowIdx), len(want.RowIdx))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
