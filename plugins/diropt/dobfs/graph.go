package dobfs

// graph.go builds processor P(i,j)'s block of the adjacency matrix in the
// two representations of the seed's §IV-C ("storing both the CSC and CSR
// representations"): the top-down lists (CSR: a frontier vertex's
// neighbours, Algorithm 3's R and C arrays) and the bottom-up lists (CSC: an
// unvisited vertex's neighbours).
//
// Index spaces (harness/partition's Layout2D, shared with atomic2d): P(i,j)
// holds the edges from column block j (R·B vertices, its local columns) to
// the row blocks mR+i, m = 0..C-1 (C·B vertices, its local rows). in_queue is
// a bitmap over local columns; out_queue and visited are bitmaps over local
// rows. All local ids and offsets are 32-bit.
//
// Choices (Graph500 allows them; the paper does not say):
//   - self-loops are dropped (harness/partition) and duplicate edges removed
//     here: a BFS never needs either, and removing them shortens every list
//     a search reads;
//   - on a 1×1 grid the block is the whole symmetric matrix, whose CSR and
//     CSC are the same arrays: they are stored once (Shared), except with
//     Order "degree" and tdIDs (below);
//   - with Order "degree" every bottom-up list is sorted by decreasing
//     degree of the neighbour (ties by id): hubs are the vertices most
//     likely to be in the frontier, so the scan that stops at the first
//     frontier neighbour stops sooner. In 2D the key is the neighbour's
//     degree within the block. With Order "id" lists are sorted by id.
//     The top-down lists are in id order on 2D grids (the CSR is its own
//     arrays), and on 1×1 with tdIDs (the td_ids step: a CSR of its own
//     beside the CSC, as the seed's §IV-C stores both), so that the
//     neighbours a warp expands together, a hub's being dense in ids, share
//     the sectors of their visited words and predecessors; without it the
//     1×1 CSR is the degree-ordered CSC.

import (
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/bfsbench/bfsbench/harness/partition"
)

// Adjacency orders (the order parameter).
const (
	OrderID     = "id"
	OrderDegree = "degree"
)

// Adj is one compressed representation: vertex k's neighbours are
// Adj[Off[k]:Off[k+1]].
type Adj struct {
	Off []uint32
	Adj []uint32
}

// Deg is vertex k's degree in a.
func (a Adj) Deg(k uint32) uint32 { return a.Off[k+1] - a.Off[k] }

// List is vertex k's neighbours.
func (a Adj) List(k uint32) []uint32 { return a.Adj[a.Off[k]:a.Off[k+1]] }

// Block is P(i,j)'s share of the graph.
type Block struct {
	L      partition.Layout2D
	I, J   int
	TD     Adj  // CSR: local column → local rows (top-down)
	BU     Adj  // CSC: local row → local columns (bottom-up)
	Shared bool // TD and BU are the same arrays (1×1); with td_ids only their offsets are (OffsetsShared)
	// Isolated is a bitmap over local rows: the rows with no neighbour in
	// this block (vertices of degree 0, the padding past N). A search
	// starts with them marked visited, so that no kernel ever scans them.
	Isolated []uint32
	// Leaves and Skip (1×1, with the leaves step: FindLeaves, leaves.go):
	// the pairs (leaf, its neighbour) by increasing neighbour, and the isolated
	// rows with the leaves, which a reset marks visited. Without the step
	// Leaves is empty and Skip nil.
	Leaves []uint32
	Skip   []uint32
}

// OffsetsShared reports whether BU.Off is TD.Off, one array: where the
// CSC is the CSR (Shared), and on 1×1 with td_ids, where a vertex's list
// has the same length in both orders and only the entries are apart.
func (b *Block) OffsetsShared() bool {
	return b.Shared || (len(b.BU.Off) > 0 && len(b.BU.Off) == len(b.TD.Off) && &b.BU.Off[0] == &b.TD.Off[0])
}

// OwnRow0 is the first local row of the rank's own vertex block (J·B).
func (b *Block) OwnRow0() int64 { return int64(b.J) * b.L.B }

