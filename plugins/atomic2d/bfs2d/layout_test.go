package bfs2d

import (
	"fmt"
	"testing"
)

// TestLayoutMaps checks the §2.2/§3.1 maps on several grids: every vertex's
// local row exists exactly on the processors of its owner's grid row, its
// local column exactly on those of its owner's grid column, global↔local
// maps invert each other, and ROW2COL maps an own row to the own column of
// the same vertex.
func TestLayoutMaps(t *testing.T) {
	for _, tc := range []struct {
		r, c int
		n    int64
	}{{1, 1, 16}, {1, 2, 16}, {2, 1, 16}, {2, 2, 64}, {2, 3, 61}, {4, 2, 100}} {
		t.Run(fmt.Sprintf("%dx%d/n%d", tc.r, tc.c, tc.n), func(t *testing.T) {
			for i := 0; i < tc.r; i++ {
				for j := 0; j < tc.c; j++ {
					l, err := NewLayout(tc.r, tc.c, i, j, tc.n)
					if err != nil {
						t.Fatal(err)
					}
					for g := int64(0); g < tc.n; g++ {
						b := int(g / l.BlockN)
						ownerI, ownerJ := b%tc.r, b/tc.r
						row, okRow := l.LocalRowOf(g)
						if okRow != (ownerI == i) {
							t.Fatalf("P(%d,%d): vertex %d (owner P(%d,%d)) row presence %v", i, j, g, ownerI, ownerJ, okRow)
						}
						if okRow {
							if back := l.GlobalOfRow(row); back != g {
								t.Fatalf("P(%d,%d): row %d of vertex %d maps back to %d", i, j, row, g, back)
							}
							if l.RowOwnerCol(row) != ownerJ {
								t.Fatalf("P(%d,%d): row %d owner column %d, want %d", i, j, row, l.RowOwnerCol(row), ownerJ)
							}
						}
						col, okCol := l.LocalColOf(g)
						if okCol != (ownerJ == j) {
							t.Fatalf("P(%d,%d): vertex %d column presence %v", i, j, g, okCol)
						}
						if okCol && l.GlobalOfCol(col) != g {
							t.Fatalf("P(%d,%d): column %d of vertex %d maps back to %d", i, j, col, g, l.GlobalOfCol(col))
						}
						if l.Owns(g) {
							if !okRow || !okCol || l.RowToCol(row) != col {
								t.Fatalf("P(%d,%d): own vertex %d: ROW2COL(%d) = %d, its column is %d", i, j, g, row, l.RowToCol(row), col)
							}
						}
					}
				}
			}
		})
	}
	if _, err := NewLayout(2, 2, 2, 0, 10); err == nil {
		t.Error("a grid position outside the grid was accepted")
	}
}

func TestBinsearchMaxLE(t *testing.T) {
	// Degrees 3, 0, 2, 0, 0 -> cumul 0 3 3 5 5 5.
	cumul := []uint32{0, 3, 3, 5, 5, 5}
	want := map[uint32]int{0: 0, 1: 0, 2: 0, 3: 2, 4: 2}
	for x, k := range want {
		if got := binsearchMaxLE(cumul, x); got != k {
			t.Errorf("maxle(%d) = %d, want %d", x, got, k)
		}
	}
}
