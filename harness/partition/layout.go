// Package partition distributes a graph's edges over the ranks of a
// communicator, in the two layouts the distributed variants use:
//
//   - 1D (Layout1D, Build1D): vertices are cut into P consecutive blocks;
//     rank r owns block r and the adjacency lists of its vertices.
//   - 2D (Layout2D, Build2D): the R×C block layout of Yoo et al. as
//     [Bisson] §2.2 describes it (docs/papers.md): processor P(i,j) owns vertex
//     block jR+i and the edge blocks (mR+i, j), m = 0..C-1, stored as a
//     local CSC matrix with 32-bit local indices.
//
// Both are built distributedly: every rank passes its own share of the
// edge list (any share: e.g. the range it generated), and an all-to-all
// exchange moves every edge to the rank that owns it.
//
// Choices common to both layouts (the paper leaves them open):
//   - The graph is made undirected as Bisson et al. §5 do, "adding, for each
//     edge, its opposite": input edge {u,v} is stored as u→v and v→u.
//   - Self-loops are dropped (a BFS never follows them); duplicate edges
//     are kept (Graph500 counts them; a variant may remove them).
//   - Each adjacency list is sorted, so the local structures do not depend
//     on how the edge list was shared out among the ranks.
//   - Vertex blocks have ⌈N/P⌉ vertices (P = R·C), the last ones short or
//     empty when P does not divide N. Rank r owns vertex block r in both
//     layouts (comm.Grid numbers P(i,j) as rank jR+i), so the two layouts
//     agree on who owns a vertex, and parent arrays gathered in rank order
//     are in vertex order.
package partition

import (
	"fmt"
	"math"
)

// Layout1D places N vertices on P ranks in consecutive blocks of B.
type Layout1D struct {
	N int64 // vertices
	P int   // ranks
	B int64 // vertices per block, ⌈N/P⌉
}

// NewLayout1D checks its arguments and returns the 1D layout.
func NewLayout1D(n int64, p int) (Layout1D, error) {
	if n < 0 || p < 1 {
		return Layout1D{}, fmt.Errorf("partition: 1D layout of %d vertices over %d ranks", n, p)
	}
	return Layout1D{N: n, P: p, B: blockSize(n, int64(p))}, nil
}

func blockSize(n, p int64) int64 {
	b := (n + p - 1) / p
	return max(b, 1)
}

// Owner is the rank that owns vertex v.
func (l Layout1D) Owner(v int64) int { return int(v / l.B) }

// Range is the half-open vertex range [lo, hi) rank r owns (possibly
// empty).
func (l Layout1D) Range(r int) (lo, hi int64) { return blockRange(l.N, l.B, r) }

func blockRange(n, b int64, k int) (lo, hi int64) {
	lo = min(int64(k)*b, n)
	hi = min(lo+b, n)
	return lo, hi
}

// Layout2D is the partition of the N×N adjacency matrix over an R×C
// processor grid of [Bisson] §2.2. Column u of the matrix
// is vertex u's edge list (an entry in row v means the edge u→v). The
// columns are cut into C column blocks of R·B, the rows into R·C row
// blocks of B; vertex block k is vertices [kB, (k+1)B).
//
// Processor P(i,j) (world rank jR+i, see comm.Grid):
//   - owns vertex block jR+i;
//   - holds the matrix blocks (mR+i, j) for m = 0..C-1: the edges from
//     vertices of column block j to vertices of the row blocks mR+i.
//
// Its local matrix has R·B columns and C·B rows, indexed with 32 bits:
//   - local column r·B+o is global vertex (jR+r)·B+o, owned by P(r,j):
//     the same index on every processor of grid column j, so frontiers
//     are exchanged along the column as local column indices (expand);
//   - local row m·B+o is global vertex (mR+i)·B+o, owned by P(i,m): the
//     same index on every processor of grid row i, so discovered vertices
//     are sent along the row as local row indices (fold), and the owner's
//     grid column is the local row divided by B (Bisson et al. §3.4).
//
// Indices past N (padding of short blocks) have no edges.
type Layout2D struct {
	N    int64
	R, C int
	B    int64 // vertices per vertex block, ⌈N/(R·C)⌉
}