// OwnLen is the number of vertices of the own block (B, or fewer for the
// last blocks).
func (b *Block) OwnLen() int64 {
	lo, hi := b.L.BlockRange(b.J*b.L.R + b.I)
	return hi - lo
}

// BuildBlock turns P(i,j)'s share of harness/partition's 2D partition into
// a Block (consuming p: its arrays are released), its bottom-up lists in
// the given order and, with tdIDs on a 1×1 grid, its top-down lists in id
// order apart from them. workers ≤ 0 means GOMAXPROCS.
func BuildBlock(p *partition.Part2D, order string, tdIDs bool, workers int) (*Block, error) {
	if order != OrderID && order != OrderDegree {
		return nil, fmt.Errorf("adjacency order %q: want %q or %q", order, OrderID, OrderDegree)
	}
	l := p.Layout
	if l.LocalRows() >= math.MaxUint32 || l.LocalCols() >= math.MaxUint32 {
		return nil, fmt.Errorf("P(%d,%d): %d local rows, %d local columns: beyond 32-bit ids", p.I, p.J, l.LocalRows(), l.LocalCols())
	}
	b := &Block{L: l, I: p.I, J: p.J}
	var err error
	if b.TD, err = dedup(p.ColPtr, p.RowIdx, workers); err != nil {
		return nil, fmt.Errorf("P(%d,%d): %w", p.I, p.J, err)
	}
	p.ColPtr, p.RowIdx = nil, nil
	if l.R == 1 && l.C == 1 {
		if order == OrderDegree && tdIDs {
			// The same offsets (read only); the entries apart, sorted below.
			b.BU = Adj{Off: b.TD.Off, Adj: slices.Clone(b.TD.Adj)}
		} else {
			b.BU, b.Shared = b.TD, true
		}
	} else {
		b.BU = transpose(b.TD, l.LocalRows(), workers)
	}
	if order == OrderDegree {
		sortByDegree(b.BU, b.TD, workers)
	}
	b.Isolated = make([]uint32, words(l.LocalRows()))
	forChunks(int64(len(b.Isolated)), 1, workers, func(lo, hi int64) {
		for w := lo; w < hi; w++ {
			var x uint32
			for k := int64(0); k < 32; k++ {
				v := 32*w + k
				if v >= l.LocalRows() || b.BU.Off[v+1] == b.BU.Off[v] {
					x |= 1 << k
				}
			}
			b.Isolated[w] = x
		}
	})
	return b, nil
}

// dedup removes repeated entries from sorted lists (int64 offsets) and
// narrows the offsets to 32 bits.
func dedup(off []int64, adj []uint32, workers int) (Adj, error) {
	n := int64(len(off) - 1)
	cnt := make([]uint32, n+1)
	forChunks(n, 1, workers, func(lo, hi int64) {
		for k := lo; k < hi; k++ {
			c := uint32(0)
			for e := off[k]; e < off[k+1]; e++ {
				if e == off[k] || adj[e] != adj[e-1] {
					c++
				}
			}
			cnt[k+1] = c
		}
	})
	var total uint64
	for k := int64(1); k <= n; k++ {
		total += uint64(cnt[k])
		if total > math.MaxUint32 {
			return Adj{}, fmt.Errorf("more than 2^32-1 local edges: beyond 32-bit offsets, use a larger grid")
		}
		cnt[k] = uint32(total)
	}
	out := make([]uint32, total)
	forChunks(n, 1, workers, func(lo, hi int64) {
		for k := lo; k < hi; k++ {
			at := cnt[k]
			for e := off[k]; e < off[k+1]; e++ {
				if e == off[k] || adj[e] != adj[e-1] {
					out[at] = adj[e]
					at++
				}
			}
		}
	})
	return Adj{Off: cnt, Adj: out}, nil
}

