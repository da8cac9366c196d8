package bfs2d

// layout.go is the index arithmetic of [1] §2.2 and §3.1 for processor
// P(i,j) of an R×C grid: which global vertices a rank's local rows and
// columns are, and the ROW2COL map of Algorithm 3.
//
// The N vertices are cut into R·C blocks of n = ⌈N/(R·C)⌉ vertices (the
// last may be short); P(i,j) owns block jR+i, which is world rank jR+i in
// comm.Grid's column-major order. P(i,j)'s local matrix has C·n rows (the
// row blocks mR+i, m = 0..C-1, in global order) and R·n columns (column
// block j, vertex blocks jR..jR+R-1). Hence:
//
//   - local row m·n+o is global vertex (mR+i)·n+o, owned by P(i,m): the
//     same local row on every processor of grid row i;
//   - local column r·n+o is global vertex (jR+r)·n+o, owned by P(r,j): the
//     same local column on every processor of grid column j;
//   - the rank's own vertices are local rows j·n..j·n+n-1 and local
//     columns i·n..i·n+n-1, and ROW2COL(j·n+o) = i·n+o.

import "fmt"

// Layout is one rank's view of the 2D partition.
type Layout struct {
	R, C int   // grid rows and columns
	I, J int   // this rank's grid row and column
	N    int64 // global vertices
	// BlockN is n, the vertices per vertex block.
	BlockN int64
}

// NewLayout checks the grid and the vertex count and returns P(i,j)'s
// layout. The local indices must fit in 32 bits ([1] §3: "32-bit data
// structures ... the 32-bit representation is used to store local
// partitions"), which bounds C·n and R·n below 2^31 (the top bit of a
// predecessor entry is a flag, see pred.go).
func NewLayout(r, c, i, j int, n int64) (Layout, error) {
	if r < 1 || c < 1 || i < 0 || i >= r || j < 0 || j >= c {
		return Layout{}, fmt.Errorf("bad grid position P(%d,%d) in a %d×%d grid", i, j, r, c)
	}
	if n < 1 {
		return Layout{}, fmt.Errorf("graph has %d vertices", n)
	}
	p := int64(r) * int64(c)
	bn := (n + p - 1) / p
	l := Layout{R: r, C: c, I: i, J: j, N: n, BlockN: bn}
	if l.LocalRows() >= 1<<31 || l.LocalCols() >= 1<<31 {
		return Layout{}, fmt.Errorf("a %d×%d grid over %d vertices needs %d local rows and %d local columns per rank: more than 32-bit local indices allow", r, c, n, l.LocalRows(), l.LocalCols())
	}
	return l, nil
}

// LocalRows is C·n, the rows of the local matrix (level, predecessor and
// bitmap length, [1] §3.1: N/R).
func (l Layout) LocalRows() int64 { return int64(l.C) * l.BlockN }

// LocalCols is R·n, the columns of the local matrix (N/C).
func (l Layout) LocalCols() int64 { return int64(l.R) * l.BlockN }

// Block is the vertex block this rank owns, jR+i (also its world rank).
func (l Layout) Block() int { return l.J*l.R + l.I }

// BlockStart is the first global vertex of block b.
func (l Layout) BlockStart(b int) int64 { return int64(b) * l.BlockN }

// BlockLen is the number of vertices of block b (BlockN except maybe for
// the last blocks).
func (l Layout) BlockLen(b int) int64 {
	lo := l.BlockStart(b)
	hi := min(lo+l.BlockN, l.N)
	return max(hi-lo, 0)
}

// OwnRow0 is the local row of this rank's first vertex (j·n).
func (l Layout) OwnRow0() uint32 { return uint32(int64(l.J) * l.BlockN) }

// OwnCol0 is the local column of this rank's first vertex (i·n).
func (l Layout) OwnCol0() uint32 { return uint32(int64(l.I) * l.BlockN) }

// RowToCol is ROW2COL of Algorithm 3: the local column of an own vertex
// given its local row.
func (l Layout) RowToCol(v uint32) uint32 { return v - l.OwnRow0() + l.OwnCol0() }

// RowOwnerCol is the grid column m owning local row v (tgtj of Algorithm 3
// line 9: v/(N/(RC))).
func (l Layout) RowOwnerCol(v uint32) int { return int(int64(v) / l.BlockN) }

// GlobalOfRow is the global vertex of local row v.
func (l Layout) GlobalOfRow(v uint32) int64 {
	m := int64(v) / l.BlockN
	return (m*int64(l.R)+int64(l.I))*l.BlockN + int64(v)%l.BlockN
}

// GlobalOfCol is the global vertex of local column u.
func (l Layout) GlobalOfCol(u uint32) int64 {
	return int64(l.J)*int64(l.R)*l.BlockN + int64(u)
}

// GlobalOfColIn is the global vertex of local column u of a rank in grid
// column m (the predecessor a processor of column m reports, pred.go).
func (l Layout) GlobalOfColIn(m int, u uint32) int64 {
	return int64(m)*int64(l.R)*l.BlockN + int64(u)
}

// LocalRowOf returns the local row of global vertex g, and false when g's
// block is not one of this rank's row blocks (g is not owned in grid row i).
func (l Layout) LocalRowOf(g int64) (uint32, bool) {
	if g < 0 || g >= l.N {
		return 0, false
	}
	b := g / l.BlockN
	if int(b%int64(l.R)) != l.I {
		return 0, false
	}
	return uint32((b/int64(l.R))*l.BlockN + g%l.BlockN), true
}

// LocalColOf returns the local column of global vertex g, and false when g
// is not in this rank's column block j.
func (l Layout) LocalColOf(g int64) (uint32, bool) {
	if g < 0 || g >= l.N {
		return 0, false
	}
	b := g / l.BlockN
	if int(b/int64(l.R)) != l.J {
		return 0, false
	}
	return uint32((b%int64(l.R))*l.BlockN + g%l.BlockN), true
}

// Owns reports whether global vertex g is in this rank's own block.
func (l Layout) Owns(g int64) bool {
	return g >= 0 && g < l.N && int(g/l.BlockN) == l.Block()
}
