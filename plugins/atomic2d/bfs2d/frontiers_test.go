package bfs2d

import (
	"slices"
	"testing"

	"github.com/bfsbench/bfsbench/harness/comm"
)

// TestColumnFrontiers: the device path's closing collective gives the
// global frontier and, for grid column j, the sizes of P(0,j)..P(R-1,j),
// whatever the world order of the grid.
func TestColumnFrontiers(t *testing.T) {
	for _, g := range [][2]int{{1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 2}, {2, 3}} {
		r, c := g[0], g[1]
		all := make([]int64, r*c)
		var sum int64
		for i := range r {
			for j := range c {
				n := int64(100*i + j + 1) // P(i,j)'s frontier
				all[comm.GridRank(i, j, r)] = n
				sum += n
			}
		}
		for j := range c {
			got, col, err := columnFrontiers(all, r, j)
			if err != nil {
				t.Fatalf("%d×%d column %d: %v", r, c, j, err)
			}
			want := make([]int64, r)
			for i := range want {
				want[i] = int64(100*i + j + 1)
			}
			if got != sum || !slices.Equal(col, want) {
				t.Errorf("%d×%d column %d: sum %d, column %v; want %d, %v", r, c, j, got, col, sum, want)
			}
		}
	}
	if _, _, err := columnFrontiers(make([]int64, 3), 2, 0); err == nil {
		t.Error("3 sizes accepted for a 2-row grid")
	}
	if _, _, err := columnFrontiers(make([]int64, 4), 2, 2); err == nil {
		t.Error("column 2 of a 2×2 grid accepted")
	}
}