// transpose returns the lists of a's transpose over nrows rows, each
// sorted by id. Two passes without atomics (as harness/partition's
// compress): segments of a's columns count their entries per bucket of
// consecutive rows and move them, as (row, column) pairs, into a buffer in
// bucket order; then each bucket places its pairs on its own. Segments are
// in column order and each walks its columns in order, so every row's
// columns arrive sorted and need no sort.
func transpose(a Adj, nrows int64, workers int) Adj {
	ncols := int64(len(a.Off) - 1)
	nnz := int64(len(a.Adj))
	off := make([]uint32, nrows+1)
	if nnz == 0 || nrows == 0 {
		return Adj{Off: off, Adj: []uint32{}}
	}
	shift := uint(0) // buckets of 2^shift consecutive rows
	for (nrows-1)>>shift >= transposeBuckets {
		shift++
	}
	nb := (nrows-1)>>shift + 1
	w := workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	nseg := min(int64(8*w), ncols)
	segment := func(s int64) (lo, hi int64) { return s * ncols / nseg, (s + 1) * ncols / nseg }
	counts := make([]int64, nseg*nb) // counts[s*nb+b]: entries of segment s in bucket b
	forChunks(nseg, 1, workers, func(lo, hi int64) {
		for s := lo; s < hi; s++ {
			cs := counts[s*nb : (s+1)*nb]
			c0, c1 := segment(s)
			for _, v := range a.Adj[a.Off[c0]:a.Off[c1]] {
				cs[int64(v)>>shift]++
			}
		}
	})
	bstart := make([]int64, nb+1)
	at := int64(0)
	for b := int64(0); b < nb; b++ {
		bstart[b] = at
		for s := int64(0); s < nseg; s++ {
			c := counts[s*nb+b]
			counts[s*nb+b] = at
			at += c
		}
	}
	bstart[nb] = at
	tmp := make([]uint32, 2*nnz) // (row, column) pairs in bucket order
	forChunks(nseg, 1, workers, func(lo, hi int64) {
		for s := lo; s < hi; s++ {
			ps := counts[s*nb : (s+1)*nb]
			c0, c1 := segment(s)
			for u := c0; u < c1; u++ {
				for _, v := range a.List(uint32(u)) {
					p := &ps[int64(v)>>shift]
					tmp[2**p], tmp[2**p+1] = v, uint32(u)
					*p++
				}
			}
		}
	})
	adj := make([]uint32, nnz)
	forChunks(nb, 1, workers, func(lo, hi int64) {
		next := make([]uint32, 1<<shift)
		for b := lo; b < hi; b++ {
			r0, r1 := b<<shift, min((b+1)<<shift, nrows)
			clear(next)
			for e := bstart[b]; e < bstart[b+1]; e++ {
				next[int64(tmp[2*e])-r0]++
			}
			run := uint32(bstart[b])
			for r := r0; r < r1; r++ {
				c := next[r-r0]
				off[r], next[r-r0] = run, run
				run += c
			}
			for e := bstart[b]; e < bstart[b+1]; e++ {
				i := int64(tmp[2*e]) - r0
				adj[next[i]] = tmp[2*e+1]
				next[i]++
			}
		}
	})
	off[nrows] = uint32(nnz)
	return Adj{Off: off, Adj: adj}
}

// transposeBuckets bounds transpose's buckets (see compressBuckets in
// harness/partition).
const transposeBuckets = 2048

// sortByDegree sorts every list of a by decreasing degree in deg of the
// neighbour, ties by increasing id (one 64-bit key per entry: the
// complemented degree above the id, sorted as integers).
func sortByDegree(a, deg Adj, workers int) {
	forChunks(int64(len(a.Off)-1), 1, workers, func(lo, hi int64) {
		var keys []uint64
		for k := lo; k < hi; k++ {
			list := a.List(uint32(k))
			if len(list) < 2 {
				continue
			}
			keys = keys[:0]
			for _, u := range list {
				keys = append(keys, uint64(^deg.Deg(u))<<32|uint64(u))
			}
			slices.Sort(keys)
			for x, key := range keys {
				list[x] = uint32(key)
			}
		}
	})
}