// NewLayout2D checks the grid and returns the layout. Local indices must fit
// in 32 bits: R·B and C·B must be below 2^32.
func NewLayout2D(n int64, r, c int) (Layout2D, error) {
	if n < 0 || r < 1 || c < 1 {
		return Layout2D{}, fmt.Errorf("partition: 2D layout of %d vertices over a %d×%d grid", n, r, c)
	}
	l := Layout2D{N: n, R: r, C: c, B: blockSize(n, int64(r)*int64(c))}
	if l.LocalCols() > math.MaxUint32 || l.LocalRows() > math.MaxUint32 {
		return Layout2D{}, fmt.Errorf("partition: a %d×%d grid over %d vertices needs %d local columns and %d local rows per processor, beyond 32-bit local indices", r, c, n, l.LocalCols(), l.LocalRows())
	}
	return l, nil
}

// LocalCols is R·B, the columns of every local matrix (N/C in the paper).
func (l Layout2D) LocalCols() int64 { return int64(l.R) * l.B }

// LocalRows is C·B, the rows of every local matrix (N/R in the paper).
func (l Layout2D) LocalRows() int64 { return int64(l.C) * l.B }

// Block is vertex v's vertex block (and row block).
func (l Layout2D) Block(v int64) int { return int(v / l.B) }

// BlockRange is the half-open vertex range of vertex block k.
func (l Layout2D) BlockRange(k int) (lo, hi int64) { return blockRange(l.N, l.B, k) }

// Owner is the grid position of the processor that owns vertex v: block
// k = jR+i.
func (l Layout2D) Owner(v int64) (i, j int) {
	k := l.Block(v)
	return k % l.R, k / l.R
}

// OwnerRank is the world rank that owns vertex v (its block number).
func (l Layout2D) OwnerRank(v int64) int { return l.Block(v) }

// EdgeOwner is the grid position of the processor that stores the edge
// u→v: row block of v is mR+i, column block of u is j.
func (l Layout2D) EdgeOwner(u, v int64) (i, j int) {
	return l.Block(v) % l.R, int(u / l.LocalCols())
}

// ColBlock is vertex u's column block: the grid column whose processors
// hold u's edge list.
func (l Layout2D) ColBlock(u int64) int { return int(u / l.LocalCols()) }

// ColLocal is the local column of vertex u on the processors of grid
// column j (u must lie in column block j).
func (l Layout2D) ColLocal(j int, u int64) uint32 {
	return uint32(u - int64(j)*l.LocalCols())
}

// ColGlobal is the global vertex of local column lc on the processors of
// grid column j.
func (l Layout2D) ColGlobal(j int, lc uint32) int64 {
	return int64(j)*l.LocalCols() + int64(lc)
}

// RowLocal is the local row of vertex v on the processors of grid row i (v
// must lie in a row block mR+i).
func (l Layout2D) RowLocal(i int, v int64) uint32 {
	k := int64(l.Block(v))
	m := k / int64(l.R)
	return uint32(m*l.B + v - k*l.B)
}

// RowGlobal is the global vertex of local row lr on the processors of grid
// row i.
func (l Layout2D) RowGlobal(i int, lr uint32) int64 {
	m, o := int64(lr)/l.B, int64(lr)%l.B
	return (m*int64(l.R)+int64(i))*l.B + o
}

// RowOwnerCol is the grid column of the processor (in the same grid row)
// that owns local row lr: lr / B.
func (l Layout2D) RowOwnerCol(lr uint32) int { return int(int64(lr) / l.B) }

// HasRow reports whether vertex v lies in a row block of grid row i.
func (l Layout2D) HasRow(i int, v int64) bool { return l.Block(v)%l.R == i }

// OwnRow0 is P(i,j)'s local row of its first own vertex: j·B. Its own
// vertices are local rows j·B .. j·B+B-1.
func (l Layout2D) OwnRow0(j int) uint32 { return uint32(int64(j) * l.B) }

// OwnCol0 is P(i,j)'s local column of its first own vertex: i·B. Its own
// vertices are local columns i·B .. i·B+B-1.
func (l Layout2D) OwnCol0(i int) uint32 { return uint32(int64(i) * l.B) }
